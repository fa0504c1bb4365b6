//! Rules for the index configuration (`query.yaml`) and the sitemap configuration
//! (`sitemap.yaml`): paths are absolute, each index property has one selector and one
//! expression, each sitemap one index and file or its languages, an origin is an origin.

use crate::diagnostic::{Code, Diagnostic};
use crate::document::push_token;
use crate::model::api::{IndexProperty, QueryConfig, Sitemap, SitemapConfig};

/// Whether `path` is a path of the site: absolute, without spaces.
fn is_site_path(path: &str) -> bool {
    path.starts_with('/') && !path.chars().any(char::is_whitespace)
}

fn check_path(what: &str, path: &str, pointer: String, out: &mut Vec<Diagnostic>) {
    if !is_site_path(path) {
        out.push(
            Diagnostic::error(
                Code::InvalidPath,
                format!("{what} `{path}` is not an absolute path of the site"),
            )
            .with_help(format!(
                "paths start with `/` and have no spaces, for example `/{}`",
                path.trim().trim_start_matches('/')
            ))
            .at_pointer(pointer),
        );
    }
}

/// A glob the indexer can match a page with: not empty, no spaces (no page path has one).
/// The platform's indexer (`contains()` of helix-shared-indexer) takes a glob that starts
/// with `/` or `**` as written and puts `/` before any other, so `**/drafts/**` and
/// `drafts/**` (which is `/drafts/**`) are globs of the site's pages.
fn check_glob(key: &str, glob: &str, pointer: String, out: &mut Vec<Diagnostic>) {
    if glob.is_empty() || glob.chars().any(char::is_whitespace) {
        out.push(
            Diagnostic::error(
                Code::InvalidPath,
                format!("{key} glob `{glob}` matches no page path: it is empty or has spaces"),
            )
            .with_help(
                "write a glob of page paths without spaces: `/blog/**`, `**/drafts/**`, or \
                 `drafts/**` for `/drafts/**`",
            )
            .at_pointer(pointer),
        );
    }
}

pub fn query(config: &QueryConfig) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (name, index) in &config.indices {
        let at = push_token("/indices", name);
        for (key, globs) in [("include", &index.include), ("exclude", &index.exclude)] {
            for (i, glob) in globs.iter().flatten().enumerate() {
                let pointer = push_token(&push_token(&at, key), &i.to_string());
                check_glob(key, glob, pointer, &mut out);
            }
        }
        check_path("target", &index.target, push_token(&at, "target"), &mut out);
        for (column, property) in &index.properties {
            let pointer = push_token(&push_token(&at, "properties"), column);
            out.extend(index_property(column, property, &pointer));
        }
    }
    out
}

/// One selector and one expression; `faceted` only over `select`.
fn index_property(column: &str, property: &IndexProperty, pointer: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let problem = |message: String, help: &str| {
        Diagnostic::error(Code::InvalidIndexProperty, message)
            .with_help(help)
            .at_key(pointer)
    };
    match (&property.select, &property.select_first) {
        (Some(_), Some(_)) => out.push(problem(
            format!("property `{column}` has both `select` and `selectFirst`"),
            "keep `select` (every match) or `selectFirst` (the first)",
        )),
        (None, None) => out.push(problem(
            format!("property `{column}` has no selector"),
            "add `select` (every match) or `selectFirst` (the first match), a CSS selector",
        )),
        _ => {}
    }
    match (&property.value, &property.values) {
        (Some(_), Some(_)) => out.push(problem(
            format!("property `{column}` has both `value` and `values`"),
            "keep `value` (one value) or `values` (a list)",
        )),
        (None, None) => out.push(problem(
            format!("property `{column}` has no expression"),
            "add `value` (one value, for example `textContent(el)`) or `values` (a list)",
        )),
        _ => {}
    }
    if property.faceted.is_some() && property.select.is_none() && property.select_first.is_some() {
        out.push(problem(
            format!("property `{column}` is `faceted` over `selectFirst`"),
            "a faceted property selects with `select`",
        ));
    }
    out
}

pub fn sitemap(config: &SitemapConfig) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (name, sitemap) in &config.sitemaps {
        one_sitemap(name, sitemap, &push_token("/sitemaps", name), &mut out);
    }
    out
}

fn one_sitemap(name: &str, sitemap: &Sitemap, at: &str, out: &mut Vec<Diagnostic>) {
    if let Some(origin) = &sitemap.origin {
        let pointer = push_token(at, "origin");
        match super::http_url(origin) {
            Err(error) => out.push(error.diagnostic(&pointer)),
            Ok(url) => {
                let bare = url.path() == "/"
                    && url.query().is_none()
                    && url.fragment().is_none()
                    && !origin.ends_with('/');
                if !bare {
                    out.push(
                        Diagnostic::error(
                            Code::InvalidUrl,
                            format!("`{origin}` is not an origin: it has more than a scheme, host and port"),
                        )
                        .with_help(format!("write the origin alone: `{}`", url.origin().ascii_serialization()))
                        .at_pointer(pointer),
                    );
                }
            }
        }
    }
    for (key, path) in [
        ("source", &sitemap.source),
        ("destination", &sitemap.destination),
    ] {
        if let Some(path) = path {
            check_path(key, path, push_token(at, key), out);
        }
    }
    let languages = sitemap.languages.as_ref();
    let single = sitemap.source.is_some() || sitemap.destination.is_some();
    match languages {
        None if sitemap.source.is_none() || sitemap.destination.is_none() => {
            let missing = if sitemap.source.is_none() {
                "source"
            } else {
                "destination"
            };
            out.push(
                Diagnostic::error(
                    Code::InvalidSitemap,
                    format!("sitemap `{name}` has no `{missing}`"),
                )
                .with_help(
                    "a sitemap has a `source` index and a `destination` file, or `languages`",
                )
                .at_key(at),
            );
        }
        Some(_) if single => out.push(
            Diagnostic::error(
                Code::InvalidSitemap,
                format!("sitemap `{name}` has both `languages` and its own source or destination"),
            )
            .with_help("with `languages`, each language names its `source` and `destination`")
            .at_key(push_token(
                at,
                if sitemap.source.is_some() {
                    "source"
                } else {
                    "destination"
                },
            )),
        ),
        _ => {}
    }
    if let Some(default) = &sitemap.default
        && !languages.is_some_and(|l| l.contains_key(default))
    {
        let known: Vec<String> = languages
            .into_iter()
            .flat_map(|l| l.keys())
            .map(|k| format!("`{k}`"))
            .collect();
        out.push(
            Diagnostic::error(
                Code::InvalidSitemap,
                format!("`default` names `{default}`, which is not a language of sitemap `{name}`"),
            )
            .with_help(if known.is_empty() {
                "`default` names one of the sitemap's `languages`".to_string()
            } else {
                format!("its languages: {}", known.join(", "))
            })
            .at_pointer(push_token(at, "default")),
        );
    }
    for (lang, language) in languages.into_iter().flatten() {
        let at = push_token(&push_token(at, "languages"), lang);
        check_path("source", &language.source, push_token(&at, "source"), out);
        check_path(
            "destination",
            &language.destination,
            push_token(&at, "destination"),
            out,
        );
        if let Some(alternate) = &language.alternate {
            let pointer = push_token(&at, "alternate");
            if !is_site_path(alternate) {
                check_path("alternate", alternate, pointer, out);
            } else if !alternate.contains("{path}") {
                out.push(
                    Diagnostic::error(
                        Code::InvalidSitemap,
                        format!("alternate `{alternate}` has no `{{path}}`"),
                    )
                    .with_help("`{path}` stands for the page path shared by the languages, for example `/fr/{path}`")
                    .at_pointer(pointer),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes<T: serde::de::DeserializeOwned>(
        body: serde_json::Value,
        rule: fn(&T) -> Vec<Diagnostic>,
    ) -> Vec<(String, String)> {
        let config: T = serde_json::from_value(body).expect("the body fits the type");
        rule(&config)
            .into_iter()
            .map(|d| (d.code.to_string(), d.pointer.unwrap_or_default()))
            .collect()
    }

    #[test]
    fn index_properties_need_one_selector_and_one_expression() {
        let body = json!({"indices": {"default": {
            "include": ["/**", "blog/**", "**/drafts/**", "/my drafts/**", ""],
            "target": "query-index.json",
            "properties": {
                "title": {"select": "h1", "value": "textContent(el)"},
                "both": {"select": "a", "selectFirst": "a", "value": "x", "values": "y"},
                "none": {"faceted": true},
                "facet": {"selectFirst": "a", "values": "x", "faceted": true}
            }
        }}});
        assert_eq!(
            codes(body, query),
            [
                ("invalid-path", "/indices/default/include/3"),
                ("invalid-path", "/indices/default/include/4"),
                ("invalid-path", "/indices/default/target"),
                ("invalid-index-property", "/indices/default/properties/both"),
                ("invalid-index-property", "/indices/default/properties/both"),
                (
                    "invalid-index-property",
                    "/indices/default/properties/facet"
                ),
                ("invalid-index-property", "/indices/default/properties/none"),
                ("invalid-index-property", "/indices/default/properties/none"),
            ]
            .map(|(c, p)| (c.to_string(), p.to_string()))
        );
    }

    #[test]
    fn sitemaps_have_a_source_and_destination_or_languages() {
        let body = json!({"sitemaps": {
            "plain": {"origin": "https://www.acme.example/", "source": "/query-index.json"},
            "both": {"source": "/q.json", "destination": "/s.xml", "languages": {
                "en": {"source": "/en/q.json", "destination": "/s-en.xml", "hreflang": "en"}
            }},
            "langs": {"default": "de", "languages": {
                "fr": {"source": "/fr/q.json", "destination": "sitemap-fr.xml", "hreflang": ["fr", "x-default"], "alternate": "/fr/"}
            }},
            "good": {"origin": "https://www.acme.example", "source": "/q.json", "destination": "/sitemap.xml", "lastmod": "YYYY-MM-DD"}
        }});
        assert_eq!(
            codes(body, sitemap),
            [
                ("invalid-sitemap", "/sitemaps/both/source"),
                ("invalid-sitemap", "/sitemaps/langs/default"),
                ("invalid-path", "/sitemaps/langs/languages/fr/destination"),
                ("invalid-sitemap", "/sitemaps/langs/languages/fr/alternate"),
                ("invalid-url", "/sitemaps/plain/origin"),
                ("invalid-sitemap", "/sitemaps/plain"),
            ]
            .map(|(c, p)| (c.to_string(), p.to_string()))
        );
    }
}
