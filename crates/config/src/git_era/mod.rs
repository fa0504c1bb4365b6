//! `siteops import --from-repo`: a git-era site's repository (the files the platform once
//! read from a site's code) turned into the repository files `validate` reads. Pure: the
//! caller reads the files ([`is_read`] says which) and writes what comes back.
//!
//! | git-era file | becomes |
//! |---|---|
//! | `fstab.yaml` `mountpoints./` | `site.toml` `[content.source]` |
//! | `fstab.yaml` `folders` | `site.toml` `[folders]` |
//! | `helix-query.yaml` | `query.toml` |
//! | `helix-sitemap.yaml` | `sitemap.toml` |
//! | `paths.json` (or `paths.yaml`) | `public.toml` `[paths]` |
//! | `robots.txt` | `site.toml` `[robots]` |
//! | a `headers` sheet (`headers.json`, `.helix/headers.json`) | `site.toml` `[headers]` |
//! | `head.html`, `404.html`, `.hlxignore` | stay in the code repository |
//! | a `redirects` sheet | stays content: the delivery reads `/redirects.json` there |
//!
//! The site's code is the repository itself (`github.com/<org>/<site>`, as the platform's
//! git-era sites were named), and `siteops.toml` maps it to the directory, so that
//! `siteops serve` serves it. What has no place in the configuration is a located
//! `not-carried-over` warning; what cannot be read is an error.

mod fstab;
mod indexing;
mod read;
mod sheets;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::diagnostic::{Code, Diagnostic, SourceLookup, sort};
use crate::import::ImportedFile;
use crate::model::api::{CodeConfig, CodeSource};
use crate::model::files::{SiteFile, SiteParts};
use crate::source::SourceFile;

/// The files of a git-era repository that the migration reads, at its root.
pub const FILES: [&str; 15] = [
    "fstab.yaml",
    "helix-query.yaml",
    "helix-sitemap.yaml",
    "paths.json",
    "paths.yaml",
    "robots.txt",
    "headers.json",
    ".helix/headers.json",
    "redirects.json",
    "redirects.csv",
    "redirects.xlsx",
    "head.html",
    "404.html",
    ".hlxignore",
    "helix-config.yaml",
];

/// Whether the file at `path` (relative to the repository's root) is one the migration
/// reads: one of [`FILES`], or another `helix-*.yaml` of the platform's (reported as not
/// carried over).
pub fn is_read(path: &str) -> bool {
    FILES.contains(&path)
        || (!path.contains('/')
            && path.starts_with("helix-")
            && (path.ends_with(".yaml") || path.ends_with(".yml")))
}

/// Which site the repository becomes, and how its files are named in messages.
#[derive(Debug, Clone)]
pub struct Target {
    pub org: String,
    pub site: String,
    /// The repository's directory as the user named it (`../legacy-site`): diagnostics
    /// name its files under it.
    pub shown: String,
    /// The directory relative to the repository root (where `siteops.toml` is), for the
    /// `[code]` checkout that `siteops serve` serves the site's code from.
    pub checkout: Option<String>,
}

/// The problems found, with the texts they point into.
#[derive(Debug, Default)]
pub struct Report {
    pub diagnostics: Vec<Diagnostic>,
    sources: BTreeMap<String, Arc<SourceFile>>,
}

impl SourceLookup for Report {
    fn source(&self, path: &str) -> Option<Arc<SourceFile>> {
        self.sources.get(path).cloned()
    }
}

/// What the migration makes.
#[derive(Debug, Default)]
pub struct Migration {
    /// The site's files, by path relative to the repository root, sorted.
    pub files: Vec<ImportedFile>,
    /// `siteops.toml`, for a repository that has none: the checkout of the site's code.
    pub settings: String,
    /// What was read and where it went, one sentence each.
    pub notes: Vec<String>,
    pub report: Report,
}

impl Migration {
    pub fn has_errors(&self) -> bool {
        self.report.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The repository files of `target` from the git-era files `found` (path relative to the
/// repository's root → bytes; only those [`is_read`] takes are looked at).
pub fn migrate(target: &Target, found: &BTreeMap<String, Vec<u8>>) -> Migration {
    let mut out = Migration::default();
    let report = &mut out.report;
    let shown = |name: &str| match target.shown.trim_end_matches('/') {
        "" | "." => name.to_string(),
        dir => format!("{dir}/{name}"),
    };
    let file = |name: &str| found.get(name).map(|bytes| (shown(name), bytes));
    let dir = format!("sites/{}/{}", target.org, target.site);
    let mut notes = Vec::new();

    let mut parts = SiteParts::default();
    let mut site = SiteFile {
        version: Some(1),
        code: Some(code_of(target)),
        ..SiteFile::default()
    };
    match file("fstab.yaml") {
        Some((path, bytes)) => {
            let fstab = fstab::fstab(&path, bytes, report);
            site.content = fstab.content;
            parts.folders = fstab.folders;
            notes.push(format!(
                "{path}: the `/` mountpoint is [content.source] of {dir}/site.toml, its folders [folders]"
            ));
        }
        None => report.diagnostics.push(
            Diagnostic::error(
                Code::MissingContent,
                "the repository has no fstab.yaml, so the site has no content source",
            )
            .with_help(format!(
                "add a [content.source] table to {dir}/site.toml after the import"
            ))
            .in_file(shown("fstab.yaml")),
        ),
    }
    if let Some((path, bytes)) = file("robots.txt") {
        parts.robots = sheets::robots(&path, bytes, report);
        notes.push(format!("{path}: [robots] of {dir}/site.toml"));
    }
    for name in ["headers.json", ".helix/headers.json"] {
        if let Some((path, bytes)) = file(name) {
            if let Some(headers) = sheets::headers(&path, bytes, report) {
                let all = parts.headers.get_or_insert_default();
                for (glob, pairs) in headers.0 {
                    all.0.entry(glob).or_default().extend(pairs);
                }
            }
            notes.push(format!("{path}: [headers] of {dir}/site.toml"));
        }
    }
    for name in ["redirects.json", "redirects.csv", "redirects.xlsx"] {
        if let Some((path, _)) = file(name) {
            report.diagnostics.push(
                Diagnostic::warning(
                    Code::NotCarriedOver,
                    "the redirects sheet is not carried over: redirects are content, which the delivery reads as /redirects.json from the content source",
                )
                .with_help("put the sheet in the content source as `redirects`, and preview it")
                .in_file(path),
            );
        }
    }
    for name in found.keys().filter(|name| {
        is_read(name)
            && name.starts_with("helix-")
            && !["helix-query.yaml", "helix-sitemap.yaml"].contains(&name.as_str())
    }) {
        report.diagnostics.push(
            Diagnostic::warning(
                Code::NotCarriedOver,
                format!("{name} is not carried over: the platform no longer reads it"),
            )
            .in_file(shown(name)),
        );
    }
    site.parts = parts;
    push_toml(
        &mut out.files,
        &dir,
        "site.toml",
        "the git-era files",
        &site,
    );

    let mut public = None;
    if let Some((path, bytes)) = file("paths.json") {
        public = sheets::paths(&path, bytes, report);
        notes.push(format!("{path}: [paths] of {dir}/public.toml"));
        if let Some((older, _)) = file("paths.yaml") {
            report.diagnostics.push(
                Diagnostic::warning(
                    Code::NotCarriedOver,
                    format!("{older} is not carried over: paths.json takes its place"),
                )
                .in_file(older),
            );
        }
    } else if let Some((path, bytes)) = file("paths.yaml") {
        public = sheets::paths(&path, bytes, report);
        notes.push(format!("{path}: [paths] of {dir}/public.toml"));
    }
    if let Some(public) = public {
        push_toml(&mut out.files, &dir, "public.toml", "paths.json", &public);
    }
    if let Some((path, bytes)) = file("helix-query.yaml") {
        if let Some(query) = indexing::query(&path, bytes, report) {
            push_toml(
                &mut out.files,
                &dir,
                "query.toml",
                "helix-query.yaml",
                &query,
            );
        }
        notes.push(format!("{path}: {dir}/query.toml"));
    }
    if let Some((path, bytes)) = file("helix-sitemap.yaml") {
        if let Some(sitemap) = indexing::sitemap(&path, bytes, report) {
            push_toml(
                &mut out.files,
                &dir,
                "sitemap.toml",
                "helix-sitemap.yaml",
                &sitemap,
            );
        }
        notes.push(format!("{path}: {dir}/sitemap.toml"));
    }
    for name in ["head.html", "404.html", ".hlxignore"] {
        if let Some((path, _)) = file(name) {
            notes.push(format!(
                "{path}: stays in the code repository ({})",
                match name {
                    ".hlxignore" => "the files it names are not served, as the platform's code sync leaves them out",
                    _ => "served from the site's code",
                }
            ));
        }
    }
    out.settings = settings(target);
    out.notes = notes;
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    sort(&mut out.report.diagnostics);
    // A value merged into several places (`<<: *default`) is one problem where it is written.
    out.report
        .diagnostics
        .dedup_by(|a, b| (a.code, &a.message, &a.location) == (b.code, &b.message, &b.location));
    out
}

/// The site's code: the repository itself, on GitHub under the org's name.
fn code_of(target: &Target) -> CodeConfig {
    CodeConfig {
        title: None,
        description: None,
        owner: target.org.clone(),
        repo: target.site.clone(),
        source: CodeSource {
            kind: "github".into(),
            url: format!("https://github.com/{}/{}", target.org, target.site),
            raw_url: None,
            owner: None,
            repo: None,
            secret_id: None,
        },
    }
}

/// `siteops.toml` with the repository as the checkout of the site's code.
fn settings(target: &Target) -> String {
    let mut text = String::from(
        "# Settings shared by every site of this repository.\n\n\
         # Local checkouts of the sites' code repositories, for `siteops serve`: their files\n\
         # are the repository's code on every branch, served by the preview hosts.\n",
    );
    if let Some(checkout) = &target.checkout {
        let mut code = BTreeMap::new();
        code.insert(format!("{}/{}", target.org, target.site), checkout.clone());
        let table = toml::to_string(&BTreeMap::from([("code", code)])).unwrap_or_default();
        text.push_str(&table);
    }
    text
}

/// Adds `<dir>/<name>`: a comment naming where it came from, then `value` as TOML.
fn push_toml(
    files: &mut Vec<ImportedFile>,
    dir: &str,
    name: &str,
    from: &str,
    value: &impl Serialize,
) {
    let body = serde_json::to_value(value)
        .ok()
        .and_then(|value| toml::to_string_pretty(&value).ok())
        .unwrap_or_default();
    files.push(ImportedFile {
        path: format!("{dir}/{name}"),
        text: format!("# Migrated from {from} by `siteops import --from-repo`.\n{body}"),
    });
}
