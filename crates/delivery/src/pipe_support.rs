//! What the JSON, robots and sitemap pipes share with the reference's steps: the hosts
//! (`init-config`: the production, preview and live hosts and `getOrigin`), the custom
//! response headers (`set-custom-response-headers`), the `last-modified` header
//! (`utils/last-modified`), header-value cleanup, and the JavaScript conversions those
//! steps rely on (`parseInt`, lodash's `escape`).

use crate::config::PipelineConfig;
use crate::dates;
use crate::response::{DeliveryRequest, Response};

/// The hosts a pipe writes into its answers (`state.prodHost`, `previewHost`, `liveHost`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hosts {
    /// `cdn.prod.host`, else the first `X-Forwarded-Host`, else the request's host.
    pub(crate) prod: String,
    /// `cdn.preview.host` with `$owner`, `$repo`… replaced; empty when unset.
    pub(crate) preview: String,
    /// `cdn.live.host`, alike.
    pub(crate) live: String,
}

impl Hosts {
    pub(crate) fn new(config: &PipelineConfig, request: &DeliveryRequest) -> Hosts {
        let cdn = config.cdn.as_ref();
        let host_of = |host: Option<&crate::config::CdnHost>| {
            replace_params(host.and_then(|h| h.host.as_deref()), config)
        };
        let configured_prod = cdn
            .and_then(|c| c.prod.as_ref())
            .and_then(|p| p.host.clone())
            .filter(|h| !h.is_empty());
        Hosts {
            prod: configured_prod
                .or_else(|| first_forwarded_host(request).map(str::to_owned))
                .unwrap_or_else(|| request_host(request)),
            preview: host_of(cdn.and_then(|c| c.preview.as_ref())),
            live: host_of(cdn.and_then(|c| c.live.as_ref())),
        }
    }

    /// The host the sitemaps name: the preview host on preview, else the production
    /// host, the live host, or the site's default `<ref>--<repo>--<owner>` host.
    pub(crate) fn sitemap_host(
        &self,
        config: &PipelineConfig,
        request: &DeliveryRequest,
    ) -> String {
        let default = |domain: &str| match (&config.r#ref, &config.repo, &config.owner) {
            (Some(r), Some(repo), Some(owner)) => format!("{r}--{repo}--{owner}.{domain}"),
            // The reference always knows the site's names; a caller that gave none gets
            // the request's own host, the nearest thing to a site's default host.
            _ => request_host(request),
        };
        match request.partition {
            crate::Partition::Preview if !self.preview.is_empty() => self.preview.clone(),
            crate::Partition::Preview => default("aem.page"),
            crate::Partition::Live if !self.prod.is_empty() => self.prod.clone(),
            crate::Partition::Live if !self.live.is_empty() => self.live.clone(),
            crate::Partition::Live => default("aem.live"),
        }
    }
}

/// `init-config`'s `replaceParams`: a configured host with the site's names put in.
fn replace_params(host: Option<&str>, config: &PipelineConfig) -> String {
    let Some(host) = host else {
        return String::new();
    };
    let name = |v: &Option<String>| v.clone().unwrap_or_default();
    host.replace("$owner", &name(&config.owner))
        .replace("$org", &name(&config.org))
        .replace("$site", &name(&config.site))
        .replace("$repo", &name(&config.repo))
        .replace("$ref", &name(&config.r#ref))
}

/// The request's `Host` header: its URL's host, with a port when one was given.
pub(crate) fn request_host(request: &DeliveryRequest) -> String {
    let host = request.url.host_str().unwrap_or_default();
    match request.url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    }
}

/// The hosts in `X-Forwarded-Host`, trimmed, empty ones dropped.
pub(crate) fn forwarded_hosts(request: &DeliveryRequest) -> impl Iterator<Item = &str> {
    request
        .forwarded_host
        .as_deref()
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|h| !h.is_empty())
}

fn first_forwarded_host(request: &DeliveryRequest) -> Option<&str> {
    forwarded_hosts(request).next()
}

/// `getOrigin`: `http` for a bare `localhost` or `127.0.0.1`, else `https`.
pub(crate) fn origin(host: &str) -> String {
    let name = match host.rsplit_once(':') {
        Some((name, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    let scheme = if name == "localhost" || name == "127.0.0.1" {
        "http"
    } else {
        "https"
    };
    format!("{scheme}://{host}")
}

/// The `last-modified` candidates of an answer (`res.lastModifiedSources`): the latest
/// valid one wins.
#[derive(Debug, Default)]
pub(crate) struct LastModified {
    /// (source, time) in the order the sources were first recorded.
    sources: Vec<(&'static str, i64)>,
}

impl LastModified {
    /// `recordLastModified`: an invalid or missing date is ignored.
    pub(crate) fn record(&mut self, source: &'static str, date: Option<&str>) {
        let Some(time) = date.filter(|d| !d.is_empty()).and_then(dates::parse) else {
            return;
        };
        match self.sources.iter_mut().find(|(s, _)| *s == source) {
            Some(entry) => entry.1 = time,
            None => self.sources.push((source, time)),
        }
    }

    /// `setLastModified`: the latest time after the epoch, as `toUTCString()` writes it.
    pub(crate) fn apply(&self, response: &mut Response) {
        let mut latest = 0;
        for &(_, time) in &self.sources {
            if time > latest {
                latest = time;
                response.set_header("last-modified", dates::to_utc_string(time));
            }
        }
    }
}

/// `cleanupHeaderValue` of helix-shared-utils (the `x-error` header): characters a header
/// cannot hold dropped, 1,024 characters at most.
pub(crate) fn error_header_value(message: &str) -> String {
    clean_header_value(message, 1024)
}

/// `cleanupHeaderValue`: only tab and the Latin-1 printable characters stay (each one
/// UTF-16 unit, as the reference counts), `max` of them at most.
pub(crate) fn clean_header_value(value: &str, max: usize) -> String {
    value
        .chars()
        .filter(|&c| {
            c == '\t' || ('\u{20}'..='\u{7e}').contains(&c) || ('\u{80}'..='\u{ff}').contains(&c)
        })
        .take(max)
        .collect()
}

/// Sets `x-error` to `message`, cleaned.
pub(crate) fn set_error(response: &mut Response, message: &str) {
    response.set_header("x-error", error_header_value(message));
}

/// `set-custom-response-headers` for the pipes other than the html one: the configured
/// headers whose glob matches `path` (`link` is the html pipe's alone).
pub(crate) fn set_custom_headers(
    config: &PipelineConfig,
    request: &DeliveryRequest,
    path: &str,
    response: &mut Response,
) {
    crate::custom_headers::set_custom_headers(
        response,
        &crate::modifiers::Modifiers::new(&config.headers),
        path,
        false,
        request.origin.as_deref(),
    );
}

/// `Number.parseInt(text, 10)`: leading whitespace, a sign, then the decimal digits there
/// are; `NaN` when there are none.
pub(crate) fn parse_int(text: &str) -> f64 {
    let text = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let end = rest.bytes().take_while(u8::is_ascii_digit).count();
    if end == 0 {
        return f64::NAN;
    }
    // Parsing the digit run as a whole rounds as the specification asks.
    let magnitude: f64 = rest[..end].parse().unwrap_or(f64::NAN);
    if negative { -magnitude } else { magnitude }
}

/// lodash's `escape`: `&`, `<`, `>`, `"` and `'` as entities.
pub(crate) fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use url::Url;

    use super::*;
    use crate::Partition;

    pub(crate) fn request(url: &str) -> DeliveryRequest {
        DeliveryRequest {
            url: Url::parse(url).unwrap(),
            partition: Partition::Live,
            origin: None,
            forwarded_host: None,
            nonce: String::new(),
        }
    }

    #[test]
    fn parse_int_reads_as_javascript_does() {
        // node -e 'console.log(Number.parseInt(s, 10))'
        for (text, expected) in [
            ("10", 10.0),
            (" 12abc", 12.0),
            ("-5", -5.0),
            ("+7", 7.0),
            ("0x10", 0.0),
            ("1e3", 1.0),
            ("99999999999999999999", 1e20),
        ] {
            assert_eq!(parse_int(text), expected, "{text}");
        }
        assert!(parse_int("abc").is_nan());
        assert!(parse_int("-").is_nan());
        assert!(parse_int("").is_nan());
    }

    #[test]
    fn the_production_host_comes_from_the_configuration_else_the_request() {
        let config = PipelineConfig::from_json(
            r#"{"owner":"o","repo":"r","ref":"main",
                "cdn":{"preview":{"host":"$ref--$repo--$owner.my.page"}}}"#,
        )
        .unwrap();
        let mut req = request("http://localhost:3000/robots.txt");
        let hosts = Hosts::new(&config, &req);
        assert_eq!(hosts.prod, "localhost:3000");
        assert_eq!(hosts.preview, "main--r--o.my.page");
        assert_eq!(origin(&hosts.prod), "http://localhost:3000");
        req.forwarded_host = Some(" , www.site.com, other".into());
        assert_eq!(Hosts::new(&config, &req).prod, "www.site.com");
        assert_eq!(origin("www.site.com"), "https://www.site.com");
        req.partition = Partition::Preview;
        assert_eq!(
            Hosts::new(&config, &req).sitemap_host(&config, &req),
            "main--r--o.my.page"
        );
    }

    #[test]
    fn custom_headers_follow_globs_in_order() {
        let config = PipelineConfig::from_json(
            r#"{"headers":{
                "/**":[{"key":"X-Frame","value":"deny"},{"key":"Connection","value":"x"}],
                "/data/*.json":[{"key":"Cache Control","value":"max-age=1\u0001"},
                                {"key":"access-control-allow-origin","value":"https://a.com, /https://.*\\.b\\.com/"}],
                "/other.json":[{"key":"x-other","value":"1"}],
                "/data/**":[{"key":"x-frame","value":"sameorigin"},{"key":"link","value":"</a>"}]}}"#,
        )
        .unwrap();
        let mut req = request("https://h/data/x.json");
        req.origin = Some("https://www.b.com".into());
        let mut response = Response::new(200);
        set_custom_headers(&config, &req, "/data/x.json", &mut response);
        assert_eq!(
            response.headers,
            [
                ("x-frame".to_owned(), "sameorigin".to_owned()),
                ("cache-control".to_owned(), "max-age=1".to_owned()),
                (
                    "access-control-allow-origin".to_owned(),
                    "https://www.b.com".to_owned()
                ),
            ]
        );
        req.origin = Some("https://evil.com".into());
        let mut response = Response::new(200);
        set_custom_headers(&config, &req, "/data/x.json", &mut response);
        assert_eq!(response.header("access-control-allow-origin"), None);
    }

    #[test]
    fn the_latest_valid_date_is_last_modified() {
        let mut dates = LastModified::default();
        dates.record("config", Some("Fri, 30 Apr 2021 03:47:18 GMT"));
        dates.record("content", Some("not a date"));
        dates.record("content", Some("2022-01-01T00:00:00Z"));
        let mut response = Response::new(200);
        dates.apply(&mut response);
        assert_eq!(
            response.header("last-modified"),
            Some("Sat, 01 Jan 2022 00:00:00 GMT")
        );
    }

    #[test]
    fn escapes_as_lodash() {
        assert_eq!(
            escape_xml(r#"/a&b<c>"d"'e'"#),
            "/a&amp;b&lt;c&gt;&quot;d&quot;&#39;e&#39;"
        );
    }
}

/// Buses held in memory, and the cases answered by the reference, for the pipes' tests.
#[cfg(test)]
pub(crate) mod memory;
