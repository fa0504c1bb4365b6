//! `siteops serve`: the local administration service, worker and preview host.

use anyhow::{Result, bail};

use super::Outcome;
use crate::cli::ServeArgs;

pub fn run(_args: &ServeArgs) -> Result<Outcome> {
    bail!(
        "`siteops serve` is not built yet: for now, `siteops validate` and `siteops compile` work on the repository"
    )
}
