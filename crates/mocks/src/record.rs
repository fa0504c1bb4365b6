//! Recorded HTTP exchanges to stub mapping files, purely: `siteops mocks record` captures
//! the requests a preview makes and this turns them into the files it writes.
//!
//! One stub per distinct request, the last response winning (an image retried after a
//! 500 keeps its final answer). A request is matched by `method`, `host` (`equalTo`, the
//! host without the port) and `url` (path and query, exactly), and by the request headers
//! that select content (a worker entry's `x-api-version`, say) with `equalTo`.
//!
//! Credentials are never written: headers and query parameters whose names look like
//! credentials ([`is_credential`]) are left out of the matchers altogether, so a recorded
//! page answers with or without them (offline previews from the dashboard carry none). A
//! URL with such a query parameter is matched by `urlPath` and the other parameters. The
//! page location header (`x-content-source-location`) is left out too: the URL already
//! says it. Only the response headers the pipeline reads are kept ([`KEPT_RESPONSE_HEADERS`]),
//! and every body goes to `__files/` byte for byte (`bodyFileName`), so a replay is exact.
//!
//! File names are a readable slug of the host and path plus eight hex digits of a hash of
//! what the stub matches: recording the same request again overwrites the same files.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use url::Url;

use super::MockFile;
use siteops_media::{essence, extension_of};

/// One GET and its answer, as a transport saw them.
#[derive(Debug, Clone)]
pub struct Exchange {
    pub url: Url,
    /// Every header sent, values included: [`recorded_mocks`] decides what is written.
    pub request_headers: Vec<(String, String)>,
    pub status: u16,
    pub response_headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// The files of one recorded stub.
#[derive(Debug, Clone)]
pub struct RecordedMock {
    /// `GET host/path?query` (credential parameters left out), for reports.
    pub request: String,
    /// The index of the exchange recorded (the last of its request).
    pub exchange: usize,
    pub status: u16,
    pub content_type: Option<String>,
    /// `mappings/<slug>.json`.
    pub mapping: MockFile,
    /// `__files/<slug>.<ext>`; `None` for an empty body.
    pub body: Option<MockFile>,
}

/// The response headers a replay needs: what the preview pipeline and the worker read.
pub const KEPT_RESPONSE_HEADERS: [&str; 4] = [
    "content-type",
    "last-modified",
    "location",
    "x-html2md-img-src",
];

/// Request headers never matched because the URL already determines them.
const DERIVED_REQUEST_HEADERS: [&str; 1] = ["x-content-source-location"];

/// Name parts that mark a header or query parameter as a credential.
const CREDENTIAL_MARKERS: [&str; 10] = [
    "auth",
    "token",
    "key",
    "secret",
    "password",
    "passwd",
    "session",
    "cookie",
    "signature",
    "credential",
];

/// Whether a header or query parameter name looks like it carries a credential
/// (`Authorization`, `Cookie`, `x-api-key`, `access_token`, `X-Amz-Signature`, …).
pub fn is_credential(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    CREDENTIAL_MARKERS
        .iter()
        .any(|marker| name.contains(marker))
}

/// The stubs for `exchanges`, one per distinct request (the last exchange of a request
/// wins), sorted by file name. Loopback filtering is the caller's: every exchange given
/// is recorded.
pub fn recorded_mocks(exchanges: &[Exchange]) -> Vec<RecordedMock> {
    let mut by_slug: BTreeMap<String, RecordedMock> = BTreeMap::new();
    for (index, exchange) in exchanges.iter().enumerate() {
        let mock = recorded_mock(index, exchange);
        let slug = mock
            .mapping
            .path
            .trim_start_matches("mappings/")
            .to_string();
        by_slug.insert(slug, mock);
    }
    by_slug.into_values().collect()
}

fn recorded_mock(index: usize, exchange: &Exchange) -> RecordedMock {
    let url = &exchange.url;
    let host = url.host_str().unwrap_or_default().to_string();
    let (query, has_credentials) = kept_query(url);
    // The URL as reports, names and hashes show it: credential parameters left out.
    let path_and_query = match url.query() {
        None => url.path().to_string(),
        Some(raw) if !has_credentials => format!("{}?{raw}", url.path()),
        Some(_) if query.is_empty() => url.path().to_string(),
        Some(_) => format!("{}?{}", url.path(), form(&query)),
    };
    let headers = matched_headers(&exchange.request_headers);

    let mut request = Map::new();
    request.insert("method".into(), json!("GET"));
    // A URL without a host (not http or https) matches on no host: `equalTo ""` would
    // never match it again.
    if let Some(host) = url.host_str() {
        request.insert("host".into(), json!({ "equalTo": host }));
    }
    if has_credentials {
        request.insert("urlPath".into(), json!(url.path()));
        if !query.is_empty() {
            let mut parameters = Map::new();
            for (name, value) in &query {
                parameters
                    .entry(name.clone())
                    .or_insert_with(|| json!({ "equalTo": value }));
            }
            request.insert("queryParameters".into(), Value::Object(parameters));
        }
    } else {
        request.insert("url".into(), json!(path_and_query));
    }
    if !headers.is_empty() {
        let matchers: Map<String, Value> = headers
            .iter()
            .map(|(name, value)| (name.clone(), json!({ "equalTo": value })))
            .collect();
        request.insert("headers".into(), Value::Object(matchers));
    }

    let identity = identity(&host, &path_and_query, &headers);
    let slug = slug(&host, url.path(), &identity);
    let content_type = header(&exchange.response_headers, "content-type");
    let body = (!exchange.body.is_empty()).then(|| MockFile {
        path: format!(
            "__files/{slug}.{}",
            body_extension(content_type.as_deref().unwrap_or(""))
        ),
        content: exchange.body.clone(),
    });

    let mut response = Map::new();
    response.insert("status".into(), json!(exchange.status));
    let kept: Map<String, Value> = KEPT_RESPONSE_HEADERS
        .iter()
        .filter_map(|name| {
            Some((
                name.to_string(),
                json!(header(&exchange.response_headers, name)?),
            ))
        })
        .collect();
    if !kept.is_empty() {
        response.insert("headers".into(), Value::Object(kept));
    }
    if let Some(body) = &body {
        let name = body.path.trim_start_matches("__files/");
        response.insert("bodyFileName".into(), json!(name));
    }
    let stub = json!({
        "name": format!("{host}{path_and_query}"),
        "request": request,
        "response": response,
    });
    let mut content = serde_json::to_vec_pretty(&stub).expect("JSON values serialize");
    content.push(b'\n');
    RecordedMock {
        request: format!("GET {host}{path_and_query}"),
        exchange: index,
        status: exchange.status,
        content_type,
        mapping: MockFile {
            path: format!("mappings/{slug}.json"),
            content,
        },
        body,
    }
}

/// The query's parameters that are not credentials, and whether any was one.
fn kept_query(url: &Url) -> (Vec<(String, String)>, bool) {
    let mut kept = Vec::new();
    let mut credentials = false;
    for (name, value) in url.query_pairs() {
        if is_credential(&name) {
            credentials = true;
        } else {
            kept.push((name.into_owned(), value.into_owned()));
        }
    }
    (kept, credentials)
}

fn form(pairs: &[(String, String)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// The request headers a stub matches: names in lower case, sorted, the first value of
/// each; no credentials, nothing the URL already says.
fn matched_headers(headers: &[(String, String)]) -> Vec<(String, String)> {
    let mut matched: BTreeMap<String, String> = BTreeMap::new();
    for (name, value) in headers {
        let name = name.to_ascii_lowercase();
        if is_credential(&name) || DERIVED_REQUEST_HEADERS.contains(&name.as_str()) {
            continue;
        }
        matched.entry(name).or_insert_with(|| value.clone());
    }
    matched.into_iter().collect()
}

fn header(headers: &[(String, String)], name: &str) -> Option<String> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.clone())
}

/// What a stub matches, as one string: equal for requests that the same stub answers.
fn identity(host: &str, path_and_query: &str, headers: &[(String, String)]) -> String {
    let mut identity = format!("GET\n{host}\n{path_and_query}\n");
    for (name, value) in headers {
        identity.push_str(&format!("{name}: {value}\n"));
    }
    identity
}

/// Longest readable part of a file name, before the hash.
const SLUG_LENGTH: usize = 80;

/// `<host>_<path segments joined by _>` without the last segment's extension, other
/// characters than `[A-Za-z0-9.-]` as `-`, then `-` and 8 hex digits of `identity`'s hash.
fn slug(host: &str, path: &str, identity: &str) -> String {
    let mut segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if let Some(last) = segments.last_mut()
        && let Some((stem, extension)) = last.rsplit_once('.')
        && !stem.is_empty()
        && (1..=5).contains(&extension.len())
        && extension.bytes().all(|b| b.is_ascii_alphanumeric())
    {
        *last = stem;
    }
    let mut readable = host.to_string();
    for segment in segments {
        readable.push('_');
        readable.push_str(segment);
    }
    let mut cleaned = String::with_capacity(readable.len());
    for c in readable.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
            c
        } else {
            '-'
        };
        if !(c == '-' && cleaned.ends_with('-')) {
            cleaned.push(c);
        }
    }
    let mut cut = cleaned.len().min(SLUG_LENGTH);
    while !cleaned.is_char_boundary(cut) {
        cut -= 1;
    }
    let readable = cleaned[..cut].trim_matches(['-', '_', '.']);
    let digest = Sha256::digest(identity.as_bytes());
    let hash = hex::encode(&digest[..4]);
    format!("{readable}-{hash}")
}

/// The extension of a body file, from the response's content type.
fn body_extension(content_type: &str) -> &'static str {
    let essence = essence(content_type);
    if let Some(extension) = extension_of(&essence) {
        return if extension == "img" { "bin" } else { extension };
    }
    match essence.as_str() {
        "text/html" | "application/xhtml+xml" => "html",
        "application/json" => "json",
        "text/plain" | "text/markdown" => "txt",
        "text/css" => "css",
        "text/javascript" | "application/javascript" => "js",
        "application/pdf" => "pdf",
        "text/xml" | "application/xml" => "xml",
        other if other.ends_with("+json") => "json",
        other if other.ends_with("+xml") => "xml",
        _ => "bin",
    }
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
