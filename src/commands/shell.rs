//! What fits siteops into a user's shell: completion scripts and manual pages, both from the
//! clap declaration of the command line, so they cannot drift from it.

use std::io::Write;

use anyhow::{Context, Result};
use clap::CommandFactory;

use super::Outcome;
use crate::cli::{Cli, CompletionsArgs, ManArgs};

/// `siteops completions SHELL`: the completion script on stdout, offering only what
/// `--help` shows (no hidden `man`, no deprecated `--transform`).
pub(crate) fn completions(args: &CompletionsArgs) -> Result<Outcome> {
    let mut command = visible(&Cli::command());
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "siteops", &mut script);
    std::io::stdout()
        .write_all(&script)
        .context("cannot write the completion script")?;
    Ok(Outcome::Success)
}

/// `command` without its hidden subcommands and arguments, at every level (clap_complete
/// offers hidden ones). Only what completion reads is kept: names, help, arguments.
fn visible(command: &clap::Command) -> clap::Command {
    let mut kept = clap::Command::new(command.get_name().to_owned())
        .args(
            command
                .get_arguments()
                .filter(|arg| !arg.is_hide_set())
                .cloned(),
        )
        .subcommands(
            command
                .get_subcommands()
                .filter(|sub| !sub.is_hide_set())
                .map(visible),
        );
    if let Some(about) = command.get_about() {
        kept = kept.about(about.clone());
    }
    kept
}

/// `siteops man --out DIR` (`cargo xtask man`): `siteops.1`, and `siteops-<command>.1` for
/// each visible subcommand and sub-subcommand.
pub(crate) fn man(args: &ManArgs) -> Result<Outcome> {
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let command = Cli::command();
    let mut pages = vec![("siteops".to_owned(), command.clone())];
    for sub in command.get_subcommands().filter(|c| !c.is_hide_set()) {
        let name = format!("siteops-{}", sub.get_name());
        for nested in sub.get_subcommands().filter(|c| !c.is_hide_set()) {
            let nested_name = format!("{name}-{}", nested.get_name());
            pages.push((
                nested_name.clone(),
                nested
                    .clone()
                    .display_name(nested_name.clone())
                    .bin_name(nested_name),
            ));
        }
        pages.push((
            name.clone(),
            sub.clone().display_name(name.clone()).bin_name(name),
        ));
    }
    for (name, page) in pages {
        let mut roff = Vec::new();
        clap_mangen::Man::new(page)
            .render(&mut roff)
            .with_context(|| format!("cannot render the page of {name}"))?;
        let path = args.out.join(format!("{name}.1"));
        std::fs::write(&path, roff).with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(Outcome::Success)
}
