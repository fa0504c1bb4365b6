//! `extract-section-metadata` (rendering version 2): each `section-metadata` block leaves
//! the tree, and its rows become attributes of the element holding it (the section): a
//! `Style` row adds class names, an `Id` row sets the id, any other row a `data-*`
//! attribute whose value lists the row's images, links and comma-separated texts.
//!
//! Runs after `create-pictures` (so an image's value is its picture's `img`) and before
//! the head is read (so the tree's hero is never one of these images, though the
//! markdown's first image, which `get-metadata` takes, may still be), in the page and in
//! `.plain.html` alike.

use html5ever::LocalName;

use super::head::meta_name;
use super::site::Site;
use super::steps::{css_class_names, to_string};
use crate::dom::{HElement, HNode};

/// Applies every `section-metadata` block under `nodes` to its parent element. Blocks
/// directly in `nodes` (the body's top level, which no block reaches: a block is made
/// from a table inside a section) have no element to go to: they are only removed, where
/// the reference fails the request.
pub(crate) fn extract_section_metadata(nodes: &mut Vec<HNode>, site: &Site<'_>) {
    visit(nodes, None, site);
}

fn is_section_metadata(node: &HNode) -> bool {
    matches!(node, HNode::Element(e)
        if e.is("div") && e.classes().contains(&"section-metadata"))
}

/// `unist-util-visit` with the step's visitor: a block is removed and not entered, and the
/// walk goes on at the next index, so that the sibling that moved into the block's place
/// is not visited (two blocks in a row: the second stays, as in the reference).
fn visit(nodes: &mut Vec<HNode>, mut parent: Option<&mut Attrs>, site: &Site<'_>) {
    let mut i = 0;
    while i < nodes.len() {
        if is_section_metadata(&nodes[i]) {
            let HNode::Element(block) = nodes.remove(i) else {
                unreachable!("matched as an element")
            };
            if let Some(attrs) = parent.as_deref_mut() {
                apply(&block, attrs, site);
            }
        } else if let HNode::Element(e) = &mut nodes[i] {
            visit(&mut e.children, Some(&mut e.attrs), site);
        }
        i += 1;
    }
}

type Attrs = Vec<(LocalName, String)>;

/// The block's rows onto the parent's attributes.
fn apply(block: &HElement, attrs: &mut Attrs, site: &Site<'_>) {
    for row in &block.children {
        let HNode::Element(row) = row else { continue };
        if !row.is("div") {
            continue;
        }
        let [name_cell, value_cell, ..] = row.children.as_slice() else {
            continue;
        };
        let name = meta_name(&to_string(std::slice::from_ref(name_cell)));
        let value = std::slice::from_ref(value_cell);
        match name.as_str() {
            "" => {}
            "style" => {
                let mut classes = get(attrs, "class").unwrap_or("").to_owned();
                for class in style_class_names(value) {
                    if !classes.is_empty() {
                        classes.push(' ');
                    }
                    classes.push_str(&class);
                }
                set(attrs, "class", classes);
            }
            "id" => {
                let id = section_id(&to_string(value));
                if !id.is_empty() {
                    set(attrs, "id", id);
                }
            }
            _ => set(attrs, &format!("data-{name}"), node_value(value, site)),
        }
    }
}

fn get<'a>(attrs: &'a Attrs, name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| &**k == name)
        .map(|(_, v)| v.as_str())
}

fn set(attrs: &mut Attrs, name: &str, value: String) {
    match attrs.iter_mut().find(|(k, _)| &**k == name) {
        Some((_, v)) => *v = value,
        None => attrs.push((LocalName::from(name), value)),
    }
}

/// `getStyleClassNames`: the texts split at commas (a `br` or a new paragraph separates
/// texts too), each part through `toBlockCSSClassNames`.
fn style_class_names(nodes: &[HNode]) -> Vec<String> {
    fn texts<'a>(nodes: &'a [HNode], out: &mut Vec<&'a str>) {
        for node in nodes {
            match node {
                HNode::Text(t) => out.extend(t.split(',')),
                HNode::Element(e) => texts(&e.children, out),
                HNode::Comment(_) => {}
            }
        }
    }
    let mut parts = Vec::new();
    texts(nodes, &mut parts);
    parts.into_iter().flat_map(css_class_names).collect()
}

/// `getValueFromNode`: images' sources and links' targets (made absolute unless already
/// `https://`) and the comma-separated parts of texts, in document order, joined by `,`.
fn node_value(nodes: &[HNode], site: &Site<'_>) -> String {
    fn collect(nodes: &[HNode], site: &Site<'_>, items: &mut Vec<String>) {
        for node in nodes {
            match node {
                HNode::Text(t) => items.extend(
                    t.split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned),
                ),
                HNode::Element(e) => {
                    let url = match &*e.name {
                        "img" if !e.foreign => e.attr("src"),
                        "a" if !e.foreign => e.attr("href"),
                        _ => None,
                    };
                    match url.filter(|u| !u.is_empty()) {
                        Some(u) if u.starts_with("https://") => items.push(u.to_owned()),
                        Some(u) => items.push(site.absolute(u)),
                        None => collect(&e.children, site, items),
                    }
                }
                HNode::Comment(_) => {}
            }
        }
    }
    let mut items = Vec::new();
    collect(nodes, site, &mut items);
    items.join(",")
}

/// `toSectionId`: lower case, runs outside `[0-9a-z._:-]` as one `-`, starting at the
/// first letter, without trailing `-`.
fn section_id(text: &str) -> String {
    let mut id = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | ':' | '-') {
            id.push(c);
            in_run = false;
        } else if !in_run {
            id.push('-');
            in_run = true;
        }
    }
    let start = id
        .find(|c: char| c.is_ascii_lowercase())
        .unwrap_or(id.len());
    id[start..].trim_end_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::html::el;
    use crate::render::{PageDelivery, html::text};
    use url::Url;

    fn row(name: &str, value: Vec<HNode>) -> HNode {
        el(
            "div",
            Vec::new(),
            vec![
                el("div", Vec::new(), vec![text(name)]),
                el("div", Vec::new(), value),
            ],
        )
    }

    fn block(rows: Vec<HNode>) -> HNode {
        el("div", vec![("class", "section-metadata".into())], rows)
    }

    fn attrs(node: &HNode) -> Vec<(String, String)> {
        let HNode::Element(e) = node else {
            panic!("an element")
        };
        e.attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    fn run(nodes: &mut Vec<HNode>) {
        let url = Url::parse("https://h.example/page").unwrap();
        let delivery = PageDelivery {
            prod_host: Some("www.example.com".into()),
            ..PageDelivery::default()
        };
        extract_section_metadata(nodes, &Site::new(&url, &delivery));
    }

    #[test]
    fn rows_become_the_section_s_classes_id_and_data() {
        let p = |t: &str| el("p", Vec::new(), vec![text(t)]);
        let mut nodes = vec![el(
            "div",
            Vec::new(),
            vec![
                el("h2", Vec::new(), vec![text("S")]),
                block(vec![
                    row("Style", vec![p("two columns"), p("centered, dark")]),
                    row("Id", vec![text("  1 Get Started! ")]),
                    row("Section Margin", vec![text("0")]),
                    row(
                        "Background",
                        vec![el(
                            "picture",
                            Vec::new(),
                            vec![el(
                                "img",
                                vec![("src", "./media_1.jpg?width=750".into())],
                                Vec::new(),
                            )],
                        )],
                    ),
                    row(
                        "Links",
                        vec![
                            el(
                                "a",
                                vec![("href", "https://e.example/1".into())],
                                vec![text("x")],
                            ),
                            text("\n"),
                            el("a", vec![("href", "/2".into())], vec![text("y")]),
                            text(" one,, two "),
                        ],
                    ),
                    row("only one cell", Vec::new()),
                ]),
            ],
        )];
        // The row of one cell: remove its value cell.
        if let HNode::Element(section) = &mut nodes[0]
            && let HNode::Element(b) = &mut section.children[1]
            && let Some(HNode::Element(last)) = b.children.last_mut()
        {
            last.children.truncate(1);
        }
        run(&mut nodes);
        assert_eq!(
            attrs(&nodes[0]),
            [
                ("class", "two-columns centered dark"),
                ("id", "get-started"),
                ("data-section-margin", "0"),
                (
                    "data-background",
                    "https://www.example.com/media_1.jpg?width=750"
                ),
                (
                    "data-links",
                    "https://e.example/1,https://www.example.com/2,one,two"
                ),
            ]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
        );
        let HNode::Element(section) = &nodes[0] else {
            unreachable!()
        };
        assert_eq!(section.children.len(), 1, "the block is gone");
    }

    #[test]
    fn a_second_block_in_a_row_stays_as_in_the_reference() {
        let mut nodes = vec![el(
            "div",
            vec![("class", "a".into())],
            vec![
                block(vec![row("Style", vec![text("b")])]),
                block(vec![row("Style", vec![text("c")])]),
            ],
        )];
        run(&mut nodes);
        assert_eq!(attrs(&nodes[0]), [("class".to_owned(), "a b".to_owned())]);
        let HNode::Element(section) = &nodes[0] else {
            unreachable!()
        };
        assert_eq!(section.children.len(), 1);
    }

    #[test]
    fn a_block_at_the_top_level_is_only_removed() {
        let mut nodes = vec![block(vec![row("Style", vec![text("b")])])];
        run(&mut nodes);
        assert!(nodes.is_empty());
    }

    #[test]
    fn section_ids_as_to_section_id() {
        assert_eq!(section_id("Get Started"), "get-started");
        assert_eq!(section_id("--1. Über uns--"), "ber-uns");
        assert_eq!(section_id("a.b_c:d"), "a.b_c:d");
        assert_eq!(section_id("123"), "");
    }
}
