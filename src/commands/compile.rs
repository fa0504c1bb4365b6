//! `siteops compile`: the JSON bodies, printed as one object or written as files.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use siteops_config::compile::{Compiled, Secrets, compile, pretty};
use siteops_config::diagnostic::render;

use super::{Outcome, load_and_validate, mask_on_github_actions, use_color};
use crate::cli::CompileArgs;

/// Marks a directory as written by `siteops compile`, so a later run may replace it.
const MARKER: &str = ".siteops-compiled";

pub(crate) fn run(args: &CompileArgs) -> Result<Outcome> {
    let validation = load_and_validate(&args.repo)?;
    let styled = use_color(&std::io::stderr());
    if validation.has_errors() {
        eprint!(
            "{}",
            render::human(&validation.diagnostics, &validation, styled)
        );
        eprintln!("{}", render::human_summary(validation.summary()));
        return Ok(Outcome::Failure);
    }
    let lookup = |name: &str| std::env::var(name).ok();
    let secrets = if args.redact {
        Secrets::Redacted
    } else {
        Secrets::Lookup(&lookup)
    };
    let compiled = match compile(&validation.fleet, &secrets) {
        Ok(compiled) => compiled,
        Err(problems) => {
            eprint!("{}", render::human(&problems, &validation, styled));
            return Ok(Outcome::Failure);
        }
    };
    if !args.redact {
        mask_on_github_actions(&compiled);
    }
    match &args.out {
        Some(dir) => {
            write_dir(dir, &compiled)?;
            println!(
                "wrote {} bodies to {}",
                compiled.resources.len(),
                dir.display()
            );
        }
        None => print!("{}", pretty(&compiled.to_json())),
    }
    Ok(Outcome::Success)
}

/// Writes every body under `dir`, replacing an earlier output as a whole: the new tree is
/// built beside it and renamed into place, so a failure leaves the old output intact.
fn write_dir(dir: &Path, compiled: &Compiled) -> Result<()> {
    if dir.exists() && !dir.join(MARKER).exists() && fs::read_dir(dir)?.next().is_some() {
        bail!(
            "refusing to replace {}: it is not empty and was not written by `siteops compile`",
            dir.display()
        );
    }
    let staging = staging_dir(dir);
    if staging.exists() {
        fs::remove_dir_all(&staging)?;
    }
    for resource in &compiled.resources {
        let path = staging.join(resource.path());
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(&path, resource.text())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    fs::create_dir_all(&staging)?;
    fs::write(staging.join(MARKER), "")?;
    if dir.exists() {
        fs::remove_dir_all(dir).with_context(|| format!("cannot replace {}", dir.display()))?;
    }
    fs::rename(&staging, dir)
        .with_context(|| format!("cannot move the output into {}", dir.display()))?;
    Ok(())
}

fn staging_dir(dir: &Path) -> PathBuf {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    dir.with_file_name(format!(".{name}.siteops-staging"))
}
