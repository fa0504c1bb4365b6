//! A site's code: the files of its code repository (`code.owner`/`code.repo`) on a branch,
//! which the preview host serves (styles, scripts, blocks, icons, fonts), the page render
//! reads (`head.html`), the worker reads (templates) and the effective configuration reads
//! (`fstab.yaml`, `paths.yaml`).
//!
//! Code comes from one of two places, asked in this order:
//! 1. a **local checkout** mapped to the repository (`[code]` in `siteops.toml`, or
//!    `serve --code owner/repo=PATH`): a directory on disk, the same for every branch, as
//!    a developer's working tree is;
//! 2. the **code store**, `code/<org>/<owner>/<repo>/<branch>/<path>`, which code sync
//!    fills from the repository and `serve` fills with the repository's `templates/`: the
//!    branch's file, else `main`'s. Each org's code store is its own ([`keys::code_file`]): a site
//!    of one org that names another org's repository reads and writes only its own org's
//!    copy, so no tenant can replace, or read, another's code.
//!
//! - [`path`]: the request path of a code file, checked (pure);
//! - [`checkout`]: reading a checkout without leaving it (the disk edge), without what
//!   the platform's code sync leaves out ([`hlxignore`], pure);
//! - [`media_type`]: the content type a code file is served with (pure).
//!
//! Repoless sites share their base's code block, so they share its code as well (within
//! their org).

pub mod checkout;
pub mod hlxignore;
pub mod media_type;
pub mod path;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

pub use checkout::{Checkout, CheckoutError};
pub use path::{CodePath, CodePathError};

use crate::store::{Store, StoreError, keys};
pub use siteops_config::model::code_repo::CodeRepo;

/// Local checkouts by repository.
pub type Checkouts = BTreeMap<CodeRepo, Checkout>;

/// Where a file came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Checkout,
    Store { branch: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeFile {
    pub bytes: Vec<u8>,
    pub origin: Origin,
}

#[derive(Debug, thiserror::Error)]
pub enum CodeError {
    #[error(transparent)]
    Checkout(#[from] CheckoutError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Where a repository's code comes from, for the dashboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A mapped checkout: the path as configured.
    Checkout(PathBuf),
    /// The code store, with the names at the top of `main`'s code (files and folders).
    Store { main_entries: Vec<String> },
}

/// The code of every repository: the checkouts (replaced whole when the mapping changes)
/// over the code store.
pub struct SiteCode {
    store: Arc<dyn Store>,
    checkouts: RwLock<Arc<Checkouts>>,
}

impl SiteCode {
    pub fn new(store: Arc<dyn Store>) -> SiteCode {
        SiteCode {
            store,
            checkouts: RwLock::default(),
        }
    }

    /// The current checkouts (a cheap handle).
    pub fn checkouts(&self) -> Arc<Checkouts> {
        self.checkouts
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn set_checkouts(&self, checkouts: Checkouts) {
        *self.checkouts.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(checkouts);
    }

    /// A code file of `repo` on `branch` for a site of `org`: the checkout's, else the
    /// branch's in the org's code store, else `main`'s. The checkout is read on a blocking
    /// thread (it is a disk); the branch's and `main`'s files are asked together, one
    /// round trip to the store.
    pub async fn read(
        &self,
        org: &str,
        repo: &CodeRepo,
        branch: &str,
        path: &CodePath,
    ) -> Result<Option<CodeFile>, CodeError> {
        if let Some(checkout) = self.checkouts().get(repo).cloned() {
            let wanted = path.clone();
            let read = tokio::task::spawn_blocking(move || checkout.read(&wanted)).await;
            let read = read.map_err(|stopped| CheckoutError::Read {
                path: path.to_string(),
                source: std::io::Error::other(stopped.to_string()),
            })?;
            if let Some(bytes) = read? {
                return Ok(Some(CodeFile {
                    bytes,
                    origin: Origin::Checkout,
                }));
            }
        }
        // Keys are stricter than code paths (ASCII names): anything else is not stored.
        let key_on = |candidate: &str| {
            let key = keys::code_file(org, repo, candidate, path.as_str());
            crate::store::check_key(&key).is_ok().then_some(key)
        };
        let Some(on_branch) = key_on(branch) else {
            return Ok(None);
        };
        let found = |bytes: Vec<u8>, branch: &str| CodeFile {
            bytes,
            origin: Origin::Store {
                branch: branch.to_string(),
            },
        };
        if branch == "main" {
            return Ok(self.store.get(&on_branch).await?.map(|b| found(b, "main")));
        }
        let Some(on_main) = key_on("main") else {
            return Ok(None);
        };
        let (own, main) = tokio::join!(self.store.get(&on_branch), self.store.get(&on_main));
        Ok(match own? {
            Some(bytes) => Some(found(bytes, branch)),
            None => main?.map(|bytes| found(bytes, "main")),
        })
    }

    /// A code file as UTF-8 text (`head.html`, a template, a YAML file); `None` when it is
    /// missing, unreadable or not UTF-8, which callers treat as absent (and log).
    pub async fn text(
        &self,
        org: &str,
        repo: &CodeRepo,
        branch: &str,
        path: &str,
    ) -> Option<String> {
        let path = CodePath::new(path).ok()?;
        match self.read(org, repo, branch, &path).await {
            Ok(file) => String::from_utf8(file?.bytes).ok(),
            Err(error) => {
                tracing::warn!(%repo, %branch, %path, %error, "cannot read a code file");
                None
            }
        }
    }

    /// Where `repo`'s code comes from, for the sites of `org`.
    pub async fn source(&self, org: &str, repo: &CodeRepo) -> Source {
        if let Some(checkout) = self.checkouts().get(repo) {
            return Source::Checkout(checkout.configured.clone());
        }
        let main_entries = self
            .store
            .list(&keys::code_branch(org, repo, "main"))
            .await
            .unwrap_or_default();
        Source::Store { main_entries }
    }
}

impl std::fmt::Debug for SiteCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SiteCode")
            .field("checkouts", &self.checkouts())
            .finish_non_exhaustive()
    }
}
