//! The configuration model in three layers: [`files`] (what the repository holds, parsed
//! as is), [`api`] (what the administration API and the worker take), and the validated
//! model below, which validation builds from the files and compilation turns into API
//! bodies. Only validation constructs a [`Fleet`], so holding one means the rules passed.

pub mod api;
pub mod code_repo;
pub mod effective;
pub mod files;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::diagnostic::Location;

/// An org and site name, printed `org/site`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SiteId {
    pub org: String,
    pub site: String,
}

impl fmt::Display for SiteId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.org, self.site)
    }
}

/// Every org document, profile and site of the repository, validated, each sorted by
/// name (org, then profile or site).
#[derive(Debug, Clone, Default)]
pub struct Fleet {
    /// The orgs with an `org.toml`.
    pub orgs: Vec<Org>,
    pub profiles: Vec<Profile>,
    pub sites: Vec<Site>,
}

/// An org's own document (`sites/<org>/org.toml`).
#[derive(Debug, Clone)]
pub struct Org {
    pub name: String,
    /// The document without `secrets`, whose values compilation reads.
    pub config: api::OrgConfig,
    /// Secret id -> where its value comes from.
    pub secrets: BTreeMap<String, Sensitive>,
}

/// A profile (`sites/<org>/<name>.profile.toml`), which the sites that extend it take.
#[derive(Debug, Clone)]
pub struct Profile {
    pub org: String,
    pub name: String,
    /// The document without `cdn`, whose credentials compilation reads.
    pub config: api::ProfileConfig,
    pub cdn: Option<api::CdnConfig<Sensitive>>,
}

#[derive(Debug, Clone)]
pub struct Site {
    pub id: SiteId,
    /// The site's directory, `sites/<org>/<site>`.
    pub dir: String,
    pub environment: Option<String>,
    pub base: Option<SiteId>,
    /// The site body with code inherited from the base and URL variables filled in.
    pub config: api::SiteConfig,
    pub public: Option<api::PublicConfig>,
    /// The index configuration (`query.toml`), of a primary site only.
    pub query: Option<api::QueryConfig>,
    /// The sitemap configuration (`sitemap.toml`), of a primary site only.
    pub sitemap: Option<api::SitemapConfig>,
    /// `cdn` with its purge credentials still to read; compilation puts it in `config`.
    pub cdn: Option<api::CdnConfig<Sensitive>>,
    /// Secret id -> where its value comes from.
    pub secrets: BTreeMap<String, Sensitive>,
    /// The ids of the secrets whose value the service makes (`made = "service"`).
    pub made_secrets: BTreeSet<String>,
    /// API key name -> the roles of the key the service mints under that name.
    pub api_keys: BTreeMap<String, Vec<String>>,
    /// Branch -> worker entries, in the order they are tried.
    pub transform: BTreeMap<String, Vec<WorkerEntrySpec>>,
}

/// A value that lives in an environment variable and is never printed. The location is
/// where the repository names the variable, for errors at compile time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sensitive {
    pub env: String,
    pub location: Option<Location>,
}

#[derive(Debug, Clone)]
pub struct WorkerEntrySpec {
    /// The entry as the worker takes it, without `templateApiKey` (see below).
    pub entry: api::WorkerEntry,
    pub template_api_key: Option<Sensitive>,
    pub examples: Vec<String>,
}
