//! The crate graph is the architecture: the pure crates under `crates/` reach no runtime,
//! no HTTP and no server code, whatever their dependencies pull in. Read from
//! `cargo metadata`, so a new dependency that breaks a wall fails here.

use std::collections::{BTreeSet, HashMap};
use std::process::Command;

use serde_json::Value;

use crate::support::repo_root;

/// Crates that must stay pure, and what none of their dependencies (normal or build,
/// transitively) may be.
const PURE: [&str; 6] = [
    "siteops-config",
    "siteops-ingest",
    "siteops-template",
    "siteops-jsregex",
    "siteops-media",
    "siteops-mocks",
];
const FORBIDDEN: [&str; 7] = [
    "siteops", "tokio", "axum", "reqwest", "hyper", "notify", "mio",
];

fn metadata() -> Value {
    // This machine's platform only: other platforms' crates need not be downloaded.
    let rustc = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string()))
        .arg("-vV")
        .output()
        .expect("rustc runs");
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: ").map(str::to_string))
        .expect("rustc names its host");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--filter-platform",
        ])
        .arg(host)
        .current_dir(repo_root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("metadata is JSON")
}

/// Package names reachable from `id` through normal and build dependencies.
fn reachable(
    id: &str,
    nodes: &HashMap<&str, &Value>,
    names: &HashMap<&str, &str>,
) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![id];
    let mut visited = BTreeSet::new();
    while let Some(id) = stack.pop() {
        if !visited.insert(id) {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().into_iter().flatten() {
            let runtime = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|kind| kind["kind"].as_str() != Some("dev"));
            if !runtime {
                continue;
            }
            let dep_id = dep["pkg"].as_str().expect("pkg id");
            seen.insert(names[dep_id].to_string());
            stack.push(dep_id);
        }
    }
    seen
}

#[test]
fn the_pure_crates_reach_no_runtime_http_or_server_code() {
    let metadata = metadata();
    let names: HashMap<&str, &str> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            (
                p["id"].as_str().expect("id"),
                p["name"].as_str().expect("name"),
            )
        })
        .collect();
    let nodes: HashMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("resolve graph")
        .iter()
        .map(|n| (n["id"].as_str().expect("id"), n))
        .collect();
    for pure in PURE {
        let (id, _) = names
            .iter()
            .find(|(_, name)| **name == pure)
            .unwrap_or_else(|| panic!("{pure} is not in the workspace"));
        let reached = reachable(id, &nodes, &names);
        let broken: Vec<&&str> = FORBIDDEN.iter().filter(|f| reached.contains(**f)).collect();
        assert!(
            broken.is_empty(),
            "{pure} depends on {broken:?}; it must stay a pure crate (see ARCHITECTURE.md)"
        );
    }
    // The check itself can fail: the binary's crate reaches all of them.
    let (siteops, _) = names
        .iter()
        .find(|(_, n)| **n == "siteops")
        .expect("siteops");
    let reached = reachable(siteops, &nodes, &names);
    for crate_name in ["tokio", "axum", "reqwest", "siteops-ingest"] {
        assert!(reached.contains(crate_name), "{crate_name}");
    }
}
