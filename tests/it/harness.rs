//! A bundled administration service on 127.0.0.1:0 for tests, with a scratch data
//! directory, and an HTTP client that speaks to it.

use std::path::PathBuf;
use std::sync::Arc;

use reqwest::{Method, StatusCode};
use serde_json::Value;
use siteops_live::offline::{Mode, OfflineTransport};
use siteops_live::{Live, Target, reload};
use siteops_server::auth::Claims;
use siteops_server::preview::Limits;
use siteops_server::server::{RunningServer, ServerConfig, start};

pub(crate) const ORG_ADMIN: &str = "root@acme.example";

pub(crate) struct TestServer {
    pub server: RunningServer,
    pub data: PathBuf,
    _temp: Option<tempfile::TempDir>,
    pub client: reqwest::Client,
}

/// What a request answered: status, `x-error`, `x-error-code`, content type, and the body
/// as JSON (or null).
#[derive(Debug)]
pub(crate) struct Answer {
    pub status: StatusCode,
    pub error: Option<String>,
    pub code: Option<String>,
    pub content_type: Option<String>,
    pub body: Value,
}

impl TestServer {
    pub(crate) async fn start() -> TestServer {
        TestServer::start_with(Limits::default()).await
    }

    /// A server whose preview pipeline has these limits (short time-outs for tests).
    pub(crate) async fn start_with(limits: Limits) -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let data = temp.path().to_path_buf();
        let mut server = TestServer::start_on_with(data, &[ORG_ADMIN], limits).await;
        server._temp = Some(temp);
        server
    }

    /// A server with these quotas and rates, and these preview limits.
    pub(crate) async fn start_with_quotas(
        quotas: siteops_server::quota::Quotas,
        limits: Limits,
    ) -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let mut server = TestServer::start_config(ServerConfig {
            quotas,
            ..TestServer::config(temp.path().to_path_buf(), &[ORG_ADMIN], limits)
        })
        .await;
        server._temp = Some(temp);
        server
    }

    /// A server whose outgoing requests go through `transport`.
    pub(crate) async fn start_through(
        transport: Arc<dyn siteops_server::preview::Transport>,
    ) -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let mut server = TestServer::start_config(ServerConfig {
            addr: "127.0.0.1:0".parse().expect("address"),
            store: siteops_server::store::StoreLocation::Dir(temp.path().to_path_buf()),
            org_admins: vec![ORG_ADMIN.into()],
            preview_limits: Limits::default(),
            preview_transport: Some(transport),
            session: None,
            allowed_hosts: Vec::new(),
            connection_limits: Default::default(),
            quotas: Default::default(),
            sign_in: Default::default(),
        })
        .await;
        server._temp = Some(temp);
        server
    }

    /// A server on an existing data directory (for restarts).
    pub(crate) async fn start_on(data: PathBuf) -> TestServer {
        TestServer::start_on_with(data, &[ORG_ADMIN], Limits::default()).await
    }

    /// A server as `siteops serve` runs it: its own live session is an org administrator.
    pub(crate) async fn start_serving() -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let data = temp.path().to_path_buf();
        let admins = [ORG_ADMIN, siteops_live::SERVE_SUBJECT];
        let mut server = TestServer::start_on_with(data, &admins, Limits::default()).await;
        server._temp = Some(temp);
        server
    }

    /// A server as `siteops serve --offline` runs it on the repository at `root`: outgoing
    /// requests answered from the sites' mocks, the repository applied once.
    pub(crate) async fn start_live(root: PathBuf) -> (TestServer, Arc<Live>) {
        TestServer::start_live_allowing(root, &[]).await
    }

    /// As [`TestServer::start_live`], also answering the `Host` names `allowed` (reached
    /// beyond this machine, so with sign-in off, as `serve --allowed-host … --no-sign-in`).
    pub(crate) async fn start_live_allowing(
        root: PathBuf,
        allowed: &[&str],
    ) -> (TestServer, Arc<Live>) {
        let (server, live) = TestServer::start_live_unapplied(root, allowed).await;
        reload(&live, &Target::of(&server.server)).await;
        let error = live.snapshot.read().expect("snapshot").error.clone();
        assert_eq!(
            error,
            None,
            "{}",
            live.snapshot.read().expect("snapshot").diagnostics
        );
        (server, live)
    }

    /// [`TestServer::start_live_allowing`] before its first apply.
    pub(crate) async fn start_live_unapplied(
        root: PathBuf,
        allowed: &[&str],
    ) -> (TestServer, Arc<Live>) {
        let network = Arc::new(siteops_server::preview::ReqwestTransport::new());
        TestServer::start_live_in(root, allowed, Mode::Offline, network).await
    }

    /// [`TestServer::start_live_unapplied`] in `mode`, reaching the network through
    /// `network` (loopback too, as in serve).
    pub(crate) async fn start_live_in(
        root: PathBuf,
        allowed: &[&str],
        mode: Mode,
        network: Arc<dyn siteops_server::preview::Transport>,
    ) -> (TestServer, Arc<Live>) {
        let temp = tempfile::tempdir().expect("temp dir");
        let mut live = Live::new(root, mode == Mode::Offline);
        live.mode = mode;
        let live = Arc::new(live);
        let mocks = live.clone();
        let config = ServerConfig {
            addr: "127.0.0.1:0".parse().expect("address"),
            store: siteops_server::store::StoreLocation::Dir(temp.path().to_path_buf()),
            org_admins: vec![ORG_ADMIN.into(), siteops_live::SERVE_SUBJECT.into()],
            preview_limits: Limits::default(),
            preview_transport: Some(Arc::new(OfflineTransport::in_mode(
                mode,
                Arc::new(move || mocks.mocks()),
                network,
            ))),
            session: Some(live.clone()),
            allowed_hosts: allowed.iter().map(|h| h.to_string()).collect(),
            connection_limits: Default::default(),
            quotas: Default::default(),
            sign_in: if allowed.is_empty() {
                siteops_server::auth::SignIn::Email
            } else {
                siteops_server::auth::SignIn::Off
            },
        };
        let mut server = TestServer::start_config(config).await;
        server._temp = Some(temp);
        (server, live)
    }

    /// A server that also answers the `Host` names `allowed` (`serve --allowed-host`).
    pub(crate) async fn start_allowing(allowed: &[&str]) -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let mut server = TestServer::start_config(ServerConfig {
            allowed_hosts: allowed.iter().map(|h| h.to_string()).collect(),
            connection_limits: Default::default(),
            quotas: Default::default(),
            // Reached beyond this machine: the e-mail sign-in is refused there.
            sign_in: siteops_server::auth::SignIn::Off,
            ..TestServer::config(temp.path().to_path_buf(), &[ORG_ADMIN], Limits::default())
        })
        .await;
        server._temp = Some(temp);
        server
    }

    /// A server whose people sign in as `sign_in` says, on loopback.
    pub(crate) async fn start_signing_in(sign_in: siteops_server::auth::SignIn) -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let mut server = TestServer::start_config(ServerConfig {
            sign_in,
            ..TestServer::config(temp.path().to_path_buf(), &[ORG_ADMIN], Limits::default())
        })
        .await;
        server._temp = Some(temp);
        server
    }

    pub(crate) fn config(data: PathBuf, org_admins: &[&str], limits: Limits) -> ServerConfig {
        ServerConfig {
            addr: "127.0.0.1:0".parse().expect("address"),
            store: siteops_server::store::StoreLocation::Dir(data),
            org_admins: org_admins.iter().map(|a| a.to_string()).collect(),
            preview_limits: limits,
            preview_transport: None,
            session: None,
            allowed_hosts: Vec::new(),
            connection_limits: Default::default(),
            quotas: Default::default(),
            sign_in: Default::default(),
        }
    }

    async fn start_on_with(data: PathBuf, org_admins: &[&str], limits: Limits) -> TestServer {
        TestServer::start_config(TestServer::config(data, org_admins, limits)).await
    }

    /// A server with this configuration (whose data directory the caller keeps: see
    /// [`TestServer::keep`]).
    pub(crate) async fn start_config(config: ServerConfig) -> TestServer {
        let siteops_server::store::StoreLocation::Dir(data) = config.store.clone() else {
            panic!("test servers keep their data in a directory");
        };
        TestServer {
            server: start(config).await.expect("server starts"),
            data,
            _temp: None,
            client: reqwest::Client::new(),
        }
    }

    /// Keeps `temp` (the server's data directory) for as long as the server lives.
    pub(crate) fn keep(&mut self, temp: tempfile::TempDir) {
        self._temp = Some(temp);
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.server.addr)
    }

    /// A token for `subject`, good for every site for an hour.
    pub(crate) fn token(&self, subject: &str) -> String {
        self.token_with(subject, "*", 3600)
    }

    pub(crate) fn token_with(&self, subject: &str, aud: &str, ttl: u64) -> String {
        let now = siteops_server::time::now_seconds();
        self.server.state.key.sign(&Claims {
            sub: subject.into(),
            iat: now,
            exp: now + ttl,
            aud: aud.into(),
            jti: None,
            roles: None,
            profile: None,
        })
    }

    /// Sends a request with `x-auth-token: token` (when given) and a raw body.
    pub(crate) async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Answer {
        let mut request = self.client.request(method, self.url(path));
        if let Some(token) = token {
            request = request.header("x-auth-token", token);
        }
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body);
        }
        answer(request.send().await.expect("request is answered")).await
    }

    /// A GET without a token: its status and its body as text (`/readyz`, say).
    pub(crate) async fn text(&self, path: &str) -> (StatusCode, String) {
        let response = self
            .client
            .get(self.url(path))
            .send()
            .await
            .expect("request is answered");
        (response.status(), response.text().await.expect("text"))
    }

    pub(crate) async fn get(&self, path: &str, token: &str) -> Answer {
        self.send(Method::GET, path, Some(token), None).await
    }

    pub(crate) async fn post(&self, path: &str, token: &str, body: &Value) -> Answer {
        self.send(
            Method::POST,
            path,
            Some(token),
            Some(body.to_string().into_bytes()),
        )
        .await
    }

    pub(crate) async fn put(&self, path: &str, token: &str, body: &Value) -> Answer {
        self.send(
            Method::PUT,
            path,
            Some(token),
            Some(body.to_string().into_bytes()),
        )
        .await
    }

    /// GETs `path` from the preview host `host` (such as `main--web--acme.localhost`), with
    /// `Authorization: token …` when a token is given.
    pub(crate) async fn preview(&self, host: &str, path: &str, token: Option<&str>) -> Answer {
        let mut request = self.client.get(self.url(path)).header("host", host);
        if let Some(token) = token {
            request = request.header("authorization", format!("token {token}"));
        }
        answer(request.send().await.expect("request is answered")).await
    }

    pub(crate) async fn delete(&self, path: &str, token: &str) -> Answer {
        self.send(Method::DELETE, path, Some(token), None).await
    }
}

pub(crate) async fn answer(response: reqwest::Response) -> Answer {
    let status = response.status();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let error = header("x-error");
    let code = header("x-error-code");
    let content_type = header("content-type");
    let bytes = response.bytes().await.expect("body");
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answer {
        status,
        error,
        code,
        content_type,
        body,
    }
}
