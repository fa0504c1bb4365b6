//! siteops' mocks against real WireMock (the standalone jar of the npm package `wiremock`,
//! on Java): the same mapping files loaded into both, the same requests sent to both,
//! every answer compared (status, body, the stub's headers, and which stub answered).
//!
//! Generated cases cover methods (and their case), URL matchers, header and query
//! matchers (`equalTo` with and without `caseInsensitive`, `contains`, `matches`,
//! `doesNotMatch`, `absent`, `hasExactly`, `includes`), priorities and ties within a file;
//! then every mock of the repository answers a request made from each of its stubs.
//!
//! `.ci/run` installs the jar into `target/wiremock/`; `SITEOPS_WIREMOCK_JAR` names another.
//! Without Java or the jar the test is skipped with a message, except in CI.

use std::fmt::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use siteops::mocks::{MockFile, MockRequest, MockSet};
use url::Url;

/// The generator of the cases, seeded so that every run checks the same ones.
type Rng = fastrand::Rng;

use crate::support::repo_root;

/// The cases of the generated part: each a group of stubs with its own path prefix, and
/// requests against it.
const GROUPS: usize = 250;
const REQUESTS_PER_GROUP: usize = 10;

fn jar() -> Option<PathBuf> {
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
struct WireMock {
    child: Child,
    port: u16,
}

impl WireMock {
    async fn start(jar: &Path, root: &Path) -> WireMock {
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
            .args(["--disable-banner", "--no-request-journal"])
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

    /// Reloads the mappings from the root directory (after its files changed).
    async fn reload(&self) {
        let reset = reqwest::Client::new()
            .post(format!(
                "http://127.0.0.1:{}/__admin/mappings/reset",
                self.port
            ))
            .send()
            .await
            .expect("reset");
        assert!(reset.status().is_success());
    }
}

impl Drop for WireMock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request of a case: method, path and query, headers.
struct Probe {
    method: String,
    path_and_query: String,
    headers: Vec<(String, String)>,
}

/// Sends `probe` to WireMock and asks siteops' matcher; the difference, if any.
async fn compare(
    client: &reqwest::Client,
    port: u16,
    mocks: &MockSet,
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
    let answer = request.send().await.expect("WireMock answers");
    let status = answer.status().as_u16();
    let stub_id = answer
        .headers()
        .get("matched-stub-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let headers = answer.headers().clone();
    let body = answer.bytes().await.expect("a body").to_vec();

    let url = Url::parse(&address).expect("a URL");
    let ours = mocks.find(&MockRequest {
        method: &probe.method,
        url: &url,
        headers: probe.headers.clone(),
    });
    let what = format!(
        "{} {} {:?}",
        probe.method, probe.path_and_query, probe.headers
    );
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

/// [`compare`] over every probe, eight requests in flight; the differences in probe order.
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
            for index in (lane..probes.len()).step_by(lanes) {
                if let Some(difference) = compare(&client, port, &mocks, &probes[index]).await {
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

/// A string matcher of WireMock's JSON.
fn string_matcher(rng: &mut Rng) -> Value {
    match rng.usize(..7) {
        0 => json!({"equalTo": pick(rng, &["v", "V", "w"])}),
        1 => json!({"equalTo": "v", "caseInsensitive": true}),
        2 => json!({"contains": pick(rng, &["v", "z"])}),
        3 => json!({"matches": pick(rng, &["v.*", "[vw]", "z+"])}),
        4 => json!({"doesNotMatch": pick(rng, &["v.*", "z+"])}),
        5 => json!({"absent": true}),
        _ => json!({"equalTo": pick(rng, &["1", "2"])}),
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
        _ => string_matcher(rng),
    }
}

/// Group `g`'s stubs (in one file, so that ties are decided the same way in both) and
/// requests.
fn generated_group(rng: &mut Rng, g: usize) -> (Value, Vec<Probe>) {
    let prefix = format!("/g{g}");
    let stubs: Vec<Value> = (0..1 + rng.usize(..5))
        .map(|k| {
            let id = format!("00000000-0000-4000-8000-{g:06}{k:06}");
            let mut request = serde_json::Map::new();
            match rng.usize(..6) {
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
                ],
            );
            request.insert(key.into(), json!(url));
            for (field, names) in [("headers", ["X-A", "X-B"]), ("queryParameters", ["x", "y"])] {
                let count = rng.usize(..3);
                if count > 0 {
                    let mut matchers = serde_json::Map::new();
                    for name in names.iter().take(count) {
                        matchers.insert((*name).into(), values_matcher(rng));
                    }
                    request.insert(field.into(), Value::Object(matchers));
                }
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
            stub
        })
        .collect();
    let probes = (0..REQUESTS_PER_GROUP)
        .map(|_| {
            let path = pick(rng, &["/a", "/b", "/a/c", "/c"]);
            let query = pick(
                rng,
                &[
                    "", "?x=1", "?x=1&x=2", "?x=2", "?y=v", "?x=v&y=1", "?x=2&x=1",
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
            Probe {
                method: pick(rng, &["GET", "GET", "POST", "PUT"]).to_owned(),
                path_and_query: format!("{prefix}{path}{query}"),
                headers,
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
    use siteops::mocks::{StringMatch, UrlMatch, ValuesMatch};
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
                method: pattern.method.clone().unwrap_or_else(|| "GET".into()),
                path_and_query,
                headers,
            })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mocks_answer_as_wiremock_does() {
    let Some(jar) = jar() else {
        assert!(
            std::env::var("CI").is_err(),
            "CI needs Java and WireMock's jar (.ci/run installs them into target/wiremock)"
        );
        eprintln!("WireMock test skipped: no Java or no jar (see tests/it/wiremock_diff.rs)");
        return;
    };
    siteops::http::install_crypto_provider();
    let root = tempfile::tempdir().expect("a root");
    let mut rng = Rng::with_seed(0x2545_F491_4F6C_DD1D);
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
    let client = reqwest::Client::new();
    let mocks = MockSet::from_files("generated", &files).expect("the generated stubs parse");
    let generated = probes.len();
    let mut differences = compare_all(&client, &wiremock, mocks, probes).await;

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
    assert!(
        differences.is_empty(),
        "{} differences:\n{}",
        differences.len(),
        differences.join("\n")
    );
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
