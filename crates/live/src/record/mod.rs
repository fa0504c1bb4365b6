//! `siteops mocks record`: pages previewed once through the real sources, every outgoing
//! request and its answer captured, and the site's mock files written from them.
//!
//! The recording runs the bundled server in-process (127.0.0.1:0, a scratch data
//! directory) with a [`RecordingTransport`] around the network, applies the repository
//! as `serve` does ([`super::reload`]) and previews each page through the preview route,
//! so the page, the worker's endpoint JSON and the images are fetched exactly as a preview
//! fetches them. Loopback requests (the bundled worker, a local source) are passed through
//! and not recorded: offline mode sends them to the network too. The files come from
//! [`siteops_mocks::record::recorded_mocks`] and are written atomically, bodies first.

mod files;
mod transport;

use std::path::Path;
use std::sync::Arc;

use http::HeaderValue;

use super::{Live, SERVE_SUBJECT, Target, reload};
use files::{read_tree, write_atomic};
use siteops_config::model::SiteId;
use siteops_mocks::record::{Exchange, RecordedMock, recorded_mocks};
use siteops_mocks::{MockRequest, MockSet, Scenarios};
use siteops_server::auth::Claims;
use siteops_server::preview::Transport;
use siteops_server::server::{ServerConfig, start};

pub use transport::RecordingTransport;

/// What to record.
#[derive(Debug, Clone)]
pub struct Recording<'a> {
    /// The repository: the directory that holds `sites/`.
    pub root: &'a Path,
    pub site: &'a SiteId,
    pub branch: &'a str,
    /// Page paths, with or without the leading `/`.
    pub paths: &'a [String],
    /// Sent as the previews' `x-content-source-authorization` (the sources get it as
    /// `Authorization`); never written to a file.
    pub authorization: Option<&'a HeaderValue>,
}

/// What a recording did.
#[derive(Debug, Clone, Default)]
pub struct RecordReport {
    /// Each page's preview: its status and, when it failed, why.
    pub pages: Vec<PageOutcome>,
    /// The stubs written, sorted by file.
    pub written: Vec<WrittenMock>,
    /// Loopback requests (the bundled worker, local sources): fetched, not recorded.
    pub local_requests: usize,
    /// Problems to look at: a recorded request another mapping answers first, mocks that
    /// do not load.
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageOutcome {
    pub path: String,
    pub status: u16,
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenMock {
    /// `GET host/path?query`.
    pub request: String,
    pub status: u16,
    pub content_type: Option<String>,
    /// Relative to the repository root.
    pub mapping: String,
    pub body: Option<String>,
    pub body_bytes: usize,
}

impl RecordReport {
    pub fn all_pages_previewed(&self) -> bool {
        self.pages.iter().all(|p| p.error.is_none())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("cannot make a scratch data directory in {}: {source}", std::env::temp_dir().display())]
    Scratch { source: std::io::Error },
    #[error("cannot start the bundled server: {0}")]
    Server(String),
    /// The repository does not validate or apply; `diagnostics` says why.
    #[error("{message}")]
    NotApplied {
        message: String,
        diagnostics: String,
    },
    #[error("{site} is not a site of the repository at {root}")]
    UnknownSite { site: String, root: String },
    #[error("the bundled server did not answer the preview of {path}: {message}")]
    Preview { path: String, message: String },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

/// Previews `recording.paths` through `network` and writes the mocks of every request
/// made into the site's `mocks/`, replacing the files of the same requests.
pub async fn record(
    recording: &Recording<'_>,
    network: Arc<dyn Transport>,
) -> Result<RecordReport, RecordError> {
    let scratch = tempfile::Builder::new()
        .prefix("siteops-record-")
        .tempdir()
        .map_err(|source| RecordError::Scratch { source })?;
    let recorder = Arc::new(RecordingTransport::new(network));
    let server = start(ServerConfig {
        addr: (std::net::Ipv4Addr::LOCALHOST, 0).into(),
        store: siteops_server::store::StoreLocation::Dir(scratch.path().to_path_buf()),
        org_admins: vec![SERVE_SUBJECT.to_string()],
        preview_limits: siteops_server::preview::Limits::default(),
        preview_transport: Some(recorder.clone()),
        session: None,
        allowed_hosts: Vec::new(),
        connection_limits: Default::default(),
        quotas: Default::default(),
        // Its own scratch service: nobody signs in.
        sign_in: siteops_server::auth::SignIn::Off,
    })
    .await
    .map_err(|e| RecordError::Server(format!("{e:#}")))?;
    let base = format!("http://127.0.0.1:{}", server.addr.port());
    let previewed = apply_and_preview(recording, &server, &base).await;
    // The server's tasks end before its data directory goes.
    let _ = server.stop().await;
    drop(scratch);
    let pages = previewed?;

    let exchanges = recorder.exchanges();
    let mocks = recorded_mocks(&exchanges);
    let dir = format!("sites/{}/{}/mocks", recording.site.org, recording.site.site);
    let mut report = RecordReport {
        pages,
        local_requests: recorder.local_requests(),
        ..RecordReport::default()
    };
    // Bodies first: a mapping never names a file that is not there yet.
    for file in mocks.iter().filter_map(|m| m.body.as_ref()) {
        write_atomic(
            recording.root,
            &format!("{dir}/{}", file.path),
            &file.content,
        )?;
    }
    for mock in &mocks {
        let mapping = format!("{dir}/{}", mock.mapping.path);
        write_atomic(recording.root, &mapping, &mock.mapping.content)?;
        report.written.push(WrittenMock {
            request: mock.request.clone(),
            status: mock.status,
            content_type: mock.content_type.clone(),
            mapping,
            body: mock.body.as_ref().map(|b| format!("{dir}/{}", b.path)),
            body_bytes: mock.body.as_ref().map_or(0, |b| b.content.len()),
        });
    }
    if !mocks.is_empty() {
        report.warnings = shadowed(recording.root, &dir, &exchanges, &mocks);
    }
    Ok(report)
}

/// Applies the repository to the server and previews every page.
async fn apply_and_preview(
    recording: &Recording<'_>,
    server: &siteops_server::server::RunningServer,
    base: &str,
) -> Result<Vec<PageOutcome>, RecordError> {
    let live = Live::new(recording.root.to_path_buf(), false);
    reload(&live, &Target::of(server)).await;
    {
        let snapshot = live.snapshot.read().unwrap_or_else(|p| p.into_inner());
        if let Some(message) = &snapshot.error {
            return Err(RecordError::NotApplied {
                message: message.clone(),
                diagnostics: snapshot.diagnostics.clone(),
            });
        }
        let known = snapshot
            .compiled
            .as_ref()
            .is_some_and(|c| c.resources.iter().any(|r| r.site() == Some(recording.site)));
        if !known {
            return Err(RecordError::UnknownSite {
                site: format!("{}/{}", recording.site.org, recording.site.site),
                root: recording.root.display().to_string(),
            });
        }
    }
    let now = siteops_server::time::now_seconds();
    let token = server.state.key.sign(&Claims {
        sub: SERVE_SUBJECT.into(),
        iat: now,
        exp: now + 3600,
        aud: "*".into(),
        jti: None,
        roles: None,
        profile: None,
    });
    // Time enough for a page, its worker data and many images, retries included.
    let client = siteops_plan::http::client(std::time::Duration::from_secs(300));
    let SiteId { org, site } = recording.site;
    let mut pages = Vec::new();
    for path in recording.paths {
        let page = path.trim_start_matches('/');
        let mut request = client
            .post(format!(
                "{base}/admin/preview/{org}/{site}/{}/{page}",
                recording.branch
            ))
            .header("x-auth-token", &token);
        if let Some(authorization) = recording.authorization {
            request = request.header("x-content-source-authorization", authorization.clone());
        }
        let response = request.send().await.map_err(|e| RecordError::Preview {
            path: format!("/{page}"),
            message: e.to_string(),
        })?;
        let status = response.status().as_u16();
        let error = (!response.status().is_success()).then(|| {
            response
                .headers()
                .get("x-error")
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                .unwrap_or_else(|| format!("status {status}"))
        });
        pages.push(PageOutcome {
            path: format!("/{page}"),
            status,
            error,
        });
    }
    Ok(pages)
}

/// Recorded requests that another stub of the site's mocks answers first (file order
/// decides between stubs of the same priority), and mocks that do not load.
fn shadowed(root: &Path, dir: &str, exchanges: &[Exchange], mocks: &[RecordedMock]) -> Vec<String> {
    let mut files = Vec::new();
    if let Err(error) = read_tree(&root.join(dir), "", &mut files) {
        return vec![format!("cannot read {dir} back: {error}")];
    }
    let set = match MockSet::from_files(dir, &files) {
        Ok(set) => set,
        Err(errors) => {
            return errors
                .iter()
                .map(|e| format!("the mocks do not load: {e}"))
                .collect();
        }
    };
    let mut warnings = Vec::new();
    for mock in mocks {
        let exchange = &exchanges[mock.exchange];
        let request = MockRequest {
            method: "GET",
            url: &exchange.url,
            headers: exchange.request_headers.clone(),
            body: &[],
        };
        let ours = format!("{dir}/{}", mock.mapping.path);
        // Scenarios in their start: where a replay of the pages begins.
        match set.find(&request, &Scenarios::default()) {
            Ok(stub) if stub.file == ours => {}
            Ok(stub) => warnings.push(format!(
                "{} is answered by `{}` ({}) before {ours}: delete that mapping or give ours a priority",
                mock.request, stub.name, stub.file
            )),
            Err(miss) => warnings.push(format!("{ours} does not match its request: {miss}")),
        }
    }
    warnings
}
