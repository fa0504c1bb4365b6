//! The image-host allow list of `x-html2md-img-src`: which image URLs may receive the
//! preview's `Authorization` header. Pure: a parser and a matcher.
//!
//! Tokens are separated by white space:
//! - `*`: every host;
//! - `self` (also `'self'`): the content source's host and port; always included;
//! - `host` or `host:port`: exactly that host;
//! - `*.domain` (or `*.domain:port`): any subdomain at any depth (`a.domain`,
//!   `a.b.domain`), never the bare `domain` (the interface's "any subdomain");
//! - a full URL (`https://cdn.example.com/x`): its host and port only.
//!
//! Hosts compare case-insensitively (IDNs in their ASCII form). Ports compare as a URL's
//! `host` does in a browser: a token without a port stands for the default port of the
//! image URL's scheme, so `cdn.example.com` allows `https://cdn.example.com/a.png` but not
//! `https://cdn.example.com:8443/a.png`. Tokens that are none of these are ignored and
//! reported.

use url::Url;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    Host { host: String, port: Option<u16> },
    Subdomains { domain: String, port: Option<u16> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowList {
    all: bool,
    entries: Vec<Entry>,
    /// Tokens that were not understood (and so allow nothing).
    pub ignored: Vec<String>,
}

impl AllowList {
    /// The list for a source fetched from `source` with the header value `header` (absent
    /// or empty: only `self`).
    pub fn parse(header: Option<&str>, source: &Url) -> AllowList {
        let mut list = AllowList {
            all: false,
            entries: Vec::new(),
            ignored: Vec::new(),
        };
        if let Some(host) = source.host_str() {
            list.entries.push(Entry::Host {
                host: host.to_ascii_lowercase(),
                port: source.port(),
            });
        }
        for token in header.unwrap_or("").split_whitespace() {
            match token {
                "*" => list.all = true,
                "self" | "'self'" => {}
                _ => match parse_token(token) {
                    Some(entry) => list.entries.push(entry),
                    None => list.ignored.push(token.to_string()),
                },
            }
        }
        list
    }

    /// Whether `url` may receive the `Authorization` header.
    pub(crate) fn permits(&self, url: &Url) -> bool {
        let Some(host) = url.host_str() else {
            return false;
        };
        if self.all {
            return true;
        }
        let host = host.to_ascii_lowercase();
        self.entries.iter().any(|entry| match entry {
            Entry::Host { host: h, port } => *h == host && *port == url.port(),
            Entry::Subdomains { domain, port } => {
                *port == url.port()
                    && host.len() > domain.len() + 1
                    && host.ends_with(domain.as_str())
                    && host.as_bytes()[host.len() - domain.len() - 1] == b'.'
            }
        })
    }
}

/// `host`, `host:port`, `*.domain[:port]` or a full URL.
fn parse_token(token: &str) -> Option<Entry> {
    if token.contains("://") {
        let url = Url::parse(token).ok()?;
        return Some(Entry::Host {
            host: url.host_str()?.to_ascii_lowercase(),
            port: url.port(),
        });
    }
    let (wildcard, rest) = match token.strip_prefix("*.") {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    if rest.is_empty() || rest.contains(['*', '/', '?', '#', '@']) {
        return None;
    }
    // Parsed as the host of an https URL, so a name is normalised (lower case, IDN) as a
    // URL's host is; a port equal to 443 counts as "no port", as in a browser.
    let url = Url::parse(&format!("https://{rest}")).ok()?;
    let host = url.host_str()?.to_ascii_lowercase();
    let port = url.port();
    Some(if wildcard {
        Entry::Subdomains { domain: host, port }
    } else {
        Entry::Host { host, port }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "https://cms.example.com:8443/delivery/page.html";

    /// (header, image URL, permitted)
    fn check(cases: &[(Option<&str>, &str, bool)]) {
        let source = Url::parse(SOURCE).expect("source");
        let failures: Vec<String> = cases
            .iter()
            .filter_map(|(header, image, expected)| {
                let list = AllowList::parse(*header, &source);
                let url = Url::parse(image).expect(image);
                (list.permits(&url) != *expected)
                    .then(|| format!("{header:?} {image}: expected {expected}"))
            })
            .collect();
        assert!(failures.is_empty(), "{failures:#?}");
    }

    #[test]
    fn self_is_the_source_host_and_port_and_always_included() {
        check(&[
            (None, "https://cms.example.com:8443/a.png", true),
            (Some(""), "https://cms.example.com:8443/a.png", true),
            (
                Some("cdn.example.com"),
                "https://cms.example.com:8443/a.png",
                true,
            ),
            (Some("self"), "https://cms.example.com:8443/a.png", true),
            (Some("'self'"), "https://CMS.Example.COM:8443/a.png", true),
            (None, "http://cms.example.com:8443/a.png", true),
            // Another port, the default port, another host: not self.
            (None, "https://cms.example.com/a.png", false),
            (None, "https://cms.example.com:9443/a.png", false),
            (None, "https://www.cms.example.com:8443/a.png", false),
            (None, "https://example.com:8443/a.png", false),
        ]);
    }

    #[test]
    fn wildcard_allows_every_host() {
        check(&[
            (Some("*"), "https://anything.test/a.png", true),
            (Some("self *"), "http://10.0.0.1:81/a.png", true),
            (Some("*.*"), "https://anything.test/a.png", false),
        ]);
    }

    #[test]
    fn exact_hosts() {
        check(&[
            (
                Some("cdn.example.com"),
                "https://cdn.example.com/a.png",
                true,
            ),
            (
                Some("cdn.example.com"),
                "http://cdn.example.com/a.png",
                true,
            ),
            (
                Some("CDN.Example.com"),
                "https://cdn.EXAMPLE.com/a.png",
                true,
            ),
            (
                Some("cdn.example.com"),
                "https://cdn.example.com:8443/a.png",
                false,
            ),
            (
                Some("cdn.example.com"),
                "https://a.cdn.example.com/a.png",
                false,
            ),
            (Some("cdn.example.com"), "https://example.com/a.png", false),
            (
                Some("cdn.example.com"),
                "https://cdn.example.com.evil.test/a.png",
                false,
            ),
            (
                Some("cdn.example.com:8443"),
                "https://cdn.example.com:8443/a.png",
                true,
            ),
            (
                Some("cdn.example.com:8443"),
                "https://cdn.example.com/a.png",
                false,
            ),
            (Some("a.test b.test"), "https://b.test/a.png", true),
            (Some("a.test\tb.test"), "https://b.test/a.png", true),
            (Some("127.0.0.1:9000"), "http://127.0.0.1:9000/a.png", true),
            (Some("127.0.0.1:9000"), "http://127.0.0.1:9001/a.png", false),
            (Some("[::1]:9000"), "http://[::1]:9000/a.png", true),
        ]);
    }

    #[test]
    fn subdomains_at_any_depth_but_not_the_bare_domain() {
        check(&[
            (Some("*.example.org"), "https://a.example.org/a.png", true),
            (Some("*.example.org"), "https://a.b.example.org/a.png", true),
            (Some("*.Example.ORG"), "https://A.example.org/a.png", true),
            (Some("*.example.org"), "https://example.org/a.png", false),
            (Some("*.example.org"), "https://badexample.org/a.png", false),
            (
                Some("*.example.org"),
                "https://a.example.org.evil.test/a.png",
                false,
            ),
            (
                Some("*.example.org"),
                "https://a.example.org:8443/a.png",
                false,
            ),
            (
                Some("*.example.org:8443"),
                "https://a.example.org:8443/a.png",
                true,
            ),
        ]);
    }

    #[test]
    fn full_urls_count_by_host() {
        check(&[
            (
                Some("https://img.example.net/some/path?q=1"),
                "https://img.example.net/other.png",
                true,
            ),
            (
                Some("https://img.example.net/"),
                "http://img.example.net/a.png",
                true,
            ),
            (
                Some("https://img.example.net/"),
                "https://x.img.example.net/a.png",
                false,
            ),
            (
                Some("https://img.example.net:444/"),
                "https://img.example.net:444/a.png",
                true,
            ),
            (
                Some("https://img.example.net:444/"),
                "https://img.example.net/a.png",
                false,
            ),
        ]);
    }

    #[test]
    fn unknown_tokens_allow_nothing_and_are_reported() {
        let source = Url::parse(SOURCE).expect("source");
        let list = AllowList::parse(Some("*.  a/b  cdn.test  x*y  https://"), &source);
        assert_eq!(list.ignored, vec!["*.", "a/b", "x*y", "https://"]);
        assert!(list.permits(&Url::parse("https://cdn.test/a.png").expect("url")));
        assert!(!list.permits(&Url::parse("https://a/b").expect("url")));
    }
}
