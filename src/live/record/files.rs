//! The disk side of a recording: atomic writes into the repository, the site's mocks read
//! back, and the scratch data directory of the in-process server.

use std::path::{Path, PathBuf};

use super::RecordError;
use crate::mocks::MockFile;

/// Every file under `dir`, with paths relative to it.
pub(super) fn read_tree(dir: &Path, prefix: &str, out: &mut Vec<MockFile>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{prefix}{name}");
        if entry.file_type()?.is_dir() {
            read_tree(&entry.path(), &format!("{path}/"), out)?;
        } else {
            out.push(MockFile {
                path,
                content: std::fs::read(entry.path())?,
            });
        }
    }
    Ok(())
}

/// Writes `bytes` to `root/relative` through a temporary file beside it and a rename, so
/// a reader (a running `serve`) sees the old file or the new one, never a part.
pub(super) fn write_atomic(root: &Path, relative: &str, bytes: &[u8]) -> Result<(), RecordError> {
    let path = root.join(relative);
    let failed = |source| RecordError::Write {
        path: relative.to_string(),
        source,
    };
    let dir = path.parent().unwrap_or(root);
    std::fs::create_dir_all(dir).map_err(failed)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.tmp"));
    let written = std::fs::write(&temp, bytes).and_then(|()| std::fs::rename(&temp, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written.map_err(failed)
}

/// A directory under the system's temporary directory, removed on drop.
pub(super) struct ScratchDir(pub(super) PathBuf);

impl ScratchDir {
    pub(super) fn new() -> std::io::Result<ScratchDir> {
        let mut random = [0u8; 8];
        getrandom::fill(&mut random).map_err(|e| std::io::Error::other(e.to_string()))?;
        let suffix: String = random.iter().map(|b| format!("{b:02x}")).collect();
        let dir =
            std::env::temp_dir().join(format!("siteops-record-{}-{suffix}", std::process::id()));
        std::fs::create_dir(&dir)?;
        Ok(ScratchDir(dir))
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
