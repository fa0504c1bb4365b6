//! Which sites a plan covers: with `--site`, the named sites only; with `--shard K/N`, this
//! job's share of the repository's sites ([`Shard`]); and which sites the service has
//! that the plan reaches ([`PruneScope`]): with `--prune` it may delete them, without it
//! it reports them as not managed here. Pure: a plan's settings and the
//! compiled state in, the state to plan and what the live state is read for out.
//! `siteops plan` and `apply` use it, and the live session prunes through [`orgs`] and
//! [`PruneScope::every_site_of`]; their messages and flags stay with them.

use std::collections::BTreeSet;

use siteops_config::compile::{Compiled, Resource};
use siteops_config::model::{Fleet, SiteId};
use siteops_config::rules::is_id;

use crate::plan::PlanSettings;
use crate::shard::{Shard, site_groups};

/// Which live sites besides the repository's a plan reaches: with `--prune` read (and
/// they may go), without it listed (reported as not managed here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PruneScope {
    /// Every site of these orgs that the service lists; with a shard, only those of its
    /// share and none of `elsewhere` (the repository's sites of other shards).
    Orgs {
        orgs: BTreeSet<String>,
        shard: Option<Shard>,
        elsewhere: BTreeSet<SiteId>,
    },
    /// Only these sites.
    Sites(BTreeSet<SiteId>),
}

impl PruneScope {
    /// Every site the service lists in `orgs`: for a run that covers all of their sites.
    pub fn every_site_of(orgs: BTreeSet<String>) -> PruneScope {
        PruneScope::Orgs {
            orgs,
            shard: None,
            elsewhere: BTreeSet::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScopeError {
    /// A site named in the settings that is not `org/site`.
    #[error("{0}: expected org/site, names [a-z0-9][a-z0-9-]*")]
    NotASite(String),
    /// A site named in the settings that the repository does not have, without pruning
    /// (with it, the site is deleted from the service).
    #[error("{0}: the repository has no such site")]
    NoSuchSite(SiteId),
    /// The settings' shard, not `K/N` (the message says why).
    #[error("{0}")]
    NotAShard(String),
}

/// What a plan covers, from its settings (the command line's, or a saved plan's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// Only these sites; empty means every site of the repository.
    sites: BTreeSet<SiteId>,
    shard: Option<Shard>,
    prune: bool,
}

impl Scope {
    pub fn new(settings: &PlanSettings) -> Result<Scope, ScopeError> {
        let sites = (settings.sites.iter())
            .map(|text| parse_site(text).ok_or_else(|| ScopeError::NotASite(text.clone())))
            .collect::<Result<_, _>>()?;
        let shard = (settings.shard.as_deref())
            .map(str::parse::<Shard>)
            .transpose()
            .map_err(ScopeError::NotAShard)?;
        Ok(Scope {
            sites,
            shard,
            prune: settings.prune,
        })
    }

    /// The sites of `fleet` to compile: the named ones only, so that only their secrets
    /// are needed; the org documents and profiles are a whole repository's plan only.
    pub fn fleet(&self, fleet: &Fleet) -> Fleet {
        if self.sites.is_empty() {
            return fleet.clone();
        }
        Fleet {
            orgs: Vec::new(),
            profiles: Vec::new(),
            sites: (fleet.sites.iter())
                .filter(|site| self.sites.contains(&site.id))
                .cloned()
                .collect(),
        }
    }

    /// Narrows `compiled` (of [`Scope::fleet`]'s sites) to this shard's share, and says
    /// which live sites the plan reaches: with pruning, those it reads and may delete;
    /// without, those it reports as not managed by the repository (the same ones).
    pub fn narrow(&self, compiled: &mut Compiled) -> Result<PruneScope, ScopeError> {
        if !self.prune {
            let present: BTreeSet<&SiteId> = compiled
                .resources
                .iter()
                .filter_map(Resource::site)
                .collect();
            if let Some(missing) = self.sites.iter().find(|s| !present.contains(s)) {
                return Err(ScopeError::NoSuchSite(missing.clone()));
            }
        }
        // The repository's orgs, before a shard takes its share: a shard prunes its share
        // of each of them, whether or not it has a site of the org itself.
        let orgs = orgs(compiled);
        // The repository's sites another shard has: never this shard's to delete.
        let mut elsewhere = BTreeSet::new();
        if let Some(shard) = self.shard {
            let groups = site_groups(compiled);
            compiled.resources.retain(|r| {
                // The org's documents go with the shard its name hashes to.
                let Some(site) = r.site() else {
                    return shard.takes(r.owner.org());
                };
                let name = site.to_string();
                let ours = shard.takes(groups.get(site).unwrap_or(&name));
                if !ours {
                    elsewhere.insert(site.clone());
                }
                ours
            });
        }
        Ok(if self.sites.is_empty() {
            PruneScope::Orgs {
                orgs,
                shard: self.shard,
                elsewhere,
            }
        } else {
            PruneScope::Sites(self.sites.clone())
        })
    }
}

/// The orgs `compiled` has sites or documents in.
pub fn orgs(compiled: &Compiled) -> BTreeSet<String> {
    (compiled.resources.iter())
        .map(|r| r.owner.org().to_string())
        .collect()
}

fn parse_site(text: &str) -> Option<SiteId> {
    let (org, site) = text.split_once('/')?;
    (is_id(org) && is_id(site)).then(|| SiteId {
        org: org.to_string(),
        site: site.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use siteops_config::compile::{Owner, ResourceKind};

    use super::*;

    fn id(name: &str) -> SiteId {
        parse_site(name).expect("org/site")
    }

    /// A site for each name, with a secret beside the first.
    fn compiled(names: &[&str]) -> Compiled {
        let mut resources: Vec<Resource> = (names.iter())
            .map(|name| Resource {
                owner: Owner::Site(id(name)),
                kind: ResourceKind::Site,
                body: json!({"version": 1}),
            })
            .collect();
        resources.push(Resource {
            owner: Owner::Site(id(names[0])),
            kind: ResourceKind::Secret("sync".into()),
            body: json!({"value": "v"}),
        });
        Compiled { resources }
    }

    fn scope(sites: &[&str], shard: Option<&str>, prune: bool) -> Result<Scope, ScopeError> {
        Scope::new(&PlanSettings {
            prune,
            sites: sites.iter().map(|s| s.to_string()).collect(),
            replace_secrets: Vec::new(),
            shard: shard.map(str::to_string),
        })
    }

    fn sites_of(compiled: &Compiled) -> BTreeSet<String> {
        compiled
            .resources
            .iter()
            .map(|r| r.owner.to_string())
            .collect()
    }

    #[test]
    fn sites_are_org_slash_site_and_shards_k_of_n() {
        assert!(scope(&["acme/web", "globex/www"], Some("2/3"), false).is_ok());
        for bad in [
            "acme",
            "acme/",
            "/web",
            "Acme/web",
            "acme/web/x",
            "acme/-web",
        ] {
            assert_eq!(
                scope(&[bad], None, false),
                Err(ScopeError::NotASite(bad.into())),
                "{bad}"
            );
        }
        let Err(ScopeError::NotAShard(message)) = scope(&[], Some("4/3"), false) else {
            panic!("4/3 is no shard");
        };
        assert!(message.starts_with("`4/3` is not a shard"), "{message}");
    }

    #[test]
    fn a_named_site_the_repository_lacks_is_refused_unless_pruned() {
        let mut state = compiled(&["acme/web"]);
        let missing = scope(&["acme/web", "acme/gone"], None, false).expect("scope");
        assert_eq!(
            missing.narrow(&mut state),
            Err(ScopeError::NoSuchSite(id("acme/gone")))
        );
        let pruned = scope(&["acme/web", "acme/gone"], None, true).expect("scope");
        assert_eq!(
            pruned.narrow(&mut state),
            Ok(PruneScope::Sites([id("acme/gone"), id("acme/web")].into()))
        );
        assert_eq!(sites_of(&state), ["acme/web".to_string()].into());
    }

    #[test]
    fn without_sites_or_shard_everything_is_planned_and_the_orgs_pruned() {
        let all = compiled(&["acme/web", "acme/blog", "globex/www"]);
        let mut state = all.clone();
        let every = PruneScope::every_site_of(["acme".to_string(), "globex".to_string()].into());
        // Without pruning, the same sites are reached: reported, not deleted.
        assert_eq!(
            scope(&[], None, false).unwrap().narrow(&mut state),
            Ok(every.clone())
        );
        assert_eq!(state.resources.len(), all.resources.len());
        assert_eq!(
            scope(&[], None, true).unwrap().narrow(&mut state),
            Ok(every)
        );
    }

    #[test]
    fn shards_split_the_sites_and_prune_each_org_but_the_others_sites() {
        let names: Vec<String> = (0..12).map(|i| format!("acme/site-{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let all = compiled(&names);
        let mut taken = Vec::new();
        for k in 1..=3 {
            let mut state = all.clone();
            let prune = scope(&[], Some(&format!("{k}/3")), true)
                .unwrap()
                .narrow(&mut state)
                .expect("narrowed");
            let ours = sites_of(&state);
            let PruneScope::Orgs {
                orgs,
                shard,
                elsewhere,
            } = prune
            else {
                panic!("{prune:?}");
            };
            // Every shard prunes in every org of the repository, never another's sites.
            assert_eq!(orgs, ["acme".to_string()].into());
            assert_eq!(shard, Some(format!("{k}/3").parse().unwrap()));
            let elsewhere: BTreeSet<String> = elsewhere.iter().map(|s| s.to_string()).collect();
            assert!(ours.is_disjoint(&elsewhere));
            assert_eq!(ours.len() + elsewhere.len(), names.len());
            taken.extend(ours);
        }
        // Each site is exactly one shard's.
        taken.sort();
        let mut expected: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        expected.sort();
        assert_eq!(taken, expected);
    }
}
