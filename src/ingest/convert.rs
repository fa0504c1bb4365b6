//! `main` -> sections of content nodes, following the reference converter: icons, sections
//! and blocks on the HTML tree, white space minified, then the element handlers of
//! `hast-util-to-mdast` (with the reference's overrides for blocks, tables, `sub`, `sup`, `u`).

use super::dom::{HElement, HNode};
use super::hast::{collapse, is_whitespace, minify_whitespace, to_text};
use super::model::{BlockInfo, Kind, Node, Section, TablePart, Warning, valid_block_class};

/// Converts `main` into sections. Invalid block class names become warnings.
/// `icons`: whether the page mentions `icon` at all (otherwise no span is an icon).
pub(crate) fn convert_main(mut main: HElement, icons: bool) -> (Vec<Section>, Vec<Warning>) {
    if icons {
        process_icons(&mut main.children);
    }
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

fn all(e: &HElement) -> Vec<Node> {
    let mut out = Vec::new();
    for child in &e.children {
        one(child, &mut out);
    }
    out
}

fn all_of(children: &[HNode]) -> Vec<Node> {
    let mut out = Vec::new();
    for child in children {
        one(child, &mut out);
    }
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

fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// `collapse-white-space` with the HTML style, trimmed.
fn collapse_trim(value: Option<&str>) -> String {
    let collapsed = collapse(value.unwrap_or(""));
    collapsed
        .trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\x0c' | '\r'))
        .to_owned()
}

/// A paragraph inside a paragraph (from `p > picture`) serialises as its children.
fn flatten_paragraphs(nodes: Vec<Node>) -> Vec<Node> {
    if !nodes.iter().any(|n| n.kind == Kind::Paragraph) {
        return nodes;
    }
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        if node.kind == Kind::Paragraph {
            out.extend(node.children);
        } else {
            out.push(node);
        }
    }
    out
}

fn drop_surrounding_breaks(mut nodes: Vec<Node>) -> Vec<Node> {
    while nodes.last().is_some_and(|n| n.kind == Kind::Break) {
        nodes.pop();
    }
    let start = nodes.iter().take_while(|n| n.kind == Kind::Break).count();
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

fn list(e: &HElement) -> Node {
    let ordered = e.is("ol");
    let children = to_list_items(all(e));
    let start = ordered.then(|| e.attr("start").and_then(parse_int).unwrap_or(1));
    let spread = items_spread(&children);
    Node::with(
        Kind::List {
            ordered,
            start,
            spread,
        },
        children,
    )
}

/// JavaScript's `parseInt(s, 10)`: leading white space, a sign, digits.
fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim_start();
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, s.strip_prefix('+').unwrap_or(s)),
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse::<i64>().ok().map(|n| sign * n)
}

fn items_spread(children: &[Node]) -> bool {
    children.len() > 1
        && children
            .iter()
            .any(|c| matches!(c.kind, Kind::ListItem { spread: true, .. }))
}

/// `toSpecificContent`: loose nodes join the next list item (or the last, or a new one).
fn to_list_items(nodes: Vec<Node>) -> Vec<Node> {
    let mut results: Vec<Node> = Vec::new();
    let mut queue: Vec<Node> = Vec::new();
    for mut node in nodes {
        if matches!(node.kind, Kind::ListItem { .. }) {
            if !queue.is_empty() {
                queue.append(&mut node.children);
                node.children = std::mem::take(&mut queue);
            }
            results.push(node);
        } else {
            queue.push(node);
        }
    }
    if !queue.is_empty() {
        if results.is_empty() {
            results.push(Node::new(Kind::ListItem {
                spread: false,
                checked: None,
            }));
        }
        results
            .last_mut()
            .expect("one item")
            .children
            .append(&mut queue);
    }
    results
}

fn li(e: &HElement) -> Node {
    let (checked, rest) = leading_checkbox(e);
    let spread = spreadout(&rest);
    Node::with(Kind::ListItem { spread, checked }, to_flow(all_of(&rest)))
}

fn leading_checkbox(e: &HElement) -> (Option<bool>, Vec<HNode>) {
    if let Some(HNode::Element(head)) = e.children.first() {
        if head.is("input") && matches!(head.attr("type"), Some("checkbox" | "radio")) {
            return (
                Some(head.attr("checked").is_some()),
                e.children[1..].to_vec(),
            );
        }
        if head.is("p")
            && let (Some(checked), rest_head) = leading_checkbox(head)
        {
            let mut p = head.clone();
            p.children = rest_head;
            let mut rest = vec![HNode::Element(p)];
            rest.extend(e.children[1..].iter().cloned());
            return (Some(checked), rest);
        }
    }
    (None, e.children.clone())
}

fn spreadout(children: &[HNode]) -> bool {
    let mut seen_flow = false;
    for child in children {
        if let HNode::Element(e) = child {
            if hast_phrasing(e) {
                continue;
            }
            if e.is("p") || seen_flow || spreadout(&e.children) {
                return true;
            }
            seen_flow = true;
        }
    }
    false
}

/// `hast-util-phrasing`.
fn hast_phrasing(e: &HElement) -> bool {
    const BASIC: &[&str] = &[
        "a", "abbr", "area", "b", "bdi", "bdo", "br", "button", "cite", "code", "data", "datalist",
        "del", "dfn", "em", "i", "input", "ins", "kbd", "keygen", "label", "map", "mark", "meter",
        "noscript", "output", "progress", "q", "ruby", "s", "samp", "script", "select", "small",
        "span", "strong", "sub", "sup", "template", "textarea", "time", "u", "var", "wbr",
    ];
    const EMBEDDED: &[&str] = &[
        "audio", "canvas", "embed", "iframe", "img", "math", "object", "picture", "svg", "video",
    ];
    let name = &*e.name;
    BASIC.contains(&name)
        || EMBEDDED.contains(&name)
        || ((name == "link" || name == "meta") && e.attr("itemprop").is_some())
}

fn dl(e: &HElement) -> Option<Node> {
    let mut clean: Vec<&HNode> = Vec::new();
    for child in &e.children {
        match child {
            HNode::Element(d) if d.is("div") => clean.extend(d.children.iter()),
            other => clean.push(other),
        }
    }
    let mut groups: Vec<(Vec<HNode>, Vec<HNode>)> = vec![(Vec::new(), Vec::new())];
    for (index, child) in clean.iter().enumerate() {
        if child.is_element("dt") {
            if index > 0 && clean[index - 1].is_element("dd") {
                groups.push((Vec::new(), Vec::new()));
            }
            groups.last_mut().expect("group").0.push((*child).clone());
        } else {
            groups.last_mut().expect("group").1.push((*child).clone());
        }
    }
    let mut content = Vec::new();
    for (titles, definitions) in groups {
        let mut result = dl_group(&titles);
        result.extend(dl_group(&definitions));
        if !result.is_empty() {
            content.push(Node::with(
                Kind::ListItem {
                    spread: result.len() > 1,
                    checked: None,
                },
                result,
            ));
        }
    }
    if content.is_empty() {
        return None;
    }
    let spread = items_spread(&content);
    Some(Node::with(
        Kind::List {
            ordered: false,
            start: None,
            spread,
        },
        content,
    ))
}

/// A text area: its lines, joined by breaks (a blank line as two).
fn textarea(e: &HElement) -> Vec<Node> {
    let value = to_text(e);
    let mut results = Vec::new();
    let mut blank = false;
    let normalised = value.replace("\r\n", "\n").replace('\r', "\n");
    for line in normalised.split('\n') {
        let line = collapse_trim(Some(line));
        if line.is_empty() {
            blank = true;
            continue;
        }
        if !results.is_empty() {
            results.push(Node::new(Kind::Break));
            if blank {
                results.push(Node::new(Kind::Break));
            }
        }
        results.push(Node::text(line));
        blank = false;
    }
    results
}

/// The selected options of a `select` (or `datalist`): (value, label when it differs).
fn selected_options(
    e: &HElement,
    multiple: bool,
    size: Option<&str>,
) -> Vec<(String, Option<String>)> {
    fn options<'a>(e: &'a HElement, out: &mut Vec<&'a HElement>) {
        for child in e.children.iter().filter_map(HNode::element) {
            options(child, out);
            if child.is("option") && child.attr("disabled").is_none() {
                out.push(child);
            }
        }
    }
    let mut all_options = Vec::new();
    options(e, &mut all_options);
    let mut list: Vec<&HElement> = all_options
        .iter()
        .copied()
        .filter(|o| o.attr("selected").is_some())
        .collect();
    if !multiple {
        list = list.split_off(list.len().saturating_sub(1));
        if list.is_empty() && size.and_then(parse_int).is_none_or(|s| s <= 1) {
            list = all_options.into_iter().take(1).collect();
        }
    }
    list.into_iter()
        .map(|option| {
            let content = collapse_trim(Some(&to_text(option)));
            let label = if content.is_empty() {
                collapse_trim(option.attr("label"))
            } else {
                content.clone()
            };
            let value = non_empty(collapse_trim(option.attr("value"))).unwrap_or(content);
            let label = (label != value).then_some(label);
            (value, label)
        })
        .collect()
}

/// Form inputs as text: check boxes as `[x]`/`[ ]`, values or placeholders, image buttons.
fn input(e: &HElement) -> Vec<Node> {
    let kind = e.attr("type").unwrap_or("");
    if e.attr("disabled").is_some() || kind == "hidden" || kind == "file" {
        return Vec::new();
    }
    if kind == "checkbox" || kind == "radio" {
        return vec![Node::text(if e.attr("checked").is_some() {
            "[x]"
        } else {
            "[ ]"
        })];
    }
    let value = collapse_trim(
        e.attr("value")
            .filter(|v| !v.is_empty())
            .or(e.attr("placeholder")),
    );
    if kind == "image" {
        let alt = non_empty(collapse_trim(e.attr("alt"))).unwrap_or_else(|| value.clone());
        if alt.is_empty() {
            return Vec::new();
        }
        return vec![Node::new(Kind::Image {
            url: e.attr("src").unwrap_or("").to_owned(),
            title: non_empty(collapse_trim(e.attr("title"))),
            alt,
        })];
    }
    if value.is_empty() {
        return Vec::new();
    }
    match kind {
        "password" => vec![Node::text("•".repeat(value.encode_utf16().count()))],
        "email" | "url" => {
            let url = if kind == "email" {
                format!("mailto:{value}")
            } else {
                value.clone()
            };
            vec![Node::with(
                Kind::Link { url, title: None },
                vec![Node::text(value)],
            )]
        }
        _ => vec![Node::text(value)],
    }
}

/// The terms or the definitions of one `dl` group: their items' content, or a list of them.
fn dl_group(children: &[HNode]) -> Vec<Node> {
    let mut items = to_list_items(all_of(children));
    match items.len() {
        0 => Vec::new(),
        1 => items.pop().expect("one item").children,
        _ => {
            let spread = items_spread(&items);
            vec![Node::with(
                Kind::List {
                    ordered: false,
                    start: None,
                    spread,
                },
                items,
            )]
        }
    }
}

fn media(e: &HElement) -> Vec<Node> {
    let nodes = all(e);
    let mut has_link = false;
    for n in &nodes {
        n.walk(&mut |d| has_link |= matches!(d.kind, Kind::Link { .. }));
    }
    if has_link || wrap_needed(&nodes) {
        return nodes;
    }
    let mut source = e.attr("src").unwrap_or("").to_owned();
    for child in &e.children {
        if !source.is_empty() {
            break;
        }
        if let HNode::Element(s) = child
            && s.is("source")
        {
            source = s.attr("src").unwrap_or("").to_owned();
        }
    }
    let mut children = nodes;
    if e.is("video")
        && let Some(poster) = e.attr("poster").filter(|p| !p.is_empty())
    {
        let alt: String = children.iter().map(Node::to_plain_text).collect();
        children = vec![Node::new(Kind::Image {
            url: poster.to_owned(),
            title: None,
            alt,
        })];
    }
    vec![Node::with(
        Kind::Link {
            url: source,
            title: non_empty(collapse_trim(e.attr("title"))),
        },
        children,
    )]
}

/// The reference's HTML table handler: a grid table of header, body and footer rows.
fn table(e: &HElement) -> Node {
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

fn block(e: &HElement) -> Node {
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

/// Whether a node counts as phrasing for paragraph wrapping.
fn phrasing(node: &Node) -> bool {
    node.is_phrasing()
}

fn is_parent(kind: &Kind) -> bool {
    !matches!(
        kind,
        Kind::Text { .. }
            | Kind::InlineCode { .. }
            | Kind::Break
            | Kind::Image { .. }
            | Kind::Code { .. }
            | Kind::Html { .. }
            | Kind::ThematicBreak
    )
}

fn wrap_needed(nodes: &[Node]) -> bool {
    nodes
        .iter()
        .any(|n| !phrasing(n) || (is_parent(&n.kind) && wrap_needed(&n.children)))
}

/// `toFlow` (hast-util-to-mdast's `wrap`): runs of phrasing become paragraphs, unless they
/// are only white space.
pub(crate) fn to_flow(nodes: Vec<Node>) -> Vec<Node> {
    runs(
        flatten(nodes),
        |queue| {
            if queue
                .iter()
                .all(|n| matches!(&n.kind, Kind::Text { value } if is_whitespace(value)))
            {
                Vec::new()
            } else {
                vec![Node::with(Kind::Paragraph, drop_surrounding_breaks(queue))]
            }
        },
        |n| n,
    )
}

fn runs(
    nodes: Vec<Node>,
    mut on_phrasing: impl FnMut(Vec<Node>) -> Vec<Node>,
    mut on_other: impl FnMut(Node) -> Node,
) -> Vec<Node> {
    let mut result = Vec::new();
    let mut queue = Vec::new();
    for node in nodes {
        if phrasing(&node) {
            queue.push(node);
        } else {
            if !queue.is_empty() {
                result.extend(on_phrasing(std::mem::take(&mut queue)));
            }
            result.push(on_other(node));
        }
    }
    if !queue.is_empty() {
        result.extend(on_phrasing(queue));
    }
    result
}

fn flatten(nodes: Vec<Node>) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        if matches!(node.kind, Kind::Delete | Kind::Link { .. }) && wrap_needed(&node.children) {
            out.extend(split(node));
        } else {
            out.push(node);
        }
    }
    out
}

/// Splits a link or deletion that holds flow content: the flow moves out, with the link
/// repeated inside it.
fn split(node: Node) -> Vec<Node> {
    let kind = node.kind.clone();
    runs(
        node.children,
        |queue| vec![Node::with(kind.clone(), queue)],
        |child| {
            if is_parent(&child.kind) {
                let inner = Node::with(kind.clone(), child.children);
                Node::with(child.kind, vec![inner])
            } else {
                child
            }
        },
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parent {
    Root,
    Paragraph,
    Heading,
    Other,
}

fn parent_of(kind: &Kind) -> Parent {
    match kind {
        Kind::Paragraph => Parent::Paragraph,
        Kind::Heading { .. } => Parent::Heading,
        _ => Parent::Other,
    }
}

/// The final pass of `hast-util-to-mdast`: adjacent texts merged, white space around line
/// endings removed (the first one of each visit), texts trimmed at the edges of headings,
/// paragraphs and the root, empty texts dropped.
pub(crate) fn tidy_text(children: &mut Vec<Node>, parent: Parent) {
    let mut index: isize = 0;
    while index >= 0 && (index as usize) < children.len() {
        let i = index as usize;
        let mut next = index + 1;
        if let Kind::Text { .. } = children[i].kind {
            if i > 0 && matches!(children[i - 1].kind, Kind::Text { .. }) {
                let Kind::Text { value } = children.remove(i).kind else {
                    unreachable!()
                };
                if let Kind::Text { value: previous } = &mut children[i - 1].kind {
                    previous.push_str(&value);
                }
                index -= 1;
                continue;
            }
            let last = i == children.len() - 1;
            let Kind::Text { value } = &mut children[i].kind else {
                unreachable!()
            };
            trim_first_line_ending(value);
            if matches!(parent, Parent::Root | Parent::Paragraph | Parent::Heading) {
                if i == 0 {
                    let trimmed = value.trim_start_matches(['\t', ' ']);
                    if trimmed.len() != value.len() {
                        *value = trimmed.to_owned();
                    }
                }
                if last {
                    let len = value.trim_end_matches(['\t', ' ']).len();
                    value.truncate(len);
                }
            }
            if value.is_empty() {
                children.remove(i);
                next = index;
            }
        } else {
            let kind = parent_of(&children[i].kind);
            tidy_text(&mut children[i].children, kind);
        }
        index = next;
    }
}

/// `value.replace(/[\t ]*(\r?\n|\r)[\t ]*/, '$1')`.
fn trim_first_line_ending(value: &mut String) {
    let bytes = value.as_bytes();
    let Some(pos) = bytes.iter().position(|b| *b == b'\n' || *b == b'\r') else {
        return;
    };
    let mut start = pos;
    while start > 0 && matches!(bytes[start - 1], b'\t' | b' ') {
        start -= 1;
    }
    let eol_len = if bytes[pos] == b'\r' && bytes.get(pos + 1) == Some(&b'\n') {
        2
    } else {
        1
    };
    let mut end = pos + eol_len;
    while end < bytes.len() && matches!(bytes[end], b'\t' | b' ') {
        end += 1;
    }
    if start == pos && end == pos + eol_len {
        return;
    }
    let eol = value[pos..pos + eol_len].to_owned();
    value.replace_range(start..end, &eol);
}
