//! The preview service: a page previewed now and stored, or a stored preview removed, with
//! what that takes around the pipeline ([`super::run`]): the site's effective content
//! source and `head.html`, a turn among the previews running at once, room in the site's
//! usage, the page's lock. The administration API's preview route and the live session's
//! preview hosts (a page previewed when viewed) both call it. It takes what it uses, not
//! the application's state, and fails with a [`ServiceError`]; the routes choose statuses.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderValue;
use url::Url;

use super::fetch::WorkerCredential;
use super::store::{BranchPreviews, PreviewRecord, Rewrite};
use super::usage::{SiteUsage, UsageError, UsageLocks};
use super::{Limits, PagePath, PreviewError, PreviewRequest, Trace, Transport};
use crate::auth::{Claims, SigningKey};
use crate::code::SiteCode;
use crate::effective::content_source;
use crate::quota::Throttles;
use crate::sites::Site;
use crate::store::{KeyedLocks, Store, StoreError};

/// How long a preview's hold of room lasts past its deadline: its save comes after it.
const HOLD_PAST_DEADLINE: Duration = Duration::from_secs(600);

/// Why a preview was not made (or not removed).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The pipeline failed: fetching, images, converting.
    #[error(transparent)]
    Preview(#[from] PreviewError),
    #[error("{org}/{site} has no content source (neither configured nor in fstab.yaml)")]
    NoContentSource { org: String, site: String },
    /// No turn among the previews running at once came in time.
    #[error(
        "no preview turn came within {waited_ms} ms: {at_once} previews run at once, at most {per_org} of org {org}"
    )]
    Busy {
        waited_ms: u128,
        at_once: usize,
        per_org: usize,
        org: String,
    },
    /// The site's previews have no room for what this one writes, or their usage failed.
    #[error(transparent)]
    Usage(#[from] UsageError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A site, its stored document and the branch previewed.
pub struct SiteRef<'a> {
    pub org: &'a str,
    pub site: &'a str,
    pub branch: &'a str,
    pub document: &'a Site,
}

/// What a preview asks besides its page: the source's credentials, who asks, where the
/// preview host is, and whether an unchanged page is written again.
pub struct Ask<'a> {
    /// `x-content-source-authorization`, sent to the page's own source only.
    pub authorization: Option<&'a HeaderValue>,
    /// For a site that requires authentication, the caller lends the preview a token for
    /// the site's pages on this server's own worker.
    pub caller: Option<&'a Claims>,
    pub preview_origin: &'a Url,
    pub rewrite: Rewrite,
}

/// What a preview came to, with the pipeline's trace either way.
pub struct Previewed {
    pub result: Result<PreviewRecord, ServiceError>,
    pub trace: Trace,
}

/// What the service works with: the server's shared parts it needs, borrowed.
pub struct PreviewService<'a> {
    pub store: &'a Arc<dyn Store>,
    pub transport: &'a dyn Transport,
    pub limits: &'a Limits,
    pub locks: &'a KeyedLocks,
    pub usage_locks: &'a UsageLocks,
    pub code: &'a SiteCode,
    pub throttles: &'a Throttles,
    /// Signs the token a preview of a protected site sends to this server's own worker.
    pub key: &'a SigningKey,
    /// Where this server listens, once bound: the own worker's address.
    pub own_addr: Option<SocketAddr>,
}

impl PreviewService<'_> {
    /// What `org/site`'s previews hold in the store, under the site's cap.
    pub fn usage(&self, org: &str, site: &str) -> SiteUsage {
        SiteUsage::new(
            self.store.clone(),
            self.usage_locks,
            org,
            site,
            self.throttles.quotas.preview_bytes_per_site,
        )
    }

    /// Previews `page` now and stores the result: the pipeline from the site's effective
    /// content source, then the record saved under the page's lock. A failed preview keeps
    /// none of the images it wrote; the page stays as it was.
    pub async fn preview(&self, target: &SiteRef<'_>, page: &PagePath, ask: Ask<'_>) -> Previewed {
        let SiteRef {
            org,
            site,
            branch,
            document,
        } = *target;
        let store = self.store.as_ref();
        let previews = BranchPreviews::new(store, org, site, branch);
        let Some(content) = content_source(self.code, document, branch).await else {
            return Previewed {
                result: Err(ServiceError::NoContentSource {
                    org: org.into(),
                    site: site.into(),
                }),
                trace: Trace::default(),
            };
        };
        let worker = ask
            .caller
            .filter(|_| document.protects_content())
            .and_then(|caller| self.worker_credential(org, site, caller));
        let request = PreviewRequest {
            content: &content.value,
            page,
            authorization: ask.authorization,
            worker: worker.as_ref(),
            preview_origin: ask.preview_origin,
            head_html: head_html(self.code, document, branch).await,
        };
        // A turn among the previews running at once; the wait counts against the deadline.
        let began = std::time::Instant::now();
        let deadline = self.limits.preview_deadline;
        let Some(turn) = self.throttles.preview_slot(org, deadline).await else {
            let quotas = &self.throttles.quotas;
            return Previewed {
                result: Err(ServiceError::Busy {
                    waited_ms: deadline.as_millis(),
                    at_once: quotas.concurrent_previews,
                    per_org: quotas.previews_per_org,
                    org: org.into(),
                }),
                trace: Trace::default(),
            };
        };
        // What the preview writes is counted in the site's usage, under its cap. The hold
        // of room outlasts the deadline, so that only a preview that stopped loses it.
        let usage = self.usage(org, site);
        let room = usage.room(deadline + HOLD_PAST_DEADLINE);
        let outcome = super::run(
            self.transport,
            self.limits,
            &request,
            &previews.media_sink(&room),
            began,
        )
        .await;
        // The turn is for fetching and converting; recording the outcome needs none.
        drop(turn);
        let (preview, trace) = match outcome {
            Ok(preview) => {
                let trace = preview.trace.clone();
                (Ok(preview), trace)
            }
            Err(failure) => (Err(failure.error), failure.trace),
        };
        log_trace(org, site, branch, &page.web_path(), &trace);
        // The page's lock, held until what the save replaced is removed.
        let mut page_lock = None;
        let saved = match preview {
            Ok(preview) => {
                let content_bus_id = crate::sites::content_bus_id(&content.value);
                let now = crate::time::now_rfc3339();
                page_lock = Some(
                    self.locks
                        .lock(previews.page(&preview.web_path).lock_name())
                        .await,
                );
                previews
                    .save_when(&preview, &content_bus_id, &now, ask.rewrite, &room)
                    .await
                    .map_err(ServiceError::from)
            }
            // The site's refusal of room, whatever the pipeline made of the image it stopped.
            Err(error) => Err(room.refusal().map_or_else(
                || ServiceError::Preview(error),
                |refused| ServiceError::Usage(refused.into()),
            )),
        };
        if saved.is_err()
            && let Err(error) = previews.forget_created(&room).await
        {
            tracing::error!(%error, "the images of a failed preview were not looked at");
        }
        if let Err(error) = room.finish().await {
            // The preview is what it is; the usage stays counted over until a recount.
            tracing::error!(%error, org, site, "the preview's usage was not settled");
        }
        drop(page_lock);
        Previewed {
            result: saved,
            trace,
        }
    }

    /// Removes the stored preview of `page` (a sheet's too, as reading finds it), under the
    /// page's lock, giving the site's usage back its bytes: false when it has none.
    pub async fn delete(
        &self,
        org: &str,
        site: &str,
        branch: &str,
        page: &PagePath,
    ) -> Result<bool, ServiceError> {
        let previews = BranchPreviews::new(self.store.as_ref(), org, site, branch);
        let mut web_path = page.web_path();
        if previews.load(&web_path).await?.is_none() {
            web_path = page.resource_path(true);
        }
        let _guard = self.locks.lock(previews.page(&web_path).lock_name()).await;
        let usage = self.usage(org, site);
        let room = usage.room(HOLD_PAST_DEADLINE);
        if !previews.delete(&web_path, &room).await? {
            return Ok(false);
        }
        room.finish().await?;
        Ok(true)
    }

    /// A token for `org/site`'s pages on this server's own worker, for the time of one
    /// preview: the caller's identity (so the worker grants what the caller's role
    /// allows), for that site only.
    fn worker_credential(
        &self,
        org: &str,
        site: &str,
        caller: &Claims,
    ) -> Option<WorkerCredential> {
        let own = self.own_addr?;
        let now = crate::time::now_seconds();
        let token = self.key.sign(&Claims {
            sub: caller.sub.clone(),
            iat: now,
            exp: now + self.limits.preview_deadline.as_secs() + 1,
            aud: format!("{org}/{site}"),
            jti: None,
            roles: None,
            profile: None,
        });
        Some(WorkerCredential {
            own,
            path_prefix: format!("/transform/{org}/{site}/"),
            token: HeaderValue::from_str(&token).ok()?,
        })
    }
}

/// The site's `head.html` from its code (a checkout, else the branch's, else main's).
pub(crate) async fn head_html(code: &SiteCode, site: &Site, branch: &str) -> Option<String> {
    code.text(&site.org, &site.code_repo()?, branch, "head.html")
        .await
}

/// `serve` shows each fetch attempt and each image of a preview in its log.
fn log_trace(org: &str, site: &str, branch: &str, path: &str, trace: &Trace) {
    for attempt in &trace.fetch {
        tracing::info!(
            page = %format!("{org}/{site}/{branch}{path}"),
            source = %attempt.source,
            url = %attempt.url,
            status = attempt.status,
            ms = attempt.elapsed_ms,
            decision = %attempt.decision,
            "preview fetch"
        );
    }
    for image in &trace.images {
        tracing::info!(
            page = %format!("{org}/{site}/{branch}{path}"),
            src = %image.src,
            authorization = image.allowed,
            status = image.status,
            attempts = image.attempts,
            decision = %image.decision,
            stored = image.stored_as.as_deref().unwrap_or(""),
            "preview image"
        );
    }
}
