//! The page body as the preview host renders it from the stored markdown. The model is
//! rendered with the meaning its markdown has when parsed again: sections split at every
//! thematic break, lists loose exactly when the markdown has blank lines in them, a table
//! cell holding one paragraph rendered inline, grid tables directly in a section turned into
//! block `div`s (named by their first cell), `./media_` images as responsive `picture`s,
//! `:icon:` texts as icon spans, heading ids from their text.

use std::collections::HashMap;

use super::html::{el, text};
use super::media::{media_picture, normalize_uri, push_text_with_icons};
use super::tables::table_has_columns;
use crate::ingest::dom::{HElement, HNode};
use crate::ingest::model::{Kind, Node};

/// Renders the markdown-level sections of `root` (the serialised root children) as `div`s.
pub(crate) fn render_sections(root: &[Node]) -> Vec<HNode> {
    let mut ctx = Ctx::default();
    split_sections(root)
        .into_iter()
        .map(|section| {
            let sole_image = sole_image(section);
            let mut children = Vec::new();
            for node in section {
                match (&node.kind, sole_image) {
                    (Kind::Paragraph, true) => children.extend(ctx.phrasing(&node.children)),
                    (Kind::Block(_), _) => children.push(ctx.block_divs(node)),
                    (Kind::Table, _) => children.extend(ctx.table_divs(node)),
                    _ => children.extend(ctx.flow(std::slice::from_ref(node))),
                }
            }
            el("div", Vec::new(), children)
        })
        .collect()
}

/// `split-sections`: ranges between thematic breaks, empty ranges dropped.
fn split_sections(root: &[Node]) -> Vec<&[Node]> {
    let dividers: Vec<usize> = root
        .iter()
        .enumerate()
        .filter(|(_, n)| n.kind == Kind::ThematicBreak)
        .map(|(i, _)| i)
        .collect();
    let starts = std::iter::once(0).chain(dividers.iter().copied());
    let ends = dividers.iter().copied().chain(std::iter::once(root.len()));
    let sections: Vec<&[Node]> = starts
        .zip(ends)
        .filter(|(s, e)| s != e)
        .map(|(s, e)| {
            let start = if root[s].kind == Kind::ThematicBreak {
                s + 1
            } else {
                s
            };
            &root[start..e]
        })
        .collect();
    if sections.is_empty() {
        // The pipeline wraps an empty page in one empty div.
        return vec![&root[0..0]];
    }
    sections
}

/// A section whose only content is one image (in a paragraph) shows it without the paragraph.
fn sole_image(section: &[Node]) -> bool {
    let mut images = 0;
    for node in section {
        if node.kind != Kind::Paragraph || node.children.is_empty() {
            return false;
        }
        for child in &node.children {
            match &child.kind {
                Kind::Image { .. } => images += 1,
                Kind::Text { value } if value.is_empty() || value == "\n" => {}
                _ => return false,
            }
        }
    }
    images == 1
}

#[derive(Default)]
pub(super) struct Ctx {
    slugs: HashMap<String, usize>,
    /// Inside a heading, where markdown writes a line break as a space.
    in_heading: bool,
}

impl Ctx {
    pub(super) fn flow(&mut self, nodes: &[Node]) -> Vec<HNode> {
        let mut out = Vec::new();
        for node in nodes {
            match &node.kind {
                Kind::Paragraph => out.push(el("p", Vec::new(), self.phrasing(&node.children))),
                Kind::Heading { depth } => {
                    let id = self.slug(&heading_text(node));
                    let attrs = if id.is_empty() {
                        Vec::new()
                    } else {
                        vec![("id", id)]
                    };
                    self.in_heading = true;
                    let children = self.phrasing(&node.children);
                    self.in_heading = false;
                    out.push(el(&format!("h{depth}"), attrs, children));
                }
                Kind::ThematicBreak => out.push(el("hr", Vec::new(), Vec::new())),
                Kind::Blockquote => {
                    out.push(el("blockquote", Vec::new(), self.flow(&node.children)))
                }
                Kind::List { .. } => out.push(self.list(node)),
                Kind::Code { lang, value } => {
                    let attrs = lang
                        .iter()
                        .map(|l| {
                            (
                                "class",
                                format!("language-{}", l.split_whitespace().next().unwrap_or("")),
                            )
                        })
                        .collect();
                    let body = if value.is_empty() {
                        String::new()
                    } else {
                        format!("{value}\n")
                    };
                    out.push(el(
                        "pre",
                        Vec::new(),
                        vec![el("code", attrs, vec![text(body)])],
                    ));
                }
                Kind::Html { value } => out.extend(raw_html(value)),
                Kind::Block(_) => out.push(self.block_table(node)),
                Kind::Table if table_has_columns(node) => out.push(self.html_table(node)),
                Kind::Table => {}
                _ if node.is_phrasing() => out.push(el(
                    "p",
                    Vec::new(),
                    self.phrasing(std::slice::from_ref(node)),
                )),
                _ => out.extend(self.flow(&node.children)),
            }
        }
        out
    }

    pub(super) fn phrasing(&mut self, nodes: &[Node]) -> Vec<HNode> {
        let mut out = Vec::new();
        for node in nodes {
            let inline =
                |name: &str, ctx: &mut Ctx| el(name, Vec::new(), ctx.phrasing(&node.children));
            match &node.kind {
                Kind::Text { value } => push_text_with_icons(value, &mut out),
                Kind::Emphasis | Kind::Strong => {
                    // A stored image directly inside emphasis replaces the emphasis.
                    if let Some(picture) = node.children.iter().find_map(media_picture) {
                        out.push(picture);
                        continue;
                    }
                    let name = if node.kind == Kind::Emphasis {
                        "em"
                    } else {
                        "strong"
                    };
                    out.push(inline(name, self));
                }
                Kind::Delete => out.push(inline("del", self)),
                Kind::Subscript => out.push(inline("sub", self)),
                Kind::Superscript => out.push(inline("sup", self)),
                Kind::Underline => out.push(inline("u", self)),
                Kind::InlineCode { value } => {
                    // A code span's line endings read back as spaces.
                    let value = value.replace("\r\n", " ").replace(['\r', '\n'], " ");
                    out.push(el("code", Vec::new(), vec![text(value)]))
                }
                // In a heading the markdown has a space (none after white space).
                Kind::Break if self.in_heading => {
                    let after_space =
                        matches!(out.last(), Some(HNode::Text(t)) if t.ends_with([' ', '\t']));
                    if !after_space {
                        out.push(text(" "));
                    }
                }
                Kind::Break => out.push(el("br", Vec::new(), Vec::new())),
                Kind::Link { url, title } => {
                    let mut attrs = vec![("href", normalize_uri(url))];
                    if let Some(t) = title {
                        attrs.push(("title", t.clone()));
                    }
                    out.push(el("a", attrs, self.phrasing(&node.children)));
                }
                Kind::Image { url, title, alt } => {
                    out.push(media_picture(node).unwrap_or_else(|| {
                        let mut attrs = vec![("src", normalize_uri(url)), ("alt", alt.clone())];
                        if let Some(t) = title {
                            attrs.push(("title", t.clone()));
                        }
                        attrs.push(("loading", "lazy".into()));
                        el("img", attrs, Vec::new())
                    }))
                }
                Kind::Html { value } => out.extend(raw_html(value)),
                _ => out.extend(self.flow(std::slice::from_ref(node))),
            }
        }
        out
    }

    fn list(&mut self, node: &Node) -> HNode {
        let Kind::List { ordered, start, .. } = node.kind else {
            unreachable!("a list")
        };
        let loose = list_loose(node);
        let items = node
            .children
            .iter()
            .map(|item| {
                let mut children = Vec::new();
                let checked = match item.kind {
                    Kind::ListItem { checked, .. } => checked,
                    _ => None,
                };
                let mut attrs = Vec::new();
                for (i, child) in item.children.iter().enumerate() {
                    if child.kind == Kind::Paragraph {
                        let mut inner = self.phrasing(&child.children);
                        if i == 0
                            && let Some(checked) = checked
                        {
                            let mut input = vec![("type", "checkbox".to_owned())];
                            if checked {
                                input.push(("checked", String::new()));
                            }
                            input.push(("disabled", String::new()));
                            if !inner.is_empty() {
                                inner.insert(0, text(" "));
                            }
                            inner.insert(0, el("input", input, Vec::new()));
                            attrs = vec![("class", "task-list-item".to_owned())];
                        }
                        if loose {
                            children.push(el("p", Vec::new(), inner));
                        } else {
                            children.extend(inner);
                        }
                    } else {
                        children.extend(self.flow(std::slice::from_ref(child)));
                    }
                }
                el("li", attrs, children)
            })
            .collect();
        let mut attrs = Vec::new();
        if ordered && let Some(s) = start.filter(|s| *s != 1) {
            attrs.push(("start", s.to_string()));
        }
        el(if ordered { "ol" } else { "ul" }, attrs, items)
    }

    /// `github-slugger` with the pipeline's changes (no leading number, counted repeats).
    pub(super) fn slug(&mut self, value: &str) -> String {
        let mut slug = String::new();
        for c in value.trim().to_lowercase().chars() {
            if c == ' ' {
                slug.push('-');
            } else if c.is_alphanumeric() || c == '-' || c == '_' {
                slug.push(c);
            }
        }
        let digits = slug.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && slug.as_bytes().get(digits) == Some(&b'-') {
            let dashes = slug[digits..].bytes().take_while(|b| *b == b'-').count();
            slug = slug[digits + dashes..].to_owned();
        }
        if slug.is_empty() {
            return slug;
        }
        let original = slug.clone();
        let mut id = slug;
        while self.slugs.contains_key(&id) {
            let count = self.slugs.get_mut(&original).expect("counted");
            *count += 1;
            id = format!("{original}-{count}");
        }
        self.slugs.insert(id.clone(), 0);
        id
    }
}

/// The text a heading id is made from (`strip-markdown`: image alt texts, no raw HTML).
fn heading_text(node: &Node) -> String {
    let mut out = String::new();
    node.walk(&mut |n| match &n.kind {
        Kind::Text { value } | Kind::InlineCode { value } => out.push_str(value),
        Kind::Image { alt, title, .. } => out.push_str(if alt.is_empty() {
            title.as_deref().unwrap_or("")
        } else {
            alt
        }),
        _ => {}
    });
    out
}

/// Whether a list is loose once its markdown is parsed again: blank lines between items,
/// or between two children of an item.
fn list_loose(list: &Node) -> bool {
    let Kind::List { spread, .. } = list.kind else {
        return false;
    };
    (spread && list.children.len() > 1)
        || list.children.iter().any(|item| {
            let item_spread = matches!(item.kind, Kind::ListItem { spread: true, .. });
            item.children.windows(2).any(|pair| {
                item_spread || (pair[0].kind == Kind::Paragraph && pair[1].kind == Kind::Paragraph)
            })
        })
}

/// `toBlockCSSClassNames`: `Columns (bleed, dark green)` -> `columns bleed dark-green`.
pub(crate) fn css_class_names(text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut names: Vec<&str> = Vec::new();
    match text.rfind('(') {
        Some(idx) => {
            names.push(&text[..idx]);
            names.extend(text[idx + 1..].split(','));
        }
        None => names.push(text),
    }
    names
        .into_iter()
        .map(|name| {
            let mut out = String::new();
            let mut dash = false;
            for c in name.to_lowercase().chars() {
                if c.is_ascii_lowercase() || c.is_ascii_digit() {
                    out.push(c);
                    dash = false;
                } else if !dash {
                    out.push('-');
                    dash = true;
                }
            }
            out.trim_matches('-').to_owned()
        })
        .filter(|n| !n.is_empty())
        .collect()
}

/// Raw HTML of the markdown: comments, `<br>`; anything else as text.
fn raw_html(value: &str) -> Vec<HNode> {
    if let Some(inner) = value
        .strip_prefix("<!--")
        .and_then(|v| v.strip_suffix("-->"))
    {
        return vec![HNode::Comment(inner.to_owned())];
    }
    if value == "<br>" {
        return vec![el("br", Vec::new(), Vec::new())];
    }
    vec![text(value)]
}

/// The element's text content (`hast-util-to-string`).
pub(crate) fn text_content(node: &HNode) -> String {
    match node {
        HNode::Text(t) => t.clone(),
        HNode::Comment(_) => String::new(),
        HNode::Element(e) => e.children.iter().map(text_content).collect(),
    }
}

/// Finds the first element (document order) for which `pred` holds.
pub(crate) fn find<'a>(
    nodes: &'a [HNode],
    pred: &impl Fn(&HElement) -> bool,
) -> Option<&'a HElement> {
    for node in nodes {
        if let HNode::Element(e) = node {
            if pred(e) {
                return Some(e);
            }
            if let Some(found) = find(&e.children, pred) {
                return Some(found);
            }
        }
    }
    None
}
