//! [`Store`] on the local file system.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use super::{Precondition, Store, StoreError, Version, Versioned, async_trait, check_key};
// Marks files being written; never a valid key segment (keys cannot start with `.`).
use crate::fsutil::{TEMP_PREFIX, write_atomic, write_new};

/// A directory serves one instance: conditional writes are atomic within this process
/// (one lock around the check and the write; a write of a new file is one step of the file
/// system's), not across processes sharing the directory, which `serve` prevents with a
/// [`DirLock`].
///
/// File calls block, so each runs on tokio's blocking threads (`spawn_blocking`), never
/// on the threads that answer requests.
#[derive(Debug, Clone)]
pub struct FsStore {
    files: Arc<Files>,
}

/// The directory and its synchronous operations.
#[derive(Debug)]
struct Files {
    root: PathBuf,
    conditional: Mutex<()>,
}

impl FsStore {
    /// Opens (creating) the store at `root`, removing temporary files a crash left behind.
    pub fn open(root: impl Into<PathBuf>) -> io::Result<FsStore> {
        let root = root.into();
        create_data_dir(&root)?;
        remove_temp_files(&root)?;
        Ok(FsStore {
            files: Arc::new(Files {
                root,
                conditional: Mutex::new(()),
            }),
        })
    }

    pub fn root(&self) -> &Path {
        &self.files.root
    }

    /// Runs `work` on the directory on a blocking thread.
    async fn on_files<T: Send + 'static>(
        &self,
        key: &str,
        work: impl FnOnce(&Files) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let files = self.files.clone();
        match tokio::task::spawn_blocking(move || work(&files)).await {
            Ok(done) => done,
            Err(stopped) => Err(io_error(key)(io::Error::other(stopped.to_string()))),
        }
    }
}

#[async_trait]
impl Store for FsStore {
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let owned = key.to_string();
        self.on_files(key, move |files| files.get(&owned)).await
    }

    async fn get_versioned(&self, key: &str) -> Result<Option<Versioned>, StoreError> {
        let owned = key.to_string();
        self.on_files(key, move |files| files.get_versioned(&owned))
            .await
    }

    async fn put_if(
        &self,
        key: &str,
        bytes: &[u8],
        condition: Precondition,
    ) -> Result<(), StoreError> {
        let (owned, bytes) = (key.to_string(), bytes.to_vec());
        self.on_files(key, move |files| files.put_if(&owned, &bytes, condition))
            .await
    }

    fn location(&self) -> String {
        format!("file://{}", self.files.root.display())
    }

    /// Makes the file of `key` readable and writable by its owner only (0600; Unix only).
    /// Files the store writes start that way; this tightens one written otherwise.
    async fn make_private(&self, key: &str) -> Result<(), StoreError> {
        let owned = key.to_string();
        self.on_files(key, move |files| files.make_private(&owned))
            .await
    }

    async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        Ok(self.remove(key).await?.is_some())
    }

    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        let owned = key.to_string();
        self.on_files(key, move |files| files.size(&owned)).await
    }

    async fn remove(&self, key: &str) -> Result<Option<u64>, StoreError> {
        let owned = key.to_string();
        self.on_files(key, move |files| files.remove(&owned)).await
    }

    async fn total_size(&self, prefix: &str) -> Result<u64, StoreError> {
        let owned = prefix.to_string();
        self.on_files(prefix, move |files| files.total_size(&owned))
            .await
    }

    async fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let owned = prefix.to_string();
        self.on_files(prefix, move |files| files.list(&owned)).await
    }

    async fn delete_all(&self, prefix: &str) -> Result<(), StoreError> {
        let owned = prefix.to_string();
        self.on_files(prefix, move |files| files.delete_all(&owned))
            .await
    }
}

fn io_error(key: &str) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        key: key.to_string(),
        source,
    }
}

/// A file's version: the hash of its bytes.
fn version_of(bytes: &[u8]) -> Version {
    Version {
        e_tag: Some(hex::encode(Sha256::digest(bytes))),
        version: None,
    }
}

impl Files {
    fn path(&self, key: &str) -> Result<PathBuf, StoreError> {
        check_key(key)?;
        Ok(self.root.join(key))
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        match fs::read(self.path(key)?) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            // A key whose parent is a file, say: nothing is stored there.
            Err(error) if error.kind() == io::ErrorKind::NotADirectory => Ok(None),
            Err(error) => Err(io_error(key)(error)),
        }
    }

    fn get_versioned(&self, key: &str) -> Result<Option<Versioned>, StoreError> {
        Ok(self.get(key)?.map(|bytes| Versioned {
            version: version_of(&bytes),
            bytes,
        }))
    }

    fn put_if(&self, key: &str, bytes: &[u8], condition: Precondition) -> Result<(), StoreError> {
        let path = self.path(key)?;
        let conflict = || StoreError::Conflict {
            key: key.to_string(),
        };
        // Durable before `put` returns: the data, then the name.
        let version = match condition {
            Precondition::Always => return write_atomic(&path, bytes).map_err(io_error(key)),
            // One step of the file system's, which needs no lock: writers of new files (a
            // preview's images) do not queue behind each other's syncs.
            Precondition::Absent => {
                let written = write_new(&path, bytes).map_err(io_error(key))?;
                return if written { Ok(()) } else { Err(conflict()) };
            }
            Precondition::At(version) => version,
        };
        let _one_at_a_time = self.conditional.lock().unwrap_or_else(|p| p.into_inner());
        let holds = self
            .get(key)?
            .is_some_and(|stored| version_of(&stored) == version);
        if !holds {
            return Err(conflict());
        }
        write_atomic(&path, bytes).map_err(io_error(key))
    }

    fn make_private(&self, key: &str) -> Result<(), StoreError> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let path = self.path(key)?;
            let mode = fs::metadata(&path)
                .map_err(io_error(key))?
                .permissions()
                .mode();
            if mode & 0o077 != 0 {
                fs::set_permissions(&path, fs::Permissions::from_mode(0o600))
                    .map_err(io_error(key))?;
            }
        }
        #[cfg(not(unix))]
        let _ = key;
        Ok(())
    }

    fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        match fs::metadata(self.path(key)?) {
            Ok(metadata) if metadata.is_file() => Ok(Some(metadata.len())),
            Ok(_) => Ok(None),
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                Ok(None)
            }
            Err(error) => Err(io_error(key)(error)),
        }
    }

    fn remove(&self, key: &str) -> Result<Option<u64>, StoreError> {
        let path = self.path(key)?;
        // Files are replaced whole (renamed over), so the size read just before is the
        // size of the file removed, or of one with the same key and bytes.
        let Some(size) = self.size(key)? else {
            return Ok(None);
        };
        match fs::remove_file(&path) {
            Ok(()) => {
                if let Some(dir) = path.parent() {
                    File::open(dir)
                        .and_then(|d| d.sync_all())
                        .map_err(io_error(key))?;
                }
                Ok(Some(size))
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(io_error(key)(error)),
        }
    }

    fn total_size(&self, prefix: &str) -> Result<u64, StoreError> {
        let mut total = 0;
        let mut folders = vec![self.path(prefix)?];
        while let Some(folder) = folders.pop() {
            let entries = match fs::read_dir(&folder) {
                Ok(entries) => entries,
                Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                Err(error) => return Err(io_error(prefix)(error)),
            };
            for entry in entries {
                let entry = entry.map_err(io_error(prefix))?;
                // Files being written (and the lock file) are no key's.
                if entry.file_name().to_string_lossy().starts_with('.') {
                    continue;
                }
                let kind = entry.file_type().map_err(io_error(prefix))?;
                if kind.is_dir() {
                    folders.push(entry.path());
                } else if kind.is_file() {
                    total += entry.metadata().map_err(io_error(prefix))?.len();
                }
            }
        }
        Ok(total)
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let entries = match fs::read_dir(self.path(prefix)?) {
            Ok(entries) => entries,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(io_error(prefix)(error)),
        };
        let mut names = Vec::new();
        for entry in entries {
            let entry = entry.map_err(io_error(prefix))?;
            if let Some(name) = entry.file_name().to_str()
                && !name.starts_with('.')
            {
                names.push(name.to_string());
            }
        }
        names.sort();
        Ok(names)
    }

    fn delete_all(&self, prefix: &str) -> Result<(), StoreError> {
        match fs::remove_dir_all(self.path(prefix)?) {
            Ok(()) => Ok(()),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(error) => Err(io_error(prefix)(error)),
        }
    }
}

/// The lock file of a data directory; never a key (keys cannot start with `.`).
const LOCK_FILE: &str = ".serve.lock";

/// An advisory exclusive lock on a data directory (flock on its [`LOCK_FILE`]), held
/// while this value lives: conditional writes of an [`FsStore`] are atomic within one
/// process only, so two instances on one directory would lose each other's writes. The
/// kernel lets go of it when the process ends, however it ends. Unix only; elsewhere a
/// lock always succeeds.
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "the data directory {dir} is in use by another siteops serve{holder}: a directory serves one instance; several instances share their state through object storage (the same --store URL for each)"
    )]
    Held { dir: PathBuf, holder: String },
    #[error("cannot lock the data directory {dir}: {source}")]
    Io { dir: PathBuf, source: io::Error },
}

impl DirLock {
    /// Locks `dir` (creating it), or says who holds it: the lock file holds the process id
    /// of its holder.
    pub(crate) fn acquire(dir: &Path) -> Result<DirLock, LockError> {
        let failed = |source| LockError::Io {
            dir: dir.to_path_buf(),
            source,
        };
        create_data_dir(dir).map_err(failed)?;
        let path = dir.join(LOCK_FILE);
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(failed)?;
        #[cfg(unix)]
        {
            use rustix::fs::{FlockOperation, flock};
            use std::io::{Read, Seek, Write};
            if let Err(errno) = flock(&file, FlockOperation::NonBlockingLockExclusive) {
                let error = io::Error::from(errno);
                if error.kind() != io::ErrorKind::WouldBlock {
                    return Err(failed(error));
                }
                let mut pid = String::new();
                // At most a process id: the file is ours, but bounded all the same.
                let _ = (&file).take(32).read_to_string(&mut pid);
                let holder = match pid.trim().parse::<u32>() {
                    Ok(pid) => format!(" (process {pid})"),
                    Err(_) => String::new(),
                };
                return Err(LockError::Held {
                    dir: dir.to_path_buf(),
                    holder,
                });
            }
            file.set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| write!(file, "{}", std::process::id()))
                .map_err(failed)?;
        }
        Ok(DirLock { _file: file })
    }
}

/// The directory siteops keeps its local state in, in a repository: the data directory
/// is `<root>/.siteops/data` unless `--data` or `--store` says otherwise.
const STATE_DIR: &str = ".siteops";

/// The `.gitignore` of a [`STATE_DIR`]: everything in it, itself included.
const STATE_DIR_IGNORE: &str = "\
# Written by siteops: this directory holds the local service's data (the key that signs
# every token, secrets, code), which must never be committed.
*
";

/// Creates a data directory and its parents; the one way the store makes one (both
/// [`FsStore::open`] and [`DirLock::acquire`] come here, whichever runs first).
///
/// Why: the data directory holds the key that signs every token and the secrets (in the
/// clear by default), and a new repository's own `.gitignore` knows nothing of
/// [`STATE_DIR`], so `git add -A` after the first `serve` would commit them. So each
/// `.siteops` directory on the way gets a `.gitignore` that ignores everything in it
/// (itself included), written before anything else goes there, unless it has one: the
/// directory ignores itself in any repository. One that exists already gets it too, so a
/// repository whose `.siteops` an older siteops made is covered from its next `serve`.
pub(crate) fn create_data_dir(dir: &Path) -> io::Result<()> {
    let mut state_dirs: Vec<&Path> = dir
        .ancestors()
        .filter(|ancestor| ancestor.file_name().is_some_and(|name| name == STATE_DIR))
        .collect();
    // Outermost first: nothing is written below a `.siteops` before its `.gitignore`.
    state_dirs.reverse();
    for state_dir in state_dirs {
        // Written once, atomically: a user's own `.gitignore` there is left as it is.
        write_new(&state_dir.join(".gitignore"), STATE_DIR_IGNORE.as_bytes())?;
    }
    fs::create_dir_all(dir)
}

fn remove_temp_files(dir: &Path) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if entry.file_type()?.is_dir() {
            remove_temp_files(&entry.path())?;
        } else if name.to_string_lossy().starts_with(TEMP_PREFIX) {
            fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_directory_ignores_itself_before_anything_is_written_in_it() {
        let repo = tempfile::tempdir().expect("temp dir");
        let data = repo.path().join(".siteops/data");
        let lock = DirLock::acquire(&data).expect("lock");
        let ignore = repo.path().join(".siteops/.gitignore");
        let text = fs::read_to_string(&ignore).expect(".gitignore written");
        assert!(text.lines().any(|line| line == "*"), "{text}");
        assert!(text.starts_with("# "), "says why: {text}");
        drop(lock);
        // A user's own is kept; a data directory elsewhere gets none.
        fs::write(&ignore, "data/\n").expect("edit");
        FsStore::open(&data).expect("store");
        assert_eq!(fs::read_to_string(&ignore).expect("kept"), "data/\n");
        let elsewhere = repo.path().join("state/data");
        FsStore::open(&elsewhere).expect("store");
        assert!(!repo.path().join("state/.gitignore").exists());
        assert!(!elsewhere.join(".gitignore").exists());
    }

    #[test]
    fn an_existing_state_directory_without_one_gets_it() {
        let repo = tempfile::tempdir().expect("temp dir");
        fs::create_dir_all(repo.path().join(".siteops/data")).expect("older siteops");
        FsStore::open(repo.path().join(".siteops/data")).expect("store");
        assert!(repo.path().join(".siteops/.gitignore").is_file());
    }

    #[tokio::test]
    async fn put_get_list_delete() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = FsStore::open(dir.path()).expect("store");
        assert_eq!(store.get("config/a/sites/b.json").await.expect("get"), None);
        store
            .put("config/a/sites/b.json", b"{}")
            .await
            .expect("put");
        store
            .put("config/a/sites/c.json", b"{\"x\":1}")
            .await
            .expect("put");
        store
            .put("config/a/sites/b.json", b"{\"v\":2}")
            .await
            .expect("overwrite");
        assert_eq!(
            store
                .get("config/a/sites/b.json")
                .await
                .expect("get")
                .as_deref(),
            Some(&b"{\"v\":2}"[..])
        );
        assert_eq!(
            store.list("config/a/sites").await.expect("list"),
            ["b.json", "c.json"]
        );
        assert!(store.delete("config/a/sites/b.json").await.expect("delete"));
        assert!(
            !store
                .delete("config/a/sites/b.json")
                .await
                .expect("delete again")
        );
        store.delete_all("config/a").await.expect("delete all");
        assert_eq!(
            store.list("config/a/sites").await.expect("list"),
            Vec::<String>::new()
        );
        assert!(store.get("../escape").await.is_err());
    }

    #[tokio::test]
    async fn conditional_writes_see_changes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = FsStore::open(dir.path()).expect("store");
        let key = "config/a/sites/b.json";
        store
            .put_if(key, b"1", Precondition::Absent)
            .await
            .expect("created");
        assert!(matches!(
            store.put_if(key, b"2", Precondition::Absent).await,
            Err(StoreError::Conflict { .. })
        ));
        let read = store
            .get_versioned(key)
            .await
            .expect("get")
            .expect("stored");
        store.put(key, b"3").await.expect("someone else writes");
        assert!(matches!(
            store
                .put_if(key, b"4", Precondition::unchanged(Some(&read)))
                .await,
            Err(StoreError::Conflict { .. })
        ));
        let fresh = store
            .get_versioned(key)
            .await
            .expect("get")
            .expect("stored");
        store
            .put_if(key, b"4", Precondition::unchanged(Some(&fresh)))
            .await
            .expect("written");
        assert_eq!(
            store.get(key).await.expect("get").as_deref(),
            Some(&b"4"[..])
        );
    }

    #[tokio::test]
    async fn sizes_removals_and_the_bytes_under_a_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = FsStore::open(dir.path()).expect("store");
        store.put("p/a/media/m.png", &[0; 300]).await.expect("put");
        store
            .put("p/a/pages/x/r/page.html", &[0; 20])
            .await
            .expect("put");
        store.put("p/b.json", &[0; 7]).await.expect("put");
        store.put("q/other", &[0; 1000]).await.expect("put");
        // A file being written is no key's.
        std::fs::write(dir.path().join("p/a/media/.tmp-1"), [0; 50]).expect("write");
        assert_eq!(
            store.size("p/a/media/m.png").await.expect("size"),
            Some(300)
        );
        assert_eq!(store.size("p/a/media").await.expect("a folder"), None);
        assert_eq!(store.size("p/b.json/x").await.expect("under a file"), None);
        assert_eq!(store.total_size("p").await.expect("total"), 327);
        assert_eq!(store.total_size("nothing").await.expect("total"), 0);
        assert_eq!(
            store.remove("p/a/media/m.png").await.expect("remove"),
            Some(300)
        );
        assert_eq!(store.remove("p/a/media/m.png").await.expect("again"), None);
        assert_eq!(store.total_size("p").await.expect("total"), 27);
    }

    /// Issue 27, finding 14: one lock per data directory; the second is refused naming
    /// the directory, its holder and `--store`, and the lock is free once dropped.
    #[cfg(unix)]
    #[tokio::test]
    async fn a_data_directory_is_locked_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("data");
        let held = DirLock::acquire(&data).expect("locked");
        let store = FsStore::open(&data).expect("store");
        store
            .put("config/a.json", b"{}")
            .await
            .expect("the holder writes");
        let refused = DirLock::acquire(&data).expect_err("held");
        let message = refused.to_string();
        assert!(message.contains(&data.display().to_string()), "{message}");
        let pid = format!("(process {})", std::process::id());
        assert!(message.contains(&pid), "{message}");
        assert!(message.contains("--store"), "{message}");
        drop(held);
        DirLock::acquire(&data).expect("free again");
    }

    #[tokio::test]
    async fn leftover_temporary_files_are_removed_on_open() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("config")).expect("dir");
        std::fs::write(dir.path().join("config/.tmp-1-0"), "torn").expect("write");
        let store = FsStore::open(dir.path()).expect("store");
        assert!(!dir.path().join("config/.tmp-1-0").exists());
        assert_eq!(
            store.list("config").await.expect("list"),
            Vec::<String>::new()
        );
    }
}
