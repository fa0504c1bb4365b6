//! The mdast the pipeline's steps read: the node types of remark's tree that the stored
//! markdown can hold, grid tables included, and `mdast-util-to-string`. `parse.rs` builds it.

/// An mdast node, reduced to what the pipeline reads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Md {
    Root(Vec<Md>),
    Section(Vec<Md>),
    Paragraph(Vec<Md>),
    Heading {
        depth: u8,
        children: Vec<Md>,
    },
    ThematicBreak,
    Blockquote(Vec<Md>),
    List {
        ordered: bool,
        start: Option<u32>,
        spread: bool,
        children: Vec<Md>,
    },
    ListItem {
        spread: bool,
        checked: Option<bool>,
        children: Vec<Md>,
    },
    Code {
        lang: Option<String>,
        value: String,
    },
    Html(String),
    /// A definition no reference used (kept: the section types count it).
    Definition,
    Table {
        align: Vec<Option<&'static str>>,
        rows: Vec<Vec<Vec<Md>>>,
    },
    GridTable(GridTable),
    Text(String),
    Emphasis(Vec<Md>),
    Strong(Vec<Md>),
    Delete(Vec<Md>),
    InlineCode(String),
    Break,
    Link {
        url: String,
        title: Option<String>,
        children: Vec<Md>,
    },
    Image {
        url: String,
        title: Option<String>,
        alt: String,
    },
}

/// `gtHeader`, `gtBody`, `gtFooter`: rows of cells.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct GridTable {
    pub header: Vec<Vec<GridCell>>,
    pub body: Vec<Vec<GridCell>>,
    pub footer: Vec<Vec<GridCell>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct GridCell {
    pub col_span: usize,
    pub row_span: usize,
    pub align: Option<&'static str>,
    pub valign: Option<&'static str>,
    pub children: Vec<Md>,
}

impl Md {
    pub(super) fn children(&self) -> &[Md] {
        match self {
            Md::Root(c)
            | Md::Section(c)
            | Md::Paragraph(c)
            | Md::Blockquote(c)
            | Md::Emphasis(c)
            | Md::Strong(c)
            | Md::Delete(c)
            | Md::Heading { children: c, .. }
            | Md::List { children: c, .. }
            | Md::ListItem { children: c, .. }
            | Md::Link { children: c, .. } => c,
            _ => &[],
        }
    }

    /// The node's mdast `type`, for the section types of `get-metadata`.
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Md::Root(_) => "root",
            Md::Section(_) => "section",
            Md::Paragraph(_) => "paragraph",
            Md::Heading { .. } => "heading",
            Md::ThematicBreak => "thematicBreak",
            Md::Blockquote(_) => "blockquote",
            Md::List { .. } => "list",
            Md::ListItem { .. } => "listItem",
            Md::Code { .. } => "code",
            Md::Html(_) => "html",
            Md::Definition => "definition",
            Md::Table { .. } => "table",
            Md::GridTable(_) => "gridTable",
            Md::Text(_) => "text",
            Md::Emphasis(_) => "emphasis",
            Md::Strong(_) => "strong",
            Md::Delete(_) => "delete",
            Md::InlineCode(_) => "inlineCode",
            Md::Break => "break",
            Md::Link { .. } => "link",
            Md::Image { .. } => "image",
        }
    }

    /// Visits the node and its descendants in document order (grid table cells included),
    /// stopping at the first `Some`.
    pub(super) fn find<'a, T>(&'a self, f: &mut impl FnMut(&'a Md) -> Option<T>) -> Option<T> {
        if let Some(found) = f(self) {
            return Some(found);
        }
        if let Md::Table { rows, .. } = self {
            for cell in rows.iter().flatten() {
                for child in cell {
                    if let Some(found) = child.find(f) {
                        return Some(found);
                    }
                }
            }
        }
        if let Md::GridTable(table) = self {
            for cell in table.cells() {
                for child in &cell.children {
                    if let Some(found) = child.find(f) {
                        return Some(found);
                    }
                }
            }
        }
        self.children().iter().find_map(|c| c.find(f))
    }
}

impl GridTable {
    pub(super) fn cells(&self) -> impl Iterator<Item = &GridCell> {
        self.header
            .iter()
            .chain(&self.body)
            .chain(&self.footer)
            .flatten()
    }
}

/// `mdast-util-to-string`: the text of a node (image alts and raw HTML included).
pub(crate) fn to_string(node: &Md) -> String {
    let mut out = String::new();
    push_string(node, &mut out);
    out
}

fn push_string(node: &Md, out: &mut String) {
    match node {
        Md::Text(v) | Md::InlineCode(v) | Md::Html(v) | Md::Code { value: v, .. } => {
            out.push_str(v)
        }
        Md::Image { alt, .. } => out.push_str(alt),
        Md::Table { rows, .. } => {
            for child in rows.iter().flatten().flatten() {
                push_string(child, out);
            }
        }
        Md::GridTable(t) => {
            for cell in t.cells() {
                for child in &cell.children {
                    push_string(child, out);
                }
            }
        }
        _ => {
            for child in node.children() {
                push_string(child, out);
            }
        }
    }
}
