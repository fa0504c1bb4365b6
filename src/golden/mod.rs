//! The golden harness: pages of the repository's sites rendered through the real pipeline
//! (fetch, overlay, worker, ingestion, rendering) and compared with stored snapshots, so
//! that a template, configuration or mock change shows as a snapshot diff.
//!
//! A case is a directory `golden/<case>/`:
//! - `case.toml`: `site = "org/site"`, `branch` (default `main`), `pages = ["/path", …]`,
//!   an optional `description` ([`case`]);
//! - `mocks/` (optional): WireMock stub mappings layered over the sites' own mocks, so a
//!   case can make a source answer 401, or add a page ([`siteops_mocks`]);
//! - `snapshots/<page>.<trace|html|md|json>.snap`: the expected outputs ([`output`]), in
//!   insta's file format ([`snapshot`]), so the Rust test (`tests/it/golden.rs`, insta) and
//!   `siteops test` read and write the same files.
//!
//! Pure parts: [`case`], [`snapshot`], [`output`], [`diff`], [`check`]. The edges: [`load`]
//! (the `golden/` directory on disk) and [`runner`] (the in-process server).

pub mod case;
pub mod check;
pub mod diff;
pub mod load;
pub mod output;
pub mod runner;
pub mod snapshot;

use std::path::PathBuf;

pub use case::CaseSpec;
pub use output::{Output, OutputKind};
pub use runner::Harness;

use siteops_mocks::MockSet;

/// Where cases live, under the repository root.
pub const GOLDEN_DIR: &str = "golden";
pub const CASE_FILE: &str = "case.toml";
pub const MOCKS_DIR: &str = "mocks";
pub const SNAPSHOTS_DIR: &str = "snapshots";

/// A case as loaded: its name (the directory's), directory, file and extra mocks.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub dir: PathBuf,
    pub spec: CaseSpec,
    pub mocks: MockSet,
}

impl Case {
    /// Where the case's snapshots are stored.
    pub fn snapshot_dir(&self) -> PathBuf {
        self.dir.join(SNAPSHOTS_DIR)
    }

    /// `org/site branch`, for reports.
    pub fn target(&self) -> String {
        format!("{} {}", self.spec.site, self.spec.branch)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GoldenError {
    #[error("{file}: {message}")]
    Case { file: String, message: String },
    #[error("{file}: {message}")]
    Snapshot { file: String, message: String },
    #[error("invalid case mocks:\n{}", messages.join("\n"))]
    Mocks { messages: Vec<String> },
    #[error("no golden cases in {}: add golden/<case>/case.toml", dir.display())]
    NoCases { dir: PathBuf },
    #[error("no case `{name}` (cases: {})", known.join(", "))]
    UnknownCase { name: String, known: Vec<String> },
    #[error("case {case}: site {site} is not in the repository")]
    UnknownSite { case: String, site: String },
    #[error("cannot start the server: {0}")]
    Server(String),
    #[error("the repository cannot be applied: {message}\n{diagnostics}")]
    Reload {
        message: String,
        diagnostics: String,
    },
    #[error("{url}: {message}")]
    Http { url: String, message: String },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}
