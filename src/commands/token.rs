//! `siteops token`: mint a token with the local service's signing key, for scripts and CI.
//! The key is the one `serve` keeps in its data directory or store (made by whichever
//! comes first). A data directory that does not exist is refused rather than made: it
//! means the command runs outside the repository whose serve the token is for, and a key
//! made there would sign tokens no server takes.

use anyhow::{Result, bail};
use siteops_server::auth::Claims;
use siteops_server::auth::signing_key;
use siteops_server::store::StoreLocation;
use siteops_server::time::now_seconds;

use super::Outcome;
use crate::cli::TokenArgs;

pub(crate) fn run(args: &TokenArgs) -> Result<Outcome> {
    let location = args.data.location(&args.root);
    if let StoreLocation::Dir(dir) = &location
        && !dir.is_dir()
    {
        bail!(
            "no data directory at {location}: a token is signed with the key `siteops serve` \
             keeps in its data, so run token where serve runs (the repository root), or give \
             it serve's --root, --data or --store"
        );
    }
    let store = location.open()?;
    let key = siteops_server::store::block_on(signing_key(store.as_ref()))??;
    let now = now_seconds();
    let claims = Claims {
        sub: args.email.trim().to_string(),
        iat: now,
        exp: now.saturating_add(args.ttl),
        aud: args.site.clone(),
        jti: None,
        roles: None,
        profile: None,
    };
    println!("{}", key.sign(&claims));
    Ok(Outcome::Success)
}
