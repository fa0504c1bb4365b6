//! The one way siteops replaces a file: a temporary file beside it (from `tempfile`),
//! written and flushed to disk, renamed over the target, and the directory flushed, so a
//! reader (a running `serve`, the next command, a crash) sees the old file or the new
//! one, never a part, and an acknowledged write survives power loss.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// Prefix of the temporary files; a crash can leave one behind, which `FsStore` removes
/// when it opens (no stored key starts with a dot).
pub const TEMP_PREFIX: &str = ".tmp-";

/// Replaces `path` with `bytes`, creating its directory if needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, bytes, |temp| temp.persist(path).map(drop))
}

/// Writes `bytes` to `path` unless something is there already: false then. The check and
/// the write are one step of the file system's (a link that does not replace), so writers
/// of one new file need no lock between them; durable as [`write_atomic`].
pub(crate) fn write_new(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    let written = write_with(path, bytes, |temp| temp.persist_noclobber(path).map(drop));
    match written {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(error) => Err(error),
    }
}

fn write_with(
    path: &Path,
    bytes: &[u8],
    persist: impl FnOnce(tempfile::NamedTempFile) -> Result<(), tempfile::PersistError>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut temp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    // The data is on disk before the name points at it…
    temp.as_file().sync_all()?;
    persist(temp).map_err(|e| e.error)?;
    // …and the new name is on disk before the write counts as done.
    File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_stays() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("a/b/plan.json");
        write_atomic(&path, b"one").expect("write");
        write_atomic(&path, b"two").expect("rewrite");
        assert_eq!(std::fs::read(&path).expect("read"), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("a/b"))
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["plan.json"]);
    }

    #[test]
    fn a_new_file_is_written_once() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("a/media.png");
        assert!(write_new(&path, b"one").expect("write"));
        assert!(!write_new(&path, b"two").expect("not again"));
        assert_eq!(std::fs::read(&path).expect("read"), b"one");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("a"))
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["media.png"], "no temporary file stays");
    }
}
