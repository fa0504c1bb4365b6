//! What a site actually uses on a branch, where configuration and code both have a say:
//! - the content source: the site's `content`, else the `/` mountpoint of `fstab.yaml` in
//!   its code;
//! - the path mappings: the public configuration's, else the legacy `paths.yaml` of its
//!   code (ignored as soon as public mappings are configured).
//!
//! The admin service's `GET /status/<org>/<site>/<branch>` shows both with their origin;
//! the worker and the preview hosts use them.

use schemars::JsonSchema;
use serde::Serialize;

use crate::code::SiteCode;
#[cfg(doc)]
use crate::sites;
use crate::sites::Site;
use siteops_config::document::Document;
use siteops_config::model::api::{ContentConfig, PublicConfig};
use siteops_config::model::files::{FstabFile, LegacyPaths};
use siteops_config::source::SourceFile;

#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Effective<T> {
    pub value: T,
    /// Where it comes from: `config`, `public.json`, `fstab.yaml` or `paths.yaml`.
    pub origin: &'static str,
}

/// A code file of the site's repository on `branch`, parsed as YAML into `T`. A file
/// that does not parse counts as absent, as on the platform; the log says why.
async fn code_yaml<T: serde::de::DeserializeOwned>(
    code: &SiteCode,
    site: &Site,
    branch: &str,
    file: &str,
) -> Option<T> {
    let text = code
        .text(&site.org, &site.code_repo()?, branch, file)
        .await?;
    let parsed = Document::parse_yaml(SourceFile::new(file, text))
        .map_err(|e| format!("{e:?}"))
        .and_then(|document| serde_json::from_value(document.value).map_err(|e| e.to_string()));
    parsed
        .inspect_err(|error| tracing::warn!(%file, %branch, %error, "ignoring a code file"))
        .ok()
}

/// The content source of a site on `branch`.
pub(crate) async fn content_source(
    code: &SiteCode,
    site: &Site,
    branch: &str,
) -> Option<Effective<ContentConfig>> {
    if let Some(content) = site.content() {
        return Some(Effective {
            value: content.clone(),
            origin: "config",
        });
    }
    let fstab: FstabFile = code_yaml(code, site, branch, "fstab.yaml").await?;
    Some(Effective {
        value: ContentConfig::of(fstab.root_source()?),
        origin: "fstab.yaml",
    })
}

/// The path mappings of a site on `branch`, given its stored public configuration
/// ([`sites::public`], which the caller reads, with what else it needs at once).
pub async fn path_mappings(
    code: &SiteCode,
    site: &Site,
    branch: &str,
    public: Option<PublicConfig>,
) -> Option<Effective<Vec<String>>> {
    if let Some(mappings) = public.and_then(|p| p.paths).and_then(|p| p.mappings) {
        return Some(Effective {
            value: mappings,
            origin: "public.json",
        });
    }
    code_yaml::<LegacyPaths>(code, site, branch, "paths.yaml")
        .await
        .map(|legacy| Effective {
            value: legacy.mappings,
            origin: "paths.yaml",
        })
}
