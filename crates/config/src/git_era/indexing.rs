//! `helix-query.yaml` → `query.toml`, `helix-sitemap.yaml` → `sitemap.toml`: the index
//! and sitemap configurations, read as the platform's indexer reads them
//! (helix-shared-config's `IndexConfig` and `SitemapConfig`: YAML with merge keys, then a
//! schema that turns a single glob into a list), so that the body siteops sends for
//! `query.toml` parses to what the platform parsed from the original file.

use serde_json::Value;

use super::Report;
use super::read::{coerce_to_array, drop_unknown, object, ruled, typed, yaml};
use crate::document::push_token;
use crate::model::api::{QueryConfig, SitemapConfig};
use crate::rules;
use crate::schema::SchemaKind;

const QUERY_KEYS: [&str; 2] = ["version", "indices"];
const INDEX_KEYS: [&str; 4] = ["include", "exclude", "target", "properties"];
const SITEMAP_FILE_KEYS: [&str; 2] = ["version", "sitemaps"];
const SITEMAP_KEYS: [&str; 7] = [
    "origin",
    "source",
    "destination",
    "lastmod",
    "extension",
    "default",
    "languages",
];
const LANGUAGE_KEYS: [&str; 4] = ["source", "destination", "hreflang", "alternate"];

/// The index configuration of `helix-query.yaml`, when it reads as one.
pub(super) fn query(path: &str, bytes: &[u8], report: &mut Report) -> Option<QueryConfig> {
    let read = yaml(path, bytes, report)?;
    let mut value = read.value.clone();
    let top = value.as_object_mut();
    let Some(top) = top else {
        object(&read, &read.value, "", "the file", report);
        return None;
    };
    drop_unknown(
        &read,
        top,
        "",
        &QUERY_KEYS,
        |_| "query.toml has `version` and `indices` only".into(),
        report,
    );
    if let Some(indices) = top.get_mut("indices").and_then(Value::as_object_mut) {
        for (name, index) in indices.iter_mut() {
            let at = push_token("/indices", name);
            let Some(index) = index.as_object_mut() else {
                continue;
            };
            drop_unknown(
                &read,
                index,
                &at,
                &INDEX_KEYS,
                |key| {
                    format!(
                        "an index of query.toml has no `{key}`; the platform's indexer of today does not read it"
                    )
                },
                report,
            );
            for key in ["include", "exclude"] {
                if let Some(globs) = index.get_mut(key) {
                    coerce_to_array(globs);
                }
            }
        }
    }
    let config: QueryConfig = typed(&read, &value, SchemaKind::QueryFile, report)?;
    ruled(&read, rules::query(&config), report)?;
    Some(config)
}

/// The sitemap configuration of `helix-sitemap.yaml`, when it reads as one.
pub(super) fn sitemap(path: &str, bytes: &[u8], report: &mut Report) -> Option<SitemapConfig> {
    let read = yaml(path, bytes, report)?;
    let mut value = read.value.clone();
    let Some(top) = value.as_object_mut() else {
        object(&read, &read.value, "", "the file", report);
        return None;
    };
    drop_unknown(
        &read,
        top,
        "",
        &SITEMAP_FILE_KEYS,
        |_| "sitemap.toml has `version` and `sitemaps` only".into(),
        report,
    );
    if let Some(sitemaps) = top.get_mut("sitemaps").and_then(Value::as_object_mut) {
        for (name, sitemap) in sitemaps.iter_mut() {
            let at = push_token("/sitemaps", name);
            let Some(sitemap) = sitemap.as_object_mut() else {
                continue;
            };
            drop_unknown(
                &read,
                sitemap,
                &at,
                &SITEMAP_KEYS,
                |key| format!("a sitemap of sitemap.toml has no `{key}`"),
                report,
            );
            let languages = sitemap.get_mut("languages").and_then(Value::as_object_mut);
            for (language, entry) in languages.into_iter().flatten() {
                let at = push_token(&push_token(&at, "languages"), language);
                if let Some(entry) = entry.as_object_mut() {
                    drop_unknown(
                        &read,
                        entry,
                        &at,
                        &LANGUAGE_KEYS,
                        |key| format!("a sitemap language of sitemap.toml has no `{key}`"),
                        report,
                    );
                }
            }
        }
    }
    let config: SitemapConfig = typed(&read, &value, SchemaKind::SitemapFile, report)?;
    ruled(&read, rules::sitemap(&config), report)?;
    Some(config)
}
