//! Outgoing requests in `siteops serve`, by [`Mode`]: offline, every request answered from
//! the mocks; with mocks (the default when the repository has some), the requests to the
//! hosts the mocks name ([`siteops_mocks::MockedHosts`]) answered from them, the rest from
//! the network; online, the network. Requests to loopback (the bundled worker and preview
//! hosts, a local source) always go out: they never leave the machine. A request to a
//! mocked host that no mock matches fails with the URL and the closest mocks, which the
//! preview's trace and error then show.
//!
//! As in WireMock: a stub's `fixedDelayMilliseconds` delays its answer (the preview's own
//! time-outs apply), a `fault` fails the request as a broken connection would, and
//! scenarios move on as their stubs answer, from their start whenever the mocks change.

use std::sync::{Arc, Mutex};

use http::{HeaderMap, HeaderName, HeaderValue};

use siteops_mocks::{MockRequest, MockSet, MockedHosts, Scenarios};
use siteops_server::preview::transport::BoxFuture;
use siteops_server::preview::{
    Answerer, IncomingResponse, OutgoingRequest, ReqwestTransport, Transport, TransportError,
};

/// Where the current mocks come from (the live session swaps them on every reload).
pub type MockSource = Arc<dyn Fn() -> Arc<MockSet> + Send + Sync>;

/// Where `serve` sends outgoing requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `--offline`: every request from the mocks, never the network.
    Offline,
    /// The default with mocks: the mocks answer for the hosts they name, the network for
    /// the rest (and for what no open stub, one without a named host, matches).
    Mocks,
    /// `--online`, or no mocks: the network, the mocks ignored.
    Online,
}

/// What the dashboard says of where requests go: the mode, and the mocked hosts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outgoing {
    Offline,
    Mocks(MockedHosts),
    Online,
}

pub struct OfflineTransport {
    mocks: MockSource,
    /// Loopback requests go out through it, and in [`Mode::Mocks`] the unmocked ones.
    local: Arc<dyn Transport>,
    mode: Mode,
    /// The scenarios' states and the mocked hosts, for the set they belong to (a new set
    /// starts them afresh).
    scenarios: Mutex<Option<CurrentSet>>,
}

/// A set of mocks, its scenarios' states and the hosts it names.
type CurrentSet = (Arc<MockSet>, Scenarios, MockedHosts);

impl std::fmt::Debug for OfflineTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OfflineTransport({:?})", self.mode)
    }
}

impl OfflineTransport {
    pub fn new(mocks: MockSource) -> OfflineTransport {
        OfflineTransport::with_local(mocks, ReqwestTransport::new())
    }

    /// Loopback requests go out through `local` (a transport under a stricter policy).
    pub fn with_local(mocks: MockSource, local: ReqwestTransport) -> OfflineTransport {
        OfflineTransport::in_mode(Mode::Offline, mocks, Arc::new(local))
    }

    /// [`Mode::Offline`] or [`Mode::Mocks`] (`network` is then also the network's way).
    pub fn in_mode(mode: Mode, mocks: MockSource, network: Arc<dyn Transport>) -> OfflineTransport {
        OfflineTransport {
            mocks,
            local: network,
            mode,
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
        let (found, delay) = {
            let mut scenarios = self.scenarios.lock().unwrap_or_else(|p| p.into_inner());
            let (_, states, hosts) = match &mut *scenarios {
                Some(current) if Arc::ptr_eq(&current.0, &mocks) => current,
                other => other.insert((mocks.clone(), Scenarios::default(), mocks.hosts())),
            };
            let mocked = self.mode == Mode::Offline
                || request
                    .url
                    .host_str()
                    .is_some_and(|host| hosts.covers(host));
            answer(&mocks, &request, states, self.mode, mocked)
        };
        let Some(found) = found else {
            return self.local.get(request);
        };
        Box::pin(async move {
            if let Some(delay) = delay {
                tokio::time::sleep(delay).await;
            }
            found
        })
    }
}

/// The answer to `request`, and how long the stub waits before giving it; `None` when
/// the network is to answer (a host the mocks do not name, and no open stub matches).
fn answer(
    mocks: &MockSet,
    request: &OutgoingRequest,
    scenarios: &mut Scenarios,
    mode: Mode,
    mocked: bool,
) -> (
    Option<Result<IncomingResponse, TransportError>>,
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
        Ok(stub) => (Some(response(stub, request)), stub.response.delay),
        Err(miss) if mocked => {
            let why = match mode {
                Mode::Offline => "offline".to_string(),
                _ => format!(
                    "the mocks stand in for {}",
                    request.url.host_str().unwrap_or_default()
                ),
            };
            (
                Some(Err(TransportError::Unmocked(format!("{why}: {miss}")))),
                None,
            )
        }
        Err(_) => (None, None),
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
        answerer: Answerer::Mock {
            name: stub.name.clone(),
            file: stub.file.clone(),
        },
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
            TransportError::Unmocked(
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

    /// Issue 44: with mocks, only the hosts they name are theirs; the rest go to the
    /// network (here a name resolved to a loopback server, so nothing leaves the machine).
    #[tokio::test]
    async fn mocks_stand_in_only_for_the_hosts_they_name() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("address").port();
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut buffer = [0u8; 1024];
                let _ = tokio::io::AsyncReadExt::read(&mut socket, &mut buffer).await;
                let answer = "HTTP/1.1 200 OK\r\ncontent-length: 3\r\nconnection: close\r\n\r\nnet";
                let _ = socket.write_all(answer.as_bytes()).await;
            }
        });
        let mocks = MockSet::from_files(
            "mocks",
            &[MockFile {
                path: "mappings/a.json".into(),
                content: br#"{"name": "data", "request": {"host": {"equalTo": "api.example"}, "urlPath": "/a.json"}, "response": {"body": "mock"}}"#.to_vec(),
            }],
        )
        .map(Arc::new)
        .expect("mocks");
        let network: Arc<dyn Transport> = Arc::new(ReqwestTransport::with_hosts(&[(
            "images.test",
            [127, 0, 0, 1].into(),
        )]));
        let source: MockSource = Arc::new(move || mocks.clone());
        for (mode, image) in [
            (Mode::Mocks, Ok("net")),
            (Mode::Offline, Err("offline: no mock matches")),
        ] {
            let transport = OfflineTransport::in_mode(mode, source.clone(), network.clone());
            let mocked = transport
                .get(request("https://api.example/a.json"))
                .await
                .expect("answered");
            assert_eq!(mocked.body, b"mock");
            assert!(matches!(mocked.answerer, Answerer::Mock { .. }));
            let missed = transport
                .get(request("https://api.example/b.json"))
                .await
                .expect_err("a mocked host");
            assert!(matches!(missed, TransportError::Unmocked(_)), "{missed:?}");
            let fetched = transport
                .get(request(&format!("http://images.test:{port}/hero.jpg")))
                .await;
            match (fetched, image) {
                (Ok(answer), Ok(body)) => {
                    assert_eq!(answer.body, body.as_bytes());
                    assert_eq!(answer.answerer, Answerer::Network);
                }
                (Err(TransportError::Unmocked(message)), Err(start)) => {
                    assert!(message.starts_with(start), "{message}");
                }
                (other, _) => panic!("{mode:?}: {other:?}"),
            }
        }
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
