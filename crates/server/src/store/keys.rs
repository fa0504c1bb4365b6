//! Every store key the service writes, one function per format, and the names of the
//! locks that guard them (a lock is named by the key of what it guards). No other module
//! writes a key's format.
//!
//! **Tenants apart.** Every key of an org's data is `<area>/<org>/…` (the areas are
//! [`ORG_AREAS`]), so an org's data is one prefix per area and nothing of another org is
//! under it; the functions take the org first and put it right after the area. The
//! service's own keys ([`SIGNING_KEY`], [`SECRETS_KEY_CHECK`]) are under `keys/`, no
//! org's. The tests below hold every function to it.
//!
//! **Immutable keys.** [`ImmutableKey`] names an object whose bytes never change once
//! written (they are addressed by their content): a stored preview's files under their
//! revision (a hash of the files), and a branch's images (`media_<hash>.<ext>`). Only this
//! module makes one, so only such objects can go through a store's cache of immutable
//! objects ([`super::ImmutableCache`]); a document that can change has a plain `String`
//! key and is always read from the store.

use sha2::{Digest, Sha256};

use siteops_config::api_path;
use siteops_config::model::code_repo::CodeRepo;

/// The areas whose keys are `<area>/<org>/…`.
pub const ORG_AREAS: [&str; 7] = [
    "config",
    "repos",
    "jobs",
    "leases/jobs",
    "code",
    "transform",
    "preview",
];

/// The key tokens are signed with (sealed at rest).
pub const SIGNING_KEY: &str = "keys/token-signing.key";

/// The key check value of the secrets key ([`crate::sites::sealed`]).
pub const SECRETS_KEY_CHECK: &str = "keys/secrets-key-check.json";

/// The key of an object that never changes once written; made only here.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ImmutableKey(String);

impl ImmutableKey {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ImmutableKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

// Site configuration.

/// The folder of `org`'s site documents (the org's lock name too: creating a site
/// counts the org's sites).
pub fn sites(org: &str) -> String {
    format!("config/{org}/sites")
}

/// A site document (the site's lock name too: its read-modify-writes queue on it): its
/// path on the administration API, as the documents below.
pub fn site(org: &str, site: &str) -> String {
    api_path::site(org, site)
}

/// The folder where stores from before one document per site kept a site's public
/// configuration and secrets; deleted with the site.
pub(crate) fn site_folder(org: &str, site: &str) -> String {
    format!("{}/{site}", sites(org))
}

/// A site's index or sitemap configuration (`query`, `sitemap`), YAML kept as sent:
/// `…/sites/<site>/content/<name>.yaml`, beside the site's document (the platform's path;
/// deleted with the site).
pub(crate) fn site_yaml(org: &str, site: &str, name: &str) -> String {
    format!("{}/content/{name}.yaml", site_folder(org, site))
}

/// The name a site's secret `id` is sealed for (its value lives in the site's document):
/// a sealed value opens only as that secret's.
pub fn secret(org: &str, site: &str, id: &str) -> String {
    api_path::secret(org, site, id)
}

/// The org document (the platform's `/config/<org>.json`), inside the org's folder so that
/// an org's data stays one prefix.
pub fn org_document(org: &str) -> String {
    format!("config/{org}/org.json")
}

/// The name an org secret `id` is sealed for (its value lives in the org document).
pub fn org_secret(org: &str, id: &str) -> String {
    format!("config/{org}/secrets/{id}.json")
}

/// The folder of `org`'s profile documents.
pub fn profiles(org: &str) -> String {
    format!("config/{org}/profiles")
}

/// A profile document (its lock name too).
pub fn profile(org: &str, profile: &str) -> String {
    format!("{}/{profile}.json", profiles(org))
}

/// The name a profile's secret `id` is sealed for.
pub fn profile_secret(org: &str, profile: &str, id: &str) -> String {
    format!("{}/{profile}/secrets/{id}.json", profiles(org))
}

/// The folder of the versions of a site's document ([`crate::sites::versions`]): beside
/// the org's documents, not under the site's folder, so a deleted site's versions stay.
pub(crate) fn site_versions(org: &str, site: &str) -> String {
    format!("config/{org}/versions/sites/{site}")
}

/// The folder of the versions of a profile's document.
pub(crate) fn profile_versions(org: &str, profile: &str) -> String {
    format!("config/{org}/versions/profiles/{profile}")
}

/// The folder of the versions of the org's document.
pub(crate) fn org_versions(org: &str) -> String {
    format!("config/{org}/versions/org")
}

/// The index of a document's versions (`folder`: one of the three above): their numbers,
/// names, dates and authors, the last [`crate::sites::versions::KEPT`].
pub(crate) fn version_index(folder: &str) -> String {
    format!("{folder}/index.json")
}

/// The record of a document's version `version`: the document as that version wrote it.
pub(crate) fn version_record(folder: &str, version: u64) -> String {
    format!("{folder}/{version}.json")
}

/// Where stores from before one document per site kept a site's public configuration
/// (folded into the site's document when the service opens the store: [`crate::sites::legacy`]).
pub(crate) fn legacy_public(org: &str, site: &str) -> String {
    format!("{}/public.json", site_folder(org, site))
}

/// The folder where stores from before one document per site kept a site's secrets, one
/// `<id>.json` each (sealed for [`secret`]).
pub(crate) fn legacy_secrets(org: &str, site: &str) -> String {
    format!("{}/secrets", site_folder(org, site))
}

/// `org`'s registration of the external repository `owner/repo` (names lowercased);
/// `None` for names that cannot be keys.
pub fn repository(org: &str, owner: &str, repo: &str) -> Option<String> {
    let safe = |s: &str| siteops_config::rules::is_id(&s.to_ascii_lowercase());
    (safe(owner) && safe(repo)).then(|| {
        format!(
            "repos/{org}/{}/{}.json",
            owner.to_ascii_lowercase(),
            repo.to_ascii_lowercase()
        )
    })
}

/// The folder of a site's worker configurations, one per branch.
pub(crate) fn worker_configs(org: &str, site: &str) -> String {
    format!("transform/{org}/{site}")
}

/// A site's worker configuration of `branch`.
pub(crate) fn worker_config(org: &str, site: &str, branch: &str) -> String {
    format!("{}/{branch}.json", worker_configs(org, site))
}

// Code sync jobs and the site code.

/// The folder of `org`'s jobs (one folder per site, then per branch).
pub fn jobs(org: &str) -> String {
    format!("jobs/{org}")
}

/// The folder of a site's jobs.
pub(crate) fn site_jobs(org: &str, site: &str) -> String {
    format!("{}/{site}", jobs(org))
}

/// The folder of a branch's code sync jobs.
pub(crate) fn code_jobs(org: &str, site: &str, branch: &str) -> String {
    format!("{}/{branch}/code", site_jobs(org, site))
}

/// The record of code sync job `name` (the job's lock name too).
pub(crate) fn code_job(org: &str, site: &str, branch: &str, name: &str) -> String {
    format!("{}/{name}.json", code_jobs(org, site, branch))
}

/// The lease of code sync job `name`: which instance runs it.
pub(crate) fn code_job_lease(org: &str, site: &str, branch: &str, name: &str) -> String {
    format!("leases/{}", code_job(org, site, branch, name))
}

/// The folder of a branch's bulk preview jobs ([`crate::bulk`]).
pub(crate) fn preview_jobs(org: &str, site: &str, branch: &str) -> String {
    format!("{}/{branch}/preview", site_jobs(org, site))
}

/// The record of bulk preview job `name`: its state and progress.
pub(crate) fn preview_job(org: &str, site: &str, branch: &str, name: &str) -> String {
    format!("{}/{name}.json", preview_jobs(org, site, branch))
}

/// The folder of what bulk preview job `name` keeps beside its record.
pub(crate) fn preview_job_folder(org: &str, site: &str, branch: &str, name: &str) -> String {
    format!("{}/{name}", preview_jobs(org, site, branch))
}

/// The per-page results of bulk preview job `name`, apart from its record, so that
/// reading a job's progress never reads a thousand results.
pub(crate) fn preview_job_details(org: &str, site: &str, branch: &str, name: &str) -> String {
    format!(
        "{}/details.json",
        preview_job_folder(org, site, branch, name)
    )
}

/// The folder of `repo`'s code on `branch` in `org`'s code store.
pub(crate) fn code_branch(org: &str, repo: &CodeRepo, branch: &str) -> String {
    format!("code/{org}/{}/{}/{branch}", repo.owner, repo.repo)
}

/// A code file of `repo` on `branch` in `org`'s code store.
pub fn code_file(org: &str, repo: &CodeRepo, branch: &str, path: &str) -> String {
    format!("{}/{path}", code_branch(org, repo, branch))
}

// Previews.

/// The folder of a site's previews, every branch's.
pub fn previews(org: &str, site: &str) -> String {
    format!("preview/{org}/{site}")
}

/// The document of the bytes a site's previews hold ([`crate::preview::usage`]), beside
/// the branches (a branch name has no dot).
pub(crate) fn preview_usage(org: &str, site: &str) -> String {
    format!("{}/usage.json", previews(org, site))
}

/// The folder of a branch's previews.
pub(crate) fn preview_branch(org: &str, site: &str, branch: &str) -> String {
    format!("{}/{branch}", previews(org, site))
}

/// The folder of a branch's page records.
pub(crate) fn preview_pages(org: &str, site: &str, branch: &str) -> String {
    format!("{}/pages", preview_branch(org, site, branch))
}

/// A branch's image `name` (`media_<hash of its bytes>.<ext>`): immutable.
pub(crate) fn preview_media(org: &str, site: &str, branch: &str, name: &str) -> ImmutableKey {
    ImmutableKey(format!(
        "{}/media/{name}",
        preview_branch(org, site, branch)
    ))
}

/// The keys of the previewed page at `web_path`: the path's hash (32 hex digits of its
/// SHA-256), so that any path maps to a valid key on any file system.
pub(crate) fn preview_page(org: &str, site: &str, branch: &str, web_path: &str) -> PreviewPage {
    let hash = hex::encode(&Sha256::digest(web_path.as_bytes())[..16]);
    PreviewPage {
        folder: format!("{}/{hash}", preview_pages(org, site, branch)),
    }
}

/// The keys of one previewed page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewPage {
    folder: String,
}

impl PreviewPage {
    /// The page's lock name: saves and deletions of one page queue on it.
    pub(crate) fn lock_name(&self) -> &str {
        &self.folder
    }

    /// The folder of the page's revisions.
    pub fn folder(&self) -> &str {
        &self.folder
    }

    /// The page's record, which names its current revision.
    pub fn record(&self) -> String {
        format!("{}.json", self.folder)
    }

    /// The folder of one revision's files.
    pub fn revision(&self, revision: &str) -> String {
        format!("{}/{revision}", self.folder)
    }

    /// A file of one revision: immutable, since the revision is a hash of the files.
    pub fn file(&self, revision: &str, file: &str) -> ImmutableKey {
        ImmutableKey(format!("{}/{file}", self.revision(revision)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key of `org`'s data, from every function above.
    fn keys_of(org: &str) -> Vec<String> {
        let repo = CodeRepo::new("Owner", "Repo");
        let page = preview_page(org, "web", "main", "/a/b");
        vec![
            sites(org),
            site(org, "web"),
            site_folder(org, "web"),
            secret(org, "web", "s1"),
            org_document(org),
            org_secret(org, "s1"),
            profiles(org),
            profile(org, "default"),
            profile_secret(org, "default", "s1"),
            legacy_public(org, "web"),
            site_versions(org, "web"),
            profile_versions(org, "default"),
            org_versions(org),
            version_index(&site_versions(org, "web")),
            version_record(&org_versions(org), 3),
            legacy_secrets(org, "web"),
            site_yaml(org, "web", "query"),
            repository(org, "Owner", "Repo").expect("a valid name"),
            worker_configs(org, "web"),
            worker_config(org, "web", "main"),
            jobs(org),
            site_jobs(org, "web"),
            code_jobs(org, "web", "main"),
            code_job(org, "web", "main", "job-1"),
            code_job_lease(org, "web", "main", "job-1"),
            preview_jobs(org, "web", "main"),
            preview_job(org, "web", "main", "job-1"),
            preview_job_folder(org, "web", "main", "job-1"),
            preview_job_details(org, "web", "main", "job-1"),
            code_branch(org, &repo, "main"),
            code_file(org, &repo, "main", "blocks/hero/hero.js"),
            previews(org, "web"),
            preview_usage(org, "web"),
            preview_branch(org, "web", "main"),
            preview_pages(org, "web", "main"),
            preview_media(org, "web", "main", "media_ab.png").to_string(),
            page.lock_name().to_string(),
            page.record(),
            page.revision("r1"),
            page.file("r1", "page.html").to_string(),
        ]
    }

    #[test]
    fn an_orgs_keys_start_with_the_org() {
        for org in ["acme", "other"] {
            for key in keys_of(org) {
                crate::store::check_key(&key).expect("a valid key");
                let area = ORG_AREAS
                    .iter()
                    .find(|area| key.starts_with(&format!("{area}/")))
                    .unwrap_or_else(|| panic!("{key} is in no org area"));
                let rest = &key[area.len() + 1..];
                assert_eq!(rest.split('/').next(), Some(org), "{key}");
            }
        }
        assert!(SIGNING_KEY.starts_with("keys/") && SECRETS_KEY_CHECK.starts_with("keys/"));
        assert!(!ORG_AREAS.contains(&"keys"));
    }

    #[test]
    fn registrations_are_kept_per_org_lowercased() {
        assert_eq!(
            repository("acme", "P1", "Web").as_deref(),
            Some("repos/acme/p1/web.json")
        );
        assert_ne!(
            repository("acme", "p1", "web"),
            repository("evil", "p1", "web")
        );
        assert_eq!(repository("acme", "a/b", "r"), None);
        assert_eq!(repository("acme", "..", "r"), None);
    }

    #[test]
    fn a_pages_keys_hash_its_path() {
        let page = preview_page("acme", "web", "main", "/a");
        assert_eq!(page, preview_page("acme", "web", "main", "/a"));
        assert_ne!(page, preview_page("acme", "web", "main", "/b"));
        assert!(page.record().ends_with(".json"));
        let folder = page.folder().rsplit('/').next().expect("hash");
        assert_eq!(folder.len(), 32);
        assert!(
            page.file("r", "page.html")
                .as_str()
                .starts_with(page.folder())
        );
    }
}
