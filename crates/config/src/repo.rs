//! The repository as siteops reads it: an in-memory snapshot of `siteops.toml` and the
//! `sites/` tree. Loading from disk is the only I/O here; validation and compilation work
//! on the snapshot, so tests and benchmarks build one in memory.

use std::collections::BTreeMap;
use std::path::Path;
use std::{fs, io};

/// Files siteops parses are loaded with their bytes; the others (templates, mocks) only
/// by path, so a large mock body costs nothing until something needs it.
#[derive(Debug, Clone, Default)]
pub struct RepoFiles {
    files: BTreeMap<String, Option<Vec<u8>>>,
}

pub const SETTINGS_FILE: &str = "siteops.toml";
pub const SITES_DIR: &str = "sites";

impl RepoFiles {
    pub fn new() -> RepoFiles {
        RepoFiles::default()
    }

    /// Adds a file with its content; `path` is relative to the repository root, `/`-separated.
    pub fn insert(&mut self, path: impl Into<String>, content: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), Some(content.into()));
    }

    /// Adds a file whose content siteops does not need to read.
    pub fn insert_path(&mut self, path: impl Into<String>) {
        self.files.insert(path.into(), None);
    }

    pub fn contains(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    /// The content of a loaded file.
    pub fn content(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).and_then(|c| c.as_deref())
    }

    /// Every path, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// Reads `siteops.toml` and everything under `sites/` below `root`. Hidden files and
    /// directories (`.git`, `.siteops`) are skipped.
    pub fn load(root: &Path) -> io::Result<RepoFiles> {
        let mut repo = RepoFiles::new();
        let settings = root.join(SETTINGS_FILE);
        if settings.is_file() {
            repo.insert(SETTINGS_FILE, fs::read(&settings)?);
        }
        let sites = root.join(SITES_DIR);
        if sites.is_dir() {
            repo.load_dir(&sites, SITES_DIR)?;
        }
        Ok(repo)
    }

    fn load_dir(&mut self, dir: &Path, relative: &str) -> io::Result<()> {
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                // A name that is not UTF-8 cannot be a site, branch or template name.
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let path = format!("{relative}/{name}");
            let file_type = entry.file_type()?;
            if file_type.is_dir() {
                self.load_dir(&entry.path(), &path)?;
            } else if is_config_file(name) {
                self.insert(path, fs::read(entry.path())?);
            } else {
                self.insert_path(path);
            }
        }
        Ok(())
    }
}

/// Files whose content siteops parses.
pub fn is_config_file(name: &str) -> bool {
    [".toml", ".yaml", ".yml", ".json"]
        .iter()
        .any(|ext| name.ends_with(ext))
}
