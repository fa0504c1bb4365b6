//! The site's configuration as the platform's pipeline receives it
//! ([`PipelineConfig`]), built from what the site uses on a branch: its document over its
//! profile (`cdn` hosts, `folders`, `headers`, `metadata`, `robots`, `features`, `public`,
//! the content bus's id), the service's `created` stamp of its own document, `head.html`
//! from its code, and the host's names (org, site, branch; the code's owner and repo).
//!
//! Built on every view, so a change of any of them applies to the next view, as on the
//! platform (whose configuration service answers the current configuration).
//!
//! Differences from the platform's configuration service:
//! - `headers` globs come in the order the stored document keeps, sorted by glob (JSON
//!   objects are stored sorted); the platform keeps the written order.
//! - no `sitemap.index`: the sitemap configuration is kept as the YAML it was sent as,
//!   so `/sitemap-index.xml` is the code's.
//! - the metadata sheets are not aggregated into `metadata.preview.data`: the pipeline
//!   reads them from the content bus (`metadata.source`), which the platform falls back
//!   to when the aggregate is too large. Same rows, same order.

use serde_json::Value;
use siteops_delivery::PipelineConfig;
use siteops_delivery::config::{
    Cdn, CdnHost, Features, Head, KeyValue, Metadata, Rendering, Robots,
};

use crate::code::SiteCode;
use crate::preview::PreviewHost;
use crate::sites::Site;
use siteops_config::model::api::SiteConfig;

/// The metadata sheet every site has unless its `metadata.source` names others.
pub const DEFAULT_METADATA: &str = "/metadata.json";

/// The pipeline's configuration of `site` on the preview host `host` (its branch).
pub async fn pipeline_config(code: &SiteCode, site: &Site, host: &PreviewHost) -> PipelineConfig {
    let head_html = crate::preview::service::head_html(code, site, &host.branch).await;
    let mut config = from_documents(&site.effective, &site.json, head_html);
    let repo = site.code_repo();
    config.owner = repo.as_ref().map(|repo| repo.owner.clone());
    config.repo = repo.map(|repo| repo.repo);
    config.r#ref = Some(host.branch.clone());
    config.org = Some(host.org.clone());
    config.site = Some(host.site.clone());
    config.content_bus_id = site.content().map(crate::sites::content_bus_id);
    config
}

/// The configuration from the site's effective document, its stored JSON (for the
/// service's stamps) and its `head.html`.
pub fn from_documents(
    effective: &SiteConfig,
    stored: &Value,
    head_html: Option<String>,
) -> PipelineConfig {
    let stamp = |name: &str| stored.get(name).and_then(Value::as_str).map(str::to_owned);
    // Parts the delivery may come to read that a site's documents do not set keep their
    // defaults.
    #[allow(clippy::needless_update)]
    PipelineConfig {
        cdn: effective.cdn.as_ref().map(cdn),
        head: head_html.map(|html| Head { html: Some(html) }),
        folders: effective
            .folders
            .as_ref()
            .map(|folders| folders.0.clone().into_iter().collect())
            .unwrap_or_default(),
        headers: effective
            .headers
            .as_ref()
            .map(|headers| {
                headers
                    .0
                    .iter()
                    .map(|(glob, pairs)| {
                        let rows = pairs
                            .iter()
                            .map(|pair| KeyValue {
                                key: pair.key.clone(),
                                value: pair.value.clone(),
                            })
                            .collect();
                        (glob.clone(), rows)
                    })
                    .collect()
            })
            .unwrap_or_default(),
        metadata: Some(Metadata {
            source: effective
                .metadata
                .as_ref()
                .and_then(|metadata| metadata.source.clone())
                .unwrap_or_else(|| vec![DEFAULT_METADATA.to_owned()]),
            ..Metadata::default()
        }),
        robots: effective.robots.as_ref().map(|robots| Robots {
            txt: robots.txt.clone(),
        }),
        features: rendering_version(effective).map(|version| Features {
            rendering: Some(Rendering {
                version: Some(version),
            }),
        }),
        public: effective
            .public
            .as_ref()
            .and_then(|public| serde_json::to_value(public).ok()),
        created: stamp("created"),
        last_modified: stamp("lastModified"),
        ..PipelineConfig::default()
    }
}

/// `cdn.prod.host`, `cdn.preview.host`, `cdn.live.host`, whatever the vendor's block.
fn cdn(config: &siteops_config::model::api::CdnConfig) -> Cdn {
    let json = serde_json::to_value(config).unwrap_or_default();
    let host = |part: &str| {
        json.pointer(&format!("/{part}/host"))
            .and_then(Value::as_str)
            .map(|host| CdnHost {
                host: Some(host.to_owned()),
            })
    };
    Cdn {
        prod: host("prod"),
        preview: host("preview"),
        live: host("live"),
    }
}

/// `features.rendering.version`: a number, or a string that reads as one (the
/// platform's features are open objects).
fn rendering_version(effective: &SiteConfig) -> Option<f64> {
    let version = effective
        .features
        .as_ref()?
        .0
        .get("rendering")?
        .get("version")?;
    match version {
        Value::Number(number) => number.as_f64(),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config(document: Value) -> PipelineConfig {
        let effective: SiteConfig = serde_json::from_value(document.clone()).expect("a site");
        from_documents(
            &effective,
            &document,
            Some("<script nonce=\"aem\"></script>".into()),
        )
    }

    #[test]
    fn the_site_document_becomes_the_pipelines_configuration() {
        let config = config(json!({
            "version": 1,
            "created": "2026-05-02T00:00:00.000Z",
            "cdn": {"prod": {"host": "www.acme.example"}, "live": {"host": "main--web--acme.aem.live"}},
            "folders": {"/products": "/generic-product"},
            "headers": {"/**": [{"key": "x-frame-options", "value": "DENY"}]},
            "robots": {"txt": "User-agent: *\nDisallow: /"},
            "features": {"rendering": {"version": 2}},
            "public": {"theme": "dark"},
        }));
        let host = |h: &Option<CdnHost>| h.as_ref().and_then(|h| h.host.clone());
        let cdn = config.cdn.as_ref().expect("cdn");
        assert_eq!(host(&cdn.prod).as_deref(), Some("www.acme.example"));
        assert_eq!(host(&cdn.live).as_deref(), Some("main--web--acme.aem.live"));
        assert_eq!(host(&cdn.preview), None);
        assert_eq!(config.head_html(), Some("<script nonce=\"aem\"></script>"));
        assert_eq!(
            config.folders,
            [("/products".into(), "/generic-product".into())]
        );
        assert_eq!(config.headers[0].0, "/**");
        assert_eq!(config.headers[0].1[0].value, "DENY");
        assert_eq!(
            config.metadata.as_ref().expect("metadata").source,
            [DEFAULT_METADATA]
        );
        assert_eq!(
            config.robots.and_then(|r| r.txt).as_deref(),
            Some("User-agent: *\nDisallow: /")
        );
        let version = config
            .features
            .and_then(|f| f.rendering)
            .and_then(|r| r.version);
        assert_eq!(version, Some(2.0));
        assert_eq!(config.public, Some(json!({"theme": "dark"})));
        assert_eq!(config.created.as_deref(), Some("2026-05-02T00:00:00.000Z"));
    }

    #[test]
    fn configured_metadata_sheets_replace_the_default_and_an_old_site_has_no_stamp() {
        let config = config(json!({
            "metadata": {"source": ["/meta/a.json", "/meta/b.json"]},
            "features": {"rendering": {"version": "1"}},
        }));
        assert_eq!(
            config.metadata.expect("metadata").source,
            ["/meta/a.json", "/meta/b.json"]
        );
        let version = config
            .features
            .and_then(|f| f.rendering)
            .and_then(|r| r.version);
        assert_eq!(version, Some(1.0));
        assert_eq!(config.created, None);
        assert!(config.cdn.is_none());
    }
}
