//! [`Store`] on the local file system.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::{Store, StoreError, check_key};
// Marks files being written; never a valid key segment (keys cannot start with `.`).
use crate::fsutil::{TEMP_PREFIX, write_atomic};

#[derive(Debug)]
pub struct FsStore {
    root: PathBuf,
}

impl FsStore {
    /// Opens (creating) the store at `root`, removing temporary files a crash left behind.
    pub fn open(root: impl Into<PathBuf>) -> io::Result<FsStore> {
        let root = root.into();
        fs::create_dir_all(&root)?;
        remove_temp_files(&root)?;
        Ok(FsStore { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Makes the file of `key` readable and writable by its owner only (0600; Unix only).
    /// Files the store writes start that way; this tightens one written otherwise.
    pub fn make_private(&self, key: &str) -> Result<(), StoreError> {
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

    fn path(&self, key: &str) -> Result<PathBuf, StoreError> {
        check_key(key)?;
        Ok(self.root.join(key))
    }
}

fn io_error(key: &str) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        key: key.to_string(),
        source,
    }
}

impl Store for FsStore {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        match fs::read(self.path(key)?) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            // A key whose parent is a file, say: nothing is stored there.
            Err(error) if error.kind() == io::ErrorKind::NotADirectory => Ok(None),
            Err(error) => Err(io_error(key)(error)),
        }
    }

    fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        // Durable before `put` returns: the data, then the name.
        write_atomic(&self.path(key)?, bytes).map_err(io_error(key))
    }

    fn delete(&self, key: &str) -> Result<bool, StoreError> {
        let path = self.path(key)?;
        match fs::remove_file(&path) {
            Ok(()) => {
                if let Some(dir) = path.parent() {
                    File::open(dir)
                        .and_then(|d| d.sync_all())
                        .map_err(io_error(key))?;
                }
                Ok(true)
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(error) => Err(io_error(key)(error)),
        }
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
    fn put_get_list_delete() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = FsStore::open(dir.path()).expect("store");
        assert_eq!(store.get("config/a/sites/b.json").expect("get"), None);
        store.put("config/a/sites/b.json", b"{}").expect("put");
        store
            .put("config/a/sites/c.json", b"{\"x\":1}")
            .expect("put");
        store
            .put("config/a/sites/b.json", b"{\"v\":2}")
            .expect("overwrite");
        assert_eq!(
            store.get("config/a/sites/b.json").expect("get").as_deref(),
            Some(&b"{\"v\":2}"[..])
        );
        assert_eq!(
            store.list("config/a/sites").expect("list"),
            ["b.json", "c.json"]
        );
        assert!(store.delete("config/a/sites/b.json").expect("delete"));
        assert!(!store.delete("config/a/sites/b.json").expect("delete again"));
        store.delete_all("config/a").expect("delete all");
        assert_eq!(
            store.list("config/a/sites").expect("list"),
            Vec::<String>::new()
        );
        assert!(store.get("../escape").is_err());
    }

    #[test]
    fn leftover_temporary_files_are_removed_on_open() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("config")).expect("dir");
        std::fs::write(dir.path().join("config/.tmp-1-0"), "torn").expect("write");
        let store = FsStore::open(dir.path()).expect("store");
        assert!(!dir.path().join("config/.tmp-1-0").exists());
        assert_eq!(store.list("config").expect("list"), Vec::<String>::new());
    }
}
