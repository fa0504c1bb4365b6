//! The platform's grid tables (`@adobe/micromark-extension-gridtables` and the
//! from-markdown half of `@adobe/mdast-util-gridtables`): where they are in a document
//! ([`fence`]), and their cells, spans and sections ([`layout`]).
//!
//! The tokenizer follows the micromark construct state by state: columns are counted in
//! UTF-16 code units as micromark counts them, a cell ends only at a `|` or `+` standing at
//! a column some grid line has, a row is committed at each grid line, and a table needs
//! three lines. Header and footer are split at the first and second `=` grid line.

/// The info string of the fences that [`fence`] wraps grid tables in.
pub(crate) const MARKER_PREFIX: &str = "\u{e000}siteops-grid-table";

/// A document with each grid table replaced by an empty fenced code block whose info
/// string names it (`MARKER_PREFIX-N`), and the tables' layouts in that order.
pub(crate) struct Fenced {
    pub text: String,
    pub tables: Vec<Layout>,
}

/// Replaces every grid table of `text` by an empty fenced code block with the table's own
/// container prefix (list indentation, `>`), so that markdown-rs puts it where micromark
/// would put the table, without reading the table's lines as markdown (its cells are
/// parsed one by one later). `None` when the text has no grid table.
pub(crate) fn fence(text: &str) -> Option<Fenced> {
    if !text.contains("+-") && !text.contains("+=") && !text.contains("+:") {
        return None;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = String::with_capacity(text.len() + 64);
    let mut tables = Vec::new();
    // An open code fence: its character, length, and the prefix its lines continue with.
    let mut open_fence: Option<(u8, usize, String)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let prefix = container_prefix(line);
        // A fence inside a list item or block quote ends with its container.
        if let Some((_, _, continuation)) = &open_fence
            && !line.trim().is_empty()
            && !continues(line, continuation)
        {
            open_fence = None;
        }
        if let Some(fence) = fence_run(&line[prefix..]) {
            match &open_fence {
                None => open_fence = Some((fence.0, fence.1, as_continuation(&line[..prefix]))),
                Some((c, n, _))
                    if fence.0 == *c
                        && fence.1 >= *n
                        && line[prefix + fence.1..].trim().is_empty() =>
                {
                    open_fence = None
                }
                Some(_) => {}
            }
        }
        if open_fence.is_none()
            && let Some(end) = table_end(&lines, i, prefix)
        {
            let stripped: Vec<&str> = lines[i..end].iter().map(|l| &l[prefix..]).collect();
            if let Some(table) = layout(&stripped.join("\n")) {
                out.push_str(&line[..prefix]);
                out.push_str("```");
                out.push_str(MARKER_PREFIX);
                out.push_str(&format!("-{}\n", tables.len()));
                out.push_str(&as_continuation(&line[..prefix]));
                out.push_str("```");
                if end < lines.len() {
                    out.push('\n');
                }
                tables.push(table);
                i = end;
                continue;
            }
        }
        out.push_str(line);
        if i + 1 < lines.len() {
            out.push('\n');
        }
        i += 1;
    }
    (!tables.is_empty()).then_some(Fenced { text: out, tables })
}

/// A first line's container prefix as the following lines write it: list markers become
/// spaces.
fn as_continuation(prefix: &str) -> String {
    prefix
        .chars()
        .map(|c| if c == '>' { '>' } else { ' ' })
        .collect()
}

/// Whether `line` stays inside the container whose lines start with `continuation`.
fn continues(line: &str, continuation: &str) -> bool {
    if continuation.contains('>') {
        return line.starts_with(continuation.trim_end());
    }
    line.bytes().take_while(|&b| b == b' ').count() >= continuation.len()
}

/// The length of the container prefix of a line: block quote markers, list markers and
/// indentation before its content.
fn container_prefix(line: &str) -> usize {
    let b = line.as_bytes();
    let mut i = 0;
    loop {
        let start = i;
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        match b.get(i) {
            Some(b'>') => i += 1,
            Some(b'-' | b'*' | b'+') if b.get(i + 1) == Some(&b' ') => i += 2,
            Some(c) if c.is_ascii_digit() => {
                let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                if digits <= 9
                    && matches!(b.get(i + digits), Some(b'.' | b')'))
                    && b.get(i + digits + 1) == Some(&b' ')
                {
                    i += digits + 2;
                } else {
                    return i;
                }
            }
            _ => return i,
        }
        if i == start {
            return i;
        }
    }
}

/// A code fence opening or closing at the start of `content`: its character and length.
fn fence_run(content: &str) -> Option<(u8, usize)> {
    let c = *content.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = content.bytes().take_while(|&b| b == c).count();
    (n >= 3).then_some((c, n))
}

/// Where the grid table starting at line `start` (content at byte `prefix`) ends: the
/// first line that does not continue it.
fn table_end(lines: &[&str], start: usize, prefix: usize) -> Option<usize> {
    let first = lines[start].as_bytes();
    if first.get(prefix) != Some(&b'+')
        || !matches!(first.get(prefix + 1), Some(b'-' | b'=' | b':' | b'>'))
    {
        return None;
    }
    let mut end = start + 1;
    while let Some(line) = lines.get(end) {
        let b = line.as_bytes();
        let continues = b.len() > prefix
            && b[..prefix].iter().all(|&c| c == b' ' || c == b'>')
            && matches!(b[prefix], b'+' | b'|');
        if !continues {
            break;
        }
        end += 1;
    }
    (end - start >= 3).then_some(end)
}

/// A table's cells in the order they were opened, and its rows by section.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Layout {
    pub cells: Vec<CellSpec>,
    pub header: Vec<Vec<usize>>,
    pub body: Vec<Vec<usize>>,
    pub footer: Vec<Vec<usize>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct CellSpec {
    pub lines: Vec<String>,
    pub col_span: usize,
    pub row_span: usize,
    pub align: Option<&'static str>,
    pub valign: Option<&'static str>,
}

#[derive(Debug, Clone)]
enum Item {
    Divider {
        start: usize,
        end: usize,
        align: Option<&'static str>,
        valign: Option<&'static str>,
    },
    Cell {
        start: usize,
        end: usize,
        text: String,
    },
}

struct RowLine {
    /// `-` or `=` for a grid line.
    kind: Option<u16>,
    items: Vec<Item>,
}

const PLUS: u16 = b'+' as u16;
const BAR: u16 = b'|' as u16;

/// Tokenizes one line (UTF-16, as micromark reads it); `None` where micromark says `nok`.
fn tokenize_line(units: &[u16], cols: &mut Vec<usize>) -> Option<RowLine> {
    let mut row = RowLine {
        kind: None,
        items: Vec::new(),
    };
    if !matches!(units.first(), Some(&PLUS | &BAR)) {
        return None;
    }
    let mut i = 1;
    let mut col = 0usize;
    let mut num_cols = 0;
    while let Some(&c) = units.get(i) {
        if matches!(c, 0x2d | 0x3d | 0x3a | 0x3e) {
            // A grid divider.
            let start = col;
            col += 1;
            let mut align = match c {
                0x3a => Some("left"),
                0x3e => Some("justify"),
                _ => None,
            };
            let mut valign = None;
            i += 1;
            // `gridDivider`, then `gridDividerEnd`.
            loop {
                let c = *units.get(i)?;
                col += 1;
                match c {
                    0x2d | 0x3d => {
                        row.kind.get_or_insert(c);
                        i += 1;
                    }
                    0x3a => {
                        align = match align {
                            None => Some("right"),
                            Some("left") => Some("center"),
                            _ => return None,
                        };
                        i += 1;
                        break;
                    }
                    0x3c => {
                        if align != Some("justify") {
                            return None;
                        }
                        i += 1;
                        break;
                    }
                    0x76 | 0x78 | 0x5e => {
                        if valign.is_some() {
                            return None;
                        }
                        valign = Some(match c {
                            0x76 => "bottom",
                            0x78 => "middle",
                            _ => "top",
                        });
                        i += 1;
                    }
                    PLUS | BAR => {
                        col -= 1;
                        break;
                    }
                    _ => return None,
                }
            }
            let c = *units.get(i)?;
            if c != PLUS && c != BAR {
                return None;
            }
            col += 1;
            if !cols.contains(&col) {
                cols.push(col);
                cols.sort_unstable();
            }
            row.items.push(Item::Divider {
                start,
                end: col,
                align,
                valign,
            });
            i += 1;
            num_cols += 1;
            continue;
        }
        // A cell.
        let start = col;
        let text_start = i;
        col += 1;
        i += 1;
        let mut blank = c == b' ' as u16 || c == b'\t' as u16;
        loop {
            let Some(&c) = units.get(i) else {
                if blank {
                    // Discarded: white space up to the end of the line.
                    return finish(row, num_cols);
                }
                return None;
            };
            if blank {
                if c == b' ' as u16 || c == b'\t' as u16 {
                    col += 1;
                    i += 1;
                    continue;
                }
                blank = false;
            }
            col += 1;
            if (c == BAR || c == PLUS) && cols.contains(&col) {
                row.items.push(Item::Cell {
                    start,
                    end: col,
                    text: String::from_utf16_lossy(&units[text_start..i]),
                });
                i += 1;
                num_cols += 1;
                break;
            }
            i += 1;
            if c == b'\\' as u16 && matches!(units.get(i), Some(&0x5c | &PLUS | &BAR)) {
                col += 1;
                i += 1;
            }
        }
    }
    finish(row, num_cols)
}

fn finish(row: RowLine, num_cols: usize) -> Option<RowLine> {
    (num_cols > 0).then_some(row)
}

/// The layout of the table whose lines (without container prefixes) are `text`, or `None`
/// when micromark would not read them as a grid table.
pub(crate) fn layout(text: &str) -> Option<Layout> {
    let mut cols = vec![0usize];
    let mut rows = Vec::new();
    let mut units: Vec<u16> = Vec::new();
    for line in text.split('\n') {
        units.clear();
        units.extend(line.encode_utf16());
        rows.push(tokenize_line(&units, &mut cols)?);
    }
    if rows.len() < 3 {
        return None;
    }
    Some(Builder::new(cols).build(rows))
}

/// `gridTablesFromMarkdown`: cells collected across lines, spans and sections.
struct Builder {
    cols: Vec<usize>,
    layout: Layout,
    col_pos: usize,
    is_divider: bool,
    /// Cells still open through a row span, by column.
    pending: Vec<Option<usize>>,
    /// The cells of the current row, by column.
    cells: Vec<Option<usize>>,
    dividers: Vec<Option<(Option<&'static str>, Option<&'static str>)>>,
}

#[derive(Clone, Copy, PartialEq)]
enum Part {
    Header,
    Body,
    Footer,
}

impl Builder {
    fn new(cols: Vec<usize>) -> Self {
        Builder {
            cols,
            layout: Layout::default(),
            col_pos: 0,
            is_divider: false,
            pending: Vec::new(),
            cells: Vec::new(),
            dividers: Vec::new(),
        }
    }

    fn span(&self, start: usize, end: usize) -> usize {
        let index = |c| self.cols.iter().position(|&x| x == c);
        match (index(start), index(end)) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => 0,
        }
    }

    fn build(mut self, rows: Vec<RowLine>) -> Layout {
        let fat: Vec<usize> = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.kind == Some(b'=' as u16))
            .map(|(i, _)| i)
            .collect();
        // `resolveHeaderAndFooter`: a header when the first `=` line is not the first
        // line, a footer from the second `=` line on.
        let header_end = fat.first().copied().filter(|&i| i > 0);
        let footer_start = fat.get(1).copied();
        let mut part = if header_end.is_some() {
            Part::Header
        } else {
            Part::Body
        };
        for (index, row) in rows.into_iter().enumerate() {
            if Some(index) == header_end {
                self.exit_part(part);
                part = Part::Body;
            }
            if Some(index) == footer_start {
                self.exit_part(part);
                part = Part::Footer;
            }
            self.row_line(row, part);
        }
        self.exit_part(part);
        self.layout
    }

    fn exit_part(&mut self, part: Part) {
        if !self.cells.is_empty() {
            self.commit(part);
            self.pending.clear();
        }
    }

    fn commit(&mut self, part: Part) {
        let row: Vec<usize> = self.cells.iter().flatten().copied().collect();
        let target = match part {
            Part::Header => &mut self.layout.header,
            Part::Body => &mut self.layout.body,
            Part::Footer => &mut self.layout.footer,
        };
        target.push(row);
        self.cells.clear();
    }

    fn row_line(&mut self, row: RowLine, part: Part) {
        self.is_divider = row.kind.is_some();
        self.col_pos = 0;
        if self.is_divider {
            self.dividers.clear();
        }
        for item in row.items {
            match item {
                Item::Divider {
                    start,
                    end,
                    align,
                    valign,
                } => {
                    for _ in 0..self.span(start, end) {
                        set(&mut self.pending, self.col_pos, None);
                        set(&mut self.dividers, self.col_pos, Some((align, valign)));
                        self.col_pos += 1;
                    }
                }
                Item::Cell { start, end, text } => self.cell(start, end, text),
            }
        }
        if self.is_divider && !self.cells.is_empty() {
            self.commit(part);
        }
    }

    fn cell(&mut self, start: usize, end: usize, text: String) {
        let col_span = self.span(start, end);
        let pos = self.col_pos;
        let mut cell = self.pending.get(pos).copied().flatten();
        if self.is_divider {
            if cell.is_none() {
                cell = self.cells.get(pos).copied().flatten();
                set(&mut self.pending, pos, cell);
            }
            if let Some(c) = cell {
                self.layout.cells[c].row_span += 1;
            }
        }
        if let Some(c) = cell {
            self.layout.cells[c].lines.push(text);
            self.col_pos += col_span;
            return;
        }
        let index = match self.cells.get(pos).copied().flatten() {
            Some(index) => index,
            None => {
                let (align, valign) = self
                    .dividers
                    .get(pos)
                    .copied()
                    .flatten()
                    .unwrap_or_default();
                self.layout.cells.push(CellSpec {
                    lines: Vec::new(),
                    col_span,
                    row_span: 1,
                    align,
                    valign,
                });
                let index = self.layout.cells.len() - 1;
                set(&mut self.cells, pos, Some(index));
                index
            }
        };
        self.layout.cells[index].lines.push(text);
        self.col_pos += col_span;
    }
}

/// `array[index] = value` with JavaScript's growth of sparse arrays.
fn set<T: Clone>(list: &mut Vec<Option<T>>, index: usize, value: Option<T>) {
    if list.len() <= index {
        list.resize(index + 1, None);
    }
    list[index] = value;
}

/// `multiline`: trailing blank lines dropped, the common indentation removed, line ends
/// trimmed.
pub(crate) fn multiline(lines: &[String]) -> Vec<String> {
    let blank = |l: &str| l.chars().all(js_space);
    let mut end = lines.len();
    while end > 0 && blank(&lines[end - 1]) {
        end -= 1;
    }
    let lines = &lines[..end];
    let indent = lines
        .iter()
        .filter(|l| !blank(l))
        .map(|l| l.bytes().take_while(|&b| b == b' ').count())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| {
            let rest = l.get(indent..).unwrap_or("");
            rest.trim_end_matches(js_space).to_owned()
        })
        .collect()
}

/// JavaScript's `\s` (and `trimEnd`'s white space).
fn js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// A trailing odd run of `\` before an empty line (or the end) is dropped; a line that was
/// only that `\` is dropped.
pub(crate) fn drop_trailing_backslashes(lines: &mut Vec<String>) {
    let mut i = 0;
    while i < lines.len() {
        let next_empty = lines.get(i + 1).is_none_or(String::is_empty);
        let line = &lines[i];
        if line.ends_with('\\') && next_empty {
            let run = line.bytes().rev().take_while(|&b| b == b'\\').count();
            if run % 2 == 1 {
                if line.len() == 1 {
                    lines.remove(i);
                    continue;
                }
                lines[i].pop();
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_sections() {
        let text = "+-----+-----+\n| a   | b   |\n+=====+=====+\n| c         |\n+-----+-----+\n| d   | e   |\n|     +-----+\n|     | f   |\n+-----+-----+";
        let layout = layout(text).expect("a table");
        assert_eq!(layout.header, vec![vec![0, 1]]);
        assert_eq!(layout.body, vec![vec![2], vec![3, 4], vec![5]]);
        assert_eq!(layout.cells[2].col_span, 2);
        assert_eq!(layout.cells[3].row_span, 2);
        assert_eq!(layout.cells[3].lines, vec![" d   ", "     ", "     "]);
    }

    #[test]
    fn fences_keep_container_prefixes() {
        let text = "- +---+\n  | a |\n  +---+\n\ntext";
        let fenced = fence(text).expect("a table");
        assert_eq!(
            fenced.text,
            format!("- ```{MARKER_PREFIX}-0\n  ```\n\ntext")
        );
        assert_eq!(fenced.tables[0].cells[0].lines, vec![" a "]);
    }

    #[test]
    fn two_lines_are_not_a_table() {
        assert!(fence("+---+\n| a |\n\nb").is_none());
    }
}
