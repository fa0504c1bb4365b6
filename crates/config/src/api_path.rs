//! Where each resource lives on the platform's two services, written once: the
//! administration API's `config/<org>.json`, `config/<org>/profiles/…` and
//! `config/<org>/sites/…` paths (the older path family; [`Location::path_in`] gives the
//! newer family's `<org>/config.json`, `<org>/sites/<site>/config.json`, …) and the
//! worker's `config/<org>/<site>/<branch>`. The compile output's layout, the remote client's
//! requests and the bundled service's store keys of site documents are all derived from
//! these functions, so the three cannot disagree.

use crate::compile::{Owner, ResourceKind};
use crate::model::SiteId;

/// The two services a resource lives on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    Admin,
    Worker,
}

/// The administration API's two path families: the older one (`{admin_url}` such as
/// `https://admin.hlx.page`, paths `config/<org>/sites/<site>.json`) and the newer one
/// (a base such as `https://api.aem.live`, paths `<org>/sites/<site>/config.json`). The
/// worker has one family.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum PathFamily {
    #[default]
    Older,
    Newer,
}

impl PathFamily {
    /// `older` or `newer`, as the CLI and the plan name it.
    pub fn name(self) -> &'static str {
        match self {
            PathFamily::Older => "older",
            PathFamily::Newer => "newer",
        }
    }
}

/// A resource on one of the services, by path relative to its base address
/// (`…/admin/`, `…/transform/`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub service: Service,
    pub path: String,
}

/// The org's document: `config/<org>.json`.
pub fn org(org: &str) -> String {
    format!("config/{org}.json")
}

/// A profile's document: `config/<org>/profiles/<profile>.json`.
pub fn profile(org: &str, profile: &str) -> String {
    format!("config/{org}/profiles/{profile}.json")
}

/// The org's profiles: `config/<org>/profiles.json`.
pub fn profiles(org: &str) -> String {
    format!("config/{org}/profiles.json")
}

/// A site's document: `config/<org>/sites/<site>.json`.
pub fn site(org: &str, site: &str) -> String {
    format!("config/{org}/sites/{site}.json")
}

/// A part of a site's document with its own path: `config/<org>/sites/<site>/<part>.json`
/// (`public`, `access`, `code`, `content`, `secrets`).
pub fn site_part(org: &str, site: &str, part: &str) -> String {
    format!("config/{org}/sites/{site}/{part}.json")
}

/// One of a site's secrets: `config/<org>/sites/<site>/secrets/<id>.json`.
pub fn secret(org: &str, site: &str, id: &str) -> String {
    format!("config/{org}/sites/{site}/secrets/{id}.json")
}

/// An API key the repository declares, by name: `config/<org>/sites/<site>/apiKeys/<name>.json`.
/// The plan's address for it; the service keys a key's record by its id, and mints one at
/// `apiKeys.json` ([`Location::api_keys_of`]).
pub fn api_key(org: &str, site: &str, name: &str) -> String {
    format!("config/{org}/sites/{site}/apiKeys/{name}.json")
}

/// A site's configuration the service keeps as YAML (`query`, `sitemap`):
/// `config/<org>/sites/<site>/content/<name>.yaml`.
pub fn site_yaml(org: &str, site: &str, name: &str) -> String {
    format!("config/{org}/sites/{site}/content/{name}.yaml")
}

/// A site's aggregated configuration (its document over its profile), read only:
/// `config/<org>/aggregated/<site>.json`.
pub fn aggregated(org: &str, site: &str) -> String {
    format!("config/{org}/aggregated/{site}.json")
}

/// The org's sites: `config/<org>/sites.json`.
pub fn sites(org: &str) -> String {
    format!("config/{org}/sites.json")
}

/// The worker's configuration of one branch: `config/<org>/<site>/<branch>`.
pub fn worker_branch(org: &str, site: &str, branch: &str) -> String {
    format!("config/{org}/{site}/{branch}")
}

/// The branches with worker configurations: `config/<org>/<site>`.
pub fn worker_branches(org: &str, site: &str) -> String {
    format!("config/{org}/{site}")
}

impl Location {
    fn admin(path: String) -> Location {
        Location {
            service: Service::Admin,
            path,
        }
    }

    fn worker(path: String) -> Location {
        Location {
            service: Service::Worker,
            path,
        }
    }

    /// Where `owner`'s resource of `kind` lives. The org's and a profile's document are
    /// their owner's only resource, whatever `kind` says.
    pub fn of(owner: &Owner, kind: &ResourceKind) -> Location {
        match (owner, kind) {
            (Owner::Org(org_name), _) => Location::admin(org(org_name)),
            (Owner::Profile { org, name }, _) => Location::admin(profile(org, name)),
            (Owner::Site(site_id), kind) => Location::of_site(site_id, kind),
        }
    }

    /// Where a resource of `kind` of `site` lives.
    pub fn of_site(site_id: &SiteId, kind: &ResourceKind) -> Location {
        let SiteId { org, site: name } = site_id;
        match kind {
            // Not a site's kinds (compilation gives them their own owners, see `of`): read
            // under a site as its org's document and the profile of the site's name.
            ResourceKind::Org => Location::admin(self::org(org)),
            ResourceKind::Profile => Location::admin(profile(org, name)),
            ResourceKind::Site => Location::admin(site(org, name)),
            ResourceKind::Public => Location::admin(site_part(org, name, "public")),
            ResourceKind::Access => Location::admin(site_part(org, name, "access")),
            ResourceKind::Code => Location::admin(site_part(org, name, "code")),
            ResourceKind::Secret(id) => Location::admin(secret(org, name, id)),
            ResourceKind::ApiKey(key) => Location::admin(api_key(org, name, key)),
            ResourceKind::Worker(branch) => Location::worker(worker_branch(org, name, branch)),
            ResourceKind::Query => Location::admin(site_yaml(org, name, "query")),
            ResourceKind::Sitemap => Location::admin(site_yaml(org, name, "sitemap")),
        }
    }

    /// The org's profiles: `{"profiles": [{"name": …}]}`.
    pub fn profiles_of(org: &str) -> Location {
        Location::admin(profiles(org))
    }

    /// The org's sites: `{"sites": [{"name": …}]}`.
    pub fn sites_of(org: &str) -> Location {
        Location::admin(sites(org))
    }

    /// A site's aggregated configuration, read only.
    pub fn aggregated_of(site_id: &SiteId) -> Location {
        Location::admin(aggregated(&site_id.org, &site_id.site))
    }

    /// A site's secrets without values: `{"secrets": [{"id": …}]}`.
    pub fn secrets_of(site_id: &SiteId) -> Location {
        Location::admin(site_part(&site_id.org, &site_id.site, "secrets"))
    }

    /// A site's API keys: GET lists their records, POST mints one.
    pub fn api_keys_of(site_id: &SiteId) -> Location {
        Location::admin(site_part(&site_id.org, &site_id.site, "apiKeys"))
    }

    /// The versions of `owner`'s document (the org's, a profile's, a site's): `{"current":
    /// N, "versions": [{"version": N, "name", "created", "createdBy"}, …]}`, newest first.
    pub fn versions_of(owner: &Owner) -> Location {
        Location::admin(format!("{}/versions.json", document_folder(owner)))
    }

    /// Version `version` of `owner`'s document: the document as it was.
    pub fn version_of(owner: &Owner, version: u64) -> Location {
        Location::admin(format!(
            "{}/versions/{version}.json",
            document_folder(owner)
        ))
    }

    /// The branches with worker entries: `{"branches": […]}`.
    pub fn branches_of(site_id: &SiteId) -> Location {
        Location::worker(worker_branches(&site_id.org, &site_id.site))
    }

    /// The path relative to the base of `family` (the worker's paths are the same in
    /// both). `path` is the older family's; the newer one's is derived here, and only here:
    /// `config/<org>.json` → `<org>/config.json`, `config/<org>/sites.json` →
    /// `<org>/sites`, `config/<org>/profiles.json` → `<org>/profiles`,
    /// `config/<org>/{sites,profiles,aggregated}/<name>.json` → `<org>/…/<name>/config.json`
    /// and their sub-paths `…/<name>/<part>` → `<org>/…/<name>/config/<part>`, any other
    /// `config/<org>/<part>` → `<org>/config/<part>`.
    pub fn path_in(&self, family: PathFamily) -> String {
        if family == PathFamily::Older || self.service == Service::Worker {
            return self.path.clone();
        }
        newer_path(&self.path)
    }

    /// Where `siteops compile --out` writes the body: the administration API's path
    /// without its `config/`, the worker's under `transform/` with `.json` added.
    pub fn compile_path(&self) -> String {
        let relative = self.path.strip_prefix("config/").unwrap_or(&self.path);
        match self.service {
            Service::Admin => relative.to_string(),
            Service::Worker => format!("transform/{relative}.json"),
        }
    }
}

/// The older family's folder beside `owner`'s document: `config/<org>`,
/// `config/<org>/profiles/<profile>`, `config/<org>/sites/<site>`.
fn document_folder(owner: &Owner) -> String {
    match owner {
        Owner::Org(org) => format!("config/{org}"),
        Owner::Profile { org, name } => format!("config/{org}/profiles/{name}"),
        Owner::Site(SiteId { org, site }) => format!("config/{org}/sites/{site}"),
    }
}

/// Whether a path below a document's folder is its versions' (`versions.json`,
/// `versions/<n>.json`): those sit beside the document in the newer family, not under
/// its `config/`.
fn is_versions(part: &str) -> bool {
    part == "versions.json" || part.starts_with("versions/")
}

/// The newer family's path of an older family's (see [`Location::path_in`]). Names hold
/// no `/`, so the segments are the path's own.
fn newer_path(older: &str) -> String {
    let Some(rest) = older.strip_prefix("config/") else {
        return older.to_string();
    };
    let Some((org, rest)) = rest.split_once('/') else {
        // `config/<org>.json`.
        let org = rest.strip_suffix(".json").unwrap_or(rest);
        return format!("{org}/config.json");
    };
    match rest {
        "sites.json" => return format!("{org}/sites"),
        "profiles.json" => return format!("{org}/profiles"),
        _ if is_versions(rest) => return format!("{org}/{rest}"),
        _ => {}
    }
    if let Some((area, rest)) = rest.split_once('/')
        && matches!(area, "sites" | "profiles" | "aggregated")
    {
        return match rest.split_once('/') {
            Some((name, part)) if is_versions(part) => format!("{org}/{area}/{name}/{part}"),
            Some((name, part)) => format!("{org}/{area}/{name}/config/{part}"),
            None => {
                let name = rest.strip_suffix(".json").unwrap_or(rest);
                format!("{org}/{area}/{name}/config.json")
            }
        };
    }
    format!("{org}/config/{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_path_on_its_service_and_in_the_compile_output() {
        let id = SiteId {
            org: "acme".into(),
            site: "web".into(),
        };
        let cases = [
            (
                ResourceKind::Site,
                "config/acme/sites/web.json",
                "acme/sites/web.json",
            ),
            (
                ResourceKind::Public,
                "config/acme/sites/web/public.json",
                "acme/sites/web/public.json",
            ),
            (
                ResourceKind::Access,
                "config/acme/sites/web/access.json",
                "acme/sites/web/access.json",
            ),
            (
                ResourceKind::Code,
                "config/acme/sites/web/code.json",
                "acme/sites/web/code.json",
            ),
            (
                ResourceKind::Secret("k".into()),
                "config/acme/sites/web/secrets/k.json",
                "acme/sites/web/secrets/k.json",
            ),
            (
                ResourceKind::Worker("main".into()),
                "config/acme/web/main",
                "transform/acme/web/main.json",
            ),
            (
                ResourceKind::Query,
                "config/acme/sites/web/content/query.yaml",
                "acme/sites/web/content/query.yaml",
            ),
            (
                ResourceKind::Sitemap,
                "config/acme/sites/web/content/sitemap.yaml",
                "acme/sites/web/content/sitemap.yaml",
            ),
        ];
        for (kind, api, out) in cases {
            let location = Location::of(&Owner::Site(id.clone()), &kind);
            assert_eq!(
                location.service == Service::Worker,
                matches!(kind, ResourceKind::Worker(_))
            );
            assert_eq!(
                (location.path.as_str(), location.compile_path().as_str()),
                (api, out),
                "{kind:?}"
            );
        }
        let org = Location::of(&Owner::Org("acme".into()), &ResourceKind::Org);
        assert_eq!(
            (org.path.as_str(), org.compile_path().as_str()),
            ("config/acme.json", "acme.json")
        );
        let repoless = Owner::Profile {
            org: "acme".into(),
            name: "repoless".into(),
        };
        let profile = Location::of(&repoless, &ResourceKind::Profile);
        assert_eq!(
            (profile.path.as_str(), profile.compile_path().as_str()),
            (
                "config/acme/profiles/repoless.json",
                "acme/profiles/repoless.json"
            )
        );
        assert_eq!(
            Location::profiles_of("acme").path,
            "config/acme/profiles.json"
        );
        assert_eq!(Location::sites_of("acme").path, "config/acme/sites.json");
        assert_eq!(
            Location::secrets_of(&id).path,
            "config/acme/sites/web/secrets.json"
        );
        assert_eq!(Location::branches_of(&id).path, "config/acme/web");
        assert_eq!(
            Location::versions_of(&Owner::Site(id.clone())).path,
            "config/acme/sites/web/versions.json"
        );
        assert_eq!(
            Location::version_of(&Owner::Org("acme".into()), 2).path,
            "config/acme/versions/2.json"
        );
    }

    #[test]
    fn the_newer_family_has_each_resource_at_its_own_path() {
        let id = SiteId {
            org: "acme".into(),
            site: "web".into(),
        };
        let site = |kind: ResourceKind| Location::of_site(&id, &kind);
        let repoless = Owner::Profile {
            org: "acme".into(),
            name: "repoless".into(),
        };
        let cases = [
            (site(ResourceKind::Site), "acme/sites/web/config.json"),
            (
                site(ResourceKind::Public),
                "acme/sites/web/config/public.json",
            ),
            (
                site(ResourceKind::Secret("k".into())),
                "acme/sites/web/config/secrets/k.json",
            ),
            (
                site(ResourceKind::Query),
                "acme/sites/web/config/content/query.yaml",
            ),
            (
                Location::secrets_of(&id),
                "acme/sites/web/config/secrets.json",
            ),
            (
                Location::of(&Owner::Org("acme".into()), &ResourceKind::Org),
                "acme/config.json",
            ),
            (
                Location::of(&repoless, &ResourceKind::Profile),
                "acme/profiles/repoless/config.json",
            ),
            (Location::sites_of("acme"), "acme/sites"),
            (Location::profiles_of("acme"), "acme/profiles"),
            (
                Location::aggregated_of(&id),
                "acme/aggregated/web/config.json",
            ),
            (
                Location::admin("config/acme/cdn.json".into()),
                "acme/config/cdn.json",
            ),
            // A document's versions sit beside it.
            (
                Location::versions_of(&Owner::Site(id.clone())),
                "acme/sites/web/versions.json",
            ),
            (
                Location::version_of(&repoless, 3),
                "acme/profiles/repoless/versions/3.json",
            ),
            (
                Location::versions_of(&Owner::Org("acme".into())),
                "acme/versions.json",
            ),
            (
                Location::version_of(&Owner::Org("acme".into()), 12),
                "acme/versions/12.json",
            ),
            // The worker has one family.
            (
                site(ResourceKind::Worker("main".into())),
                "config/acme/web/main",
            ),
        ];
        for (location, newer) in cases {
            assert_eq!(location.path_in(PathFamily::Newer), newer, "{location:?}");
            assert_eq!(location.path_in(PathFamily::Older), location.path);
        }
    }
}
