//! Offline: every outgoing request answered from the mocks. Requests to loopback (the
//! bundled worker and preview hosts, a local source) still go out: they never leave the
//! machine. A request no mock matches fails with the URL and the closest mocks, which the
//! preview's trace and error then show.
//!
//! As in WireMock: a stub's `fixedDelayMilliseconds` delays its answer (the preview's own
//! time-outs apply), a `fault` fails the request as a broken connection would, and
//! scenarios move on as their stubs answer, from their start whenever the mocks change.

use std::sync::{Arc, Mutex};

use http::{HeaderMap, HeaderName, HeaderValue};

use siteops_mocks::{MockRequest, MockSet, Scenarios};
use siteops_server::preview::transport::BoxFuture;
use siteops_server::preview::{
    IncomingResponse, OutgoingRequest, ReqwestTransport, Transport, TransportError,
};

/// Where the current mocks come from (the live session swaps them on every reload).
pub type MockSource = Arc<dyn Fn() -> Arc<MockSet> + Send + Sync>;

pub struct OfflineTransport {
    mocks: MockSource,
    local: ReqwestTransport,
    /// The scenarios' states, for the set they belong to (a new set starts them afresh).
    scenarios: Mutex<Option<(Arc<MockSet>, Scenarios)>>,
}

impl std::fmt::Debug for OfflineTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OfflineTransport")
    }
}

impl OfflineTransport {
    pub fn new(mocks: MockSource) -> OfflineTransport {
        OfflineTransport::with_local(mocks, ReqwestTransport::new())
    }

    /// Loopback requests go out through `local` (a transport under a stricter policy).
    pub fn with_local(mocks: MockSource, local: ReqwestTransport) -> OfflineTransport {
        OfflineTransport {
            mocks,
            local,
            scenarios: Mutex::default(),
        }
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
        let (answer, delay) = {
            let mut scenarios = self.scenarios.lock().unwrap_or_else(|p| p.into_inner());
            let states = match &mut *scenarios {
                Some((set, states)) if Arc::ptr_eq(set, &mocks) => states,
                other => &mut other.insert((mocks.clone(), Scenarios::default())).1,
            };
            answer(&mocks, &request, states)
        };
        Box::pin(async move {
            if let Some(delay) = delay {
                tokio::time::sleep(delay).await;
            }
            answer
        })
    }
}

/// The answer to `request`, and how long the stub waits before giving it.
fn answer(
    mocks: &MockSet,
    request: &OutgoingRequest,
    scenarios: &mut Scenarios,
) -> (
    Result<IncomingResponse, TransportError>,
    Option<std::time::Duration>,
) {
    let headers = request
        .headers
        .iter()
        .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_string())))
        .collect();
    let found = mocks.answer(
        &MockRequest {
            method: "GET",
            url: &request.url,
            headers,
            body: &[],
        },
        scenarios,
    );
    match found {
        Ok(stub) => (response(stub, request), stub.response.delay),
        Err(miss) => (
            Err(TransportError::Network(format!("offline: {miss}"))),
            None,
        ),
    }
}

fn response(
    stub: &siteops_mocks::Stub,
    request: &OutgoingRequest,
) -> Result<IncomingResponse, TransportError> {
    if let Some(fault) = stub.response.fault {
        return Err(TransportError::Network(format!(
            "offline: the mock `{}` ({}) answers with the fault {}",
            stub.name,
            stub.file,
            fault.name()
        )));
    }
    let response = &stub.response;
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

    #[tokio::test]
    async fn faults_delays_and_scenarios_as_in_wiremock() {
        let stubs = r#"{"mappings": [
            {"name": "reset", "request": {"urlPath": "/reset"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}},
            {"name": "slow", "request": {"urlPath": "/slow"}, "response": {"body": "late", "fixedDelayMilliseconds": 50}},
            {"name": "one", "scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "2", "request": {"urlPath": "/s"}, "response": {"body": "1"}},
            {"name": "two", "scenarioName": "s", "requiredScenarioState": "2", "request": {"urlPath": "/s"}, "response": {"body": "2"}}
        ]}"#;
        let load = || {
            MockSet::from_files(
                "mocks",
                &[MockFile {
                    path: "mappings/a.json".into(),
                    content: stubs.as_bytes().to_vec(),
                }],
            )
            .map(Arc::new)
            .expect("mocks")
        };
        let current = Arc::new(Mutex::new(load()));
        let source = current.clone();
        let transport = OfflineTransport::new(Arc::new(move || {
            source.lock().expect("not poisoned").clone()
        }));
        assert_eq!(
            transport
                .get(request("https://cms.example/reset"))
                .await
                .expect_err("a fault"),
            TransportError::Network(
                "offline: the mock `reset` (mocks/mappings/a.json) answers with the fault CONNECTION_RESET_BY_PEER".into()
            )
        );
        let started = std::time::Instant::now();
        let slow = transport.get(request("https://cms.example/slow")).await;
        assert_eq!(slow.expect("answered").body, b"late");
        assert!(started.elapsed() >= std::time::Duration::from_millis(50));
        let mut bodies = Vec::new();
        for reload in [false, false, false, true, false] {
            if reload {
                *current.lock().expect("not poisoned") = load();
            }
            let answer = transport.get(request("https://cms.example/s")).await;
            bodies.push(String::from_utf8(answer.expect("answered").body).expect("text"));
        }
        // New mocks start the scenario again.
        assert_eq!(bodies, ["1", "2", "2", "1", "2"]);
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
