//! The crate graph is the architecture: the pure crates under `crates/` reach no runtime,
//! no HTTP and no server code, and the server no live session, whatever their dependencies
//! pull in. Read from `cargo metadata`, so a new dependency that breaks a wall fails here.

use std::collections::{BTreeSet, HashMap};
use std::process::Command;

use serde_json::Value;

use crate::support::repo_root;

/// The workspace's layers, lowest first: a crate may depend only on crates of lower
/// layers, never on its own layer's or a higher one's.
const LAYERS: [&[&str]; 6] = [
    // The test kit is a dev-dependency only: what tests need from beside a clone.
    &[
        "siteops-jsregex",
        "siteops-template",
        "siteops-media",
        "siteops-testkit",
    ],
    &["siteops-mocks", "siteops-ingest", "siteops-config"],
    &["siteops-plan", "siteops-delivery"],
    &["siteops-server"],
    // The live session plugs into the server (`app::Session`); the server never names it.
    &["siteops-live"],
    // The bench harness is a tool beside the binary: nothing depends on it.
    &["siteops", "siteops-bench"],
];

/// Crates that must stay pure, and what none of their dependencies (normal or build,
/// transitively) may be.
const PURE: [&str; 7] = [
    "siteops-config",
    "siteops-delivery",
    "siteops-ingest",
    "siteops-template",
    "siteops-jsregex",
    "siteops-media",
    "siteops-mocks",
];
const FORBIDDEN: [&str; 7] = [
    "siteops", "tokio", "axum", "reqwest", "hyper", "notify", "mio",
];

/// What the plan crate (a client of the administration API) must not reach: the server
/// side of HTTP, file watching and the page pipeline.
const PLAN_FORBIDDEN: [&str; 4] = ["axum", "notify", "siteops-ingest", "siteops-mocks"];

/// What the server must not reach: the live session, and what only the session needs
/// (file watching, the mocks). `siteops-live` is above it in [`LAYERS`] too; naming it
/// here says why, and holds if the layers are ever rearranged.
const SERVER_FORBIDDEN: [&str; 3] = ["siteops-live", "notify", "siteops-mocks"];

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
    // Offline, the graph needs the sources of every member's dependencies, the tools'
    // (`xtask`, `bench`) too, which `cargo test` without `--workspace` does not download.
    assert!(
        output.status.success(),
        "{}\nThe crate graph reads every workspace member's dependencies: run the README's \
         test command (`cargo test --locked --workspace`), or `cargo fetch --locked` first.",
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

/// Package names by id, and the resolved graph's nodes by id.
struct Graph<'m> {
    names: HashMap<&'m str, &'m str>,
    nodes: HashMap<&'m str, &'m Value>,
}

impl<'m> Graph<'m> {
    fn new(metadata: &'m Value) -> Self {
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
        Graph { names, nodes }
    }

    /// The package names `name` reaches through normal and build dependencies.
    fn reached_from(&self, name: &str) -> BTreeSet<String> {
        let (id, _) = self
            .names
            .iter()
            .find(|(_, n)| **n == name)
            .unwrap_or_else(|| panic!("{name} is not in the workspace"));
        reachable(id, &self.nodes, &self.names)
    }
}

#[test]
fn no_crate_reaches_its_own_layer_or_one_above() {
    let metadata = metadata();
    let graph = Graph::new(&metadata);
    let layer_of = |name: &str| LAYERS.iter().position(|layer| layer.contains(&name));
    let mut checked = 0;
    for (layer, crates) in LAYERS.iter().enumerate() {
        for name in *crates {
            let upward: Vec<String> = graph
                .reached_from(name)
                .into_iter()
                .filter(|dep| layer_of(dep).is_some_and(|l| l >= layer))
                .collect();
            assert!(
                upward.is_empty(),
                "{name} depends on {upward:?}, which are not below it (see ARCHITECTURE.md)"
            );
            checked += 1;
        }
    }
    // Every workspace member is placed in a layer.
    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .expect("members")
        .iter()
        .map(|id| graph.names[id.as_str().expect("id")])
        .filter(|name| *name != "xtask")
        .collect();
    assert_eq!(checked, members.len(), "members: {members:?}");
    // The check itself can fail: the binary reaches crates of every layer below it.
    let reached = graph.reached_from("siteops");
    for name in ["siteops-plan", "siteops-config", "siteops-jsregex"] {
        assert!(reached.contains(name), "{name}");
    }
    // The peers the benchmarks compare with are built in the bench harness only.
    for peer in ["siteops-bench", "htmd", "ramhorns", "markup5ever_rcdom"] {
        assert!(!reached.contains(peer), "the siteops binary reaches {peer}");
    }
    assert!(graph.reached_from("siteops-bench").contains("htmd"));
}

#[test]
fn the_plan_crate_reaches_no_server_or_page_pipeline() {
    let metadata = metadata();
    let graph = Graph::new(&metadata);
    let reached = graph.reached_from("siteops-plan");
    let broken: Vec<&&str> = PLAN_FORBIDDEN
        .iter()
        .filter(|f| reached.contains(**f))
        .collect();
    assert!(broken.is_empty(), "siteops-plan depends on {broken:?}");
    assert!(reached.contains("reqwest"), "the check can fail");
}

#[test]
fn the_pure_crates_reach_no_runtime_http_or_server_code() {
    let metadata = metadata();
    let graph = Graph::new(&metadata);
    for pure in PURE {
        let reached = graph.reached_from(pure);
        let broken: Vec<&&str> = FORBIDDEN.iter().filter(|f| reached.contains(**f)).collect();
        assert!(
            broken.is_empty(),
            "{pure} depends on {broken:?}; it must stay a pure crate (see ARCHITECTURE.md)"
        );
    }
    // The check itself can fail: the binary's crate reaches all of them.
    let reached = graph.reached_from("siteops");
    for crate_name in ["tokio", "axum", "reqwest", "siteops-ingest"] {
        assert!(reached.contains(crate_name), "{crate_name}");
    }
}

#[test]
fn the_server_reaches_neither_the_live_session_nor_watching_nor_mocks() {
    let metadata = metadata();
    let graph = Graph::new(&metadata);
    let reached = graph.reached_from("siteops-server");
    let broken: Vec<&&str> = SERVER_FORBIDDEN
        .iter()
        .filter(|f| reached.contains(**f))
        .collect();
    assert!(
        broken.is_empty(),
        "siteops-server depends on {broken:?}: the live session joins it through \
         app::Session only (see ARCHITECTURE.md)"
    );
    // The check itself can fail: the live session reaches all of them but itself.
    let reached = graph.reached_from("siteops-live");
    for name in ["siteops-server", "notify", "siteops-mocks"] {
        assert!(reached.contains(name), "{name}");
    }
}
