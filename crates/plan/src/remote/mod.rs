//! The client of a remote administration service and transformation worker, for `plan`
//! and `apply`: the edge where the pure plan meets the network.
//!
//! Every request goes through [`Client`], which owns the policies:
//! - at most `concurrency` requests in flight;
//! - at most `rate` request starts per second, when set ([`rate`]);
//! - 429 waits for `retry-after`; 5xx and network errors are retried with exponential
//!   backoff up to a cap ([`retry`]). Writes are POST (create or replace) and DELETE, so
//!   a retried write is harmless;
//! - the token goes to the administration API as `x-auth-token` and to the worker as
//!   `Authorization: token …`, marked sensitive, and is never logged or printed.
//!
//! The administration API answers in two path families ([`PathFamily`]): the client
//! speaks the older one unless told otherwise ([`Client::with_family`]), and
//! [`Client::probe_family`] tells which one a service answers.
//!
//! [`live`] reads the live state that [`crate::plan::diff`] compares.

mod error;
pub mod live;
mod location;
pub mod rate;
pub mod retry;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderValue, RETRY_AFTER};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use tokio::sync::Semaphore;

pub use error::ClientError;
pub use location::{Location, PathFamily, Service};
pub use rate::RateLimiter;
pub use retry::RetryPolicy;

/// The content types of the bodies sent.
const JSON: &str = "application/json";
const YAML: &str = "text/yaml";

/// The largest response body read (a site document, a worker configuration, a listing).
const RESPONSE_LIMIT: usize = 16 * 1024 * 1024;

/// A token for the services. Its `Debug` never shows it.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    pub fn new(token: impl Into<String>) -> Token {
        Token(token.into().trim().to_string())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

/// Where the services are: `{admin_url}` (such as `http://127.0.0.1:3000/admin`, the base
/// of the client's path family: `http://127.0.0.1:3000/api` for the newer) and
/// `{transform_url}` (the worker, such as `http://127.0.0.1:3000/transform`).
#[derive(Debug, Clone)]
pub struct Endpoints {
    pub admin: String,
    pub worker: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Requests in flight at once (at least 1).
    pub concurrency: usize,
    /// Request starts per second, when limited.
    pub rate: Option<f64>,
    pub retry: RetryPolicy,
    /// Per request.
    pub timeout: Duration,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            concurrency: 8,
            rate: None,
            retry: RetryPolicy::default(),
            timeout: Duration::from_secs(30),
        }
    }
}

/// What one exchange gave: a status and the body (read up to [`RESPONSE_LIMIT`]).
struct Exchange {
    status: StatusCode,
    retry_after: Option<String>,
    error: Option<String>,
    body: Vec<u8>,
    /// How many tries it took.
    attempts: u32,
}

pub struct Client {
    http: reqwest::Client,
    endpoints: Endpoints,
    admin_header: HeaderValue,
    worker_header: HeaderValue,
    permits: Arc<Semaphore>,
    rate: Option<RateLimiter>,
    retry: RetryPolicy,
    sent: AtomicU64,
    family: PathFamily,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("endpoints", &self.endpoints)
            .finish_non_exhaustive()
    }
}

/// A token that cannot go in a header (a line break, say).
#[derive(Debug, thiserror::Error)]
#[error("the token is not a valid header value")]
pub struct InvalidToken;

impl Client {
    pub fn new(
        endpoints: Endpoints,
        token: &Token,
        options: &ClientOptions,
    ) -> Result<Client, InvalidToken> {
        let header = |value: String| {
            let mut value = HeaderValue::from_str(&value).map_err(|_| InvalidToken)?;
            value.set_sensitive(true);
            Ok::<_, InvalidToken>(value)
        };
        Ok(Client {
            http: crate::http::client(options.timeout),
            endpoints: Endpoints {
                admin: endpoints.admin.trim_end_matches('/').to_string(),
                worker: endpoints
                    .worker
                    .map(|w| w.trim_end_matches('/').to_string()),
            },
            admin_header: header(token.0.clone())?,
            worker_header: header(format!("token {}", token.0))?,
            permits: Arc::new(Semaphore::new(options.concurrency.max(1))),
            rate: options.rate.map(RateLimiter::per_second),
            retry: options.retry,
            sent: AtomicU64::new(0),
            family: PathFamily::Older,
        })
    }

    /// The client speaking `family` at the administration API's base (`endpoints.admin`
    /// is then that family's base).
    pub fn with_family(mut self, family: PathFamily) -> Client {
        self.family = family;
        self
    }

    /// Speaks `family` from now on (see [`Client::with_family`]).
    pub fn set_family(&mut self, family: PathFamily) {
        self.family = family;
    }

    /// The path family the client speaks to the administration API.
    pub fn family(&self) -> PathFamily {
        self.family
    }

    /// Which path family the administration API answers at its base, asked with `org`'s
    /// site listing: the older family's `config/<org>/sites.json`, else the newer's
    /// `<org>/sites`, whichever answers a `sites` array first. When neither does, the
    /// family that answered something other than 404 or 405 (a refusal says the route
    /// exists), else the older.
    pub async fn probe_family(&self, org: &str) -> Result<PathFamily, ClientError> {
        let mut exists = None;
        for family in [PathFamily::Older, PathFamily::Newer] {
            let path = Location::sites_of(org).path_in(family);
            let url = format!("{}/{path}", self.endpoints.admin);
            let exchange = self
                .request(Method::GET, Service::Admin, &url, None)
                .await?;
            let listing = serde_json::from_slice::<Value>(&exchange.body).ok();
            let sites = listing.as_ref().and_then(|l| l.get("sites"));
            if exchange.status.is_success() && sites.is_some_and(Value::is_array) {
                return Ok(family);
            }
            let absent = [StatusCode::NOT_FOUND, StatusCode::METHOD_NOT_ALLOWED];
            if exists.is_none() && !absent.contains(&exchange.status) {
                exists = Some(family);
            }
        }
        Ok(exists.unwrap_or_default())
    }

    pub fn endpoints(&self) -> &Endpoints {
        &self.endpoints
    }

    /// Requests sent so far, retries included.
    pub fn requests_sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    pub fn url(&self, location: &Location) -> Result<String, ClientError> {
        let base = match location.service {
            Service::Admin => &self.endpoints.admin,
            Service::Worker => self
                .endpoints
                .worker
                .as_ref()
                .ok_or_else(|| ClientError::NoWorker(location.path.clone()))?,
        };
        Ok(format!("{base}/{}", location.path_in(self.family)))
    }

    /// GETs a JSON document; `None` when the service answers 404.
    pub async fn get(&self, location: &Location) -> Result<Option<Value>, ClientError> {
        self.get_unless(location, &[StatusCode::NOT_FOUND]).await
    }

    /// GETs a listing; `None` when the service answers 404 or 405, which is how a service
    /// without the listing answers.
    pub async fn get_listing(&self, location: &Location) -> Result<Option<Value>, ClientError> {
        self.get_unless(
            location,
            &[StatusCode::NOT_FOUND, StatusCode::METHOD_NOT_ALLOWED],
        )
        .await
    }

    async fn get_unless(
        &self,
        location: &Location,
        absent: &[StatusCode],
    ) -> Result<Option<Value>, ClientError> {
        let url = self.url(location)?;
        let Some(body) = self.get_bytes(location, &url, absent).await? else {
            return Ok(None);
        };
        serde_json::from_slice(&body)
            .map(Some)
            .map_err(|e| ClientError::NotJson {
                method: "GET".into(),
                url,
                message: e.to_string(),
            })
    }

    /// GETs a document the service keeps as YAML, as data; `None` when the service answers
    /// 404. Compared as data, the service's formatting of the text does not matter.
    pub async fn get_yaml(&self, location: &Location) -> Result<Option<Value>, ClientError> {
        let url = self.url(location)?;
        let Some(body) = self
            .get_bytes(location, &url, &[StatusCode::NOT_FOUND])
            .await?
        else {
            return Ok(None);
        };
        let not_yaml = |message: String| ClientError::NotJson {
            method: "GET".into(),
            url: url.clone(),
            message,
        };
        let text = String::from_utf8(body).map_err(|_| not_yaml("the YAML is not UTF-8".into()))?;
        let source = siteops_config::source::SourceFile::new(location.path.clone(), text);
        match siteops_config::document::Document::parse_yaml(source) {
            Ok(document) => Ok(Some(document.value)),
            Err(problems) => Err(not_yaml(format!(
                "not YAML: {}",
                problems
                    .first()
                    .map(|p| p.headline())
                    .unwrap_or_else(|| "it does not parse".into())
            ))),
        }
    }

    /// The body of a successful GET; `None` when the status is one of `absent`.
    async fn get_bytes(
        &self,
        location: &Location,
        url: &str,
        absent: &[StatusCode],
    ) -> Result<Option<Vec<u8>>, ClientError> {
        let exchange = self
            .request(Method::GET, location.service, url, None)
            .await?;
        if absent.contains(&exchange.status) {
            return Ok(None);
        }
        check(&Method::GET, url, &exchange)?;
        Ok(Some(exchange.body))
    }

    /// POSTs a body (create or replace).
    pub async fn post(&self, location: &Location, body: &Value) -> Result<(), ClientError> {
        self.post_named(location, body, None).await
    }

    /// POSTs a body (create or replace) of a configuration document or a part of one,
    /// naming the version the write makes (`?versionName=`) when `version` is given.
    pub async fn post_named(
        &self,
        location: &Location,
        body: &Value,
        version: Option<&str>,
    ) -> Result<(), ClientError> {
        let bytes = serde_json::to_vec(body).expect("JSON serializes");
        let url = self.url_with(location, &[("versionName", version)])?;
        self.post_as(location, &url, Some((JSON, bytes))).await
    }

    /// POSTs a JSON body and reads the JSON answer (a job the service started), tried again
    /// as every request is.
    pub async fn post_for_answer(
        &self,
        location: &Location,
        body: &Value,
    ) -> Result<Value, ClientError> {
        self.post_answered(location, body, false).await
    }

    /// POSTs a request that has the service make something (a secret, an API key) and
    /// returns its answer, which holds the value made: the caller keeps it from every log.
    /// Not tried again after a 5xx or a network error: the service may have made the value
    /// and its answer been lost, and a second one would replace it unseen.
    pub async fn post_making(
        &self,
        location: &Location,
        body: &Value,
    ) -> Result<Value, ClientError> {
        self.post_answered(location, body, true).await
    }

    async fn post_answered(
        &self,
        location: &Location,
        body: &Value,
        unrepeatable: bool,
    ) -> Result<Value, ClientError> {
        let url = self.url(location)?;
        let bytes = serde_json::to_vec(body).expect("JSON serializes");
        let exchange = self
            .request_once(
                Method::POST,
                location.service,
                &url,
                Some((JSON, bytes)),
                unrepeatable,
            )
            .await?;
        check(&Method::POST, &url, &exchange)?;
        serde_json::from_slice(&exchange.body).map_err(|e| ClientError::NotJson {
            method: "POST".into(),
            url,
            message: e.to_string(),
        })
    }

    /// POSTs YAML text (`content-type: text/yaml`), for the documents the service keeps
    /// as YAML.
    pub async fn post_yaml(&self, location: &Location, text: &str) -> Result<(), ClientError> {
        let url = self.url(location)?;
        let body = (YAML, text.as_bytes().to_vec());
        self.post_as(location, &url, Some(body)).await
    }

    /// Restores version `version` of the document at `location` (`POST
    /// …?restoreVersion=<n>`, no body): the service writes it again as a new version,
    /// named `name` when given.
    pub async fn restore(
        &self,
        location: &Location,
        version: u64,
        name: Option<&str>,
    ) -> Result<(), ClientError> {
        let number = version.to_string();
        let query = [
            ("restoreVersion", Some(number.as_str())),
            ("versionName", name),
        ];
        let url = self.url_with(location, &query)?;
        self.post_as(location, &url, None).await
    }

    async fn post_as(
        &self,
        location: &Location,
        url: &str,
        body: Option<(&'static str, Vec<u8>)>,
    ) -> Result<(), ClientError> {
        let exchange = self
            .request(Method::POST, location.service, url, body)
            .await?;
        check(&Method::POST, url, &exchange)
    }

    /// The URL of `location` with the query's pairs that have a value.
    fn url_with(
        &self,
        location: &Location,
        query: &[(&str, Option<&str>)],
    ) -> Result<String, ClientError> {
        let url = self.url(location)?;
        if query.iter().all(|(_, value)| value.is_none()) {
            return Ok(url);
        }
        let mut parsed = reqwest::Url::parse(&url).map_err(|e| ClientError::Network {
            method: "POST".into(),
            url: url.clone(),
            message: e.to_string(),
            attempts: 0,
        })?;
        for (key, value) in query {
            if let Some(value) = value {
                parsed.query_pairs_mut().append_pair(key, value);
            }
        }
        Ok(parsed.into())
    }

    /// DELETEs a resource; one that is already gone (404) counts as deleted.
    pub async fn delete(&self, location: &Location) -> Result<(), ClientError> {
        self.delete_named(location, None).await
    }

    /// DELETEs a configuration document or a part of one, naming the version the deletion
    /// makes (`?versionName=`) when `version` is given; already gone (404) counts as
    /// deleted.
    pub async fn delete_named(
        &self,
        location: &Location,
        version: Option<&str>,
    ) -> Result<(), ClientError> {
        let url = self.url_with(location, &[("versionName", version)])?;
        let exchange = self
            .request(Method::DELETE, location.service, &url, None)
            .await?;
        if exchange.status == StatusCode::NOT_FOUND {
            return Ok(());
        }
        check(&Method::DELETE, &url, &exchange)
    }

    /// One request with the retry policy: the final answer, or the last network error.
    /// Error statuses are returned as answers; the caller decides what they mean.
    async fn request(
        &self,
        method: Method,
        service: Service,
        url: &str,
        body: Option<(&'static str, Vec<u8>)>,
    ) -> Result<Exchange, ClientError> {
        self.request_once(method, service, url, body, false).await
    }

    /// [`Client::request`]; with `unrepeatable`, a 5xx or a network error is final (only a
    /// 429, which the service did not act on, waits and tries again).
    async fn request_once(
        &self,
        method: Method,
        service: Service,
        url: &str,
        body: Option<(&'static str, Vec<u8>)>,
        unrepeatable: bool,
    ) -> Result<Exchange, ClientError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let outcome = self.once(&method, service, url, body.as_ref()).await;
            let wait = match &outcome {
                Ok(e) if e.status == StatusCode::TOO_MANY_REQUESTS => Some(self.retry.after_429(
                    attempt,
                    e.retry_after.as_deref(),
                    SystemTime::now(),
                )),
                Ok(e) if e.status.is_server_error() && !unrepeatable => {
                    Some(self.retry.backoff(attempt))
                }
                Ok(_) => None,
                Err(_) if unrepeatable => None,
                Err(_) => Some(self.retry.backoff(attempt)),
            };
            match wait {
                Some(wait) if attempt < self.retry.attempts => {
                    let why = match &outcome {
                        Ok(e) => e.status.to_string(),
                        Err(message) => message.clone(),
                    };
                    tracing::debug!(%method, %url, %why, attempt, ?wait, "retrying");
                    tokio::time::sleep(wait).await;
                }
                _ => {
                    return match outcome {
                        Ok(exchange) => Ok(Exchange {
                            attempts: attempt,
                            ..exchange
                        }),
                        Err(message) => Err(ClientError::Network {
                            method: method.to_string(),
                            url: url.to_string(),
                            message,
                            attempts: attempt,
                        }),
                    };
                }
            }
        }
    }

    /// One attempt, within the concurrency bound and the rate limit.
    async fn once(
        &self,
        method: &Method,
        service: Service,
        url: &str,
        body: Option<&(&'static str, Vec<u8>)>,
    ) -> Result<Exchange, String> {
        if let Some(rate) = &self.rate {
            rate.acquire().await;
        }
        let _permit = self
            .permits
            .acquire()
            .await
            .expect("the semaphore is never closed");
        self.sent.fetch_add(1, Ordering::Relaxed);
        let mut request = self.http.request(method.clone(), url);
        request = match service {
            Service::Admin => request.header("x-auth-token", self.admin_header.clone()),
            Service::Worker => request.header("authorization", self.worker_header.clone()),
        };
        if let Some((content_type, body)) = body {
            request = request
                .header("content-type", *content_type)
                .body(body.clone());
        }
        let response = request.send().await.map_err(|e| describe(&e))?;
        let status = response.status();
        let header = |name| {
            response
                .headers()
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
                .map(str::to_string)
        };
        let retry_after = header(RETRY_AFTER);
        let error = header(reqwest::header::HeaderName::from_static("x-error"));
        let body = crate::http::read_limited(response, RESPONSE_LIMIT)
            .await
            .map_err(|e| e.to_string())?;
        tracing::debug!(%method, %url, %status, "answered");
        Ok(Exchange {
            status,
            retry_after,
            error,
            body,
            attempts: 1,
        })
    }
}

/// An error status as a [`ClientError`]; success as `Ok`.
fn check(method: &Method, url: &str, exchange: &Exchange) -> Result<(), ClientError> {
    if exchange.status.is_success() {
        return Ok(());
    }
    Err(ClientError::Status {
        method: method.to_string(),
        url: url.to_string(),
        status: exchange.status,
        message: exchange.error.clone().filter(|m| !m.is_empty()),
        attempts: exchange.attempts,
    })
}

/// A network error with its causes (reqwest's own message is often just "error sending
/// request"). URLs carry no credentials, so the text is safe to print.
fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
