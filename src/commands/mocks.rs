//! `siteops mocks record`: pages previewed through the real sources once, every request
//! they made written as the site's mocks (the work is `siteops_live::record`).

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use http::HeaderValue;
use siteops_config::model::SiteId;
use siteops_config::repo::SITES_DIR;
use siteops_live::record::{RecordError, RecordReport, Recording, record};
use siteops_server::preview::ReqwestTransport;

use super::Outcome;
use crate::cli::{MocksCommand, RecordArgs};

pub(crate) fn run(command: &MocksCommand) -> Result<Outcome> {
    match command {
        MocksCommand::Record(args) => run_record(args),
    }
}

fn run_record(args: &RecordArgs) -> Result<Outcome> {
    let site = parse_site(&args.site)?;
    if !args.root.join(SITES_DIR).is_dir() {
        bail!(
            "{} has no `{SITES_DIR}/` directory; pass --root with the repository that holds your sites",
            args.root.display()
        );
    }
    let authorization = match &args.source_auth_env {
        None => None,
        Some(name) => {
            let value = std::env::var(name)
                .with_context(|| format!("--source-auth-env: ${name} is not set"))?;
            Some(HeaderValue::from_str(&value).with_context(|| {
                format!("--source-auth-env: ${name} is not a valid header value")
            })?)
        }
    };
    let recording = Recording {
        root: &args.root,
        site: &site,
        branch: &args.branch,
        paths: &args.paths,
        authorization: authorization.as_ref(),
    };
    let runtime = tokio::runtime::Runtime::new()?;
    match runtime.block_on(record(&recording, Arc::new(ReqwestTransport::new()))) {
        Ok(report) => {
            print!("{}", summary(&site, &args.branch, &report));
            Ok(if report.all_pages_previewed() {
                Outcome::Success
            } else {
                Outcome::Failure
            })
        }
        Err(RecordError::NotApplied {
            message,
            diagnostics,
        }) => {
            eprint!("{diagnostics}");
            bail!(message)
        }
        Err(error) => Err(error.into()),
    }
}

fn parse_site(text: &str) -> Result<SiteId> {
    match text.split_once('/') {
        Some((org, site)) if !org.is_empty() && !site.is_empty() && !site.contains('/') => {
            Ok(SiteId {
                org: org.into(),
                site: site.into(),
            })
        }
        _ => bail!("`{text}` is not a site: write ORG/SITE, such as acme/website"),
    }
}

/// What was previewed and written, for the terminal.
fn summary(site: &SiteId, branch: &str, report: &RecordReport) -> String {
    let mut out = format!(
        "previewed {}/{} (branch {branch}) through the real sources:\n",
        site.org, site.site
    );
    for page in &report.pages {
        match &page.error {
            None => out.push_str(&format!("  {} {}\n", page.status, page.path)),
            Some(error) => out.push_str(&format!("  {} {}: {error}\n", page.status, page.path)),
        }
    }
    if report.written.is_empty() {
        out.push_str("no mocks written: no request left this machine\n");
    } else {
        out.push_str(&format!(
            "wrote {} mock{}:\n",
            report.written.len(),
            if report.written.len() == 1 { "" } else { "s" }
        ));
        for mock in &report.written {
            out.push_str(&format!(
                "  {}\n    {} -> {}",
                mock.mapping, mock.request, mock.status
            ));
            if let Some(content_type) = &mock.content_type {
                out.push_str(&format!(", {content_type}"));
            }
            if let Some(body) = &mock.body {
                out.push_str(&format!(", {} bytes in {body}", mock.body_bytes));
            }
            out.push('\n');
        }
    }
    if report.local_requests > 0 {
        out.push_str(&format!(
            "not recorded: {} request{} to loopback (the bundled worker, local sources), which offline mode sends too\n",
            report.local_requests,
            if report.local_requests == 1 { "" } else { "s" }
        ));
    }
    for warning in &report.warnings {
        out.push_str(&format!("warning: {warning}\n"));
    }
    out
}
