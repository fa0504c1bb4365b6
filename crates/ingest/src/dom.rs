//! HTML5 parsing into a small owned tree.
//!
//! html5ever builds the document through a `TreeSink`; ours is an index arena (one `Vec`, no
//! reference counting), which is then turned into an owned tree of [`HNode`]s with the
//! attributes the converter needs. Comments and text are kept, since the whitespace and
//! paragraph rules of the reference converter depend on them.

use std::borrow::Cow;
use std::cell::RefCell;

use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{Attribute, LocalName, QualName, ns, parse_document};

/// A node of the owned tree.
#[derive(Debug, Clone)]
pub(crate) enum HNode {
    Element(HElement),
    Text(String),
    Comment(String),
}

/// An element: lower-case local name, attributes in source order, children.
#[derive(Debug, Clone)]
pub(crate) struct HElement {
    pub name: LocalName,
    /// True for elements outside the HTML namespace (SVG, MathML content).
    pub foreign: bool,
    pub attrs: Vec<(LocalName, String)>,
    pub children: Vec<HNode>,
}

impl HElement {
    pub fn is(&self, name: &str) -> bool {
        !self.foreign && &*self.name == name
    }

    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| &**k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The class list, split on HTML white space (as hast's `className`).
    pub fn classes(&self) -> Vec<&str> {
        self.attr("class")
            .map(|c| c.split_ascii_whitespace().collect())
            .unwrap_or_default()
    }
}

impl HNode {
    pub fn element(&self) -> Option<&HElement> {
        match self {
            HNode::Element(e) => Some(e),
            _ => None,
        }
    }

    pub fn is_element(&self, name: &str) -> bool {
        self.element().is_some_and(|e| e.is(name))
    }
}

/// Deepest element nesting accepted. The converter, the serializer and the renderer walk the
/// tree recursively; this bound keeps them within a 2 MiB thread stack (async runtimes give
/// their workers that much), and real pages stay far below it (a few dozen levels).
pub const MAX_DEPTH: usize = 512;

/// The parsed document: the root element (`html`), and whether elements deeper than
/// [`MAX_DEPTH`] were left out.
pub(crate) fn parse_checked(html: &str) -> (HElement, bool) {
    let sink = Sink::default();
    // As the reference parses (parse5 through rehype-parse): scripting off, so `noscript`
    // content is markup.
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: false,
            ..Default::default()
        },
        ..Default::default()
    };
    let arena = parse_document(sink, opts).one(html);
    let root = arena
        .children(0)
        .find(|&i| matches!(arena.nodes[i].data, Data::Element { .. }));
    match root {
        Some(i) => match arena.to_owned(i) {
            (HNode::Element(e), too_deep) => (e, too_deep),
            _ => unreachable!("checked to be an element"),
        },
        None => (
            HElement {
                name: LocalName::from("html"),
                foreign: false,
                attrs: Vec::new(),
                children: Vec::new(),
            },
            false,
        ),
    }
}

/// Whether `html` opens elements deeper than `limit`, by a linear scan of its tags (before
/// parsing: the HTML5 tree builder takes time quadratic in the nesting depth, so a 1 MiB page
/// of nested `div`s would take minutes). Void elements and those whose end tag is optional
/// are not counted; an end tag closes up to the element it names, as the parser does, and
/// an end tag that names no open element is ignored. Contents of raw-text elements and
/// comments are skipped.
pub(crate) fn nesting_exceeds(html: &str, limit: usize) -> bool {
    const NOT_NESTING: &[&str] = &[
        "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img",
        "input", "keygen", "link", "meta", "param", "source", "track", "wbr", "p", "li", "dt",
        "dd", "tr", "td", "th", "option", "optgroup", "rt", "rp", "rb", "rtc", "thead", "tbody",
        "tfoot", "colgroup", "caption", "html", "head", "body",
    ];
    const RAW_TEXT: &[&str] = &[
        "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript",
    ];
    let bytes = html.as_bytes();
    let mut stack: Vec<u64> = Vec::new();
    let mut open: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut i = 0;
    let hash = |name: &[u8]| {
        name.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x100_0000_01b3)
        })
    };
    while let Some(offset) = memchr::memchr(b'<', &bytes[i..]) {
        i += offset + 1;
        if bytes[i..].starts_with(b"!--") {
            i = memchr::memmem::find(&bytes[i..], b"-->").map_or(bytes.len(), |end| i + end + 3);
            continue;
        }
        let closing = bytes.get(i) == Some(&b'/');
        let start = if closing { i + 1 } else { i };
        let len = bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-' || **b == b':')
            .count();
        if len == 0 || !bytes[start].is_ascii_alphabetic() {
            continue;
        }
        let name = &bytes[start..start + len];
        let lower = name.to_ascii_lowercase();
        let lower = std::str::from_utf8(&lower).unwrap_or("");
        i = start + len;
        if NOT_NESTING.contains(&lower) {
            continue;
        }
        let h = hash(name);
        if closing {
            if open.get(&h).is_some_and(|n| *n > 0) {
                while let Some(top) = stack.pop() {
                    if let Some(n) = open.get_mut(&top) {
                        *n -= 1;
                    }
                    if top == h {
                        break;
                    }
                }
            }
            continue;
        }
        if RAW_TEXT.contains(&lower) {
            let close = format!("</{lower}");
            let rest = &bytes[i..];
            let found = rest
                .windows(close.len())
                .position(|w| w.eq_ignore_ascii_case(close.as_bytes()));
            i = found.map_or(bytes.len(), |p| i + p);
            continue;
        }
        stack.push(h);
        *open.entry(h).or_insert(0) += 1;
        if stack.len() > limit {
            return true;
        }
    }
    false
}

/// `html` parsed as a fragment in a `template` context, as parse5's fragment parser (which
/// `hast-util-raw` uses) parses it: the nodes it yields.
pub(crate) fn parse_fragment(html: &str) -> Vec<HNode> {
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: false,
            ..Default::default()
        },
        ..Default::default()
    };
    let context = QualName::new(None, ns!(html), LocalName::from("template"));
    let arena =
        html5ever::parse_fragment(Sink::default(), opts, context, Vec::new(), false).one(html);
    let Some(root) = arena
        .children(0)
        .find(|&i| matches!(arena.nodes[i].data, Data::Element { .. }))
    else {
        return Vec::new();
    };
    match arena.to_owned(root).0 {
        HNode::Element(e) => e.children,
        _ => Vec::new(),
    }
}

/// The parsed document, elements deeper than [`MAX_DEPTH`] left out.
pub(crate) fn parse(html: &str) -> HElement {
    parse_checked(html).0
}

const NONE: u32 = u32::MAX;

struct ANode {
    parent: u32,
    first: u32,
    last: u32,
    prev: u32,
    next: u32,
    data: Data,
}

enum Data {
    Document,
    Element {
        name: QualName,
        attrs: Vec<Attribute>,
        template: u32,
    },
    Text(StrTendril),
    Comment(StrTendril),
    Other,
}

struct Arena {
    nodes: Vec<ANode>,
}

impl Arena {
    fn children(&self, parent: usize) -> impl Iterator<Item = usize> + '_ {
        let mut next = self.nodes[parent].first;
        std::iter::from_fn(move || {
            (next != NONE).then(|| {
                let current = next as usize;
                next = self.nodes[current].next;
                current
            })
        })
    }

    /// Converts the subtree at `index` into owned nodes, with an explicit stack so that
    /// deeply nested input cannot overflow the call stack.
    fn to_owned(&self, index: usize) -> (HNode, bool) {
        let mut too_deep = false;
        enum Work {
            Enter(usize),
            Close,
        }
        let mut stack = vec![Work::Enter(index)];
        let mut open: Vec<HElement> = Vec::new();
        let mut done: Option<HNode> = None;
        while let Some(work) = stack.pop() {
            let finished = match work {
                Work::Enter(i) => match &self.nodes[i].data {
                    Data::Element { .. } if open.len() >= MAX_DEPTH => {
                        too_deep = true;
                        None
                    }
                    Data::Element {
                        name,
                        attrs,
                        template,
                    } => {
                        open.push(HElement {
                            name: name.local.clone(),
                            foreign: name.ns != ns!(html),
                            attrs: attrs
                                .iter()
                                .map(|a| (a.name.local.clone(), a.value.to_string()))
                                .collect(),
                            children: Vec::new(),
                        });
                        stack.push(Work::Close);
                        // A template's content is a separate fragment, not children (as
                        // in hast): no pass of the converter looks into it.
                        if *template == NONE {
                            let children: Vec<usize> = self.children(i).collect();
                            stack.extend(children.into_iter().rev().map(Work::Enter));
                        }
                        None
                    }
                    Data::Text(t) => Some(HNode::Text(t.to_string())),
                    Data::Comment(t) => Some(HNode::Comment(t.to_string())),
                    Data::Document | Data::Other => None,
                },
                Work::Close => open.pop().map(HNode::Element),
            };
            if let Some(node) = finished {
                match open.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => done = Some(node),
                }
            }
        }
        (done.unwrap_or(HNode::Text(String::new())), too_deep)
    }
}

struct Sink {
    arena: RefCell<Vec<ANode>>,
}

impl Default for Sink {
    fn default() -> Self {
        let sink = Sink {
            arena: RefCell::new(Vec::new()),
        };
        sink.new_node(Data::Document);
        sink
    }
}

impl Sink {
    fn new_node(&self, data: Data) -> u32 {
        let mut nodes = self.arena.borrow_mut();
        nodes.push(ANode {
            parent: NONE,
            first: NONE,
            last: NONE,
            prev: NONE,
            next: NONE,
            data,
        });
        (nodes.len() - 1) as u32
    }

    fn detach(nodes: &mut [ANode], child: u32) {
        let c = child as usize;
        let (parent, prev, next) = (nodes[c].parent, nodes[c].prev, nodes[c].next);
        if next != NONE {
            nodes[next as usize].prev = prev;
        } else if parent != NONE {
            nodes[parent as usize].last = prev;
        }
        if prev != NONE {
            nodes[prev as usize].next = next;
        } else if parent != NONE {
            nodes[parent as usize].first = next;
        }
        nodes[c].parent = NONE;
        nodes[c].prev = NONE;
        nodes[c].next = NONE;
    }

    fn append_node(nodes: &mut [ANode], parent: u32, child: u32) {
        Self::detach(nodes, child);
        let last = nodes[parent as usize].last;
        nodes[child as usize].parent = parent;
        nodes[child as usize].prev = last;
        if last != NONE {
            nodes[last as usize].next = child;
        } else {
            nodes[parent as usize].first = child;
        }
        nodes[parent as usize].last = child;
    }

    fn insert_before(nodes: &mut [ANode], sibling: u32, child: u32) {
        Self::detach(nodes, child);
        let s = sibling as usize;
        let (parent, prev) = (nodes[s].parent, nodes[s].prev);
        nodes[child as usize].parent = parent;
        nodes[child as usize].next = sibling;
        nodes[child as usize].prev = prev;
        if prev != NONE {
            nodes[prev as usize].next = child;
        } else if parent != NONE {
            nodes[parent as usize].first = child;
        }
        nodes[s].prev = child;
    }

    /// Appends text to the previous text node when there is one, as the DOM does.
    fn text_into(&self, previous: u32, text: &StrTendril) -> bool {
        if previous == NONE {
            return false;
        }
        let mut nodes = self.arena.borrow_mut();
        if let Data::Text(t) = &mut nodes[previous as usize].data {
            t.push_tendril(text);
            return true;
        }
        false
    }
}

pub(crate) struct ElemName<'a>(std::cell::Ref<'a, Vec<ANode>>, usize);

impl std::fmt::Debug for ElemName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", html5ever::interface::ElemName::local_name(self))
    }
}

impl html5ever::interface::ElemName for ElemName<'_> {
    fn ns(&self) -> &html5ever::Namespace {
        match &self.0[self.1].data {
            Data::Element { name, .. } => &name.ns,
            _ => panic!("not an element"),
        }
    }

    fn local_name(&self) -> &LocalName {
        match &self.0[self.1].data {
            Data::Element { name, .. } => &name.local,
            _ => panic!("not an element"),
        }
    }
}

impl TreeSink for Sink {
    type Handle = u32;
    type Output = Arena;
    type ElemName<'a> = ElemName<'a>;

    fn finish(self) -> Arena {
        Arena {
            nodes: self.arena.into_inner(),
        }
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> u32 {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a u32) -> ElemName<'a> {
        ElemName(self.arena.borrow(), *target as usize)
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> u32 {
        let template = if flags.template {
            self.new_node(Data::Document)
        } else {
            NONE
        };
        self.new_node(Data::Element {
            name,
            attrs,
            template,
        })
    }

    fn create_comment(&self, text: StrTendril) -> u32 {
        self.new_node(Data::Comment(text))
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> u32 {
        self.new_node(Data::Other)
    }

    fn append(&self, parent: &u32, child: NodeOrText<u32>) {
        let node = match child {
            NodeOrText::AppendText(text) => {
                let last = self.arena.borrow()[*parent as usize].last;
                if self.text_into(last, &text) {
                    return;
                }
                self.new_node(Data::Text(text))
            }
            NodeOrText::AppendNode(node) => node,
        };
        Self::append_node(&mut self.arena.borrow_mut(), *parent, node);
    }

    fn append_based_on_parent_node(
        &self,
        element: &u32,
        prev_element: &u32,
        child: NodeOrText<u32>,
    ) {
        let has_parent = self.arena.borrow()[*element as usize].parent != NONE;
        if has_parent {
            self.append_before_sibling(element, child)
        } else {
            self.append(prev_element, child)
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &u32) -> u32 {
        match &self.arena.borrow()[*target as usize].data {
            Data::Element { template, .. } if *template != NONE => *template,
            _ => panic!("not a template element"),
        }
    }

    fn same_node(&self, x: &u32, y: &u32) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &u32, new_node: NodeOrText<u32>) {
        let node = match new_node {
            NodeOrText::AppendText(text) => {
                let prev = self.arena.borrow()[*sibling as usize].prev;
                if self.text_into(prev, &text) {
                    return;
                }
                self.new_node(Data::Text(text))
            }
            NodeOrText::AppendNode(node) => node,
        };
        Self::insert_before(&mut self.arena.borrow_mut(), *sibling, node);
    }

    fn add_attrs_if_missing(&self, target: &u32, attrs: Vec<Attribute>) {
        if let Data::Element {
            attrs: existing, ..
        } = &mut self.arena.borrow_mut()[*target as usize].data
        {
            for attr in attrs {
                if !existing.iter().any(|e| e.name == attr.name) {
                    existing.push(attr);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &u32) {
        Self::detach(&mut self.arena.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &u32, new_parent: &u32) {
        let mut nodes = self.arena.borrow_mut();
        let mut next = nodes[*node as usize].first;
        while next != NONE {
            let child = next;
            next = nodes[child as usize].next;
            Self::append_node(&mut nodes, *new_parent, child);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_the_document_tree() {
        let html = parse("<title>T</title><main><div class='a  b'>x<!--c--></div></main>");
        assert!(html.is("html"));
        let body = html.children.iter().find(|n| n.is_element("body")).unwrap();
        let main = body.element().unwrap().children[0].element().unwrap();
        assert!(main.is("main"));
        let div = main.children[0].element().unwrap();
        assert_eq!(div.classes(), vec!["a", "b"]);
        assert!(matches!(&div.children[0], HNode::Text(t) if t == "x"));
        assert!(matches!(&div.children[1], HNode::Comment(t) if t == "c"));
    }

    #[test]
    fn nesting_scan_counts_what_nests() {
        let deep = "<div>".repeat(100);
        assert!(nesting_exceeds(&deep, 99));
        assert!(!nesting_exceeds(&deep, 100));
        // Optional end tags and void elements do not nest; closed elements do not count.
        assert!(!nesting_exceeds(&"<p>x<li>y<br><img>".repeat(1000), 10));
        assert!(!nesting_exceeds(
            &"<div><span>a</span></div>".repeat(1000),
            10
        ));
        // Stray end tags do not hide depth; an end tag closes what it names.
        assert!(nesting_exceeds(&"<div></x>".repeat(50), 20));
        assert!(!nesting_exceeds(
            &format!("{}</div>", "<div><b>".repeat(5)),
            10
        ));
        // Markup in comments and scripts is not counted.
        assert!(!nesting_exceeds(
            &format!(
                "<!--{}--><script>{}</script>",
                "<div>".repeat(50),
                "<div>".repeat(50)
            ),
            10
        ));
    }

    #[test]
    fn adopts_misnested_content() {
        let html = parse("<main><div><b>a<p>b</b>c</p></div></main>");
        let text = format!("{html:?}");
        assert!(text.contains("\"a\""), "{text}");
    }
}
