//! mdast to hast as the pipeline's `utils/mdast-to-hast.js` does it: the handlers of
//! `mdast-util-to-hast` 13 with the pipeline's own for sections (a bare `div`), headings
//! (ids from the slugger) and grid tables (`@adobe/mdast-util-gridtables`), raw HTML
//! allowed. Raw HTML comes out as [`RAW`] elements for `raw.rs` to parse.

use super::html::{el, text};
use super::mdast::{GridCell, Md};
use super::slug::Slugger;
use crate::dom::{HElement, HNode};

/// The name of the placeholder element that holds a raw HTML string as its one text child.
pub(crate) const RAW: &str = "#raw";

pub(crate) fn to_hast(root: &Md, slugger: &mut Slugger) -> Vec<HNode> {
    let mut state = State { slugger };
    let children = state.all(root.children());
    wrap(children, false)
}

struct State<'a> {
    slugger: &'a mut Slugger,
}

impl State<'_> {
    /// `state.all`: the children's results, with white space trimmed after a break.
    fn all(&mut self, nodes: &[Md]) -> Vec<HNode> {
        // Sized to the nodes (most give one): grown from empty, a list of one took four.
        let mut values = Vec::with_capacity(nodes.len());
        for (index, node) in nodes.iter().enumerate() {
            let mut result = self.one(node);
            if index > 0 && matches!(nodes[index - 1], Md::Break) && result.len() == 1 {
                match &mut result[0] {
                    HNode::Text(value) => *value = trim_space_start(value),
                    HNode::Element(e) if &*e.name != RAW => {
                        if let Some(HNode::Text(value)) = e.children.first_mut() {
                            *value = trim_space_start(value);
                        }
                    }
                    _ => {}
                }
            }
            values.extend(result);
        }
        values
    }

    fn one(&mut self, node: &Md) -> Vec<HNode> {
        let one = |n: HNode| vec![n];
        match node {
            Md::Root(children) => wrap(self.all(children), false),
            Md::Section(children) => one(el("div", Vec::new(), self.all(children))),
            Md::Paragraph(children) => one(el("p", Vec::new(), self.all(children))),
            Md::Heading { depth, children } => {
                let id = self.slugger.slug(heading_text(children).trim());
                let name = format!("h{depth}");
                one(el(&name, vec![("id", id)], self.all(children)))
            }
            Md::ThematicBreak => one(el("hr", Vec::new(), Vec::new())),
            Md::Blockquote(children) => {
                one(el("blockquote", Vec::new(), wrap(self.all(children), true)))
            }
            Md::List {
                ordered,
                start,
                children,
                ..
            } => one(self.list(node, *ordered, *start, children)),
            // Items are rendered by their list.
            Md::ListItem { .. } => one(self.list_item(node, false)),
            Md::Code { lang, value } => {
                let mut attrs = Vec::new();
                if let Some(lang) = lang.as_deref().and_then(|l| l.split_whitespace().next()) {
                    attrs.push(("class", format!("language-{lang}")));
                }
                let value = if value.is_empty() {
                    String::new()
                } else {
                    format!("{value}\n")
                };
                one(el(
                    "pre",
                    Vec::new(),
                    vec![el("code", attrs, vec![text(value)])],
                ))
            }
            Md::Html(value) => one(el(RAW, Vec::new(), vec![text(value.clone())])),
            Md::Definition => Vec::new(),
            Md::Table { align, rows } => one(self.table(align, rows)),
            Md::GridTable(table) => one(self.grid_table(table)),
            Md::Text(value) => one(text(trim_lines(value))),
            Md::Emphasis(children) => one(el("em", Vec::new(), self.all(children))),
            Md::Strong(children) => one(el("strong", Vec::new(), self.all(children))),
            Md::Delete(children) => one(el("del", Vec::new(), self.all(children))),
            Md::InlineCode(value) => one(el(
                "code",
                Vec::new(),
                vec![text(value.replace("\r\n", " ").replace(['\r', '\n'], " "))],
            )),
            Md::Break => vec![el("br", Vec::new(), Vec::new()), text("\n")],
            Md::Link {
                url,
                title,
                children,
            } => {
                let mut attrs = vec![("href", normalize_uri(url))];
                if let Some(title) = title {
                    attrs.push(("title", title.clone()));
                }
                one(el("a", attrs, self.all(children)))
            }
            Md::Image { url, title, alt } => {
                let mut attrs = vec![("src", normalize_uri(url)), ("alt", alt.clone())];
                if let Some(title) = title {
                    attrs.push(("title", title.clone()));
                }
                one(el("img", attrs, Vec::new()))
            }
        }
    }

    fn list(&mut self, node: &Md, ordered: bool, start: Option<u32>, items: &[Md]) -> HNode {
        let loose = list_loose(node);
        let mut attrs = Vec::new();
        if let Some(start) = start.filter(|&s| ordered && s != 1) {
            attrs.push(("start", start.to_string()));
        }
        let results: Vec<HNode> = items
            .iter()
            .map(|item| self.list_item(item, loose))
            .collect();
        let task = items.iter().any(|i| {
            matches!(
                i,
                Md::ListItem {
                    checked: Some(_),
                    ..
                }
            )
        });
        if task {
            attrs.push(("class", "contains-task-list".to_owned()));
        }
        el(
            if ordered { "ol" } else { "ul" },
            attrs,
            wrap(results, true),
        )
    }

    fn list_item(&mut self, node: &Md, loose: bool) -> HNode {
        let Md::ListItem {
            checked, children, ..
        } = node
        else {
            return el("li", Vec::new(), self.one(node));
        };
        let mut results = self.all(children);
        let mut attrs = Vec::new();
        if let Some(checked) = checked {
            let starts_with_p = matches!(results.first(), Some(HNode::Element(e)) if e.is("p"));
            if !starts_with_p {
                results.insert(0, el("p", Vec::new(), Vec::new()));
            }
            let HNode::Element(paragraph) = &mut results[0] else {
                unreachable!("a paragraph was just ensured")
            };
            if !paragraph.children.is_empty() {
                paragraph.children.insert(0, text(" "));
            }
            let mut input = vec![("type", "checkbox".to_owned())];
            if *checked {
                input.push(("checked", String::new()));
            }
            input.push(("disabled", String::new()));
            paragraph.children.insert(0, el("input", input, Vec::new()));
            attrs.push(("class", "task-list-item".to_owned()));
        }
        let is_p = |n: &HNode| matches!(n, HNode::Element(e) if e.is("p"));
        let tail_is_p = results.last().is_some_and(is_p);
        let has_tail = !results.is_empty();
        let mut out = Vec::new();
        for (index, child) in results.into_iter().enumerate() {
            if loose || index != 0 || !is_p(&child) {
                out.push(text("\n"));
            }
            match child {
                HNode::Element(e) if e.is("p") && !loose => out.extend(e.children),
                other => out.push(other),
            }
        }
        if has_tail && (loose || !tail_is_p) {
            out.push(text("\n"));
        }
        el("li", attrs, out)
    }

    fn table(&mut self, align: &[Option<&'static str>], rows: &[Vec<Vec<Md>>]) -> HNode {
        let mut results = Vec::new();
        for (row_index, row) in rows.iter().enumerate() {
            let name = if row_index == 0 { "th" } else { "td" };
            let length = if align.is_empty() {
                row.len()
            } else {
                align.len()
            };
            let cells = (0..length)
                .map(|i| {
                    let mut attrs = Vec::new();
                    if let Some(Some(a)) = align.get(i) {
                        attrs.push(("align", (*a).to_owned()));
                    }
                    let children = row.get(i).map(|c| self.all(c)).unwrap_or_default();
                    el(name, attrs, children)
                })
                .collect();
            results.push(el("tr", Vec::new(), wrap(cells, true)));
        }
        let mut content = Vec::new();
        let mut rows = results.into_iter();
        if let Some(first) = rows.next() {
            content.push(el("thead", Vec::new(), wrap(vec![first], true)));
        }
        let rest: Vec<HNode> = rows.collect();
        if !rest.is_empty() {
            content.push(el("tbody", Vec::new(), wrap(rest, true)));
        }
        el("table", Vec::new(), wrap(content, true))
    }

    fn grid_table(&mut self, table: &super::mdast::GridTable) -> HNode {
        let mut inner = Vec::new();
        for (name, rows, cell) in [
            ("thead", &table.header, "th"),
            ("tbody", &table.body, "td"),
            ("tfoot", &table.footer, "td"),
        ] {
            if rows.is_empty() {
                continue;
            }
            let rows = rows
                .iter()
                .map(|row| {
                    let cells = row.iter().map(|c| self.grid_cell(c, cell)).collect();
                    el("tr", Vec::new(), cells)
                })
                .collect();
            inner.push(el(name, Vec::new(), rows));
        }
        el("table", Vec::new(), inner)
    }

    fn grid_cell(&mut self, cell: &GridCell, name: &str) -> HNode {
        let mut attrs = Vec::new();
        if cell.col_span > 1 {
            attrs.push(("colspan", cell.col_span.to_string()));
        }
        if cell.row_span > 1 {
            attrs.push(("rowspan", cell.row_span.to_string()));
        }
        if let Some(align) = cell.align {
            attrs.push(("align", align.to_owned()));
        }
        if let Some(valign) = cell.valign {
            attrs.push(("valign", valign.to_owned()));
        }
        let children = match cell.children.as_slice() {
            [Md::Paragraph(inline)] => self.all(inline),
            other => self.all(other),
        };
        let mut node = el(name, attrs, children);
        if let HNode::Element(e) = &mut node {
            newlines_to_spaces(e);
        }
        node
    }
}

/// The grid handler's text clean-up: line endings in text become spaces, except in code.
fn newlines_to_spaces(e: &mut HElement) {
    for child in &mut e.children {
        match child {
            HNode::Text(value) if value.contains('\n') => {
                *value = value.replace("\r\n", " ").replace('\n', " ");
            }
            HNode::Element(c) if &*c.name != "code" && &*c.name != RAW => newlines_to_spaces(c),
            _ => {}
        }
    }
}

/// `listLoose`: the list is spread, or one of its items is.
fn list_loose(list: &Md) -> bool {
    let Md::List {
        spread, children, ..
    } = list
    else {
        return false;
    };
    *spread
        || children.iter().any(|item| match item {
            Md::ListItem { spread, .. } => *spread,
            _ => false,
        })
}

/// `state.wrap`: line endings between the nodes (and around them when loose).
pub(crate) fn wrap(nodes: Vec<HNode>, loose: bool) -> Vec<HNode> {
    let mut result = Vec::with_capacity(nodes.len() * 2 + 1);
    if loose {
        result.push(text("\n"));
    }
    let any = !nodes.is_empty();
    for (index, node) in nodes.into_iter().enumerate() {
        if index > 0 {
            result.push(text("\n"));
        }
        result.push(node);
    }
    if loose && any {
        result.push(text("\n"));
    }
    result
}

/// The text `strip-markdown` leaves of a heading, from which its id is made.
fn heading_text(children: &[Md]) -> String {
    fn push(node: &Md, out: &mut String) {
        match node {
            Md::Text(v) | Md::InlineCode(v) => out.push_str(v),
            Md::Image { alt, title, .. } => {
                if !alt.is_empty() {
                    out.push_str(alt);
                } else if let Some(t) = title {
                    out.push_str(t);
                }
            }
            Md::Break => out.push('\n'),
            Md::Html(_) | Md::Code { .. } | Md::Definition | Md::Table { .. } => {}
            other => other.children().iter().for_each(|c| push(c, out)),
        }
    }
    let mut out = String::new();
    children.iter().for_each(|c| push(c, &mut out));
    out
}

/// `trim-lines`: spaces and tabs around line endings removed.
fn trim_lines(value: &str) -> String {
    if !value.contains(['\n', '\r']) {
        return value.to_owned();
    }
    let lines: Vec<&str> = value.split('\n').collect();
    let last = lines.len() - 1;
    let mut out = String::with_capacity(value.len());
    for (i, line) in lines.iter().enumerate() {
        let mut line = *line;
        if i > 0 {
            line = line.trim_start_matches([' ', '\t']);
        }
        if i < last {
            line = line.trim_end_matches([' ', '\t']);
        }
        out.push_str(line);
        if i < last {
            out.push('\n');
        }
    }
    out
}

/// `trimMarkdownSpaceStart`.
fn trim_space_start(value: &str) -> String {
    value.trim_start_matches([' ', '\t']).to_owned()
}

/// micromark's `normalizeUri`: characters outside `[!#$&-;=?-Z_a-z~]` percent-encoded
/// (as UTF-8), a `%` before two alphanumerics kept.
pub(crate) fn normalize_uri(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = String::with_capacity(value.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_alphanumeric)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_alphanumeric)
        {
            out.push_str(&value[i..i + 3]);
            i += 3;
            continue;
        }
        let safe = matches!(b, b'!' | b'#' | b'$' | b'&'..=b';' | b'=' | b'?'..=b'Z' | b'_' | b'a'..=b'z' | b'~');
        if safe {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        i += 1;
    }
    out
}
