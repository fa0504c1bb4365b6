//! `siteops token`: mint a token with the local service's signing key, for scripts and CI.
//! The key is the one `serve` made in its data directory or store: minting never makes
//! one, since a token signed by a key no server uses is refused everywhere.

use anyhow::{Result, bail};
use siteops::admin::existing_signing_key;
use siteops::auth::Claims;
use siteops::store::StoreLocation;
use siteops::time::now_seconds;

use super::Outcome;
use crate::cli::TokenArgs;

pub fn run(args: &TokenArgs) -> Result<Outcome> {
    let location = args.data.location(&args.root);
    if let StoreLocation::Dir(dir) = &location
        && !dir.is_dir()
    {
        bail!(no_key(&location));
    }
    let store = location.open()?;
    let Some(key) = existing_signing_key(store.as_ref())? else {
        bail!(no_key(&location));
    };
    let now = now_seconds();
    let claims = Claims {
        sub: args.email.trim().to_string(),
        iat: now,
        exp: now.saturating_add(args.ttl),
        aud: args.site.clone(),
    };
    println!("{}", key.sign(&claims));
    Ok(Outcome::Success)
}

fn no_key(location: &StoreLocation) -> String {
    format!(
        "no signing key in {location}: a token is signed with the key `siteops serve` keeps \
         in its data, so start serve once first, and give token the same --root (the \
         repository serve runs in), --data or --store"
    )
}
