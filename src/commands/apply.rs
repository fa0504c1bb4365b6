//! `siteops apply`: makes the plan's changes, after showing them, and reports each one.

use std::io::{BufRead, IsTerminal, Write};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use siteops_plan::apply::{self, ApplyOptions, Outcome as StepOutcome, Progress, Step, report};
use siteops_plan::plan::{Plan, render};

use super::planning::{prepare, settings};
use super::versions::version_name;
use super::{Outcome, use_color};
use crate::cli::ApplyArgs;

pub(crate) fn run(args: &ApplyArgs) -> Result<Outcome> {
    let saved = args.plan.as_ref().map(|path| read_plan(path)).transpose()?;
    let settings = match &saved {
        Some(plan) => plan.settings.clone(),
        None => settings(&args.select),
    };
    let mut prepared = match prepare(&args.repo, &args.remote, settings)? {
        Ok(prepared) => prepared,
        Err(outcome) => return Ok(outcome),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let plan = runtime.block_on(prepared.plan())?;
    if let Some(saved) = &saved {
        check_saved(saved, &plan)?;
    }
    print!("{}", render::human(&plan, use_color(&std::io::stdout())));
    if !plan.has_changes() {
        return Ok(Outcome::Success);
    }
    if saved.is_none()
        && !args.yes
        && !confirmed("Apply these changes?", "apply", ", or apply a saved plan")?
    {
        println!("Apply cancelled.");
        return Ok(Outcome::Failure);
    }
    let progress: Box<dyn Progress> = if std::io::stderr().is_terminal() {
        Box::new(Bar::new())
    } else {
        Box::new(Lines)
    };
    let options = ApplyOptions {
        concurrency: usize::from(args.remote.concurrency),
        progress: progress.as_ref(),
        version_name: Some(version_name(&args.repo.root, args.version_name.as_deref())),
    };
    let report = runtime.block_on(apply::run(&prepared.client, &plan, &options))?;
    println!();
    if report.succeeded() {
        println!("{}", report::summary(&report));
        Ok(Outcome::Success)
    } else {
        print!("{}", report::table(&report));
        println!();
        println!("{}", report::summary(&report));
        Ok(Outcome::Failure)
    }
}

fn read_plan(path: &std::path::Path) -> Result<Plan> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the plan {}", path.display()))?;
    Plan::from_json(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// A saved plan is applied only if making it again now gives the same plan.
fn check_saved(saved: &Plan, fresh: &Plan) -> Result<()> {
    if saved.fingerprint != fresh.fingerprint {
        bail!(
            "the live state changed since the plan was made (fingerprint {} then, {} now): run `siteops plan` again",
            short(&saved.fingerprint),
            short(&fresh.fingerprint)
        );
    }
    // Bodies to send are not saved; compare what was shown.
    let shown = |plan: &Plan| serde_json::to_value(plan).expect("plans serialize");
    if shown(saved) != shown(fresh) {
        bail!("the repository changed since the plan was made: run `siteops plan` again");
    }
    Ok(())
}

fn short(fingerprint: &str) -> &str {
    let end = fingerprint.len().min("sha256:".len() + 12);
    &fingerprint[..end]
}

/// Asks `question` on a terminal; refuses to do `what` without one (CI passes --yes, or
/// what `otherwise` adds).
pub(super) fn confirmed(question: &str, what: &str, otherwise: &str) -> Result<bool> {
    if !std::io::stdin().is_terminal() {
        bail!("refusing to {what} without confirmation: pass --yes{otherwise}");
    }
    print!("\n{question} Only `yes` is accepted: ");
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(answer.trim() == "yes")
}

/// A progress bar on stderr, for a terminal. Failures are printed above it as they come.
struct Bar(ProgressBar);

impl Bar {
    fn new() -> Bar {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} {wide_msg}")
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        Bar(bar)
    }
}

impl Progress for Bar {
    fn begin(&self, changes: usize) {
        self.0.set_length(changes as u64);
        self.0
            .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        self.0.enable_steady_tick(Duration::from_millis(120));
    }

    fn finished(&self, step: &Step) {
        if step.outcome != StepOutcome::Done {
            self.0.println(report::line(step));
        }
        self.0.set_message(step.address.clone());
        self.0.inc(1);
    }

    fn end(&self) {
        self.0.finish_and_clear();
    }
}

/// One plain line per change on stderr, for logs (CI).
struct Lines;

impl Progress for Lines {
    fn finished(&self, step: &Step) {
        eprintln!("{}", report::line(step));
    }
}
