//! Rules across sites: code inherited from base sites, repositories shared by several
//! sites and their sync secret, templates, worker configurations that overlays point at,
//! and worker entry examples. Each runs in time linear in the number of sites.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::load::Parsed;
use super::site::SiteDraft;
use crate::diagnostic::{Code, Diagnostic};
use crate::document::push_token;
use crate::model::SiteId;
use crate::model::api::CodeConfig;
use crate::model::files::SiteFile;
use crate::routing;
use crate::source::SourceFile;

/// How a site got its code.
#[derive(Debug, Clone)]
pub(super) enum CodeOrigin {
    Own(CodeConfig),
    Inherited { code: CodeConfig, base: SiteId },
    Missing,
}

impl CodeOrigin {
    pub(super) fn code(&self) -> Option<&CodeConfig> {
        match self {
            CodeOrigin::Own(code) | CodeOrigin::Inherited { code, .. } => Some(code),
            CodeOrigin::Missing => None,
        }
    }
}

/// Resolves each site's code, following `base` chains. An inherited code block drops
/// `secretId`: only the first site of a shared repository carries it.
pub(super) fn resolve_code(drafts: &[SiteDraft<'_>], out: &mut Vec<Diagnostic>) -> Vec<CodeOrigin> {
    let mut resolver = CodeResolver {
        drafts,
        index: drafts
            .iter()
            .enumerate()
            .map(|(i, d)| (&d.files.id, i))
            .collect(),
        resolved: vec![None; drafts.len()],
        visiting: vec![false; drafts.len()],
        out,
    };
    (0..drafts.len())
        .map(|site| resolver.origin(site))
        .collect()
}

struct CodeResolver<'d, 'o> {
    drafts: &'d [SiteDraft<'d>],
    index: HashMap<&'d SiteId, usize>,
    resolved: Vec<Option<CodeOrigin>>,
    /// Sites whose base chain is being followed: meeting one again is a cycle.
    visiting: Vec<bool>,
    out: &'o mut Vec<Diagnostic>,
}

impl CodeResolver<'_, '_> {
    fn origin(&mut self, site: usize) -> CodeOrigin {
        if let Some(origin) = &self.resolved[site] {
            return origin.clone();
        }
        if self.visiting[site] {
            self.report_cycle(site);
            return CodeOrigin::Missing;
        }
        self.visiting[site] = true;
        let origin = self.resolve(site);
        self.visiting[site] = false;
        self.resolved[site] = Some(origin.clone());
        origin
    }

    fn resolve(&mut self, site: usize) -> CodeOrigin {
        let draft = &self.drafts[site];
        let Some(file) = &draft.files.site else {
            return CodeOrigin::Missing;
        };
        match (&file.value.base, &file.value.code) {
            (_, Some(code)) => CodeOrigin::Own(code.clone()),
            (Some(base), None) => {
                let Some(parent) = self.index.get(&base_id(&draft.files.id, base)).copied() else {
                    self.out.push(unknown_base(file, base));
                    return CodeOrigin::Missing;
                };
                match self.origin(parent).code() {
                    Some(code) => {
                        let mut code = code.clone();
                        code.source.secret_id = None;
                        CodeOrigin::Inherited {
                            code,
                            base: self.drafts[parent].files.id.clone(),
                        }
                    }
                    None => CodeOrigin::Missing,
                }
            }
            (None, None) => {
                self.out.push(file.locate(
                    Diagnostic::error(Code::MissingCode, format!("site `{}` has no code", draft.files.id))
                        .with_help("add a [code] table, or `base = \"<site>\"` to share another site's code")
                        .at_pointer(""),
                ));
                CodeOrigin::Missing
            }
        }
    }

    fn report_cycle(&mut self, site: usize) {
        let draft = &self.drafts[site];
        if let Some(file) = &draft.files.site {
            self.out.push(
                file.locate(
                    Diagnostic::error(
                        Code::BaseCycle,
                        format!("the base sites of `{}` form a cycle", draft.files.id),
                    )
                    .with_help("one site of the chain must have its own [code]")
                    .at_pointer("/base"),
                ),
            );
        }
    }
}

/// `base = "site"` names a site of the same org; `base = "org/site"` any site.
fn base_id(site: &SiteId, base: &str) -> SiteId {
    let (org, name) = base.split_once('/').unwrap_or((&site.org, base));
    SiteId {
        org: org.to_string(),
        site: name.to_string(),
    }
}

fn unknown_base(file: &Parsed<SiteFile>, base: &str) -> Diagnostic {
    file.locate(
        Diagnostic::error(
            Code::UnknownBase,
            format!("base site `{base}` does not exist"),
        )
        .with_help(
            "name a site of the same org (`site`) or another org (`org/site`) that has a site.toml",
        )
        .at_pointer("/base"),
    )
}

/// For every external (`byogit`) repository, exactly one site, the first, carries
/// `secretId`, and that secret is declared next to it. Declared secrets nothing names are
/// flagged too.
pub(super) fn shared_repositories(
    drafts: &[SiteDraft<'_>],
    origins: &[CodeOrigin],
    out: &mut Vec<Diagnostic>,
) {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, origin) in origins.iter().enumerate() {
        if let CodeOrigin::Own(code) = origin
            && code.source.is_byogit()
        {
            // The interface identifies an external repository by its owner and repo; a
            // source that lacks them (already an error) is grouped by its URL.
            let key = match (&code.source.owner, &code.source.repo) {
                (Some(owner), Some(repo)) => format!("{owner}/{repo}"),
                _ => code.source.url.clone(),
            };
            groups.entry(key).or_default().push(index);
        }
    }
    let mut referenced: Vec<Option<&str>> = vec![None; drafts.len()];
    for (repository, members) in &groups {
        let carriers: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&i| {
                origins[i]
                    .code()
                    .is_some_and(|c| c.source.secret_id.is_some())
            })
            .collect();
        let Some((&first, later)) = carriers.split_first() else {
            let site = &drafts[members[0]];
            if let Some(file) = &site.files.site {
                out.push(file.locate(
                    Diagnostic::error(
                        Code::MissingSecretId,
                        format!("no site of external repository `{repository}` carries `secretId`"),
                    )
                    .with_help("the first site of a repository names the secret that holds its sync secret: add `secretId` here and declare it in secrets.toml")
                    .at_pointer("/code/source"),
                ));
            }
            continue;
        };
        for &index in later {
            if let Some(file) = &drafts[index].files.site {
                out.push(file.locate(
                    Diagnostic::error(
                        Code::SharedSecretId,
                        format!(
                            "`{}` shares repository `{repository}` with `{}`, which carries the `secretId`",
                            drafts[index].files.id, drafts[first].files.id
                        ),
                    )
                    .with_help("later sites of a shared repository have no `secretId` and no secret: remove it, or use `base`")
                    .at_pointer("/code/source/secretId"),
                ));
            }
        }
        let secret_id = origins[first]
            .code()
            .and_then(|c| c.source.secret_id.as_deref());
        referenced[first] = secret_id;
        let files = drafts[first].files;
        let declared = files
            .secrets
            .as_ref()
            .is_some_and(|s| secret_id.is_some_and(|id| s.value.contains_key(id)));
        // A secrets.toml that did not load is reported for that; what it declares is unknown.
        let unreadable = files.secrets.is_none() && files.present.contains("secrets.toml");
        if !declared
            && !unreadable
            && let (Some(file), Some(id)) = (&files.site, secret_id)
        {
            out.push(
                file.locate(
                    Diagnostic::error(
                        Code::UnknownSecret,
                        format!("secret `{id}` is not declared"),
                    )
                    .with_help(format!(
                        "declare it in {}/secrets.toml:\n[{id}]\nenv = \"NAME_OF_THE_VARIABLE\"",
                        drafts[first].files.dir
                    ))
                    .at_pointer("/code/source/secretId"),
                ),
            );
        }
    }
    for (draft, used) in drafts.iter().zip(referenced) {
        let Some(secrets) = &draft.files.secrets else {
            continue;
        };
        // A secret the service makes is handed to whoever applies: its use may lie
        // outside the repository.
        let unused = (secrets.value.iter())
            .filter(|(id, source)| Some(id.as_str()) != used && !source.is_made())
            .map(|(id, _)| id);
        for id in unused {
            out.push(secrets.locate(
                Diagnostic::warning(Code::UnusedSecret, format!("secret `{id}` is not used by this site"))
                    .with_help("only the first site of an external repository has a sync secret; remove this one")
                    .at_key(push_token("", id)),
            ));
        }
    }
}

/// A worker entry's template must exist where templates are kept: in the site's
/// directory, or in the directory of the site it shares code with; and compile, as the
/// worker compiles it (each file once, however many entries use it). On a site that
/// requires authentication, the worker reads it only with the entry's `templateApiKey`.
pub(super) fn templates(
    drafts: &[SiteDraft<'_>],
    origins: &[CodeOrigin],
    repo: &crate::repo::RepoFiles,
    sources: &mut BTreeMap<String, Arc<SourceFile>>,
    out: &mut Vec<Diagnostic>,
) {
    let mut compiled: HashSet<String> = HashSet::new();
    let dirs: HashMap<&SiteId, &str> = drafts
        .iter()
        .map(|d| (&d.files.id, d.files.dir.as_str()))
        .collect();
    for (draft, origin) in drafts.iter().zip(origins) {
        let mut places = vec![draft.files.dir.as_str()];
        if let CodeOrigin::Inherited { base, .. } = origin
            && let Some(dir) = dirs.get(base)
        {
            places.push(dir);
        }
        let requires_auth = draft
            .files
            .access
            .as_ref()
            .is_some_and(|access| access.value.requires_auth());
        for (branch, transform) in &draft.files.transform {
            for (index, entry) in transform.value.entry.iter().enumerate() {
                let Some(template) = entry.template.as_deref().filter(|t| t.starts_with('/'))
                else {
                    continue;
                };
                if requires_auth && entry.template_api_key.is_none() {
                    out.push(
                        transform.locate(
                            Diagnostic::warning(
                                Code::TemplateNeedsKey,
                                format!(
                                    "the site requires authentication: the worker cannot read `{template}` without `templateApiKey`"
                                ),
                            )
                            .with_help("without it every page of this entry is the generic page; add `templateApiKey = { env = \"…\" }` holding a token for this site")
                            .at_pointer(format!("/entry/{index}/template")),
                        ),
                    );
                }
                if let Some(path) = places
                    .iter()
                    .map(|dir| format!("{dir}{template}"))
                    .find(|path| repo.contains(path))
                {
                    if let Some(bytes) = repo.content(&path)
                        && compiled.insert(path.clone())
                    {
                        out.extend(super::template_syntax::check(&path, bytes, sources));
                    }
                    continue;
                }
                out.push(
                    transform.locate(
                        Diagnostic::error(
                            Code::MissingTemplate,
                            format!("template `{template}` does not exist"),
                        )
                        .with_help(format!(
                            "looked for {} (branch `{branch}`)",
                            places
                                .iter()
                                .map(|dir| format!("{dir}{template}"))
                                .collect::<Vec<_>>()
                                .join(" and ")
                        ))
                        .at_pointer(format!("/entry/{index}/template")),
                    ),
                );
            }
        }
    }
}

/// An overlay or source that points at the worker (`{transform_url}/<org>/<site>/<branch>`)
/// needs entries for that branch, or for `main`, which branches without their own use.
pub(super) fn worker_targets(
    drafts: &[SiteDraft<'_>],
    transform_url: Option<&str>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(base) = transform_url.map(|u| u.trim_end_matches('/')) else {
        return;
    };
    // A branch's file counts when it exists, loaded or not: one that does not load is
    // reported for what is wrong in it, not as missing.
    let configured: HashMap<(&str, &str), Vec<&str>> = drafts
        .iter()
        .map(|d| {
            let branches = d.files.present.iter().filter_map(|name| {
                name.strip_prefix("transform/")?
                    .strip_suffix(".toml")
                    .filter(|branch| !branch.contains('/'))
            });
            (
                (d.files.id.org.as_str(), d.files.id.site.as_str()),
                branches.collect(),
            )
        })
        .collect();
    for draft in drafts {
        let (Some(content), Some(file)) = (&draft.content, &draft.files.site) else {
            continue;
        };
        let targets = [
            Some((&content.source.url, "/content/source/url")),
            content
                .overlay
                .as_ref()
                .map(|o| (&o.url, "/content/overlay/url")),
        ];
        for (url, pointer) in targets.into_iter().flatten() {
            let Some(rest) = url.strip_prefix(base).and_then(|r| r.strip_prefix('/')) else {
                continue;
            };
            let parts: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
            let message = match parts[..] {
                [org, site, branch] => {
                    let branches = configured.get(&(org, site));
                    let has = |b: &str| branches.is_some_and(|list| list.contains(&b));
                    if has(branch) || has("main") {
                        continue;
                    }
                    format!(
                        "`{url}` points at the transformation worker, which has no entries for {org}/{site} branch `{branch}`"
                    )
                }
                _ => format!(
                    "`{url}` points at the transformation worker but does not end in /<org>/<site>/<branch>"
                ),
            };
            out.push(file.locate(
                Diagnostic::warning(Code::WorkerUnconfigured, message)
                    .with_help("add sites/<org>/<site>/transform/<branch>.toml (or main.toml, which other branches fall back to); without entries every preview fails")
                    .at_pointer(pointer),
            ));
        }
    }
}

/// One worker entry example, resolved: what `validate --explain` prints.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Explanation {
    pub site: String,
    pub branch: String,
    /// 1-based, as people count entries.
    pub entry: usize,
    pub example: String,
    pub id: Option<String>,
    pub endpoint: String,
}

/// Checks that every example goes to its own entry and resolves; returns the resolutions.
pub(super) fn examples(drafts: &[SiteDraft<'_>], out: &mut Vec<Diagnostic>) -> Vec<Explanation> {
    let mut explanations = Vec::new();
    for draft in drafts {
        for (branch, transform) in &draft.files.transform {
            let entries = &draft.entries[branch];
            for (index, file_entry) in transform.value.entry.iter().enumerate() {
                for (example_index, example) in file_entry.examples.iter().enumerate() {
                    let result = match routing::select(entries, example) {
                        Some((chosen, _)) if chosen != index => Err(format!(
                            "entry {} (`{}`) handles it first",
                            chosen + 1,
                            entries[chosen].path
                        )),
                        _ => match routing::resolve(&entries[index], example) {
                            // Reported once, by the entry's own rules, not per example.
                            Err(error) if error.is_the_entrys() => continue,
                            other => other.map_err(|error| error.to_string()),
                        },
                    };
                    match result {
                        Ok(resolution) => explanations.push(Explanation {
                            site: draft.files.id.to_string(),
                            branch: branch.clone(),
                            entry: index + 1,
                            example: example.clone(),
                            id: resolution.id,
                            endpoint: resolution.endpoint,
                        }),
                        Err(reason) => out.push(
                            transform.locate(
                                Diagnostic::error(
                                    Code::ExampleMismatch,
                                    format!(
                                        "example `{example}` is not handled by entry {}: {reason}",
                                        index + 1
                                    ),
                                )
                                .at_pointer(format!("/entry/{index}/examples/{example_index}")),
                            ),
                        ),
                    }
                }
            }
        }
    }
    explanations
}
