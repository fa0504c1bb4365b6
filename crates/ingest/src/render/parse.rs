//! The stored markdown parsed as the reference pipeline parses it (`parse-markdown.js`):
//! remark-parse (micromark) with GFM but no autolink literals (`remarkGfmNoLink`), the
//! platform's grid tables (`@adobe/remark-gridtables`), then `dereference` (references
//! replaced by the definitions they name).
//!
//! micromark itself is the `markdown` crate (markdown-rs, a port of micromark by its
//! author). It has no extension points, so grid tables are found before it runs
//! (`gridtable::fence`: each table is replaced by an empty fenced code block naming it,
//! which keeps its container prefixes and interrupts a paragraph as the grid table
//! construct does) and put back in the fence's place afterwards, cells parsed one by one.
//!
//! markdown-rs holds some 60 to 90 bytes per byte of text while it parses (its events, 24
//! bytes each in the vendored copy, two or so per byte, and its tree), so a long page is
//! parsed in chunks cut where the pieces parse as the whole does (`chunks`). One paragraph
//! is never cut (what its emphasis and links match can span all of it): a page that is one
//! long paragraph costs that much, some 25 times the HTML page it came from.
//!
//! A grid table's cells are parsed one by one, and each is converted as soon as it is
//! parsed unless it defines or refers (`ParsedCell`): a page that is one large table held
//! every cell's markdown-rs tree (and a copy of the table's lines) until the end.

use std::collections::{HashMap, HashSet};

use markdown::mdast::{AlignKind, Node};
use markdown::{Constructs, ParseOptions};

use super::gridtable;
use super::mdast::{GridCell, GridTable, Md};

fn options() -> ParseOptions {
    ParseOptions {
        constructs: Constructs {
            gfm_autolink_literal: false,
            ..Constructs::gfm()
        },
        gfm_strikethrough_single_tilde: true,
        ..ParseOptions::default()
    }
}

/// `markdown::to_mdast`, which must never take a page (or the server's request) down with
/// it. markdown-rs 1.0 panics on a few valid inputs: an unclosed fenced code block in a
/// list followed by a list of the other kind (`- ~~~~o~~~~`, a blank line, `1. x`: what
/// `<s><s>o</s></s>` in a list item converts to; the failing test of wooorm/markdown-rs#23,
/// open since 2022). Such text is
/// parsed again without fenced code (the fence then reads as text, where micromark shows a
/// code block); should that fail too, the page is one paragraph of its text.
pub(crate) fn to_mdast(source: &str, options: &ParseOptions) -> Node {
    let attempt = |options: &ParseOptions| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            markdown::to_mdast(source, options)
        }))
    };
    // Without MDX, markdown-rs returns no errors.
    let root = |children| {
        Node::Root(markdown::mdast::Root {
            children,
            position: None,
        })
    };
    if let Ok(parsed) = attempt(options) {
        return parsed.unwrap_or_else(|_| root(Vec::new()));
    }
    let without_fences = ParseOptions {
        constructs: Constructs {
            code_fenced: false,
            ..options.constructs.clone()
        },
        gfm_strikethrough_single_tilde: options.gfm_strikethrough_single_tilde,
        math_text_single_dollar: options.math_text_single_dollar,
        ..ParseOptions::default()
    };
    if let Ok(parsed) = attempt(&without_fences) {
        return parsed.unwrap_or_else(|_| root(Vec::new()));
    }
    root(vec![Node::Paragraph(markdown::mdast::Paragraph {
        children: vec![Node::Text(markdown::mdast::Text {
            value: source.to_string(),
            position: None,
        })],
        position: None,
    })])
}

/// Whether a panic being reported is markdown-rs's own: one [`to_mdast`] catches. Panic
/// hooks (the binary's, the fuzz target's) report those as handled, not as crashes.
pub fn panicked_in_markdown_rs(info: &std::panic::PanicHookInfo<'_>) -> bool {
    info.location()
        .is_some_and(|at| at.file().contains("/markdown-1."))
}

/// Definitions by identifier (the last one in document order wins, as `dereference` has it).
type Definitions = HashMap<String, (String, Option<String>)>;

/// Parses the stored markdown into the pipeline's mdast: line endings normalised, grid
/// tables, references dereferenced.
pub(crate) fn parse(markdown: &str) -> Md {
    let text = if markdown.contains('\r') {
        markdown.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        std::borrow::Cow::Borrowed(markdown)
    };
    // markdown-rs holds tens of bytes per byte of text while it parses (its events and
    // their links): a page parsed in one piece peaked at 190 times its markdown (700 before
    // the vendored copy's events shrank). Parsed a chunk at a time, each converted and
    // dropped before the next, the peak is the tree the pipeline keeps plus one chunk's
    // parse.
    parse_in_chunks(&text, CHUNK)
}

fn parse_in_chunks(text: &str, target: usize) -> Md {
    let mut children = Vec::new();
    for chunk in chunks(text, target) {
        let tree = parse_tree(chunk, &options(), &[]);
        let mut defs = Definitions::new();
        collect_definitions(&tree, &mut defs);
        let mut used = HashSet::new();
        collect_references(&tree, &defs, &mut used);
        let cx = Cx { defs, used };
        children.extend(cx.children(&tree, &tree.node));
    }
    children.shrink_to_fit();
    Md::Root(children)
}

/// The size of text [`chunks`] aims for: large enough that markdown-rs's cost per call is
/// small beside its text, small enough that its parse of one chunk is a few MiB.
const CHUNK: usize = 8 * 1024;

/// The text cut, near every `target` bytes, where parsing the pieces one by one gives the
/// same tree as parsing it whole: before a line that follows a blank line that closes a
/// top-level paragraph. Such a paragraph is a run of lines, after a blank line (or the
/// start), each starting with a character that starts or continues a paragraph and nothing
/// else ([`paragraph_start`]): no container is open after it (a list item or block quote
/// ends at a line that is neither indented nor marked) and the blank line closes it, so
/// the next piece starts from the document's top level as the whole would. The text stays
/// whole when it holds what spans blank lines or refers across them: fenced code, the HTML
/// blocks that end at a marker (comments, `pre`, `script` …), definitions and footnotes.
fn chunks(text: &str, target: usize) -> Vec<&str> {
    let spans_blank_lines = ["```", "~~~", "]:", "[^", "<!", "<?"]
        .iter()
        .any(|needle| text.contains(needle))
        || ["<pre", "<script", "<style", "<textarea"]
            .iter()
            .any(|tag| {
                memchr::memmem::find_iter(text.as_bytes(), "<").any(|at| {
                    text.as_bytes()[at..]
                        .get(..tag.len())
                        .is_some_and(|s| s.eq_ignore_ascii_case(tag.as_bytes()))
                })
            });
    if text.len() <= target || spans_blank_lines {
        return vec![text];
    }
    let mut pieces = Vec::new();
    let mut start = 0;
    // Whether every line since the last blank line (at a line start) starts a paragraph.
    let mut paragraph = false;
    let mut after_blank = true;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches('\n');
        if content.is_empty() {
            if paragraph && at - start >= target {
                // Cut after this blank line: the next line starts the next piece.
                pieces.push(&text[start..at + line.len()]);
                start = at + line.len();
            }
            paragraph = false;
            after_blank = true;
        } else {
            let starts = paragraph_start(content);
            paragraph = if after_blank {
                starts
            } else {
                paragraph && starts
            };
            after_blank = false;
        }
        at += line.len();
    }
    if start < text.len() {
        pieces.push(&text[start..]);
    }
    pieces
}

/// Whether a line with this text, at the top level, starts or continues a paragraph and
/// can be nothing else: it starts with a letter (any script), a link or image, an escape,
/// or punctuation no block construct begins with; or with emphasis (`*`, `_`) that is no
/// list item marker (`*` then white space) and no thematic break (those and white space).
fn paragraph_start(line: &str) -> bool {
    let bytes = line.as_bytes();
    if matches!(bytes.first(), Some(b'*' | b'_')) {
        let marker = bytes[0] == b'*' && matches!(bytes.get(1), None | Some(b' ' | b'\t'));
        let rule = bytes
            .iter()
            .all(|b| matches!(b, b'*' | b'_' | b' ' | b'\t'));
        return !marker && !rule;
    }
    line.chars().next().is_some_and(|c| {
        c.is_alphabetic()
            || matches!(
                c,
                '[' | '!'
                    | '\\'
                    | '('
                    | '"'
                    | '\''
                    | ','
                    | '.'
                    | ';'
                    | '?'
                    | '@'
                    | '&'
                    | '%'
                    | '$'
                    | '/'
            )
    })
}

/// One markdown-rs tree with the grid tables found in its text (cells parsed recursively).
struct Tree {
    node: Node,
    /// The text markdown-rs parsed (positions point into it).
    source: String,
    /// The grid tables of this tree, in document order.
    tables: Vec<RawGrid>,
    /// The parsed cells of every table, flattened.
    cells: Vec<ParsedCell>,
}

/// A grid table's cell: converted as soon as it is parsed when it neither defines nor
/// refers (then its conversion depends on nothing else in the document, and markdown-rs's
/// tree, several times the size of the converted one, is dropped at once: a page that is
/// one large table held every cell's tree), else kept whole until the document's
/// definitions are known.
enum ParsedCell {
    /// Taken when its table is converted (once: each placeholder is read once).
    Converted(std::cell::Cell<Vec<Md>>),
    Parsed(Tree),
}

impl ParsedCell {
    /// `listed_once`: whether the table's rows list the cell once (they do, unless its
    /// layout is odd): a converted cell can be taken only once.
    fn new(tree: Tree, listed_once: bool) -> ParsedCell {
        if !listed_once || refers_or_defines(&tree) || keep_cells_for_a_test() {
            return ParsedCell::Parsed(tree);
        }
        let alone = Cx {
            defs: Definitions::new(),
            used: HashSet::new(),
        };
        ParsedCell::Converted(std::cell::Cell::new(alone.children(&tree, &tree.node)))
    }
}

#[cfg(test)]
thread_local! {
    /// Set by a test to keep every cell's tree until its table is converted.
    static KEEP_CELLS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a test compares early conversion with cells kept whole.
fn keep_cells_for_a_test() -> bool {
    #[cfg(test)]
    return KEEP_CELLS.get();
    #[cfg(not(test))]
    false
}

/// Whether a tree (its grid cells included) has a definition or a reference: the nodes
/// whose conversion reads the document's definitions.
fn refers_or_defines(tree: &Tree) -> bool {
    let mut found = false;
    walk(tree, &mut |node| {
        found |= matches!(
            node,
            Node::Definition(_) | Node::LinkReference(_) | Node::ImageReference(_)
        );
    });
    found
}

struct RawGrid {
    /// `None` when the placeholder names no table (never, unless a page writes one).
    layout: Option<gridtable::Layout>,
    /// Index into `Tree::cells` of the first cell of `layout`.
    first_cell: usize,
}

fn parse_tree(text: &str, options: &ParseOptions, outer_definitions: &[String]) -> Tree {
    let fenced = gridtable::fence(text);
    let source = fenced.as_ref().map_or(text, |f| f.text.as_str());
    let node = to_mdast(source, options);
    let source = source.to_owned();
    let mut tables = Vec::new();
    let mut cells = Vec::new();
    if let Some(fenced) = fenced {
        // The definitions a cell may use: those of the whole document.
        let mut defined: Vec<String> = outer_definitions.to_vec();
        collect_identifiers(&node, &mut defined);
        let mut markers = Vec::new();
        collect_grid_markers(&node, &mut markers);
        let mut layouts = fenced.tables;
        for (at, &index) in markers.iter().enumerate() {
            let first_cell = cells.len();
            // A table is named by one placeholder, unless the page wrote another with the
            // same name: only then is its layout copied.
            let named_again = markers[at + 1..].contains(&index);
            let mut layout = match layouts.get_mut(index) {
                Some(layout) if named_again => Some(layout.clone()),
                Some(layout) => Some(std::mem::take(layout)),
                None => None,
            };
            if let Some(layout) = &mut layout {
                let mut listed = vec![0_usize; layout.cells.len()];
                let rows = layout
                    .header
                    .iter()
                    .chain(&layout.body)
                    .chain(&layout.footer);
                for &cell in rows.flatten() {
                    if let Some(count) = listed.get_mut(cell) {
                        *count += 1;
                    }
                }
                for (cell, count) in layout.cells.iter_mut().zip(listed) {
                    // The lines are read once: parsed, the cell needs only its spans.
                    let lines = std::mem::take(&mut cell.lines);
                    let tree = parse_cell(&lines, options, &defined);
                    cells.push(ParsedCell::new(tree, count == 1));
                }
            }
            tables.push(RawGrid { layout, first_cell });
        }
    }
    Tree {
        node,
        source,
        tables,
        cells,
    }
}

/// A cell's content, as `exitTable` of `mdast-util-gridtables` prepares and parses it.
fn parse_cell(lines: &[String], options: &ParseOptions, defined: &[String]) -> Tree {
    let mut lines = gridtable::multiline(lines);
    gridtable::drop_trailing_backslashes(&mut lines);
    // micromark keeps the definitions it has seen normalised to upper case: the dummies
    // are written so, and taken out by that label.
    let mut fake = Vec::new();
    for def in defined {
        let key = format!("[{}]", def.to_lowercase());
        if lines.iter().any(|l| l.contains(&key)) {
            let label = def.to_uppercase();
            lines.push(String::new());
            lines.push(format!("[{label}]: dummy"));
            fake.push(label);
        }
    }
    if let Some(tree) = plain_cell(&lines) {
        return tree;
    }
    let mut tree = parse_tree(&lines.join("\n"), options, defined);
    if !fake.is_empty()
        && let Node::Root(root) = &mut tree.node
    {
        root.children.retain(|c| {
            !matches!(c, Node::Definition(d) if d.label.as_ref().is_some_and(|l| fake.contains(l)))
        });
    }
    unescape_code(&mut tree.node);
    tree
}

/// A cell of plain text (letters, digits, spaces, a little punctuation and backslash
/// escapes, in paragraphs separated by blank lines) needs no parser: such cells are most
/// cells, and markdown-rs costs far more per call than their text. Anything markdown could
/// read otherwise (a marker, a delimiter, a reference, HTML, an indented line that could be
/// code, a hard break) goes to the parser.
fn plain_cell(lines: &[String]) -> Option<Tree> {
    use markdown::mdast::{Paragraph, Root, Text};
    let mut children = Vec::new();
    let mut value = String::new();
    for line in lines {
        if line.is_empty() {
            if !value.is_empty() {
                children.push(std::mem::take(&mut value));
            }
            continue;
        }
        let content = line.trim_start_matches(' ');
        if value.is_empty() && content.len() != line.len() {
            return None;
        }
        let first = content.chars().next()?;
        if first.is_ascii_digit() {
            return None;
        }
        if !value.is_empty() {
            value.push('\n');
        }
        let mut chars = content.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.peek() {
                    Some(&next) if next.is_ascii_punctuation() => {
                        value.push(next);
                        chars.next();
                    }
                    Some(_) => value.push('\\'),
                    None => return None,
                },
                ' ' | ',' | '.' | '?' | '/' | '@' | '\'' | '"' | ':' | ';' | '%' | '$' => {
                    value.push(c)
                }
                c if c.is_alphanumeric() => value.push(c),
                c if !c.is_ascii() && !c.is_whitespace() && !c.is_control() => value.push(c),
                _ => return None,
            }
        }
        if value.ends_with(' ') {
            return None;
        }
    }
    if !value.is_empty() {
        children.push(value);
    }
    let children = children
        .into_iter()
        .map(|value| {
            Node::Paragraph(Paragraph {
                children: vec![Node::Text(Text {
                    value,
                    position: None,
                })],
                position: None,
            })
        })
        .collect();
    Some(Tree {
        node: Node::Root(Root {
            children,
            position: None,
        }),
        source: String::new(),
        tables: Vec::new(),
        cells: Vec::new(),
    })
}

/// `unescapeCode`: escaped pipes and plusses in code, and the non-break-here marks.
fn unescape_code(node: &mut Node) {
    match node {
        Node::InlineCode(c) => c.value = unescape(&c.value),
        Node::Code(c) => {
            c.value = unescape(&c.value);
            if c.value.contains('\u{83}') {
                c.value = NON_BREAK_HERE.replace_all(&c.value, "").into_owned();
            }
        }
        _ => {
            if let Some(children) = node.children_mut() {
                children.iter_mut().for_each(unescape_code);
            }
        }
    }
}

static NON_BREAK_HERE: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| regex::Regex::new("\u{83} ?\n").expect("valid regex"));

/// `value.replace(/\\([+|])/gm, '$1')`.
fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('+' | '|')) {
            continue;
        }
        out.push(c);
    }
    out
}

fn collect_identifiers(node: &Node, out: &mut Vec<String>) {
    if let Node::Definition(d) = node
        && !out.contains(&d.identifier)
    {
        out.push(d.identifier.clone());
    }
    if let Some(children) = node.children() {
        children.iter().for_each(|c| collect_identifiers(c, out));
    }
}

/// The table index of each grid table placeholder, in document order.
fn collect_grid_markers(node: &Node, out: &mut Vec<usize>) {
    if let Node::Code(code) = node
        && let Some(index) = grid_index(code.lang.as_deref())
    {
        out.push(index);
    }
    if let Some(children) = node.children() {
        children.iter().for_each(|c| collect_grid_markers(c, out));
    }
}

/// Every node of a tree and of its grid cells, in document order.
fn walk<'a>(tree: &'a Tree, f: &mut impl FnMut(&'a Node)) {
    fn nodes<'a>(node: &'a Node, f: &mut impl FnMut(&'a Node)) {
        f(node);
        if let Some(children) = node.children() {
            children.iter().for_each(|c| nodes(c, f));
        }
    }
    nodes(&tree.node, f);
    for cell in &tree.cells {
        if let ParsedCell::Parsed(cell) = cell {
            walk(cell, f);
        }
    }
}

fn collect_definitions(tree: &Tree, out: &mut Definitions) {
    walk(tree, &mut |node| {
        if let Node::Definition(d) = node {
            out.insert(d.identifier.clone(), (d.url.clone(), d.title.clone()));
        }
    });
}

fn collect_references(tree: &Tree, defs: &Definitions, out: &mut HashSet<String>) {
    walk(tree, &mut |node| match node {
        Node::LinkReference(markdown::mdast::LinkReference { identifier, .. })
        | Node::ImageReference(markdown::mdast::ImageReference { identifier, .. })
            if defs.contains_key(identifier) =>
        {
            out.insert(identifier.clone());
        }
        _ => {}
    });
}

/// The conversion of markdown-rs trees into [`Md`], with `dereference` applied.
struct Cx {
    defs: Definitions,
    /// Definitions some reference uses: `dereference` removes them.
    used: HashSet<String>,
}

impl Cx {
    fn children(&self, tree: &Tree, node: &Node) -> Vec<Md> {
        let mut grid = 0;
        self.list(
            tree,
            node.children().map(Vec::as_slice).unwrap_or(&[]),
            &mut grid,
        )
    }

    fn list(&self, tree: &Tree, nodes: &[Node], grid: &mut usize) -> Vec<Md> {
        // Sized to the nodes: collected from a filter, a list of one node took room for four.
        let mut list = Vec::with_capacity(nodes.len());
        list.extend(nodes.iter().filter_map(|n| self.one(tree, n, grid)));
        list
    }

    fn one(&self, tree: &Tree, node: &Node, grid: &mut usize) -> Option<Md> {
        let kids = |children: &[Node], grid: &mut usize| self.list(tree, children, grid);
        Some(match node {
            Node::Root(r) => Md::Root(kids(&r.children, grid)),
            Node::Paragraph(p) => Md::Paragraph(kids(&p.children, grid)),
            Node::Heading(h) => {
                let mut children = kids(&h.children, grid);
                if let Some(lost) = lost_heading_start(&tree.source, h) {
                    match children.first_mut() {
                        Some(Md::Text(text)) => text.insert_str(0, lost),
                        _ => children.insert(0, Md::Text(lost.to_owned())),
                    }
                }
                Md::Heading {
                    depth: h.depth,
                    children,
                }
            }
            Node::ThematicBreak(_) => Md::ThematicBreak,
            Node::Blockquote(b) => Md::Blockquote(kids(&b.children, grid)),
            Node::List(l) => Md::List {
                ordered: l.ordered,
                start: l.start,
                spread: l.spread,
                children: kids(&l.children, grid),
            },
            Node::ListItem(i) => Md::ListItem {
                spread: i.spread && blank_line_between(&i.children),
                checked: i.checked,
                children: kids(&i.children, grid),
            },
            Node::Code(c)
                if grid_index(c.lang.as_deref()).is_some() && *grid < tree.tables.len() =>
            {
                let raw = &tree.tables[*grid];
                *grid += 1;
                let layout = raw.layout.as_ref()?;
                Md::GridTable(self.grid_table(tree, raw, layout))
            }
            Node::Code(c) => Md::Code {
                lang: c.lang.clone(),
                value: c.value.clone(),
            },
            Node::Html(h) => Md::Html(h.value.clone()),
            Node::Definition(d) if self.used.contains(&d.identifier) => return None,
            Node::Definition(_) => Md::Definition,
            Node::Table(t) => Md::Table {
                align: t
                    .align
                    .iter()
                    .map(|a| match a {
                        AlignKind::Left => Some("left"),
                        AlignKind::Right => Some("right"),
                        AlignKind::Center => Some("center"),
                        AlignKind::None => None,
                    })
                    .collect(),
                rows: t
                    .children
                    .iter()
                    .map(|row| {
                        let cells = row.children().map(Vec::as_slice).unwrap_or(&[]);
                        cells
                            .iter()
                            .map(|cell| {
                                kids(cell.children().map(Vec::as_slice).unwrap_or(&[]), grid)
                            })
                            .collect()
                    })
                    .collect(),
            },
            Node::Text(t) => Md::Text(t.value.clone()),
            Node::Emphasis(e) => Md::Emphasis(kids(&e.children, grid)),
            Node::Strong(s) => Md::Strong(kids(&s.children, grid)),
            Node::Delete(d) => Md::Delete(kids(&d.children, grid)),
            Node::InlineCode(c) => Md::InlineCode(c.value.clone()),
            Node::Break(_) => Md::Break,
            Node::Link(l) => Md::Link {
                url: l.url.clone(),
                title: l.title.clone(),
                children: kids(&l.children, grid),
            },
            Node::Image(i) => Md::Image {
                url: i.url.clone(),
                title: i.title.clone(),
                alt: i.alt.clone(),
            },
            Node::LinkReference(r) => {
                let (url, title) = self.defs.get(&r.identifier)?;
                Md::Link {
                    url: url.clone(),
                    title: title.clone(),
                    children: kids(&r.children, grid),
                }
            }
            Node::ImageReference(r) => {
                let (url, title) = self.defs.get(&r.identifier)?;
                Md::Image {
                    url: url.clone(),
                    title: title.clone(),
                    alt: r.alt.clone(),
                }
            }
            // Footnotes are not written by the converter (it escapes `[^`); their text
            // is kept.
            other => {
                let text = other.to_string();
                if text.is_empty() {
                    return None;
                }
                Md::Text(text)
            }
        })
    }

    fn grid_table(&self, tree: &Tree, raw: &RawGrid, layout: &gridtable::Layout) -> GridTable {
        let rows = |part: &[Vec<usize>]| -> Vec<Vec<GridCell>> {
            part.iter()
                .map(|row| {
                    row.iter()
                        .map(|&i| {
                            let spec = &layout.cells[i];
                            let children = match &tree.cells[raw.first_cell + i] {
                                ParsedCell::Converted(children) => children.take(),
                                ParsedCell::Parsed(cell) => self.children(cell, &cell.node),
                            };
                            GridCell {
                                col_span: spec.col_span,
                                row_span: spec.row_span,
                                align: spec.align,
                                valign: spec.valign,
                                children,
                            }
                        })
                        .collect()
                })
                .collect()
        };
        GridTable {
            header: rows(&layout.header),
            body: rows(&layout.body),
            footer: rows(&layout.footer),
        }
    }
}

/// The `#` run (and the white space after it) that markdown-rs drops from the start of an
/// ATX heading's content: `# # a` is a heading whose text is `# a` in micromark, only a
/// closing run is not content.
fn lost_heading_start<'a>(source: &'a str, heading: &markdown::mdast::Heading) -> Option<&'a str> {
    let start = heading.position.as_ref()?.start.offset;
    let first = heading.children.first()?.position()?.start.offset;
    let line = source.get(start..first)?;
    let opening = line.trim_start_matches(' ');
    let after_opening = opening.strip_prefix(&"#".repeat(usize::from(heading.depth)))?;
    let lost = after_opening.trim_start_matches([' ', '\t']);
    (lost.starts_with('#') && !line.contains('\n')).then_some(lost)
}

/// Whether a blank line separates two of the children. markdown-rs also counts blank lines
/// that only trail the item (`- a` then two blank lines then a paragraph), which
/// `mdast-util-from-markdown` leaves out of `spread`.
fn blank_line_between(children: &[Node]) -> bool {
    children
        .windows(2)
        .any(|pair| match (pair[0].position(), pair[1].position()) {
            (Some(a), Some(b)) => b.start.line > a.end.line + 1,
            _ => true,
        })
}

/// The table a placeholder code block stands for (`MARKER_PREFIX-N`).
fn grid_index(lang: Option<&str>) -> Option<usize> {
    lang?
        .strip_prefix(gridtable::MARKER_PREFIX)?
        .strip_prefix('-')?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells converted as soon as they are parsed give the tree that cells kept until
    /// the document's definitions are known give: cells that refer to a definition
    /// (outside the table or in another cell), that define one, that hold a table of
    /// their own, a heading whose text starts with `#`, or a cell spanning rows.
    #[test]
    fn cells_converted_early_are_the_cells_converted_late() {
        let rule = "+-------------------+------------------+\n";
        let row = |a: &str, b: &str| format!("| {a:<17} | {b:<16} |\n");
        let page = [
            "[out]: /outside \"Outside\"\n\n".to_owned(),
            rule.to_owned(),
            row("plain text", "[link](/l)"),
            rule.to_owned(),
            row("[out] and [in][]", "[in]: /inside"),
            rule.to_owned(),
            row("# # hash heading", "**strong** *em*"),
            rule.to_owned(),
            row("spans two rows", "![i](/i.png)"),
            "|                   +------------------+\n".to_owned(),
            row("", "`code` here"),
            rule.to_owned(),
            row("+-----+-----+", "- a"),
            row("| x   | [y] |", "- b"),
            row("+-----+-----+", ""),
            rule.to_owned(),
            "\n[y]: /why\n".to_owned(),
        ]
        .concat();
        let page = page.as_str();
        let early = parse_in_chunks(page, usize::MAX);
        KEEP_CELLS.set(true);
        let late = parse_in_chunks(page, usize::MAX);
        KEEP_CELLS.set(false);
        assert_eq!(early, late);
        let text = format!("{early:?}");
        for expected in ["/outside", "/why", "# hash heading", "/i.png"] {
            assert!(text.contains(expected), "{expected} in {text}");
        }
        // And some cells were indeed converted early.
        let tree = parse_tree(page, &options(), &[]);
        let converted = tree
            .cells
            .iter()
            .filter(|cell| matches!(cell, ParsedCell::Converted(_)))
            .count();
        assert!(converted >= 4, "{converted} cells converted early");
        assert!(converted < tree.cells.len(), "cells that refer are kept");
    }

    /// Found by fuzzing `html_ingest`: `<li><s><s>o</s></s></li>` then an `<ol>` converts to
    /// markdown on which markdown-rs panics (wooorm/markdown-rs#23). The page renders, as
    /// the guide's page on fidelity shows.
    /// A page parsed in chunks is the page parsed whole, whatever blocks meet at a cut.
    #[test]
    fn a_page_parsed_in_chunks_is_the_page_parsed_whole() {
        let blocks = [
            "***[x](/1)***",
            "Some *text*\nover two lines",
            "- a list\n- of items\n\n- loose",
            "* star item\n\n  continued",
            "***",
            "> quoted\nlazy",
            "1. first\n2. second",
            "# Heading #",
            "| a | b |\n|---|---|\n| c | d |",
            "+---+---+\n| a | b |\n+---+---+",
            "    indented code",
            "_emphasis_ and __strong__",
            "Setext\n===",
            "para\n- interrupting list",
            "![image](/i.png)",
        ];
        let mut text = String::new();
        for round in 0..40 {
            for (index, block) in blocks.iter().enumerate() {
                if (round + index) % 3 == 0 {
                    text.push_str("word\n\n");
                }
                text.push_str(block);
                text.push_str("\n\n");
            }
        }
        assert!(chunks(&text, 256).len() > 20, "the page is cut");
        assert_eq!(
            parse_in_chunks(&text, 256),
            parse_in_chunks(&text, usize::MAX)
        );
        // What spans blank lines keeps the page whole.
        for whole in [
            "```\na\n\nb\n```",
            "<!--\n\nx -->",
            "[a]: /b",
            "<PRE>\n\n</PRE>",
        ] {
            let text = format!("{text}{whole}\n\n{text}");
            assert_eq!(chunks(&text, 256).len(), 1, "{whole}");
        }
    }

    /// The vendored markdown-rs (events packed in 24 bytes, edits applied in place) gives
    /// the trees of the copy before those changes, positions included: 3,000 documents of
    /// markdown's significant pieces in random order (every construct, tabs, CRLF, the
    /// inputs it panics on) hash to what that copy gave.
    #[test]
    fn markdown_rs_trees_are_those_of_the_published_parser() {
        const PIECES: &[&str] = &[
            "*",
            "**",
            "_",
            "__",
            "~",
            "~~",
            "[",
            "]",
            "(",
            ")",
            "![",
            "](",
            "<",
            ">",
            "`",
            "``",
            "```",
            "~~~",
            "\\",
            "&amp;",
            "&#35;",
            "&",
            "#",
            "# ",
            "## ",
            "\n",
            "\n\n",
            " ",
            "  ",
            "\t",
            "|",
            "| --- |",
            "-",
            "- ",
            "+ ",
            "1. ",
            "2) ",
            "> ",
            "=",
            "===",
            "---",
            "***",
            "a",
            "word",
            "x y",
            ".",
            "1",
            "[a]: /u",
            "[a]",
            "[a][]",
            "[^1]",
            "[^1]: note",
            "<div>",
            "</div>",
            "<!--",
            "-->",
            "<pre>",
            "http://e.com",
            "<http://e.com>",
            "a@b.co",
            "\"t\"",
            "'",
            "{",
            "$",
            "$$",
            "    ",
            "\r\n",
            "\r",
            "é",
            "日本",
            "| a | b |\n|---|:-:|\n| c | d |",
            "[x](/y \"t\")",
            "![i](/i.png)",
            "*[w](/1)*",
            "***[x](/0)***",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut below = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut hash = 0xcbf2_9ce4_8422_2325_u64;
        let mut panics = 0;
        for round in 0..3000 {
            let len = 1 + below(if round % 10 == 0 { 300 } else { 30 });
            let text: String = (0..len).map(|_| PIECES[below(PIECES.len())]).collect();
            let tree =
                std::panic::catch_unwind(|| format!("{:?}", markdown::to_mdast(&text, &options())))
                    .unwrap_or_else(|_| {
                        panics += 1;
                        "panic".into()
                    });
            for byte in tree.bytes().chain([0]) {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
            }
        }
        assert!(
            panics > 0,
            "the documents include some markdown-rs panics on"
        );
        assert_eq!(hash, 0xa16f_e342_b1bd_7536, "{panics} panics");
    }

    #[test]
    fn markdown_rs_panics_do_not_take_the_page_down() {
        let text = "- ~~~~o~~~~\n\n1. ~~~~/~~~~\n";
        let raw = std::panic::catch_unwind(|| markdown::to_mdast(text, &options()));
        assert!(
            raw.is_err(),
            "markdown-rs still panics here (else drop the fallback)"
        );
        let html = crate::render::plain_html(text);
        let compact: String = html.split_whitespace().collect();
        assert_eq!(
            compact,
            "<div><ul><li>~~~~o~~~~</li></ul><ol><li>~~~~/~~~~</li></ol></div>"
        );
    }

    #[test]
    fn text_markdown_rs_parses_is_parsed_once_as_it_is() {
        let node = to_mdast("- ~~~o~~~\n", &options());
        let text = format!("{node:?}");
        assert!(
            text.contains("Code"),
            "a fence in a list item stays code: {text}"
        );
    }
}
