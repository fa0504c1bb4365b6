//! `siteops import --from-repo DIR`: a git-era site's repository, read from disk, written
//! as the repository's files of one site. The files are read here; the conversion is the
//! config crate's (`siteops_config::git_era`), pure.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use siteops_config::diagnostic::{Summary, render};
use siteops_config::git_era::{FILES, Migration, Target, is_read, migrate};
use siteops_config::import::ImportedFile;
use siteops_config::repo::{SETTINGS_FILE, limit_for, read_file};
use siteops_config::rules::NameKind;

use super::{Outcome, use_color};
use crate::cli::ImportArgs;

pub(crate) fn run(args: &ImportArgs, dir: &Path) -> Result<Outcome> {
    NameKind::Org
        .check(&args.org)
        .map_err(|error| anyhow!("--org: {error}"))?;
    let [site] = args.sites.as_slice() else {
        bail!("--from-repo takes one --site NAME: the site the repository becomes");
    };
    NameKind::Site
        .check(site)
        .map_err(|error| anyhow!("--site: {error}"))?;
    if !dir.is_dir() {
        bail!("--from-repo {}: not a directory", dir.display());
    }
    let found = read_repo(dir)?;
    if !args.dry_run {
        std::fs::create_dir_all(&args.root)
            .with_context(|| format!("cannot create {}", args.root.display()))?;
    }
    let target = Target {
        org: args.org.clone(),
        site: site.clone(),
        shown: dir.display().to_string(),
        checkout: relative_to(&args.root, dir),
    };
    let migration = migrate(&target, &found);
    let diagnostics = &migration.report.diagnostics;
    if !diagnostics.is_empty() {
        let styled = use_color(&std::io::stderr());
        eprint!("{}", render::human(diagnostics, &migration.report, styled));
        eprintln!("{}", render::human_summary(Summary::of(diagnostics)));
    }
    if migration.has_errors() {
        eprintln!(
            "error: nothing written: {} cannot be migrated as it is",
            dir.display()
        );
        return Ok(Outcome::Failure);
    }
    write_all(args, &target, migration)?;
    Ok(Outcome::Success)
}

/// The files the migration reads, by path relative to `dir`: those of [`FILES`] and the
/// root's other `helix-*.yaml`. Each is read as a repository file is (regular, no links,
/// capped in size).
fn read_repo(dir: &Path) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut names: Vec<String> = FILES.iter().map(|name| name.to_string()).collect();
    let listing =
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in listing {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if is_read(&name) && !names.contains(&name) {
            names.push(name);
        }
    }
    let mut found = BTreeMap::new();
    for name in names {
        if std::fs::symlink_metadata(dir.join(&name)).is_err() {
            continue;
        }
        let bytes = read_file(dir, &name, limit_for(&name))
            .with_context(|| format!("cannot read {}", dir.join(&name).display()))?;
        found.insert(name, bytes);
    }
    Ok(found)
}

fn write_all(args: &ImportArgs, target: &Target, migration: Migration) -> Result<()> {
    let mut files = migration.files;
    let settings = args.root.join(SETTINGS_FILE);
    let code = format!("{}/{}", target.org, target.site);
    if !settings.exists() {
        files.insert(
            0,
            ImportedFile {
                path: SETTINGS_FILE.into(),
                text: migration.settings,
            },
        );
    } else if let Some(checkout) = &target.checkout {
        let text = std::fs::read_to_string(&settings).unwrap_or_default();
        if !text.contains(&format!("\"{code}\"")) {
            eprintln!(
                "note: {} exists: add `\"{code}\" = \"{checkout}\"` to its [code] table for `siteops serve` to serve the site's code from the repository",
                settings.display()
            );
        }
    }
    let existing: Vec<&str> = (files.iter())
        .filter(|f| args.root.join(&f.path).exists())
        .map(|f| f.path.as_str())
        .collect();
    if !existing.is_empty() && !args.force {
        let message = format!(
            "refused: these files exist under {} (pass --force to overwrite them): {}",
            args.root.display(),
            existing.join(", ")
        );
        if !args.dry_run {
            bail!(message);
        }
        eprintln!("warning: would be {message}");
    }
    let verb = if args.dry_run { "Would write" } else { "Wrote" };
    for file in &files {
        if !args.dry_run {
            let path = args.root.join(&file.path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
            std::fs::write(&path, &file.text)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        let replaced = if existing.contains(&file.path.as_str()) {
            " (replacing the file there)"
        } else {
            ""
        };
        println!("{verb} {}{replaced}", file.path);
    }
    for note in &migration.notes {
        eprintln!("note: {note}");
    }
    println!(
        "{} {} as site {code} ({} files). Next: `siteops validate`, then `siteops plan` and `siteops apply` take it to the service.",
        if args.dry_run {
            "Dry run, nothing written:"
        } else {
            "Migrated"
        },
        args.from_repo
            .as_deref()
            .unwrap_or(Path::new("."))
            .display(),
        files.len(),
    );
    Ok(())
}

/// `dir` relative to `root` (`/`-separated), for `siteops.toml`'s checkout; `None` when
/// either cannot be resolved (a dry run into a root not made yet).
fn relative_to(root: &Path, dir: &Path) -> Option<String> {
    let (root, dir) = (root.canonicalize().ok()?, dir.canonicalize().ok()?);
    let (root, dir): (Vec<Component<'_>>, Vec<Component<'_>>) =
        (root.components().collect(), dir.components().collect());
    let common = root.iter().zip(&dir).take_while(|(a, b)| a == b).count();
    let mut relative = PathBuf::new();
    for _ in common..root.len() {
        relative.push("..");
    }
    for part in &dir[common..] {
        relative.push(part.as_os_str());
    }
    let text = relative.to_str()?.replace(std::path::MAIN_SEPARATOR, "/");
    Some(if text.is_empty() { ".".into() } else { text })
}

#[cfg(test)]
mod tests {
    use super::relative_to;

    #[test]
    fn a_checkout_is_named_relative_to_the_root() {
        let scratch = tempfile::tempdir().expect("dir");
        let (root, repo) = (scratch.path().join("ops"), scratch.path().join("site"));
        std::fs::create_dir_all(&root).expect("mkdir");
        std::fs::create_dir_all(repo.join("inner")).expect("mkdir");
        assert_eq!(relative_to(&root, &repo).as_deref(), Some("../site"));
        assert_eq!(
            relative_to(&repo, &repo.join("inner")).as_deref(),
            Some("inner")
        );
        assert_eq!(relative_to(&repo, &repo).as_deref(), Some("."));
    }
}
