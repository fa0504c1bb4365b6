//! Authentication and authorisation of the bundled administration service.
//! [`token`] signs and verifies tokens (HS256 JWTs); [`roles`] decides, as a pure
//! function, what a verified caller may do with a site.

pub mod roles;
pub mod token;

pub use roles::{Action, Decision, OrgAdmins, authorize};
pub use token::{Claims, SigningKey, TokenError};
