//! Authentication and authorisation of the bundled administration service.
//! [`token`] signs and verifies tokens (HS256 JWTs); [`roles`] decides, as a pure
//! function, what a verified caller may do with a site, from the platform's roles and
//! their permissions ([`permissions`]); [`powers`] computes what a site's configuration
//! gives (who is admin, whether its content is protected), which every configuration
//! write is checked against; [`key`] keeps the signing key in
//! the store; [`sign_in`] and [`oidc`] are how people sign in (an e-mail form's nonces, an
//! OpenID Connect provider), which the administration API's sign-in routes use;
//! [`api_keys`] whether an API key still holds on a site (its record is kept).

pub mod api_keys;
mod key;
pub mod oidc;
pub mod permissions;
pub mod powers;
pub mod roles;
pub mod sign_in;
pub mod token;

pub use key::{SIGNING_KEY, signing_key};
pub use sign_in::{Identity, SignIn, SignInNonces};

pub use api_keys::{KeyStanding, standing};
pub use powers::{Change, Powers, changes};
pub use roles::{Action, Decision, Grants, OrgAction, OrgAdmins, authorize_in, authorize_org};
pub use token::{Claims, KeyHolder, SigningKey, TokenError};

/// Whether two byte strings are equal, in time that does not depend on where they differ.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
