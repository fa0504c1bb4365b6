//! Project tasks, run as `cargo xtask <task>`. Standard library only, so it builds in
//! seconds: each task runs cargo (and through it, siteops) as a subprocess.

mod diff_fuzz;

use std::env;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  schema        regenerate the JSON schemas in schemas/ from the Rust types
  bench [NAME]  run the benchmarks, or one (fleet, plan, render, worker_load, ingest,
                code_reload) (release build)
  bench-render  the render benchmark, then mustache.js on the same template and data
                (needs node and npm; installs mustache@4.2.0 into target/bench-render)
  diff-fuzz [--budget SECS] [--seed N] [--out DIR] [--max N]
                random and mutated pages through siteops and the reference
                implementations (../shared/anchors); each difference shrunk and written
                as a fixture in tests/fixtures/differential
  ci            what .ci/run does: format check, clippy, tests
  plan [ARGS]   siteops plan (release build) against SITEOPS_ADMIN_URL with
                SITEOPS_ADMIN_TOKEN (worker: SITEOPS_TRANSFORM_URL); ARGS are passed on
  apply [ARGS]  siteops apply --yes, the same way (what CI runs on the main branch)";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("schema") => siteops(&["schema"]),
        Some("bench") => bench(args.get(1).map(String::as_str)),
        Some("bench-render") => bench_render(),
        // siteops' own exit code passes through: 2 is "changes present".
        Some("plan") => return remote("plan", &[], &args[1..]),
        Some("apply") => return remote("apply", &["--yes"], &args[1..]),
        Some("ci") => ci(),
        Some("diff-fuzz") => diff_fuzz::run(&args[1..], &root(), || {
            cargo(&["build", "--release", "--bin", "siteops"])
        }),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn ci() -> Result<(), String> {
    cargo(&["fmt", "--all", "--", "--check"])?;
    cargo(&[
        "clippy",
        "--all-targets",
        "--locked",
        "--",
        "-D",
        "warnings",
    ])?;
    cargo(&["test", "--locked"])
}

/// Times our renderer, then mustache.js on the inputs it wrote, and checks both outputs
/// are identical.
fn bench_render() -> Result<(), String> {
    cargo(&["bench", "--bench", "render"])?;
    let dir = root().join("target/bench-render");
    if !dir.join("node_modules/mustache").exists() {
        run(Command::new("npm")
            .args(["install", "--no-save", "--prefix"])
            .arg(&dir)
            .arg("mustache@4.2.0"))?;
    }
    run(Command::new("node")
        .arg(root().join("benches/render/mustache-js.mjs"))
        .arg(&dir))
}

fn run(command: &mut Command) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed ({status})"))
    }
}

fn bench(name: Option<&str>) -> Result<(), String> {
    match name {
        None => cargo(&["bench"]),
        Some("fleet") => cargo(&["bench", "--bench", "fleet"]),
        Some("plan" | "apply" | "plan_apply") => cargo(&["bench", "--bench", "plan_apply"]),
        Some("render") => cargo(&["bench", "--bench", "render"]),
        Some("worker_load" | "load") => cargo(&["bench", "--bench", "worker_load"]),
        Some("ingest") => cargo(&["bench", "--bench", "ingest"]),
        Some("code_reload" | "code") => cargo(&["bench", "--bench", "code_reload"]),
        Some(other) => Err(format!(
            "no benchmark `{other}`: fleet, plan, render, worker_load, ingest or code_reload"
        )),
    }
}

/// `siteops plan|apply` from a release build, on the repository root, against the
/// services the environment names. The token stays in the environment: it is never put
/// on a command line, where process listings would show it.
fn remote(command: &str, fixed: &[&str], extra: &[String]) -> ExitCode {
    for variable in ["SITEOPS_ADMIN_URL", "SITEOPS_ADMIN_TOKEN"] {
        if env::var_os(variable).is_none_or(|v| v.is_empty()) {
            eprintln!(
                "xtask: set {variable} (SITEOPS_ADMIN_URL: the administration API, such as https://admin.example/admin; SITEOPS_ADMIN_TOKEN: its token)"
            );
            return ExitCode::FAILURE;
        }
    }
    let root = root();
    let Some(root) = root.to_str() else {
        eprintln!("xtask: the workspace path is not UTF-8");
        return ExitCode::FAILURE;
    };
    let mut full = vec![
        "run",
        "--quiet",
        "--release",
        "--locked",
        "--package",
        "siteops",
        "--",
    ];
    full.push(command);
    full.extend_from_slice(&["--root", root]);
    full.extend_from_slice(fixed);
    full.extend(extra.iter().map(String::as_str));
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    match Command::new(&cargo).args(&full).current_dir(root).status() {
        Ok(status) => match status.code() {
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            None => ExitCode::FAILURE,
        },
        Err(error) => {
            eprintln!("xtask: cannot run {cargo}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the siteops binary of this workspace on the repository root.
fn siteops(args: &[&str]) -> Result<(), String> {
    let root = root();
    let root = root.to_str().ok_or("the workspace path is not UTF-8")?;
    let mut full = vec!["run", "--quiet", "--package", "siteops", "--"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["--root", root]);
    cargo(&full)
}

fn cargo(args: &[&str]) -> Result<(), String> {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let status = Command::new(&cargo)
        .args(args)
        .current_dir(root())
        .status()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

/// The workspace root: the parent of this crate's directory.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."))
}
