//! The body of the `wiremock_stubs` fuzz target (`fuzz/`), shared with the replay of its
//! corpus in the tests, so that the stable test suite checks every committed input. Not
//! an interface: hidden from the docs, may change with the fuzz target.

use url::Url;

use crate::record::{Exchange, recorded_mocks};
use crate::{MockFile, MockRequest, MockSet, Scenarios};

/// `mapping \0 request \0 file …`: `mapping` is `mappings/stub.json`; `request` is
/// `METHOD URL` then `name: value` header lines; each `file` is a path under `__files/`
/// on its first line, then its content. The stubs are parsed and the request matched;
/// then the request, answered by the first line of the last file as the body, is recorded
/// as a mock and replayed. Properties:
/// - nothing panics; a miss names at most three closest stubs, each with a difference;
/// - a stub that is found matches when asked again (matching is deterministic);
/// - a recorded exchange parses back as stubs, and its request finds a stub that answers
///   with the recorded status and body.
pub fn wiremock_stubs(data: &[u8]) {
    let mut parts = data.split(|&b| b == 0);
    let mapping = parts.next().unwrap_or_default();
    let request = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let mut files = vec![MockFile {
        path: "mappings/stub.json".to_owned(),
        content: mapping.to_vec(),
    }];
    let mut last_body = Vec::new();
    for part in parts {
        let (path, content) = match part.iter().position(|&b| b == b'\n') {
            Some(at) => (&part[..at], &part[at + 1..]),
            None => (part, &b""[..]),
        };
        files.push(MockFile {
            path: format!("__files/{}", String::from_utf8_lossy(path)),
            content: content.to_vec(),
        });
        last_body = content.to_vec();
    }
    let mut lines = request.lines();
    let (method, url) = lines
        .next()
        .and_then(|line| line.split_once(' '))
        .unwrap_or(("GET", "http://localhost/"));
    let Ok(url) = Url::parse(url.trim()) else {
        return;
    };
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        .collect();
    let request = MockRequest {
        method,
        url: &url,
        headers: headers.clone(),
        body: &last_body,
    };
    if let Ok(set) = MockSet::from_files("mocks", &files) {
        let scenarios = Scenarios::default();
        match set.find(&request, &scenarios) {
            Ok(stub) => {
                let again = set.find(&request, &scenarios).expect("found again");
                assert_eq!(again.name, stub.name);
            }
            Err(miss) => {
                assert!(miss.closest.len() <= 3);
                assert!(miss.closest.iter().all(|m| !m.differences.is_empty()));
                let _ = miss.to_string();
            }
        }
    }
    let exchange = Exchange {
        url: url.clone(),
        request_headers: headers.clone(),
        status: 200,
        response_headers: vec![("content-type".to_owned(), "text/html".to_owned())],
        body: last_body.clone(),
    };
    let recorded = recorded_mocks(std::slice::from_ref(&exchange));
    let files: Vec<MockFile> = recorded
        .iter()
        .flat_map(|m| std::iter::once(m.mapping.clone()).chain(m.body.clone()))
        .collect();
    let set = MockSet::from_files("recorded", &files)
        .unwrap_or_else(|errors| panic!("recorded mocks do not parse: {errors:?}"));
    let get = MockRequest {
        method: "GET",
        url: &url,
        headers,
        body: &[],
    };
    let stub = set
        .find(&get, &Scenarios::default())
        .unwrap_or_else(|miss| panic!("the recorded request finds no stub: {miss}"));
    assert_eq!(stub.response.status, 200);
    assert_eq!(stub.response.body, last_body);
}
