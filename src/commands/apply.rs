//! `siteops apply`: makes the plan's changes, after showing them, and reports each one.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use siteops_plan::apply::repreview::{self, RepreviewOptions};
use siteops_plan::apply::{
    self, ApplyOptions, MadeValue, MadeValues, Outcome as StepOutcome, Progress, Step, report,
};
use siteops_plan::plan::repreview::affected;
use siteops_plan::plan::{Plan, render};

use super::planning::{Prepared, prepare, settings};
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
    if !args.no_preview {
        print!("{}", render::repreview_lines(&affected(&plan)));
    }
    if !plan.has_changes() {
        return Ok(Outcome::Success);
    }
    let makes: Vec<&str> = (plan.changes())
        .filter(|r| r.makes_value())
        .map(|r| r.address.as_str())
        .collect();
    let out = match (&args.secrets_out, makes.is_empty()) {
        (_, true) => None,
        (None, false) => bail!(
            "refusing to apply: the service makes values that are answered once ({}), and there is no place to keep them: pass --secrets-out FILE; nothing was applied",
            makes.join(", ")
        ),
        (Some(path), false) => Some(SecretsOut::check(path)?),
    };
    if saved.is_none()
        && !args.yes
        && !confirmed("Apply these changes?", "apply", ", or apply a saved plan")?
    {
        println!("Apply cancelled.");
        return Ok(Outcome::Failure);
    }
    let out = out.map(SecretsOut::create).transpose()?;
    let progress: Box<dyn Progress> = if std::io::stderr().is_terminal() {
        Box::new(Bar::new())
    } else {
        Box::new(Lines)
    };
    let options = ApplyOptions {
        concurrency: usize::from(args.remote.concurrency),
        progress: progress.as_ref(),
        made: out.as_ref().map(|out| out as &dyn MadeValues),
        version_name: Some(version_name(&args.repo.root, args.version_name.as_deref())),
    };
    let report = runtime.block_on(apply::run(&prepared.client, &plan, &options))?;
    println!();
    if let Some(out) = &out {
        println!("{}", out.summary());
    }
    let outcome = if report.succeeded() {
        println!("{}", report::summary(&report));
        Outcome::Success
    } else {
        print!("{}", report::table(&report));
        println!();
        println!("{}", report::summary(&report));
        Outcome::Failure
    };
    if !args.no_preview {
        repreview(args, &prepared, &plan, &report, &runtime);
    }
    Ok(outcome)
}

/// Previews again what the changes made stale, and says per site how it went. Its result
/// does not change the apply's: the changes are made, and an apply run again would find
/// nothing to change (and so preview nothing): a failure is printed to act on.
fn repreview(
    args: &ApplyArgs,
    prepared: &Prepared,
    plan: &Plan,
    report: &apply::ApplyReport,
    runtime: &tokio::runtime::Runtime,
) {
    let wanted = repreview::applied(plan, report);
    if wanted.is_empty() {
        return;
    }
    let options = RepreviewOptions {
        deadline: Duration::from_secs(args.preview_timeout),
        sites_at_once: usize::from(args.remote.concurrency),
        ..RepreviewOptions::default()
    };
    let reports = runtime.block_on(repreview::run(&prepared.client, &wanted, &options));
    print!("{}", prepared.scrub(&repreview::lines(&reports)));
    if !repreview::all_previewed(&reports) {
        eprintln!(
            "warning: not every stale page was previewed again: preview them with the bulk preview (POST {{admin_url}}/preview/<org>/<site>/main/* with their paths), or in the authoring tools"
        );
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

/// `--secrets-out`: the values the service made, as `NAME=value` lines (dotenv, which
/// `gh secret set -f` reads) under a comment. The file is made new, mode 0600, before
/// anything is applied (an existing one is refused: it may hold values not stored
/// elsewhere yet), and written whole again at each value (a file beside it, then
/// renamed), so it is never torn and holds every value kept so far. A value goes nowhere
/// else: not to the output, not to a log.
struct SecretsOut {
    path: PathBuf,
    /// (variable, value), in the order they came.
    kept: Mutex<Vec<(String, String)>>,
}

const SECRETS_OUT_HEADER: &str = "# Values the service made, answered once (siteops apply). Store them (gh secret set -f FILE), then delete this file.\n";

impl SecretsOut {
    /// Refuses a path that exists, or whose directory does not.
    fn check(path: &Path) -> Result<PathBuf> {
        if path.symlink_metadata().is_ok() {
            bail!(
                "refusing to apply: --secrets-out {} exists (it may hold values not stored elsewhere yet): store them and delete it, or name a new file; nothing was applied",
                path.display()
            );
        }
        let dir = parent(path);
        if !dir.is_dir() {
            bail!(
                "refusing to apply: --secrets-out {}: no directory {}; nothing was applied",
                path.display(),
                dir.display()
            );
        }
        Ok(path.to_path_buf())
    }

    /// Makes the file, empty but for its comment, mode 0600.
    fn create(path: PathBuf) -> Result<SecretsOut> {
        let mut file = private_file(&path)
            .with_context(|| format!("cannot create --secrets-out {}", path.display()))?;
        file.write_all(SECRETS_OUT_HEADER.as_bytes())?;
        file.sync_all()?;
        Ok(SecretsOut {
            path,
            kept: Mutex::new(Vec::new()),
        })
    }

    fn write(&self, kept: &[(String, String)]) -> std::io::Result<()> {
        let mut text = SECRETS_OUT_HEADER.to_string();
        for (name, value) in kept {
            text.push_str(&format!("{name}={value}\n"));
        }
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        let temporary = parent(&self.path).join(format!(".{name}.{}.tmp", std::process::id()));
        let _ = std::fs::remove_file(&temporary);
        let written = private_file(&temporary).and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.sync_all()
        });
        match written.and_then(|()| std::fs::rename(&temporary, &self.path)) {
            Ok(()) => Ok(()),
            Err(error) => {
                let _ = std::fs::remove_file(&temporary);
                Err(error)
            }
        }
    }

    fn summary(&self) -> String {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let names: Vec<&str> = kept.iter().map(|(name, _)| name.as_str()).collect();
        format!(
            "Kept {} value{} the service made in {}: {}. Store them, then delete the file.",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            self.path.display(),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        )
    }
}

impl MadeValues for SecretsOut {
    fn keep(&self, made: &MadeValue) -> Result<(), String> {
        let value = made.value();
        if value.is_empty() || value.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err("the value cannot be written as a NAME=value line".into());
        }
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let name = made.variable();
        kept.retain(|(kept, _)| *kept != name);
        kept.push((name, value.to_string()));
        self.write(&kept)
            .map_err(|e| format!("cannot write --secrets-out {}: {e}", self.path.display()))
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// A new file only its owner may read and write (on unix; elsewhere, the default).
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}
