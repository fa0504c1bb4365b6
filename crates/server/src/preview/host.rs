//! The preview host names, `<branch>--<site>--<org>.localhost[:port]`: the site each
//! addresses, and the one way such a name is written. The hosts' routes are the server's.

use axum::http::{HeaderMap, header};

use crate::sites::is_name;

/// The site a preview host name addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewHost {
    pub branch: String,
    pub site: String,
    pub org: String,
}

impl PreviewHost {
    /// Parses `Host: <branch>--<site>--<org>.localhost[:port]`.
    pub fn of(headers: &HeaderMap) -> Option<PreviewHost> {
        PreviewHost::parse(headers.get(header::HOST)?.to_str().ok()?)
    }

    /// Parses a host name `<branch>--<site>--<org>.localhost[:port]`.
    pub fn parse(host: &str) -> Option<PreviewHost> {
        let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
        let label = name
            .to_ascii_lowercase()
            .strip_suffix(".localhost")?
            .to_string();
        let parts: Vec<&str> = label.split("--").collect();
        let [branch, site, org] = parts[..] else {
            return None;
        };
        [branch, site, org]
            .iter()
            .all(|p| is_name(p))
            .then(|| PreviewHost {
                branch: branch.to_string(),
                site: site.to_string(),
                org: org.to_string(),
            })
    }
}

impl PreviewHost {
    /// The host's origin, as links to it are written: `http://<branch>--<site>--<org>.localhost`,
    /// with `:<port>` when there is one.
    pub fn origin(&self, port: Option<u16>) -> String {
        let PreviewHost { branch, site, org } = self;
        match port {
            Some(port) => format!("http://{branch}--{site}--{org}.localhost:{port}"),
            None => format!("http://{branch}--{site}--{org}.localhost"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn host(value: &str) -> Option<PreviewHost> {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_str(value).expect("header"));
        PreviewHost::of(&headers)
    }

    #[test]
    fn preview_host_names() {
        assert_eq!(
            host("main--website--acme.localhost:3000"),
            Some(PreviewHost {
                branch: "main".into(),
                site: "website".into(),
                org: "acme".into()
            })
        );
        assert!(host("Main--Website--Acme.LOCALHOST").is_some());
        assert_eq!(host("127.0.0.1:3000"), None);
        assert_eq!(host("localhost"), None);
        assert_eq!(host("main--website.localhost"), None);
        assert_eq!(host("a--b--c--d.localhost"), None);
        assert_eq!(host("main--web_site--acme.localhost"), None);
        let long = "a".repeat(251);
        assert_eq!(host(&format!("main--{long}--acme.localhost")), None);
    }

    #[test]
    fn an_origin_is_written_one_way() {
        let host = PreviewHost {
            branch: "main".into(),
            site: "web".into(),
            org: "acme".into(),
        };
        assert_eq!(
            host.origin(Some(3000)),
            "http://main--web--acme.localhost:3000"
        );
        assert_eq!(host.origin(None), "http://main--web--acme.localhost");
        let mut headers = HeaderMap::new();
        headers.insert(
            header::HOST,
            HeaderValue::from_str(&host.origin(Some(3000))["http://".len()..]).expect("header"),
        );
        assert_eq!(PreviewHost::of(&headers), Some(host));
    }
}
