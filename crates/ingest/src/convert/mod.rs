//! `main` -> sections of content nodes, following the reference converter: icons, sections
//! and blocks on the HTML tree, white space minified, then the element handlers of
//! `hast-util-to-mdast` (with the reference's overrides for blocks, tables, `sub`, `sup`, `u`).

mod flow;
mod forms;
mod lists;
mod tables;

pub(crate) use flow::{Parent, tidy_text, to_flow};
use forms::{input, media, selected_options, textarea};
use lists::{dl, li, list};
use tables::{block, table};

use super::dom::{HElement, HNode};
use super::hast::{collapse, minify_whitespace, to_text};
use super::model::{Kind, Node, Section, Warning, valid_block_class};

/// Converts `main` into sections. Invalid block class names become warnings.
pub(crate) fn convert_main(mut main: HElement) -> (Vec<Section>, Vec<Warning>) {
    // A walk over `main`'s elements costs less than looking for `icon` in the whole page
    // (the letter `i` is everywhere in markup) to skip it.
    process_icons(&mut main.children);
    let mut sections = Vec::new();
    let mut warnings = Vec::new();
    for child in main.children {
        let HNode::Element(div) = child else { continue };
        if !div.is("div") || div.children.is_empty() {
            continue;
        }
        let number = sections.len() + 1;
        let mut content = HElement {
            name: main.name.clone(),
            foreign: false,
            attrs: Vec::new(),
            children: div.children,
        };
        create_blocks(&mut content, number, &mut warnings);
        minify_whitespace(&mut content);
        let mut children = to_flow(all(&content));
        tidy_text(&mut children, Parent::Root);
        sections.push(Section { children });
    }
    (sections, warnings)
}

/// `span.icon.icon-NAME` -> the text `:NAME:`.
fn process_icons(children: &mut [HNode]) {
    for child in children {
        if let HNode::Element(e) = child {
            if e.is("span") {
                let classes = e.classes();
                if classes.contains(&"icon")
                    && let Some(name) = classes.iter().find_map(|c| c.strip_prefix("icon-"))
                {
                    *child = HNode::Text(format!(":{name}:"));
                    continue;
                }
            }
            process_icons(&mut e.children);
        }
    }
}

/// Marks the blocks of a section: `div`s with a class and at least one row of cells become
/// `block` elements whose children are `tr`s of `td`s (as the reference rewrites them).
fn create_blocks(section: &mut HElement, number: usize, warnings: &mut Vec<Warning>) {
    for child in &mut section.children {
        let HNode::Element(block) = child else {
            continue;
        };
        if !block.is("div") {
            continue;
        }
        let classes: Vec<String> = block.classes().into_iter().map(str::to_owned).collect();
        if classes.is_empty() {
            continue;
        }
        let empty = block.children.is_empty()
            || (block.children.len() == 1
                && matches!(&block.children[0], HNode::Text(t) if t.trim().is_empty()));
        let is_cell = |n: &HNode| n.is_element("div");
        let row_count = block
            .children
            .iter()
            .filter(|n| n.is_element("div"))
            .count();
        let max_cols = block
            .children
            .iter()
            .filter_map(HNode::element)
            .filter(|row| row.is("div"))
            .map(|row| row.children.iter().filter(|c| is_cell(c)).count())
            .max()
            .unwrap_or(0)
            .max(usize::from(empty));
        if (row_count == 0 && !empty) || max_cols == 0 {
            continue;
        }
        let mut rows = Vec::new();
        if empty {
            rows.push(HNode::Element(element("tr", Vec::new(), Vec::new())));
        }
        for row in std::mem::take(&mut block.children) {
            let HNode::Element(row) = row else { continue };
            if !row.is("div") {
                continue;
            }
            let cells = row
                .children
                .into_iter()
                .filter_map(|cell| match cell {
                    HNode::Element(mut cell) if cell.is("div") => {
                        cell.name = "td".into();
                        Some(HNode::Element(cell))
                    }
                    _ => None,
                })
                .collect();
            rows.push(HNode::Element(element("tr", Vec::new(), cells)));
        }
        for class in &classes {
            if !valid_block_class(class) {
                warnings.push(Warning::InvalidBlockClass {
                    class: class.clone(),
                    section: number,
                });
            }
        }
        let attrs = vec![("class".into(), classes.join(" "))];
        *block = element("block", attrs, rows);
    }
}

fn element(
    name: &str,
    attrs: Vec<(html5ever::LocalName, String)>,
    children: Vec<HNode>,
) -> HElement {
    HElement {
        name: name.into(),
        foreign: false,
        attrs,
        children,
    }
}

pub(super) fn all(e: &HElement) -> Vec<Node> {
    all_of(&e.children)
}

pub(super) fn all_of(children: &[HNode]) -> Vec<Node> {
    // Sized to the children (most give one node): grown from empty, a list of one took
    // room for four, most of the content tree of a page of small inline trees.
    let mut out = Vec::with_capacity(children.len());
    for child in children {
        one(child, &mut out);
    }
    out.shrink_to_fit();
    out
}

fn is_ignored(name: &str) -> bool {
    matches!(
        name,
        "applet"
            | "area"
            | "basefont"
            | "bgsound"
            | "caption"
            | "col"
            | "colgroup"
            | "command"
            | "content"
            | "datalist"
            | "dialog"
            | "element"
            | "embed"
            | "frame"
            | "frameset"
            | "isindex"
            | "keygen"
            | "link"
            | "math"
            | "menu"
            | "menuitem"
            | "meta"
            | "nextid"
            | "noembed"
            | "noframes"
            | "optgroup"
            | "option"
            | "param"
            | "script"
            | "shadow"
            | "source"
            | "spacer"
            | "style"
            | "svg"
            | "template"
            | "title"
            | "track"
    )
}
fn is_flow(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "article"
            | "aside"
            | "body"
            | "center"
            | "div"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "form"
            | "footer"
            | "header"
            | "hgroup"
            | "html"
            | "legend"
            | "main"
            | "multicol"
            | "nav"
            | "picture"
            | "section"
    )
}

fn one(node: &HNode, out: &mut Vec<Node>) {
    let e = match node {
        HNode::Text(value) => {
            out.push(Node::text(value.clone()));
            return;
        }
        HNode::Comment(value) => {
            out.push(Node::new(Kind::Html {
                value: format!("<!--{value}-->"),
            }));
            return;
        }
        HNode::Element(e) => e,
    };
    if e.foreign {
        // Only reachable inside svg or math, which are ignored; kept for safety.
        return;
    }
    let name = &*e.name;
    if is_ignored(name) {
        return;
    }
    if is_flow(name) {
        out.extend(to_flow(all(e)));
        return;
    }
    let parent = |kind: Kind| Node::with(kind, all(e));
    let node = match name {
        "a" => Node::with(
            Kind::Link {
                url: e.attr("href").unwrap_or("").to_owned(),
                title: non_empty(collapse_trim(e.attr("title"))),
            },
            all(e),
        ),
        "b" | "strong" => parent(Kind::Strong),
        "em" | "i" | "mark" => parent(Kind::Emphasis),
        "u" => parent(Kind::Underline),
        "sub" => parent(Kind::Subscript),
        "sup" => parent(Kind::Superscript),
        "del" | "s" | "strike" => parent(Kind::Delete),
        "blockquote" => Node::with(Kind::Blockquote, to_flow(all(e))),
        "br" => Node::new(Kind::Break),
        "code" | "kbd" | "samp" | "tt" | "var" => Node::new(Kind::InlineCode { value: to_text(e) }),
        "dir" | "ol" | "ul" => list(e),
        "dl" => match dl(e) {
            Some(node) => node,
            None => return,
        },
        "dt" | "dd" | "li" => li(e),
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => Node::with(
            Kind::Heading {
                depth: name.as_bytes()[1] - b'0',
            },
            drop_surrounding_breaks(all(e)),
        ),
        "hr" => Node::new(Kind::ThematicBreak),
        "iframe" => {
            let (Some(src), Some(title)) = (
                e.attr("src").filter(|s| !s.is_empty()),
                non_empty(collapse_trim(e.attr("title"))),
            ) else {
                return;
            };
            Node::with(
                Kind::Link {
                    url: src.to_owned(),
                    title: None,
                },
                vec![Node::text(title)],
            )
        }
        "img" | "image" => Node::new(Kind::Image {
            url: e.attr("src").unwrap_or("").to_owned(),
            title: non_empty(collapse_trim(e.attr("title"))),
            alt: collapse_trim(e.attr("alt")),
        }),
        "listing" | "plaintext" | "pre" | "xmp" => code(e),
        "p" | "summary" => {
            let children = drop_surrounding_breaks(flatten_paragraphs(all(e)));
            if children.is_empty() {
                return;
            }
            Node::with(Kind::Paragraph, children)
        }
        "q" => {
            let mut contents = all(e);
            match contents.first_mut() {
                Some(Node {
                    kind: Kind::Text { value },
                    ..
                }) => value.insert(0, '"'),
                _ => contents.insert(0, Node::text("\"")),
            }
            match contents.last_mut() {
                Some(Node {
                    kind: Kind::Text { value },
                    ..
                }) => value.push('"'),
                _ => contents.push(Node::text("\"")),
            }
            out.extend(contents);
            return;
        }
        "table" => table(e),
        "block" => block(e),
        "textarea" => {
            out.extend(textarea(e));
            return;
        }
        "select" => {
            let values: Vec<String> =
                selected_options(e, e.attr("multiple").is_some(), e.attr("size"))
                    .into_iter()
                    .map(|(value, label)| match label {
                        Some(label) => format!("{label} ({value})"),
                        None => value,
                    })
                    .collect();
            if values.is_empty() {
                return;
            }
            Node::text(values.join(", "))
        }
        "input" => {
            out.extend(input(e));
            return;
        }
        "wbr" => Node::text("\u{200B}"),
        "audio" | "video" => {
            out.extend(media(e));
            return;
        }
        _ => {
            out.extend(all(e));
            return;
        }
    };
    out.push(node);
}

pub(super) fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// `collapse-white-space` with the HTML style, trimmed.
pub(super) fn collapse_trim(value: Option<&str>) -> String {
    let collapsed = collapse(value.unwrap_or(""));
    collapsed
        .trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\x0c' | '\r'))
        .to_owned()
}

/// A paragraph inside a paragraph (from `p > picture`) serialises as its children.
fn flatten_paragraphs(nodes: Vec<Node>) -> Vec<Node> {
    if !nodes.iter().any(|n| matches!(n.kind, Kind::Paragraph)) {
        return nodes;
    }
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        if matches!(node.kind, Kind::Paragraph) {
            out.extend(node.children);
        } else {
            out.push(node);
        }
    }
    out
}

pub(super) fn drop_surrounding_breaks(mut nodes: Vec<Node>) -> Vec<Node> {
    while nodes.last().is_some_and(|n| matches!(n.kind, Kind::Break)) {
        nodes.pop();
    }
    let start = nodes
        .iter()
        .take_while(|n| matches!(n.kind, Kind::Break))
        .count();
    nodes.drain(..start);
    nodes
}

fn code(e: &HElement) -> Node {
    let mut lang = None;
    if e.is("pre") {
        let class = e.children.iter().find_map(|c| {
            c.element()
                .filter(|c| c.is("code") && c.attr("class").is_some())
                .map(|c| c.classes())
        });
        if let Some(classes) = class {
            lang = classes
                .iter()
                .find_map(|c| c.strip_prefix("language-"))
                .map(str::to_owned);
        }
    }
    let text = to_text(e);
    let value = text.trim_end_matches(['\n', '\r']).to_owned();
    Node::new(Kind::Code {
        lang: lang.filter(|l| !l.is_empty()),
        value,
    })
}

/// JavaScript's `parseInt(s, 10)`: leading white space, a sign, digits.
pub(super) fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim_start();
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, s.strip_prefix('+').unwrap_or(s)),
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse::<i64>().ok().map(|n| sign * n)
}
