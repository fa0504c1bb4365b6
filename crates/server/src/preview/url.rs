//! Page paths and fetch URLs, as pure functions.
//!
//! **Page paths.** The path after `/preview/<org>/<site>/<branch>` (or a preview host's
//! request path) is read segment by segment:
//! - each segment is percent-decoded; it must be UTF-8 without control characters, and an
//!   encoded `/` (`%2F`) inside a segment is refused (400);
//! - `.` and `..` segments are refused (400), also when encoded (`%2e%2e`): a page path can
//!   never climb out of the configured source path;
//! - empty segments (`//`) are collapsed: `/a//b` is `/a/b`;
//! - a trailing `.md` is dropped (`/a.md` is the page `/a`), and a last segment `index` is
//!   the folder (`/a/index` is `/a/`).
//!
//! **What a page fetches.** `/` fetches `/index`, a folder `/a/` fetches `/a/index`, and
//! `/a` fetches `/a`; the source's suffix follows, then the configured query string. Each
//! segment is percent-encoded again on the way out (everything except RFC 3986 unreserved
//! characters and `! $ & ' ( ) * + , ; = : @`).
//!
//! **Fetch URL** (interface, "Markup URL construction"): origin of the configured `url` +
//! its path (without a trailing `/`) + the page's fetch path + `suffix` + `?` and the
//! configured query string when it has one. User info and fragment of the configured URL
//! are not part of it.

use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};
use url::Url;

/// Characters encoded in a path segment: everything but unreserved and the path-safe
/// sub-delimiters.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("invalid page path `{0}`: `.` and `..` segments are not allowed")]
    DotSegment(String),
    #[error("invalid page path `{0}`: an encoded `/` inside a segment is not allowed")]
    EncodedSlash(String),
    #[error("invalid page path `{0}`: segments must be UTF-8 without control characters")]
    Encoding(String),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    #[error("the configured source URL `{0}` is not an absolute http(s) URL")]
    Source(String),
    #[error("the configured suffix `{0}` is not a file extension")]
    Suffix(String),
}

/// A validated page path: decoded segments, and whether it names a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagePath {
    segments: Vec<String>,
    folder: bool,
}

impl PagePath {
    /// Parses a raw (percent-encoded) path; a missing leading `/` is implied.
    pub fn parse(raw: &str) -> Result<PagePath, PathError> {
        let mut segments = Vec::new();
        let mut folder = raw.is_empty() || raw.ends_with('/');
        for encoded in raw.split('/').filter(|s| !s.is_empty()) {
            let bytes: Vec<u8> = percent_decode_str(encoded).collect();
            let segment =
                String::from_utf8(bytes).map_err(|_| PathError::Encoding(raw.to_string()))?;
            if segment.chars().any(char::is_control) {
                return Err(PathError::Encoding(raw.to_string()));
            }
            if segment.contains('/') {
                return Err(PathError::EncodedSlash(raw.to_string()));
            }
            if segment == "." || segment == ".." {
                return Err(PathError::DotSegment(raw.to_string()));
            }
            segments.push(segment);
        }
        if let Some(last) = segments.last_mut()
            && let Some(stem) = last.strip_suffix(".md")
        {
            *last = stem.to_string();
            if last.is_empty() || last == "." || last == ".." {
                return Err(PathError::DotSegment(raw.to_string()));
            }
            folder = false;
        }
        if segments.last().is_some_and(|s| s == "index") {
            segments.pop();
            folder = true;
        }
        if segments.is_empty() {
            folder = true;
        }
        Ok(PagePath { segments, folder })
    }

    /// The decoded segments.
    pub fn segments(&self) -> &[String] {
        &self.segments
    }

    pub fn is_folder(&self) -> bool {
        self.folder
    }

    /// The page's web path, percent-encoded: `/`, `/a/`, `/a/b`.
    pub fn web_path(&self) -> String {
        let mut path = encode_segments(&self.segments);
        if self.folder {
            path.push('/');
        }
        path
    }

    /// What is fetched from a source (before the suffix): `/index` for a folder.
    pub(crate) fn fetch_path(&self) -> String {
        let mut path = encode_segments(&self.segments);
        if self.folder {
            path.push_str("/index");
        }
        path
    }

    /// Where a preview host serves the page as `variant`, the inverse of [`requested`]: the
    /// web path, or the fetched path with `.md` or `.plain.html`, so a folder's are
    /// `/a/index.md` and `/index.md` (the platform's rule; `/.md` is no page).
    pub fn served_path(&self, variant: Variant) -> String {
        match variant {
            Variant::Html => self.web_path(),
            Variant::Markdown => format!("{}.md", self.fetch_path()),
            Variant::Plain => format!("{}.plain.html", self.fetch_path()),
        }
    }

    /// The stored resource: `/a/b.md`, `/a/index.md`. A JSON page is `/a/b.json` (its path
    /// when it already ends in `.json`), which is also where it is served.
    pub fn resource_path(&self, json: bool) -> String {
        let fetch = self.fetch_path();
        match (json, fetch.ends_with(".json")) {
            (true, true) => fetch,
            (true, false) => format!("{fetch}.json"),
            (false, _) => format!("{fetch}.md"),
        }
    }
}

/// What a preview host request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requested {
    /// `…/media_<hash>.<ext>`, at any depth.
    Media(String),
    Page(PagePath, Variant),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// `<path>`: the rendered page (or a sheet's JSON).
    Html,
    /// `<path>.md`
    Markdown,
    /// `<path>.plain.html`
    Plain,
}

/// Reads a preview host's request path.
pub fn requested(raw: &str) -> Result<Requested, PathError> {
    let last = raw.rsplit('/').next().unwrap_or("");
    if super::images::media::is_media_name(last) {
        return Ok(Requested::Media(last.to_string()));
    }
    if let Some(page) = raw.strip_suffix(".plain.html") {
        return Ok(Requested::Page(PagePath::parse(page)?, Variant::Plain));
    }
    let variant = if raw.ends_with(".md") {
        Variant::Markdown
    } else {
        Variant::Html
    };
    Ok(Requested::Page(PagePath::parse(raw)?, variant))
}

fn encode_segments(segments: &[String]) -> String {
    segments
        .iter()
        .map(|s| format!("/{}", utf8_percent_encode(s, SEGMENT)))
        .collect()
}

/// The URL a page is fetched from, following the interface's rule exactly.
pub(crate) fn fetch_url(
    source: &str,
    suffix: Option<&str>,
    page: &PagePath,
) -> Result<Url, UrlError> {
    let configured = Url::parse(source).map_err(|_| UrlError::Source(source.to_string()))?;
    if !matches!(configured.scheme(), "http" | "https") || configured.host_str().is_none() {
        return Err(UrlError::Source(source.to_string()));
    }
    let suffix = suffix.unwrap_or("");
    if !suffix.is_empty() && siteops_config::rules::check_suffix(suffix).is_some() {
        return Err(UrlError::Suffix(suffix.to_string()));
    }
    let base_path = configured.path().trim_end_matches('/');
    let mut text = format!(
        "{}{}{}{}",
        configured.origin().ascii_serialization(),
        base_path,
        page.fetch_path(),
        suffix
    );
    if let Some(query) = configured.query().filter(|q| !q.is_empty()) {
        text.push('?');
        text.push_str(query);
    }
    let url = Url::parse(&text).map_err(|_| UrlError::Source(source.to_string()))?;
    // Segments are never `.`/`..`, so parsing cannot have climbed; checked all the same.
    debug_assert!(url.path().starts_with(base_path));
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(source: &str, suffix: Option<&str>, page: &str, expected: &str) -> Option<String> {
        let page = match PagePath::parse(page) {
            Ok(page) => page,
            Err(error) => return Some(format!("{page}: {error}")),
        };
        let url = fetch_url(source, suffix, &page).map(String::from);
        (url.as_deref() != Ok(expected)).then(|| format!("{source} + {page:?}: {url:?}"))
    }

    /// Issue 28: the dashboard linked `/` as `/.md`, which is no page path.
    #[test]
    fn served_paths_are_read_back_as_their_page() {
        for (page, html, markdown, plain) in [
            ("/", "/", "/index.md", "/index.plain.html"),
            ("/a", "/a", "/a.md", "/a.plain.html"),
            ("/a/", "/a/", "/a/index.md", "/a/index.plain.html"),
            ("/a/b c", "/a/b%20c", "/a/b%20c.md", "/a/b%20c.plain.html"),
        ] {
            let parsed = PagePath::parse(page).expect(page);
            for (variant, expected) in [
                (Variant::Html, html),
                (Variant::Markdown, markdown),
                (Variant::Plain, plain),
            ] {
                let served = parsed.served_path(variant);
                assert_eq!(served, expected, "{page} {variant:?}");
                assert_eq!(
                    requested(&served),
                    Ok(Requested::Page(parsed.clone(), variant)),
                    "{served}"
                );
            }
        }
    }

    #[test]
    fn fetch_urls_follow_the_interface_rule() {
        let cases: &[(&str, Option<&str>, &str, &str)] = &[
            (
                "https://cms.example/delivery",
                None,
                "/a",
                "https://cms.example/delivery/a",
            ),
            (
                "https://cms.example/delivery/",
                None,
                "/a",
                "https://cms.example/delivery/a",
            ),
            (
                "https://cms.example",
                None,
                "/a/b",
                "https://cms.example/a/b",
            ),
            (
                "https://cms.example/d",
                Some(".html"),
                "/a",
                "https://cms.example/d/a.html",
            ),
            (
                "https://cms.example/d?tenant=acme",
                Some(".html"),
                "/a",
                "https://cms.example/d/a.html?tenant=acme",
            ),
            (
                "https://cms.example/d/?x=1&y=2",
                None,
                "/a/",
                "https://cms.example/d/a/index?x=1&y=2",
            ),
            (
                "https://cms.example/d",
                None,
                "/",
                "https://cms.example/d/index",
            ),
            (
                "https://cms.example/d",
                Some(".html"),
                "",
                "https://cms.example/d/index.html",
            ),
            (
                "https://cms.example/d",
                Some(".html"),
                "/folder/",
                "https://cms.example/d/folder/index.html",
            ),
            (
                "https://cms.example/d",
                None,
                "/folder/index",
                "https://cms.example/d/folder/index",
            ),
            (
                "https://cms.example/d",
                None,
                "/a.md",
                "https://cms.example/d/a",
            ),
            (
                "https://cms.example/d",
                None,
                "/index.md",
                "https://cms.example/d/index",
            ),
            (
                "https://cms.example/d",
                None,
                "//a///b",
                "https://cms.example/d/a/b",
            ),
            (
                "https://cms.example/d",
                None,
                "/a%20b/c%3Fd",
                "https://cms.example/d/a%20b/c%3Fd",
            ),
            (
                "https://cms.example/d",
                None,
                "/a b",
                "https://cms.example/d/a%20b",
            ),
            (
                "https://cms.example/d",
                None,
                "/caf%C3%A9",
                "https://cms.example/d/caf%C3%A9",
            ),
            (
                "https://cms.example/d",
                None,
                "/a#b",
                "https://cms.example/d/a%23b",
            ),
            (
                "https://cms.example/d",
                None,
                "/.hidden/x",
                "https://cms.example/d/.hidden/x",
            ),
            (
                "https://cms.example/d",
                None,
                "/data.json",
                "https://cms.example/d/data.json",
            ),
            (
                "http://127.0.0.1:8080/t/acme/web/main",
                None,
                "/p",
                "http://127.0.0.1:8080/t/acme/web/main/p",
            ),
            (
                "https://user:pw@cms.example/d#frag",
                None,
                "/a",
                "https://cms.example/d/a",
            ),
            (
                "https://CMS.example:443/d",
                None,
                "/a",
                "https://cms.example/d/a",
            ),
        ];
        let failures: Vec<String> = cases
            .iter()
            .filter_map(|(source, suffix, page, expected)| check(source, *suffix, page, expected))
            .collect();
        assert!(failures.is_empty(), "{failures:#?}");
    }

    #[test]
    fn page_paths_never_climb() {
        for bad in [
            "/..",
            "/a/../b",
            "/%2e%2e/x",
            "/a/%2E",
            "/./a",
            "/..md",
            "/a/..%2emd",
        ] {
            assert!(
                matches!(PagePath::parse(bad), Err(PathError::DotSegment(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            PagePath::parse("/a%2Fb"),
            Err(PathError::EncodedSlash(_))
        ));
        assert!(matches!(
            PagePath::parse("/%FF"),
            Err(PathError::Encoding(_))
        ));
        assert!(matches!(
            PagePath::parse("/a%0Ab"),
            Err(PathError::Encoding(_))
        ));
    }

    #[test]
    fn web_and_resource_paths() {
        let cases = [
            ("/", "/", "/index.md", "/index.json"),
            ("", "/", "/index.md", "/index.json"),
            ("/index", "/", "/index.md", "/index.json"),
            ("/index.md", "/", "/index.md", "/index.json"),
            ("/a/", "/a/", "/a/index.md", "/a/index.json"),
            ("/a/b", "/a/b", "/a/b.md", "/a/b.json"),
            ("/a/b.md", "/a/b", "/a/b.md", "/a/b.json"),
            ("/data.json", "/data.json", "/data.json.md", "/data.json"),
            ("/A%20B", "/A%20B", "/A%20B.md", "/A%20B.json"),
        ];
        for (raw, web, resource, json) in cases {
            let page = PagePath::parse(raw).expect(raw);
            assert_eq!(page.web_path(), web, "{raw}");
            assert_eq!(page.resource_path(false), resource, "{raw}");
            assert_eq!(page.resource_path(true), json, "{raw}");
        }
    }

    #[test]
    fn preview_host_requests() {
        let media = "media_2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c.png";
        let cases = [
            ("/", "/", Variant::Html),
            ("/index", "/", Variant::Html),
            ("/index.md", "/", Variant::Markdown),
            ("/index.plain.html", "/", Variant::Plain),
            ("/a/b", "/a/b", Variant::Html),
            ("/a/b.md", "/a/b", Variant::Markdown),
            ("/a/b.plain.html", "/a/b", Variant::Plain),
            ("/a/", "/a/", Variant::Html),
            ("/a/index.plain.html", "/a/", Variant::Plain),
            ("/data.json", "/data.json", Variant::Html),
        ];
        for (raw, web, variant) in cases {
            assert_eq!(
                requested(raw),
                Ok(Requested::Page(PagePath::parse(web).expect(web), variant)),
                "{raw}"
            );
        }
        assert_eq!(
            requested(&format!("/{media}")),
            Ok(Requested::Media(media.into()))
        );
        assert_eq!(
            requested(&format!("/a/b/{media}")),
            Ok(Requested::Media(media.into()))
        );
        assert!(requested("/../x.md").is_err());
    }

    #[test]
    fn bad_configuration_is_an_error() {
        let page = PagePath::parse("/a").expect("page");
        assert!(matches!(
            fetch_url("ftp://x/y", None, &page),
            Err(UrlError::Source(_))
        ));
        assert!(matches!(
            fetch_url("not a url", None, &page),
            Err(UrlError::Source(_))
        ));
        assert!(matches!(
            fetch_url("https://x/y", Some("/../z"), &page),
            Err(UrlError::Suffix(_))
        ));
    }
}
