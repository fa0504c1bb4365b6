//! `siteops token`: mint a token with the local service's signing key, for scripts and CI.

use anyhow::Result;
use siteops::admin::signing_key;
use siteops::auth::Claims;
use siteops::time::now_seconds;

use super::Outcome;
use crate::cli::TokenArgs;

pub fn run(args: &TokenArgs) -> Result<Outcome> {
    let store = args.data.location(&args.root).open()?;
    let key = signing_key(store.as_ref())?;
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
