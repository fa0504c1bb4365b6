//! Watching the repository: file-system events (notify), filtered to the files a site is
//! made of, gathered into one batch per burst of changes (an editor's save is often a
//! write, a rename and a chmod).

use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;

/// How long after the first event of a burst the batch is closed. Short: the goal is an
/// edit showing in an open page in under 500 ms, and validating the repository is fast.
pub const DEBOUNCE: Duration = Duration::from_millis(40);

/// A running watch; dropping it stops watching.
pub struct RepoWatch {
    _watcher: RecommendedWatcher,
}

/// Starts watching `root` (its `sites/` and `siteops.toml`). Each batch of relevant
/// changed paths (relative to `root`) is sent on the returned channel.
pub fn watch(root: &Path) -> notify::Result<(RepoWatch, mpsc::Receiver<Vec<PathBuf>>)> {
    let (raw_tx, mut raw_rx) = mpsc::unbounded_channel::<PathBuf>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        for path in event.paths {
            let _ = raw_tx.send(path);
        }
    })?;
    // Watching the root (not only `sites/`) also sees `sites/` being created or replaced.
    watcher.watch(root, RecursiveMode::Recursive)?;
    let root = root.to_path_buf();
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(async move {
        while let Some(first) = raw_rx.recv().await {
            let mut batch = Vec::new();
            push_relevant(&root, first, &mut batch);
            let deadline = tokio::time::sleep(DEBOUNCE);
            tokio::pin!(deadline);
            loop {
                tokio::select! {
                    _ = &mut deadline => break,
                    next = raw_rx.recv() => match next {
                        Some(path) => push_relevant(&root, path, &mut batch),
                        None => break,
                    },
                }
            }
            if !batch.is_empty() && tx.send(batch).await.is_err() {
                return;
            }
        }
    });
    Ok((RepoWatch { _watcher: watcher }, rx))
}

fn push_relevant(root: &Path, path: PathBuf, batch: &mut Vec<PathBuf>) {
    let Ok(relative) = path.strip_prefix(root) else {
        return;
    };
    if is_relevant(relative) && !batch.iter().any(|p| p == relative) {
        batch.push(relative.to_path_buf());
    }
}

/// Files under `sites/` (configuration, templates, mocks) and `siteops.toml`; not hidden
/// files such as editors' swap files, nor anything under a hidden directory (`.siteops`
/// holds the server's own data).
pub fn is_relevant(relative: &Path) -> bool {
    let mut components = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy());
    let Some(first) = components.next() else {
        return false;
    };
    let hidden = relative
        .components()
        .any(|c| c.as_os_str().to_string_lossy().starts_with('.'));
    let name = relative
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    !hidden
        && !is_temporary(&name)
        && (first == "sites" || (first == "siteops.toml" && components.next().is_none()))
}

/// Whether a file name is an editor's backup or swap file (`a.css~`, `.a.css.swp`).
pub fn is_temporary(name: &str) -> bool {
    name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".tmp")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_site_files_and_settings_count() {
        for (path, relevant) in [
            ("sites/acme/web/site.toml", true),
            ("sites/acme/web/templates/a.html", true),
            ("sites/acme/web/mocks/mappings/a.json", true),
            ("sites", true),
            ("siteops.toml", true),
            ("siteops.toml/x", false),
            ("sites/acme/web/.site.toml.swp", false),
            ("sites/acme/web/site.toml~", false),
            ("sites/acme/.git/HEAD", false),
            (".siteops/data/x", false),
            ("target/debug/x", false),
            ("README.md", false),
        ] {
            assert_eq!(is_relevant(Path::new(path)), relevant, "{path}");
        }
    }

    #[tokio::test]
    async fn a_burst_of_changes_is_one_batch() {
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(root.path().join("sites/acme/web")).expect("dirs");
        let root_path = root.path().canonicalize().expect("canonical");
        let (_watch, mut batches) = watch(&root_path).expect("watching");
        for name in ["site.toml", "access.toml", ".site.toml.swp"] {
            std::fs::write(root_path.join("sites/acme/web").join(name), "x").expect("write");
        }
        std::fs::write(root_path.join("README.md"), "x").expect("write");
        let batch = tokio::time::timeout(Duration::from_secs(5), batches.recv())
            .await
            .expect("a batch in time")
            .expect("open");
        let mut names: Vec<String> = batch.iter().map(|p| p.display().to_string()).collect();
        names.sort();
        assert_eq!(
            names,
            ["sites/acme/web/access.toml", "sites/acme/web/site.toml"]
        );
    }
}
