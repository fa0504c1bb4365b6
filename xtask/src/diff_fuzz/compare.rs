//! A batch of pages through siteops and through the references, and where they differ.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The three outputs of one page; `None` where the page was rejected (no output).
#[derive(Debug, Default, Clone)]
pub(super) struct Outputs {
    pub md: Option<String>,
    pub plain: Option<String>,
    pub html: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Md,
    Plain,
    Html,
}

impl Kind {
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Md => "md",
            Kind::Plain => "plain",
            Kind::Html => "html",
        }
    }
}

pub(super) struct Tools {
    pub siteops: PathBuf,
    pub anchors: PathBuf,
    pub runner: PathBuf,
}

fn read(path: PathBuf) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

fn quiet(command: &mut Command) -> Result<(), String> {
    command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|_| ())
        .map_err(|e| format!("cannot run {command:?}: {e}"))
}

/// Pages over the preview's 1 MiB default are compared too: it is the conversion that is
/// fuzzed, not the limit.
const BIG: &str = "16777216";

/// siteops' outputs for `dir/in/NAME.html`, written under `dir/ours`.
pub(super) fn ours(tools: &Tools, dir: &Path, names: &[String]) -> Result<Vec<Outputs>, String> {
    let input = |n: &String| dir.join("in").join(format!("{n}.html"));
    for format in ["md", "plain"] {
        let out = dir.join("ours").join(format);
        quiet(
            Command::new(&tools.siteops)
                .args([
                    "ingest",
                    "--max-input-size",
                    BIG,
                    "--format",
                    format,
                    "--out",
                ])
                .arg(&out)
                .args(names.iter().map(input)),
        )?;
    }
    for name in names {
        quiet(
            Command::new(&tools.siteops)
                .args([
                    "ingest",
                    "--max-input-size",
                    BIG,
                    "--format",
                    "html",
                    "--url",
                ])
                .arg(format!("https://www.example.com/{name}"))
                .arg("--out")
                .arg(dir.join("ours/html"))
                .arg(input(name)),
        )?;
    }
    Ok(names
        .iter()
        .map(|n| Outputs {
            md: read(dir.join(format!("ours/md/{n}.md"))),
            plain: read(dir.join(format!("ours/plain/{n}.plain.html"))),
            html: read(dir.join(format!("ours/html/{n}.html"))),
        })
        .collect())
}

/// The references' outputs, written under `dir/ref`.
pub(super) fn theirs(tools: &Tools, dir: &Path, names: &[String]) -> Result<Vec<Outputs>, String> {
    let out = dir.join("ref");
    quiet(
        Command::new("node")
            .arg(&tools.runner)
            .arg(&tools.anchors)
            .arg(dir.join("in"))
            .arg(&out)
            .args(names),
    )?;
    Ok(names
        .iter()
        .map(|n| Outputs {
            md: read(out.join(format!("{n}.md"))),
            plain: read(out.join(format!("{n}.plain.html"))),
            html: read(out.join(format!("{n}.html"))),
        })
        .collect())
}

/// The first kind in which siteops differs from the reference. The page kinds only count
/// where the markdown agrees (otherwise they differ for the markdown's sake).
pub(super) fn difference(ours: &Outputs, theirs: &Outputs) -> Option<Kind> {
    let trimmed = |s: &Option<String>| s.as_deref().map(str::trim).map(str::to_owned);
    if trimmed(&ours.md) != trimmed(&theirs.md) {
        return Some(Kind::Md);
    }
    theirs.md.as_ref()?;
    let norm = |s: &Option<String>| s.as_deref().map(normalise);
    if theirs.plain.is_some() && norm(&ours.plain) != norm(&theirs.plain) {
        return Some(Kind::Plain);
    }
    if theirs.html.is_some() && norm(&ours.html) != norm(&theirs.html) {
        return Some(Kind::Html);
    }
    None
}

/// `check.py`'s comparison of HTML: white-space runs collapsed, none between tags.
pub(super) fn normalise(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut space = false;
    for c in html.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    out.replace("> <", "><").trim().to_owned()
}
