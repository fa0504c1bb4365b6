//! The configuration's response headers for a path (`set-custom-response-headers.js`):
//! hop-by-hop headers are never set, `link` only on an extensionless page, and
//! `access-control-allow-origin` may list origins or `/patterns/` to match the request's
//! `Origin` against.

use regex::RegexBuilder;

use crate::modifiers::Modifiers;
use crate::response::Response;

/// Headers a site may not set: they belong to the connection.
const HOP_BY_HOP: [&str; 7] = [
    "connection",
    "keep-alive",
    "public",
    "proxy-authenticate",
    "content-encoding",
    "transfer-encoding",
    "upgrade",
];

/// The longest header value kept, in characters (the reference's 64 KiB).
const MAX_VALUE_CHARS: usize = 64 * 1024;
/// The largest compiled origin pattern: a site's pattern cannot cost more memory than this.
const ORIGIN_PATTERN_SIZE_LIMIT: usize = 1 << 16;

/// `set-custom-response-headers`' own `cleanupHeaderValue`: only tab and the Latin-1
/// printable characters stay, cut at 64 Ki UTF-16 units.
pub fn cleanup_header_value(value: &str) -> String {
    crate::pipe_support::clean_header_value(value, MAX_VALUE_CHARS)
}

/// `getACAOriginValue`: a single plain value as it is; else the request's origin (or `*`
/// without one) when an entry equals it or a `/pattern/` entry matches it, else nothing.
fn allow_origin(value: &str, origin: Option<&str>) -> String {
    let origin = origin.filter(|o| !o.is_empty()).unwrap_or("*");
    let values: Vec<&str> = value.split(',').map(str::trim).collect();
    if values.len() == 1 && !values[0].starts_with('/') {
        return values[0].to_owned();
    }
    for v in values {
        if v.len() >= 2 && v.starts_with('/') && v.ends_with('/') {
            // A JavaScript pattern, read as the linear-time `regex` crate reads it; one
            // that does not compile matches nothing (the reference would fail the answer).
            let matched = RegexBuilder::new(&v[1..v.len() - 1])
                .size_limit(ORIGIN_PATTERN_SIZE_LIMIT)
                .build()
                .is_ok_and(|re| re.is_match(origin));
            if matched {
                return origin.to_owned();
            }
        }
        if v == origin {
            return origin.to_owned();
        }
    }
    String::new()
}

/// Sets `headers`' values for `path` on `response`. `page` says whether the answer is an
/// extensionless page (html, no selector): only such an answer takes `link`.
pub fn set_custom_headers(
    response: &mut Response,
    headers: &Modifiers,
    path: &str,
    page: bool,
    origin: Option<&str>,
) {
    for (name, value) in headers.get(path) {
        if HOP_BY_HOP.contains(&name.as_str()) || (name == "link" && !page) {
            continue;
        }
        let mut value = cleanup_header_value(&value);
        if name == "access-control-allow-origin" {
            value = allow_origin(&value, origin);
        }
        if !value.is_empty() {
            response.set_header(&name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::KeyValue;

    fn headers(rows: &[(&str, &str)]) -> Modifiers {
        let rows = rows
            .iter()
            .map(|(k, v)| KeyValue {
                key: (*k).into(),
                value: (*v).into(),
            })
            .collect();
        Modifiers::new(&vec![("/**".to_owned(), rows)])
    }

    #[test]
    fn hop_by_hop_and_link() {
        let mods = headers(&[
            ("Connection", "close"),
            ("Link", "</a.js>; rel=preload"),
            ("X-Thing", "a\u{1}b\u{100}c"),
        ]);
        let mut page = Response::new(200);
        set_custom_headers(&mut page, &mods, "/a", true, None);
        assert_eq!(
            page.headers,
            [
                ("link".to_owned(), "</a.js>; rel=preload".to_owned()),
                ("x-thing".to_owned(), "abc".to_owned())
            ]
        );
        let mut plain = Response::new(200);
        set_custom_headers(&mut plain, &mods, "/a.plain.html", false, None);
        assert_eq!(plain.header("link"), None);
    }

    #[test]
    fn allowed_origins() {
        assert_eq!(allow_origin("*", Some("https://a.com")), "*");
        assert_eq!(
            allow_origin("https://a.com, https://b.com", Some("https://b.com")),
            "https://b.com"
        );
        assert_eq!(
            allow_origin("https://a.com, https://b.com", Some("https://c.com")),
            ""
        );
        assert_eq!(
            allow_origin("/https://.*\\.a\\.com/", Some("https://x.a.com")),
            "https://x.a.com"
        );
        assert_eq!(allow_origin("/https://.*\\.a\\.com/", None), "");
        assert_eq!(allow_origin("/(/", Some("https://x.a.com")), "");
        assert_eq!(allow_origin("https://a.com, *", None), "*");
    }

    #[test]
    fn values_are_cut() {
        assert_eq!(
            cleanup_header_value(&"a".repeat(70_000)).len(),
            MAX_VALUE_CHARS
        );
    }
}
