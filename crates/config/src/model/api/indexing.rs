//! A site's index configuration (`content/query.yaml`, once the code's `helix-query.yaml`)
//! and sitemap configuration (`content/sitemap.yaml`, once `helix-sitemap.yaml`), in the
//! shapes of the platform's index and sitemap schemas. The service keeps them as YAML
//! text; siteops models them as data, compiles them to YAML (`crate::document::to_yaml`)
//! and compares them as data.
//!
//! What the schemas state of single values is here; what relates values (a property's
//! `select` and `value` pairs, a sitemap's sources or languages, `default` naming a
//! language) is `crate::rules::query` and `crate::rules::sitemap`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{HTTP_URL_PATTERN, site_version_schema};

/// A path the platform resolves on the site (`target`, `source`, `destination`):
/// absolute, without spaces.
pub const SITE_PATH_PATTERN: &str = r"^/\S*$";
/// An index's include or exclude glob, as the platform's indexer takes it: absolute
/// (`/blog/**`), from any depth
/// (`**/drafts/**`), or relative to the site's root (`drafts/**` is `/drafts/**`). Without
/// spaces, which no page path has.
pub const INDEX_GLOB_PATTERN: &str = r"^\S+$";
/// A sitemap's `extension`: a dot and a name, as `.html`.
pub const EXTENSION_PATTERN: &str = r"^\.[A-Za-z0-9._-]+$";
/// An `hreflang`: a language tag (letters, digits, `-`), or `x-default`.
pub const HREFLANG_PATTERN: &str = r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$";

/// The index configuration: `POST /config/<org>/sites/<site>/content/query.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryConfig {
    /// Always 1; may be left out (compiled as 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = site_version_schema)]
    pub version: Option<u32>,
    /// Index name -> which pages it holds, what of each, and where it is written.
    #[schemars(length(min = 1))]
    pub indices: BTreeMap<String, Index>,
}

/// One index (`[indices.<name>]`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Index {
    /// Glob patterns of the page paths the index holds (`/blog/**`); all pages when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(inner(regex(pattern = INDEX_GLOB_PATTERN)), extend("x-siteops-rule" = "invalid-path"))]
    pub include: Option<Vec<String>>,
    /// Glob patterns of page paths left out (`/drafts/**`, `**/drafts/**`), over `include`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(inner(regex(pattern = INDEX_GLOB_PATTERN)), extend("x-siteops-rule" = "invalid-path"))]
    pub exclude: Option<Vec<String>>,
    /// Where the index is published on the site: the path of a JSON sheet
    /// (`/query-index.json`).
    #[schemars(regex(pattern = SITE_PATH_PATTERN), extend("x-siteops-rule" = "invalid-path"))]
    pub target: String,
    /// Column name -> how its value is taken from each page.
    #[schemars(length(min = 1))]
    pub properties: BTreeMap<String, IndexProperty>,
}

/// One column of an index: a CSS selector (`select` for every match, `selectFirst` for the
/// first), and an expression over the matches (`value`: one value, `values`: a list).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IndexProperty {
    /// A CSS selector; the expression sees every node it matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub select: Option<String>,
    /// A CSS selector; the expression sees the first node it matches.
    #[serde(
        rename = "selectFirst",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub select_first: Option<String>,
    /// An expression whose result is stored as one value (`attribute(el, "content")`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// An expression whose results are stored as a list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<String>,
    /// Whether the column may be faceted on (with `select`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faceted: Option<bool>,
}

/// The sitemap configuration: `POST /config/<org>/sites/<site>/content/sitemap.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SitemapConfig {
    /// Always 1; may be left out (compiled as 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = site_version_schema)]
    pub version: Option<u32>,
    /// Sitemap name -> where its entries come from and where it is written.
    #[schemars(length(min = 1))]
    pub sitemaps: BTreeMap<String, Sitemap>,
}

/// One sitemap (`[sitemaps.<name>]`): one index to one XML file (`source` and
/// `destination`), or one per language (`languages`), related by `hreflang`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sitemap {
    /// The origin put in front of every page path (`https://www.acme.example`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = HTTP_URL_PATTERN), extend("x-siteops-rule" = "invalid-url"))]
    pub origin: Option<String>,
    /// The index the entries come from (`/query-index.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = SITE_PATH_PATTERN), extend("x-siteops-rule" = "invalid-path"))]
    pub source: Option<String>,
    /// Where the sitemap is written (`/sitemap.xml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = SITE_PATH_PATTERN), extend("x-siteops-rule" = "invalid-path"))]
    pub destination: Option<String>,
    /// The date format of each entry's last modification (`YYYY-MM-DD`); none when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lastmod: Option<String>,
    /// Appended to every page path in the sitemap (`.html`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = EXTENSION_PATTERN))]
    pub extension: Option<String>,
    /// The language (a key of `languages`) whose pages are also listed as `x-default`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// Language name -> its index, sitemap and `hreflang`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub languages: Option<BTreeMap<String, SitemapLanguage>>,
}

/// One language of a sitemap (`[sitemaps.<name>.languages.<lang>]`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SitemapLanguage {
    /// The language's index (`/fr/query-index.json`).
    #[schemars(regex(pattern = SITE_PATH_PATTERN), extend("x-siteops-rule" = "invalid-path"))]
    pub source: String,
    /// Where the language's sitemap is written (`/sitemap-fr.xml`).
    #[schemars(regex(pattern = SITE_PATH_PATTERN), extend("x-siteops-rule" = "invalid-path"))]
    pub destination: String,
    /// The language tag of its entries (`fr`, `en-US`), or several.
    pub hreflang: Hreflang,
    /// How a page path of another language maps to this one's (`/fr/{path}`); the page
    /// paths are the same in every language when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = SITE_PATH_PATTERN), extend("x-siteops-rule" = "invalid-path"))]
    pub alternate: Option<String>,
}

/// `hreflang`: one language tag, or a list of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Hreflang {
    One(#[schemars(regex(pattern = HREFLANG_PATTERN))] String),
    Many(#[schemars(length(min = 1), inner(regex(pattern = HREFLANG_PATTERN)))] Vec<String>),
}

impl Default for Hreflang {
    fn default() -> Self {
        Hreflang::One(String::new())
    }
}
