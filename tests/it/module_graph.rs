//! The walls inside `siteops-server`: its top-level modules name each other without a
//! circle, and only the crate's top (`server`, which starts the server and mounts every
//! route family) names `admin`, the administration API's routes; nothing names that top
//! (the live session, which starts servers, is a crate above). Read from the source with
//! `syn`, so a new `use` that closes a circle fails here, naming the files that make it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::{self, Visit};

use crate::support::repo_root;

/// The module that only the crate's top may name.
const ROUTES_ONLY_ROOT_MOUNTS: &str = "admin";
/// The crate's top: it starts the server and mounts every route family.
const TOP: &str = "server";

/// Which top-level module names which, with the first file (relative to `src/`) that
/// does, for each pair.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

fn server_src() -> PathBuf {
    repo_root().join("crates/server/src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `lib.rs` is the root (empty), `a.rs` and `a/mod.rs` are
/// `[a]`, `a/b.rs` is `[a, b]`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop().unwrap_or_default();
    match file.as_str() {
        "lib.rs" | "mod.rs" => {}
        other => parts.push(other.trim_end_matches(".rs").to_string()),
    }
    parts
}

/// The top-level module a path names, if it is a crate-relative one (`crate::a::…`,
/// `super::…` climbing to the root, `self::…` at the root).
fn top_named(segments: &[String], current: &[String]) -> Option<String> {
    let first = segments.first()?;
    match first.as_str() {
        "crate" => segments.get(1).cloned(),
        "super" => {
            let climbs = segments.iter().take_while(|s| *s == "super").count();
            let base = current.get(..current.len().checked_sub(climbs)?)?;
            match base.first() {
                Some(top) => Some(top.clone()),
                None => segments.get(climbs).cloned(),
            }
        }
        "self" => match current.first() {
            Some(top) => Some(top.clone()),
            None => segments.get(1).cloned(),
        },
        _ => None,
    }
}

/// Collects the crate-relative paths a file names, in `use` trees and everywhere else.
struct Names {
    /// The module being visited: the file's, plus inline `mod x { … }` blocks.
    current: Vec<String>,
    /// Each path, with the module it appears in.
    paths: Vec<(Vec<String>, Vec<String>)>,
}

impl Names {
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
                prefix.pop();
            }
            syn::UseTree::Name(name) => self.used(prefix, Some(name.ident.to_string())),
            syn::UseTree::Rename(rename) => self.used(prefix, Some(rename.ident.to_string())),
            syn::UseTree::Glob(_) => self.used(prefix, None),
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    fn used(&mut self, prefix: &[String], last: Option<String>) {
        let mut path = prefix.to_vec();
        path.extend(last);
        self.paths.push((path, self.current.clone()));
    }
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.paths.push((segments, self.current.clone()));
        visit::visit_path(self, path);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.current.push(item.ident.to_string());
        visit::visit_item_mod(self, item);
        self.current.pop();
    }
}

/// The top-level modules `lib.rs` declares.
fn top_modules(src: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs reads");
    let file = syn::parse_file(&text).expect("lib.rs parses");
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(module) => Some(module.ident.to_string()),
            _ => None,
        })
        .collect()
}

/// The graph of the crate at `src`: an edge for each top-level module naming another.
/// The crate root is left out: it declares every module, and mounts the route families.
fn graph(src: &Path) -> Graph {
    let tops = top_modules(src);
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph = Graph::new();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src").to_path_buf();
        let module = module_of(&relative);
        let Some(own) = module.first().cloned() else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("a source file reads");
        let parsed = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", relative.display()));
        let mut names = Names {
            current: module,
            paths: Vec::new(),
        };
        names.visit_file(&parsed);
        for (path, current) in names.paths {
            if let Some(named) = top_named(&path, &current)
                && named != own
                && tops.contains(&named)
            {
                graph
                    .entry(own.clone())
                    .or_default()
                    .entry(named)
                    .or_insert_with(|| relative.display().to_string());
            }
        }
    }
    graph
}

/// A circle through the graph, as the modules in order (the first repeated at the end),
/// if there is one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn walk(
        node: &str,
        graph: &Graph,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(node.to_string(), Mark::Open);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(|edges| edges.keys()) {
            match marks.get(next) {
                Some(Mark::Open) => {
                    let start = stack.iter().position(|n| n == next).expect("on the stack");
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(Mark::Done) => {}
                None => {
                    if let Some(cycle) = walk(next, graph, marks, stack) {
                        return Some(cycle);
                    }
                }
            }
        }
        stack.pop();
        marks.insert(node.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if !marks.contains_key(node)
            && let Some(cycle) = walk(node, graph, &mut marks, &mut Vec::new())
        {
            return Some(cycle);
        }
    }
    None
}

/// Each step of a circle with the file that makes it.
fn describe(cycle: &[String], graph: &Graph) -> String {
    cycle
        .windows(2)
        .map(|pair| {
            format!(
                "  {} → {} ({})",
                pair[0], pair[1], graph[&pair[0]][&pair[1]]
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn server_modules_form_no_circle() {
    let graph = graph(&server_src());
    assert!(graph.len() > 5, "too few modules read: {graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "the server's top-level modules name each other in a circle: {}\n{}",
            cycle.join(" → "),
            describe(&cycle, &graph)
        );
    }
}

#[test]
fn only_the_top_names_the_admin_routes() {
    let graph = graph(&server_src());
    let naming: Vec<String> = graph
        .iter()
        .filter(|(module, _)| *module != ROUTES_ONLY_ROOT_MOUNTS && *module != TOP)
        .filter_map(|(module, edges)| {
            edges
                .get(ROUTES_ONLY_ROOT_MOUNTS)
                .map(|file| format!("{module} ({file})"))
        })
        .collect();
    assert!(
        naming.is_empty(),
        "only the crate root and `{TOP}` mount `{ROUTES_ONLY_ROOT_MOUNTS}`, yet it is named by: {}",
        naming.join(", ")
    );
    let naming_top: Vec<String> = graph
        .iter()
        .filter_map(|(module, edges)| edges.get(TOP).map(|file| format!("{module} ({file})")))
        .collect();
    assert!(
        naming_top.is_empty(),
        "`{TOP}` is the top of the crate, yet it is named by: {}",
        naming_top.join(", ")
    );
}

/// The checks themselves catch what they are for, on a crate made up for them.
#[test]
fn a_circle_and_a_stray_admin_are_caught() {
    let dir = tempfile_dir();
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write("lib.rs", "mod a; mod admin; mod b; mod c;\n");
    write("a.rs", "use crate::{b::Thing, c};\n");
    write("b/mod.rs", "mod inner;\n");
    write(
        "b/inner.rs",
        "fn f() { super::super::c::g(); }\nmod tests { use super::super::Local; }\n",
    );
    write("c.rs", "pub fn g() -> crate::admin::X { super::a::h() }\n");
    write("admin.rs", "use crate::a;\n");
    let graph = graph(&dir);
    let edges = |from: &str| -> Vec<&str> {
        graph
            .get(from)
            .map(|edges| edges.keys().map(String::as_str).collect())
            .unwrap_or_default()
    };
    assert_eq!(edges("a"), ["b", "c"]);
    assert_eq!(edges("b"), ["c"], "`super::super::Local` in b's tests is b");
    assert_eq!(edges("c"), ["a", "admin"]);
    let cycle = find_cycle(&graph).expect("a → c → a");
    assert_eq!(cycle.first(), cycle.last());
    assert!(cycle.contains(&"c".to_string()), "{cycle:?}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "siteops-module-graph-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}
