//! Post-processing of rendered pages, as the hosted worker does it. Pure string functions
//! over the rendered HTML; attribute values are decoded before they are judged, because
//! mustache.js writes `/` as `&#x2F;`.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex};
use serde_json::Value;

use crate::html::escape_into;

/// The media extensions `relativeURLPrefix` applies to.
pub const MEDIA_EXTENSIONS: [&str; 9] = [
    ".mp4", ".pdf", ".svg", ".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif",
];

/// `src="…"` and `href='…'` attributes, with the quote kept for the rewrite.
static URL_ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(\s(?:src|href)\s*=\s*)(?:"([^"]*)"|'([^']*)')"#).expect("valid regex")
});

/// `<meta name="tags" content="…">`, in either attribute order.
static TAGS_META: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<meta\s+(?:name\s*=\s*["']tags["']\s+content\s*=\s*"([^"]*)"|content\s*=\s*"([^"]*)"\s+name\s*=\s*["']tags["'])\s*/?>"#)
        .expect("valid regex")
});

/// Rewrites each `src`/`href` attribute whose decoded value passes `rewrite`.
fn rewrite_url_attributes(html: &str, rewrite: impl Fn(&str) -> Option<String>) -> String {
    URL_ATTRIBUTE
        .replace_all(html, |captures: &Captures<'_>| {
            let raw = captures
                .get(2)
                .or_else(|| captures.get(3))
                .map_or("", |m| m.as_str());
            let decoded = decode_entities(raw);
            match rewrite(&decoded) {
                Some(url) => {
                    let mut value = String::with_capacity(url.len() + 2);
                    escape_into(&url, &mut value);
                    format!("{}\"{value}\"", &captures[1])
                }
                None => captures[0].to_string(),
            }
        })
        .into_owned()
}

/// `relativeURLPrefix`: puts `prefix` in front of media URLs that start with `/` (not `//`)
/// and end in a [`MEDIA_EXTENSIONS`] extension; full addresses and other URLs stay.
pub fn prefix_media_urls(html: &str, prefix: &str) -> String {
    let prefix = prefix.trim_end_matches('/');
    rewrite_url_attributes(html, |url| {
        let path = url
            .split(['?', '#'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let is_media = MEDIA_EXTENSIONS.iter().any(|ext| path.ends_with(ext));
        (url.starts_with('/') && !url.starts_with("//") && is_media)
            .then(|| format!("{prefix}{url}"))
    })
}

/// `useAEMMapping`: links under a mapping's source path point to its target path instead.
/// `mappings` are the site's `<source>:<target>` strings; the longest source wins.
pub fn apply_mappings(html: &str, mappings: &[String]) -> String {
    let mut pairs: Vec<(&str, &str)> = mappings.iter().filter_map(|m| m.split_once(':')).collect();
    pairs.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
    rewrite_url_attributes(html, |url| {
        pairs.iter().find_map(|(from, to)| {
            let rest = url.strip_prefix(from)?;
            // A mapping of a folder (`/content/site/`) maps what is under it; one of a page
            // maps that page only.
            (from.ends_with('/') || rest.is_empty() || rest.starts_with(['?', '#'])).then(|| {
                let to = if from.ends_with('/') && !to.ends_with('/') {
                    format!("{to}/")
                } else {
                    to.to_string()
                };
                format!("{to}{rest}").replacen("//", "/", 1)
            })
        })
    })
}

/// Repeated `tags` metadata (`content="a, b"`) becomes one `article:tag` meta per tag.
pub fn expand_tags(html: &str) -> String {
    TAGS_META
        .replace_all(html, |captures: &Captures<'_>| {
            let content = captures
                .get(1)
                .or_else(|| captures.get(2))
                .map_or("", |m| m.as_str());
            let decoded = decode_entities(content);
            let mut out = String::new();
            for tag in decoded.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                out.push_str("<meta property=\"article:tag\" content=\"");
                escape_into(tag, &mut out);
                out.push_str("\">");
            }
            out
        })
        .into_owned()
}

/// The page the worker produces when no template can be fetched: `title` and description
/// from the data, the data as JSON-LD, then `main` with one section whose `div`s carry one
/// class per key (`item` for array members).
pub fn generic_html(data: &Value) -> String {
    let mut out = String::from("<!DOCTYPE html>\n<html>\n<head>\n");
    if let Some(title) = data.get("title").and_then(Value::as_str) {
        out.push_str("<title>");
        escape_into(title, &mut out);
        out.push_str("</title>\n");
    }
    if let Some(description) = data.get("description").and_then(Value::as_str) {
        out.push_str("<meta name=\"description\" content=\"");
        escape_into(description, &mut out);
        out.push_str("\">\n");
    }
    // `</` cannot end the script early once its slash is escaped.
    let json_ld = serde_json::to_string(data)
        .expect("JSON serializes")
        .replace("</", "<\\/");
    out.push_str("<script type=\"application/ld+json\">");
    out.push_str(&json_ld);
    out.push_str("</script>\n</head>\n<body>\n<main>\n<div>\n");
    generic_value(data, &mut out);
    out.push_str("\n</div>\n</main>\n</body>\n</html>\n");
    out
}

fn generic_value(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                out.push_str("<div class=\"");
                out.push_str(&class_name(key));
                out.push_str("\">");
                generic_value(value, out);
                out.push_str("</div>");
            }
        }
        Value::Array(items) => {
            for item in items {
                out.push_str("<div class=\"item\">");
                generic_value(item, out);
                out.push_str("</div>");
            }
        }
        Value::String(s) => escape_into(s, out),
        Value::Null => {}
        other => out.push_str(&other.to_string()),
    }
}

/// A key as a class name: characters outside `[A-Za-z0-9_-]` become `-`.
fn class_name(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Decodes the character references a template engine writes into attribute values.
pub fn decode_entities(text: &str) -> Cow<'_, str> {
    if !text.contains('&') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let decoded = after.find(';').filter(|&end| end <= 10).and_then(|end| {
            let entity = &after[1..end];
            let c = match entity {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => entity
                    .strip_prefix("#x")
                    .or_else(|| entity.strip_prefix("#X"))
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                    .or_else(|| entity.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, end + 1))
        });
        match decoded {
            Some((c, length)) => {
                out.push(c);
                rest = &after[length..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn media_urls_get_the_prefix_after_decoding() {
        let html = r#"<img src="&#x2F;media&#x2F;a.JPG"><a href='/docs/manual.pdf?v=2'>m</a><a href="/page">p</a><img src="https://cdn.example/x.png"><img src="//cdn.example/x.png"><video src="/v/clip.mp4"></video>"#;
        let out = prefix_media_urls(html, "https://media.example.com/");
        assert_eq!(
            out,
            r#"<img src="https://media.example.com/media/a.JPG"><a href="https://media.example.com/docs/manual.pdf?v=2">m</a><a href="/page">p</a><img src="https://cdn.example/x.png"><img src="//cdn.example/x.png"><video src="https://media.example.com/v/clip.mp4"></video>"#
        );
    }

    #[test]
    fn every_listed_extension_is_media() {
        for ext in MEDIA_EXTENSIONS {
            let out = prefix_media_urls(&format!("<img src=\"/a{ext}\">"), "https://m.example");
            assert_eq!(out, format!("<img src=\"https://m.example/a{ext}\">"));
        }
        assert_eq!(
            prefix_media_urls("<a href=\"/a.html\">", "https://m.example"),
            "<a href=\"/a.html\">"
        );
    }

    #[test]
    fn tags_become_article_tag_metas() {
        let html = r#"<head><meta name="tags" content="shoes, running,, sale &amp; more"><meta name="description" content="x"></head>"#;
        assert_eq!(
            expand_tags(html),
            r#"<head><meta property="article:tag" content="shoes"><meta property="article:tag" content="running"><meta property="article:tag" content="sale &amp; more"><meta name="description" content="x"></head>"#
        );
        assert_eq!(
            expand_tags(r#"<meta content="a,b," name="tags">"#),
            r#"<meta property="article:tag" content="a"><meta property="article:tag" content="b">"#
        );
    }

    #[test]
    fn mappings_rewrite_links_under_their_source() {
        let mappings = vec![
            "/content/site/:/".to_string(),
            "/content/site/configuration:/config.json".to_string(),
        ];
        let html = r#"<a href="&#x2F;content&#x2F;site&#x2F;products&#x2F;1">p</a><a href="/content/site/configuration">c</a><a href="/elsewhere">e</a><a href="/content/site/">home</a>"#;
        assert_eq!(
            apply_mappings(html, &mappings),
            r#"<a href="/products/1">p</a><a href="/config.json">c</a><a href="/elsewhere">e</a><a href="/">home</a>"#
        );
    }

    #[test]
    fn the_generic_page_carries_title_description_json_ld_and_classes() {
        let data = json!({"title": "A <b>", "description": "d", "spec sheet": {"weight": 2}, "sizes": ["S", "M"], "note": "</script>"});
        let html = generic_html(&data);
        assert!(html.contains("<title>A &lt;b&gt;</title>"), "{html}");
        assert!(html.contains("<meta name=\"description\" content=\"d\">"));
        assert!(html.contains("<script type=\"application/ld+json\">{"));
        assert!(
            !html.contains("\"</script>\""),
            "the data cannot close the script early"
        );
        assert!(
            html.contains("<div class=\"spec-sheet\"><div class=\"weight\">2</div></div>"),
            "{html}"
        );
        assert!(html.contains(
            "<div class=\"sizes\"><div class=\"item\">S</div><div class=\"item\">M</div></div>"
        ));
        assert!(html.contains("<main>\n<div>\n"));
    }

    #[test]
    fn entities_decode_and_stray_ampersands_stay() {
        assert_eq!(
            decode_entities("&#x2F;a&#47;b&amp;c&lt;&quot;"),
            "/a/b&c<\""
        );
        assert_eq!(
            decode_entities("a & b &unknown; &#xZZ;"),
            "a & b &unknown; &#xZZ;"
        );
        assert!(matches!(decode_entities("plain"), Cow::Borrowed(_)));
    }
}
