//! A parsed configuration file as a JSON value plus the source span of every key and value,
//! indexed by JSON pointer.
//!
//! Why JSON: the same JSON schemas validate repository files and API request bodies, and
//! rules address values by JSON pointer, so one rule serves both. The span index turns a
//! pointer back into `file:line:col` for repository files.

mod emit;
mod strings;
mod toml;
mod yaml;

pub use emit::to_yaml;

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Location};
use crate::source::SourceFile;

/// Where a node sits in its file: the key that names it (absent for array items and the
/// root) and the value itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSpan {
    pub key: Option<Range<usize>>,
    pub value: Range<usize>,
}

/// A parsed file: its value, and where each part of it is in the source.
#[derive(Debug)]
pub struct Document {
    pub value: Value,
    pub spans: Spans,
}

impl Document {
    /// Parses TOML. Errors come back as located diagnostics (all syntax errors the parser
    /// can recover from, not just the first).
    pub fn parse_toml(source: Arc<SourceFile>) -> Result<Document, Vec<Diagnostic>> {
        toml::parse(source)
    }

    /// Parses the first YAML document of the file.
    pub fn parse_yaml(source: Arc<SourceFile>) -> Result<Document, Vec<Diagnostic>> {
        yaml::parse(source)
    }

    pub fn span(&self, pointer: &str) -> Option<&NodeSpan> {
        self.spans.get(pointer)
    }

    pub fn locate(&self, diagnostic: Diagnostic) -> Diagnostic {
        self.spans.locate(diagnostic)
    }
}

/// The source of a document and the span of each of its values by JSON pointer: what is
/// needed to locate problems once the value itself has been turned into typed data.
#[derive(Debug)]
pub struct Spans {
    pub source: Arc<SourceFile>,
    by_pointer: HashMap<String, NodeSpan>,
    /// Pointers whose values are written elsewhere, and where: a YAML alias's value (at
    /// its anchor), a merged key (in its source mapping), a key read under another name.
    /// What is under such a pointer is found under its target.
    redirects: HashMap<String, String>,
}

/// The most redirects followed for one pointer: each leads to text written earlier, so a
/// chain is as long as aliases of aliases nest.
const MAX_REDIRECTS: usize = 256;

impl Spans {
    /// Where a pointer's node is written: its own span, else, through the nearest
    /// redirected pointer above (or at) it, the span of what it stands for.
    pub fn get(&self, pointer: &str) -> Option<&NodeSpan> {
        let mut current = pointer.to_string();
        for _ in 0..MAX_REDIRECTS {
            if let Some(span) = self.by_pointer.get(&current) {
                return Some(span);
            }
            let mut end = current.len();
            let target = loop {
                if let Some(to) = self.redirects.get(&current[..end]) {
                    break format!("{to}{}", &current[end..]);
                }
                end = current[..end].rfind('/')?;
            };
            current = target;
        }
        None
    }

    /// Where a pointer's value is in this file. A pointer to a value that is not there (a
    /// missing key) gives the nearest enclosing table's key; `at_key` prefers the key over
    /// the value (for unknown and duplicate keys).
    pub fn location(&self, pointer: &str, at_key: bool) -> Location {
        let mut current = pointer;
        let bytes = loop {
            if let Some(span) = self.get(current) {
                break match (&span.key, at_key || current != pointer) {
                    (Some(key), true) => key.clone(),
                    _ => span.value.clone(),
                };
            }
            match current.rfind('/') {
                Some(slash) => current = &current[..slash],
                None => break 0..0,
            }
        };
        Location::of(&self.source, bytes)
    }

    /// Gives a diagnostic the location its pointer names in this file: the part of a
    /// string value it is about when it says which ([`Diagnostic::within`]) and that can
    /// be told, else the whole key or value.
    pub fn locate(&self, mut diagnostic: Diagnostic) -> Diagnostic {
        let pointer = diagnostic.pointer.as_deref().unwrap_or_default();
        let part = diagnostic
            .within
            .as_ref()
            .filter(|_| !diagnostic.at_key)
            .and_then(|within| {
                let value = &self.get(pointer)?.value;
                let bytes = strings::narrow(self.source.text.get(value.clone())?, within)?;
                Some(value.start + bytes.start..value.start + bytes.end)
            });
        diagnostic.location = Some(match part {
            Some(bytes) => Location::of(&self.source, bytes),
            None => self.location(pointer, diagnostic.at_key),
        });
        diagnostic
    }

    /// Makes `to` (and everything under it) locate where `from` is: a key read under the
    /// name it was surely meant to have is found where it was written.
    pub fn alias(&mut self, from: &str, to: &str) {
        self.redirects.insert(to.to_owned(), from.to_owned());
    }

    /// Locates every diagnostic of a batch.
    pub fn locate_all(&self, diagnostics: Vec<Diagnostic>) -> impl Iterator<Item = Diagnostic> {
        diagnostics.into_iter().map(|d| self.locate(d))
    }
}

/// Builds a document's span index while the value is being built.
#[derive(Default)]
struct SpanIndex {
    spans: HashMap<String, NodeSpan>,
    redirects: HashMap<String, String>,
}

impl SpanIndex {
    fn into_spans(self, source: Arc<SourceFile>) -> Spans {
        Spans {
            source,
            by_pointer: self.spans,
            redirects: self.redirects,
        }
    }

    fn insert(&mut self, pointer: &str, key: Option<Range<usize>>, value: Range<usize>) {
        self.spans
            .insert(pointer.to_owned(), NodeSpan { key, value });
    }

    /// What is under `from` (not written there) is written under `to`.
    fn redirect(&mut self, from: &str, to: &str) {
        self.redirects.insert(from.to_owned(), to.to_owned());
    }

    /// `pointer` is written where it stands after all (an explicit key over a merged one).
    fn unredirect(&mut self, pointer: &str) {
        self.redirects.remove(pointer);
    }
}

/// Appends one reference token to a JSON pointer, escaped as RFC 6901 requires.
pub fn push_token(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// A human name for the table a pointer's value lives in: `/content/source/url` ->
/// `content.source`, `/entry/2/headers/x` -> `entry[2].headers`, `/version` -> `the top level`.
pub fn table_name(pointer: &str) -> String {
    let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
    let Some((_, parents)) = tokens.split_last() else {
        return "the document".to_string();
    };
    if parents.is_empty() {
        return "the top level".to_string();
    }
    let mut name = String::new();
    for token in parents {
        if token.parse::<usize>().is_ok() {
            name.push_str(&format!("[{token}]"));
        } else {
            if !name.is_empty() {
                name.push('.');
            }
            name.push_str(&token.replace("~1", "/").replace("~0", "~"));
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(push_token("", "a/b~c"), "/a~1b~0c");
    }

    #[test]
    fn table_names_read_like_toml() {
        assert_eq!(table_name("/content/source/url"), "content.source");
        assert_eq!(table_name("/version"), "the top level");
        assert_eq!(table_name("/entry/2/path"), "entry[2]");
        assert_eq!(table_name("/entry/0/headers/x"), "entry[0].headers");
        assert_eq!(table_name("/mountpoints/~1/url"), "mountpoints./");
    }
}
