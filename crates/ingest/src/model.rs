//! The content model of an ingested page.
//!
//! A [`Document`] is what the interface calls a markup page: sections, each a list of
//! [`Node`]s (default content and blocks), plus page metadata. Nodes follow mdast (the
//! markdown syntax tree the reference converter serialises), with three additions: blocks
//! (`Kind::Block`, rows of cells), HTML tables (`Kind::Table`), and the inline formats that
//! markdown writes as HTML (`sub`, `sup`, `u`). One uniform node type keeps the tree walks of
//! the converter simple; the typed views ([`Document::blocks`], [`Block`]) are for callers.

use serde::Serialize;

/// An ingested page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Document {
    /// False when the page had no `main`: the reference converts it to empty markdown, with
    /// no metadata either.
    pub has_main: bool,
    /// The divs directly under `main` that had content, in order.
    pub sections: Vec<Section>,
    /// Metadata from `head` (title, meta tags, JSON-LD, `html lang`, `link hreflang`), in
    /// document order, duplicates kept. A `metadata` block in the body stays a block; see
    /// [`Document::page_metadata`] for both merged.
    pub head_metadata: Vec<MetaEntry>,
    /// Problems that did not stop ingestion (invalid block names), for the preview trace.
    pub warnings: Vec<Warning>,
}

/// One section: default content and blocks, in order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Section {
    pub children: Vec<Node>,
}

/// One metadata entry: a property name and its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MetaEntry {
    pub name: String,
    pub value: MetaValue,
}

/// A metadata value: text, or an image URL (`og:image`, `og:image:secure_url`,
/// `twitter:image`, `image`), which is downloaded like the images of the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", content = "value", rename_all = "lowercase")]
pub enum MetaValue {
    Text(String),
    Image(String),
}

impl MetaValue {
    pub fn as_str(&self) -> &str {
        match self {
            MetaValue::Text(s) | MetaValue::Image(s) => s,
        }
    }
}

/// A problem that does not stop ingestion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Warning {
    /// A block class name that is not alphanumeric words joined by single dashes, or that
    /// starts with a digit. The block is kept, named as the reference names it.
    #[error(
        "block class name `{class}` in section {section} is invalid: use letters, digits and single dashes, not starting with a digit"
    )]
    InvalidBlockClass { class: String, section: usize },
    /// Elements nested more than `limit` deep, left out with what they hold (the
    /// converter and the renderer walk the tree recursively). Past a far deeper nesting the
    /// parser stops (its time grows with the square of the depth): nothing after
    /// `read_up_to` bytes of the page is read.
    #[error("{}", nesting_message(*limit, *read_up_to))]
    NestingTooDeep {
        limit: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        read_up_to: Option<usize>,
    },
    /// The page starts with a byte-order mark (U+FEFF). The platform keeps it when it reads
    /// the page, so its HTML parser meets a character before `<html>` and ends `head` there:
    /// the `ignored` title, meta and JSON-LD elements of `head` are not read, as there.
    #[error(
        "the page starts with a byte-order mark (U+FEFF): the platform reads it as text before <html>, which ends the head, so the head's {ignored} title, meta and JSON-LD elements are ignored and the page has no head metadata; save the page without the mark"
    )]
    ByteOrderMark { ignored: usize },
    /// More than one `metadata` block, counting the one the head's `meta` tags make (the
    /// reference appends it). The delivery reads the first and takes it out; the others
    /// stay in the page as blocks, as on the platform, and the site's code then loads
    /// `blocks/metadata/metadata.js` for them (a 404 in most code bases).
    #[error(
        "the page has {blocks} `metadata` blocks{}: the delivery reads the first and leaves the others in the page as blocks, so the site's code asks for /blocks/metadata/metadata.js; keep one metadata block (or move the head's meta tags into it)",
        if *from_head { ", one of them made from the head's meta tags" } else { "" }
    )]
    MoreThanOneMetadataBlock { blocks: usize, from_head: bool },
}

fn nesting_message(limit: usize, read_up_to: Option<usize>) -> String {
    let left_out = format!("elements nested more than {limit} levels deep are left out");
    match read_up_to {
        Some(bytes) => format!("{left_out}, and the page is read only up to byte {bytes}"),
        None => left_out,
    }
}

/// A node of the content tree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Node {
    pub kind: Kind,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
}

/// The node kinds. Flow kinds first, then phrasing (inline) kinds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Kind {
    Paragraph,
    Heading {
        depth: u8,
    },
    ThematicBreak,
    Blockquote,
    List {
        ordered: bool,
        start: Option<i64>,
        spread: bool,
    },
    ListItem {
        spread: bool,
        checked: Option<bool>,
    },
    Code {
        lang: Option<String>,
        value: String,
    },
    /// Raw HTML kept in the markdown (comments, `<br>` inside headings).
    Html {
        value: String,
    },
    /// A block: children are `BlockRow`s, whose children are `BlockCell`s.
    Block(BlockInfo),
    BlockRow,
    BlockCell {
        align: Option<String>,
        valign: Option<String>,
    },
    /// An HTML table of default content: children are `TablePart`s of `TableRow`s of
    /// `TableCell`s.
    Table,
    TablePart {
        part: TablePart,
    },
    TableRow,
    TableCell {
        col_span: u32,
        row_span: u32,
    },
    Text {
        value: String,
    },
    Emphasis,
    Strong,
    Delete,
    Subscript,
    Superscript,
    Underline,
    InlineCode {
        value: String,
    },
    Break,
    Link {
        url: String,
        title: Option<String>,
    },
    Image {
        url: String,
        title: Option<String>,
        alt: String,
    },
}

/// Header, body or footer rows of an HTML table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TablePart {
    Head,
    Body,
    Foot,
}

/// What identifies a block: its classes in source order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockInfo {
    pub classes: Vec<String>,
}

impl BlockInfo {
    /// The block name as the reference writes it: the first class, words split on `-` and
    /// capitalised (`hero-big` -> `Hero Big`), further classes as options
    /// (`Columns (bleed, dark green)`).
    pub fn display_name(&self) -> String {
        let mut classes = self.classes.iter();
        let Some(first) = classes.next() else {
            return String::new();
        };
        let mut name = first
            .split('-')
            .map(capitalise)
            .collect::<Vec<_>>()
            .join(" ");
        let options: Vec<String> = classes
            .map(|c| c.split('-').collect::<Vec<_>>().join(" "))
            .collect();
        if !options.is_empty() {
            name.push_str(&format!(" ({})", options.join(", ")));
        }
        name
    }

    /// The block's name: its first class.
    pub fn name(&self) -> &str {
        self.classes.first().map_or("", String::as_str)
    }

    /// The further classes (the block's options).
    pub fn options(&self) -> &[String] {
        self.classes.get(1..).unwrap_or(&[])
    }
}

/// JavaScript's `s.charAt(0).toUpperCase() + s.slice(1).toLowerCase()`.
fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// Whether a block class follows the interface: alphanumeric words joined by single dashes,
/// not starting with a digit.
pub fn valid_block_class(class: &str) -> bool {
    let starts_well = class
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic());
    starts_well
        && class
            .split('-')
            .all(|word| !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// A typed view of a block node.
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    pub info: &'a BlockInfo,
    node: &'a Node,
}

impl<'a> Block<'a> {
    /// The view of `node`, when it is a block.
    pub fn of(node: &'a Node) -> Option<Self> {
        match &node.kind {
            Kind::Block(info) => Some(Block { info, node }),
            _ => None,
        }
    }

    /// Rows, each a list of cells; a cell is a list of nodes.
    pub fn rows(&self) -> impl Iterator<Item = Vec<&'a [Node]>> + 'a {
        self.node.children.iter().map(|row| {
            row.children
                .iter()
                .map(|cell| cell.children.as_slice())
                .collect()
        })
    }
}

impl Node {
    pub fn new(kind: Kind) -> Self {
        Node {
            kind,
            children: Vec::new(),
        }
    }

    pub fn with(kind: Kind, children: Vec<Node>) -> Self {
        Node { kind, children }
    }

    pub fn text(value: impl Into<String>) -> Self {
        Node::new(Kind::Text {
            value: value.into(),
        })
    }

    /// Inline (phrasing) content, as mdast-util-phrasing decides.
    pub fn is_phrasing(&self) -> bool {
        matches!(
            self.kind,
            Kind::Text { .. }
                | Kind::Emphasis
                | Kind::Strong
                | Kind::Delete
                | Kind::Subscript
                | Kind::Superscript
                | Kind::Underline
                | Kind::InlineCode { .. }
                | Kind::Break
                | Kind::Link { .. }
                | Kind::Image { .. }
        )
    }

    /// The text content, as mdast-util-to-string gives it (image alt included).
    pub fn to_plain_text(&self) -> String {
        let mut out = String::new();
        self.push_text(&mut out);
        out
    }

    fn push_text(&self, out: &mut String) {
        match &self.kind {
            Kind::Text { value }
            | Kind::InlineCode { value }
            | Kind::Code { value, .. }
            | Kind::Html { value } => out.push_str(value),
            Kind::Image { alt, .. } => out.push_str(alt),
            _ => self.children.iter().for_each(|c| c.push_text(out)),
        }
    }

    /// Every node of this subtree, depth first, in document order.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Node)) {
        f(self);
        for child in &self.children {
            child.walk(f);
        }
    }

    /// Every node of this subtree, mutably, depth first.
    pub fn walk_mut(&mut self, f: &mut impl FnMut(&mut Node)) {
        f(self);
        for child in &mut self.children {
            child.walk_mut(f);
        }
    }
}

impl Document {
    /// Every block of every section (top level of a section), in order.
    pub fn blocks(&self) -> impl Iterator<Item = Block<'_>> {
        self.sections
            .iter()
            .flat_map(|s| s.children.iter().filter_map(Block::of))
    }

    /// The page metadata: the `head` entries, then the rows of `metadata` blocks (first cell
    /// the property, second the value as text). A later entry of the same name wins where
    /// a caller builds a map.
    pub fn page_metadata(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .head_metadata
            .iter()
            .map(|e| (e.name.clone(), e.value.as_str().to_owned()))
            .collect();
        for block in self
            .blocks()
            .filter(|b| b.info.name().eq_ignore_ascii_case("metadata"))
        {
            for row in block.rows() {
                if let [name, value, ..] = row.as_slice() {
                    let name: String = name.iter().map(Node::to_plain_text).collect();
                    let value = value
                        .iter()
                        .map(|n| {
                            let mut url = None;
                            n.walk(&mut |d| {
                                if let (Kind::Image { url: u, .. }, None) = (&d.kind, &url) {
                                    url = Some(u.clone());
                                }
                            });
                            url.unwrap_or_else(|| n.to_plain_text())
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    out.push((name.trim().to_lowercase(), value.trim().to_owned()));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_names_follow_the_reference() {
        let info = |c: &[&str]| BlockInfo {
            classes: c.iter().map(|s| s.to_string()).collect(),
        };
        assert_eq!(info(&["columns"]).display_name(), "Columns");
        assert_eq!(info(&["hero-big"]).display_name(), "Hero Big");
        assert_eq!(
            info(&["columns", "bleed", "dark-green"]).display_name(),
            "Columns (bleed, dark green)"
        );
        assert_eq!(info(&["FOO-bar"]).display_name(), "Foo Bar");
    }

    #[test]
    fn block_class_rule() {
        for good in ["columns", "hero-big", "a1-b2", "Cards"] {
            assert!(valid_block_class(good), "{good}");
        }
        for bad in ["1col", "a--b", "a_b", "-a", "a-", "", "é"] {
            assert!(!valid_block_class(bad), "{bad}");
        }
    }
}
