//! A local checkout of a code repository: a directory on disk whose files are the
//! repository's code. The edge between the code paths and the file system.
//!
//! A [`CodePath`] cannot climb out by itself; what can is the file system: a symlink
//! inside the checkout may point anywhere. So a file is opened only after its real path
//! (symlinks resolved) is found inside the checkout's real root, and only when that real
//! path is itself servable (a symlink to `.git/config` inside the checkout is refused as
//! `.git/config` would be).
//!
//! A hard link has no real path to check: a file inside that is a hard link to a file
//! outside is the same file. So a regular file with more than one link is not served (it
//! reads as absent, with a warning in the log); the checks are made on the opened file, so
//! the file read is the file checked.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::hlxignore::{self, HlxIgnore};
use super::path::CodePath;

/// Largest file a checkout serves; a code file larger than this is an error.
pub const FILE_LIMIT: u64 = 20 * 1024 * 1024;

/// The largest `.hlxignore` read; a larger one is taken as empty (and logged).
const IGNORE_LIMIT: u64 = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct Checkout {
    /// As configured, for messages and the dashboard.
    pub configured: PathBuf,
    /// The real path of the directory (symlinks resolved).
    root: PathBuf,
    /// The `.hlxignore` last read, kept while the file's time and size stay the same.
    ignore: Arc<Mutex<Option<IgnoreRead>>>,
}

#[derive(Debug)]
struct IgnoreRead {
    stamp: Option<(Option<SystemTime>, u64)>,
    rules: Arc<HlxIgnore>,
}

impl PartialEq for Checkout {
    fn eq(&self, other: &Checkout) -> bool {
        (&self.configured, &self.root) == (&other.configured, &other.root)
    }
}

impl Eq for Checkout {}

#[derive(Debug, thiserror::Error)]
pub enum CheckoutError {
    #[error("the code checkout {0} is not a directory")]
    NotADirectory(PathBuf),
    #[error("cannot open the code checkout {path}: {source}")]
    Open { path: PathBuf, source: io::Error },
    #[error("{path} is larger than {FILE_LIMIT} bytes")]
    TooLarge { path: String },
    #[error("cannot read {path} from the checkout: {source}")]
    Read { path: String, source: io::Error },
}

impl Checkout {
    pub fn open(dir: &Path) -> Result<Checkout, CheckoutError> {
        let root = dir.canonicalize().map_err(|source| CheckoutError::Open {
            path: dir.to_path_buf(),
            source,
        })?;
        if !root.is_dir() {
            return Err(CheckoutError::NotADirectory(dir.to_path_buf()));
        }
        Ok(Checkout {
            configured: dir.to_path_buf(),
            root,
            ignore: Arc::default(),
        })
    }

    /// The rules of the checkout's `.hlxignore` as it is now: none without one. Read again
    /// only when its modification time or size changed. The file is taken only as a regular
    /// file of the checkout itself (no link), as code sync reads it from the repository.
    fn ignore_rules(&self) -> Arc<HlxIgnore> {
        let path = self.root.join(hlxignore::FILE);
        let stamp = std::fs::symlink_metadata(&path)
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|meta| (meta.modified().ok(), meta.len()));
        let mut cached = self.ignore.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(read) = cached.as_ref().filter(|read| read.stamp == stamp) {
            return read.rules.clone();
        }
        let rules = match stamp {
            Some((_, len)) if len <= IGNORE_LIMIT => std::fs::read_to_string(&path)
                .map(|text| HlxIgnore::parse(&text))
                .unwrap_or_else(|error| {
                    tracing::warn!(checkout = %self.configured.display(), %error, "cannot read .hlxignore");
                    HlxIgnore::none()
                }),
            Some(_) => {
                tracing::warn!(checkout = %self.configured.display(), "not read: .hlxignore is larger than {IGNORE_LIMIT} bytes");
                HlxIgnore::none()
            }
            None => HlxIgnore::none(),
        };
        let rules = Arc::new(rules);
        *cached = Some(IgnoreRead {
            stamp,
            rules: rules.clone(),
        });
        rules
    }

    /// The directory's real path.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file at `path`, or `None` when the checkout has no such servable file: one
    /// that the platform's code sync would leave out (`.hlxignore`) is none.
    pub fn read(&self, path: &CodePath) -> Result<Option<Vec<u8>>, CheckoutError> {
        if self.ignore_rules().ignores(path) {
            return Ok(None);
        }
        let Some(real) = self.resolve(path) else {
            return Ok(None);
        };
        let read_error = |source| CheckoutError::Read {
            path: path.to_string(),
            source,
        };
        // The type is checked before the open: opening a FIFO waits for a writer, and a
        // thread held there is a thread of the bounded blocking pool lost. The open itself
        // does not wait either, in case the file was replaced since; the opened file is
        // checked again below.
        match std::fs::metadata(&real) {
            Ok(metadata) if metadata.is_file() => {}
            Ok(_) => return Ok(None),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(read_error(error)),
        }
        let file = match open_no_wait(&real) {
            Ok(file) => file,
            // Gone since it was resolved.
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(read_error(error)),
        };
        let metadata = file.metadata().map_err(read_error)?;
        if !metadata.is_file() {
            return Ok(None);
        }
        if links(&metadata) > 1 {
            tracing::warn!(
                checkout = %self.configured.display(),
                %path,
                "not served: the file has more than one hard link, and another may be outside the checkout"
            );
            return Ok(None);
        }
        if metadata.len() > FILE_LIMIT {
            return Err(CheckoutError::TooLarge {
                path: path.to_string(),
            });
        }
        // Read no more than the limit, whatever the file has grown to since.
        let mut bytes = Vec::with_capacity(metadata.len() as usize);
        file.take(FILE_LIMIT + 1)
            .read_to_end(&mut bytes)
            .map_err(read_error)?;
        if bytes.len() as u64 > FILE_LIMIT {
            return Err(CheckoutError::TooLarge {
                path: path.to_string(),
            });
        }
        Ok(Some(bytes))
    }

    /// The real path of `path` when it exists inside the checkout and is servable there.
    fn resolve(&self, path: &CodePath) -> Option<PathBuf> {
        let real = self.root.join(path.as_str()).canonicalize().ok()?;
        let inside = real.strip_prefix(&self.root).ok()?;
        let relative = inside.to_str()?.replace(std::path::MAIN_SEPARATOR, "/");
        (CodePath::new(&relative).ok()?.as_str() == relative).then_some(real)
    }

    /// Whether a changed file (an absolute path the watcher saw) is one this checkout
    /// serves, and as which code path.
    pub fn code_path_of(&self, changed: &Path) -> Option<CodePath> {
        let inside = changed
            .strip_prefix(&self.root)
            .or_else(|_| changed.strip_prefix(&self.configured))
            .ok()?;
        let relative = inside.to_str()?.replace(std::path::MAIN_SEPARATOR, "/");
        CodePath::new(&relative).ok()
    }
}

/// Opens for reading without waiting for a writer (a FIFO swapped in after the check).
#[cfg(unix)]
fn open_no_wait(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
}

#[cfg(not(unix))]
fn open_no_wait(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// How many names the file has (hard links); one where the platform cannot tell.
#[cfg(unix)]
fn links(metadata: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(metadata)
}

#[cfg(not(unix))]
fn links(_: &std::fs::Metadata) -> u64 {
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> CodePath {
        CodePath::new(p).expect("path")
    }

    #[test]
    fn files_inside_are_read_and_nothing_else() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path().join("site");
        std::fs::create_dir_all(root.join("styles")).expect("mkdir");
        std::fs::write(root.join("styles/styles.css"), "body{}").expect("write");
        std::fs::write(dir.path().join("secret.txt"), "secret").expect("write");
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        std::fs::write(root.join(".git/config"), "[core]").expect("write");
        let checkout = Checkout::open(&root).expect("open");
        assert_eq!(
            checkout.read(&path("styles/styles.css")).expect("read"),
            Some(b"body{}".to_vec())
        );
        assert_eq!(checkout.read(&path("styles")).expect("read"), None);
        assert_eq!(checkout.read(&path("missing.css")).expect("read"), None);
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink(dir.path().join("secret.txt"), root.join("out.txt")).expect("symlink");
            symlink(dir.path(), root.join("up")).expect("symlink");
            symlink(root.join(".git/config"), root.join("config.txt")).expect("symlink");
            symlink(root.join("styles/styles.css"), root.join("alias.css")).expect("symlink");
            assert_eq!(checkout.read(&path("out.txt")).expect("read"), None);
            assert_eq!(checkout.read(&path("up/secret.txt")).expect("read"), None);
            assert_eq!(checkout.read(&path("config.txt")).expect("read"), None);
            assert_eq!(
                checkout.read(&path("alias.css")).expect("read"),
                Some(b"body{}".to_vec())
            );
        }
        assert!(Checkout::open(&root.join("styles/styles.css")).is_err());
    }

    #[test]
    fn what_hlxignore_names_reads_as_absent_and_changes_are_seen() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path();
        std::fs::write(root.join("package.json"), "{}").expect("write");
        std::fs::create_dir_all(root.join("scripts")).expect("mkdir");
        std::fs::write(root.join("scripts/scripts.js"), "x").expect("write");
        let checkout = Checkout::open(root).expect("open");
        assert!(
            checkout
                .read(&path("package.json"))
                .expect("read")
                .is_some()
        );
        std::fs::write(root.join(".hlxignore"), "package.json\n").expect("write");
        assert_eq!(checkout.read(&path("package.json")).expect("read"), None);
        assert!(
            checkout
                .read(&path("scripts/scripts.js"))
                .expect("read")
                .is_some()
        );
        std::fs::write(root.join(".hlxignore"), "scripts/\n").expect("write");
        assert!(
            checkout
                .read(&path("package.json"))
                .expect("read")
                .is_some()
        );
        assert_eq!(
            checkout.read(&path("scripts/scripts.js")).expect("read"),
            None
        );
    }

    #[test]
    fn a_hard_link_out_of_the_checkout_reads_as_absent() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path().join("site");
        std::fs::create_dir_all(&root).expect("mkdir");
        std::fs::write(dir.path().join("secret.txt"), "secret").expect("write");
        std::fs::hard_link(dir.path().join("secret.txt"), root.join("linked.txt"))
            .expect("hard link");
        std::fs::write(root.join("plain.txt"), "plain").expect("write");
        let checkout = Checkout::open(&root).expect("open");
        assert_eq!(checkout.read(&path("linked.txt")).expect("read"), None);
        assert_eq!(
            checkout.read(&path("plain.txt")).expect("read"),
            Some(b"plain".to_vec())
        );
        // Once the outside name is gone the file has one link, and is the checkout's own.
        std::fs::remove_file(dir.path().join("secret.txt")).expect("remove");
        assert_eq!(
            checkout.read(&path("linked.txt")).expect("read"),
            Some(b"secret".to_vec())
        );
        assert!(Checkout::open(&root.join("missing")).is_err());
    }

    /// Opening a FIFO for reading waits for a writer: the type is checked first, so the
    /// read answers absent at once (the thread is given a bounded time to answer).
    #[cfg(unix)]
    #[test]
    fn a_fifo_reads_as_absent_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().expect("dir");
        let fifo = dir.path().join("fifo.css");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success(), "mkfifo failed");
        let checkout = Checkout::open(dir.path()).expect("open");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(checkout.read(&path("fifo.css")).map_err(|e| e.to_string()));
        });
        let read = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("the read of a FIFO waited for a writer");
        assert_eq!(read, Ok(None));
    }
}
