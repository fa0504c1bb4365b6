//! The repository as siteops reads it: an in-memory snapshot of `siteops.toml` and the
//! `sites/` tree. Loading from disk is the only I/O here (through [`read`], the one safe
//! way to read a file of the repository); validation and compilation work on the
//! snapshot, so tests and benchmarks build one in memory.

pub mod read;

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

pub use read::{ReadError, limit_for, read_file};

/// Files siteops parses (configuration, mock mappings, templates) are loaded with their
/// bytes; the others (mock bodies) only by path, so a large body costs nothing until
/// something needs it.
#[derive(Debug, Clone, Default)]
pub struct RepoFiles {
    files: BTreeMap<String, Option<Vec<u8>>>,
    problems: Vec<FileProblem>,
}

/// A path of the repository that was not read, and why; validation reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileProblem {
    /// Repository-relative, `/`-separated.
    pub path: String,
    pub kind: ProblemKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemKind {
    /// Not a regular file (`a symbolic link`, `a FIFO`…): skipped.
    NotAFile(&'static str),
    /// Larger than its limit (in bytes): present, but its content is not read.
    TooLarge(u64),
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

    /// Adds a file whose content siteops does not need to read (or could not).
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

    /// The paths that were skipped or not read, in the order met.
    pub fn problems(&self) -> &[FileProblem] {
        &self.problems
    }

    /// Reads `siteops.toml` and everything under `sites/` below `root`. Hidden files and
    /// directories (`.git`, `.siteops`) are skipped; so is anything that is not a regular
    /// file or a directory (links are not followed), and a file over its limit is listed
    /// without its content: both become [`problems`](RepoFiles::problems). Fails only when
    /// a directory cannot be listed.
    pub fn load(root: &Path) -> io::Result<RepoFiles> {
        let mut repo = RepoFiles::new();
        // A `siteops.toml` directory or a `sites` file is not the repository's: ignored.
        if let Ok(metadata) = std::fs::symlink_metadata(root.join(SETTINGS_FILE))
            && !metadata.is_dir()
        {
            repo.add(root, SETTINGS_FILE, metadata.file_type())?;
        }
        if let Ok(metadata) = std::fs::symlink_metadata(root.join(SITES_DIR))
            && !metadata.is_file()
        {
            repo.add(root, SITES_DIR, metadata.file_type())?;
        }
        Ok(repo)
    }

    /// Adds one entry met while walking (its type as listed, links not followed).
    fn add(&mut self, root: &Path, path: &str, file_type: std::fs::FileType) -> io::Result<()> {
        let full = root.join(path);
        if file_type.is_dir() {
            return self.load_dir(root, path);
        }
        if !file_type.is_file() {
            self.problem(path, ProblemKind::NotAFile(read::kind(file_type)));
            return Ok(());
        }
        if !is_config_file(path) && !is_template(path) {
            self.insert_path(path);
            return Ok(());
        }
        match read::read_regular(&full, path, limit_for(path)) {
            Ok(bytes) => self.insert(path, bytes),
            Err(ReadError::TooLarge { limit, .. }) => {
                self.insert_path(path);
                self.problem(path, ProblemKind::TooLarge(limit));
            }
            // Replaced by something else since it was listed.
            Err(ReadError::NotAFile { kind, .. }) => {
                self.problem(path, ProblemKind::NotAFile(kind))
            }
            Err(ReadError::Io { source, .. }) => {
                return Err(io::Error::new(
                    source.kind(),
                    format!("cannot read {path}: {source}"),
                ));
            }
            Err(ReadError::Outside { .. }) => {}
        }
        Ok(())
    }

    fn problem(&mut self, path: &str, kind: ProblemKind) {
        self.problems.push(FileProblem {
            path: path.to_string(),
            kind,
        });
    }

    fn load_dir(&mut self, root: &Path, relative: &str) -> io::Result<()> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(root.join(relative))? {
            let entry = entry?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                // A name that is not UTF-8 cannot be a site, branch or template name.
                continue;
            };
            if name.starts_with('.') && !is_code_file_in_site(relative, name) {
                continue;
            }
            // The type as listed: a link is a link, never what it points at.
            entries.push((format!("{relative}/{name}"), entry.file_type()?));
        }
        // Sorted, so problems come in a stable order.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, file_type) in entries {
            self.add(root, &path, file_type)?;
        }
        Ok(())
    }
}

/// A site's template (`sites/<org>/<site>/templates/…`): read, as validation compiles it.
pub fn is_template(path: &str) -> bool {
    let mut parts = path.splitn(5, '/');
    parts.next() == Some(SITES_DIR)
        && parts.next().is_some()
        && parts.next().is_some()
        && parts.next() == Some("templates")
        && parts.next().is_some()
}

/// A file of a site's *code* (as git-era sites kept it beside their configuration) in a
/// site's directory: listed, never read, so validation can say it is not read there.
pub fn is_code_file_in_site(dir: &str, name: &str) -> bool {
    CODE_FILES.contains(&name) && dir.split('/').count() == 3 && dir.starts_with(SITES_DIR)
}

/// The code repository's files that people copy into a site's directory by mistake: the
/// preview hosts take them from the site's code (`[code]`), not from here.
pub const CODE_FILES: &[&str] = &["head.html", "404.html", ".hlxignore"];

/// Files whose content siteops parses.
pub fn is_config_file(name: &str) -> bool {
    [".toml", ".yaml", ".yml", ".json"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

#[cfg(test)]
mod code_file_tests {
    use super::is_code_file_in_site;

    #[test]
    fn code_files_are_listed_only_at_a_sites_top() {
        assert!(is_code_file_in_site("sites/acme/web", ".hlxignore"));
        assert!(is_code_file_in_site("sites/acme/web", "head.html"));
        assert!(!is_code_file_in_site("sites/acme/web/mocks", ".hlxignore"));
        assert!(!is_code_file_in_site("sites/acme", ".hlxignore"));
        assert!(!is_code_file_in_site("sites/acme/web", ".git"));
    }
}
