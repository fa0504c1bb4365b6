//! The bodies of the `site_files` and `endpoint_template` fuzz targets (`fuzz/`), shared
//! with the replay of their corpora in the tests, so that the stable test suite checks
//! every committed input. Not an interface: hidden from the docs, may change with the
//! fuzz targets.

use crate::compile::{Secrets, compile};
use crate::diagnostic::{self, SourceLookup, render};
use crate::endpoint::{EndpointTemplate, Segment};
use crate::repo::{RepoFiles, is_config_file};
use crate::validate::{Options, validate};

/// A repository in the validation cases' format: each line `== path` starts a file, the
/// lines after it are its content (`siteops.toml`, `sites/<org>/<site>/site.toml`, …);
/// bytes need not be UTF-8. Properties:
/// - nothing panics: validation, the three renderings of the diagnostics, compilation;
/// - diagnostics come sorted, and each location lies inside its file, on a character
///   boundary, with the line and column of its byte offset;
/// - a repository without errors compiles (secrets redacted), and compiling is
///   deterministic.
pub fn site_files(data: &[u8]) {
    let mut repo = RepoFiles::new();
    let mut current: Option<(String, Vec<u8>)> = None;
    for line in data.split_inclusive(|&b| b == b'\n') {
        if let Some(path) = line.strip_prefix(b"== ") {
            if let Some((path, content)) = current.take() {
                insert(&mut repo, path, content);
            }
            let path = String::from_utf8_lossy(path).trim_end().to_owned();
            current = Some((path, Vec::new()));
        } else if let Some((_, content)) = &mut current {
            content.extend_from_slice(line);
        }
    }
    if let Some((path, content)) = current {
        insert(&mut repo, path, content);
    }
    let validation = validate(&repo, &Options::default());
    let mut sorted = validation.diagnostics.clone();
    diagnostic::sort(&mut sorted);
    assert_eq!(sorted, validation.diagnostics, "diagnostics come sorted");
    for d in &validation.diagnostics {
        let Some(location) = &d.location else {
            continue;
        };
        let Some(span) = &location.span else {
            continue;
        };
        let source = validation
            .source(&location.file)
            .unwrap_or_else(|| panic!("{} is not a source: {d:?}", location.file));
        assert!(span.bytes.start <= span.bytes.end, "{d:?}");
        assert!(span.bytes.end <= source.text.len(), "{d:?}");
        assert!(source.text.is_char_boundary(span.bytes.start), "{d:?}");
        assert_eq!(source.position(span.bytes.start), span.start, "{d:?}");
    }
    let _ = render::human(&validation.diagnostics, &validation, false);
    let _ = render::human(&validation.diagnostics, &validation, true);
    let _ = render::json::<()>(&validation.diagnostics, None);
    let _ = render::github(&validation.diagnostics);
    if !validation.has_errors() {
        let compiled = compile(&validation.fleet, &Secrets::Redacted)
            .unwrap_or_else(|problems| panic!("a valid fleet does not compile: {problems:?}"));
        let again = compile(&validation.fleet, &Secrets::Redacted).expect("compiles again");
        assert_eq!(compiled.to_json(), again.to_json());
    }
}

fn insert(repo: &mut RepoFiles, path: String, content: Vec<u8>) {
    if is_config_file(&path) {
        repo.insert(path, content);
    } else {
        repo.insert_path(path);
    }
}

/// `endpoint \0 id \0 headers` (`name: value` lines): the endpoint parsed, then expanded
/// and explained. Properties:
/// - nothing panics;
/// - every error's span lies inside the endpoint, on character boundaries;
/// - the segments, written back as an endpoint, parse to the same segments;
/// - with an id and header values of letters and digits (which need no encoding), the
///   expansion is the segments' text put together.
pub fn endpoint_template(data: &[u8]) {
    let mut parts = data.split(|&b| b == 0).map(String::from_utf8_lossy);
    let endpoint = parts.next().unwrap_or_default();
    let id = parts.next();
    let headers: Vec<(String, String)> = parts
        .next()
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let template = match EndpointTemplate::parse(&endpoint) {
        Ok(template) => template,
        Err(errors) => {
            assert!(!errors.is_empty());
            for error in errors {
                let end = error.offset + error.len;
                assert!(end <= endpoint.len(), "{error:?} in {endpoint:?}");
                assert!(endpoint.is_char_boundary(error.offset), "{error:?}");
                assert!(endpoint.is_char_boundary(end), "{error:?}");
                assert!(error.len >= 2, "{error:?}");
                let _ = error.to_string();
            }
            return;
        }
    };
    let written: String = template.segments().iter().map(write_segment).collect();
    let reparsed = EndpointTemplate::parse(&written)
        .unwrap_or_else(|errors| panic!("{written:?} does not parse again: {errors:?}"));
    assert_eq!(reparsed.segments(), template.segments(), "{written:?}");
    let lookup = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.clone())
    };
    let _ = template.expand(id.as_deref(), lookup);
    let _ = template.explain(id.as_deref());
    let plain = |s: &str| s.bytes().all(|b| b.is_ascii_alphanumeric());
    if let Some(id) = id.as_deref().filter(|id| plain(id) && !id.is_empty())
        && headers.iter().all(|(_, value)| plain(value))
        && let Ok(url) = template.expand(Some(id), lookup)
    {
        let expected: String = template
            .segments()
            .iter()
            .map(|segment| match segment {
                Segment::Literal(text) => text.clone(),
                Segment::Id => id.to_owned(),
                Segment::Header(name) => lookup(name).unwrap_or_default(),
            })
            .collect();
        assert_eq!(url, expected);
    }
}

fn write_segment(segment: &Segment) -> String {
    match segment {
        Segment::Literal(text) => text.clone(),
        Segment::Id => "{{id}}".to_owned(),
        Segment::Header(name) if name.contains('\'') => format!("{{{{headers[\"{name}\"]}}}}"),
        Segment::Header(name) => format!("{{{{headers['{name}']}}}}"),
    }
}
