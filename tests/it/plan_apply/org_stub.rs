//! A stand-in for the org's documents in front of the bundled service, on loopback: it
//! answers the older path family's `config/<org>.json`, `config/<org>/profiles.json` and
//! `config/<org>/profiles/<profile>.json` as the platform does (GET 404 when absent,
//! POST creates or replaces and stamps `created`/`lastModified`, DELETE removes; an org
//! secret's value is kept and never answered) and passes every other request to the
//! service. The bundled service does not serve those paths yet (h-server adds them); once
//! it does, the fixture points at it directly and this goes.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// The stub's address and what it holds, by path under `/admin/config/`.
pub(crate) struct OrgStub {
    pub addr: std::net::SocketAddr,
    pub documents: Arc<Mutex<BTreeMap<String, Value>>>,
}

#[derive(Clone)]
struct Stub {
    service: String,
    token: String,
    documents: Arc<Mutex<BTreeMap<String, Value>>>,
    client: reqwest::Client,
}

impl OrgStub {
    /// Starts the stub in front of `service` (`http://host:port`), taking `token`.
    pub(crate) async fn start(service: String, token: String) -> OrgStub {
        let documents = Arc::new(Mutex::new(BTreeMap::new()));
        let stub = Stub {
            service,
            token,
            documents: documents.clone(),
            client: reqwest::Client::new(),
        };
        let app = axum::Router::new().fallback(answer).with_state(stub);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("loopback");
        let addr = listener.local_addr().expect("address");
        tokio::spawn(async move { axum::serve(listener, app).await });
        OrgStub { addr, documents }
    }

    /// The stored document at `path` (`acme.json`, `acme/profiles/repoless.json`).
    pub(crate) fn document(&self, path: &str) -> Option<Value> {
        self.documents.lock().expect("lock").get(path).cloned()
    }
}

/// `acme.json`, `acme/profiles.json` or `acme/profiles/<name>.json` under
/// `/admin/config/`: the org's documents; anything else is the service's.
fn org_path(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/admin/config/")?;
    let segments: Vec<&str> = rest.split('/').collect();
    match segments[..] {
        [org] if org.ends_with(".json") => Some(rest),
        [_, "profiles.json"] => Some(rest),
        [_, "profiles", name] if name.ends_with(".json") => Some(rest),
        _ => None,
    }
}

async fn answer(State(stub): State<Stub>, request: Request) -> Response {
    let Some(path) = org_path(request.uri().path()).map(str::to_string) else {
        return forward(&stub, request).await;
    };
    let token = request.headers().get("x-auth-token");
    if token.and_then(|t| t.to_str().ok()) != Some(stub.token.as_str()) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let method = request.method().clone();
    let bytes = axum::body::to_bytes(request.into_body(), 1 << 20)
        .await
        .expect("body");
    let mut documents = stub.documents.lock().expect("lock");
    if let Some(org) = path.strip_suffix("/profiles.json") {
        let prefix = format!("{org}/profiles/");
        let profiles: Vec<Value> = (documents.keys())
            .filter_map(|key| key.strip_prefix(&prefix)?.strip_suffix(".json"))
            .map(|name| json!({ "name": name }))
            .collect();
        return axum::Json(json!({ "profiles": profiles })).into_response();
    }
    match method {
        Method::GET => match documents.get(&path) {
            Some(document) => axum::Json(answered(document)).into_response(),
            None => StatusCode::NOT_FOUND.into_response(),
        },
        Method::POST => {
            let mut document: Value = serde_json::from_slice(&bytes).expect("a JSON body");
            let created = (documents.get(&path))
                .and_then(|d| d.get("created").cloned())
                .unwrap_or_else(|| json!(now()));
            document["created"] = created;
            document["lastModified"] = json!(now());
            if let Some(Value::Object(secrets)) = document.get_mut("secrets") {
                for entry in secrets.values_mut() {
                    entry["created"] = json!(now());
                    entry["lastModified"] = json!(now());
                }
            }
            documents.insert(path, document);
            StatusCode::OK.into_response()
        }
        Method::DELETE => match documents.remove(&path) {
            Some(_) => StatusCode::NO_CONTENT.into_response(),
            None => StatusCode::NOT_FOUND.into_response(),
        },
        _ => StatusCode::METHOD_NOT_ALLOWED.into_response(),
    }
}

/// A stored document as GET answers it: secret values are write-only.
fn answered(document: &Value) -> Value {
    let mut document = document.clone();
    if let Some(Value::Object(secrets)) = document.get_mut("secrets") {
        for entry in secrets.values_mut() {
            if let Value::Object(entry) = entry {
                entry.remove("value");
            }
        }
    }
    document
}

/// A distinct time for every write, so that a write changes what GET answers.
fn now() -> String {
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("2026-01-01T00:00:00.{n:09}Z")
}

/// The request as is to the service, and its answer back.
async fn forward(stub: &Stub, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let target = format!(
        "{}{}",
        stub.service,
        parts.uri.path_and_query().map_or("/", |p| p.as_str())
    );
    let bytes = axum::body::to_bytes(body, 64 << 20).await.expect("body");
    let mut outgoing = stub.client.request(parts.method, target);
    for (name, value) in &parts.headers {
        if name != "host" && name != "content-length" {
            outgoing = outgoing.header(name, value);
        }
    }
    let answer = outgoing
        .body(bytes)
        .send()
        .await
        .expect("the service answers");
    let mut response = Response::builder().status(answer.status());
    for (name, value) in answer.headers() {
        if name != "transfer-encoding" && name != "content-length" && name != "connection" {
            response = response.header(name, value);
        }
    }
    let body = answer.bytes().await.expect("answer body");
    response.body(Body::from(body)).expect("a response")
}
