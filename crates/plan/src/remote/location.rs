//! Where each resource lives on the two services.

use siteops_config::compile::ResourceKind;
use siteops_config::model::SiteId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    Admin,
    Worker,
}

/// A resource on one of the services, by path relative to its base address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub service: Service,
    pub path: String,
}

impl Location {
    fn admin(path: String) -> Location {
        Location {
            service: Service::Admin,
            path,
        }
    }

    /// Where a resource lives: `config/<org>/sites/…` on the administration service,
    /// `config/<org>/<site>/<branch>` on the worker.
    pub fn of(site: &SiteId, kind: &ResourceKind) -> Location {
        let SiteId { org, site } = site;
        match kind {
            ResourceKind::Site => Location::admin(format!("config/{org}/sites/{site}.json")),
            ResourceKind::Public => {
                Location::admin(format!("config/{org}/sites/{site}/public.json"))
            }
            ResourceKind::Access => {
                Location::admin(format!("config/{org}/sites/{site}/access.json"))
            }
            ResourceKind::Code => Location::admin(format!("config/{org}/sites/{site}/code.json")),
            ResourceKind::Secret(id) => {
                Location::admin(format!("config/{org}/sites/{site}/secrets/{id}.json"))
            }
            ResourceKind::Worker(branch) => Location {
                service: Service::Worker,
                path: format!("config/{org}/{site}/{branch}"),
            },
        }
    }

    /// The org's sites: `{"sites": [{"name": …}]}`.
    pub fn sites_of(org: &str) -> Location {
        Location::admin(format!("config/{org}/sites.json"))
    }

    /// A site's secrets without values: `{"secrets": [{"id": …}]}`.
    pub fn secrets_of(site: &SiteId) -> Location {
        Location::admin(format!(
            "config/{}/sites/{}/secrets.json",
            site.org, site.site
        ))
    }

    /// The branches with worker entries: `{"branches": […]}`.
    pub fn branches_of(site: &SiteId) -> Location {
        Location {
            service: Service::Worker,
            path: format!("config/{}/{}", site.org, site.site),
        }
    }
}
