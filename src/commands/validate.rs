//! `siteops validate`: report every problem of the repository (its configuration,
//! templates and mocks) in the chosen format.

use std::fmt::Write as _;

use anyhow::Result;
use siteops_config::compile::pretty;
use siteops_config::diagnostic::render;
use siteops_config::model::SiteId;
use siteops_config::validate::Explanation;

use super::{Outcome, load_and_check, use_color};
use crate::cli::{DiagnosticFormat, ValidateArgs};

pub(crate) fn run(args: &ValidateArgs) -> Result<Outcome> {
    let validation = load_and_check(&args.repo)?;
    let explain = args.explain.then_some(&validation.explanations);
    let output = match args.format {
        DiagnosticFormat::Human => {
            let mut text = render::human(
                &validation.diagnostics,
                &validation,
                use_color(&std::io::stdout()),
            );
            if let Some(explanations) = explain {
                text.push_str(&explain_human(explanations));
                text.push_str(&effective_human(&validation.effective));
            }
            let sites = validation.fleet.sites.len();
            let _ = writeln!(
                text,
                "{} ({sites} site{} checked)",
                render::human_summary(validation.summary()),
                if sites == 1 { "" } else { "s" }
            );
            text
        }
        DiagnosticFormat::Json => {
            let explained = explain.map(|explanations| Explained {
                explain: explanations,
                effective: (validation.effective.iter())
                    .map(|(site, profile, config)| Effective {
                        site: site.to_string(),
                        profile,
                        config,
                    })
                    .collect(),
            });
            render::json(&validation.diagnostics, explained)
        }
        DiagnosticFormat::Github => render::github(&validation.diagnostics),
    };
    print!("{output}");
    let summary = validation.summary();
    Ok(
        if summary.errors > 0 || (args.deny_warnings && summary.warnings > 0) {
            Outcome::Failure
        } else {
            Outcome::Success
        },
    )
}

/// What `--explain` adds to the JSON report: the worker examples and each site's
/// effective configuration.
#[derive(serde::Serialize)]
struct Explained<'a> {
    explain: &'a [Explanation],
    effective: Vec<Effective<'a>>,
}

/// A site's configuration over its profile, credentials as the files name them.
#[derive(serde::Serialize)]
struct Effective<'a> {
    site: String,
    profile: &'a str,
    config: &'a serde_json::Value,
}

/// Each site's configuration over its profile: site over profile, objects merged key by
/// key, other values replaced (the guide's repository page).
fn effective_human(effective: &[(SiteId, String, serde_json::Value)]) -> String {
    let mut text = String::new();
    for (site, profile, config) in effective {
        let _ = writeln!(text, "{site} over profile `{profile}`:");
        for line in pretty(config).lines() {
            let _ = writeln!(text, "    {line}");
        }
        text.push('\n');
    }
    text
}

fn explain_human(explanations: &[Explanation]) -> String {
    let mut text = String::new();
    for e in explanations {
        let _ = writeln!(
            text,
            "{} {} entry {}: {}",
            e.site, e.branch, e.entry, e.example
        );
        let _ = writeln!(
            text,
            "    id:       {}",
            e.id.as_deref().unwrap_or("(none: no regex)")
        );
        let _ = writeln!(text, "    endpoint: {}", e.endpoint);
    }
    if !explanations.is_empty() {
        text.push('\n');
    }
    text
}
