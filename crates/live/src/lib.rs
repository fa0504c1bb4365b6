//! The live session of `siteops serve`: it applies the repository to the bundled service
//! (`session`), watches the repository (`watch`) and re-applies on every change, and tells
//! open preview pages to reload (`LiveEvent`s, sent to pages as server-sent events).
//!
//! [`Live`] is what the server and the session share: the last reload's [`Snapshot`] for
//! the dashboard, the event channel, and the mocks that answer outgoing requests offline.
//!
//! A crate above `siteops-server`: it uses the server's items, and joins a running server
//! only through [`siteops_server::app::Session`] (`routes`), so the server never names
//! it, nor reaches file watching, the mocks or apply. It also holds validation with mocks
//! (`mocks`, `siteops validate`'s too) and of the code checkouts (`checkouts`), the offline transport (`offline`), recording
//! (`record`) and the session's pages (`dashboard`, `trace_page`, `jobs_page`: pure HTML).

pub mod checkouts;
pub mod code_watch;
pub mod dashboard;
pub mod events;
pub mod examples;
pub mod jobs_page;
pub mod mocks;
pub mod offline;
pub mod pages;
pub mod record;
mod routes;
pub mod session;
pub mod trace_page;
pub mod watch;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use tokio::sync::broadcast;

use siteops_config::compile::Compiled;
use siteops_config::model::SiteId;
use siteops_mocks::MockSet;
use siteops_server::code::CodeRepo;

pub use session::{SERVE_SUBJECT, TEMPLATE_READER_SUBJECT, Target, reload};

pub struct Live {
    /// The repository served.
    pub root: PathBuf,
    /// Where outgoing requests go (the dashboard says it; the transport does it).
    pub mode: offline::Mode,
    /// `serve --code owner/repo=DIR`: checkouts that take precedence over siteops.toml's.
    pub code_overrides: BTreeMap<CodeRepo, PathBuf>,
    pub snapshot: RwLock<Snapshot>,
    pub events: broadcast::Sender<LiveEvent>,
    mocks: RwLock<Arc<MockSet>>,
    /// The session's token for its own service and its stand-in secrets, made on the
    /// first reload.
    keys: OnceLock<session::SessionKeys>,
    /// The last previews, newest first.
    recent: Mutex<VecDeque<RecentPreview>>,
    /// Every org this session has applied: pruned on each reload, so that an org whose
    /// last site leaves the repository loses it on the service too.
    applied_orgs: Mutex<BTreeSet<String>>,
    /// The reload event streams open now, and their bounds and lifetime.
    pub streams: Arc<events::OpenStreams>,
    /// `serve --site-port`: the preview hosts also answered on a port of their own, set
    /// once they are bound (the dashboard links them).
    pub site_ports: OnceLock<Vec<(siteops_server::preview::PreviewHost, std::net::SocketAddr)>>,
}

pub use siteops_server::app::RecentPreview;

/// How many previews the dashboard keeps.
const RECENT: usize = 50;

/// The outcome of the last reload, for the dashboard.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// Counts reloads; pages compare it to know they are current.
    pub generation: u64,
    pub reloaded_at: u64,
    pub reload_ms: u64,
    /// The last compiled state that was applied.
    pub compiled: Option<Compiled>,
    /// The pages known for each site (worker entry examples, mocked source pages).
    pub pages: BTreeMap<SiteId, Vec<pages::KnownPage>>,
    /// The last reload's diagnostics (human text, without colour); empty when clean.
    pub diagnostics: String,
    /// How many problems `diagnostics` holds (diagnostics, mock files, secrets).
    pub diagnostic_count: usize,
    /// What the last successful reload changed on the bundled service.
    pub changes: Vec<String>,
    /// Why the last reload did not apply, when it did not.
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveEvent {
    Reloaded {
        generation: u64,
    },
    Failed {
        generation: u64,
        message: String,
    },
    /// Files of a checkout changed: their web paths (`/styles/styles.css`).
    CodeChanged {
        repo: CodeRepo,
        paths: Vec<String>,
    },
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live")
            .field("root", &self.root)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl Live {
    /// A session offline (`true`: every request from the mocks) or online; `serve` sets
    /// [`Live::mode`] to [`offline::Mode::Mocks`] by default.
    pub fn new(root: PathBuf, offline: bool) -> Live {
        Live {
            root,
            mode: if offline {
                offline::Mode::Offline
            } else {
                offline::Mode::Online
            },
            code_overrides: BTreeMap::new(),
            snapshot: RwLock::default(),
            events: broadcast::channel(64).0,
            mocks: RwLock::default(),
            keys: OnceLock::new(),
            recent: Mutex::default(),
            applied_orgs: Mutex::default(),
            streams: Arc::default(),
            site_ports: OnceLock::new(),
        }
    }

    /// The current mocks (a cheap handle; a reload swaps them whole).
    pub fn mocks(&self) -> Arc<MockSet> {
        self.mocks.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Where outgoing requests go now, for the dashboard.
    pub fn outgoing(&self) -> offline::Outgoing {
        match self.mode {
            offline::Mode::Offline => offline::Outgoing::Offline,
            offline::Mode::Mocks => offline::Outgoing::Mocks(self.mocks().hosts()),
            offline::Mode::Online => offline::Outgoing::Online,
        }
    }

    fn set_mocks(&self, mocks: MockSet) {
        *self.mocks.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(mocks);
    }

    /// Records a preview as the newest. A page previewed again (each view of a page
    /// previews it) keeps one row, its newest: the list shows pages, not views.
    pub fn record_preview(&self, mut preview: RecentPreview) {
        let mut recent = self.recent.lock().unwrap_or_else(|p| p.into_inner());
        preview.id = recent.front().map_or(1, |newest| newest.id + 1);
        recent.retain(|older| {
            (&older.site, &older.branch, &older.path)
                != (&preview.site, &preview.branch, &preview.path)
        });
        recent.push_front(preview);
        recent.truncate(RECENT);
    }

    /// The last previews, newest first.
    pub fn recent_previews(&self) -> Vec<RecentPreview> {
        self.recent
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .cloned()
            .collect()
    }

    pub fn subscribe(&self) -> broadcast::Receiver<LiveEvent> {
        self.events.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preview(site: &str, path: &str, status: u16) -> RecentPreview {
        RecentPreview {
            id: 0,
            site: SiteId {
                org: "acme".into(),
                site: site.into(),
            },
            branch: "main".into(),
            path: path.into(),
            status,
            error: None,
            at: 0,
            trace: Default::default(),
            warnings: Vec::new(),
        }
    }

    /// Issue 44: each view of a page previews it, and the dashboard listed every view.
    #[test]
    fn a_page_previewed_again_keeps_one_row_its_newest() {
        let live = Live::new(PathBuf::from("."), true);
        live.record_preview(preview("website", "/", 200));
        live.record_preview(preview("website", "/about", 200));
        live.record_preview(preview("website", "/", 502));
        live.record_preview(preview("blog", "/", 200));
        let rows: Vec<(String, String, u16, u64)> = live
            .recent_previews()
            .into_iter()
            .map(|p| (p.site.site, p.path, p.status, p.id))
            .collect();
        assert_eq!(
            rows,
            [
                ("blog".into(), "/".into(), 200, 4),
                ("website".into(), "/".into(), 502, 3),
                ("website".into(), "/about".into(), 200, 2),
            ]
        );
    }
}
