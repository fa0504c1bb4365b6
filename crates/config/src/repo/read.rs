//! Reading one file of the repository safely: the one place every reader of `sites/`
//! (validation, the live session's mocks and templates, recording) goes through.
//!
//! Why: a repository is input like any other. A FIFO blocks the reader forever (a whole
//! server, when the reader is on its runtime), a symlink to `/dev/zero` never ends, a
//! symlink out of the repository leaks a file (a mock body served to anyone), and a huge
//! file costs its size. So a file is read only when it is a regular file, reached without
//! following any link, inside the root, and no larger than its limit; anything else is
//! refused with an error naming it.

use std::fs::{File, FileType, OpenOptions};
use std::io::{self, Read};
use std::path::{Component, Path};

/// The largest configuration file (TOML, YAML, JSON mappings) read: far above any real one.
pub const CONFIG_FILE_LIMIT: u64 = 10 * 1024 * 1024;

/// The largest other file of a site (templates, mock bodies): a recorded mock holds an
/// image of up to the preview's image limit, 20 MiB.
pub const DATA_FILE_LIMIT: u64 = 20 * 1024 * 1024;

/// The limit of a path (`/`-separated): mock bodies (under `__files/`) are data even when
/// they are JSON.
pub fn limit_for(path: &str) -> u64 {
    if super::is_config_file(path) && !path.split('/').any(|part| part == "__files") {
        CONFIG_FILE_LIMIT
    } else {
        DATA_FILE_LIMIT
    }
}

/// Why a file of the repository was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(
        "{path} is {kind}, not a regular file: siteops reads only regular files inside the repository"
    )]
    NotAFile { path: String, kind: &'static str },
    #[error("{path} is larger than {limit} bytes, the most siteops reads")]
    TooLarge { path: String, limit: u64 },
    #[error("{path} is not a path inside the repository")]
    Outside { path: String },
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: io::Error },
}

/// Reads `relative` (`/`-separated) under `root`: every directory on the way and the file
/// itself are checked without following links.
pub fn read_file(root: &Path, relative: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
    // The path is checked whole before any disk access: each part one plain name.
    let parts: Vec<&str> = relative.split('/').collect();
    let plain = |part: &&str| {
        let mut components = Path::new(part).components();
        matches!(components.next(), Some(Component::Normal(_))) && components.next().is_none()
    };
    if !parts.iter().all(plain) {
        return Err(ReadError::Outside {
            path: relative.to_string(),
        });
    }
    let mut dir = root.to_path_buf();
    for part in &parts[..parts.len() - 1] {
        dir.push(part);
        let metadata = std::fs::symlink_metadata(&dir).map_err(|source| ReadError::Io {
            path: relative.to_string(),
            source,
        })?;
        if !metadata.is_dir() {
            return Err(ReadError::NotAFile {
                path: relative.to_string(),
                kind: kind(metadata.file_type()),
            });
        }
    }
    read_regular(&root.join(relative), relative, limit)
}

/// Reads the file at `path` (shown as `shown`) when it is a regular file itself, not a
/// link to one, of at most `limit` bytes. For walkers that have checked the directories.
pub fn read_regular(path: &Path, shown: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io_error = |source| ReadError::Io {
        path: shown.to_string(),
        source,
    };
    let not_a_file = |file_type: FileType| ReadError::NotAFile {
        path: shown.to_string(),
        kind: kind(file_type),
    };
    let metadata = std::fs::symlink_metadata(path).map_err(io_error)?;
    if !metadata.is_file() {
        return Err(not_a_file(metadata.file_type()));
    }
    // The file may have been replaced since: open without following a link and without
    // waiting for a writer, then check what was opened.
    let file = open_no_follow(path).map_err(io_error)?;
    let metadata = file.metadata().map_err(io_error)?;
    if !metadata.is_file() {
        return Err(not_a_file(metadata.file_type()));
    }
    let too_large = || ReadError::TooLarge {
        path: shown.to_string(),
        limit,
    };
    if metadata.len() > limit {
        return Err(too_large());
    }
    // The length can still grow while reading: read one byte past the limit to know.
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

/// What a directory entry that is not a regular file is, for messages.
pub fn kind(file_type: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_dir() {
        "a directory"
    } else if file_type.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_inside_is_read() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(dir.path().join("sites/a")).expect("dirs");
        std::fs::write(dir.path().join("sites/a/site.toml"), "x = 1").expect("write");
        let bytes = read_file(dir.path(), "sites/a/site.toml", 100).expect("read");
        assert_eq!(bytes, b"x = 1");
    }

    #[test]
    fn a_file_over_its_limit_is_refused_and_named() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(dir.path().join("big.toml"), "12345").expect("write");
        let error = read_file(dir.path(), "big.toml", 4).expect_err("too large");
        assert_eq!(
            error.to_string(),
            "big.toml is larger than 4 bytes, the most siteops reads"
        );
        assert!(
            read_file(dir.path(), "big.toml", 5).is_ok(),
            "the limit itself is fine"
        );
    }

    #[test]
    fn paths_that_climb_out_are_refused() {
        let dir = tempfile::tempdir().expect("dir");
        for path in ["../x", "a/../../x", "/etc/passwd", "", "a//b", "./a"] {
            assert!(
                matches!(
                    read_file(dir.path(), path, 10),
                    Err(ReadError::Outside { .. })
                ),
                "{path}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_fifos_and_devices_are_not_files() {
        let dir = tempfile::tempdir().expect("dir");
        let outside = tempfile::tempdir().expect("outside");
        std::fs::write(outside.path().join("secret"), "secret").expect("write");
        std::fs::create_dir(dir.path().join("d")).expect("dir");
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("d/link"))
            .expect("symlink");
        std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).expect("symlink");
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("d/zero")).expect("symlink");
        let fifo = dir.path().join("d/fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let kind_of = |path: &str| match read_file(dir.path(), path, 1 << 20) {
            Err(ReadError::NotAFile { kind, .. }) => kind,
            other => panic!("{path}: {other:?}"),
        };
        assert_eq!(kind_of("d/link"), "a symbolic link");
        assert_eq!(kind_of("d/zero"), "a symbolic link");
        assert_eq!(
            kind_of("out/secret"),
            "a symbolic link",
            "a linked directory"
        );
        assert_eq!(kind_of("d/fifo"), "a FIFO");
        assert_eq!(kind_of("d"), "a directory");
    }
}
