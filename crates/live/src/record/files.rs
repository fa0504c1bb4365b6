//! The disk side of a recording: atomic writes into the repository, the site's mocks read
//! back, and the scratch data directory of the in-process server.

use std::path::Path;

use super::RecordError;
use siteops_config::repo::limit_for;
use siteops_config::repo::read::read_regular;
use siteops_mocks::MockFile;

/// Every regular file under `dir`, with paths relative to it, read as the live session
/// reads mocks (links not followed, FIFOs and devices skipped, sizes capped).
pub(super) fn read_tree(dir: &Path, prefix: &str, out: &mut Vec<MockFile>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{prefix}{name}");
        let file_type = entry.file_type()?;
        if file_type.is_dir() {
            read_tree(&entry.path(), &format!("{path}/"), out)?;
        } else if file_type.is_file() {
            let content = read_regular(&entry.path(), &path, limit_for(&path))
                .map_err(std::io::Error::other)?;
            out.push(MockFile { path, content });
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
    siteops_server::fsutil::write_atomic(&path, bytes).map_err(failed)
}
