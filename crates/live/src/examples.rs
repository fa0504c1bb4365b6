//! Worker entry examples rendered as serve's worker renders them, where the repository
//! holds what it takes: the mock that answers the example's endpoint, and the entry's
//! template. What the page would show wrong becomes diagnostics of the validation: a
//! mock body that is not JSON (the page fails with 502), a template that fails to render
//! over the data, and a template name that the data of none of its examples holds (it
//! renders as nothing: `{{nmae}}`).
//!
//! The data goes through the worker's own steps (`siteops_server::worker::render::view`:
//! a listing's record; its limits; no partials), so what is checked is what serve shows.
//! An example that no mock answers (it may be served online), a mock answering with a
//! fault or a status other than 2xx, and a template that is missing or does not compile
//! (reported by the configuration's validation) are left alone.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use siteops_config::diagnostic::{Code, Diagnostic};
use siteops_config::model::Site;
use siteops_config::repo::RepoFiles;
use siteops_config::source::{Position, SourceFile};
use siteops_config::validate::{Explanation, Validation};
use siteops_mocks::{BodyOrigin, MockRequest, MockSet, Scenarios, Stub};
use siteops_server::worker::render::{DATA_LIMIT, OUTPUT_LIMIT, view};
use siteops_template::json::Json;
use siteops_template::{NoPartials, RenderError, Template};

/// Renders every example of `validation` that a stub of `mocks` answers, and adds what
/// is wrong to its diagnostics. `read` gives a `__files/` body's bytes (`None`: unread,
/// the example is skipped); a body in a mapping is the stub's own.
pub fn check(
    validation: &mut Validation,
    repo: &RepoFiles,
    mocks: &MockSet,
    mut read: impl FnMut(&str) -> Option<Vec<u8>>,
) {
    if mocks.is_empty() {
        return;
    }
    let mut run = Run::default();
    for explanation in &validation.explanations {
        let Some(site) =
            (validation.fleet.sites.iter()).find(|s| s.id.to_string() == explanation.site)
        else {
            continue;
        };
        let Some(spec) = site
            .transform
            .get(&explanation.branch)
            .and_then(|entries| entries.get(explanation.entry.wrapping_sub(1)))
        else {
            continue;
        };
        let template = template_path(
            &validation.fleet.sites,
            site,
            spec.entry.template.as_deref(),
            repo,
        );
        run.example(explanation, &spec.entry, template, repo, mocks, &mut read);
    }
    let Run {
        mut diagnostics,
        mut sources,
        names,
        ..
    } = run;
    for ((path, line, column), name) in names {
        if name.found {
            continue;
        }
        let Some(source) = sources
            .get(&path)
            .cloned()
            .or_else(|| text_source(repo, &path))
        else {
            continue;
        };
        let tag = if name.section {
            format!("{{{{#{}}}}}", name.name)
        } else {
            format!("{{{{{}}}}}", name.name)
        };
        let (example, mock) = &name.examples[0];
        let more = match name.examples.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        let at = source.offset(Position { line, column });
        diagnostics.push(
            Diagnostic::warning(
                Code::UnknownTemplateName,
                format!("`{tag}` is in none of the data its examples' mocks answer: it renders as nothing"),
            )
            .with_help(format!(
                "rendered for example `{example}` with {mock}{more}; check the name against the mock's JSON"
            ))
            .at(&source, at..tag_end(&source.text, at)),
        );
        sources.insert(path, source);
    }
    validation.extend(diagnostics, sources.into_values());
}

/// What the examples found, gathered over all of them.
#[derive(Default)]
struct Run {
    diagnostics: Vec<Diagnostic>,
    /// The files the diagnostics quote, by path.
    sources: BTreeMap<String, Arc<SourceFile>>,
    /// Compiled templates by path (`None`: unreadable or not compiling).
    templates: HashMap<String, Option<Template>>,
    /// Each template tag that ran (template, line, column): whether any example's data
    /// held its name.
    names: BTreeMap<(String, usize, usize), Name>,
    /// Stubs already reported for their body (file, name).
    bad_bodies: std::collections::HashSet<(String, String)>,
}

struct Name {
    name: String,
    section: bool,
    found: bool,
    /// The examples it ran for, with the mock that answered each.
    examples: Vec<(String, String)>,
}

impl Run {
    fn example(
        &mut self,
        explanation: &Explanation,
        entry: &siteops_config::model::api::WorkerEntry,
        template: Option<String>,
        repo: &RepoFiles,
        mocks: &MockSet,
        read: &mut impl FnMut(&str) -> Option<Vec<u8>>,
    ) {
        let Ok(url) = url::Url::parse(&explanation.endpoint) else {
            return;
        };
        let headers = (entry.headers.iter().flatten())
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let request = MockRequest {
            method: "GET",
            url: &url,
            headers,
            body: &[],
        };
        let Ok(stub) = mocks.find(&request, &Scenarios::default()) else {
            return;
        };
        if stub.response.fault.is_some() || !(200..300).contains(&stub.response.status) {
            return;
        }
        let body = match &stub.body {
            BodyOrigin::File(path) => match read(path) {
                Some(body) => body,
                None => return,
            },
            _ => stub.response.body.clone(),
        };
        if body.len() > DATA_LIMIT {
            return;
        }
        let mut buffer = Vec::new();
        let document = match Json::parse(&body, &mut buffer) {
            Ok(document) => document,
            Err(error) => {
                self.not_json(explanation, stub, &body, &error, repo);
                return;
            }
        };
        let Some(data) = view(entry, document.root(), &explanation.example) else {
            return;
        };
        let Some(path) = template else {
            return;
        };
        let compiled = self.templates.entry(path.clone()).or_insert_with(|| {
            let text = std::str::from_utf8(repo.content(&path)?).ok()?;
            Template::compile(text).ok()
        });
        let Some(template) = compiled.as_ref() else {
            return;
        };
        let (rendered, lookups) = template.render_recording(data, &NoPartials, OUTPUT_LIMIT);
        if let Err(error) = rendered {
            let (message, line, column) = match error {
                RenderError::TooLarge { limit } => (
                    format!(
                        "the page would be larger than the worker's output limit of {limit} bytes: the worker answers 409"
                    ),
                    1,
                    1,
                ),
                RenderError::Template(error) => (
                    format!("{}: the worker answers 500 `template error`", error.message),
                    error.line,
                    error.column,
                ),
            };
            if let Some(source) = text_source(repo, &path) {
                let at = source.offset(Position { line, column });
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::ExampleRenderFails,
                        format!(
                            "example `{}` does not render over the mock `{}`: {message}",
                            explanation.example, stub.name
                        ),
                    )
                    .with_help(format!("the mock is {}", stub.file))
                    .at(&source, at..at),
                );
                self.sources.insert(path.clone(), source);
            }
            return;
        }
        let mock = match &stub.body {
            BodyOrigin::File(file) => file.clone(),
            _ => stub.file.clone(),
        };
        for lookup in lookups {
            let name = self
                .names
                .entry((path.clone(), lookup.line, lookup.column))
                .or_insert_with(|| Name {
                    name: lookup.name,
                    section: lookup.section,
                    found: false,
                    examples: Vec::new(),
                });
            name.found |= lookup.found;
            name.examples
                .push((explanation.example.clone(), mock.clone()));
        }
    }

    /// The stub's body is not JSON: reported once per stub, where the body is written.
    fn not_json(
        &mut self,
        explanation: &Explanation,
        stub: &Stub,
        body: &[u8],
        error: &siteops_template::json::JsonError,
        repo: &RepoFiles,
    ) {
        if !self
            .bad_bodies
            .insert((stub.file.clone(), stub.name.clone()))
        {
            return;
        }
        let diagnostic = Diagnostic::error(
            Code::MockBodyNotJson,
            format!(
                "the mock `{}` answers example `{}` ({}) with a body that is not JSON ({}): the worker fails the page with 502 `Failed to fetch endpoint data: the response is not JSON`",
                stub.name, explanation.example, explanation.endpoint, error.message
            ),
        )
        .with_help("the worker renders JSON: give the stub a JSON body (`jsonBody`, or a `bodyFileName` holding JSON)");
        let (path, source, span) = match &stub.body {
            BodyOrigin::File(path) => {
                let source = SourceFile::new(path, String::from_utf8_lossy(body).into_owned());
                let at = source.offset(Position {
                    line: error.line,
                    column: error.column,
                });
                (path.clone(), Some(source), at..at)
            }
            BodyOrigin::Mapping { pointer } => {
                let source = text_source(repo, &stub.file);
                let span = source
                    .as_ref()
                    .map_or(0..0, |s| siteops_mocks::pointer_span(&s.text, pointer));
                (stub.file.clone(), source, span)
            }
            BodyOrigin::None => (stub.file.clone(), text_source(repo, &stub.file), 0..0),
        };
        match source {
            Some(source) => {
                self.diagnostics.push(diagnostic.at(&source, span));
                self.sources.insert(path, source);
            }
            None => self.diagnostics.push(diagnostic.in_file(path)),
        }
    }
}

/// Where the worker's template for `site` is in the repository: the site's `templates/`,
/// else those of the site it takes its code from (as validation looks for it).
fn template_path(
    sites: &[Site],
    site: &Site,
    template: Option<&str>,
    repo: &RepoFiles,
) -> Option<String> {
    let template = template.filter(|t| t.starts_with('/'))?;
    let base = (site.base.as_ref()).and_then(|base| sites.iter().find(|s| &s.id == base));
    std::iter::once(site)
        .chain(base)
        .map(|s| format!("{}{template}", s.dir))
        .find(|path| repo.content(path).is_some())
}

/// Where the tag starting at `at` ends (after its closing `}}`).
fn tag_end(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.find("}}"))
        .map_or(at, |i| {
            at + i + 2 + usize::from(text[at + i + 2..].starts_with('}'))
        })
}

/// A text file of the snapshot, to quote.
fn text_source(repo: &RepoFiles, path: &str) -> Option<Arc<SourceFile>> {
    let text = String::from_utf8_lossy(repo.content(path)?).into_owned();
    Some(SourceFile::new(path, text))
}
