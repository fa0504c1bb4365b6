//! Grid tables (`+---+` borders), laid out as `@adobe/mdast-util-gridtables` does: a width of
//! 120 characters distributed over the columns, cells rendered as markdown and wrapped to
//! their column, then widened to the widest line; spans, alignment markers and header or
//! footer separators (`=`) drawn into the border lines.
//!
//! A table borrows its cells' trees from the document and renders each from a copy that
//! it drops once rendered, keeping only the text: a page that is one large block held a
//! copy of the whole block (and every cell's tree, with the layout's state, many times
//! the cell's text) while the table was laid out. A cell rendered again at its final
//! width is copied again and brought to the state its first rendering left it in.

use std::borrow::Cow;

use super::{State, js_len};
use crate::model::Node;

const TABLE_WIDTH: f64 = 120.0;

/// A cell as the table handler receives it.
pub(crate) struct CellSpec<'a> {
    pub children: Cow<'a, [Node]>,
    pub col_span: usize,
    pub row_span: usize,
    pub align: Option<&'a str>,
    pub valign: Option<&'a str>,
}

struct Cell<'a> {
    /// The cell's content as the document has it (rendering works on a copy).
    tree: Cow<'a, [Node]>,
    col_span: usize,
    row_span: usize,
    align: Option<&'a str>,
    valign: Option<&'a str>,
    /// The rendered content, tabs expanded; its lines are drawn one by one.
    text: String,
    /// Where the next line to draw starts in `text`, and how many are left.
    next_line: usize,
    lines_left: usize,
    height: usize,
    width: usize,
}

impl Cell<'_> {
    /// The next line not drawn yet (empty once all are).
    fn shift_line(&mut self) -> std::ops::Range<usize> {
        if self.lines_left == 0 {
            return 0..0;
        }
        self.lines_left -= 1;
        let start = self.next_line;
        let end = memchr::memchr(b'\n', &self.text.as_bytes()[start..])
            .map_or(self.text.len(), |at| start + at);
        self.next_line = end + 1;
        start..end
    }
}

#[derive(Clone)]
enum Slot {
    Cell(usize),
    /// The columns covered by a column span (keeping the spanning cell's alignment).
    Filler,
    /// The first column a row span covers in a later row.
    Linked(usize),
    Empty,
}

struct Row {
    height: usize,
    slots: Vec<Slot>,
}

#[derive(Default)]
pub(crate) struct Table<'a> {
    cells: Vec<Cell<'a>>,
    rows: Vec<Row>,
    header_size: usize,
    footer_size: usize,
}

fn round(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

/// Splits `size` into `times` nearly equal integer parts (JavaScript rounding).
fn distribute(size: f64, times: usize) -> Vec<i64> {
    let delta = size / times as f64;
    let mut len = delta;
    let mut prev_len = 0i64;
    let mut out = Vec::with_capacity(times);
    for _ in 0..times.saturating_sub(1) {
        out.push(round(len - prev_len as f64));
        prev_len = round(len);
        len += delta;
    }
    out.push(round(size - prev_len as f64));
    out
}

struct Col {
    width: i64,
    max_width: i64,
}

impl<'a> Table<'a> {
    pub(super) fn add_header_row(&mut self, cells: Vec<CellSpec<'a>>) {
        self.add_row(cells, self.header_size);
        self.header_size += 1;
    }

    pub(super) fn add_body_row(&mut self, cells: Vec<CellSpec<'a>>) {
        let at = self.rows.len() - self.footer_size;
        self.add_row(cells, at);
    }

    pub(super) fn add_footer_row(&mut self, cells: Vec<CellSpec<'a>>) {
        self.add_row(cells, self.rows.len());
        self.footer_size += 1;
    }

    fn add_row(&mut self, specs: Vec<CellSpec<'a>>, at: usize) {
        let mut slots = Vec::new();
        for spec in specs {
            let col_span = spec.col_span;
            self.cells.push(Cell {
                tree: spec.children,
                col_span: spec.col_span,
                row_span: spec.row_span,
                align: spec.align,
                valign: spec.valign,
                text: String::new(),
                next_line: 0,
                lines_left: 0,
                height: 0,
                width: 0,
            });
            slots.push(Slot::Cell(self.cells.len() - 1));
            for _ in 1..col_span {
                slots.push(Slot::Filler);
            }
        }
        self.rows.insert(at, Row { height: 0, slots });
    }

    fn span_width(&self, cols: &[Col], x: usize, cell: usize) -> i64 {
        (0..self.cells[cell].col_span)
            .map(|i| cols.get(x + i).map_or(0, |c| c.width))
            .sum()
    }

    /// Renders a cell at `max_width`. Returns the widths at which a rendering would come out
    /// the same (see [`State::same_widths`]), empty when the cell must be rendered again
    /// whatever the width: `first`, the first rendering, cleans the cell up, and the
    /// reference cleans it again before the second, which this does right after the first;
    /// when that changed the tree, the second rendering can differ at any width. So can a
    /// first rendering that began with a bullet last used (a list just before the table,
    /// in the same container, reaches the first cell rendered): the reference forgets it
    /// after each cell, so the second rendering of every cell starts without one, and a
    /// list at the start of the cell takes the usual bullet again.
    fn render_cell(
        &mut self,
        cell: usize,
        state: &mut State<'_>,
        max_width: i64,
        first: bool,
    ) -> std::ops::Range<i64> {
        // A table nested in a cell lays its own cells out at its own widths, whatever the
        // outer cell's: its decisions are kept apart from the outer cell's record.
        let after_list = first && state.bullet_last_used.is_some();
        let outer_width = state.line_width.replace(max_width - 3);
        let outer_same = std::mem::replace(&mut state.same_widths, i64::MIN..i64::MAX);
        let mut tree = self.cells[cell].tree.to_vec();
        if !first {
            as_first_rendering_left(&mut tree);
        }
        let lines = state.render_cell_content(&mut tree, first);
        let cleaned_again = first && crate::sanitize::sanitize_breaks(&mut tree);
        drop(tree);
        state.line_width = outer_width;
        let same = std::mem::replace(&mut state.same_widths, outer_same);
        let text = if memchr::memchr(b'\t', lines.as_bytes()).is_some() {
            lines
                .split('\n')
                .map(expand_tabs)
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            lines
        };
        let mut width = 0;
        let mut height = 0;
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len())) {
            width = width.max(js_len(&text[start..end]));
            height += 1;
            start = end + 1;
        }
        let c = &mut self.cells[cell];
        c.height = height;
        c.text = text;
        c.next_line = 0;
        c.lines_left = height;
        c.width = width + 3;
        if cleaned_again || after_list {
            0..0
        } else {
            same
        }
    }

    pub(super) fn into_markdown(mut self, state: &mut State<'_>) -> String {
        let max_cols = self.rows.iter().map(|r| r.slots.len()).max().unwrap_or(0);
        let mut real_num_cols = 0;
        let row_count = self.rows.len();
        for x in 0..max_cols {
            for y in 0..row_count {
                let Some(Slot::Cell(c)) = self.rows[y].slots.get(x).cloned() else {
                    continue;
                };
                real_num_cols = real_num_cols.max(x + 1);
                let cell = &mut self.cells[c];
                cell.row_span = cell.row_span.min(row_count - y);
                let (row_span, col_span) = (cell.row_span, cell.col_span);
                for i in 1..row_span {
                    let mut filler = vec![Slot::Empty; col_span];
                    filler[0] = Slot::Linked(c);
                    let slots = &mut self.rows[y + i].slots;
                    let at = x.min(slots.len());
                    slots.splice(at..at, filler);
                }
            }
        }
        // Trailing columns without any cell are dropped; the last cell of a row spans to
        // the new end.
        if max_cols > real_num_cols {
            for r in 0..self.rows.len() {
                if self.rows[r].slots.len() > real_num_cols {
                    self.rows[r].slots.truncate(real_num_cols);
                    let last = self.rows[r]
                        .slots
                        .iter()
                        .rposition(|s| matches!(s, Slot::Cell(_)));
                    if let Some(x) = last
                        && let Slot::Cell(c) = self.rows[r].slots[x]
                    {
                        self.cells[c].col_span = real_num_cols - x;
                    }
                }
            }
        }
        let num_cols = real_num_cols;
        if num_cols == 0 {
            return String::new();
        }
        for r in 0..self.rows.len() {
            self.rows[r].slots.truncate(num_cols);
            while self.rows[r].slots.len() < num_cols {
                self.cells.push(Cell {
                    tree: Cow::Borrowed(&[]),
                    col_span: 1,
                    row_span: 1,
                    align: None,
                    valign: None,
                    text: String::new(),
                    next_line: 0,
                    lines_left: 0,
                    height: 0,
                    width: 0,
                });
                let c = self.cells.len() - 1;
                self.rows[r].slots.push(Slot::Cell(c));
            }
            for x in 0..num_cols {
                if let Slot::Cell(c) = self.rows[r].slots[x] {
                    let cell = &mut self.cells[c];
                    if x + cell.col_span > num_cols {
                        cell.col_span = num_cols - x;
                    }
                }
            }
        }
        let mut cols: Vec<Col> = distribute(TABLE_WIDTH, num_cols)
            .into_iter()
            .map(|max_width| Col {
                width: 3,
                max_width,
            })
            .collect();

        // Per cell: the widths at which its first rendering would come out the same.
        let mut first: Vec<std::ops::Range<i64>> = vec![0..0; self.cells.len()];
        for r in 0..self.rows.len() {
            for x in 0..self.rows[r].slots.len() {
                let Slot::Cell(c) = self.rows[r].slots[x] else {
                    continue;
                };
                let span = self.cells[c].col_span;
                let max_width: i64 = (0..span).map(|i| cols[x + i].max_width).sum();
                first[c] = self.render_cell(c, state, max_width, true);
                for (idx, avg) in distribute(self.cells[c].width as f64, span)
                    .into_iter()
                    .enumerate()
                {
                    cols[x + idx].width = cols[x + idx].width.max(avg);
                }
                if self.cells[c].valign.is_some() {
                    cols[x].width = cols[x].width.max(4);
                }
            }
        }
        for r in 0..self.rows.len() {
            self.rows[r].height = 0;
            for x in 0..self.rows[r].slots.len() {
                let Slot::Cell(c) = self.rows[r].slots[x] else {
                    continue;
                };
                let width = self.span_width(&cols, x, c);
                if width >= self.cells[c].width as i64 {
                    // The second rendering (`renderCell` at the final width) is the first
                    // one again when every wrapping decision would be taken the same way.
                    if !first[c].contains(&(width - 3)) {
                        self.render_cell(c, state, width, false);
                    }
                    if self.cells[c].width as i64 > width {
                        let span = self.cells[c].col_span;
                        for (idx, avg) in distribute(self.cells[c].width as f64, span)
                            .into_iter()
                            .enumerate()
                        {
                            cols[x + idx].width = cols[x + idx].width.max(avg);
                        }
                    } else {
                        self.cells[c].width = width as usize;
                    }
                }
                if self.cells[c].row_span == 1 {
                    self.rows[r].height = self.rows[r].height.max(self.cells[c].height);
                }
            }
        }
        for y in 0..self.rows.len() {
            for x in 0..self.rows[y].slots.len() {
                let Slot::Cell(c) = self.rows[y].slots[x] else {
                    continue;
                };
                let (row_span, height) = (self.cells[c].row_span, self.cells[c].height);
                if row_span > 1 {
                    let dist_height = row_span.max((height + 1).saturating_sub(row_span));
                    for (idx, d) in distribute(dist_height as f64, row_span)
                        .into_iter()
                        .enumerate()
                    {
                        let row = &mut self.rows[y + idx];
                        row.height = row.height.max(d.max(0) as usize);
                    }
                }
            }
        }
        self.draw(&cols)
    }

    fn draw(&mut self, cols: &[Col]) -> String {
        // The lines, each ended by a newline; the last one's is dropped at the end.
        let width: i64 = cols.iter().map(|c| c.width).sum::<i64>() + 2;
        let height: usize = self.rows.iter().map(|r| r.height + 1).sum::<usize>() + 1;
        let mut lines = String::with_capacity(usize::try_from(width).unwrap_or(0) * height);
        let header_idx: i64 = if self.header_size > 0 {
            self.header_size as i64
        } else if self.footer_size > 0 {
            0
        } else {
            -1
        };
        let footer_idx = (self.rows.len() - self.footer_size) as i64;
        for y in 0..self.rows.len() {
            let c = if y as i64 == header_idx || y as i64 == footer_idx {
                '='
            } else {
                '-'
            };
            let mut grid = String::with_capacity(usize::try_from(width).unwrap_or(0));
            let mut pending: i64 = 0;
            let mut pending_align: Option<(&str, &str, i64)> = None;
            let mut pending_valign: Option<char> = None;
            let mut last_slot: Option<Slot> = None;
            let commit = |grid: &mut String,
                          pending: &mut i64,
                          align: Option<(&str, &str, i64)>,
                          valign: Option<char>| {
                if *pending == 0 {
                    return;
                }
                let inner = |grid: &mut String, n: i64| match valign {
                    Some(v) => {
                        let middle = (n - 1).div_euclid(2);
                        push_repeat(grid, c, middle);
                        grid.push(v);
                        push_repeat(grid, c, n - middle - 1);
                    }
                    None => push_repeat(grid, c, n),
                };
                match align {
                    Some((b, e, len)) => {
                        grid.push_str(b);
                        inner(grid, *pending - len);
                        grid.push_str(e);
                    }
                    None => inner(grid, *pending),
                }
                *pending = 0;
            };
            let mut x = 0;
            while x < self.rows[y].slots.len() {
                let slot = self.rows[y].slots[x].clone();
                last_slot = Some(slot.clone());
                let col = &cols[x];
                match slot {
                    Slot::Cell(ci) => {
                        commit(&mut grid, &mut pending, pending_align, pending_valign);
                        grid.push('+');
                        pending = col.width - 1;
                        pending_align = align_marker(self.cells[ci].align);
                        pending_valign = valign_marker(self.cells[ci].valign);
                    }
                    Slot::Linked(ci) => {
                        let had_pending = pending > 0;
                        commit(&mut grid, &mut pending, pending_align, pending_valign);
                        let boundary = if had_pending { '+' } else { '|' };
                        let width = self.span_width(cols, x, ci);
                        let line = self.cells[ci].shift_line();
                        grid.push(boundary);
                        grid.push(' ');
                        push_padded(&mut grid, &self.cells[ci].text[line], width - 3);
                        grid.push(' ');
                        x += self.cells[ci].col_span - 1;
                    }
                    Slot::Filler | Slot::Empty => {
                        let mut in_aligned_span = false;
                        for xx in (0..x).rev() {
                            match &self.rows[y].slots[xx] {
                                Slot::Cell(bc) => {
                                    let bc = &self.cells[*bc];
                                    in_aligned_span = bc.col_span > x - xx
                                        && (bc.align.is_some() || bc.valign.is_some());
                                    break;
                                }
                                Slot::Linked(_) => break,
                                _ => {}
                            }
                        }
                        if in_aligned_span {
                            pending += col.width;
                        } else {
                            let above = y
                                .checked_sub(1)
                                .and_then(|py| self.rows[py].slots.get(x))
                                .is_some_and(|s| matches!(s, Slot::Cell(_) | Slot::Linked(_)));
                            if above {
                                commit(&mut grid, &mut pending, pending_align, pending_valign);
                                grid.push('+');
                                pending = col.width - 1;
                            } else {
                                pending += col.width;
                            }
                        }
                    }
                }
                x += 1;
            }
            commit(&mut grid, &mut pending, pending_align, pending_valign);
            let end = if y > 0 && matches!(last_slot, Some(Slot::Linked(_))) {
                '|'
            } else {
                '+'
            };
            grid.push(end);
            lines.push_str(&grid);
            lines.push('\n');

            let height = self.rows[y].height;
            for yy in 0..height {
                let line = &mut lines;
                for x in 0..self.rows[y].slots.len() {
                    let ci = match self.rows[y].slots[x] {
                        Slot::Cell(ci) | Slot::Linked(ci) => ci,
                        _ => continue,
                    };
                    let width = self.span_width(cols, x, ci);
                    let cell = &self.cells[ci];
                    let show = match cell.valign {
                        None | Some("top") => true,
                        Some("middle") => {
                            yy as f64 >= ((height as f64 - cell.height as f64).floor()) / 2.0
                        }
                        Some("bottom") => yy as i64 >= height as i64 - cell.height as i64,
                        Some(_) => false,
                    };
                    let range = if show {
                        self.cells[ci].shift_line()
                    } else {
                        0..0
                    };
                    line.push_str("| ");
                    push_padded(line, &self.cells[ci].text[range], width - 3);
                    line.push(' ');
                }
                line.push_str("|\n");
            }
        }
        let d = if self.rows.len() == self.header_size {
            '='
        } else {
            '-'
        };
        let mut grid = String::with_capacity(usize::try_from(width).unwrap_or(0));
        let last_row = self.rows.last().expect("a table with columns has rows");
        for (x, col) in cols.iter().enumerate() {
            let above = last_row
                .slots
                .get(x)
                .is_some_and(|s| matches!(s, Slot::Cell(_) | Slot::Linked(_)));
            let c = if x == 0 || above { '+' } else { d };
            grid.push(c);
            push_repeat(&mut grid, d, col.width - 1);
        }
        grid.push('+');
        lines.push_str(&grid);
        lines
    }
}

fn align_marker(align: Option<&str>) -> Option<(&'static str, &'static str, i64)> {
    match align? {
        "left" => Some((":", "", 1)),
        "right" => Some(("", ":", 1)),
        "center" => Some((":", ":", 2)),
        "justify" => Some((">", "<", 2)),
        _ => None,
    }
}

fn valign_marker(valign: Option<&str>) -> Option<char> {
    match valign? {
        "top" => Some('^'),
        "bottom" => Some('v'),
        "middle" => Some('x'),
        _ => None,
    }
}

fn push_repeat(out: &mut String, c: char, n: i64) {
    // Tables are mostly padding and rules: copy runs of the usual characters in slices
    // rather than pushing them one character at a time.
    const RUN: usize = 64;
    const SPACES: &str = "                                                                ";
    const DASHES: &str = "----------------------------------------------------------------";
    const EQUALS: &str = "================================================================";
    let run = match c {
        ' ' => SPACES,
        '-' => DASHES,
        '=' => EQUALS,
        _ => {
            if n > 0 {
                out.extend(std::iter::repeat_n(c, n as usize));
            }
            return;
        }
    };
    let mut n = usize::try_from(n).unwrap_or(0);
    out.reserve(n);
    while n > 0 {
        let k = n.min(RUN);
        out.push_str(&run[..k]);
        n -= k;
    }
}

/// `text.padEnd(width)` appended to `out`.
fn push_padded(out: &mut String, text: &str, width: i64) {
    out.push_str(text);
    push_repeat(out, ' ', width - js_len(text) as i64);
}

/// Tabs become spaces to the next multiple of four (as the reference expands them).
fn expand_tabs(line: &str) -> String {
    if !line.contains('\t') {
        return line.to_owned();
    }
    const TABS: [&str; 4] = ["    ", "   ", "  ", " "];
    let mut out = line.to_owned();
    let mut from = 0;
    while let Some(rel) = out[from..].find('\t') {
        let idx = from + rel;
        let tab = TABS[js_len(&out[..idx]) % 4];
        out.replace_range(idx..idx + 1, tab);
        from = idx + 1;
    }
    out
}

/// Brings a copy of a cell's content to the state its first rendering (and the cleaning
/// after it) left the content in: cleaned, wrapped in a paragraph when all phrasing,
/// cleaned again. A second rendering starts from there, as the reference's does.
fn as_first_rendering_left(tree: &mut Vec<Node>) {
    crate::sanitize::sanitize_breaks(tree);
    super::state::wrap_phrasing(tree);
    crate::sanitize::sanitize_breaks(tree);
}

#[cfg(test)]
mod tests {
    use super::{as_first_rendering_left, distribute};
    use crate::markdown::{ImageRefs, State};
    use crate::model::Node;

    /// Every cell of every block of `html`.
    fn cells(html: &str) -> Vec<Vec<Node>> {
        let page = format!("<html><body><main><div>{html}</div></main></body></html>");
        let document = crate::ingest(&page, &crate::IngestOptions::default()).expect("ingests");
        let mut cells = Vec::new();
        for section in &document.sections {
            for node in &section.children {
                node.walk(&mut |n| {
                    if matches!(n.kind, crate::model::Kind::BlockCell { .. }) {
                        cells.push(n.children.clone());
                    }
                });
            }
        }
        cells
    }

    /// A cell rendered again is copied from the document and brought to where its first
    /// rendering left it, instead of kept: both give the same tree, whatever the cell holds
    /// (breaks that the cleaning moves or drops, nothing at all, flow, nested blocks).
    #[test]
    fn a_cell_copied_again_is_the_cell_its_first_rendering_left() {
        let html = concat!(
            "<div class=\"cards\"><div>",
            "<div><br>text<br></div>",
            "<div></div>",
            "<div><p><br></p><p>two <strong>paragraphs<br></strong></p></div>",
            "<div><em><br></em> lone <a href=\"/a\"><br>link</a></div>",
            "<div><ul><li>a<br></li><li><br></li></ul><h2>head<br>ing</h2></div>",
            "<div><div class=\"inner\"><div><div>nested<br></div></div></div></div>",
            "<div><img src=\"/i.png\" alt=\"i\"><br><br></div>",
            "<div>   </div>",
            "</div></div>",
        );
        let cells = cells(html);
        assert_eq!(cells.len(), 8, "the cells are found");
        let refs = ImageRefs::collect(&[]);
        for cell in cells {
            let mut state = State {
                stack: Vec::new(),
                index_stack: Vec::new(),
                bullet_current: None,
                bullet_last_used: None,
                line_width: Some(40),
                same_widths: i64::MIN..i64::MAX,
                attention: None,
                refs: &refs,
            };
            let mut rendered = cell.clone();
            state.render_cell_content(&mut rendered, true);
            crate::sanitize::sanitize_breaks(&mut rendered);
            let mut copied = cell.clone();
            as_first_rendering_left(&mut copied);
            assert_eq!(copied, rendered, "{cell:?}");
        }
    }

    #[test]
    fn distributes_like_the_reference() {
        assert_eq!(distribute(120.0, 1), vec![120]);
        assert_eq!(distribute(120.0, 7), vec![17, 17, 17, 18, 17, 17, 17]);
        assert_eq!(distribute(5.0, 2), vec![3, 2]);
    }
}
