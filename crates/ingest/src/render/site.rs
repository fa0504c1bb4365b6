//! Where the page is delivered, as the pipeline's state knows it: the page's path
//! (`state.info.path`), the origin absolute URLs are made on (`cdn.prod.host`, else the
//! request's own), and the site's preview and live hosts, whose links are made relative.
//! The steps that make or rewrite URLs (`rewrite-urls`, `extract-metadata`,
//! `extract-section-metadata`) take one [`Site`], so that they agree on all three.

use url::Url;

use super::PageDelivery;

/// The page's place: see the module's documentation.
pub(crate) struct Site<'a> {
    /// `state.info.path`: the path the page was rendered for.
    pub path: &'a str,
    /// `${getOrigin(state.prodHost)}${state.info.path}`, the base of `getAbsoluteUrl`;
    /// `None` when it does not parse (a configured host that is not one), where the
    /// reference throws and its callers keep the URL they had.
    base: Option<Url>,
    preview_host: Option<&'a str>,
    live_host: Option<&'a str>,
}

impl<'a> Site<'a> {
    /// The site of a page requested at `url`, with what the delivery knows.
    pub(crate) fn new(url: &'a Url, delivery: &'a PageDelivery) -> Site<'a> {
        let path = delivery
            .path
            .as_deref()
            .filter(|p| !p.is_empty())
            .unwrap_or(url.path());
        let base = match delivery.prod_host.as_deref().filter(|h| !h.is_empty()) {
            Some(host) => Url::parse(&format!("{}{path}", origin_of(host))).ok(),
            // Without a configured host the pipeline takes the request's `Host`; the URL
            // given is that request's.
            None => {
                let mut base = url.clone();
                base.set_path(path);
                base.set_query(None);
                base.set_fragment(None);
                Some(base)
            }
        };
        let non_empty = |h: &'a Option<String>| h.as_deref().filter(|h| !h.is_empty());
        Site {
            path,
            base,
            preview_host: non_empty(&delivery.preview_host),
            live_host: non_empty(&delivery.live_host),
        }
    }

    /// `getAbsoluteUrl`: `url` resolved on the production origin and the page's path.
    pub(crate) fn absolute(&self, url: &str) -> String {
        match self.base.as_ref().map(|b| b.join(url)) {
            Some(Ok(absolute)) => absolute.to_string(),
            _ => url.to_owned(),
        }
    }

    /// Whether `host` (with its port, as `URL.host`) is the site's preview or live host.
    pub(crate) fn is_own_host(&self, host: &str) -> bool {
        Some(host) == self.preview_host || Some(host) == self.live_host
    }
}

/// `getOrigin`: `http` for a loopback host (with or without a port), else `https`.
fn origin_of(host: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(path: Option<&str>, prod: Option<&str>) -> PageDelivery {
        PageDelivery {
            path: path.map(str::to_owned),
            prod_host: prod.map(str::to_owned),
            preview_host: Some("preview.example".into()),
            live_host: Some("live.example:8443".into()),
            ..PageDelivery::default()
        }
    }

    #[test]
    fn absolute_urls_are_on_the_prod_host_and_the_page_path() {
        let url = Url::parse("http://main--site--org.localhost:3000/a/b?x=1").unwrap();
        let d = delivery(None, None);
        let site = Site::new(&url, &d);
        assert_eq!(site.path, "/a/b");
        assert_eq!(
            site.absolute("./c.png"),
            "http://main--site--org.localhost:3000/a/c.png"
        );
        let d = delivery(Some("/mapped/page"), Some("www.example.com"));
        let site = Site::new(&url, &d);
        assert_eq!(site.path, "/mapped/page");
        assert_eq!(site.absolute("x"), "https://www.example.com/mapped/x");
        assert_eq!(site.absolute("/a/b"), "https://www.example.com/a/b");
        assert_eq!(site.absolute("https://o.example/y"), "https://o.example/y");
    }

    #[test]
    fn loopback_prod_hosts_are_http() {
        assert_eq!(origin_of("localhost:3000"), "http://localhost:3000");
        assert_eq!(origin_of("127.0.0.1"), "http://127.0.0.1");
        assert_eq!(origin_of("localhost.example"), "https://localhost.example");
    }

    #[test]
    fn an_unusable_prod_host_leaves_urls_as_they_are() {
        let url = Url::parse("https://h.example/p").unwrap();
        let d = delivery(None, Some("bad host"));
        assert_eq!(Site::new(&url, &d).absolute("/x"), "/x");
    }

    #[test]
    fn own_hosts_are_compared_with_their_ports() {
        let url = Url::parse("https://h.example/p").unwrap();
        let d = delivery(None, None);
        let site = Site::new(&url, &d);
        assert!(site.is_own_host("preview.example"));
        assert!(site.is_own_host("live.example:8443"));
        assert!(!site.is_own_host("live.example"));
    }
}
