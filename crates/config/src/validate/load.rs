//! Finds the sites in a [`RepoFiles`] snapshot and parses their files: UTF-8, TOML/YAML
//! syntax, JSON schema, typed value. Each stage's problems become located diagnostics;
//! a file that fails a stage yields no typed value, and later rules skip it.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::document::{Document, Spans};
use crate::model::SiteId;
use crate::model::api::{AccessConfig, PublicConfig, QueryConfig, SitemapConfig};
use crate::model::files::{
    FstabFile, OrgFile, ProfileFile, SecretsFile, SettingsFile, SiteFile, TransformFile,
};
use crate::repo::{
    CODE_FILES, FileProblem, ProblemKind, RepoFiles, SETTINGS_FILE, SITES_DIR, is_config_file,
};
use crate::rules::check_id;
use crate::schema::SchemaKind;
use crate::source::SourceFile;

/// A file that parsed and matched its schema: the typed value, and the spans to locate
/// problems with (the JSON value it came from is dropped: it is not needed any more).
#[derive(Debug)]
pub(super) struct Parsed<T> {
    pub spans: Spans,
    pub value: T,
}

impl<T> Parsed<T> {
    pub(super) fn locate(&self, diagnostic: Diagnostic) -> Diagnostic {
        self.spans.locate(diagnostic)
    }

    pub(super) fn path(&self) -> &str {
        &self.spans.source.path
    }
}

/// Everything found in one site directory.
#[derive(Debug)]
pub(super) struct SiteFiles {
    pub id: SiteId,
    pub dir: String,
    /// `None` when `site.toml` is missing or did not parse.
    pub site: Option<Parsed<SiteFile>>,
    /// The names of the site's own files that exist, parsed or not (`site.toml`,
    /// `fstab.yaml`…), so a file that failed to parse is not also reported missing.
    pub present: BTreeSet<String>,
    pub public: Option<Parsed<PublicConfig>>,
    pub access: Option<Parsed<AccessConfig>>,
    pub secrets: Option<Parsed<SecretsFile>>,
    pub fstab: Option<Parsed<FstabFile>>,
    /// `query.toml`, the index configuration.
    pub query: Option<Parsed<QueryConfig>>,
    /// `sitemap.toml`, the sitemap configuration.
    pub sitemap: Option<Parsed<SitemapConfig>>,
    pub transform: BTreeMap<String, Parsed<TransformFile>>,
}

/// The parsed repository, before rules that relate files and sites.
#[derive(Debug, Default)]
pub(super) struct Loaded {
    pub settings: Option<Parsed<SettingsFile>>,
    /// `sites/<org>/org.toml`, by org.
    pub orgs: BTreeMap<String, Parsed<OrgFile>>,
    /// `sites/<org>/<profile>.profile.toml`, by org and profile.
    pub profiles: BTreeMap<(String, String), Parsed<ProfileFile>>,
    pub sites: Vec<SiteFiles>,
    pub sources: BTreeMap<String, Arc<SourceFile>>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Loads the repository: site directories are found in path order, then parsed on every
/// core (rayon), each into its own part, merged back in the same order: the result does
/// not depend on the scheduling.
pub(super) fn load(repo: &RepoFiles) -> Loaded {
    use rayon::prelude::*;

    let mut loaded = Loaded::default();
    loaded
        .diagnostics
        .extend(repo.problems().iter().map(file_problem));
    if let Some(bytes) = repo.content(SETTINGS_FILE) {
        loaded.settings = loaded.parse(SETTINGS_FILE, bytes, SchemaKind::SettingsFile);
    }
    // Each site directory with its files (path, path within the site).
    let mut directories: Vec<(SiteId, Vec<(&str, &str)>)> = Vec::new();
    for path in repo.paths() {
        let Some(relative) = path
            .strip_prefix(SITES_DIR)
            .and_then(|p| p.strip_prefix('/'))
        else {
            continue;
        };
        let parts: Vec<&str> = relative.splitn(3, '/').collect();
        if let [org, name] = parts[..] {
            loaded.add_org_file(path, org, name, repo.content(path));
            continue;
        }
        let [org, site, rest] = parts[..] else {
            if is_config_file(path) {
                loaded.diagnostics.push(unknown_file(
                    path,
                    "configuration lives in sites/<org>/<site>/",
                ));
            }
            continue;
        };
        let id = SiteId {
            org: org.to_string(),
            site: site.to_string(),
        };
        match directories.last_mut() {
            Some((last, files)) if *last == id => files.push((path, rest)),
            _ => directories.push((id, vec![(path, rest)])),
        }
    }
    let parts: Vec<(SiteFiles, Loaded)> = directories
        .into_par_iter()
        .map(|(id, files)| {
            let mut part = Loaded::default();
            let mut site = Loaded::new_site(id);
            for (path, rest) in files {
                part.add_file(&mut site, path, rest, repo.content(path));
            }
            (site, part)
        })
        .collect();
    for (site, part) in parts {
        loaded.check_ids(&site.id);
        loaded.diagnostics.extend(part.diagnostics);
        loaded.sources.extend(part.sources);
        loaded.sites.push(site);
    }
    loaded
}

impl Loaded {
    /// The org's and the site's names checked, as a site directory is added: one org
    /// diagnostic, not one per site of the org (paths come sorted, so the sites of an org
    /// are consecutive: comparing with the previous site is enough).
    fn check_ids(&mut self, id: &SiteId) {
        let dir = format!("{SITES_DIR}/{}/{}", id.org, id.site);
        let org_dir = format!("{SITES_DIR}/{}", id.org);
        if self
            .sites
            .last()
            .is_none_or(|previous| previous.id.org != id.org)
        {
            self.diagnostics
                .extend(check_id("org", &id.org).map(|d| d.in_file(org_dir)));
        }
        self.diagnostics
            .extend(check_id("site", &id.site).map(|d| d.in_file(dir.clone())));
        self.diagnostics.extend(
            crate::rules::check_site_host(&id.org, &id.site)
                .into_iter()
                .map(|d| d.in_file(dir.clone())),
        );
    }

    /// A file directly in an org's directory: the org's own (`org.toml`) or a profile
    /// (`<name>.profile.toml`). Sites are directories, so neither can be taken for one.
    fn add_org_file(&mut self, path: &str, org: &str, name: &str, content: Option<&[u8]>) {
        let Some(bytes) = content else { return };
        if name == "org.toml" {
            if let Some(parsed) = self.parse(path, bytes, SchemaKind::OrgFile) {
                self.orgs.insert(org.to_string(), parsed);
            }
        } else if let Some(profile) = name.strip_suffix(".profile.toml") {
            if !crate::rules::is_profile_name(profile) {
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidName,
                        format!("invalid profile name `{profile}`"),
                    )
                    .with_help("profile names use letters, digits, `-` and `_`")
                    .in_file(path),
                );
            }
            if let Some(parsed) = self.parse(path, bytes, SchemaKind::ProfileFile) {
                self.profiles
                    .insert((org.to_string(), profile.to_string()), parsed);
            }
        } else if is_config_file(name) {
            self.diagnostics.push(unknown_file(
                path,
                "an org's directory holds org.toml, <profile>.profile.toml and one directory per site",
            ));
        }
    }

    fn new_site(id: SiteId) -> SiteFiles {
        let dir = format!("{SITES_DIR}/{}/{}", id.org, id.site);
        SiteFiles {
            id,
            dir,
            site: None,
            present: BTreeSet::new(),
            public: None,
            access: None,
            secrets: None,
            fstab: None,
            query: None,
            sitemap: None,
            transform: BTreeMap::new(),
        }
    }

    fn add_file(&mut self, site: &mut SiteFiles, path: &str, rest: &str, content: Option<&[u8]>) {
        let bytes = content.unwrap_or_default();
        site.present.insert(rest.to_string());
        if content.is_none() && is_config_file(rest) {
            // Too large to be read: reported as such, not parsed as if it were empty.
            return;
        }
        match rest {
            "site.toml" => site.site = self.parse(path, bytes, SchemaKind::SiteFile),
            "public.toml" => site.public = self.parse(path, bytes, SchemaKind::PublicFile),
            "access.toml" => site.access = self.parse(path, bytes, SchemaKind::AccessFile),
            "secrets.toml" => site.secrets = self.parse(path, bytes, SchemaKind::SecretsFile),
            "fstab.yaml" => site.fstab = self.parse(path, bytes, SchemaKind::FstabFile),
            "query.toml" => site.query = self.parse(path, bytes, SchemaKind::QueryFile),
            "sitemap.toml" => site.sitemap = self.parse(path, bytes, SchemaKind::SitemapFile),
            _ if rest.starts_with("templates/") || rest.starts_with("mocks/") => {}
            _ => {
                if let Some(branch) = rest
                    .strip_prefix("transform/")
                    .and_then(|name| name.strip_suffix(".toml"))
                    .filter(|branch| !branch.contains('/'))
                {
                    self.diagnostics
                        .extend(check_id("branch", branch).map(|d| d.in_file(path)));
                    if let Some(parsed) = self.parse(path, bytes, SchemaKind::TransformFile) {
                        site.transform.insert(branch.to_string(), parsed);
                    }
                } else if CODE_FILES.contains(&rest) {
                    self.diagnostics.push(unknown_file(
                        path,
                        &format!("`{rest}` is a file of the site's code: the preview hosts serve it from the code repository (`[code]`, or a checkout that siteops.toml maps), so move it there"),
                    ));
                } else if is_config_file(rest) {
                    self.diagnostics.push(unknown_file(
                        path,
                        "a site holds site.toml, public.toml, access.toml, secrets.toml, query.toml, sitemap.toml, fstab.yaml, transform/<branch>.toml, templates/ and mocks/",
                    ));
                }
            }
        }
    }

    /// UTF-8, syntax, schema, then the typed value; `None` after the first failing stage.
    fn parse<T: DeserializeOwned>(
        &mut self,
        path: &str,
        bytes: &[u8],
        schema: SchemaKind,
    ) -> Option<Parsed<T>> {
        let source = match std::str::from_utf8(bytes) {
            Ok(text) => SourceFile::new(path, text),
            Err(error) => {
                let source = SourceFile::new(path, String::from_utf8_lossy(bytes));
                let at = error.valid_up_to();
                self.diagnostics.push(
                    Diagnostic::error(Code::InvalidUtf8, "the file is not valid UTF-8")
                        .with_help("save the file as UTF-8")
                        .at(&source, at..at),
                );
                self.sources.insert(path.to_string(), source);
                return None;
            }
        };
        self.sources.insert(path.to_string(), source.clone());
        let parsed = if path.ends_with(".yaml") {
            Document::parse_yaml(source)
        } else {
            Document::parse_toml(source)
        };
        let doc = match parsed {
            Ok(doc) => doc,
            Err(errors) => {
                self.diagnostics.extend(errors);
                return None;
            }
        };
        let Document {
            mut value,
            mut spans,
        } = doc;
        let legacy = legacy_require_auth(schema, &mut value);
        self.diagnostics.extend(spans.locate_all(legacy));
        let problems = schema.check(&value);
        let had_problems = !problems.is_empty();
        let (value, problems) = repair_keys(schema, &value, problems, &mut spans);
        self.diagnostics.extend(spans.locate_all(problems));
        match T::deserialize(value.as_ref()) {
            Ok(value) => Some(Parsed { spans, value }),
            Err(_) if had_problems => None,
            Err(error) => {
                // The schema is generated from the same types, so this means they disagree.
                self.diagnostics.push(spans.locate(Diagnostic::error(
                    Code::InvalidValue,
                    format!("the file does not fit its format: {error}"),
                )));
                None
            }
        }
    }
}

/// `requireAuth = "true"` / `"false"`, which siteops once took: read as the boolean the
/// platform takes, with a warning, so that the compiled body is the platform's shape.
fn legacy_require_auth(schema: SchemaKind, value: &mut Value) -> Vec<Diagnostic> {
    let pointer = match schema {
        SchemaKind::AccessFile => "/admin/requireAuth",
        SchemaKind::ProfileFile => "/access/admin/requireAuth",
        _ => return Vec::new(),
    };
    let Some(slot) = value.pointer_mut(pointer) else {
        return Vec::new();
    };
    let Some(flag) = crate::model::api::legacy_require_auth(slot) else {
        return Vec::new();
    };
    *slot = Value::Bool(flag);
    vec![
        Diagnostic::warning(
            Code::LegacyRequireAuth,
            format!("`requireAuth = \"{flag}\"` is read as the boolean `{flag}`"),
        )
        .with_help(format!("write `requireAuth = {flag}` (or \"auto\")"))
        .at_pointer(pointer),
    ]
}

/// Unknown keys (typos, mostly) do not stop the semantic rules: they run on the file
/// without them, so one run still reports every problem. An unknown key that is a near
/// miss of a required key that is missing (`endpont` for `endpoint`) is read as that key:
/// one mistake, one diagnostic (not also "missing key `endpoint`", nor the problems of a
/// file that then did not load), and the rules check its value where it is written.
/// The repaired file is checked again, so its values are too.
fn repair_keys<'v>(
    schema: SchemaKind,
    value: &'v Value,
    problems: Vec<Diagnostic>,
    spans: &mut Spans,
) -> (Cow<'v, Value>, Vec<Diagnostic>) {
    if !problems.iter().any(|d| d.code == Code::UnknownKey) {
        return (Cow::Borrowed(value), problems);
    }
    let missing: Vec<&str> = problems
        .iter()
        .filter(|d| d.code == Code::MissingKey)
        .filter_map(|d| d.pointer.as_deref())
        .collect();
    let mut repaired = value.clone();
    let mut taken: Vec<String> = Vec::new();
    let mut unknown = Vec::new();
    for diagnostic in problems.iter().filter(|d| d.code == Code::UnknownKey) {
        let pointer = diagnostic.pointer.as_deref().unwrap_or_default();
        let renamed = remove_key(&mut repaired, pointer, |parent, token| {
            // The required keys missing from this very table, not claimed by another typo.
            let candidates: Vec<&str> = missing
                .iter()
                .filter(|m| !taken.iter().any(|t| t == *m))
                .filter_map(|m| m.strip_prefix(parent)?.strip_prefix('/'))
                .filter(|name| !name.contains('/'))
                .collect();
            crate::schema::near_miss(token, &candidates).map(str::to_string)
        });
        unknown.push(match renamed {
            Some(target) => {
                spans.alias(pointer, &target);
                let meant = target.rsplit('/').next().unwrap_or_default().to_string();
                taken.push(target);
                diagnostic
                    .clone()
                    .with_help(format!("did you mean `{meant}`?"))
            }
            None => diagnostic.clone(),
        });
    }
    let mut diagnostics = unknown;
    diagnostics.extend(schema.check(&repaired));
    (Cow::Owned(repaired), diagnostics)
}

/// Removes the key at `pointer` from `value`; when `meant` names the key it was meant to
/// be (given the parent table's pointer and the key's pointer token), puts the value back
/// under that name and returns its pointer.
fn remove_key(
    value: &mut Value,
    pointer: &str,
    meant: impl FnOnce(&str, &str) -> Option<String>,
) -> Option<String> {
    let (parent, token) = pointer.rsplit_once('/')?;
    let Value::Object(table) = value.pointer_mut(parent)? else {
        return None;
    };
    let written = table.remove(&unescape(token))?;
    let name = meant(parent, token)?;
    table.insert(unescape(&name), written);
    Some(format!("{parent}/{name}"))
}

/// A JSON pointer token as the key it stands for.
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// A path the repository's reader refused.
fn file_problem(problem: &FileProblem) -> Diagnostic {
    let path = problem.path.as_str();
    match problem.kind {
        ProblemKind::NotAFile(kind) => Diagnostic::warning(
            Code::SkippedFile,
            format!("`{path}` is {kind}, not a regular file: siteops skips it"),
        )
        .with_help("keep regular files in the repository (links are not followed)"),
        ProblemKind::TooLarge(limit) => Diagnostic::error(
            Code::FileTooLarge,
            format!(
                "`{path}` is larger than {} MiB, the most siteops reads",
                limit / (1024 * 1024)
            ),
        )
        .with_help("split the file, or keep large data out of the repository"),
    }
    .in_file(path)
}

fn unknown_file(path: &str, help: &str) -> Diagnostic {
    Diagnostic::warning(Code::UnknownFile, format!("siteops does not read `{path}`"))
        .with_help(help)
        .in_file(path)
}
