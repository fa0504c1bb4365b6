//! Watching the code checkouts: a saved file of a checkout becomes a
//! [`LiveEvent::CodeChanged`] for the open pages of that repository's sites (stylesheets
//! are swapped in place, anything else reloads the page).
//!
//! Only what can be served is watched: the walk skips hidden directories and
//! `node_modules`, which in a real checkout hold most of the directories and would use up
//! the system's inotify watches. A directory created later is walked when it appears.
//!
//! Editors that save through a temporary file (`sed -i`, vim: write a new file, rename it
//! over the old one) make files that come and go within the save. Those are no change of
//! the site's code: a rename onto a stylesheet is a change of that stylesheet only, so the
//! open pages swap it in place instead of reloading.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use notify::event::{ModifyKind, RenameMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;

use super::watch::{DEBOUNCE, is_temporary};
use super::{Live, LiveEvent};
use siteops_server::code::{Checkouts, CodeRepo};

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
    let (raw_tx, mut raw_rx) = mpsc::unbounded_channel::<Seen>();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        for (index, path) in event.paths.into_iter().enumerate() {
            let _ = raw_tx.send(Seen {
                appeared: appears(event.kind, index),
                directory: matches!(event.kind, EventKind::Create(_)),
                path,
            });
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
            for seen in &batch {
                if seen.directory && seen.path.is_dir() && is_watched_dir(&seen.path) {
                    watch_tree(&shared, &seen.path);
                }
            }
            for event in changes(&checkouts, &batch) {
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

/// A path the watcher reported.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: PathBuf,
    /// Whether the event made the path exist (created, or renamed to).
    pub appeared: bool,
    /// Whether it was created (a new directory is then watched too).
    pub directory: bool,
}

/// Whether the event of `kind` made its `index`th path exist: a creation, the target of a
/// rename (the second path of a rename reported with both).
fn appears(kind: EventKind, index: usize) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Modify(ModifyKind::Name(RenameMode::To)) => true,
        EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => index == 1,
        _ => false,
    }
}

/// The events for a batch of changed paths: one per repository, its servable files'
/// web paths, deduplicated in order. A file that appeared within the batch and is gone at
/// its end (an editor's temporary file, renamed over the file it saves, or removed), and
/// an editor's backup or swap file, changed nothing served.
pub fn changes(checkouts: &Checkouts, batch: &[Seen]) -> Vec<LiveEvent> {
    let transient = |path: &Path| {
        batch.iter().any(|s| s.appeared && s.path == path) && path.symlink_metadata().is_err()
    };
    let mut by_repo: BTreeMap<CodeRepo, Vec<String>> = BTreeMap::new();
    for Seen { path, .. } in batch {
        let name = path.file_name().map(|n| n.to_string_lossy());
        if name.is_some_and(|name| is_temporary(&name)) || transient(path) {
            continue;
        }
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
    use siteops_server::code::Checkout;

    fn seen(path: PathBuf, appeared: bool) -> Seen {
        Seen {
            path,
            appeared,
            directory: false,
        }
    }

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
        let batch: Vec<Seen> = changed.into_iter().map(|p| seen(p, false)).collect();
        let events = changes(&checkouts, &batch);
        assert_eq!(
            events,
            [LiveEvent::CodeChanged {
                repo,
                paths: vec!["/styles/styles.css".into(), "/blocks/hero/hero.js".into()]
            }]
        );
    }

    /// Issue 28: saving through a temporary file renamed over the stylesheet (`sed -i`,
    /// vim) reloaded the open pages instead of swapping the sheet in place.
    #[test]
    fn temporary_files_of_a_save_are_no_change() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(dir.path().join("styles")).expect("mkdir");
        std::fs::write(dir.path().join("styles/styles.css"), "a{}").expect("write");
        std::fs::write(dir.path().join("styles/kept.js"), "1").expect("write");
        let checkout = Checkout::open(dir.path()).expect("open");
        let root = checkout.root().to_path_buf();
        let repo = CodeRepo::new("acme", "website");
        let checkouts = Checkouts::from([(repo.clone(), checkout)]);
        let css = root.join("styles/styles.css");
        // sed -i: a temporary file created, written, renamed onto the sheet.
        let sed = root.join("styles/sedX1b2c3");
        // vim: a test file, the old sheet renamed to a backup, a new sheet, the backup gone.
        let (probe, backup) = (root.join("styles/4913"), root.join("styles/styles.css~"));
        let batch = [
            seen(sed.clone(), true),
            seen(sed.clone(), false),
            seen(sed, false),
            seen(css.clone(), true),
            seen(probe.clone(), true),
            seen(probe, false),
            seen(css.clone(), false),
            seen(backup.clone(), true),
            seen(css, true),
            seen(backup, false),
        ];
        assert_eq!(
            changes(&checkouts, &batch),
            [LiveEvent::CodeChanged {
                repo: repo.clone(),
                paths: vec!["/styles/styles.css".into()]
            }]
        );
        // A file removed that was there before the batch is a change (the page reloads).
        let removed = [seen(root.join("styles/gone.js"), false)];
        assert_eq!(
            changes(&checkouts, &removed),
            [LiveEvent::CodeChanged {
                repo,
                paths: vec!["/styles/gone.js".into()]
            }]
        );
    }
}
