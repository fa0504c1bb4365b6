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
//! (`mocks`, `siteops validate`'s too), the offline transport (`offline`), recording
//! (`record`) and the session's pages (`dashboard`, `trace_page`, `jobs_page`: pure HTML).

pub mod code_watch;
pub mod dashboard;
pub mod events;
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
    /// Whether outgoing requests are answered from the mocks only.
    pub offline: bool,
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
            .field("offline", &self.offline)
            .finish_non_exhaustive()
    }
}

impl Live {
    pub fn new(root: PathBuf, offline: bool) -> Live {
        Live {
            root,
            offline,
            code_overrides: BTreeMap::new(),
            snapshot: RwLock::default(),
            events: broadcast::channel(64).0,
            mocks: RwLock::default(),
            keys: OnceLock::new(),
            recent: Mutex::default(),
            applied_orgs: Mutex::default(),
            streams: Arc::default(),
        }
    }

    /// The current mocks (a cheap handle; a reload swaps them whole).
    pub fn mocks(&self) -> Arc<MockSet> {
        self.mocks.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn set_mocks(&self, mocks: MockSet) {
        *self.mocks.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(mocks);
    }

    pub fn record_preview(&self, mut preview: RecentPreview) {
        let mut recent = self.recent.lock().unwrap_or_else(|p| p.into_inner());
        preview.id = recent.front().map_or(1, |newest| newest.id + 1);
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
