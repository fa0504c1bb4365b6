//! Watching the code checkouts: a saved file of a checkout becomes a
//! [`LiveEvent::CodeChanged`] for the open pages of that repository's sites (stylesheets
//! are swapped in place, anything else reloads the page).
//!
//! Only what can be served is watched: the walk skips hidden directories and
//! `node_modules`, which in a real checkout hold most of the directories and would use up
//! the system's inotify watches. A directory created later is walked when it appears.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;

use super::watch::DEBOUNCE;
use super::{Live, LiveEvent};
use crate::code::{Checkouts, CodeRepo};

/// The watch of the current checkouts; [`CodeWatch::follow`] re-targets it.
pub struct CodeWatch {
    live: Arc<Live>,
    current: Option<Running>,
}

struct Running {
    roots: BTreeMap<CodeRepo, PathBuf>,
    _watcher: Arc<Mutex<RecommendedWatcher>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl CodeWatch {
    pub fn new(live: Arc<Live>) -> CodeWatch {
        CodeWatch {
            live,
            current: None,
        }
    }

    /// Watches exactly `checkouts` from now on; false (and nothing done) when they are the
    /// ones already watched.
    pub fn follow(&mut self, checkouts: &Checkouts) -> bool {
        let roots: BTreeMap<CodeRepo, PathBuf> = checkouts
            .iter()
            .map(|(repo, checkout)| (repo.clone(), checkout.root().to_path_buf()))
            .collect();
        let watched = self.current.as_ref().map(|c| &c.roots);
        if watched == Some(&roots) || (watched.is_none() && roots.is_empty()) {
            return false;
        }
        self.current = None;
        if roots.is_empty() {
            return true;
        }
        match start(self.live.clone(), checkouts.clone(), roots) {
            Ok(running) => self.current = Some(running),
            Err(error) => {
                tracing::error!(%error, "cannot watch the code checkouts; edits will not reload pages")
            }
        }
        true
    }
}

fn start(
    live: Arc<Live>,
    checkouts: Checkouts,
    roots: BTreeMap<CodeRepo, PathBuf>,
) -> notify::Result<Running> {
    let (raw_tx, mut raw_rx) = mpsc::unbounded_channel::<(EventKind, PathBuf)>();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        for path in event.paths {
            let _ = raw_tx.send((event.kind, path));
        }
    })?;
    let watcher = Arc::new(Mutex::new(watcher));
    for root in roots.values() {
        watch_tree(&watcher, root);
    }
    let shared = watcher.clone();
    let task = tokio::spawn(async move {
        while let Some(first) = raw_rx.recv().await {
            let mut batch = vec![first];
            let deadline = tokio::time::sleep(DEBOUNCE);
            tokio::pin!(deadline);
            loop {
                tokio::select! {
                    _ = &mut deadline => break,
                    next = raw_rx.recv() => match next {
                        Some(event) => batch.push(event),
                        None => break,
                    },
                }
            }
            for (kind, path) in &batch {
                if matches!(kind, EventKind::Create(_)) && path.is_dir() && is_watched_dir(path) {
                    watch_tree(&shared, path);
                }
            }
            for event in changes(&checkouts, batch.iter().map(|(_, path)| path.as_path())) {
                tracing::info!(?event, "code changed");
                let _ = live.events.send(event);
            }
        }
    });
    Ok(Running {
        roots,
        _watcher: watcher,
        task,
    })
}

/// The events for a batch of changed paths: one per repository, its servable files'
/// web paths, deduplicated in order.
pub fn changes<'a>(checkouts: &Checkouts, paths: impl Iterator<Item = &'a Path>) -> Vec<LiveEvent> {
    let mut by_repo: BTreeMap<CodeRepo, Vec<String>> = BTreeMap::new();
    for path in paths {
        for (repo, checkout) in checkouts {
            if let Some(code_path) = checkout.code_path_of(path) {
                let web = format!("/{code_path}");
                let list = by_repo.entry(repo.clone()).or_default();
                if !list.contains(&web) {
                    list.push(web);
                }
            }
        }
    }
    by_repo
        .into_iter()
        .map(|(repo, paths)| LiveEvent::CodeChanged { repo, paths })
        .collect()
}

/// Whether a directory's own name lets it be watched (not hidden, not `node_modules`).
fn is_watched_dir(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| !name.starts_with('.') && name != "node_modules")
}

/// Watches `dir` and its directories that can hold served files, without following
/// symlinks.
fn watch_tree(watcher: &Mutex<RecommendedWatcher>, dir: &Path) {
    let mut pending = vec![dir.to_path_buf()];
    let mut watcher = watcher.lock().unwrap_or_else(|p| p.into_inner());
    while let Some(dir) = pending.pop() {
        if let Err(error) = watcher.watch(&dir, RecursiveMode::NonRecursive) {
            tracing::warn!(dir = %dir.display(), %error, "cannot watch a checkout directory");
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && is_watched_dir(&entry.path()) {
                pending.push(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Checkout;

    #[test]
    fn changed_files_become_web_paths_of_their_repository() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(dir.path().join("styles")).expect("mkdir");
        let checkout = Checkout::open(dir.path()).expect("open");
        let root = checkout.root().to_path_buf();
        let repo = CodeRepo::new("acme", "website");
        let checkouts = Checkouts::from([(repo.clone(), checkout)]);
        let changed = [
            root.join("styles/styles.css"),
            root.join("styles/styles.css"),
            root.join("blocks/hero/hero.js"),
            root.join(".git/index"),
            root.join("node_modules/x/index.js"),
            PathBuf::from("/elsewhere/styles.css"),
        ];
        let events = changes(&checkouts, changed.iter().map(PathBuf::as_path));
        assert_eq!(
            events,
            [LiveEvent::CodeChanged {
                repo,
                paths: vec!["/styles/styles.css".into(), "/blocks/hero/hero.js".into()]
            }]
        );
    }
}
