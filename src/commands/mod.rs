//! One module per subcommand. Each returns an [`Outcome`] (or an error); `main` alone turns
//! that into an exit code.

pub(crate) mod apply;
pub(crate) mod compile;
pub(crate) mod import;
mod import_repo;
mod import_templates;
pub(crate) mod ingest;
pub(crate) mod mocks;
pub(crate) mod plan;
mod planning;
pub(crate) mod restore;
pub(crate) mod schema;
pub(crate) mod serve;
pub(crate) mod shell;
pub(crate) mod template;
pub(crate) mod test;
pub(crate) mod token;
pub(crate) mod validate;
mod versions;

use std::io::IsTerminal;
use std::path::Path;

use anyhow::{Context, Result, bail};
use siteops_config::repo::{RepoFiles, SITES_DIR, read_file};
use siteops_config::validate::{Options, Validation, validate};

use crate::cli::RepoArgs;

/// How a command ended, when it ran to completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Success,
    /// The command did its job and found problems it has already reported.
    Failure,
    /// plan with --detailed-exitcode: the live state differs from the repository.
    ChangesPresent,
    /// Stopped by Ctrl-C (or SIGTERM) part-way, after saying what was done (apply).
    Interrupted,
}

/// Reads and validates the repository named by the shared flags: its configuration,
/// what `compile`, `plan` and `apply` need.
pub(crate) fn load_and_validate(args: &RepoArgs) -> Result<Validation> {
    let repo = read_repo(&args.root)?;
    Ok(validate(&repo, &options(args)))
}

/// Reads and validates the repository as `serve` takes it: its configuration, its mocks
/// and its code checkouts, through the live session's own checks, so `validate` reports
/// all that serve would refuse. Mock bodies are not read (that one exists is what is checked
/// of it), but for those that answer a worker entry example, which is rendered.
pub(crate) fn load_and_check(args: &RepoArgs) -> Result<Validation> {
    let repo = read_repo(&args.root)?;
    let listed = |path: &str| {
        Ok::<_, std::convert::Infallible>(repo.content(path).unwrap_or_default().to_vec())
    };
    let (mut validation, mocks) = siteops_live::mocks::validate(&repo, &options(args), listed)
        .unwrap_or_else(|never| match never {});
    // The worker entry examples, through their mocks and templates: the body of a mock
    // that answers one is read, as serve would send it (the others stay unread).
    siteops_live::examples::check(&mut validation, &repo, &mocks, |path| {
        repo.content(path).map(<[u8]>::to_vec).or_else(|| {
            // The repository's one safe reader (a regular file inside it, never a
            // FIFO or a link out), bounded by what the worker takes.
            let limit = siteops_server::worker::render::DATA_LIMIT as u64;
            read_file(&args.root, path, limit).ok()
        })
    });
    siteops_live::checkouts::check(
        &mut validation,
        &args.root,
        &Default::default(),
        siteops_live::checkouts::context_from_env(),
    );
    Ok(validation)
}

fn options(args: &RepoArgs) -> Options {
    Options {
        transform_url: args.transform_url.clone(),
    }
}

fn read_repo(root: &Path) -> Result<RepoFiles> {
    if !root.join(SITES_DIR).is_dir() {
        bail!(
            "{} has no `{SITES_DIR}/` directory; pass --root with the repository that holds your sites",
            root.display()
        );
    }
    RepoFiles::load(root)
        .with_context(|| format!("cannot read the repository at {}", root.display()))
}

/// The `--jobs` of a command that works on every core: the number asked for, else one per
/// core.
pub(crate) fn jobs(requested: Option<u16>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    )
}

/// Colour only for a terminal, and never with NO_COLOR (https://no-color.org).
pub(crate) fn use_color(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// On GitHub Actions, secret values read from the environment are masked (`::add-mask::`)
/// before anything else prints, so that no later line of the log can show one.
pub(crate) fn mask_on_github_actions(compiled: &siteops_config::compile::Compiled) {
    if std::env::var_os("GITHUB_ACTIONS").is_none_or(|v| v != "true") {
        return;
    }
    for resource in &compiled.resources {
        for value in resource.secret_values() {
            println!("::add-mask::{value}");
        }
    }
}
