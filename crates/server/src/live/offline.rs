//! Offline: every outgoing request answered from the mocks. Requests to loopback (the
//! bundled worker and preview hosts, a local source) still go out: they never leave the
//! machine. A request no mock matches fails with the URL and the closest mocks, which the
//! preview's trace and error then show.

use std::sync::Arc;

use http::{HeaderMap, HeaderName, HeaderValue};

use crate::preview::transport::BoxFuture;
use crate::preview::{
    IncomingResponse, OutgoingRequest, ReqwestTransport, Transport, TransportError,
};
use siteops_mocks::{MockRequest, MockSet};

/// Where the current mocks come from (the live session swaps them on every reload).
pub type MockSource = Arc<dyn Fn() -> Arc<MockSet> + Send + Sync>;

pub struct OfflineTransport {
    mocks: MockSource,
    local: ReqwestTransport,
}

impl std::fmt::Debug for OfflineTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OfflineTransport")
    }
}

impl OfflineTransport {
    pub fn new(mocks: MockSource) -> OfflineTransport {
        OfflineTransport {
            mocks,
            local: ReqwestTransport::new(),
        }
    }

    /// Loopback requests go out through `local` (a transport under a stricter policy).
    pub fn with_local(mocks: MockSource, local: ReqwestTransport) -> OfflineTransport {
        OfflineTransport { mocks, local }
    }

    /// A transport answering from one fixed set (tests, the golden harness).
    pub fn fixed(mocks: MockSet) -> OfflineTransport {
        let mocks = Arc::new(mocks);
        OfflineTransport::new(Arc::new(move || mocks.clone()))
    }
}

/// Loopback hosts: `localhost`, `*.localhost` and loopback addresses.
pub fn is_local(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => {
            let name = name.to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

impl Transport for OfflineTransport {
    fn get(
        &self,
        request: OutgoingRequest,
    ) -> BoxFuture<'_, Result<IncomingResponse, TransportError>> {
        if is_local(&request.url) {
            return self.local.get(request);
        }
        let mocks = (self.mocks)();
        let answer = answer(&mocks, &request);
        Box::pin(async move { answer })
    }
}

fn answer(mocks: &MockSet, request: &OutgoingRequest) -> Result<IncomingResponse, TransportError> {
    let headers = request
        .headers
        .iter()
        .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_string())))
        .collect();
    let found = mocks
        .find(&MockRequest {
            method: "GET",
            url: &request.url,
            headers,
        })
        .map_err(|miss| TransportError::Network(format!("offline: {miss}")))?;
    let response = &found.response;
    if response.body.len() > request.limit {
        return Err(TransportError::TooLarge {
            limit: request.limit,
        });
    }
    let mut headers = HeaderMap::new();
    for (name, value) in &response.headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            headers.append(name, value);
        }
    }
    Ok(IncomingResponse {
        status: response.status,
        headers,
        body: response.body.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use siteops_mocks::MockFile;

    fn request(url: &str) -> OutgoingRequest {
        OutgoingRequest {
            url: url::Url::parse(url).expect("url"),
            headers: HeaderMap::new(),
            limit: 1024,
        }
    }

    #[tokio::test]
    async fn mocks_answer_and_misses_name_the_closest() {
        let mocks = MockSet::from_files(
            "mocks",
            &[MockFile {
                path: "mappings/a.json".into(),
                content: br#"{"name": "page", "request": {"url": "/a.html"}, "response": {"status": 200, "body": "<main></main>", "headers": {"Content-Type": "text/html"}}}"#.to_vec(),
            }],
        )
        .expect("mocks");
        let transport = OfflineTransport::fixed(mocks);
        let found = transport
            .get(request("https://cms.example/a.html"))
            .await
            .expect("answered");
        assert_eq!(found.status, 200);
        assert_eq!(found.body, b"<main></main>");
        assert_eq!(found.headers["content-type"], "text/html");
        let missed = transport
            .get(request("https://cms.example/b.html"))
            .await
            .expect_err("no mock");
        assert_eq!(
            missed,
            TransportError::Network(
                "offline: no mock matches GET https://cms.example/b.html; closest: `page` (mocks/mappings/a.json): url is /a.html;".into()
            )
        );
        let small = OutgoingRequest {
            limit: 4,
            ..request("https://cms.example/a.html")
        };
        assert_eq!(
            transport.get(small).await.expect_err("too large"),
            TransportError::TooLarge { limit: 4 }
        );
    }

    #[test]
    fn loopback_is_local() {
        for (url, local) in [
            ("http://127.0.0.1:3000/transform/a", true),
            ("http://main--web--acme.localhost:3000/", true),
            ("http://[::1]/", true),
            ("https://api.acme.example/x", false),
            ("https://localhost.example/x", false),
        ] {
            assert_eq!(
                is_local(&url::Url::parse(url).expect("url")),
                local,
                "{url}"
            );
        }
    }
}
