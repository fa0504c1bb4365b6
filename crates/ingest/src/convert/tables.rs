//! HTML tables and blocks (the `block` elements `create_blocks` made): rows of cells.

use super::{all, parse_int};
use crate::dom::{HElement, HNode};
use crate::model::{BlockInfo, Kind, Node, TablePart};

/// The reference's HTML table handler: a grid table of header, body and footer rows.
pub(super) fn table(e: &HElement) -> Node {
    let mut parts = Vec::new();
    for child in &e.children {
        let HNode::Element(part) = child else {
            continue;
        };
        let which = match &*part.name {
            "thead" => TablePart::Head,
            "tbody" => TablePart::Body,
            "tfoot" => TablePart::Foot,
            _ => continue,
        };
        let rows = part
            .children
            .iter()
            .filter_map(HNode::element)
            .map(|row| {
                let cells = row
                    .children
                    .iter()
                    .filter_map(HNode::element)
                    .map(|cell| {
                        let span = |name| {
                            cell.attr(name)
                                .and_then(parse_int)
                                .map_or(1, |n| n.clamp(0, 1000) as u32)
                        };
                        Node::with(
                            Kind::TableCell {
                                col_span: span("colspan"),
                                row_span: span("rowspan"),
                            },
                            all(cell),
                        )
                    })
                    .collect();
                Node::with(Kind::TableRow, cells)
            })
            .collect();
        parts.push(Node::with(Kind::TablePart { part: which }, rows));
    }
    Node::with(Kind::Table, parts)
}

pub(super) fn block(e: &HElement) -> Node {
    let classes = e
        .attr("class")
        .unwrap_or("")
        .split(' ')
        .map(str::to_owned)
        .collect();
    let rows = e
        .children
        .iter()
        .filter_map(HNode::element)
        .map(|row| {
            let cells = row
                .children
                .iter()
                .filter_map(HNode::element)
                .map(|cell| {
                    Node::with(
                        Kind::BlockCell {
                            align: cell.attr("data-align").map(str::to_owned),
                            valign: cell.attr("data-valign").map(str::to_owned),
                        },
                        all(cell),
                    )
                })
                .collect();
            Node::with(Kind::BlockRow, cells)
        })
        .collect();
    Node::with(Kind::Block(BlockInfo { classes }), rows)
}
