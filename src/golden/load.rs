//! The disk side of the golden cases: reading `golden/<case>/` (the case file, its mocks,
//! its snapshots) and writing snapshots. Writes are atomic (a temporary file renamed over
//! the snapshot), so an interrupted update never leaves a torn file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::case::CaseSpec;
use super::snapshot::{self, Snapshot};
use super::{CASE_FILE, Case, GOLDEN_DIR, GoldenError, MOCKS_DIR, SNAPSHOTS_DIR};
use siteops_mocks::{MockFile, MockSet};

/// The cases under `<root>/golden/`, sorted by name; only those named in `only` when it
/// is not empty (an unknown name is an error).
pub fn cases(root: &Path, only: &[String]) -> Result<Vec<Case>, GoldenError> {
    let golden = root.join(GOLDEN_DIR);
    if !golden.is_dir() {
        return Err(GoldenError::NoCases { dir: golden });
    }
    let mut names = Vec::new();
    for entry in read_dir(&golden)? {
        if entry.is_dir() {
            let name = entry
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !name.starts_with('.') {
                names.push(name);
            }
        }
    }
    names.sort();
    for wanted in only {
        if !names.contains(wanted) {
            return Err(GoldenError::UnknownCase {
                name: wanted.clone(),
                known: names.clone(),
            });
        }
    }
    let mut cases = Vec::new();
    for name in names {
        if only.is_empty() || only.contains(&name) {
            cases.push(case(root, &name)?);
        }
    }
    if cases.is_empty() {
        return Err(GoldenError::NoCases { dir: golden });
    }
    Ok(cases)
}

/// One case: `golden/<name>/case.toml` and its mocks.
pub fn case(root: &Path, name: &str) -> Result<Case, GoldenError> {
    let dir = root.join(GOLDEN_DIR).join(name);
    let label = format!("{GOLDEN_DIR}/{name}");
    let file = dir.join(CASE_FILE);
    if !file.is_file() {
        return Err(GoldenError::Case {
            file: format!("{label}/{CASE_FILE}"),
            message: "missing: every directory under golden/ is a case and needs one".into(),
        });
    }
    let text = std::fs::read_to_string(&file).map_err(|source| GoldenError::Io {
        path: file.clone(),
        source,
    })?;
    let spec = CaseSpec::parse(&format!("{label}/{CASE_FILE}"), &text)?;
    let mocks_dir = dir.join(MOCKS_DIR);
    let mocks = if mocks_dir.is_dir() {
        let mut files = Vec::new();
        collect_files(&mocks_dir, &mocks_dir, &mut files)?;
        MockSet::from_files(&format!("{label}/{MOCKS_DIR}"), &files).map_err(|errors| {
            GoldenError::Mocks {
                messages: errors.iter().map(ToString::to_string).collect(),
            }
        })?
    } else {
        MockSet::default()
    };
    Ok(Case {
        name: name.to_string(),
        dir,
        spec,
        mocks,
    })
}

/// The stored snapshots of a case, by name (file name without `.snap`).
pub fn stored(case: &Case) -> Result<BTreeMap<String, Snapshot>, GoldenError> {
    let dir = case.snapshot_dir();
    let mut found = BTreeMap::new();
    if !dir.is_dir() {
        return Ok(found);
    }
    for path in read_dir(&dir)? {
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".snap"))
        else {
            continue;
        };
        let text = std::fs::read_to_string(&path).map_err(|source| GoldenError::Io {
            path: path.clone(),
            source,
        })?;
        let shown = format!(
            "{GOLDEN_DIR}/{}/{SNAPSHOTS_DIR}/{}",
            case.name,
            snapshot::file_name(name)
        );
        found.insert(name.to_string(), snapshot::parse(&shown, &text)?);
    }
    Ok(found)
}

/// Writes a snapshot (atomically: a temporary file renamed over it).
pub fn write(case: &Case, name: &str, expression: &str, contents: &str) -> Result<(), GoldenError> {
    let dir = case.snapshot_dir();
    std::fs::create_dir_all(&dir).map_err(|source| GoldenError::Io {
        path: dir.clone(),
        source,
    })?;
    let path = dir.join(snapshot::file_name(name));
    siteops_server::fsutil::write_atomic(&path, snapshot::render(expression, contents).as_bytes())
        .map_err(|source| GoldenError::Io {
            path: path.clone(),
            source,
        })
}

/// Removes a stored snapshot that no page produces any more.
pub fn remove(case: &Case, name: &str) -> Result<(), GoldenError> {
    let path = case.snapshot_dir().join(snapshot::file_name(name));
    std::fs::remove_file(&path).map_err(|source| GoldenError::Io { path, source })
}

fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, GoldenError> {
    let io = |source| GoldenError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        paths.push(entry.map_err(io)?.path());
    }
    paths.sort();
    Ok(paths)
}

/// Every file under `dir`, with its path relative to `base` (`/`-separated).
fn collect_files(base: &Path, dir: &Path, files: &mut Vec<MockFile>) -> Result<(), GoldenError> {
    for path in read_dir(dir)? {
        if path.is_dir() {
            collect_files(base, &path, files)?;
            continue;
        }
        let content = std::fs::read(&path).map_err(|source| GoldenError::Io {
            path: path.clone(),
            source,
        })?;
        let relative = path.strip_prefix(base).unwrap_or(&path);
        let relative: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        files.push(MockFile {
            path: relative.join("/"),
            content,
        });
    }
    Ok(())
}
