//! Repository validation: from a [`RepoFiles`] snapshot to the validated [`Fleet`] and every
//! problem found, in one run. Stages:
//! 1. [`load`]: find sites, parse each file (UTF-8, syntax, schema, typed value);
//! 2. [`site`]: rules within one site (document rules, URL variables, fstab, environment);
//! 3. [`references`]: what a site names in its org's files exists (profile, groups, org
//!    secrets, API keys);
//! 4. [`fleet`]: rules across sites (base code, shared repositories and secrets,
//!    templates and their syntax, worker targets, examples).
//!
//! Each mistake is reported once, where it is: a file that does not load is reported for
//! what is wrong in it, and the rules that would need it stay quiet rather than report it
//! missing; an entry's own fault is not reported again by each of its examples.
//!
//! Pure: no I/O, no environment. Secret values are read only by compilation.

mod checkouts;
mod documents;
mod fleet;
mod load;
mod references;
mod site;
mod template_syntax;

use std::collections::BTreeMap;
use std::sync::Arc;

pub use checkouts::{CheckoutContext, CheckoutState, CodeCheckout};
pub use fleet::Explanation;

use crate::diagnostic::{self, Diagnostic, SourceLookup, Summary};
use crate::document::push_token;
use crate::model::code_repo::CodeRepo;
use crate::model::files::EnvRef;
use crate::model::{Fleet, Sensitive, Site, WorkerEntrySpec, api};
use crate::repo::RepoFiles;
use crate::source::SourceFile;
use fleet::CodeOrigin;
use load::Parsed;

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Overrides `transform_url` of siteops.toml (`serve` points it at itself).
    pub transform_url: Option<String>,
}

#[derive(Debug)]
pub struct Validation {
    /// The sites that validated far enough to be modelled. Only meaningful for compilation
    /// when [`Validation::has_errors`] is false.
    pub fleet: Fleet,
    /// Sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// Worker entry examples, resolved.
    pub explanations: Vec<Explanation>,
    /// Each site that has a profile: the profile's name and the site's effective
    /// configuration over it (`model::effective`), for `--explain`. Credentials appear as
    /// the files name them, by environment variable.
    pub effective: Vec<(crate::model::SiteId, String, serde_json::Value)>,
    /// The worker address `{transform_url}` stood for (the option, else siteops.toml's),
    /// without a trailing `/`. `plan` and `apply` send worker configurations there.
    pub transform_url: Option<String>,
    /// The local code checkouts of siteops.toml (`[code]`), as written: directories
    /// relative to the repository root. Whether they hold code is for the caller to look
    /// at ([`Validation::check_checkouts`]).
    pub checkouts: BTreeMap<CodeRepo, CodeCheckout>,
    sources: BTreeMap<String, Arc<SourceFile>>,
}

impl Validation {
    pub fn summary(&self) -> Summary {
        Summary::of(&self.diagnostics)
    }

    /// Adds the problems another check of the repository found (its mocks: a layer above
    /// this crate checks them, see `siteops_live::mocks`), with the files they
    /// quote; the diagnostics stay sorted by file and position.
    pub fn extend(
        &mut self,
        diagnostics: impl IntoIterator<Item = Diagnostic>,
        sources: impl IntoIterator<Item = Arc<SourceFile>>,
    ) {
        self.diagnostics.extend(diagnostics);
        diagnostic::sort(&mut self.diagnostics);
        for source in sources {
            self.sources.insert(source.path.clone(), source);
        }
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

impl SourceLookup for Validation {
    fn source(&self, path: &str) -> Option<Arc<SourceFile>> {
        self.sources.get(path).cloned()
    }
}

pub fn validate(repo: &RepoFiles, options: &Options) -> Validation {
    let mut loaded = load::load(repo);
    let mut diagnostics = std::mem::take(&mut loaded.diagnostics);
    let transform_url = transform_url(&loaded, options, &mut diagnostics);
    let variables = site::Variables {
        transform_url: transform_url.as_deref(),
    };
    // Each site's own rules, on every core; drafts and diagnostics in the sites' order.
    let checked: Vec<(site::SiteDraft<'_>, Vec<Diagnostic>)> = {
        use rayon::prelude::*;
        loaded
            .sites
            .par_iter()
            .map(|files| {
                let mut found = Vec::new();
                let draft = site::check(files, &variables, &mut found);
                (draft, found)
            })
            .collect()
    };
    let mut drafts = Vec::with_capacity(checked.len());
    for (draft, found) in checked {
        drafts.push(draft);
        diagnostics.extend(found);
    }
    references::check(&loaded, &mut diagnostics);
    let origins = fleet::resolve_code(&drafts, &mut diagnostics);
    fleet::shared_repositories(&drafts, &origins, &mut diagnostics);
    fleet::templates(
        &drafts,
        &origins,
        repo,
        &mut loaded.sources,
        &mut diagnostics,
    );
    fleet::worker_targets(&drafts, transform_url.as_deref(), &mut diagnostics);
    let explanations = fleet::examples(&drafts, &mut diagnostics);
    let checkouts = checkouts::checkouts(&loaded, &origins, &mut diagnostics);
    let sites: Vec<Site> = drafts
        .iter()
        .zip(origins)
        .map(|(draft, origin)| model_site(draft, origin))
        .collect();
    let effective = effective(&loaded, &sites);
    let (orgs, profiles) = documents::model(&loaded);
    diagnostic::sort(&mut diagnostics);
    Validation {
        fleet: Fleet {
            orgs,
            profiles,
            sites,
        },
        diagnostics,
        explanations,
        effective,
        transform_url,
        checkouts,
        sources: loaded.sources,
    }
}

/// The effective configuration of each site that has a profile (`extends.profile`, else
/// `default` when the org has one), as the files write it.
fn effective(
    loaded: &load::Loaded,
    sites: &[Site],
) -> Vec<(crate::model::SiteId, String, serde_json::Value)> {
    sites
        .iter()
        .filter_map(|site| {
            let name = site
                .config
                .extends
                .as_ref()
                .and_then(|e| e.profile.clone())
                .unwrap_or_else(|| "default".to_string());
            let profile = loaded.profiles.get(&(site.id.org.clone(), name.clone()))?;
            let mut own = as_json(&site.config);
            if let (Some(cdn), serde_json::Value::Object(map)) = (&site.cdn, &mut own) {
                let cdn = cdn
                    .clone()
                    .map_credentials(|_, s| Ok::<_, ()>(EnvRef { env: s.env }));
                map.insert("cdn".into(), as_json(&cdn.ok()));
            }
            let merged = crate::model::effective::over(&as_json(&profile.value), &own);
            Some((site.id.clone(), name, merged))
        })
        .collect()
}

/// A configuration value as JSON; cannot fail (its maps have string keys).
fn as_json(value: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).expect("configuration types serialize to JSON")
}

/// The worker address: the option, else siteops.toml's, checked to be an http(s) URL.
fn transform_url(
    loaded: &load::Loaded,
    options: &Options,
    out: &mut Vec<Diagnostic>,
) -> Option<String> {
    if let Some(url) = &options.transform_url {
        return Some(url.trim_end_matches('/').to_string());
    }
    let settings = loaded.settings.as_ref()?;
    let url = settings.value.transform_url.as_ref()?;
    match crate::rules::http_url(url) {
        Ok(_) => Some(url.trim_end_matches('/').to_string()),
        Err(error) => {
            out.push(settings.locate(error.diagnostic("/transform_url")));
            None
        }
    }
}

fn model_site(draft: &site::SiteDraft<'_>, origin: CodeOrigin) -> Site {
    let files = draft.files;
    let site_file = files.site.as_ref().map(|s| &s.value);
    let base = match &origin {
        CodeOrigin::Inherited { base, .. } => Some(base.clone()),
        _ => None,
    };
    let parts = site_file.map(|s| s.parts.clone()).unwrap_or_default();
    let config = api::SiteConfig {
        version: Some(1),
        name: Some(files.id.site.clone()),
        code: origin.code().cloned(),
        content: draft.content.clone(),
        access: files.access.as_ref().map(|a| a.value.clone()),
        title: parts.title,
        description: parts.description,
        extends: parts.extends,
        folders: parts.folders,
        headers: parts.headers,
        groups: parts.groups,
        sidekick: parts.sidekick,
        metadata: parts.metadata,
        robots: parts.robots,
        editor: parts.editor,
        events: parts.events,
        features: parts.features,
        limits: parts.limits,
        ..api::SiteConfig::default()
    };
    // Each credential is read at compile time; here, where the file names its variable.
    let cdn = match (parts.cdn, files.site.as_ref()) {
        (Some(cdn), Some(parsed)) => cdn
            .map_credentials(|name, env| {
                let pointer = cdn_credential_pointer(name);
                Ok::<_, std::convert::Infallible>(sensitive(parsed, &pointer, &env))
            })
            .ok(),
        _ => None,
    };
    let secrets = files
        .secrets
        .iter()
        .flat_map(|secrets| {
            secrets.value.iter().filter_map(|(id, source)| {
                let env = source.env_ref()?;
                let pointer = format!("{}/env", push_token("", id));
                Some((id.clone(), sensitive(secrets, &pointer, &env)))
            })
        })
        .collect();
    let made_secrets = (files.secrets.iter())
        .flat_map(|secrets| secrets.value.iter())
        .filter(|(_, source)| source.is_made())
        .map(|(id, _)| id.clone())
        .collect();
    let api_keys = (site_file.into_iter())
        .flat_map(|file| file.api_keys.iter())
        .map(|(name, key)| (name.clone(), key.roles.clone()))
        .collect();
    let transform = files
        .transform
        .iter()
        .map(|(branch, transform)| {
            let entries = transform
                .value
                .entry
                .iter()
                .zip(&draft.entries[branch])
                .enumerate()
                .map(|(index, (file_entry, entry))| WorkerEntrySpec {
                    entry: entry.clone(),
                    template_api_key: file_entry.template_api_key.as_ref().map(|env| {
                        sensitive(
                            transform,
                            &format!("/entry/{index}/templateApiKey/env"),
                            env,
                        )
                    }),
                    examples: file_entry.examples.clone(),
                })
                .collect();
            (branch.clone(), entries)
        })
        .collect();
    Site {
        id: files.id.clone(),
        dir: files.dir.clone(),
        environment: site_file.and_then(|s| s.environment.clone()),
        base,
        config,
        public: files.public.as_ref().map(|p| p.value.clone()),
        query: files.query.as_ref().map(|q| q.value.clone()),
        sitemap: files.sitemap.as_ref().map(|s| s.value.clone()),
        cdn,
        secrets,
        made_secrets,
        api_keys,
        transform,
    }
}

/// Where a `cdn.prod` credential names its variable in `site.toml`.
fn cdn_credential_pointer(name: &str) -> String {
    format!("/cdn/prod/{name}/env")
}

/// A sensitive value's variable, with where the repository names it.
fn sensitive<T>(parsed: &Parsed<T>, pointer: &str, env: &EnvRef) -> Sensitive {
    Sensitive {
        env: env.env.clone(),
        location: Some(parsed.spans.location(pointer, false)),
    }
}
