//! Renders golden cases through the real pipeline: an in-process server on 127.0.0.1:0
//! (scratch data directory), the repository applied to it with the live session's
//! [`reload`], and every outgoing request answered from the sites' mocks with the case's
//! own mocks layered over them ([`OfflineTransport`]). Each page is previewed with the
//! administration route, then read from the preview host.
//!
//! One [`Harness`] renders any number of cases one after another; each case swaps in its
//! mocks first. A page whose preview failed is never read from the preview host, so a
//! page stored by an earlier case cannot stand in for it.

use std::path::Path;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;

use super::output::{self, Output, OutputKind};
use super::{Case, GoldenError};
use siteops_live::offline::OfflineTransport;
use siteops_live::{Live, SERVE_SUBJECT, Target, reload};
use siteops_mocks::MockSet;
use siteops_server::auth::Claims;
use siteops_server::server::{RunningServer, ServerConfig, start};

/// Time allowed for one request to the in-process server.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// The Host a preview is asked with: no port, so the preview's own links have none.
const ADMIN_HOST: &str = "localhost";

/// A server with the repository applied, ready to render cases.
pub struct Harness {
    server: RunningServer,
    live: Live,
    /// What the transport answers from: the sites' mocks, with the current case's over them.
    mocks: Arc<RwLock<Arc<MockSet>>>,
    token: String,
    client: reqwest::Client,
    /// The scratch data directory, removed when the harness is dropped.
    _data: tempfile::TempDir,
}

impl std::fmt::Debug for Harness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Harness")
            .field("addr", &self.server.addr)
            .finish_non_exhaustive()
    }
}

impl Harness {
    /// Starts the server and applies the repository at `root` to it.
    pub async fn start(root: &Path) -> Result<Harness, GoldenError> {
        let data = tempfile::Builder::new()
            .prefix("siteops-golden-")
            .tempdir()
            .map_err(|source| GoldenError::Io {
                path: std::env::temp_dir(),
                source,
            })?;
        let mocks: Arc<RwLock<Arc<MockSet>>> = Arc::default();
        let source = mocks.clone();
        let transport = OfflineTransport::new(Arc::new(move || {
            source.read().unwrap_or_else(|p| p.into_inner()).clone()
        }));
        let config = ServerConfig {
            addr: (std::net::Ipv4Addr::LOCALHOST, 0).into(),
            store: siteops_server::store::StoreLocation::Dir(data.path().to_path_buf()),
            org_admins: vec![SERVE_SUBJECT.to_string()],
            preview_limits: siteops_server::preview::Limits::default(),
            preview_transport: Some(Arc::new(transport)),
            // No live session in the server: pages are served as stored, without the
            // reload script, and previewed only when asked.
            session: None,
            allowed_hosts: Vec::new(),
            connection_limits: Default::default(),
            quotas: Default::default(),
            // The harness's own scratch service: nobody signs in.
            sign_in: siteops_server::auth::SignIn::Off,
        };
        let server = start(config)
            .await
            .map_err(|e| GoldenError::Server(format!("{e:#}")))?;
        let live = Live::new(root.to_path_buf(), true);
        reload(&live, &Target::of(&server)).await;
        {
            let snapshot = live.snapshot.read().unwrap_or_else(|p| p.into_inner());
            if let Some(message) = &snapshot.error {
                return Err(GoldenError::Reload {
                    message: message.clone(),
                    diagnostics: snapshot.diagnostics.clone(),
                });
            }
        }
        let now = siteops_server::time::now_seconds();
        let token = server.state.key.sign(&Claims {
            sub: SERVE_SUBJECT.into(),
            iat: now,
            exp: now + 24 * 3600,
            aud: "*".into(),
            jti: None,
            roles: None,
            profile: None,
        });
        Ok(Harness {
            server,
            live,
            mocks,
            token,
            client: siteops_plan::http::client(REQUEST_TIMEOUT),
            _data: data,
        })
    }

    pub fn port(&self) -> u16 {
        self.server.addr.port()
    }

    /// Renders every page of `case`: for each, its `trace`, then its `html` and `md` (or
    /// `json` for a sheet) when the preview succeeded.
    pub async fn render(&self, case: &Case) -> Result<Vec<Output>, GoldenError> {
        let site = &case.spec.site;
        let known = self
            .live
            .snapshot
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .compiled
            .as_ref()
            .is_some_and(|c| c.resources.iter().any(|r| r.site() == Some(site)));
        if !known {
            return Err(GoldenError::UnknownSite {
                case: case.name.clone(),
                site: site.to_string(),
            });
        }
        let mut mocks = (*self.live.mocks()).clone();
        mocks.layer(case.mocks.clone());
        *self.mocks.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(mocks);
        let mut outputs = Vec::new();
        for page in &case.spec.pages {
            self.render_page(case, &page.path, &page.slug, &mut outputs)
                .await?;
        }
        Ok(outputs)
    }

    async fn render_page(
        &self,
        case: &Case,
        path: &str,
        slug: &str,
        outputs: &mut Vec<Output>,
    ) -> Result<(), GoldenError> {
        let port = self.port();
        let (org, site, branch) = (&case.spec.site.org, &case.spec.site.site, &case.spec.branch);
        let admin_path = format!("/admin/preview/{org}/{site}/{branch}{path}");
        let output = |kind: OutputKind, expression: String, text: String| Output {
            page: path.to_string(),
            kind,
            name: format!("{slug}.{}", kind.extension()),
            expression,
            text,
        };
        let response = self
            .client
            .post(format!("http://127.0.0.1:{port}{admin_path}"))
            .header("host", ADMIN_HOST)
            .header("x-auth-token", &self.token)
            .send()
            .await
            .map_err(|e| http_error(&admin_path, &e))?;
        let status = response.status();
        let expression = format!("POST {admin_path}");
        if status != StatusCode::OK {
            let error = response
                .headers()
                .get("x-error")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            let text = output::trace_of_failure(status.as_u16(), &error, port);
            outputs.push(output(OutputKind::Trace, expression, text));
            return Ok(());
        }
        let answer: Value = response
            .json()
            .await
            .map_err(|e| http_error(&admin_path, &e))?;
        outputs.push(output(
            OutputKind::Trace,
            expression,
            output::trace_of_answer(&answer, port),
        ));
        let web_path = answer["webPath"].as_str().unwrap_or(path).to_string();
        let host = format!("{branch}--{site}--{org}.localhost");
        if answer["preview"]["contentType"] == "application/json" {
            let body = self.get(&host, &web_path).await?;
            outputs.push(output(
                OutputKind::Json,
                format!("preview host GET {web_path}"),
                output::pretty_json(&body, port),
            ));
            return Ok(());
        }
        let html = self.get(&host, &web_path).await?;
        outputs.push(output(
            OutputKind::Html,
            format!("preview host GET {web_path}"),
            output::redact_port(&String::from_utf8_lossy(&html), port),
        ));
        let resource = answer["resourcePath"].as_str().unwrap_or_default();
        let markdown = self.get(&host, resource).await?;
        outputs.push(output(
            OutputKind::Markdown,
            format!("preview host GET {resource}"),
            output::redact_port(&String::from_utf8_lossy(&markdown), port),
        ));
        Ok(())
    }

    /// A file of the preview host; anything but 200 is an error (the preview just stored it).
    async fn get(&self, host: &str, path: &str) -> Result<Vec<u8>, GoldenError> {
        let url = format!("http://127.0.0.1:{}{path}", self.port());
        let shown = format!("http://{host}{path}");
        let response = self
            .client
            .get(&url)
            .header("host", host)
            .header("authorization", format!("token {}", self.token))
            .send()
            .await
            .map_err(|e| http_error(&shown, &e))?;
        if response.status() != StatusCode::OK {
            return Err(GoldenError::Http {
                url: shown,
                message: format!(
                    "answered {} after a successful preview: {}",
                    response.status(),
                    response
                        .headers()
                        .get("x-error")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                ),
            });
        }
        let policy = response
            .headers()
            .get(http::header::CONTENT_SECURITY_POLICY)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = response.bytes().await.map_err(|e| http_error(&shown, &e))?;
        // The preview host's script nonce is no part of the page the platform serves.
        Ok(siteops_server::server::page_policy::without_nonce(
            &body,
            policy.as_deref(),
        ))
    }

    /// Stops the server and removes its data.
    pub async fn stop(self) {
        let _ = self.server.stop().await;
    }
}

fn http_error(url: &str, error: &reqwest::Error) -> GoldenError {
    GoldenError::Http {
        url: url.to_string(),
        message: error.to_string(),
    }
}
