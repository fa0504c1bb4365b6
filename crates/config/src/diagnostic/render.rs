//! Renderers for diagnostics: human (with the source line and a caret), a versioned JSON
//! document, and GitHub Actions workflow-command annotations; and the guide's table of
//! every code ([`code_table`]). Renderers only format: they never decide severity or exit
//! codes.

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use serde::Serialize;

use super::{Code, Diagnostic, Severity, SourceLookup, Summary};

/// Version of the JSON document written by `--format json`. Bump on breaking changes.
pub const JSON_FORMAT_VERSION: u32 = 1;

/// Renders diagnostics the way rustc does, quoting the source line when it is available.
pub fn human(diagnostics: &[Diagnostic], sources: &dyn SourceLookup, styled: bool) -> String {
    let renderer = if styled {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for diagnostic in diagnostics {
        out.push_str(&human_one(diagnostic, sources, &renderer));
        out.push_str("\n\n");
    }
    out
}

fn human_one(diagnostic: &Diagnostic, sources: &dyn SourceLookup, renderer: &Renderer) -> String {
    let level = match diagnostic.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let title = level
        .primary_title(diagnostic.message.as_str())
        .id(diagnostic.code.as_str());
    let location = diagnostic.location.as_ref();
    let span = location.and_then(|l| l.span.as_ref());
    // Kept alive until the report is rendered below: the snippet borrows its text.
    let file = location.and_then(|l| sources.source(&l.file));
    let mut group = match (location, span, &file) {
        (Some(location), Some(span), Some(file)) => {
            // Only the lines the carets are on are quoted: handing the renderer the whole
            // file costs its size per diagnostic (quadratic in the number of problems).
            let caret = caret_span(&file.text, span);
            // Other places in the same file are labelled in the same snippet, as rustc's
            // "first defined here"; folding keeps the lines between them short.
            let context: Vec<(std::ops::Range<usize>, &str)> = diagnostic
                .related
                .iter()
                .filter(|r| r.location.file == location.file)
                .filter_map(|r| {
                    let span = r.location.span.as_ref()?;
                    Some((caret_span(&file.text, span), r.label.as_str()))
                })
                .collect();
            let quoted = context.iter().fold(caret.clone(), |all, (span, _)| {
                all.start.min(span.start)..all.end.max(span.end)
            });
            let (lines, first_line) = file.lines_of(&quoted);
            let local =
                |span: &std::ops::Range<usize>| span.start - lines.start..span.end - lines.start;
            let mut snippet = Snippet::source(&file.text[lines.clone()])
                .line_start(first_line)
                .path(file.path.as_str())
                .fold(true)
                .annotation(AnnotationKind::Primary.span(local(&caret)));
            for (span, label) in &context {
                snippet =
                    snippet.annotation(AnnotationKind::Context.span(local(span)).label(*label));
            }
            title.element(snippet)
        }
        (Some(location), _, _) => {
            let mut origin = Origin::path(location.file.as_str());
            if let Some(span) = span {
                origin = origin.line(span.start.line).char_column(span.start.column);
            }
            title.element(origin)
        }
        (None, _, _) => Group::with_title(title),
    };
    // Places in other files: named with their position (their source is not quoted).
    for related in &diagnostic.related {
        if location.is_some_and(|l| l.file == related.location.file) && file.is_some() {
            continue;
        }
        let place = place(&related.location);
        group = group.element(Level::NOTE.message(format!("{}: {place}", related.label)));
    }
    if let Some(help) = &diagnostic.help {
        group = group.element(Level::HELP.message(help.as_str()));
    }
    renderer.render(&[group])
}

/// `file:line:col`, or the file alone.
fn place(location: &super::Location) -> String {
    match &location.span {
        Some(span) => format!(
            "{}:{}:{}",
            location.file, span.start.line, span.start.column
        ),
        None => location.file.clone(),
    }
}

/// An empty span still deserves a caret: widen it to the character it starts at.
fn caret_span(text: &str, span: &super::Span) -> std::ops::Range<usize> {
    let mut bytes = span.bytes.clone();
    if bytes.is_empty() {
        bytes.end = text
            .get(bytes.start..)
            .and_then(|rest| rest.chars().next())
            .map_or(bytes.start, |c| bytes.start + c.len_utf8());
    }
    bytes
}

/// The closing line of a human report.
pub fn human_summary(summary: Summary) -> String {
    fn plural(n: usize, word: &str) -> String {
        format!("{n} {word}{}", if n == 1 { "" } else { "s" })
    }
    match (summary.errors, summary.warnings) {
        (0, 0) => "no problems found".to_string(),
        (errors, warnings) => format!(
            "{}, {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        ),
    }
}

#[derive(Serialize)]
struct JsonReport<'a, T: Serialize> {
    version: u32,
    summary: Summary,
    diagnostics: &'a [Diagnostic],
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    extra: Option<T>,
}

/// A versioned JSON document: `{version, summary, diagnostics}`, and `extra`'s fields
/// after them (`validate --explain`'s `explain` and `effective`).
pub fn json<T: Serialize>(diagnostics: &[Diagnostic], extra: Option<T>) -> String {
    let report = JsonReport {
        version: JSON_FORMAT_VERSION,
        summary: Summary::of(diagnostics),
        diagnostics,
        extra,
    };
    let mut text = serde_json::to_string_pretty(&report).expect("diagnostics serialize");
    text.push('\n');
    text
}

/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`.
pub fn github(diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut properties = Vec::new();
        if let Some(location) = &d.location {
            properties.push(format!("file={}", escape_property(&location.file)));
            if let Some(span) = &location.span {
                properties.push(format!("line={}", span.start.line));
                properties.push(format!("col={}", span.start.column));
                properties.push(format!("endLine={}", span.end.line));
                properties.push(format!("endColumn={}", span.end.column));
            }
        }
        properties.push(format!("title={}", escape_property(d.code.as_str())));
        let mut message = d.message.clone();
        for related in &d.related {
            message.push_str(&format!(
                "\n{}: {}",
                related.label,
                place(&related.location)
            ));
        }
        if let Some(help) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        out.push_str(&format!(
            "::{command} {}::{}\n",
            properties.join(","),
            escape_data(&message)
        ));
    }
    out
}

/// Escaping of workflow-command data, as the GitHub Actions toolkit does it (`%`, CR, LF),
/// and further: every other control character (from a TOML key, say) is written as `%XX`
/// too, so that none reaches the log raw (an escape sequence would restyle the log, a
/// stray line break forge a command). The runner shows those as written, which is right
/// for characters that have no business in a message.
fn escape_data(s: &str) -> String {
    escape(s, false)
}

/// Properties also escape their separators, `:` and `,`.
fn escape_property(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, property: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c if c.is_control() => out.push_str(&format!("%{:02X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// The table of every diagnostic code, its severity and its meaning, in Markdown: the
/// guide's page of diagnostic codes holds it between markers, and `cargo xtask docs`
/// writes it there.
pub fn code_table() -> String {
    let mut out = String::from("| code | severity | meaning |\n|---|---|---|\n");
    for code in Code::ALL {
        let severity = match code.severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        out.push_str(&format!(
            "| `{}` | {severity} | {} |\n",
            code.as_str(),
            code.summary().replace('|', "\\|")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_annotations_escape_newlines_and_property_separators() {
        let d = Diagnostic::error(Code::InvalidUrl, "bad 100%\nurl")
            .with_help("use https")
            .in_file("sites/a,b/site.toml");
        assert_eq!(
            github(&[d]),
            "::error file=sites/a%2Cb/site.toml,title=invalid-url::bad 100%25%0Aurl%0Ahelp: use https\n"
        );
    }

    /// Quoting the lines of the caret gives exactly what quoting the whole file gave, for
    /// every span of a file with several lines, a multi-byte character and no final newline.
    #[test]
    fn quoting_the_caret_lines_renders_as_quoting_the_whole_file() {
        let text = "a = 1\nçb = [\n  2,\n]\n\nlast";
        let file = crate::source::SourceFile::new("f.toml", text);
        let renderer = Renderer::plain();
        let boundaries: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        for &start in &boundaries {
            for &end in boundaries.iter().filter(|&&end| end >= start) {
                let d = Diagnostic::error(Code::InvalidValue, "bad").at(&file, start..end);
                let span = d
                    .location
                    .as_ref()
                    .and_then(|l| l.span.as_ref())
                    .expect("span");
                let whole = renderer.render(&[Level::ERROR
                    .primary_title("bad")
                    .id("invalid-value")
                    .element(
                        Snippet::source(text)
                            .path("f.toml")
                            .fold(true)
                            .annotation(AnnotationKind::Primary.span(caret_span(text, span))),
                    )]);
                struct One(std::sync::Arc<crate::source::SourceFile>);
                impl SourceLookup for One {
                    fn source(&self, _: &str) -> Option<std::sync::Arc<crate::source::SourceFile>> {
                        Some(self.0.clone())
                    }
                }
                assert_eq!(
                    human_one(&d, &One(file.clone()), &renderer),
                    whole,
                    "span {start}..{end}"
                );
            }
        }
    }

    /// Issue 28: a second place (a key's first definition) is labelled in the same snippet
    /// as rustc does, named in the JSON document and in the GitHub annotation.
    #[test]
    fn related_places_are_labelled_in_every_format() {
        let file = crate::source::SourceFile::new("f.toml", "a = 1\nb = 2\na = 3\n");
        let d = Diagnostic::error(Code::DuplicateKey, "key `a` is defined twice")
            .at(&file, 12..13)
            .with_related(
                "first defined here",
                super::super::Location::of(&file, 0..1),
            );
        struct One(std::sync::Arc<crate::source::SourceFile>);
        impl SourceLookup for One {
            fn source(&self, _: &str) -> Option<std::sync::Arc<crate::source::SourceFile>> {
                Some(self.0.clone())
            }
        }
        let text = human(std::slice::from_ref(&d), &One(file.clone()), false);
        assert_eq!(
            text,
            "error[duplicate-key]: key `a` is defined twice\n --> f.toml:3:1\n  |\n1 | a = 1\n  | - first defined here\n2 | b = 2\n3 | a = 3\n  | ^\n\n"
        );
        let document: serde_json::Value =
            serde_json::from_str(&json::<()>(std::slice::from_ref(&d), None)).expect("JSON");
        assert_eq!(
            document["diagnostics"][0]["related"][0]["label"],
            "first defined here"
        );
        assert_eq!(
            document["diagnostics"][0]["related"][0]["location"]["start"]["line"],
            1
        );
        assert_eq!(
            github(&[d]),
            "::error file=f.toml,line=3,col=1,endLine=3,endColumn=2,title=duplicate-key::key `a` is defined twice%0Afirst defined here: f.toml:1:1\n"
        );
    }

    #[test]
    fn github_annotations_escape_every_control_character() {
        let d = Diagnostic::error(
            Code::UnknownKey,
            "unknown key `a\u{1b}[31m\r\tb\u{7f}\u{85}:,`",
        )
        .in_file("sites/a\u{7}:b/site.toml");
        let out = github(&[d]);
        assert_eq!(
            out,
            "::error file=sites/a%07%3Ab/site.toml,title=unknown-key::unknown key `a%1B[31m%0D%09b%7F%85:,`\n"
        );
        assert!(!out.trim_end_matches('\n').chars().any(char::is_control));
    }

    #[test]
    fn summary_line_counts_both_severities() {
        assert_eq!(human_summary(Summary::default()), "no problems found");
        let summary = Summary {
            errors: 1,
            warnings: 2,
        };
        assert_eq!(human_summary(summary), "1 error, 2 warnings");
    }

    #[test]
    fn the_code_table_has_a_row_per_code_with_its_severity_and_summary() {
        let table = code_table();
        assert_eq!(table.lines().count(), Code::ALL.len() + 2);
        assert!(
            table
                .contains("| `unused-secret` | warning | A declared secret that nothing uses. |\n")
        );
        assert!(table.contains("| `template-needs-key` | warning | A worker entry with a template on a site that requires authentication, without the `templateApiKey` the worker needs to read it. |\n"));
    }
}
