//! Post-processing of rendered pages, as the hosted worker does it. Pure string functions
//! over the rendered HTML; attribute values are decoded before they are judged, because
//! mustache.js writes `/` as `&#x2F;`.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex};
use serde_json::Value;

use crate::html::escape_into;
use siteops_template::json::JsonRef;

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
pub(crate) fn prefix_media_urls(html: &str, prefix: &str) -> String {
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
pub(crate) fn apply_mappings(html: &str, mappings: &[String]) -> String {
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
pub(crate) fn expand_tags(html: &str) -> String {
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

/// The generic page would pass its limit; it was not built past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the page would be larger than {limit} bytes")]
pub struct PageTooLarge {
    pub limit: usize,
}

/// The page the worker produces when no template can be fetched: `title` and description
/// from the data, the data as JSON-LD, then `main` with one section whose `div`s carry one
/// class per key (`item` for array members). Built within `limit` bytes: it stops as soon
/// as the page would pass it.
pub(crate) fn generic_html(data: JsonRef<'_>, limit: usize) -> Result<String, PageTooLarge> {
    // Every node of the data takes at least a byte of the JSON-LD: a document with more
    // nodes than the limit cannot fit, and is refused before it is copied.
    if data.node_count() > limit {
        return Err(PageTooLarge { limit });
    }
    let data = data.to_value();
    let mut page = Bounded::new(limit);
    page.push("<!DOCTYPE html>\n<html>\n<head>\n")?;
    if let Some(title) = data.get("title").and_then(Value::as_str) {
        page.push("<title>")?;
        page.escape(title)?;
        page.push("</title>\n")?;
    }
    if let Some(description) = data.get("description").and_then(Value::as_str) {
        page.push("<meta name=\"description\" content=\"")?;
        page.escape(description)?;
        page.push("\">\n")?;
    }
    page.push("<script type=\"application/ld+json\">")?;
    page.json_ld(&data)?;
    page.push("</script>\n</head>\n<body>\n<main>\n<div>\n")?;
    generic_value(&data, &mut page)?;
    page.push("\n</div>\n</main>\n</body>\n</html>\n")?;
    Ok(page.out)
}

/// A page under construction that refuses, before writing, whatever would take it past
/// its limit.
struct Bounded {
    out: String,
    limit: usize,
}

impl Bounded {
    fn new(limit: usize) -> Bounded {
        Bounded {
            out: String::new(),
            limit,
        }
    }

    fn push(&mut self, text: &str) -> Result<(), PageTooLarge> {
        if self.out.len() + text.len() > self.limit {
            return Err(PageTooLarge { limit: self.limit });
        }
        self.out.push_str(text);
        Ok(())
    }

    /// Appends `text` escaped as [`escape_into`] does, a character at a time near the limit.
    fn escape(&mut self, text: &str) -> Result<(), PageTooLarge> {
        // An escaped character takes at most six bytes (`&quot;`).
        if self.out.len() + text.len().saturating_mul(6) <= self.limit {
            escape_into(text, &mut self.out);
            return Ok(());
        }
        let mut buffer = [0u8; 4];
        for c in text.chars() {
            let mut piece = String::new();
            escape_into(c.encode_utf8(&mut buffer), &mut piece);
            self.push(&piece)?;
        }
        Ok(())
    }

    /// The data as JSON, with `</` written `<\/` so that it cannot end the script early.
    fn json_ld(&mut self, data: &Value) -> Result<(), PageTooLarge> {
        let limit = self.limit;
        let mut writer = JsonLd {
            page: self,
            after_lt: false,
        };
        serde_json::to_writer(&mut writer, data).map_err(|_| PageTooLarge { limit })
    }
}

/// Writes serialized JSON into a [`Bounded`] page, escaping `</` on the way (the two may
/// arrive in different writes). Past the limit the write fails, which stops serializing.
struct JsonLd<'p> {
    page: &'p mut Bounded,
    after_lt: bool,
}

impl std::io::Write for JsonLd<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let full = || std::io::Error::other("the page limit is reached");
        // serde_json writes whole characters: each write is UTF-8 on its own.
        let text = std::str::from_utf8(bytes).map_err(std::io::Error::other)?;
        let mut rest = text;
        while !rest.is_empty() {
            if self.after_lt && rest.starts_with('/') {
                self.page.push("\\/").map_err(|_| full())?;
                rest = &rest[1..];
                self.after_lt = false;
                continue;
            }
            let end = rest.find('<').map_or(rest.len(), |at| at + 1);
            self.page.push(&rest[..end]).map_err(|_| full())?;
            self.after_lt = rest[..end].ends_with('<');
            rest = &rest[end..];
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn generic_value(value: &Value, page: &mut Bounded) -> Result<(), PageTooLarge> {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                page.push("<div class=\"")?;
                page.push(&class_name(key))?;
                page.push("\">")?;
                generic_value(value, page)?;
                page.push("</div>")?;
            }
        }
        Value::Array(items) => {
            for item in items {
                page.push("<div class=\"item\">")?;
                generic_value(item, page)?;
                page.push("</div>")?;
            }
        }
        Value::String(s) => page.escape(s)?,
        Value::Null => {}
        other => page.push(&other.to_string())?,
    }
    Ok(())
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
pub(crate) fn decode_entities(text: &str) -> Cow<'_, str> {
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
    use serde_json::{Value, json};

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

    fn generic(data: &Value, limit: usize) -> Result<String, PageTooLarge> {
        let text = data.to_string();
        let mut buffer = Vec::new();
        let document =
            siteops_template::json::Json::parse(text.as_bytes(), &mut buffer).expect("JSON");
        generic_html(document.root(), limit)
    }

    #[test]
    fn the_generic_page_stops_at_its_limit() {
        let data = json!({"title": "t", "items": ["</x>".repeat(100), "y".repeat(100)]});
        let whole = generic(&data, usize::MAX).expect("no limit");
        assert!(whole.contains("<\\/x>"), "{whole}");
        assert_eq!(generic(&data, whole.len()).as_deref(), Ok(whole.as_str()));
        // One byte short, at any point of the page (head, JSON-LD, body): refused.
        for limit in [0, 10, 120, 300, 500, whole.len() - 1] {
            assert_eq!(
                generic(&data, limit),
                Err(PageTooLarge { limit }),
                "{limit}"
            );
        }
        // More nodes than bytes allowed: refused before anything is copied.
        let many = json!(vec![0; 1000]);
        assert_eq!(generic(&many, 999), Err(PageTooLarge { limit: 999 }));
    }

    #[test]
    fn the_generic_page_carries_title_description_json_ld_and_classes() {
        let data = json!({"title": "A <b>", "description": "d", "spec sheet": {"weight": 2}, "sizes": ["S", "M"], "note": "</script>"});
        let html = generic(&data, usize::MAX).expect("no limit");
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
