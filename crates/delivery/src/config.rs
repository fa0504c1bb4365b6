//! The site's configuration as the pipeline receives it (`state.config`: the platform's
//! configuration service's answer for a site, and the pipeline tests' `DEFAULT_CONFIG`):
//! read from JSON by `siteops ingest --config`, built from a site's documents by the
//! preview host. Parts the delivery does not use are ignored.

use serde::Deserialize;

/// One `{ "key", "value" }` row of a modifiers map (headers, metadata).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct KeyValue {
    pub key: String,
    pub value: String,
}

/// Path glob (`/**`, `/blog/**`) or exact path -> its rows, in the configuration's order.
pub type ModifierMap = Vec<(String, Vec<KeyValue>)>;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PipelineConfig {
    /// The content bus's id (`contentBusId`): how the sourced sheets' errors name them.
    #[serde(default)]
    pub content_bus_id: Option<String>,
    #[serde(default)]
    pub cdn: Option<Cdn>,
    #[serde(default)]
    pub head: Option<Head>,
    /// Folder -> the page (or code file) that serves every path under it.
    #[serde(default, deserialize_with = "ordered::map")]
    pub folders: Vec<(String, String)>,
    /// Response headers by path glob.
    #[serde(default, deserialize_with = "ordered::modifiers")]
    pub headers: ModifierMap,
    #[serde(default)]
    pub metadata: Option<Metadata>,
    #[serde(default)]
    pub robots: Option<Robots>,
    #[serde(default)]
    pub features: Option<Features>,
    /// The public configuration (`/config.json`).
    #[serde(default)]
    pub public: Option<serde_json::Value>,
    /// When the site was created (ISO 8601): rendering version 2 is the default from
    /// 2026-05-01.
    #[serde(default)]
    pub created: Option<String>,
    #[serde(default)]
    pub last_modified: Option<String>,
    /// The site's names (`state.owner`, `repo`, `ref`, `org`, `site`): the default
    /// `<ref>--<repo>--<owner>` hosts of the sitemaps, and the `$owner`… of a configured
    /// preview or live host.
    #[serde(default)]
    pub owner: Option<String>,
    #[serde(default)]
    pub repo: Option<String>,
    #[serde(default)]
    pub r#ref: Option<String>,
    #[serde(default)]
    pub org: Option<String>,
    #[serde(default)]
    pub site: Option<String>,
    /// The sitemap configuration: the sitemaps `/sitemap-index.xml` lists.
    #[serde(default)]
    pub sitemap: Option<Sitemap>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sitemap {
    /// The sitemaps' locations: a `/`-rooted path is on the site's host, anything else
    /// is written as it is.
    #[serde(default)]
    pub index: Option<Vec<String>>,
    /// When the sitemap configuration last changed (an HTTP date).
    #[serde(default)]
    pub last_modified: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Cdn {
    #[serde(default)]
    pub prod: Option<CdnHost>,
    #[serde(default)]
    pub preview: Option<CdnHost>,
    #[serde(default)]
    pub live: Option<CdnHost>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct CdnHost {
    #[serde(default)]
    pub host: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Head {
    #[serde(default)]
    pub html: Option<String>,
}

/// `metadata`: the sheets' rows as the configuration service aggregates them per
/// partition (`preview.data`, `live.data`), and the sheets to read when it did not
/// (`source`, read from the content bus).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Metadata {
    #[serde(default)]
    pub source: Vec<String>,
    #[serde(default)]
    pub preview: Option<MetadataData>,
    #[serde(default)]
    pub live: Option<MetadataData>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct MetadataData {
    #[serde(default, deserialize_with = "ordered::modifiers")]
    pub data: ModifierMap,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Robots {
    #[serde(default)]
    pub txt: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Features {
    #[serde(default)]
    pub rendering: Option<Rendering>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Rendering {
    #[serde(default)]
    pub version: Option<f64>,
}

impl PipelineConfig {
    /// Parses the configuration's JSON, naming where it is wrong.
    pub fn from_json(text: &str) -> Result<PipelineConfig, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// `config.head.html`.
    pub fn head_html(&self) -> Option<&str> {
        self.head.as_ref()?.html.as_deref()
    }
}

/// JSON objects read in their written order: the pipeline applies globs in the order of
/// the configuration's keys, as JavaScript's `Object.entries` gives them.
mod ordered {
    use std::fmt;

    use serde::Deserializer;
    use serde::de::{MapAccess, Visitor};

    use super::{KeyValue, ModifierMap};

    struct Ordered<V>(std::marker::PhantomData<V>);

    impl<'de, V: serde::Deserialize<'de>> Visitor<'de> for Ordered<V> {
        type Value = Vec<(String, V)>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }

        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut entries: Vec<(String, V)> = Vec::new();
            while let Some((key, value)) = map.next_entry::<String, V>()? {
                // A repeated key replaces the value and keeps the first position, as in
                // a JavaScript object.
                match entries.iter_mut().find(|(k, _)| *k == key) {
                    Some(entry) => entry.1 = value,
                    None => entries.push((key, value)),
                }
            }
            Ok(entries)
        }
    }

    pub(super) fn map<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
        d.deserialize_any(Ordered(std::marker::PhantomData))
    }

    pub(super) fn modifiers<'de, D: Deserializer<'de>>(d: D) -> Result<ModifierMap, D::Error> {
        d.deserialize_any(Ordered::<Vec<KeyValue>>(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_keep_the_order_they_were_written_in() {
        let config = PipelineConfig::from_json(
            r#"{"headers": {"/news/**": [{"key": "a", "value": "1"}], "/**": [{"key": "b", "value": "2"}]},
                "folders": {"/products": "/generic-product"}, "head": null,
                "metadata": {"live": {"data": {"/z": [], "/a": []}}}, "unknown": 1}"#,
        )
        .unwrap();
        let globs: Vec<&str> = config.headers.iter().map(|(g, _)| g.as_str()).collect();
        assert_eq!(globs, ["/news/**", "/**"]);
        let live = &config.metadata.unwrap().live.unwrap().data;
        assert_eq!(live[0].0, "/z");
        assert_eq!(
            config.folders,
            [("/products".into(), "/generic-product".into())]
        );
        assert!(config.head.is_none());
    }
}
