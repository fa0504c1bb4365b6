//! Compiles template source into [`Node`]s, following mustache.js's
//! `parseTemplate` step by step so that the same text is taken as a tag,
//! the same lines count as standalone, and the same templates are rejected.
//!
//! It runs in two passes, like mustache.js: the first splits the source into
//! tokens and blanks out the whitespace of standalone lines (which can only
//! be decided once the line is over); the second merges text and links each
//! section to its end.

use super::error::{Locator, Pos, TemplateError};
use super::node::{Indent, Node, PartialRef, Path};
use super::scan::{Scanner, is_js_whitespace};

/// The delimiters every template (and every partial) starts with.
const DEFAULT_OPEN: &str = "{{";
const DEFAULT_CLOSE: &str = "}}";

/// Characters that, right after the opening delimiter, give a tag its kind.
const SIGILS: &str = "#^/>{&=!";

pub(crate) fn parse(source: &str) -> Result<Vec<Node>, TemplateError> {
    let tokens = Tokenizer::new(source).run()?;
    Ok(build(tokens))
}

enum Token<'s> {
    Text(&'s str),
    Var {
        name: &'s str,
        escape: bool,
        pos: Pos,
    },
    Open {
        name: &'s str,
        inverted: bool,
        pos: Pos,
    },
    Close,
    Partial(PartialRef),
}

/// The current delimiters, with the closing string of a triple mustache
/// (`}` + close) kept ready since it changes with them.
struct Delimiters {
    open: String,
    close: String,
    close_triple: String,
}

impl Delimiters {
    fn new(open: &str, close: &str) -> Self {
        Self {
            open: open.to_owned(),
            close: close.to_owned(),
            close_triple: format!("}}{close}"),
        }
    }
}

/// What mustache.js tracks about the line being scanned. A line runs from
/// just after a newline in the text (tags spanning lines do not end it).
struct Line {
    /// Index of the line's first token, for blanking a standalone line.
    first_token: usize,
    /// Byte offset where the line starts, to recover a partial's indentation.
    start: usize,
    /// A tag of any kind is on the line.
    has_tag: bool,
    /// Non-blank text or an interpolation is on the line, so it is not
    /// standalone.
    non_space: bool,
    /// Tags so far on the line; only a partial that is first gets indented.
    tag_count: usize,
}

impl Line {
    fn new(first_token: usize, start: usize) -> Self {
        Self {
            first_token,
            start,
            has_tag: false,
            non_space: false,
            tag_count: 0,
        }
    }
}

struct OpenSection<'s> {
    name: &'s str,
    pos: Pos,
}

struct Tokenizer<'s> {
    scanner: Scanner<'s>,
    locator: Locator<'s>,
    delimiters: Delimiters,
    tokens: Vec<Token<'s>>,
    line: Line,
    open_sections: Vec<OpenSection<'s>>,
}

impl<'s> Tokenizer<'s> {
    fn new(source: &'s str) -> Self {
        Self {
            scanner: Scanner::new(source),
            locator: Locator::new(source),
            delimiters: Delimiters::new(DEFAULT_OPEN, DEFAULT_CLOSE),
            tokens: Vec::new(),
            line: Line::new(0, 0),
            open_sections: Vec::new(),
        }
    }

    fn run(mut self) -> Result<Vec<Token<'s>>, TemplateError> {
        while !self.scanner.is_done() {
            let text_start = self.scanner.pos();
            let text = self.scanner.until(&self.delimiters.open);
            self.text(text, text_start);
            let tag_start = self.scanner.pos();
            if !self.scanner.eat(&self.delimiters.open) {
                break;
            }
            self.tag(tag_start)?;
        }
        self.end_line();
        match self.open_sections.pop() {
            Some(open) => Err(unclosed_section(open.name, open.pos)),
            None => Ok(self.tokens),
        }
    }

    /// Records text between tags, one line at a time so that each newline
    /// can settle whether the line it ends was standalone.
    fn text(&mut self, text: &'s str, mut offset: usize) {
        for piece in text.split_inclusive('\n') {
            offset += piece.len();
            if piece.chars().any(|c| !is_js_whitespace(c)) {
                self.line.non_space = true;
            }
            self.tokens.push(Token::Text(piece));
            if piece.ends_with('\n') {
                self.end_line();
                self.line = Line::new(self.tokens.len(), offset);
            }
        }
    }

    /// mustache.js's `stripSpace`: a line holding tags but nothing that
    /// renders loses all its text, newline included.
    fn end_line(&mut self) {
        if self.line.has_tag && !self.line.non_space {
            let line_tokens = self.tokens.get_mut(self.line.first_token..);
            for token in line_tokens.into_iter().flatten() {
                if let Token::Text(text) = token {
                    *text = "";
                }
            }
        }
        self.line.has_tag = false;
        self.line.non_space = false;
    }

    /// Reads one tag whose opening delimiter (at `start`) was just consumed.
    fn tag(&mut self, start: usize) -> Result<(), TemplateError> {
        let pos = self.locator.locate(start);
        self.scanner.skip_whitespace();
        let sigil = self.scanner.eat_char(|c| SIGILS.contains(c));
        self.scanner.skip_whitespace();
        let value = self.tag_value(sigil);
        if !self.scanner.eat_after_whitespace(&self.delimiters.close) {
            return Err(TemplateError::at("Unclosed tag", pos));
        }
        self.line.has_tag = true;
        // Only a partial that is the line's first tag is indented, by the
        // text in front of it (mustache.js's `tagIndex == 0 && indentation`).
        let indent = if sigil == Some('>') && self.line.tag_count == 0 {
            Indent::from_line_prefix(self.scanner.slice(self.line.start, start))
        } else {
            None
        };
        self.line.tag_count += 1;
        self.record(sigil, value, pos, indent)
    }

    /// The tag's contents, trimmed as mustache.js trims them, leaving the
    /// cursor just before the closing delimiter (and its leading blanks).
    fn tag_value(&mut self, sigil: Option<char>) -> &'s str {
        let scanner = &mut self.scanner;
        let delimiters = &self.delimiters;
        match sigil {
            Some('=') => {
                let value = scanner.until_trimmed("=");
                scanner.eat_after_whitespace("=");
                scanner.until_trimmed(&delimiters.close);
                value
            }
            Some('{') => {
                let value = scanner.until_trimmed(&delimiters.close_triple);
                scanner.eat_after_whitespace("}");
                scanner.until_trimmed(&delimiters.close);
                value
            }
            _ => scanner.until_trimmed(&delimiters.close),
        }
    }

    /// Turns a complete tag into a token, checking section nesting and
    /// applying delimiter changes.
    fn record(
        &mut self,
        sigil: Option<char>,
        value: &'s str,
        pos: Pos,
        indent: Option<Indent>,
    ) -> Result<(), TemplateError> {
        let token = match sigil {
            None | Some('{' | '&') => {
                self.line.non_space = true;
                Token::Var {
                    name: value,
                    escape: sigil.is_none(),
                    pos,
                }
            }
            Some(c @ ('#' | '^')) => {
                self.open_sections.push(OpenSection { name: value, pos });
                Token::Open {
                    name: value,
                    inverted: c == '^',
                    pos,
                }
            }
            Some('/') => {
                self.close_section(value, pos)?;
                Token::Close
            }
            Some('>') => Token::Partial(PartialRef::new(value, indent, pos)),
            Some('=') => {
                self.delimiters = parse_delimiters(value)
                    .ok_or_else(|| TemplateError::at(format!("Invalid tags: {value}"), pos))?;
                return Ok(());
            }
            // Comments (`!`) leave nothing behind.
            Some(_) => return Ok(()),
        };
        self.tokens.push(token);
        Ok(())
    }

    fn close_section(&mut self, name: &str, pos: Pos) -> Result<(), TemplateError> {
        match self.open_sections.pop() {
            None => Err(TemplateError::at(
                format!("Unopened section \"{name}\""),
                pos,
            )),
            // Reported at the closing tag, as mustache.js does: that is
            // where the mismatch shows.
            Some(open) if open.name != name => Err(unclosed_section(open.name, pos)),
            Some(_) => Ok(()),
        }
    }
}

fn unclosed_section(name: &str, pos: Pos) -> TemplateError {
    TemplateError::at(format!("Unclosed section \"{name}\""), pos)
}

/// `{{=<% %>=}}`: mustache.js splits the contents on the first run of
/// whitespace and ignores anything after a second one.
fn parse_delimiters(value: &str) -> Option<Delimiters> {
    let mut parts = value.split(is_js_whitespace).filter(|p| !p.is_empty());
    let open = parts.next()?;
    let close = parts.next()?;
    Some(Delimiters::new(open, close))
}

/// Second pass: merges adjacent text (standalone lines left empty pieces)
/// and points each section at the node after its body.
fn build(tokens: Vec<Token<'_>>) -> Vec<Node> {
    let mut nodes = Vec::with_capacity(tokens.len());
    let mut text = String::new();
    let mut open = Vec::new();
    for token in tokens {
        if let Token::Text(piece) = token {
            text.push_str(piece);
            continue;
        }
        flush_text(&mut text, &mut nodes);
        match token {
            Token::Text(_) => {}
            Token::Var { name, escape, pos } => nodes.push(Node::Var {
                path: Path::parse(name),
                escape,
                pos,
            }),
            Token::Open {
                name,
                inverted,
                pos,
            } => {
                open.push(nodes.len());
                nodes.push(Node::Section {
                    path: Path::parse(name),
                    inverted,
                    end: 0,
                    pos,
                });
            }
            Token::Close => {
                let here = nodes.len();
                if let Some(Node::Section { end, .. }) = open.pop().and_then(|i| nodes.get_mut(i)) {
                    *end = here;
                }
            }
            Token::Partial(partial) => nodes.push(Node::Partial(Box::new(partial))),
        }
    }
    flush_text(&mut text, &mut nodes);
    nodes
}

fn flush_text(text: &mut String, nodes: &mut Vec<Node>) {
    if !text.is_empty() {
        nodes.push(Node::Text(std::mem::take(text).into_boxed_str()));
    }
}
