//! The compiled form of a template: a flat list of nodes in which a section
//! records where its body ends. Flat rather than a tree so that rendering,
//! cloning and dropping never recurse, whatever the nesting depth.

use super::error::Pos;

#[derive(Debug, Clone)]
pub(crate) enum Node {
    /// Literal text, adjacent pieces already merged.
    Text(Box<str>),
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (raw).
    Var { path: Path, escape: bool, pos: Pos },
    /// `{{#name}}` or `{{^name}}`; the body is the nodes up to index `end`,
    /// where rendering continues after the section.
    Section {
        path: Path,
        inverted: bool,
        end: usize,
        pos: Pos,
    },
    /// `{{>name}}`, boxed because it is rarer and larger than the others.
    Partial(Box<PartialRef>),
}

/// A name as mustache.js resolves it, split once at compile time so that
/// lookups while rendering neither split nor allocate.
#[derive(Debug, Clone)]
pub(crate) enum Path {
    /// `.`: the current context value itself.
    Current,
    /// A name without a dot after its first character (`a`, `.a`, ``):
    /// searched through the context stack as one property name.
    Name(Key),
    /// `a.b.c`: every frame is tried for the whole chain.
    Dotted(Box<[Key]>),
}

impl Path {
    pub(crate) fn parse(name: &str) -> Self {
        if name == "." {
            Path::Current
        } else if name.find('.').is_some_and(|i| i > 0) {
            // mustache.js tests `name.indexOf('.') > 0`, so a leading dot
            // makes the whole name a single key.
            Path::Dotted(name.split('.').map(Key::new).collect())
        } else {
            Path::Name(Key::new(name))
        }
    }
}

impl std::fmt::Display for Path {
    /// The name as the template writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Current => f.write_str("."),
            Path::Name(key) => f.write_str(&key.name),
            Path::Dotted(keys) => {
                for (i, key) in keys.iter().enumerate() {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(&key.name)?;
                }
                Ok(())
            }
        }
    }
}

/// One property name, with its array-index reading worked out in advance.
#[derive(Debug, Clone)]
pub(crate) struct Key {
    pub name: Box<str>,
    /// `Some` when JavaScript would treat `name` as an array index: a
    /// canonical decimal (`0`, `12`, not `012`) below 2^32 - 1.
    pub index: Option<usize>,
}

impl Key {
    pub(crate) fn new(name: &str) -> Self {
        Self {
            name: name.into(),
            index: array_index(name),
        }
    }
}

fn array_index(name: &str) -> Option<usize> {
    let canonical = !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_digit())
        && (name == "0" || !name.starts_with('0'));
    let n: u32 = name.parse().ok().filter(|_| canonical)?;
    (n != u32::MAX).then_some(n as usize)
}

#[derive(Debug, Clone)]
pub(crate) struct PartialRef {
    pub name: Box<str>,
    /// Indentation to apply to the partial's text, when the tag is the
    /// first tag on its line and has text before it.
    pub indent: Option<Indent>,
    /// `name` plus indentation: one compiled partial per distinct key.
    pub cache_key: Box<str>,
    pub pos: Pos,
}

impl PartialRef {
    pub(crate) fn new(name: &str, indent: Option<Indent>, pos: Pos) -> Self {
        let mut cache_key = String::from(name);
        if let Some(indent) = &indent {
            // NUL cannot be typed inside a tag name in practice; it keeps
            // "a" + "  " apart from a partial literally named "a  ".
            cache_key.push('\0');
            cache_key.push(if indent.skip_first_line { '1' } else { '0' });
            cache_key.push_str(&indent.text);
        }
        Self {
            name: name.into(),
            indent,
            cache_key: cache_key.into(),
            pos,
        }
    }
}

/// How mustache.js indents a partial (`Writer.indentPartial`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Indent {
    /// Spaces and tabs prefixed to each non-empty line of the partial.
    pub text: Box<str>,
    /// Set when non-blank text precedes the tag on its line: the first line
    /// then continues that text and is not indented.
    pub skip_first_line: bool,
}

impl Indent {
    /// Builds the indentation from the text between the start of the line
    /// and the partial tag, as mustache.js does: spaces and tabs are kept,
    /// other blanks dropped, and every other character (one per UTF-16
    /// unit, as JavaScript counts) becomes a space.
    pub(crate) fn from_line_prefix(prefix: &str) -> Option<Self> {
        if prefix.is_empty() {
            return None;
        }
        let mut text = String::new();
        let mut skip_first_line = false;
        for c in prefix.chars() {
            if c == ' ' || c == '\t' {
                text.push(c);
            } else if !super::scan::is_js_whitespace(c) {
                skip_first_line = true;
                text.extend(std::iter::repeat_n(' ', c.len_utf16()));
            }
        }
        // An empty prefix (only blanks such as `\r`) changes nothing.
        (!text.is_empty()).then(|| Self {
            text: text.into(),
            skip_first_line,
        })
    }

    /// The partial's source with this indentation applied.
    pub(crate) fn apply(&self, source: &str) -> String {
        let mut out = String::with_capacity(source.len() + self.text.len() * 8);
        for (i, line) in source.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            if !line.is_empty() && (i > 0 || !self.skip_first_line) {
                out.push_str(&self.text);
            }
            out.push_str(line);
        }
        out
    }

    /// Whether line `line` (1-based) of the indented text got the prefix;
    /// used to map error columns back to the partial as written.
    pub(crate) fn shifts_line(&self, line: usize) -> bool {
        line > 1 || !self.skip_first_line
    }
}
