//! HTML5 parsing into a small owned tree of [`HNode`]s with the attributes the converter
//! needs. Comments and text are kept, since the whitespace and paragraph rules of the
//! reference converter depend on them.
//!
//! Well-formed pages, nearly all of them, are built directly by [`fast_path`]. The rest go
//! through html5ever, whose `TreeSink` here is an index arena (one `Vec`, no reference
//! counting) that is then turned into the owned tree.

use std::borrow::Cow;
use std::cell::RefCell;

use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{Attribute, LocalName, QualName, ns, parse_document};

mod fast_path;
mod tokens;

/// A node of the owned tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum HNode {
    Element(HElement),
    Text(String),
    Comment(String),
}

/// An element: lower-case local name, attributes in source order, children.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HElement {
    pub name: LocalName,
    /// True for elements outside the HTML namespace (SVG, MathML content).
    pub foreign: bool,
    pub attrs: Vec<(LocalName, String)>,
    pub children: Vec<HNode>,
}

impl HElement {
    pub(crate) fn is(&self, name: &str) -> bool {
        !self.foreign && &*self.name == name
    }

    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| &**k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The class list, split on HTML white space (as hast's `className`).
    pub(crate) fn classes(&self) -> Vec<&str> {
        self.attr("class")
            .map(|c| c.split_ascii_whitespace().collect())
            .unwrap_or_default()
    }
}

impl HNode {
    pub(crate) fn element(&self) -> Option<&HElement> {
        match self {
            HNode::Element(e) => Some(e),
            _ => None,
        }
    }

    pub(crate) fn is_element(&self, name: &str) -> bool {
        self.element().is_some_and(|e| e.is(name))
    }
}

/// Deepest element nesting kept: elements with this many elements above them are left out,
/// with what they hold. The converter, the serializer and the renderer walk the tree
/// recursively; this bound keeps them within a 2 MiB thread stack (async runtimes give their
/// workers that much; 512 levels of plain `div`s overflowed it in a debug build), and real
/// pages stay far below it (a few dozen levels).
pub const MAX_DEPTH: usize = 256;

/// Nesting at which parsing stops at once: the HTML5 tree builder takes time quadratic in
/// the depth of its stack of open elements (a 1 MiB page of nested `div`s would take
/// minutes), so the sink watches the depth of what it builds and the feeding loop stops
/// after the chunk that went past this, keeping the tree built so far (the rest of the page
/// is not read). Well above [`MAX_DEPTH`], which the walk over the tree applies exactly.
const ABORT_DEPTH: u32 = 8 * MAX_DEPTH as u32;

/// Input is fed to the parser in chunks of this size, so that a runaway depth is noticed
/// early; larger chunks cost nothing measurable, smaller ones only calls.
const CHUNK: usize = 16 << 10;

/// What a page nested deeper than [`MAX_DEPTH`] lost: its deeper elements, and when the
/// nesting went past the parser's guard, everything after `read_up_to` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cut {
    pub read_up_to: Option<usize>,
}

/// A tree html5ever built, and where reading stopped at the guard, if it did.
struct Fed {
    arena: Arena,
    stopped_at: Option<usize>,
}

/// A parsed page, reduced to what ingestion reads: the `html` element (its attributes, and
/// as children its `head`, or the whole document when `whole` was asked) and the first
/// `main` in document order.
pub(crate) struct Page {
    pub root: HElement,
    main: Main,
    /// Set when elements were left out.
    pub cut: Option<Cut>,
}

#[derive(Debug, PartialEq)]
enum Main {
    Missing,
    /// Copied on its own (the root holds only `head`).
    Apart(HElement),
    /// Still in the whole tree.
    InRoot,
}

impl Page {
    pub(crate) fn has_main(&self) -> bool {
        !matches!(self.main, Main::Missing)
    }

    /// The first `main`, taken out of the page without copying it.
    pub(crate) fn take_main(&mut self) -> Option<HElement> {
        match std::mem::replace(&mut self.main, Main::Missing) {
            Main::Missing => None,
            Main::Apart(main) => Some(main),
            Main::InRoot => take_main(&mut self.root),
        }
    }
}

/// Parses a page. Elements outside `head` and the first `main` are only walked, never
/// copied, unless `whole` asks for the whole tree (`link hreflang` anywhere counts).
/// Elements nested deeper than [`MAX_DEPTH`] are left out (see [`Page::cut`]).
pub(crate) fn parse_page(html: &str, whole: bool) -> Page {
    if let Ok(page) = fast_path::parse_page(html, whole) {
        return page;
    }
    let read = if whole { Read::Whole } else { Read::UpToMain };
    page_from(feed(html, read, CHUNK), whole)
}

fn page_from(fed: Fed, whole: bool) -> Page {
    let Fed { arena, stopped_at } = fed;
    let Some(root) = arena
        .children(0)
        .find(|&i| matches!(arena.nodes[i].data, Data::Element { .. }))
    else {
        return Page {
            root: empty_element("html"),
            main: Main::Missing,
            cut: None,
        };
    };
    let outline = arena.outline(root);
    let cut = (outline.too_deep || stopped_at.is_some()).then_some(Cut {
        read_up_to: stopped_at,
    });
    if whole {
        let HNode::Element(root) = arena.to_owned(root, 0) else {
            unreachable!("checked to be an element")
        };
        let main = match outline.main {
            Some(_) => Main::InRoot,
            None => Main::Missing,
        };
        return Page { root, main, cut };
    }
    let mut shell = match arena.shallow(root) {
        HNode::Element(e) => e,
        _ => unreachable!("checked to be an element"),
    };
    if let Some(head) = outline.head {
        shell.children.push(arena.owned_head(head));
    }
    let main = match outline.main.map(|(m, depth)| arena.to_owned(m, depth)) {
        Some(HNode::Element(e)) => Main::Apart(e),
        _ => Main::Missing,
    };
    Page {
        root: shell,
        main,
        cut,
    }
}

/// How much of a page [`feed`] parses.
#[derive(Clone, Copy)]
enum Read {
    Whole,
    /// Up to the chunk in which the first `main` is known complete (see
    /// [`Sink::past_main`]); nothing after it is read.
    UpToMain,
}

/// Runs html5ever over `html` in chunks, stopping as soon as the tree gets too deep (with
/// the tree built so far) or, as `read` asks, once the first `main` is complete.
fn feed(html: &str, read: Read, chunk: usize) -> Fed {
    let up_to_main = matches!(read, Read::UpToMain);
    // As the reference parses (parse5 through rehype-parse): scripting off, so `noscript`
    // content is markup.
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: false,
            ..Default::default()
        },
        ..Default::default()
    };
    let mut parser = parse_document(Sink::for_input(html.len()), opts);
    let mut rest = html;
    while !rest.is_empty() {
        let mut end = rest.len().min(chunk);
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        parser.process(StrTendril::from_slice(&rest[..end]));
        rest = &rest[end..];
        let sink = &parser.tokenizer.sink.sink;
        let too_deep = sink.too_deep.get();
        if too_deep || (up_to_main && sink.past_main()) {
            return Fed {
                arena: Arena {
                    nodes: sink.arena.take(),
                },
                stopped_at: too_deep.then_some(html.len() - rest.len()),
            };
        }
    }
    Fed {
        arena: parser.finish(),
        stopped_at: None,
    }
}

fn empty_element(name: &str) -> HElement {
    HElement {
        name: LocalName::from(name),
        foreign: false,
        attrs: Vec::new(),
        children: Vec::new(),
    }
}

/// Takes the first `main` element (document order) out of the tree, without copying it.
fn take_main(e: &mut HElement) -> Option<HElement> {
    for child in &mut e.children {
        if let HNode::Element(child) = child {
            if child.is("main") {
                let shell = empty_element(&child.name);
                return Some(std::mem::replace(child, shell));
            }
            if let Some(found) = take_main(child) {
                return Some(found);
            }
        }
    }
    None
}

/// Whether the fast path and html5ever agree on `html`, for the whole tree and for `head`
/// with the first `main`: `Ok(true)` when the fast path took the page and built the same
/// tree, `Ok(false)` when it gave up, `Err` with both trees when they differ.
///
/// Where the fast path stops after `main`, html5ever parses the page up to the same point:
/// nothing after `main` is read on either path, but html5ever's stopping point depends on
/// its chunks.
pub(crate) fn fast_path_agrees(html: &str) -> Result<bool, String> {
    let html = fast_path::normalize_newlines(html);
    let mut accepted = false;
    for whole in [true, false] {
        let Ok((fast, read)) = fast_path::read_page(&html, whole) else {
            continue;
        };
        accepted = true;
        let mut fast = fast;
        // One chunk: html5ever drops a U+FEFF at the start of each chunk it is fed.
        let one_chunk = read.max(1);
        let mut slow = page_from(feed(&html[..read], Read::Whole, one_chunk), whole);
        if slow.cut.is_some() {
            return Err(format!(
                "fast path took a page nested too deeply: {:?}",
                fast.root
            ));
        }
        let (fast_main, slow_main) = (fast.take_main(), slow.take_main());
        let fast = format!("{:?}\n{fast_main:?}", fast.root);
        let slow = format!("{:?}\n{slow_main:?}", slow.root);
        if fast != slow {
            return Err(first_difference(whole, &fast, &slow));
        }
    }
    Ok(accepted)
}

/// Where two printed trees part, with some context.
fn first_difference(whole: bool, fast: &str, slow: &str) -> String {
    let at = fast
        .bytes()
        .zip(slow.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(fast.len().min(slow.len()));
    let around = |s: &str| {
        let (mut from, mut to) = (at.saturating_sub(300), (at + 200).min(s.len()));
        while !s.is_char_boundary(from) {
            from -= 1;
        }
        while !s.is_char_boundary(to) {
            to += 1;
        }
        s[from..to].to_owned()
    };
    format!(
        "whole tree: {whole}\nfast path: …{}…\nhtml5ever: …{}…",
        around(fast),
        around(slow)
    )
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
    match arena.to_owned(root, 0) {
        HNode::Element(e) => e.children,
        _ => Vec::new(),
    }
}

/// The whole parsed document (the `html` element), elements deeper than [`MAX_DEPTH`] left
/// out: for tests and the parse-only benchmark.
pub(crate) fn parse(html: &str) -> HElement {
    let arena = feed(html, Read::Whole, CHUNK).arena;
    match arena
        .children(0)
        .find(|&i| matches!(arena.nodes[i].data, Data::Element { .. }))
        .map(|root| arena.to_owned(root, 0))
    {
        Some(HNode::Element(e)) => e,
        _ => empty_element("html"),
    }
}

const NONE: u32 = u32::MAX;

struct ANode {
    /// Elements above this one when it was inserted (the parser's guard; not updated when
    /// the tree builder moves nodes, so [`Arena::outline`] measures the real depth).
    depth: u32,
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

    /// One walk over the element tree at `root` (template contents left out, as in
    /// [`Arena::to_owned`]): its `head` child, the first `main` in document order (not
    /// looked for among the elements left out) with its depth, and whether any element has
    /// [`MAX_DEPTH`] or more elements above it.
    fn outline(&self, root: usize) -> Outline {
        let mut outline = Outline {
            head: self
                .children(root)
                .find(|&i| self.is_html_element(i, "head")),
            main: None,
            too_deep: false,
        };
        // (element, its depth); children are pushed in reverse so they pop in order.
        let mut stack = vec![(root, 0usize)];
        let mut children = Vec::new();
        while let Some((i, depth)) = stack.pop() {
            if depth >= MAX_DEPTH {
                outline.too_deep = true;
                continue;
            }
            if outline.main.is_none() && self.is_html_element(i, "main") {
                outline.main = Some((i, depth));
            }
            if let Data::Element { template, .. } = &self.nodes[i].data
                && *template == NONE
            {
                children.clear();
                children.extend(
                    self.children(i)
                        .filter(|&c| matches!(self.nodes[c].data, Data::Element { .. })),
                );
                stack.extend(children.iter().rev().map(|&c| (c, depth + 1)));
            }
        }
        outline
    }

    /// `head` with what the metadata reads: its elements, without the text of scripts
    /// (JSON-LD's excepted) and styles, which can be most of a page's bytes.
    fn owned_head(&self, head: usize) -> HNode {
        let HNode::Element(mut owned) = self.shallow(head) else {
            return HNode::Text(String::new());
        };
        for child in self.children(head) {
            let skip_text = match &self.nodes[child].data {
                Data::Element { name, attrs, .. } => {
                    &*name.local == "style"
                        || (&*name.local == "script"
                            && !attrs.iter().any(|a| {
                                &*a.name.local == "type" && &*a.value == "application/ld+json"
                            }))
                }
                _ => false,
            };
            owned.children.push(if skip_text {
                self.shallow(child)
            } else {
                // `html` > `head` > the child.
                self.to_owned(child, 2)
            });
        }
        HNode::Element(owned)
    }

    fn is_html_element(&self, i: usize, local: &str) -> bool {
        matches!(&self.nodes[i].data, Data::Element { name, .. } if name.ns == ns!(html) && &*name.local == local)
    }

    /// The element at `index` without its children.
    fn shallow(&self, index: usize) -> HNode {
        match &self.nodes[index].data {
            Data::Element { name, attrs, .. } => HNode::Element(owned_element(name, attrs)),
            _ => HNode::Text(String::new()),
        }
    }

    /// Converts the subtree at `index`, which has `depth` elements above it in the
    /// document, into owned nodes, with an explicit stack so that deeply nested input cannot
    /// overflow the call stack. Elements with [`MAX_DEPTH`] or more elements above them are
    /// left out ([`Arena::outline`] notes that for a page).
    fn to_owned(&self, index: usize, depth: usize) -> HNode {
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
                    Data::Element { .. } if depth + open.len() >= MAX_DEPTH => None,
                    Data::Element {
                        name,
                        attrs,
                        template,
                    } => {
                        let mut element = owned_element(name, attrs);
                        stack.push(Work::Close);
                        // A template's content is a separate fragment, not children (as
                        // in hast): no pass of the converter looks into it.
                        if *template == NONE {
                            let children: Vec<usize> = self.children(i).collect();
                            // Sized to the children: grown from empty, one child took room
                            // for four (most of a page of small inline trees).
                            element.children.reserve_exact(children.len());
                            stack.extend(children.into_iter().rev().map(Work::Enter));
                        }
                        open.push(element);
                        None
                    }
                    Data::Text(t) => Some(HNode::Text(String::from(&**t))),
                    Data::Comment(t) => Some(HNode::Comment(String::from(&**t))),
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
        done.unwrap_or(HNode::Text(String::new()))
    }
}

/// What [`Arena::outline`] finds.
struct Outline {
    head: Option<usize>,
    /// The first `main` and its depth.
    main: Option<(usize, usize)>,
    too_deep: bool,
}

fn owned_element(name: &QualName, attrs: &[Attribute]) -> HElement {
    HElement {
        name: name.local.clone(),
        foreign: name.ns != ns!(html),
        attrs: attrs
            .iter()
            .map(|a| (a.name.local.clone(), String::from(&*a.value)))
            .collect(),
        children: Vec::new(),
    }
}

struct Sink {
    arena: RefCell<Vec<ANode>>,
    /// Set when an element went deeper than [`ABORT_DEPTH`].
    too_deep: std::cell::Cell<bool>,
    /// The first `main` element created, and the node inserted last (a text node that
    /// took more text counts; both NONE until there is one): what [`Sink::past_main`] reads.
    main: std::cell::Cell<u32>,
    last_inserted: std::cell::Cell<u32>,
}

impl Default for Sink {
    fn default() -> Self {
        let sink = Sink {
            arena: RefCell::new(Vec::new()),
            too_deep: std::cell::Cell::new(false),
            main: std::cell::Cell::new(NONE),
            last_inserted: std::cell::Cell::new(NONE),
        };
        sink.new_node(Data::Document);
        sink
    }
}

impl Sink {
    /// A sink whose arena holds a page of `len` bytes without growing (about one node per
    /// 64 bytes of markup), so that the arena is not copied again and again as it grows.
    fn for_input(len: usize) -> Self {
        let sink = Sink::default();
        sink.arena.borrow_mut().reserve(len / 64);
        sink
    }

    /// Whether the first `main` element is complete, so that the rest of the page cannot
    /// change it:
    /// - `main` is in the document (not in a template's contents) with no `table` above
    ///   it, whose foster parenting could still put a later `main` in front of it;
    /// - the node inserted last is in the document, and is neither `main`, nor inside it,
    ///   nor around it.
    ///
    /// While `main` is open the tree builder inserts at the current node, which is `main`
    /// or inside it, or in front of the last open table, which is inside it too. The one
    /// insertion elsewhere, the adoption agency's into a common ancestor, is followed in
    /// the same step by a new element in its furthest block, which is inside `main` or
    /// around it (the new element then holds `main`). So a node inserted elsewhere means
    /// that `main` has been closed.
    fn past_main(&self) -> bool {
        let (main, last) = (self.main.get(), self.last_inserted.get());
        if main == NONE || last == NONE || main == last {
            return false;
        }
        let nodes = self.arena.borrow();
        let ancestors = |from: u32| {
            std::iter::successors(Some(nodes[from as usize].parent), |&at| {
                (at != NONE).then(|| nodes[at as usize].parent)
            })
            .take_while(|&at| at != NONE)
        };
        let is_table = |at: u32| {
            matches!(&nodes[at as usize].data, Data::Element { name, .. }
                if name.ns == ns!(html) && &*name.local == "table")
        };
        // In the document: the walk up ends at the document node, 0.
        let in_document = |node: u32| ancestors(node).last() == Some(0);
        in_document(main)
            && in_document(last)
            && !ancestors(main).any(|at| is_table(at) || at == last)
            && !ancestors(last).any(|at| at == main)
    }

    fn new_node(&self, data: Data) -> u32 {
        let mut nodes = self.arena.borrow_mut();
        nodes.push(ANode {
            depth: 0,
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
        nodes[child as usize].depth = nodes[parent as usize].depth + 1;
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
        nodes[child as usize].depth = nodes[s].depth;
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

    /// The parser's guard: notes a node inserted deeper than [`ABORT_DEPTH`].
    fn watch_depth(&self, nodes: &[ANode], node: u32) {
        if nodes[node as usize].depth > ABORT_DEPTH {
            self.too_deep.set(true);
        }
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
        let is_main = name.ns == ns!(html) && &*name.local == "main";
        let node = self.new_node(Data::Element {
            name,
            attrs,
            template,
        });
        if is_main && self.main.get() == NONE {
            self.main.set(node);
        }
        node
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
                    self.last_inserted.set(last);
                    return;
                }
                self.new_node(Data::Text(text))
            }
            NodeOrText::AppendNode(node) => node,
        };
        self.last_inserted.set(node);
        let mut nodes = self.arena.borrow_mut();
        Self::append_node(&mut nodes, *parent, node);
        self.watch_depth(&nodes, node);
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
                    self.last_inserted.set(prev);
                    return;
                }
                self.new_node(Data::Text(text))
            }
            NodeOrText::AppendNode(node) => node,
        };
        self.last_inserted.set(node);
        let mut nodes = self.arena.borrow_mut();
        Self::insert_before(&mut nodes, *sibling, node);
        self.watch_depth(&nodes, node);
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
        self.last_inserted.set(*new_parent);
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

    /// The parser stops soon after the tree passes the guard's depth: a megabyte of nested
    /// elements is read up to its first chunks, not parsed to the end.
    #[test]
    fn parsing_stops_at_the_guard_depth() {
        let deep = "<div>".repeat(100_000);
        let fed = feed(&deep, Read::Whole, CHUNK);
        assert!(
            fed.stopped_at.is_some_and(|at| at <= 2 * CHUNK),
            "{:?}",
            fed.stopped_at
        );
        let mut parser = parse_document(Sink::default(), Default::default());
        let mut fed = 0;
        for chunk in deep.as_bytes().chunks(CHUNK) {
            parser.process(StrTendril::from_slice(std::str::from_utf8(chunk).unwrap()));
            fed += chunk.len();
            if parser.tokenizer.sink.sink.too_deep.get() {
                break;
            }
        }
        let created = parser.tokenizer.sink.sink.arena.borrow().len();
        assert!(fed <= 2 * CHUNK, "fed {fed} bytes");
        // One node per `<div>` fed, and the document, `html`, `head` and `body`.
        assert!(created <= fed / 5 + 4, "{created} nodes");
        // What does not nest is not counted: siblings, optional end tags, void elements.
        let flat = format!(
            "<main>{}{}</main>",
            "<div><span>a</span></div>".repeat(2_000),
            "<p>x<li>y<br><img>".repeat(2_000)
        );
        assert_eq!(feed(&flat, Read::Whole, CHUNK).stopped_at, None);
        // Markup in comments and scripts is text.
        let quoted = format!(
            "<!--{}--><script>{}</script>",
            "<div>".repeat(5_000),
            "<div>".repeat(5_000)
        );
        assert_eq!(feed(&quoted, Read::Whole, CHUNK).stopped_at, None);
    }

    /// The walk over the finished tree finds `head` and the first `main` (not one in a
    /// template, not a foreign one), and measures depth exactly.
    #[test]
    fn outline_finds_head_main_and_depth() {
        let page = |html: &str| parse_page(html, false);
        let p = page(
            "<title>T</title><template><main>t</main></template><svg><main/></svg><div><main id=a>x</main></div><main id=b></main>",
        );
        assert!(p.has_main());
        assert_eq!(p.root.children.len(), 1, "only head is copied");
        assert!(p.root.children[0].is_element("head"));
        let mut p = p;
        assert_eq!(p.take_main().unwrap().attr("id"), Some("a"));
        assert!(!page("<div>no main</div>").has_main());
        let nested = |depth: usize| format!("<main>{}x</main>", "<div>".repeat(depth));
        // The depth of the deepest `div` kept under `main`, and what the page lost.
        let kept = |html: &str, whole: bool| {
            let mut page = parse_page(html, whole);
            let mut e = page.take_main().expect("main");
            let mut divs = 0;
            while let Some(HNode::Element(child)) = e.children.first().cloned() {
                divs += 1;
                e = child;
            }
            (divs, page.cut)
        };
        // html, body and main are three levels: MAX_DEPTH elements in all is the limit.
        for whole in [false, true] {
            assert_eq!(kept(&nested(MAX_DEPTH - 3), whole), (MAX_DEPTH - 3, None));
            let cut = Some(Cut { read_up_to: None });
            assert_eq!(kept(&nested(MAX_DEPTH - 2), whole), (MAX_DEPTH - 3, cut));
            assert_eq!(kept(&nested(MAX_DEPTH * 2), whole), (MAX_DEPTH - 3, cut));
        }
        // Past the guard, what was read up to there, and nothing after.
        let guard = format!("{}<main id=after>", nested(MAX_DEPTH * 9));
        let (divs, cut) = kept(&guard, true);
        assert_eq!(divs, MAX_DEPTH - 3);
        assert!(cut.is_some_and(|c| c.read_up_to.is_some()), "{cut:?}");
        let mut whole = parse_page("<main><div><link hreflang=de href=/de></div></main>", true);
        assert!(whole.has_main());
        assert!(format!("{:?}", whole.root).contains("hreflang"));
        assert!(whole.take_main().is_some());
    }

    /// Reading stops once the first `main` is complete, and never earlier: with the input
    /// cut into chunks of every size up to 40 bytes, so that the parser stops at every
    /// possible point, `main` comes out as from the whole page. The pages move `main`
    /// around (adoption agency, foster parenting, templates) and close it in odd ways.
    #[test]
    fn reading_up_to_main_gives_the_same_main() {
        let pages = [
            "<main>a</main>after<div>more</div>",
            "<b><div><main>x</b>y</main>z",
            "<a><main>x</a>y</main>z",
            "<b><i><main><p>x</b>y</i>z</main>w",
            "<b><p><main>x</b>y<p>z",
            "<main><a>x</main>y</a>z",
            "<div><main>a</div>b<main>c</main>",
            "<p><main>a</p>b</main><p>c",
            "<table><tr><td><main>A</main></td></tr><main>B</main>x</table>y",
            "<main>a<table>x<tr><td>c</table>d</main>e",
            "<template><main>T</main></template><main>M</main>tail",
            "<svg><main>q</main></svg><main>m</main>n",
            "<main>a</main><main>b</main>",
            "<main><template>t</template>u</main>v",
            "<main>a<table><tr><td>b</main>c</table>d",
        ];
        for html in pages {
            let whole = format!("{:?}", parse_page(html, true).take_main());
            for chunk in 1..=40 {
                let mut page = page_from(feed(html, Read::UpToMain, chunk), false);
                let main = format!("{:?}", page.take_main());
                assert_eq!(main, whole, "{html} in chunks of {chunk}");
            }
        }
        // What follows the chunk in which `main` ends is not read, not even a nesting too
        // deep.
        let deep_after = format!(
            "<main>a</main>{}{}",
            "<p>filler</p>".repeat(CHUNK / 10),
            "<div>".repeat(MAX_DEPTH * 8)
        );
        assert_eq!(parse_page(&deep_after, false).cut, None);
        assert!(parse_page(&deep_after, true).cut.is_some());
    }

    #[test]
    fn adopts_misnested_content() {
        let html = parse("<main><div><b>a<p>b</b>c</p></div></main>");
        let text = format!("{html:?}");
        assert!(text.contains("\"a\""), "{text}");
    }
}
