//! Rules within one site directory: each file's document rules (from [`crate::rules`],
//! located in the file), URL variables, the fstab fallback and the environment-site rule.

use std::collections::BTreeMap;

use super::load::{Parsed, SiteFiles};
use crate::diagnostic::{Code, Diagnostic};
use crate::model::api::{ContentConfig, WorkerEntry};
use crate::model::files::{FstabFile, Mountpoint, TransformEntryFile};
use crate::rules;

/// What one site's files make, ready for the rules across sites.
#[derive(Debug)]
pub(super) struct SiteDraft<'a> {
    pub files: &'a SiteFiles,
    /// The content block with URL variables filled in, from site.toml or fstab.yaml.
    pub content: Option<ContentConfig>,
    /// Branch -> the worker entries as the worker takes them.
    pub entries: BTreeMap<String, Vec<WorkerEntry>>,
}

/// The URL variables a site file may use, such as `{transform_url}`.
pub(super) struct Variables<'a> {
    pub transform_url: Option<&'a str>,
}

pub(super) fn check<'a>(
    files: &'a SiteFiles,
    variables: &Variables<'_>,
    out: &mut Vec<Diagnostic>,
) -> SiteDraft<'a> {
    let mut content = None;
    match &files.site {
        Some(site) => {
            let value = &site.value;
            if let Some(code) = &value.code {
                out.extend(located(site, rules::code(code), "/code"));
                if value.base.is_some() {
                    out.push(site.locate(
                        Diagnostic::error(
                            Code::ConflictingCode,
                            "a site that names a `base` takes its code from it and has no [code] of its own",
                        )
                        .with_help("remove the [code] table, or remove `base`")
                        .at_pointer("/code"),
                    ));
                }
            }
            if let Some(own) = &value.content {
                content = fill_variables(own, site, variables, out);
                if let Some(filled) = &content {
                    out.extend(located(site, rules::content(filled), "/content"));
                }
            }
            if let (Some(_), Some(fstab)) = (&value.content, &files.fstab) {
                out.push(
                    Diagnostic::warning(
                        Code::IgnoredFile,
                        "fstab.yaml is ignored: site.toml configures the content source",
                    )
                    .with_help("remove fstab.yaml, or the [content] table of site.toml")
                    .in_file(fstab.path()),
                );
            }
        }
        None if !files.present.contains("site.toml") => out.push(
            Diagnostic::error(
                Code::MissingFile,
                format!("site `{}` has no site.toml", files.id),
            )
            .in_file(files.dir.clone()),
        ),
        None => {}
    }
    if let Some(fstab) = &files.fstab
        && fstab.value.folders.is_some()
    {
        // The platform's folder mappings are the site configuration's `folders`; a site's
        // fstab.yaml is read for its content source only.
        out.push(
            fstab.locate(
                Diagnostic::warning(
                    Code::IgnoredFile,
                    "`folders` of fstab.yaml are not read: folder mappings are [folders] of site.toml",
                )
                .with_help("move them to site.toml's [folders] (`siteops import --from-repo` does, for a git-era repository)")
                .at_key("/folders"),
            ),
        );
    }
    if content.is_none()
        && files
            .site
            .as_ref()
            .is_some_and(|s| s.value.content.is_none())
        && let Some(fstab) = &files.fstab
    {
        content = content_from_fstab(fstab, out);
    }
    if let Some(site) = &files.site
        && content.is_none()
        && site.value.content.is_none()
        && !files.present.contains("fstab.yaml")
    {
        out.push(site.locate(
            Diagnostic::error(
                Code::MissingContent,
                format!("site `{}` has no content source", files.id),
            )
            .with_help("add a [content.source] table to site.toml (or an fstab.yaml with a `/` mountpoint)")
            .at_pointer(""),
        ));
    }
    if let (Some(site), Some(content)) = (&files.site, &content)
        && let Some(environment) = &site.value.environment
    {
        out.extend(environment_rule(files, environment, content).map(|d| site.locate(d)));
    }
    if let Some(access) = &files.access {
        out.extend(located(access, rules::access(&access.value), ""));
    }
    if let Some(public) = &files.public {
        out.extend(located(public, rules::public(&public.value), ""));
    }
    if let Some(query) = &files.query {
        out.extend(located(query, rules::query(&query.value), ""));
    }
    if let Some(sitemap) = &files.sitemap {
        out.extend(located(sitemap, rules::sitemap(&sitemap.value), ""));
    }
    primary_only(files, out);
    let mut entries = BTreeMap::new();
    for (branch, transform) in &files.transform {
        let branch_entries: Vec<WorkerEntry> =
            transform.value.entry.iter().map(worker_entry).collect();
        out.extend(located(
            transform,
            rules::worker_entries(&branch_entries),
            "/entry",
        ));
        entries.insert(branch.clone(), branch_entries);
    }
    SiteDraft {
        files,
        content,
        entries,
    }
}

fn located<'a, T>(
    parsed: &'a Parsed<T>,
    diagnostics: Vec<Diagnostic>,
    prefix: &'a str,
) -> impl Iterator<Item = Diagnostic> + 'a {
    diagnostics
        .into_iter()
        .map(move |d| parsed.locate(d.under(prefix)))
}

/// The index and sitemap configurations are the primary site's: a site that takes its
/// code from a `base` (a repoless site) is served the base's, and declares none.
fn primary_only(files: &SiteFiles, out: &mut Vec<Diagnostic>) {
    let Some(base) = files.site.as_ref().and_then(|s| s.value.base.as_ref()) else {
        return;
    };
    let declared = [
        (
            "query.toml",
            "an index",
            files.query.as_ref().map(|q| &q.spans),
        ),
        (
            "sitemap.toml",
            "a sitemap",
            files.sitemap.as_ref().map(|s| &s.spans),
        ),
    ];
    for (file, what, spans) in declared {
        let Some(spans) = spans else { continue };
        out.push(spans.locate(
            Diagnostic::error(
                Code::NotPrimarySite,
                format!(
                    "site `{}` takes its code from `{base}`, so it has no {what} configuration of its own: only the primary site of a repoless group carries {file}",
                    files.id
                ),
            )
            .with_help(format!("move {file} to the base site's directory, or remove it"))
            .at_pointer(""),
        ));
    }
}

/// The worker entry as the worker takes it. `templateApiKey` is left out here: its value is
/// only read from the environment at compile time.
pub(super) fn worker_entry(entry: &TransformEntryFile) -> WorkerEntry {
    WorkerEntry {
        path: entry.path.clone(),
        endpoint: entry.endpoint.clone(),
        regex: entry.regex.clone(),
        template: entry.template.clone(),
        headers: entry.headers.clone(),
        forward_headers: entry.forward_headers.clone(),
        relative_url_prefix: entry.relative_url_prefix.clone(),
        array_key: entry.array_key.clone(),
        path_key: entry.path_key.clone(),
        template_api_key: None,
        use_aem_mapping: entry.use_aem_mapping,
    }
}

/// Fills `{transform_url}` in the content URLs; any other `{name}` is an error.
fn fill_variables(
    content: &ContentConfig,
    site: &Parsed<crate::model::files::SiteFile>,
    variables: &Variables<'_>,
    out: &mut Vec<Diagnostic>,
) -> Option<ContentConfig> {
    let mut filled = content.clone();
    let mut ok = true;
    let mut fill = |url: &mut String, pointer: &str| match substitute(url, variables) {
        Ok(value) => *url = value,
        Err(error) => {
            ok = false;
            out.push(site.locate(error.diagnostic(url).at_pointer(pointer)));
        }
    };
    fill(&mut filled.source.url, "/content/source/url");
    if let Some(overlay) = &mut filled.overlay {
        fill(&mut overlay.url, "/content/overlay/url");
    }
    ok.then_some(filled)
}

/// Why a URL's `{variable}` cannot be filled.
enum VariableError {
    Unclosed,
    NoTransformUrl,
    Unknown(String),
}

impl VariableError {
    fn diagnostic(&self, text: &str) -> Diagnostic {
        match self {
            VariableError::Unclosed => Diagnostic::error(
                Code::UnknownVariable,
                format!("`{{` without `}}` in `{text}`"),
            ),
            VariableError::NoTransformUrl => Diagnostic::error(
                Code::UnknownVariable,
                "`{transform_url}` is used but no transformation worker address is set",
            )
            .with_help("set `transform_url` in siteops.toml, or pass --transform-url"),
            VariableError::Unknown(name) => Diagnostic::error(
                Code::UnknownVariable,
                format!("unknown variable `{{{name}}}`"),
            )
            .with_help("the one variable is `{transform_url}`"),
        }
    }
}

fn substitute(text: &str, variables: &Variables<'_>) -> Result<String, VariableError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or(VariableError::Unclosed)?;
        match (&after[..close], variables.transform_url) {
            ("transform_url", Some(url)) => out.push_str(url.trim_end_matches('/')),
            ("transform_url", None) => return Err(VariableError::NoTransformUrl),
            (name, _) => return Err(VariableError::Unknown(name.to_string())),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The `/` mountpoint of fstab.yaml as a content block, checked with the content rules.
fn content_from_fstab(
    fstab: &Parsed<FstabFile>,
    out: &mut Vec<Diagnostic>,
) -> Option<ContentConfig> {
    for key in fstab
        .value
        .mountpoints
        .keys()
        .filter(|key| key.as_str() != "/")
    {
        out.push(
            fstab.locate(
                Diagnostic::warning(
                    Code::IgnoredFile,
                    format!("mountpoint `{key}` is ignored: only `/` is read"),
                )
                .at_key(crate::document::push_token("/mountpoints", key)),
            ),
        );
    }
    let root_pointer = "/mountpoints/~1";
    let Some(mountpoint) = fstab.value.mountpoints.get("/") else {
        out.push(
            fstab.locate(
                Diagnostic::error(Code::MissingContent, "fstab.yaml has no `/` mountpoint")
                    .at_pointer("/mountpoints"),
            ),
        );
        return None;
    };
    let Some(source) = fstab.value.root_source() else {
        let message = match mountpoint {
            Mountpoint::Url(_) => "mountpoint `/` is a bare URL, without `type`",
            Mountpoint::Full(_) => "mountpoint `/` has no `type`",
        };
        out.push(
            fstab.locate(
                Diagnostic::error(Code::MissingKey, message)
                    .with_help("siteops reads markup mountpoints: add `type: markup`")
                    .at_pointer(root_pointer),
            ),
        );
        return None;
    };
    let content = ContentConfig::of(source);
    let diagnostics = rules::content(&content);
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    out.extend(diagnostics.into_iter().map(|d| {
        // The content rules speak of `/source/<key>`; in fstab.yaml that is `/mountpoints/~1/<key>`.
        let pointer = d.pointer.clone().unwrap_or_default();
        let key = pointer.strip_prefix("/source").unwrap_or_default();
        let mut d = d;
        d.pointer = Some(format!("{root_pointer}{key}"));
        fstab.locate(d)
    }));
    (!has_errors).then_some(content)
}

/// An environment site's name must be the site named in its content source URL, which
/// addresses the source's delivery endpoint as `…/<org>/<site>/…`.
fn environment_rule(
    files: &SiteFiles,
    environment: &str,
    content: &ContentConfig,
) -> Option<Diagnostic> {
    let url = rules::http_url(&content.source.url).ok()?;
    let segments: Vec<&str> = url.path_segments()?.collect();
    let named_site = segments
        .iter()
        .position(|segment| *segment == files.id.org)
        .and_then(|at| segments.get(at + 1));
    let site = &files.id.site;
    let message = match named_site {
        Some(named) if named == site => return None,
        Some(named) => format!(
            "{environment} site `{site}` must have the name of the site in its content.source.url, which names `{named}`"
        ),
        None => format!(
            "{environment} site `{site}`: content.source.url does not name `{}/{site}`",
            files.id.org
        ),
    };
    Some(
        Diagnostic::error(Code::EnvironmentMismatch, message)
            .with_help(format!(
                "an environment site is created under the site name its content source uses: rename the directory or fix the URL to `…/{}/{site}/…`",
                files.id.org
            ))
            .at_pointer("/content/source/url"),
    )
}
