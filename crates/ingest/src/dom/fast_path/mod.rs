//! The fast path of parsing: HTML5 tree construction for pages that need none of its
//! repairs, building the owned tree directly.
//!
//! Most pages are well formed: every element is closed by its own end tag, or by the
//! simple implied closings (`p`, `li`, table sections and cells) that only pop the stack.
//! For those, the HTML5 tree builder's many rules reduce to a stack of open elements, and
//! this module follows them, insertion mode by insertion mode, as html5ever does. Wherever
//! the tree builder would do more (the adoption agency, foster parenting, reconstructing
//! formatting elements, templates, MathML, HTML inside SVG, a `head` element after the head,
//! ...), [`parse_page`] gives up ([`Bail`]) and the caller parses the page with html5ever.
//!
//! The invariant that keeps this exact: the list of active formatting elements equals the
//! formatting elements on the stack. A formatting element is only ever popped by its own
//! end tag while it is the current node; anything that would pop one otherwise gives up.
//! So reconstruction never has anything to do, and the adoption agency reduces to a pop.
//!
//! Tests compare this with html5ever on the real-world corpus and on generated markup.

use std::borrow::Cow;

use html5ever::{LocalName, local_name};

use super::tokens::{Attrs, Bail, Token, Tokenizer, is_space};
use super::{HElement, HNode, MAX_DEPTH, Main, Page};
use names::{ends_implied, is_formatting, is_heading, is_special};

mod body;
mod head;
mod names;
mod svg;
mod tables;

/// Parses `html` as [`super::parse_page`] does, or gives up.
pub(crate) fn parse_page(html: &str, whole: bool) -> Result<Page, Bail> {
    let normalized = normalize_newlines(html);
    read_page(&normalized, whole).map(|(page, _)| page)
}

/// The input stream's line endings: CR LF and lone CR become LF.
pub(crate) fn normalize_newlines(html: &str) -> Cow<'_, str> {
    if memchr::memchr(b'\r', html.as_bytes()).is_some() {
        Cow::Owned(html.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(html)
    }
}

/// Parses `html` (line endings normalized): the page, and how many bytes of `html` were
/// read (all of them, unless reading stopped after `main`).
pub(crate) fn read_page(html: &str, whole: bool) -> Result<(Page, usize), Bail> {
    if memchr::memchr(0, html.as_bytes()).is_some() {
        return Err(Bail);
    }
    // A byte order mark at the start is the decoder's, not text. Elsewhere U+FEFF is text
    // (html5ever also drops one where its tokenizer resumes, after a script or a `meta`:
    // there the fast path gives up, see `Builder::head_element`).
    let text = html.strip_prefix('\u{feff}').unwrap_or(html);
    let mut builder = Builder::new(text, whole);
    builder.run()?;
    let read = html.len() - text.len() + builder.tokens.pos();
    Ok((builder.page(), read))
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    InHeadNoscript,
    AfterHead,
    InBody,
    InTable,
    InTableBody,
    InRow,
    InCell,
    AfterBody,
    AfterAfterBody,
}

struct Open {
    element: HElement,
    /// Whether its children are kept: everything for the whole tree, otherwise `head` (but
    /// not the text of its styles and scripts) and the first `main`.
    keep: bool,
}

struct Builder<'a> {
    tokens: Tokenizer<'a>,
    whole: bool,
    mode: Mode,
    /// No `<!DOCTYPE html>`: a `table` does not close an open `p`.
    quirks: bool,
    stack: Vec<Open>,
    /// The form element pointer: where its form was inserted on the stack. No other form
    /// can be inserted while it is set (the fast path gives up), so a form at that place
    /// is the one it points to.
    form: Option<usize>,
    /// A line feed right after `<pre>`, `<listing>` or `<textarea>` is dropped.
    ignore_lf: bool,
    main_seen: bool,
    /// The first `main`, once closed, when not reading the whole tree.
    main: Option<HElement>,
    /// The `html` element, once everything is closed.
    root: Option<HElement>,
}

/// What a step asks for next.
enum Flow<'a> {
    Done,
    /// The token again, in the mode just set.
    Again(Token<'a>),
}

/// The scopes an element is looked for in.
#[derive(Clone, Copy, PartialEq)]
enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

impl Open {
    fn html(&self, name: &LocalName) -> bool {
        !self.element.foreign && self.element.name == *name
    }

    fn name(&self) -> Option<&LocalName> {
        (!self.element.foreign).then_some(&self.element.name)
    }

    /// Whether this element ends a search for an element in `scope`.
    fn bounds(&self, scope: Scope) -> bool {
        if self.element.foreign {
            return scope != Scope::Table
                && matches!(&*self.element.name, "foreignObject" | "desc" | "title");
        }
        let name = &self.element.name;
        match scope {
            Scope::Table => matches!(
                *name,
                local_name!("html") | local_name!("table") | local_name!("template")
            ),
            _ => {
                matches!(
                    *name,
                    local_name!("applet")
                        | local_name!("caption")
                        | local_name!("html")
                        | local_name!("table")
                        | local_name!("td")
                        | local_name!("th")
                        | local_name!("marquee")
                        | local_name!("object")
                        | local_name!("select")
                        | local_name!("template")
                ) || (scope == Scope::ListItem
                    && matches!(*name, local_name!("ol") | local_name!("ul")))
                    || (scope == Scope::Button && *name == local_name!("button"))
            }
        }
    }
}

impl<'a> Builder<'a> {
    fn new(html: &'a str, whole: bool) -> Self {
        Builder {
            tokens: Tokenizer::new(html),
            whole,
            mode: Mode::Initial,
            quirks: true,
            stack: Vec::with_capacity(32),
            form: None,
            ignore_lf: false,
            main_seen: false,
            main: None,
            root: None,
        }
    }

    fn run(&mut self) -> Result<(), Bail> {
        loop {
            let token = self.tokens.next_token()?;
            let eof = matches!(token, Token::Eof);
            let ignore_lf = std::mem::take(&mut self.ignore_lf);
            let mut token = match token {
                Token::Text(text) if ignore_lf && text.starts_with('\n') => {
                    let text = match text {
                        Cow::Borrowed(t) => Cow::Borrowed(&t[1..]),
                        Cow::Owned(t) => Cow::Owned(t[1..].to_owned()),
                    };
                    if text.is_empty() {
                        continue;
                    }
                    Token::Text(text)
                }
                token => token,
            };
            while let Flow::Again(again) = self.step(token)? {
                token = again;
            }
            if eof || self.past_main() {
                break;
            }
        }
        while !self.stack.is_empty() {
            self.pop();
        }
        Ok(())
    }

    /// The first `main` is closed, and with no table open no later `main` can be put in
    /// front of it: the rest of the page is not needed.
    fn past_main(&self) -> bool {
        !self.whole
            && self.main.is_some()
            && !self.stack.iter().any(|o| o.html(&local_name!("table")))
    }

    fn page(self) -> Page {
        let mut root = self.root.unwrap_or_else(|| super::empty_element("html"));
        if self.whole {
            let main = if self.main_seen {
                Main::InRoot
            } else {
                Main::Missing
            };
            return Page {
                root,
                main,
                cut: None,
            };
        }
        root.children.retain(|c| c.is_element("head"));
        let main = match self.main {
            Some(main) => Main::Apart(main),
            None => Main::Missing,
        };
        Page {
            root,
            main,
            cut: None,
        }
    }

    // --- The stack and the tree.

    fn current(&self) -> &Open {
        self.stack.last().expect("an open element")
    }

    fn current_is(&self, name: &LocalName) -> bool {
        self.stack.last().is_some_and(|o| o.html(name))
    }

    /// Opens an HTML element as a child of the current node.
    fn insert(&mut self, name: LocalName, attrs: Attrs) -> Result<(), Bail> {
        self.insert_element(name, attrs, false)
    }

    fn insert_element(&mut self, name: LocalName, attrs: Attrs, foreign: bool) -> Result<(), Bail> {
        if self.stack.len() + 8 >= MAX_DEPTH {
            return Err(Bail);
        }
        let first_main = !foreign && name == local_name!("main") && !self.main_seen;
        let keep = match self.stack.last() {
            _ if self.whole => true,
            None => true,
            // Of `html`'s children only `head` is read.
            Some(parent) if parent.html(&local_name!("html")) => name == local_name!("head"),
            // The text of `head`'s styles and scripts (JSON-LD's excepted) is not read.
            Some(parent) if parent.html(&local_name!("head")) => {
                !(name == local_name!("style")
                    || (name == local_name!("script")
                        && !attrs
                            .iter()
                            .any(|(n, v)| *n == local_name!("type") && v == "application/ld+json")))
            }
            Some(parent) => parent.keep || first_main,
        };
        if !foreign && name == local_name!("main") {
            self.main_seen = true;
        }
        let parent_keeps = self.stack.last().is_none_or(|p| p.keep);
        self.stack.push(Open {
            element: HElement {
                name,
                foreign,
                attrs: if keep || parent_keeps {
                    attrs
                } else {
                    Vec::new()
                },
                children: Vec::new(),
            },
            keep,
        });
        Ok(())
    }

    /// Inserts an element that takes no children.
    fn insert_void(&mut self, name: LocalName, attrs: Attrs) -> Result<(), Bail> {
        self.insert(name, attrs)?;
        self.pop();
        Ok(())
    }

    /// Closes the current node into its parent.
    fn pop(&mut self) {
        let Open { mut element, keep } = self.stack.pop().expect("an open element");
        // Its children are all there now: grown one by one, one child took room for four
        // (most of the tree of a page of small inline trees).
        element.children.shrink_to_fit();
        match self.stack.last_mut() {
            None => self.root = Some(element),
            // The first `main`, when the rest of the page is not kept.
            Some(parent) if keep && !parent.keep => self.main = Some(element),
            Some(parent) if parent.keep => {
                parent.element.children.push(HNode::Element(element));
            }
            Some(_) => {}
        }
    }

    fn insert_text(&mut self, text: Cow<'_, str>) {
        let Some(current) = self.stack.last_mut() else {
            return;
        };
        if !current.keep || text.is_empty() {
            return;
        }
        match current.element.children.last_mut() {
            Some(HNode::Text(previous)) => previous.push_str(&text),
            _ => current
                .element
                .children
                .push(HNode::Text(text.into_owned())),
        }
    }

    fn insert_comment(&mut self, text: &str) {
        if let Some(current) = self.stack.last_mut()
            && current.keep
        {
            current
                .element
                .children
                .push(HNode::Comment(text.to_owned()));
        }
    }

    /// Adds to the open element at `index` the attributes it does not have yet (a second
    /// `<html>` or `<body>` tag).
    fn add_missing_attributes(&mut self, index: usize, attrs: &Attrs) {
        let element = &mut self.stack[index].element;
        for (name, value) in attrs {
            if !element.attrs.iter().any(|(n, _)| n == name) {
                element.attrs.push((name.clone(), value.clone()));
            }
        }
    }

    /// Whether an HTML element `name` is in `scope`.
    fn in_scope(&self, name: &LocalName, scope: Scope) -> bool {
        for open in self.stack.iter().rev() {
            if open.html(name) {
                return true;
            }
            if open.bounds(scope) {
                return false;
            }
        }
        false
    }

    /// Pops elements until one that `is_target` has been popped; gives up rather than pop
    /// a formatting element on the way.
    fn pop_until(&mut self, is_target: impl Fn(&Open) -> bool) -> Result<(), Bail> {
        let at = self.stack.iter().rposition(&is_target).ok_or(Bail)?;
        if self.stack[at + 1..]
            .iter()
            .any(|o| o.name().is_some_and(is_formatting))
        {
            return Err(Bail);
        }
        while self.stack.len() > at {
            self.pop();
        }
        Ok(())
    }

    fn pop_until_named(&mut self, name: &LocalName) -> Result<(), Bail> {
        self.pop_until(|o| o.html(name))
    }

    /// Pops the elements whose end tags are implied (`p`, `li`, `dd`, `dt`, `option`,
    /// `optgroup`), except `except`.
    fn generate_implied_end(&mut self, except: Option<&LocalName>) {
        while let Some(name) = self.stack.last().and_then(Open::name) {
            if !ends_implied(name) || Some(name) == except {
                break;
            }
            self.pop();
        }
    }

    /// "Close a p element" when one is in button scope.
    fn close_p_in_button_scope(&mut self) -> Result<(), Bail> {
        if self.in_scope(&local_name!("p"), Scope::Button) {
            self.generate_implied_end(Some(&local_name!("p")));
            self.pop_until_named(&local_name!("p"))?;
        }
        Ok(())
    }

    // --- The insertion modes.

    fn step(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        // A doctype anywhere but at the start is ignored.
        if matches!(token, Token::Doctype) && self.mode != Mode::Initial {
            return Ok(Flow::Done);
        }
        if self.in_foreign(&token)? {
            return self.foreign(token);
        }
        // `<html>` after the first adds the attributes `html` does not have yet.
        if let Token::Start { name, attrs, .. } = &token
            && *name == local_name!("html")
            && !matches!(self.mode, Mode::Initial | Mode::BeforeHtml)
        {
            self.add_missing_attributes(0, attrs);
            return Ok(Flow::Done);
        }
        match self.mode {
            Mode::Initial => self.initial(token),
            Mode::BeforeHtml => self.before_html(token),
            Mode::BeforeHead => self.before_head(token),
            Mode::InHead => self.in_head(token),
            Mode::InHeadNoscript => self.in_head_noscript(token),
            Mode::AfterHead => self.after_head(token),
            Mode::InBody => self.in_body(token),
            Mode::InTable => self.in_table(token),
            Mode::InTableBody => self.in_table_body(token),
            Mode::InRow => self.in_row(token),
            Mode::InCell => self.in_cell(token),
            Mode::AfterBody | Mode::AfterAfterBody => self.after_body(token),
        }
    }

    fn again(&mut self, mode: Mode, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        self.mode = mode;
        Ok(Flow::Again(token))
    }
}

/// Leading white space dropped: what is left, if anything.
fn skip_space(text: Cow<'_, str>) -> Option<Cow<'_, str>> {
    let (_, rest) = split_space(text);
    rest
}

/// Leading white space, and what follows it if anything.
fn split_space(text: Cow<'_, str>) -> (Cow<'_, str>, Option<Cow<'_, str>>) {
    let spaces = text.bytes().take_while(|&b| is_space(b)).count();
    if spaces == text.len() {
        return (text, None);
    }
    match text {
        Cow::Borrowed(t) => (
            Cow::Borrowed(&t[..spaces]),
            Some(Cow::Borrowed(&t[spaces..])),
        ),
        Cow::Owned(t) => (
            Cow::Owned(t[..spaces].to_owned()),
            Some(Cow::Owned(t[spaces..].to_owned())),
        ),
    }
}

#[cfg(test)]
mod tests;
