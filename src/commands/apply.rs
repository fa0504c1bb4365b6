//! `siteops apply`: makes the plan's changes, after showing them, and reports each one.
//!
//! Ctrl-C (or SIGTERM) once the changes begin stops apply cleanly: no change starts, the
//! ones in flight finish (the engine never abandons a write half-way), and apply says on
//! stderr what was applied and what was not, then ends [`Outcome::Interrupted`]. A second
//! one stops at once. The signals are caught here, never in the engine.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use siteops_plan::apply::repreview::{self, RepreviewOptions};
use siteops_plan::apply::{
    self, ApplyOptions, MadeValue, MadeValues, Outcome as StepOutcome, Progress, Step, report,
};
use siteops_plan::plan::repreview::{Repreview, affected};
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
    let shown: Box<dyn Shown> = if std::io::stderr().is_terminal() {
        Box::new(Bar::new())
    } else {
        Box::new(Lines)
    };
    let progress = Recorder {
        shown: shown.as_ref(),
        ended: Mutex::new(Vec::new()),
    };
    let options = ApplyOptions {
        concurrency: usize::from(args.remote.concurrency),
        progress: &progress,
        made: out.as_ref().map(|out| out as &dyn MadeValues),
        version_name: Some(version_name(&args.repo.root, args.version_name.as_deref())),
    };
    // Listening from before the first write: from here on, Ctrl-C is apply's to handle.
    let mut interrupts = {
        let _runtime = runtime.enter();
        Interrupts::listen()?
    };
    let applied = runtime.block_on(apply_until_interrupted(
        &prepared.client,
        &plan,
        &options,
        shown.as_ref(),
        &mut interrupts,
    ))?;
    let Some(report) = applied else {
        progress.end();
        eprintln!();
        eprint!("{}", progress.abandoned(plan.summary.changes()));
        if let Some(out) = &out {
            eprintln!("{}", out.summary());
        }
        return Ok(Outcome::Interrupted);
    };
    println!();
    if let Some(out) = &out {
        println!("{}", out.summary());
    }
    if report.interrupted {
        eprint!("{}", report::interrupted(&report));
        if !args.no_preview {
            not_previewed(&repreview::applied(&plan, &report));
        }
        return Ok(Outcome::Interrupted);
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
    if !args.no_preview && repreview(args, &prepared, &plan, &report, &runtime, &mut interrupts) {
        return Ok(Outcome::Interrupted);
    }
    Ok(outcome)
}

/// Applies the plan until it is done or interrupted. The first interrupt stops new
/// changes and lets the ones in flight finish: the report then says which were made. A
/// second abandons them at once: `None`, and what became of them is unknown.
async fn apply_until_interrupted(
    client: &siteops_plan::remote::Client,
    plan: &Plan,
    options: &ApplyOptions<'_>,
    shown: &dyn Shown,
    interrupts: &mut Interrupts,
) -> Result<Option<apply::ApplyReport>> {
    let stop = AtomicBool::new(false);
    let applying = apply::run_until(client, plan, options, &stop);
    tokio::pin!(applying);
    tokio::select! {
        report = &mut applying => return Ok(Some(report?)),
        () = interrupts.next() => {}
    }
    stop.store(true, Ordering::Release);
    shown.notice(
        "interrupted: finishing the changes in flight and starting no more; interrupt again (Ctrl-C) to stop at once",
    );
    tokio::select! {
        report = &mut applying => Ok(Some(report?)),
        () = interrupts.next() => Ok(None),
    }
}

/// SIGINT (Ctrl-C) and SIGTERM, caught from when this is made (on Windows, Ctrl-C from
/// the first wait). Once caught, a signal no longer ends the process: apply ends itself.
struct Interrupts {
    #[cfg(unix)]
    signals: [tokio::signal::unix::Signal; 2],
}

impl Interrupts {
    /// Needs the runtime's context.
    fn listen() -> Result<Interrupts> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let interrupt = signal(SignalKind::interrupt()).context("cannot catch Ctrl-C")?;
            let terminate = signal(SignalKind::terminate()).context("cannot catch SIGTERM")?;
            Ok(Interrupts {
                signals: [interrupt, terminate],
            })
        }
        #[cfg(not(unix))]
        Ok(Interrupts {})
    }

    /// The next signal.
    async fn next(&mut self) {
        #[cfg(unix)]
        {
            let [interrupt, terminate] = &mut self.signals;
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        }
        #[cfg(not(unix))]
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// After an interrupted apply: the pages its applied changes made stale, which are not
/// previewed again (an apply run again does not see those changes, so neither their pages).
fn not_previewed(wanted: &[Repreview]) {
    for one in wanted {
        eprintln!(
            "not previewed again (interrupted): {} on {} of {}",
            one.paths.join(", "),
            one.branch,
            one.site_id()
        );
    }
    if !wanted.is_empty() {
        eprintln!(
            "preview them with the bulk preview (POST {{admin_url}}/preview/<org>/<site>/main/* with their paths), or in the authoring tools"
        );
    }
}

/// Previews again what the changes made stale, and says per site how it went. Its result
/// does not change the apply's: the changes are made, and an apply run again would find
/// nothing to change (and so preview nothing): a failure is printed to act on. An
/// interrupt stops the waiting (the jobs go on on the service): true then.
fn repreview(
    args: &ApplyArgs,
    prepared: &Prepared,
    plan: &Plan,
    report: &apply::ApplyReport,
    runtime: &tokio::runtime::Runtime,
    interrupts: &mut Interrupts,
) -> bool {
    let wanted = repreview::applied(plan, report);
    if wanted.is_empty() {
        return false;
    }
    let options = RepreviewOptions {
        deadline: Duration::from_secs(args.preview_timeout),
        sites_at_once: usize::from(args.remote.concurrency),
        ..RepreviewOptions::default()
    };
    let reports = runtime.block_on(async {
        tokio::select! {
            reports = repreview::run(&prepared.client, &wanted, &options) => Some(reports),
            () = interrupts.next() => None,
        }
    });
    let Some(reports) = reports else {
        eprintln!(
            "interrupted: every change was applied; stopped waiting for the re-preview jobs, which go on on the service"
        );
        return true;
    };
    print!("{}", prepared.scrub(&repreview::lines(&reports)));
    if !repreview::all_previewed(&reports) {
        eprintln!(
            "warning: not every stale page was previewed again: preview them with the bulk preview (POST {{admin_url}}/preview/<org>/<site>/main/* with their paths), or in the authoring tools"
        );
    }
    false
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
    // Bodies to send are not saved; compare what was shown. What the plan found and
    // leaves alone (`unmanaged`) is not what it applies: a site made by hand meanwhile
    // does not make it stale.
    let shown = |plan: &Plan| {
        let mut value = serde_json::to_value(plan).expect("plans serialize");
        if let Some(map) = value.as_object_mut() {
            map.remove("unmanaged");
        }
        value
    };
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

/// How progress is shown, and a line said in passing (an interrupt's notice).
trait Shown: Progress {
    fn notice(&self, line: &str);
}

/// Shows progress and keeps each change as it ends, for an apply abandoned part-way,
/// whose report never comes.
struct Recorder<'a> {
    shown: &'a dyn Shown,
    ended: Mutex<Vec<Step>>,
}

impl Progress for Recorder<'_> {
    fn begin(&self, changes: usize) {
        self.shown.begin(changes);
    }

    fn finished(&self, step: &Step) {
        self.shown.finished(step);
        let mut ended = self.ended.lock().unwrap_or_else(|e| e.into_inner());
        ended.push(step.clone());
    }

    fn end(&self) {
        self.shown.end();
    }
}

impl Recorder<'_> {
    /// What is known of an apply abandoned at a second interrupt, of `changes` in all.
    fn abandoned(&self, changes: usize) -> String {
        let ended = self.ended.lock().unwrap_or_else(|e| e.into_inner());
        let applied: Vec<&Step> = (ended.iter())
            .filter(|step| step.outcome == StepOutcome::Done)
            .collect();
        let mut out = format!(
            "interrupted again: stopped at once: {} of {changes} changes applied; of the other {}, those in flight may or may not have been made\n",
            applied.len(),
            changes - applied.len()
        );
        if !applied.is_empty() {
            out.push_str("applied:\n");
            for step in applied {
                let (_, action, _) = render::action_style(step.action);
                out.push_str(&format!("  {action:<7} {}\n", step.address));
            }
        }
        out.push_str("Run `siteops plan` to see what remains, and `siteops apply` again to finish: it picks up where this one stopped.\n");
        out
    }
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

impl Shown for Bar {
    fn notice(&self, line: &str) {
        self.0.println(line);
    }
}

/// One plain line per change on stderr, for logs (CI).
struct Lines;

impl Progress for Lines {
    fn finished(&self, step: &Step) {
        eprintln!("{}", report::line(step));
    }
}

impl Shown for Lines {
    fn notice(&self, line: &str) {
        eprintln!("{line}");
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
