//! `--shard K/N`: a deterministic share of the work for job K of N in a CI matrix (the
//! distributed engine users already have). A site or a golden case goes to the shard its
//! name hashes to, so it stays in its shard whatever else is added or removed, and every
//! job, given the same N, agrees on who owns what without talking to the others. That
//! includes sites only the service still has: with `--prune` each shard deletes its own.
//!
//! Sites that must be applied in order go together: those sharing an external repository
//! (the one that onboards it first, [`crate::apply::order`]) hash by the repository.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};
use siteops_config::compile::{Compiled, ResourceKind};
use siteops_config::model::SiteId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1 to `count`.
    index: u32,
    count: u32,
}

impl Shard {
    /// Whether the item named `name` (`org/site`, a case's name) is this shard's.
    pub fn takes(&self, name: &str) -> bool {
        let digest = Sha256::digest(name.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_be_bytes(first) % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// What each site of `compiled` is sharded by: its external repository (`byogit` owner and
/// repository, as the service compares them) when it has one, else its own `org/site`.
pub fn site_groups(compiled: &Compiled) -> HashMap<SiteId, String> {
    compiled
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::Site)
        .filter_map(|r| {
            let site = r.site()?;
            let group = match crate::apply::order::external_repository(&r.body) {
                Some((owner, repo)) => format!("repository {owner}/{repo}"),
                None => site.to_string(),
            };
            Some((site.clone(), group))
        })
        .collect()
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let parsed = text.split_once('/').and_then(|(k, n)| {
            Some((k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?))
        });
        match parsed {
            Some((index, count)) if (1..=count).contains(&index) => Ok(Shard { index, count }),
            _ => Err(format!(
                "`{text}` is not a shard: write K/N with 1 <= K <= N, such as 2/4"
            )),
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_has_exactly_one_shard_and_keeps_it() {
        let names: Vec<String> = (0..400).map(|i| format!("acme/site-{i}")).collect();
        for count in [1, 2, 3, 7] {
            let shards: Vec<Shard> = (1..=count)
                .map(|k| format!("{k}/{count}").parse().expect("a shard"))
                .collect();
            let mut sizes = vec![0usize; shards.len()];
            for name in &names {
                let owners: Vec<usize> = (0..shards.len())
                    .filter(|&s| shards[s].takes(name))
                    .collect();
                assert_eq!(owners.len(), 1, "{name} in {count} shards: {owners:?}");
                sizes[owners[0]] += 1;
            }
            // Hashing spreads names evenly enough: no shard gets under half its share.
            let fair = names.len() / shards.len();
            assert!(
                sizes.iter().all(|&size| size * 2 >= fair),
                "{count}: {sizes:?}"
            );
        }
        // The same shard for a name in every version (the hash is fixed, not seeded), or
        // the jobs of one matrix, built at different times, would disagree.
        let first: Shard = "1/2".parse().expect("a shard");
        assert_eq!(
            ["acme/web", "acme/shop", "globex/www", "acme/website"].map(|n| first.takes(n)),
            [true, false, true, false]
        );
        let third: Shard = "3/3".parse().expect("a shard");
        assert!(third.takes("acme/legacy") && !third.takes("acme/web"));
    }

    #[test]
    fn shards_are_k_of_n() {
        assert_eq!(
            "2/4".parse::<Shard>().map(|s| s.to_string()),
            Ok("2/4".into())
        );
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
