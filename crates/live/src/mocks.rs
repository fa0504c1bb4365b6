//! The repository validated as `serve` takes it: its configuration
//! (`siteops_config::validate`, which cannot see the mocks: `siteops-mocks` is in its own
//! layer) and every site's `mocks/`, whose problems become diagnostics of the same report.
//! The live session and `siteops validate` both call [`validate`], so what serve refuses,
//! validate (and the pre-commit hook and the pull-request check) reports, and the other way
//! round.

use std::collections::BTreeSet;
use std::sync::Arc;

use siteops_config::diagnostic::{Code, Diagnostic};
use siteops_config::repo::RepoFiles;
use siteops_config::source::SourceFile;
use siteops_config::validate::{self, Options, Validation};
use siteops_mocks::{MockError, MockErrorKind, MockFile, MockSet};

/// Validates the repository and loads every site's mocks (sites in path order) into one
/// set. `read` gives a file's bytes: the live session reads bodies from disk, `siteops
/// validate` passes what the snapshot holds (a body it did not read is empty: what the
/// parser checks of a body is that it exists). A mock directory with problems adds none of
/// its stubs, and its problems are the validation's diagnostics.
pub fn validate<E>(
    repo: &RepoFiles,
    options: &Options,
    mut read: impl FnMut(&str) -> Result<Vec<u8>, E>,
) -> Result<(Validation, MockSet), E> {
    let mut validation = validate::validate(repo, options);
    let mut all = MockSet::default();
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for path in repo.paths() {
        if let Some((dir, _)) = path.split_once("/mocks/")
            && dir.matches('/').count() == 2
        {
            dirs.insert(format!("{dir}/mocks"));
        }
    }
    let mut diagnostics = Vec::new();
    let mut sources = Vec::new();
    for dir in dirs.iter().rev() {
        let prefix = format!("{dir}/");
        let mut files = Vec::new();
        for path in repo.paths().filter(|p| p.starts_with(&prefix)) {
            files.push(MockFile {
                path: path[prefix.len()..].to_string(),
                content: read(path)?,
            });
        }
        match MockSet::from_files(dir, &files) {
            Ok(set) => all.layer(set),
            Err(errors) => {
                let quoted: BTreeSet<&str> = errors.iter().map(|e| e.file.as_str()).collect();
                for path in quoted {
                    let content = path
                        .strip_prefix(&prefix)
                        .and_then(|name| files.iter().find(|f| f.path == name))
                        .map(|f| String::from_utf8_lossy(&f.content).into_owned())
                        .unwrap_or_default();
                    sources.push(SourceFile::new(path, content));
                }
                diagnostics.extend(errors.iter().map(|error| {
                    let source = sources.iter().find(|s| s.path == error.file);
                    diagnostic(error, source)
                }));
            }
        }
    }
    validation.extend(diagnostics, sources);
    Ok((validation, all))
}

/// A mock's problem as a diagnostic: its code by kind, located in its file.
fn diagnostic(error: &MockError, source: Option<&Arc<SourceFile>>) -> Diagnostic {
    let code = match error.kind {
        MockErrorKind::Syntax => Code::JsonSyntax,
        MockErrorKind::UnknownKey => Code::UnknownKey,
        MockErrorKind::Unsupported => Code::UnsupportedMock,
        MockErrorKind::MissingBodyFile => Code::MissingBodyFile,
        MockErrorKind::Invalid => Code::InvalidMock,
    };
    let mut diagnostic = Diagnostic::error(code, error.message.clone());
    if !error.pointer.is_empty() {
        diagnostic = diagnostic.at_pointer(error.pointer.clone());
    }
    if let Some(help) = &error.help {
        diagnostic = diagnostic.with_help(help.clone());
    }
    match source {
        Some(source) => diagnostic.at(source, error.span.clone()),
        None => diagnostic.in_file(error.file.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 28: the mocks serve refuses are diagnostics of the validation, each located
    /// and coded, quoted from its file.
    #[test]
    fn every_mock_problem_is_a_located_diagnostic() {
        let mut repo = RepoFiles::new();
        repo.insert(
            "sites/acme/web/mocks/mappings/a.json",
            "{\"request\": {\"urll\": \"/a\"}, \"response\": {\"bodyFileName\": \"b.html\"}}",
        );
        repo.insert("sites/acme/web/mocks/mappings/b.json", "{\"request\": {},}");
        repo.insert_path("sites/acme/web/mocks/__files/a.html");
        let (validation, mocks) = validate(&repo, &Options::default(), |path| {
            Ok::<_, std::convert::Infallible>(repo.content(path).unwrap_or_default().to_vec())
        })
        .unwrap_or_else(|never| match never {});
        assert!(mocks.is_empty());
        let found: Vec<(Code, String)> = validation
            .diagnostics
            .iter()
            .filter(|d| d.code != Code::MissingFile)
            .map(|d| {
                let location = d.location.as_ref().expect("located");
                let start = location.span.as_ref().expect("span").start;
                (
                    d.code,
                    format!("{}:{}:{}", location.file, start.line, start.column),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                (
                    Code::UnknownKey,
                    "sites/acme/web/mocks/mappings/a.json:1:14".to_string()
                ),
                (
                    Code::MissingBodyFile,
                    "sites/acme/web/mocks/mappings/a.json:1:58".to_string()
                ),
                (
                    Code::JsonSyntax,
                    "sites/acme/web/mocks/mappings/b.json:1:15".to_string()
                ),
            ]
        );
        let rendered =
            siteops_config::diagnostic::render::human(&validation.diagnostics, &validation, false);
        assert!(rendered.contains("help: did you mean `url`?"), "{rendered}");
        assert!(rendered.contains("did you mean `a.html`?"), "{rendered}");
    }

    /// A mapping that is not UTF-8 is reported, located as well as its lossy text allows,
    /// and rendering it never slices inside a character.
    #[test]
    fn a_mapping_that_is_not_utf8_is_reported_without_panicking() {
        let mut repo = RepoFiles::new();
        repo.insert(
            "sites/acme/web/mocks/mappings/a.json",
            b"{\"request\": {\"url\": \"\xff\xfe\"}, \"x\": 1,}".to_vec(),
        );
        let (validation, _) = validate(&repo, &Options::default(), |path| {
            Ok::<_, std::convert::Infallible>(repo.content(path).unwrap_or_default().to_vec())
        })
        .unwrap_or_else(|never| match never {});
        assert!(
            validation
                .diagnostics
                .iter()
                .any(|d| d.code == Code::JsonSyntax)
        );
        let rendered =
            siteops_config::diagnostic::render::human(&validation.diagnostics, &validation, false);
        assert!(rendered.contains("a.json:1:"), "{rendered}");
    }
}
