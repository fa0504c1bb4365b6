//! Grid tables as the pipeline renders them: blocks and HTML tables directly in a section
//! become block `div`s (named by their first cell; rows without cells drawn as empty cells),
//! elsewhere they stay tables; a cell holding one paragraph is rendered inline.

use super::content::{Ctx, css_class_names};
use super::html::{el, text};
use crate::ingest::dom::HNode;
use crate::ingest::model::{Kind, Node, TablePart};
use crate::ingest::sanitize;

impl Ctx {
    /// The content of a grid-table cell as the markdown gives it back.
    pub(super) fn cell_content(&mut self, children: &[Node]) -> Vec<HNode> {
        let mut tree = children.to_vec();
        sanitize::sanitize_breaks(&mut tree);
        if tree.iter().all(Node::is_phrasing) {
            return self.phrasing(&tree);
        }
        if let [only] = tree.as_slice()
            && only.kind == Kind::Paragraph
        {
            return self.phrasing(&only.children);
        }
        self.flow(&tree)
    }

    /// A block in a section: `div.<classes>` of row `div`s of cell `div`s.
    pub(super) fn block_divs(&mut self, node: &Node) -> HNode {
        let Kind::Block(info) = &node.kind else {
            unreachable!("a block")
        };
        let classes = css_class_names(&info.display_name());
        let num_cols = node
            .children
            .iter()
            .map(|r| r.children.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let rows = node
            .children
            .iter()
            .map(|row| {
                // A row without cells is drawn with empty cells, which read back as cells.
                if row.children.is_empty() {
                    let empty = (0..num_cols)
                        .map(|_| el("div", Vec::new(), Vec::new()))
                        .collect();
                    return el("div", Vec::new(), empty);
                }
                let cells = row
                    .children
                    .iter()
                    .map(|cell| {
                        let mut attrs = Vec::new();
                        if let Kind::BlockCell { align, valign } = &cell.kind {
                            if let Some(a) = align {
                                attrs.push(("data-align", a.clone()));
                            }
                            if let Some(v) = valign {
                                attrs.push(("data-valign", v.clone()));
                            }
                        }
                        el("div", attrs, self.cell_content(&cell.children))
                    })
                    .collect();
                el("div", Vec::new(), cells)
            })
            .collect();
        block_div(classes, rows)
    }

    /// An HTML table in a section becomes a block named by its first cell (header and body
    /// rows; footer rows are dropped).
    pub(super) fn table_divs(&mut self, node: &Node) -> Option<HNode> {
        let mut rows: Vec<&Node> = node
            .children
            .iter()
            .filter(|p| {
                matches!(
                    p.kind,
                    Kind::TablePart {
                        part: TablePart::Head | TablePart::Body
                    }
                )
            })
            .flat_map(|p| p.children.iter())
            .collect();
        if !table_has_columns(node) {
            return None;
        }
        if rows.is_empty() {
            return Some(el("div", Vec::new(), Vec::new()));
        }
        let header = rows.remove(0);
        let name = header
            .children
            .first()
            .map(|c| c.to_plain_text())
            .unwrap_or_default();
        let rows = rows
            .into_iter()
            .map(|row| {
                let cells = row
                    .children
                    .iter()
                    .map(|cell| el("div", Vec::new(), self.cell_content(&cell.children)))
                    .collect();
                el("div", Vec::new(), cells)
            })
            .collect();
        Some(block_div(css_class_names(&name), rows))
    }

    /// A block inside other content stays a table: the name row, then the rows.
    pub(super) fn block_table(&mut self, node: &Node) -> HNode {
        let Kind::Block(info) = &node.kind else {
            unreachable!("a block")
        };
        let num_cols = node
            .children
            .iter()
            .map(|r| r.children.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let mut header_attrs = Vec::new();
        if num_cols > 1 {
            header_attrs.push(("colspan", num_cols.to_string()));
        }
        let mut rows = vec![el(
            "tr",
            Vec::new(),
            vec![el("td", header_attrs, vec![text(info.display_name())])],
        )];
        for row in &node.children {
            let count = row.children.len();
            let cells = row
                .children
                .iter()
                .enumerate()
                .map(|(i, cell)| {
                    let mut attrs = Vec::new();
                    if i == count - 1 && count < num_cols {
                        attrs.push(("colspan", (num_cols - i).to_string()));
                    }
                    if let Kind::BlockCell { align, valign } = &cell.kind {
                        if let Some(a) = align {
                            attrs.push(("align", a.clone()));
                        }
                        if let Some(v) = valign {
                            attrs.push(("valign", v.clone()));
                        }
                    }
                    el("td", attrs, self.cell_content(&cell.children))
                })
                .collect();
            rows.push(el("tr", Vec::new(), cells));
        }
        el("table", Vec::new(), vec![el("tbody", Vec::new(), rows)])
    }

    pub(super) fn html_table(&mut self, node: &Node) -> HNode {
        let mut parts = Vec::new();
        for part in &node.children {
            let Kind::TablePart { part: which } = part.kind else {
                continue;
            };
            let (section, cell_name) = match which {
                TablePart::Head => ("thead", "th"),
                TablePart::Body => ("tbody", "td"),
                TablePart::Foot => ("tfoot", "td"),
            };
            let rows: Vec<HNode> = part
                .children
                .iter()
                .map(|row| {
                    let cells = row
                        .children
                        .iter()
                        .map(|cell| {
                            let mut attrs = Vec::new();
                            if let Kind::TableCell { col_span, row_span } = cell.kind {
                                if col_span > 1 {
                                    attrs.push(("colspan", col_span.to_string()));
                                }
                                if row_span > 1 {
                                    attrs.push(("rowspan", row_span.to_string()));
                                }
                            }
                            el(cell_name, attrs, self.cell_content(&cell.children))
                        })
                        .collect();
                    el("tr", Vec::new(), cells)
                })
                .collect();
            if !rows.is_empty() {
                parts.push(el(section, Vec::new(), rows));
            }
        }
        el("table", Vec::new(), parts)
    }
}

pub(super) fn table_has_columns(node: &Node) -> bool {
    node.children
        .iter()
        .any(|p| p.children.iter().any(|r| !r.children.is_empty()))
}

pub(super) fn block_div(classes: Vec<String>, rows: Vec<HNode>) -> HNode {
    let attrs = if classes.is_empty() {
        Vec::new()
    } else {
        vec![("class", classes.join(" "))]
    };
    el("div", attrs, rows)
}
