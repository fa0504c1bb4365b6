//! `siteops plan`: what apply would change, as text, JSON or a pull-request comment.

use std::path::Path;

use anyhow::{Context, Result};
use siteops_plan::plan::markdown::{COMMENT_LIMIT, markdown};
use siteops_plan::plan::repreview::affected;
use siteops_plan::plan::{Plan, render};

use super::planning::{prepare, settings};
use super::{Outcome, use_color};
use crate::cli::{ApiFamily, PlanArgs, PlanFormat};
use clap::ValueEnum;

pub(crate) fn run(args: &PlanArgs) -> Result<Outcome> {
    let mut prepared = match prepare(&args.repo, &args.remote, settings(&args.select))? {
        Ok(prepared) => prepared,
        Err(outcome) => return Ok(outcome),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let plan = runtime.block_on(prepared.plan())?;
    match args.format {
        PlanFormat::Human => {
            print!("{}", render::human(&plan, use_color(&std::io::stdout())));
            if !args.no_preview {
                print!("{}", render::repreview_lines(&affected(&plan)));
            }
        }
        PlanFormat::Json => print!("{}", render::json(&plan)),
        PlanFormat::Markdown => print!("{}", markdown(&plan, COMMENT_LIMIT)),
    }
    if let Some(path) = &args.out {
        save(path, &plan)?;
        eprintln!(
            "Saved the plan to {}; `{}` makes exactly these changes (or none, if the live state or the repository changed meanwhile).",
            path.display(),
            apply_command(args, path)
        );
    }
    Ok(if args.detailed_exitcode && plan.has_changes() {
        Outcome::ChangesPresent
    } else {
        Outcome::Success
    })
}

/// The `siteops apply` that applies the saved plan to the services this plan read: the
/// plan file keeps what changes, not where.
fn apply_command(args: &PlanArgs, path: &Path) -> String {
    let mut words = vec!["siteops apply".to_string(), path.display().to_string()];
    if args.repo.root != Path::new(".") {
        words.push(format!("--root {}", args.repo.root.display()));
    }
    words.push(format!("--admin {}", args.remote.admin));
    if args.remote.api_family != ApiFamily::Auto {
        let family = args
            .remote
            .api_family
            .to_possible_value()
            .expect("not skipped");
        words.push(format!("--api-family {}", family.get_name()));
    }
    if let Some(worker) = args
        .repo
        .transform_url
        .as_ref()
        .or(args.remote.transform.as_ref())
    {
        words.push(format!("--transform-url {worker}"));
    }
    if args.remote.token_env != "SITEOPS_ADMIN_TOKEN" {
        words.push(format!("--token-env {}", args.remote.token_env));
    }
    words.join(" ")
}

/// Writes the plan beside `path` and renames it into place: never half a plan.
fn save(path: &Path, plan: &Plan) -> Result<()> {
    siteops_server::fsutil::write_atomic(path, render::json(plan).as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}
