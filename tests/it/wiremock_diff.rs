//! siteops' mocks against real WireMock (the standalone jar of the npm package `wiremock`,
//! on Java): the same mapping files loaded into both, the same requests sent to both,
//! every answer compared (status, body, the stub's headers, and which stub answered).
//!
//! Generated cases cover methods (and their case), URL matchers (templates with their
//! parameters too), hosts, header and query matchers (`equalTo` with and without
//! `caseInsensitive`, `contains`, `matches`, `doesNotMatch`, `absent`, `and`, `or`, `not`,
//! `hasExactly`, `includes`), body patterns (the same, `equalToJson`, `matchesJsonPath`),
//! priorities and ties within a file, scenarios (each group's requests in order), delays
//! and faults; then every mock of the repository answers a request made from each of its
//! stubs.
//!
//! `.ci/run` installs the jar into `target/wiremock/`; `SITEOPS_WIREMOCK_JAR` names another.
//! Without Java or the jar the test is skipped with a message, except in CI.

use std::fmt::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use siteops_mocks::{MockFile, MockRequest, MockSet, Scenarios};
use url::Url;

/// The generator of the cases, seeded so that every run checks the same ones.
type Rng = fastrand::Rng;

use crate::support::repo_root;

/// The cases of the generated part: each a group of stubs with its own path prefix, and
/// requests against it.
const GROUPS: usize = 250;
const REQUESTS_PER_GROUP: usize = 10;

/// What [`jar`] looks for, as a skipped test says it.
pub(crate) const WIREMOCK_MISSING: &str =
    "Java and WireMock's jar (SITEOPS_WIREMOCK_JAR, or target/wiremock as .ci/run installs it)";

pub(crate) fn jar() -> Option<PathBuf> {
    let jar = std::env::var_os("SITEOPS_WIREMOCK_JAR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            repo_root().join("target/wiremock/package/build/wiremock-standalone-3.13.2.jar")
        });
    let java = Command::new("java").arg("-version").output();
    (jar.is_file() && java.is_ok_and(|o| o.status.success())).then_some(jar)
}

/// A WireMock process on a free loopback port, serving `root` (its `mappings/` and
/// `__files/`), stopped on drop.
pub(crate) struct WireMock {
    child: Child,
    pub(crate) port: u16,
}

impl WireMock {
    async fn start(jar: &Path, root: &Path) -> WireMock {
        WireMock::start_with(jar, root, &["--no-request-journal"]).await
    }

    /// [`WireMock::start`] with more of its command-line options.
    pub(crate) async fn start_with(jar: &Path, root: &Path, options: &[&str]) -> WireMock {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("java")
            .arg("-jar")
            .arg(jar)
            .args(["--port", &port.to_string(), "--bind-address", "127.0.0.1"])
            .arg("--root-dir")
            .arg(root)
            .arg("--disable-banner")
            .args(options)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("java starts");
        let wiremock = WireMock { child, port };
        let deadline = Instant::now() + Duration::from_secs(90);
        let client = reqwest::Client::new();
        loop {
            let health = client
                .get(format!("http://127.0.0.1:{port}/__admin/mappings?limit=1"))
                .send()
                .await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return wiremock;
            }
            assert!(Instant::now() < deadline, "WireMock did not start");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Reloads the mappings from the root directory (after its files changed), scenarios
    /// from their start.
    async fn reload(&self) {
        for admin in ["mappings/reset", "scenarios/reset"] {
            let reset = reqwest::Client::new()
                .post(format!("http://127.0.0.1:{}/__admin/{admin}", self.port))
                .send()
                .await
                .expect("reset");
            assert!(reset.status().is_success());
        }
    }
}

impl Drop for WireMock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request of a case: method, path and query, headers, body; requests of one group
/// go in order (their scenarios move on), groups side by side.
struct Probe {
    group: usize,
    method: String,
    path_and_query: String,
    headers: Vec<(String, String)>,
    body: String,
}

/// Sends `probe` to WireMock and asks siteops' mocks (moving `scenarios` on as WireMock
/// moves its own); the difference, if any.
async fn compare(
    client: &reqwest::Client,
    port: u16,
    mocks: &MockSet,
    scenarios: &mut Scenarios,
    probe: &Probe,
) -> Option<String> {
    let address = format!("http://127.0.0.1:{port}{}", probe.path_and_query);
    let mut request = client.request(
        reqwest::Method::from_bytes(probe.method.as_bytes()).expect("a method"),
        &address,
    );
    for (name, value) in &probe.headers {
        request = request.header(name, value);
    }
    if !probe.body.is_empty() {
        request = request.body(probe.body.clone());
    }
    let url = Url::parse(&address).expect("a URL");
    let ours = mocks.answer(
        &MockRequest {
            method: &probe.method,
            url: &url,
            headers: probe.headers.clone(),
            body: probe.body.as_bytes(),
        },
        scenarios,
    );
    if let Ok(stub) = &ours {
        tally(stub);
    }
    let what = format!(
        "{} {} {:?} {:?}",
        probe.method, probe.path_and_query, probe.headers, probe.body
    );
    let started = Instant::now();
    let sent = request.send().await;
    let (status, stub_id, headers, body) = match sent {
        Ok(answer) => {
            let status = answer.status().as_u16();
            let stub_id = answer_id(answer.headers());
            let headers = answer.headers().clone();
            match answer.bytes().await {
                Ok(body) => (status, stub_id, headers, body.to_vec()),
                Err(error) => return faulted(&what, ours.ok(), &error),
            }
        }
        Err(error) => return faulted(&what, ours.ok(), &error),
    };
    if let Ok(stub) = &ours {
        if let Some(fault) = stub.response.fault {
            return Some(format!(
                "{what}: siteops `{}` faults with {}, WireMock answered {status}",
                stub.name,
                fault.name()
            ));
        }
        if let Some(delay) = stub.response.delay
            && started.elapsed() < delay
        {
            return Some(format!(
                "{what}: `{}` waits {delay:?}, WireMock answered in {:?}",
                stub.name,
                started.elapsed()
            ));
        }
    }
    match (ours, stub_id) {
        (Err(_), None) if status == 404 => None,
        (Err(miss), _) => Some(format!(
            "{what}: WireMock answered {status} (stub {:?}), siteops matched nothing ({miss})",
            answer_id(&headers)
        )),
        (Ok(stub), None) => Some(format!(
            "{what}: siteops matched `{}`, WireMock nothing ({status})",
            stub.name
        )),
        (Ok(stub), Some(id)) => {
            let mut problems = String::new();
            if stub.name != id {
                let _ = write!(problems, " stub: siteops `{}`, WireMock `{id}`;", stub.name);
            }
            if stub.response.status != status {
                let _ = write!(
                    problems,
                    " status: siteops {}, WireMock {status};",
                    stub.response.status
                );
            }
            // An absolute body file: WireMock's error page names its root directory.
            if stub.response.status != 500 && stub.response.body != body {
                let _ = write!(problems, " body differs;");
            }
            for (name, value) in &stub.response.headers {
                let theirs: Vec<&str> = headers
                    .get_all(name.as_str())
                    .iter()
                    .filter_map(|v| v.to_str().ok())
                    .collect();
                if stub.response.status != 500 && !theirs.contains(&value.as_str()) {
                    let _ = write!(problems, " header {name}: {value:?} not in {theirs:?};");
                }
            }
            if headers.get("content-type").is_some()
                && !stub
                    .response
                    .headers
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
                && stub.response.status != 500
            {
                let _ = write!(problems, " WireMock adds a Content-Type siteops does not;");
            }
            (!problems.is_empty()).then(|| format!("{what}:{problems}"))
        }
    }
}

/// How many answers came from stubs with each feature: the generated cases must reach
/// them all, or the comparison proves little.
static FEATURES: std::sync::Mutex<std::collections::BTreeMap<&'static str, usize>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

fn tally(stub: &siteops_mocks::Stub) {
    use siteops_mocks::{StringMatch, UrlMatch, ValuesMatch};
    let pattern = &stub.request;
    let logical = |m: &StringMatch| {
        matches!(
            m,
            StringMatch::And(_) | StringMatch::Or(_) | StringMatch::Not(_)
        )
    };
    let json = |m: &StringMatch| {
        matches!(
            m,
            StringMatch::EqualToJson(_) | StringMatch::MatchesJsonPath(_)
        )
    };
    let features = [
        ("bodyPatterns", !pattern.body.is_empty()),
        ("JSON body matchers", pattern.body.iter().any(json)),
        ("scenarios", stub.scenario.is_some()),
        ("faults", stub.response.fault.is_some()),
        ("delays", stub.response.delay.is_some()),
        (
            "urlPathTemplate",
            matches!(pattern.url, UrlMatch::PathTemplate(_)),
        ),
        ("pathParameters", !pattern.path_parameters.is_empty()),
        ("host", pattern.host.is_some()),
        (
            "and, or, not",
            pattern
                .headers
                .iter()
                .chain(&pattern.query)
                .any(|(_, m)| matches!(m, ValuesMatch::Any(m) if logical(m))),
        ),
    ];
    let mut counts = FEATURES.lock().unwrap_or_else(|p| p.into_inner());
    for (name, used) in features {
        *counts.entry(name).or_default() += usize::from(used);
    }
}

/// A request that WireMock failed on purpose (or not): right only where siteops' stub has a
/// fault.
fn faulted(
    what: &str,
    ours: Option<&siteops_mocks::Stub>,
    error: &reqwest::Error,
) -> Option<String> {
    match ours {
        Some(stub) if stub.response.fault.is_some() => None,
        Some(stub) => Some(format!(
            "{what}: WireMock failed ({error}), siteops answers with `{}`",
            stub.name
        )),
        None => Some(format!(
            "{what}: WireMock failed ({error}), siteops matched nothing"
        )),
    }
}

/// [`compare`] over every probe, eight groups in flight, each group's probes in order; the
/// differences in probe order.
async fn compare_all(
    client: &reqwest::Client,
    wiremock: &WireMock,
    mocks: MockSet,
    probes: Vec<Probe>,
) -> Vec<String> {
    let mocks = std::sync::Arc::new(mocks);
    let probes = std::sync::Arc::new(probes);
    let lanes = 8;
    let mut tasks = tokio::task::JoinSet::new();
    for lane in 0..lanes {
        let (client, mocks, probes) = (client.clone(), mocks.clone(), probes.clone());
        let port = wiremock.port;
        tasks.spawn(async move {
            let mut found = Vec::new();
            // Groups never share a scenario, so one lane's states are theirs alone.
            let mut scenarios = Scenarios::default();
            for (index, probe) in probes.iter().enumerate() {
                if probe.group % lanes != lane {
                    continue;
                }
                if let Some(difference) =
                    compare(&client, port, &mocks, &mut scenarios, probe).await
                {
                    found.push((index, difference));
                }
            }
            found
        });
    }
    let mut found: Vec<(usize, String)> = tasks.join_all().await.into_iter().flatten().collect();
    found.sort();
    found
        .into_iter()
        .map(|(_, difference)| difference)
        .collect()
}

fn answer_id(headers: &reqwest::header::HeaderMap) -> Option<String> {
    headers
        .get("matched-stub-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// A pick from `items`.
fn pick<T: Clone>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.usize(..items.len())].clone()
}

/// A string matcher of WireMock's JSON; `depth` more levels of `and`, `or` and `not`.
fn string_matcher(rng: &mut Rng, depth: usize) -> Value {
    match rng.usize(..if depth == 0 { 7 } else { 10 }) {
        0 => json!({"equalTo": pick(rng, &["v", "V", "w"])}),
        1 => json!({"equalTo": "v", "caseInsensitive": true}),
        2 => json!({"contains": pick(rng, &["v", "z"])}),
        3 => json!({"matches": pick(rng, &["v.*", "[vw]", "z+"])}),
        4 => json!({"doesNotMatch": pick(rng, &["v.*", "z+"])}),
        5 => json!({"absent": true}),
        6 => json!({"equalTo": pick(rng, &["1", "2"])}),
        7 => json!({"not": string_matcher(rng, depth - 1)}),
        operator => {
            let operands: Vec<Value> = (0..2 + rng.usize(..2))
                .map(|_| string_matcher(rng, depth - 1))
                .collect();
            json!({(if operator == 8 { "and" } else { "or" }): operands})
        }
    }
}

/// A matcher of a header or query parameter: mostly one string matcher, sometimes
/// `hasExactly` or `includes`.
fn values_matcher(rng: &mut Rng) -> Value {
    match rng.usize(..6) {
        0 => {
            let list: Vec<Value> = (0..1 + rng.usize(..2))
                .map(|_| json!({"equalTo": pick(rng, &["1", "2", "v"])}))
                .collect();
            json!({"hasExactly": list})
        }
        1 => {
            let list: Vec<Value> = (0..1 + rng.usize(..2))
                .map(|_| json!({"equalTo": pick(rng, &["1", "2", "v"])}))
                .collect();
            json!({"includes": list})
        }
        _ => string_matcher(rng, 1),
    }
}

/// The bodies requests carry (the first: none).
const BODIES: [&str; 9] = [
    "",
    r#"{"a": 1, "b": ["x", "y"]}"#,
    r#"{"b": ["y", "x"], "a": 1.0}"#,
    r#"{"a": "s", "c": 2, "b": ["x", "y", "z"]}"#,
    r#"{"name": "A kettle", "items": [{"price": 12}, {"price": 8}]}"#,
    r#"{"items": [], "a": true}"#,
    "[2, 1]",
    "not json: a kettle",
    "<a>1</a>",
];

/// A body pattern: a string matcher, `equalToJson` with its options, or `matchesJsonPath`
/// alone or with a matcher of what it finds.
fn body_matcher(rng: &mut Rng) -> Value {
    match rng.usize(..6) {
        0 => json!({"equalTo": pick(rng, &BODIES[1..])}),
        1 => json!({"contains": pick(rng, &["kettle", "\"a\"", "x"])}),
        2 => json!({"matches": pick(rng, &[".*price.*", "\\[.*"])}),
        3 => {
            let mut matcher = json!({"equalToJson": pick(rng, &[
                json!({"a": 1, "b": ["x", "y"]}),
                json!(r#"{"b": ["x", "y"], "a": 1}"#),
                json!({"a": "${json-unit.any-string}"}),
                json!({"a": "${json-unit.ignore}", "c": 2}),
                json!({"a": "${json-unit.any-number}", "b": ["x"]}),
                json!([1, 2]),
                json!({"items": []}),
            ])});
            for option in ["ignoreArrayOrder", "ignoreExtraElements"] {
                if rng.bool() {
                    matcher[option] = json!(rng.bool());
                }
            }
            matcher
        }
        4 => json!({"matchesJsonPath": pick(rng, &[
            "$.a", "$.items", "$.items[*]", "$.items[?(@.price > 10)]", "$.b[0]", "$.missing",
            "$", "$..price", "$[0]",
        ])}),
        _ => {
            let mut matcher = pick(
                rng,
                &[
                    json!({"equalTo": "1"}),
                    json!({"equalTo": "1.0"}),
                    json!({"equalTo": "x"}),
                    json!({"equalTo": "12"}),
                    json!({"contains": "price"}),
                    json!({"absent": true}),
                    json!({"equalToJson": {"price": 12}}),
                    json!({"not": {"equalTo": "x"}}),
                ],
            );
            matcher["expression"] = json!(pick(
                rng,
                &[
                    "$.a",
                    "$.b",
                    "$.b[0]",
                    "$.items[*].price",
                    "$.items[0]",
                    "$.missing",
                    "$.name"
                ]
            ));
            json!({"matchesJsonPath": matcher})
        }
    }
}

/// Group `g`'s stubs (in one file, so that ties are decided the same way in both) and
/// requests.
fn generated_group(rng: &mut Rng, g: usize) -> (Value, Vec<Probe>) {
    let prefix = format!("/g{g}");
    let scenario = rng.usize(..4) == 0;
    let stubs: Vec<Value> = (0..1 + rng.usize(..5))
        .map(|k| {
            let id = format!("00000000-0000-4000-8000-{g:06}{k:06}");
            let mut request = serde_json::Map::new();
            // Half of the stubs try one feature (bodies, faults, delays, templates) with
            // few other conditions, so that requests reach it.
            let focused = rng.bool();
            match if focused { 1 } else { rng.usize(..6) } {
                0 => {}
                1 => {
                    request.insert("method".into(), json!("ANY"));
                }
                2 => {
                    request.insert("method".into(), json!("get"));
                }
                3 => {
                    request.insert("method".into(), json!("POST"));
                }
                _ => {
                    request.insert("method".into(), json!("GET"));
                }
            }
            let (key, url) = pick(
                rng,
                &[
                    ("url", format!("{prefix}/a?x=1")),
                    ("url", format!("{prefix}/a")),
                    ("urlPath", format!("{prefix}/a")),
                    ("urlPattern", format!("{prefix}/[ab].*")),
                    ("urlPathPattern", format!("{prefix}/a.*")),
                    ("urlPathTemplate", format!("{prefix}/{{first}}/c")),
                    ("urlPathTemplate", format!("{prefix}/**")),
                ],
            );
            let (key, url) = if focused && rng.bool() {
                ("urlPathTemplate", format!("{prefix}/{{first}}/c"))
            } else {
                (key, url)
            };
            request.insert(key.into(), json!(url));
            if url.ends_with("{first}/c") && (focused || rng.bool()) {
                let matcher = if focused {
                    pick(
                        rng,
                        &[
                            json!({"equalTo": "a"}),
                            json!({"matches": "[ab]"}),
                            json!({"not": {"equalTo": "b"}}),
                            json!({"or": [{"equalTo": "b"}, {"contains": "z"}]}),
                        ],
                    )
                } else {
                    string_matcher(rng, 1)
                };
                request.insert("pathParameters".into(), json!({"first": matcher}));
            }
            if rng.usize(..if focused { 4 } else { 6 }) == 0 {
                request.insert(
                    "host".into(),
                    pick(
                        rng,
                        &[
                            json!({"equalTo": "api.acme.example"}),
                            json!({"equalTo": "API.acme.example", "caseInsensitive": true}),
                            json!({"contains": "acme"}),
                        ],
                    ),
                );
            }
            for (field, names) in [("headers", ["X-A", "X-B"]), ("queryParameters", ["x", "y"])] {
                let count = if focused { 0 } else { rng.usize(..3) };
                if count > 0 {
                    let mut matchers = serde_json::Map::new();
                    for name in names.iter().take(count) {
                        matchers.insert((*name).into(), values_matcher(rng));
                    }
                    request.insert(field.into(), Value::Object(matchers));
                }
            }
            if rng.usize(..if focused { 2 } else { 6 }) == 0 {
                let patterns: Vec<Value> =
                    (0..1 + rng.usize(..2)).map(|_| body_matcher(rng)).collect();
                request.insert("bodyPatterns".into(), json!(patterns));
            }
            let mut stub = json!({
                "id": id,
                "name": id,
                "request": request,
                "response": {
                    "status": pick(rng, &[200, 201, 404, 418, 503]),
                    "body": format!("answer of {id}"),
                    "headers": {"X-Stub": format!("{k}")},
                },
            });
            if rng.usize(..2) == 0 {
                stub["priority"] = json!(1 + rng.usize(..3));
            }
            match rng.usize(..if focused { 8 } else { 40 }) {
                0 => stub["response"]["fixedDelayMilliseconds"] = json!(40),
                1 => {
                    stub["response"]["fault"] = json!(pick(
                        rng,
                        &[
                            "CONNECTION_RESET_BY_PEER",
                            "EMPTY_RESPONSE",
                            "MALFORMED_RESPONSE_CHUNK",
                            "RANDOM_DATA_THEN_CLOSE",
                        ]
                    ))
                }
                _ => {}
            }
            if scenario {
                stub["scenarioName"] = json!(format!("s{g}"));
                if let Some(required) = pick(rng, &[Some("Started"), Some("two"), None]) {
                    stub["requiredScenarioState"] = json!(required);
                }
                if let Some(next) = pick(rng, &[Some("two"), Some("Started"), None]) {
                    stub["newScenarioState"] = json!(next);
                }
            }
            stub
        })
        .collect();
    let probes = (0..REQUESTS_PER_GROUP)
        .map(|_| {
            let path = pick(rng, &["/a", "/b", "/a/c", "/c", "/b/c"]);
            let query = pick(
                rng,
                &[
                    "", "?x=1", "?x=1&x=2", "?x=2", "?y=v", "?x=v&y=1", "?x=2&x=1", "?x=/1",
                ],
            );
            let mut headers = Vec::new();
            for name in ["X-A", "X-B"] {
                for _ in 0..rng.usize(..3) {
                    headers.push((
                        name.to_owned(),
                        pick(rng, &["v", "V", "vz", "zz", "1", "2"]).to_owned(),
                    ));
                }
            }
            if let Some(host) = pick(
                rng,
                &[
                    None,
                    None,
                    Some("api.acme.example"),
                    Some("API.ACME.EXAMPLE"),
                    Some("api.acme.example:8080"),
                ],
            ) {
                headers.push(("Host".to_owned(), host.to_owned()));
            }
            Probe {
                group: g,
                method: pick(rng, &["GET", "GET", "POST", "PUT"]).to_owned(),
                path_and_query: format!("{prefix}{path}{query}"),
                headers,
                body: pick(rng, &BODIES).to_owned(),
            }
        })
        .collect();
    (json!({"mappings": stubs}), probes)
}

/// The files of a mock directory, relative to it.
fn mock_files(dir: &Path) -> Vec<MockFile> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<MockFile>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                out.push(MockFile {
                    path: path
                        .strip_prefix(base)
                        .expect("under the base")
                        .to_string_lossy()
                        .replace('\\', "/"),
                    content: std::fs::read(&path).expect("readable"),
                });
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files);
    files
}

/// Replaces `root`'s files by `files`.
fn install(root: &Path, files: &[MockFile]) {
    for sub in ["mappings", "__files"] {
        let _ = std::fs::remove_dir_all(root.join(sub));
        std::fs::create_dir_all(root.join(sub)).expect("a directory");
    }
    for file in files {
        let path = root.join(&file.path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        std::fs::write(path, &file.content).expect("written");
    }
}

/// A request each stub of a repository mock answers: its method, its URL (an exact one, or
/// a path its pattern takes), and the header and query values its `equalTo` matchers ask.
fn probes_for_stubs(mocks: &MockSet) -> Vec<Probe> {
    use siteops_mocks::{StringMatch, UrlMatch, ValuesMatch};
    mocks
        .stubs()
        .iter()
        .filter_map(|stub| {
            let pattern = &stub.request;
            let mut path_and_query = match &pattern.url {
                UrlMatch::Url(url) | UrlMatch::Path(url) => url.clone(),
                _ => return None,
            };
            let equal = |m: &ValuesMatch| match m {
                ValuesMatch::Any(StringMatch::EqualTo { value, .. }) => Some(value.clone()),
                _ => None,
            };
            let mut query = Vec::new();
            for (name, matcher) in &pattern.query {
                query.push(format!("{name}={}", equal(matcher)?));
            }
            if !query.is_empty() {
                path_and_query.push(if path_and_query.contains('?') {
                    '&'
                } else {
                    '?'
                });
                path_and_query.push_str(&query.join("&"));
            }
            let mut headers = Vec::new();
            for (name, matcher) in &pattern.headers {
                headers.push((name.clone(), equal(matcher)?));
            }
            Some(Probe {
                group: 0,
                method: pattern.method.clone().unwrap_or_else(|| "GET".into()),
                path_and_query,
                headers,
                body: String::new(),
            })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mocks_answer_as_wiremock_does() {
    let Some(jar) = siteops_testkit::or_skip(jar(), WIREMOCK_MISSING) else {
        return;
    };
    siteops_plan::http::install_crypto_provider();
    let root = tempfile::tempdir().expect("a root");
    // Another seed explores other cases: SITEOPS_WIREMOCK_SEED=n.
    let seed = std::env::var("SITEOPS_WIREMOCK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x2545_F491_4F6C_DD1D);
    let mut rng = Rng::with_seed(seed);
    let mut files = Vec::new();
    let mut probes = Vec::new();
    for g in 0..GROUPS {
        let (mappings, group_probes) = generated_group(&mut rng, g);
        files.push(MockFile {
            path: format!("mappings/g{g}.json"),
            content: serde_json::to_vec_pretty(&mappings).expect("JSON"),
        });
        probes.extend(group_probes);
    }
    install(root.path(), &files);
    let wiremock = WireMock::start(&jar, root.path()).await;
    // A connection of its own for each request: WireMock (Jetty) keeps the host of a
    // connection's first request for the ones after it, which siteops, whose requests never
    // carry a `Host` of their own, has no reason to copy.
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("a client");
    let mocks = MockSet::from_files("generated", &files).expect("the generated stubs parse");
    let generated = probes.len();
    let mut differences = compare_all(&client, &wiremock, mocks, probes).await;
    let features = FEATURES.lock().unwrap_or_else(|p| p.into_inner()).clone();
    println!("answers from stubs with: {features:?}");
    for (feature, answers) in &features {
        assert!(*answers >= 10, "only {answers} answers exercise {feature}");
    }
    let generated_files = files;

    // Every mock directory of the repository, one after another in the same WireMock.
    let mut repository = 0;
    let mut dirs: Vec<PathBuf> = ["sites", "golden"]
        .iter()
        .flat_map(|top| {
            walk_dirs(&repo_root().join(top))
                .into_iter()
                .filter(|d| d.ends_with("mocks"))
        })
        .collect();
    dirs.sort();
    assert!(
        dirs.len() >= 5,
        "the repository's mock directories: {dirs:?}"
    );
    for dir in &dirs {
        let files = mock_files(dir);
        let mocks = MockSet::from_files(&dir.display().to_string(), &files)
            .unwrap_or_else(|e| panic!("{e:?}"));
        install(root.path(), &files);
        wiremock.reload().await;
        let probes = probes_for_stubs(&mocks);
        repository += probes.len();
        differences.extend(compare_all(&client, &wiremock, mocks, probes).await);
    }
    println!("{generated} generated requests and {repository} from the repository's stubs");
    assert!(
        generated >= 2_000 && repository >= 20,
        "{generated}, {repository}"
    );
    if !differences.is_empty() {
        // The generated stubs stay for a look (the root holds the last repository mocks).
        let kept = repo_root().join("target/wiremock-diff");
        let _ = std::fs::remove_dir_all(&kept);
        install(&kept, &generated_files);
        panic!(
            "{} differences (the generated stubs are in {}):\n{}",
            differences.len(),
            kept.display(),
            differences.join("\n")
        );
    }
}

fn walk_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.push(path.clone());
                out.extend(walk_dirs(&path));
            }
        }
    }
    out
}
