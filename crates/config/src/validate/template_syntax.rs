//! A worker entry's template compiled as the worker compiles it (`siteops-template`), so
//! validation reports what every render of the entry would fail on, located in the
//! template itself.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use siteops_template::{Template, TemplateError};

use crate::diagnostic::{Code, Diagnostic};
use crate::source::{Position, SourceFile};

/// The template at `path` with its bytes: a diagnostic when it does not compile (its
/// source is then kept in `sources`, for the report to quote).
pub(super) fn check(
    path: &str,
    bytes: &[u8],
    sources: &mut BTreeMap<String, Arc<SourceFile>>,
) -> Option<Diagnostic> {
    let (source, diagnostic) = match std::str::from_utf8(bytes) {
        Err(error) => {
            let source = SourceFile::new(path, String::from_utf8_lossy(bytes));
            let at = error.valid_up_to();
            let diagnostic =
                Diagnostic::error(Code::InvalidUtf8, "the template is not valid UTF-8")
                    .with_help("save the file as UTF-8")
                    .at(&source, at..at);
            (source, diagnostic)
        }
        Ok(text) => {
            let error = Template::compile(text).err()?;
            let source = SourceFile::new(path, text);
            let diagnostic = syntax_error(&source, &error);
            (source, diagnostic)
        }
    };
    sources.insert(path.to_string(), source);
    Some(diagnostic)
}

fn syntax_error(source: &SourceFile, error: &TemplateError) -> Diagnostic {
    let start = source.offset(Position {
        line: error.line,
        column: error.column,
    });
    // mustache.js's words, as the worker says them, with a lowercase start as rustc's.
    let mut message = error.message.clone();
    if let Some(first) = message.get(..1) {
        message = format!("{}{}", first.to_lowercase(), &message[1..]);
    }
    let help = if let Some(name) = quoted_name(&message, "unclosed section ") {
        Some(format!("close the section with {{{{/{name}}}}}"))
    } else if message.starts_with("unclosed tag") {
        Some("close the tag with `}}`".to_string())
    } else {
        quoted_name(&message, "unopened section ").map(|name| {
            format!(
                "open the section with {{{{#{name}}}}} before it, or remove this {{{{/{name}}}}}"
            )
        })
    };
    let diagnostic =
        Diagnostic::error(Code::TemplateSyntax, message).at(source, tag(&source.text, start));
    match help {
        Some(help) => diagnostic.with_help(help),
        None => diagnostic,
    }
}

/// `name` of `<prefix>"name"`.
fn quoted_name<'m>(message: &'m str, prefix: &str) -> Option<&'m str> {
    message
        .strip_prefix(prefix)?
        .strip_prefix('"')?
        .strip_suffix('"')
}

/// The tag that starts at `start`: through its `}}` when that is on the same line, else
/// as far as it goes before a space or markup (`{{name</h1>` is `{{name`).
fn tag(text: &str, start: usize) -> Range<usize> {
    let rest = &text[start..];
    let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
    if let Some(close) = line.find("}}") {
        return start..start + close + 2;
    }
    // At least the two characters of the opening delimiter.
    let least = line.char_indices().nth(2).map_or(line.len(), |(at, _)| at);
    let end = line
        .char_indices()
        .skip(2)
        .find(|(_, c)| c.is_whitespace() || *c == '<')
        .map_or(line.len(), |(at, _)| at);
    start..start + end.max(least)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_text(text: &str) -> Option<(String, String, Option<String>)> {
        let mut sources = BTreeMap::new();
        let d = check("t.html", text.as_bytes(), &mut sources)?;
        let span = d.location.as_ref()?.span.as_ref()?.bytes.clone();
        Some((d.message, text[span].to_string(), d.help))
    }

    #[test]
    fn syntax_errors_point_at_the_tag_and_say_how_to_fix_it() {
        assert_eq!(check_text("<p>{{name}}</p>"), None);
        assert_eq!(
            check_text("<h1>{{name</h1>\n"),
            Some((
                "unclosed tag".into(),
                "{{name".into(),
                Some("close the tag with `}}`".into())
            ))
        );
        assert_eq!(
            check_text("<ul>\n{{#features}}\n<li>{{.}}</li>\n</ul>\n"),
            Some((
                "unclosed section \"features\"".into(),
                "{{#features}}".into(),
                Some("close the section with {{/features}}".into())
            ))
        );
        let unopened = check_text("a {{/x}}").expect("error");
        assert_eq!(unopened.1, "{{/x}}");
    }

    #[test]
    fn a_template_that_is_not_utf8_says_so() {
        let mut sources = BTreeMap::new();
        let d = check("t.html", b"ok \xff", &mut sources).expect("error");
        assert_eq!(d.code, Code::InvalidUtf8);
        assert!(sources.contains_key("t.html"));
    }
}
