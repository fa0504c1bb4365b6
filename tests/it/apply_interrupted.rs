//! `siteops apply` interrupted part-way, over a real process: the bundled service behind a
//! proxy on loopback that holds each write until the test lets it go, so that Ctrl-C (or
//! SIGTERM) lands while a known change is in flight. The interrupted apply finishes that
//! change, starts no other, says which were applied and which not, and exits 130; the
//! service holds what it says; a plan then shows the rest, and an apply finishes them.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::Response;
use siteops_plan::remote::{Location, Service};
use tokio::sync::{Semaphore, mpsc};

use crate::plan_apply::{Fixture, Run, siteops_command};

/// The longest any one wait of these tests lasts.
const PATIENCE: Duration = Duration::from_secs(60);

/// What the proxy shares with its handler.
struct Gate {
    upstream: String,
    client: reqwest::Client,
    /// Each write as it arrives (`POST /admin/config/acme.json`), before it is held.
    arrived: mpsc::UnboundedSender<String>,
    /// A write goes on with a permit, which it keeps.
    open: Semaphore,
}

/// Forwards every request to the service; a write (POST, PUT, DELETE) waits for the test.
struct Proxy {
    url: String,
    gate: Arc<Gate>,
    arrived: mpsc::UnboundedReceiver<String>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    async fn start(upstream: String) -> Proxy {
        let (sender, arrived) = mpsc::unbounded_channel();
        let gate = Arc::new(Gate {
            upstream,
            client: reqwest::Client::new(),
            arrived: sender,
            open: Semaphore::new(0),
        });
        let app = axum::Router::new()
            .fallback(forward)
            .with_state(gate.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let url = format!("http://{}", listener.local_addr().expect("bound"));
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("the proxy serves");
        });
        Proxy {
            url,
            gate,
            arrived,
            task,
        }
    }

    /// The next write to arrive, held.
    async fn next_write(&mut self) -> String {
        tokio::time::timeout(PATIENCE, self.arrived.recv())
            .await
            .expect("a write arrives in time")
            .expect("the proxy runs")
    }

    /// Lets `writes` held or future writes go on.
    fn release(&self, writes: usize) {
        self.gate.open.add_permits(writes);
    }

    /// Lets every write go on from now on.
    fn open(&self) {
        self.gate.open.add_permits(Semaphore::MAX_PERMITS / 2);
    }

    /// The writes that arrived and were not yet taken by [`Proxy::next_write`].
    fn more_writes(&mut self) -> Vec<String> {
        std::iter::from_fn(|| self.arrived.try_recv().ok()).collect()
    }

    /// `siteops <command> --root … --admin … --transform-url …` through the proxy, so that
    /// the plan compiles the same worker address as the interrupted apply.
    fn args(&self, f: &Fixture, command: &str, more: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = vec![
            command.into(),
            "--root".into(),
            f.root.display().to_string(),
            "--admin".into(),
            format!("{}/admin", self.url),
            "--transform-url".into(),
            format!("{}/transform", self.url),
        ];
        args.extend(more.iter().map(|a| a.to_string()));
        args
    }

    /// Runs `siteops` to its end through the proxy (whose writes must be open).
    async fn siteops(&self, f: &Fixture, command: &str, more: &[&str]) -> Run {
        let args = self.args(f, command, more);
        let token = f.token.clone();
        let output = tokio::task::spawn_blocking(move || {
            siteops_command(&args)
                .env("SITEOPS_ADMIN_TOKEN", token)
                .output()
                .expect("siteops runs")
        })
        .await
        .expect("the run finishes");
        Run::of(&output)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn forward(State(gate): State<Arc<Gate>>, request: Request) -> Response {
    let method = request.method().clone();
    let target = (request.uri().path_and_query())
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    if matches!(method.as_str(), "POST" | "PUT" | "DELETE" | "PATCH") {
        let path = target.split('?').next().unwrap_or_default();
        let _ = gate.arrived.send(format!("{method} {path}"));
        gate.open.acquire().await.expect("never closed").forget();
    }
    let mut headers = request.headers().clone();
    for name in ["host", "content-length", "connection", "transfer-encoding"] {
        headers.remove(name);
    }
    let body = axum::body::to_bytes(request.into_body(), 16 << 20)
        .await
        .expect("a request body");
    let answer = (gate.client)
        .request(method, format!("{}{target}", gate.upstream))
        .headers(headers)
        .body(body)
        .send()
        .await
        .expect("the service answers");
    let mut response = Response::builder().status(answer.status());
    for (name, value) in answer.headers() {
        if !matches!(
            name.as_str(),
            "content-length" | "connection" | "transfer-encoding"
        ) {
            response = response.header(name, value);
        }
    }
    let body = answer.bytes().await.expect("the service's body");
    response.body(Body::from(body)).expect("a response")
}

/// A running `siteops`, its stderr read line by line as it comes.
struct Running {
    child: Child,
    lines: std::sync::mpsc::Receiver<String>,
    stderr: Vec<String>,
    stdout: std::thread::JoinHandle<String>,
}

impl Running {
    fn spawn(args: &[String], token: &str) -> Running {
        let mut child = siteops_command(args)
            .env("SITEOPS_ADMIN_TOKEN", token)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("siteops starts");
        let (sender, lines) = std::sync::mpsc::channel();
        let stderr = child.stderr.take().expect("piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut stdout = child.stdout.take().expect("piped");
        let stdout = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stdout.read_to_string(&mut text);
            text
        });
        Running {
            child,
            lines,
            stderr: Vec::new(),
            stdout,
        }
    }

    /// Sends `signal` (`INT`, `TERM`) to the process.
    fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -{signal}");
    }

    /// Reads stderr until a line holds `text`.
    async fn wait_for_line(&mut self, text: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            while let Ok(line) = self.lines.try_recv() {
                let found = line.contains(text);
                self.stderr.push(line);
                if found {
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "no line with `{text}` on stderr:\n{}",
                self.stderr.join("\n")
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits for the process to end: its exit code, stdout and stderr.
    async fn finish(mut self) -> Run {
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("a status") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "siteops did not end:\n{}",
                self.stderr.join("\n")
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        // The reader ends at the pipe's end, which follows the exit.
        let stderr_deadline = Instant::now() + PATIENCE;
        loop {
            match self.lines.recv_timeout(Duration::from_millis(100)) {
                Ok(line) => self.stderr.push(line),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    assert!(Instant::now() < stderr_deadline, "stderr stays open");
                }
            }
        }
        let stdout = std::mem::replace(&mut self.stdout, std::thread::spawn(String::new));
        Run {
            code: status.code(),
            stdout: stdout.join().expect("stdout read"),
            stderr: std::mem::take(&mut self.stderr).join("\n"),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // A test that failed part-way leaves no process behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The addresses listed under `heading:` in an interrupted apply's summary, each with what
/// follows it on its line.
fn listed(stderr: &str, heading: &str) -> Vec<(String, String)> {
    let mut lines = stderr.lines().skip_while(|line| *line != heading).skip(1);
    std::iter::from_fn(|| lines.next().filter(|line| line.starts_with("  ")))
        .map(|line| {
            let mut words = line.split_whitespace().skip(1);
            let address = words.next().unwrap_or_default().to_string();
            (address, words.collect::<Vec<_>>().join(" "))
        })
        .collect()
}

/// The addresses a plan's text creates (`+ create  <address>`).
fn created(plan: &str) -> BTreeSet<String> {
    (plan.lines())
        .filter_map(|line| line.strip_prefix("+ create"))
        .map(|address| address.trim().to_string())
        .collect()
}

/// Whether the service holds the resource at `address` (of the copy's compiled ones).
async fn held(f: &Fixture, transform_url: &str, address: &str) -> bool {
    let compiled = f.compiled(transform_url);
    let resource = (compiled.resources.iter())
        .find(|resource| resource.path() == address)
        .unwrap_or_else(|| panic!("{address} is no compiled resource"));
    let location = Location::of(&resource.owner, &resource.kind);
    let url = match location.service {
        Service::Admin => format!("{}/{}", f.admin_url(), location.path),
        Service::Worker => f.server.url(&format!("/transform/{}", location.path)),
    };
    let answer = (f.server.client.get(&url))
        .header("x-auth-token", &f.token)
        .send()
        .await
        .expect("answered");
    match answer.status().as_u16() {
        200 => true,
        404 => false,
        status => panic!("GET {url}: {status}"),
    }
}

#[tokio::test]
async fn ctrl_c_finishes_the_change_in_flight_and_says_what_was_applied_and_what_not() {
    let f = Fixture::start().await;
    let mut proxy = Proxy::start(f.server.url("")).await;
    let transform_url = format!("{}/transform", proxy.url);
    // One change at a time, so that the one in flight is the held write.
    let args = proxy.args(&f, "apply", &["--yes", "--concurrency", "1"]);
    let mut apply = Running::spawn(&args, &f.token);
    let first = proxy.next_write().await;
    proxy.release(1);
    let second = proxy.next_write().await;
    apply.signal("INT");
    apply
        .wait_for_line("interrupted: finishing the changes in flight and starting no more")
        .await;
    proxy.release(1);
    let run = apply.finish().await;
    assert_eq!(run.code, Some(130), "{}", run.stderr);
    // The held write finished; nothing started after it.
    assert_eq!(
        proxy.more_writes(),
        Vec::<String>::new(),
        "after {first}, {second}"
    );

    assert!(
        run.stderr
            .contains("\ninterrupted: 2 of 14 changes applied, 12 not applied\napplied:\n"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.ends_with(
            "Run `siteops plan` to see what remains, and `siteops apply` again to finish: it picks up where this one stopped."
        ),
        "{}",
        run.stderr
    );
    let applied = listed(&run.stderr, "applied:");
    let not_applied = listed(&run.stderr, "not applied:");
    assert_eq!(
        (applied.len(), not_applied.len()),
        (2, 12),
        "{}",
        run.stderr
    );
    for (address, why) in &applied {
        assert_eq!(why, "", "{address}");
        // The worker's address has `.json` added to its path.
        let bare = format!("/{}", address.trim_end_matches(".json"));
        assert!(
            [&first, &second]
                .iter()
                .any(|write| write.trim_end_matches(".json").ends_with(&bare)),
            "{address} is neither {first} nor {second}"
        );
    }
    for (address, why) in &not_applied {
        assert_eq!(why, "(not started)", "{address}");
    }

    // The service holds what the report says was applied, and none of the rest.
    for (address, _) in &applied {
        assert!(held(&f, &transform_url, address).await, "{address}");
    }
    let documents = (not_applied.iter())
        .map(|(address, _)| address)
        .filter(|address| !address.contains("/secrets/") && !address.ends_with("/public.json"));
    for address in documents {
        assert!(!held(&f, &transform_url, address).await, "{address}");
    }

    // A plan shows exactly the changes not applied; an apply finishes them.
    proxy.open();
    let plan = proxy
        .siteops(&f, "plan", &["--detailed-exitcode"])
        .await
        .expect(2);
    let not_applied: BTreeSet<String> = not_applied.into_iter().map(|(a, _)| a).collect();
    assert_eq!(created(&plan.stdout), not_applied, "{}", plan.stdout);
    assert!(
        plan.stdout
            .ends_with("\nPlan: 12 to create, 0 to update, 0 to delete.\n"),
        "{}",
        plan.stdout
    );
    let again = proxy.siteops(&f, "apply", &["--yes"]).await.expect(0);
    assert!(
        again
            .stdout
            .ends_with("\nApply complete: 12 created, 0 updated, 0 deleted.\n"),
        "{}",
        again.stdout
    );
    let plan = proxy
        .siteops(&f, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert!(plan.stdout.ends_with("No changes.\n"), "{}", plan.stdout);
}

#[tokio::test]
async fn a_second_interrupt_stops_at_once_and_a_run_again_converges() {
    let f = Fixture::start().await;
    let mut proxy = Proxy::start(f.server.url("")).await;
    let args = proxy.args(&f, "apply", &["--yes", "--concurrency", "1"]);
    let mut apply = Running::spawn(&args, &f.token);
    proxy.next_write().await;
    // SIGTERM (a CI runner's cancel) is taken as Ctrl-C.
    apply.signal("TERM");
    apply
        .wait_for_line("interrupted: finishing the changes in flight and starting no more")
        .await;
    apply.signal("INT");
    // The write stays held: apply does not wait for it.
    let run = apply.finish().await;
    assert_eq!(run.code, Some(130), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "\ninterrupted again: stopped at once: 0 of 14 changes applied; of the other 14, those in flight may or may not have been made\n"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.ends_with(
            "Run `siteops plan` to see what remains, and `siteops apply` again to finish: it picks up where this one stopped."
        ),
        "{}",
        run.stderr
    );

    // Whether the abandoned write reached the service or not, a run again converges.
    proxy.open();
    proxy.siteops(&f, "apply", &["--yes"]).await.expect(0);
    let plan = proxy
        .siteops(&f, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert!(plan.stdout.ends_with("No changes.\n"), "{}", plan.stdout);
}

/// The engine itself: a stop asked before the first change starts none, and says so of
/// each; the same plan run again without a stop makes them all.
#[tokio::test]
async fn a_stopped_engine_starts_no_change_and_reports_each_not_started() {
    use std::sync::atomic::AtomicBool;

    use siteops_plan::apply::{self, ApplyOptions, Outcome};
    use siteops_plan::plan::{PlanSettings, diff};
    use siteops_plan::remote::{Client, ClientOptions, Endpoints, Token, live};

    let f = Fixture::start().await;
    let endpoints = Endpoints {
        admin: f.admin_url(),
        worker: Some(f.worker_url()),
    };
    let client =
        Client::new(endpoints, &Token::new(&f.token), &ClientOptions::default()).expect("client");
    let desired = f.compiled(&f.worker_url());
    let state = live::read(&client, &desired, None, 4).await.expect("live");
    let plan = diff(&desired, &state, &PlanSettings::default()).expect("plan");
    assert_eq!(plan.summary.create, 14);
    let options = ApplyOptions {
        made: Some(&apply::Discard),
        ..ApplyOptions::default()
    };

    let report = apply::run_until(&client, &plan, &options, &AtomicBool::new(true))
        .await
        .expect("runs");
    assert!(report.interrupted);
    assert_eq!(report.steps.len(), 14);
    assert!(
        (report.steps.iter()).all(|step| step.outcome == Outcome::Interrupted),
        "{report:?}"
    );
    assert_eq!(f.document("acme.json").await, None, "nothing was written");

    let report = apply::run(&client, &plan, &options).await.expect("runs");
    assert!(!report.interrupted);
    assert!(report.succeeded(), "{}", apply::report::table(&report));
}
