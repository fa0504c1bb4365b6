//! `helix-query.yaml` → `query.toml`, `helix-sitemap.yaml` → `sitemap.toml`: the index
//! and sitemap configurations, read as the platform's indexer reads them
//! (helix-shared-config's `IndexConfig` and `SitemapConfig`: YAML with merge keys, then a
//! schema that turns a single glob into a list), so that the body siteops sends for
//! `query.toml` parses to what the platform parsed from the original file.

use serde_json::{Map, Value};

use super::Report;
use super::read::{Read, coerce_to_array, drop_unknown, object, ruled, typed, yaml};
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
    let query = Layout {
        top: &QUERY_KEYS,
        top_why: "query.toml has `version` and `indices` only",
        group: "indices",
        entry: &INDEX_KEYS,
        entry_why: |key| {
            format!(
                "an index of query.toml has no `{key}`; the platform's indexer of today does not read it"
            )
        },
    };
    let (read, value) = query.read(path, bytes, report, |_, _, index, _| {
        for key in ["include", "exclude"] {
            if let Some(globs) = index.get_mut(key) {
                coerce_to_array(globs);
            }
        }
    })?;
    let config: QueryConfig = typed(&read, &value, SchemaKind::QueryFile, report)?;
    ruled(&read, rules::query(&config), report)?;
    Some(config)
}

/// The sitemap configuration of `helix-sitemap.yaml`, when it reads as one.
pub(super) fn sitemap(path: &str, bytes: &[u8], report: &mut Report) -> Option<SitemapConfig> {
    let sitemaps = Layout {
        top: &SITEMAP_FILE_KEYS,
        top_why: "sitemap.toml has `version` and `sitemaps` only",
        group: "sitemaps",
        entry: &SITEMAP_KEYS,
        entry_why: |key| format!("a sitemap of sitemap.toml has no `{key}`"),
    };
    let (read, value) = sitemaps.read(path, bytes, report, |read, at, sitemap, report| {
        let languages = sitemap.get_mut("languages").and_then(Value::as_object_mut);
        for (language, entry) in languages.into_iter().flatten() {
            let at = push_token(&push_token(at, "languages"), language);
            if let Some(entry) = entry.as_object_mut() {
                drop_unknown(
                    read,
                    entry,
                    &at,
                    &LANGUAGE_KEYS,
                    |key| format!("a sitemap language of sitemap.toml has no `{key}`"),
                    report,
                );
            }
        }
    })?;
    let config: SitemapConfig = typed(&read, &value, SchemaKind::SitemapFile, report)?;
    ruled(&read, rules::sitemap(&config), report)?;
    Some(config)
}

/// The shape both files share: a top level of `top` keys, and a `group` of named entries
/// of `entry` keys. A key either has no place for is dropped and reported with its `why`.
struct Layout {
    top: &'static [&'static str],
    top_why: &'static str,
    group: &'static str,
    entry: &'static [&'static str],
    entry_why: fn(&str) -> String,
}

impl Layout {
    /// The file read as YAML, what has no place dropped (reported), and `each` run over
    /// every entry (with the entry's pointer); `None` when it does not read as a mapping.
    fn read(
        &self,
        path: &str,
        bytes: &[u8],
        report: &mut Report,
        mut each: impl FnMut(&Read, &str, &mut Map<String, Value>, &mut Report),
    ) -> Option<(Read, Value)> {
        let read = yaml(path, bytes, report)?;
        let mut value = read.value.clone();
        let Some(top) = value.as_object_mut() else {
            object(&read, &read.value, "", "the file", report);
            return None;
        };
        let top_why = self.top_why;
        drop_unknown(&read, top, "", self.top, |_| top_why.into(), report);
        let entries = top.get_mut(self.group).and_then(Value::as_object_mut);
        for (name, entry) in entries.into_iter().flatten() {
            let at = push_token(&format!("/{}", self.group), name);
            if let Some(entry) = entry.as_object_mut() {
                drop_unknown(&read, entry, &at, self.entry, self.entry_why, report);
                each(&read, &at, entry, report);
            }
        }
        Some((read, value))
    }
}
