//! `robots-pipe`: `/robots.txt` as the platform's `robots-pipe.js` answers it.
//!
//! On the preview partition, and wherever every `X-Forwarded-Host` is one of the
//! platform's own domains (`*.aem.page`, `*.aem.live`…; no `X-Forwarded-Host` at all
//! counts as that too), the answer is the default that keeps search engines away, so a
//! site is never indexed twice. Otherwise it is the configuration's `robots.txt`, else
//! one that allows everything and names the production host's sitemap.
//!
//! The reference never reads a `robots.txt` from the code bus, so neither does this.
//! Not ported: `x-surrogate-key`.

use crate::bus::Buses;
use crate::config::PipelineConfig;
use crate::pipe_support::{Hosts, forwarded_hosts, origin, set_custom_headers, set_error};
use crate::response::{DeliveryRequest, Partition, Response};

/// The answer on the platform's own hosts, word for word (its trailing space included).
pub const DEFAULT_ROBOTS: &str = "# AEM robots.txt FAQ
#
# Q: This looks like a default robots.txt, how can I provide my own?
# A: Add the contents of your robots.txt to your site configuration,
#    see: https://tools.aem.live/tools/robots-edit/index.html
#
# Q: Why am I seeing this robots.txt instead of the one I
#    configured?
# A: You are visiting from *.aem.page or *.aem.live - in order
#    to prevent these sites from showing up in search engines and
#    giving you a duplicate content penalty on your real site we
#    exclude all robots
#
# Q: But this is a production site, shouldn't I see a different 
#    robots.txt?
# A: Make sure that your production host is setup correctly, 
#    see: https://tools.aem.live/tools/cdn-setup/index.html and your 
#    CDN setup, specifically the x-forwarded-host header, is correct, 
#    see: https://www.aem.live/docs/byo-cdn-setup 
#
# Q: This does not answer my questions at all. What can I do?
# A: Head to your Teams or Slack channel, or ask us on Discord:
#    https://discord.gg/aem-live
#
User-agent: *
Disallow: /
";

/// The platform's domains, on its inner and outer CDNs: a host ending in one is its own.
const INTERNAL_DOMAINS: [&str; 14] = [
    ".aem.page",
    ".aem-fastly.page",
    ".aem-cloudflare.page",
    ".aem-gcp.page",
    ".aem.live",
    ".aem-fastly.live",
    ".aem-cloudflare.live",
    ".aem-gcp.live",
    ".hlx.page",
    ".hlx-fastly.page",
    ".hlx-cloudflare.page",
    ".hlx.live",
    ".hlx-fastly.live",
    ".hlx-cloudflare.live",
];

/// Hosts on those domains that are production sites.
const EXCLUDED_HOSTS: [&str; 1] = ["www.aem.live"];

const TEXT: &str = "text/plain; charset=utf-8";

/// `robots-pipe`: `/robots.txt` from `robots.txt` of the configuration, else generated.
pub async fn robots_pipe(
    request: &DeliveryRequest,
    config: &PipelineConfig,
    _buses: &impl Buses,
) -> Response {
    let path = request.url.path();
    if path != "/robots.txt" {
        // The caller routed something else here: the reference's 500.
        let mut response = Response::new(500);
        set_error(&mut response, "invalid route");
        return response;
    }
    let mut response = Response::new(200);
    response.set_header("content-type", TEXT);
    if request.partition == Partition::Preview || forwarded_hosts(request).all(is_internal) {
        response.body = DEFAULT_ROBOTS.as_bytes().to_vec();
        response.set_header("vary", "x-forwarded-host");
        return response;
    }
    let txt = config
        .robots
        .as_ref()
        .and_then(|r| r.txt.clone())
        .filter(|t| !t.is_empty());
    let body = txt.unwrap_or_else(|| {
        let prod = Hosts::new(config, request).prod;
        format!(
            "User-Agent: *\nAllow: /\n\nSitemap: {}/sitemap.xml\n",
            origin(&prod)
        )
    });
    response.body = body.into_bytes();
    response.set_header("vary", "x-forwarded-host");
    set_custom_headers(config, request, path, &mut response);
    response
}

fn is_internal(host: &str) -> bool {
    !EXCLUDED_HOSTS.contains(&host) && INTERNAL_DOMAINS.iter().any(|d| host.ends_with(d))
}

#[cfg(test)]
mod tests {
    use futures_executor::block_on;
    use url::Url;

    use super::*;
    use crate::bus::{Bus, Fetched};

    struct NoBuses;

    impl Buses for NoBuses {
        async fn get(&self, _bus: Bus, _path: &str) -> Fetched {
            Fetched::NotFound
        }
    }

    fn robots(url: &str, partition: Partition, xfh: Option<&str>, config: &str) -> Response {
        let request = DeliveryRequest {
            url: Url::parse(url).unwrap(),
            partition,
            origin: None,
            forwarded_host: xfh.map(str::to_owned),
            nonce: String::new(),
        };
        let config = PipelineConfig::from_json(config).unwrap();
        block_on(robots_pipe(&request, &config, &NoBuses))
    }

    fn headers(response: &Response) -> Vec<(&str, &str)> {
        response
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect()
    }

    const CONFIGURED: &str = r#"{"robots":{"txt":"User-agent: *\nAllow: /\n"},
        "headers":{"/**":[{"key":"x-robots","value":"yes"}]}}"#;

    #[test]
    fn preview_and_the_platforms_hosts_keep_robots_away() {
        // Each as the reference answers (node, robotsPipe).
        for (partition, xfh) in [
            (Partition::Preview, Some("www.site.com")),
            (Partition::Live, None),
            (
                Partition::Live,
                Some("main--site--org.aem.live, main--site--org.hlx-fastly.page"),
            ),
        ] {
            let response = robots(
                "https://www.site.com/robots.txt",
                partition,
                xfh,
                CONFIGURED,
            );
            assert_eq!(response.status, 200);
            assert_eq!(
                headers(&response),
                [("content-type", TEXT), ("vary", "x-forwarded-host")]
            );
            assert_eq!(
                response.body,
                DEFAULT_ROBOTS.as_bytes(),
                "{partition:?} {xfh:?}"
            );
        }
    }

    #[test]
    fn a_production_host_gets_the_configured_robots_txt() {
        for xfh in [
            "www.site.com",
            "www.aem.live",
            "main--site--org.aem.live, www.site.com",
        ] {
            let response = robots(
                "https://x.aem.live/robots.txt",
                Partition::Live,
                Some(xfh),
                CONFIGURED,
            );
            assert_eq!(response.body, b"User-agent: *\nAllow: /\n", "{xfh}");
            assert_eq!(
                headers(&response),
                [
                    ("content-type", TEXT),
                    ("vary", "x-forwarded-host"),
                    ("x-robots", "yes")
                ]
            );
        }
    }

    #[test]
    fn without_one_it_names_the_production_sitemap() {
        let response = robots(
            "https://x.aem.live/robots.txt",
            Partition::Live,
            Some("www.site.com"),
            "{}",
        );
        assert_eq!(
            String::from_utf8(response.body).unwrap(),
            "User-Agent: *\nAllow: /\n\nSitemap: https://www.site.com/sitemap.xml\n"
        );
        let response = robots(
            "https://x.aem.live/robots.txt",
            Partition::Live,
            Some("www.site.com"),
            r#"{"cdn":{"prod":{"host":"prod.site.com"}}}"#,
        );
        assert!(
            String::from_utf8(response.body)
                .unwrap()
                .ends_with("Sitemap: https://prod.site.com/sitemap.xml\n")
        );
    }

    #[test]
    fn answers_as_the_reference_answers() {
        // Each case's request and what `robotsPipe` of helix-html-pipeline 6.32.3 answered.
        crate::pipe_support::memory::check_cases(
            include_str!("robots/reference_cases.json"),
            |r, c, b| block_on(robots_pipe(r, c, b)),
        );
    }

    #[test]
    fn other_paths_are_the_callers_mistake() {
        let response = robots("https://h/robots.txt.bak", Partition::Live, None, "{}");
        assert_eq!(response.status, 500);
        assert_eq!(headers(&response), [("x-error", "invalid route")]);
    }
}
