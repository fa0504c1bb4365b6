//! Rules for the transformation worker's entries of one branch.

use super::{UrlProblem, http_url};
use crate::diagnostic::{Code, Diagnostic};
use crate::endpoint::{EndpointTemplate, Segment, is_header_name};
use crate::model::api::WorkerEntry;
use siteops_jsregex::{JsRegex, JsRegexError};

/// Checks every entry; pointers are `/<index>/<key>` into the array.
pub fn worker_entries(entries: &[WorkerEntry]) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let prefix = format!("/{index}");
        diagnostics.extend(entry_rules(entry).into_iter().map(|d| d.under(&prefix)));
    }
    diagnostics.extend(unreachable_entries(entries));
    diagnostics
}

fn entry_rules(entry: &WorkerEntry) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    if !entry.path.starts_with('/') {
        diagnostics.push(
            Diagnostic::error(
                Code::InvalidWorkerPath,
                format!("entry path `{}` must start with `/`", entry.path),
            )
            .with_help("the path is a prefix of page paths, for example `/products/`")
            .at_pointer("/path"),
        );
    }
    diagnostics.extend(endpoint_rules(entry));
    if let Some(literal) = &entry.regex
        && let Err(error) = JsRegex::parse(literal)
    {
        diagnostics.push(regex_diagnostic(&error));
    }
    diagnostics.extend(listing_rules(entry));
    if let Some(prefix) = &entry.relative_url_prefix
        && let Err(message) = check_origin(prefix)
    {
        diagnostics.push(
            Diagnostic::error(Code::InvalidUrlPrefix, message)
                .with_help(
                    "a URL origin is a scheme and host, for example `https://media.example.com`",
                )
                .at_pointer("/relativeURLPrefix"),
        );
    }
    if let Some(template) = &entry.template
        && !template.starts_with('/')
        && http_url(template).is_err()
    {
        diagnostics.push(
            Diagnostic::error(
                Code::InvalidValue,
                format!("template `{template}` must be an absolute path or an http(s) URL"),
            )
            .with_help("for example `/templates/product.html`")
            .at_pointer("/template"),
        );
    }
    diagnostics.extend(header_rules(entry));
    diagnostics
}

/// An invalid `regex`: what is wrong, pointed at where it is in the literal when the
/// fault has one place (the `(` never closed).
fn regex_diagnostic(error: &JsRegexError) -> Diagnostic {
    let detail = match error {
        JsRegexError::Invalid { message, .. } => message.clone(),
        other => other.to_string(),
    };
    let diagnostic = Diagnostic::error(Code::InvalidRegex, format!("invalid regex: {detail}"))
        .at_pointer("/regex");
    let diagnostic = match error.span() {
        Some(span) => diagnostic.within(span),
        None => diagnostic,
    };
    match error {
        JsRegexError::Invalid { .. } => diagnostic,
        _ => diagnostic
            .with_help("write a JavaScript regular-expression literal, for example /\\d+$/"),
    }
}

fn endpoint_rules(entry: &WorkerEntry) -> Vec<Diagnostic> {
    let template = match EndpointTemplate::parse(&entry.endpoint) {
        Ok(template) => template,
        Err(errors) => {
            return errors
                .into_iter()
                .map(|error| {
                    let place = error.offset..error.offset + error.len;
                    Diagnostic::error(Code::InvalidPlaceholder, error.to_string())
                        .at_pointer("/endpoint")
                        .within(place)
                })
                .collect();
        }
    };
    let mut diagnostics = Vec::new();
    // Each diagnostic about a placeholder points at it, not at the whole endpoint.
    let at = |diagnostic: Diagnostic, wanted: Option<&Segment>| match template.place_of(wanted) {
        Some(place) => diagnostic.within(place),
        None => diagnostic,
    };
    // Written without a scheme (`api.example.com/{{id}}`), the endpoint is no URL at all:
    // that is the one problem to report, with the scheme to add, not where a placeholder
    // stands. (One that starts with a placeholder, or has `://`, is left to the origin rule.)
    let written_without_scheme =
        !entry.endpoint.contains("://") && !entry.endpoint.trim_start().starts_with("{{");
    if let Err(error) = http_url(&entry.endpoint)
        && error.problem == UrlProblem::NoScheme
        && written_without_scheme
    {
        diagnostics.push(error.diagnostic("/endpoint"));
    } else if template.origin_has_placeholder() {
        diagnostics.push(at(
            Diagnostic::error(
                Code::InvalidPlaceholder,
                "a placeholder stands in the endpoint's scheme, host or port, so a request would choose where the entry's headers go",
            )
            .with_help("write the origin out, for example `https://api.example.com/{{id}}.json`: placeholders belong in the path and the query")
            .at_pointer("/endpoint"),
            None,
        ));
    }
    if template.uses_id() && entry.regex.is_none() {
        diagnostics.push(at(
            Diagnostic::error(
                Code::IdWithoutRegex,
                "the endpoint uses {{id}} but the entry has no `regex` to compute it",
            )
            .with_help("add a `regex` whose whole match is the id, or remove {{id}}")
            .at_pointer("/endpoint"),
            Some(&Segment::Id),
        ));
    }
    let forwarded: Vec<String> = entry
        .forward_headers
        .iter()
        .flatten()
        .map(|name| name.to_ascii_lowercase())
        .collect();
    for name in template.headers() {
        if !forwarded.iter().any(|f| f == name) {
            diagnostics.push(at(
                Diagnostic::error(
                    Code::HeaderNotForwarded,
                    format!("the endpoint uses header `{name}`, which is not in `forwardHeaders`"),
                )
                .with_help(format!("add \"{name}\" to `forwardHeaders`"))
                .at_pointer("/endpoint"),
                Some(&Segment::Header(name.to_string())),
            ));
        }
    }
    // Placeholders stand for path or query text, so a sample expansion must be a URL; the
    // message quotes the endpoint as written, not the sample.
    if let Ok(sample) = template.expand(Some("id"), |_| Some("value".into()))
        && let Err(error) = http_url(&sample)
        && diagnostics.iter().all(|d| d.code != Code::InvalidUrl)
    {
        diagnostics.push(error.written_as(&entry.endpoint).diagnostic("/endpoint"));
    }
    diagnostics
}

fn listing_rules(entry: &WorkerEntry) -> Vec<Diagnostic> {
    let problem = match (&entry.array_key, &entry.path_key, &entry.regex) {
        (None, Some(_), _) => Some(("/pathKey", "`pathKey` needs `arrayKey`")),
        (Some(_), None, _) => Some((
            "/arrayKey",
            "`arrayKey` needs `pathKey` to pick the record of a page",
        )),
        (Some(_), Some(_), Some(_)) => Some((
            "/regex",
            "a listing entry (`arrayKey`/`pathKey`) has no `regex`",
        )),
        _ => None,
    };
    problem
        .map(|(pointer, message)| {
            Diagnostic::error(Code::InvalidListing, message)
                .with_help("a listing entry fetches one fixed JSON document; `arrayKey` names its array of records and `pathKey` the field that holds each page path")
                .at_pointer(pointer)
        })
        .into_iter()
        .collect()
}

fn check_origin(prefix: &str) -> Result<(), String> {
    let url = http_url(prefix).map_err(|error| error.to_string())?;
    let bare = url.path() == "/"
        && !prefix.ends_with('/')
        && url.query().is_none()
        && url.fragment().is_none()
        && url.username().is_empty();
    if bare {
        Ok(())
    } else {
        Err(format!(
            "relativeURLPrefix `{prefix}` is not a URL origin (no path, query or trailing slash)"
        ))
    }
}

fn header_rules(entry: &WorkerEntry) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for (name, value) in entry.headers.iter().flatten() {
        let pointer = crate::document::push_token("/headers", name);
        if !is_header_name(name) {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidHeader,
                    format!("`{name}` is not an HTTP header name"),
                )
                .at_key(pointer.clone()),
            );
        }
        if value.chars().any(|c| c.is_control() && c != '\t') {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidHeader,
                    format!("the value of header `{name}` has control characters"),
                )
                .at_pointer(pointer),
            );
        }
    }
    for (index, name) in entry.forward_headers.iter().flatten().enumerate() {
        if !is_header_name(name) {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidHeader,
                    format!("`{name}` is not an HTTP header name"),
                )
                .at_pointer(format!("/forwardHeaders/{index}")),
            );
        }
    }
    diagnostics
}

/// An entry is dead when an earlier entry's path is a prefix of its path: every page it
/// could handle goes to the earlier one first.
fn unreachable_entries(entries: &[WorkerEntry]) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let shadow = entries[..index]
            .iter()
            .enumerate()
            .find(|(_, earlier)| entry.path.starts_with(&earlier.path));
        if let Some((earlier_index, earlier)) = shadow {
            diagnostics.push(
                Diagnostic::warning(
                    Code::UnreachableEntry,
                    format!(
                        "entry {} (`{}`) is never used: entry {} (`{}`) comes first and handles all its pages",
                        index + 1,
                        entry.path,
                        earlier_index + 1,
                        earlier.path
                    ),
                )
                .with_help("entries are tried in order; put the more specific path first")
                .at_pointer(format!("/{index}/path")),
            );
        }
    }
    diagnostics
}
