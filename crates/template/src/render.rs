//! Executes compiled nodes over JSON data. A loop with explicit stacks
//! (context values, open sections, partials being rendered) rather than
//! recursion, so neither nesting depth nor data size can overflow the
//! call stack; only partial nesting is bounded, by [`MAX_PARTIAL_DEPTH`].

use std::rc::Rc;

use super::context::{Context, NullFrame};
use super::error::{Full, Pos, RenderError, TemplateError};
use super::node::{Node, Path};
use super::partials::{Compiled, PartialCache, PartialSource};
use super::value::{Item, push_within};
use crate::json::{Elements, JsonRef};

/// How deeply partials may include partials. mustache.js has no limit of
/// its own and fails when the JavaScript stack runs out; a recursive
/// partial that never bottoms out must fail here too, but cleanly.
pub(crate) const MAX_PARTIAL_DEPTH: usize = 100;

pub(crate) fn render(
    nodes: &[Node],
    data: JsonRef<'_>,
    source: &dyn PartialSource,
    out: &mut String,
    limit: usize,
    record: Option<&mut Record>,
) -> Result<(), RenderError> {
    let mut renderer = Renderer {
        record,
        source,
        limit,
        cache: PartialCache::default(),
        context: Context::new(Item::from(data)),
        frames: Vec::new(),
        depth: 0,
    };
    renderer.run(
        Cursor {
            nodes: Nodes::Main(nodes),
            pc: 0,
        },
        out,
    )
}

/// The node list being executed: the template's own, or a partial's.
#[derive(Clone)]
enum Nodes<'t> {
    Main(&'t [Node]),
    Partial(Rc<Compiled>),
}

impl Nodes<'_> {
    fn as_slice(&self) -> &[Node] {
        match self {
            Nodes::Main(nodes) => nodes,
            Nodes::Partial(compiled) => &compiled.nodes,
        }
    }

    /// Attributes an error at one of these nodes to where they came from.
    fn locate(&self, error: TemplateError) -> TemplateError {
        match self {
            Nodes::Main(_) => error,
            Nodes::Partial(compiled) => compiled.locate(error),
        }
    }
}

struct Cursor<'t> {
    nodes: Nodes<'t>,
    pc: usize,
}

enum Frame<'t, 'd> {
    /// A section body running with a value pushed on the context; `rest`
    /// holds the list elements still to go.
    Section {
        start: usize,
        end: usize,
        rest: Elements<'d>,
    },
    /// A partial being rendered, and where to continue after it.
    Partial(Cursor<'t>),
}

/// What a recording render saw of the main template's names: per tag, its name, whether
/// it opens a section, and whether any lookup of it found something in the data.
pub(crate) type Record = std::collections::HashMap<Pos, (String, bool, bool)>;

struct Renderer<'t, 'd, 's> {
    /// Set only by [`crate::Template::render_recording`]: a normal render pays one
    /// untaken branch per lookup.
    record: Option<&'s mut Record>,
    source: &'s dyn PartialSource,
    cache: PartialCache,
    context: Context<'d>,
    frames: Vec<Frame<'t, 'd>>,
    depth: usize,
    /// The largest `out` may grow, in bytes: checked before each write, so the render
    /// stops before the output passes it rather than after building it.
    limit: usize,
}

impl<'t, 'd> Renderer<'t, 'd, '_> {
    fn run(&mut self, mut cur: Cursor<'t>, out: &mut String) -> Result<(), RenderError> {
        let limit = self.limit;
        let too_large = move |Full| RenderError::TooLarge { limit };
        loop {
            if self.finish_body(&mut cur) {
                continue;
            }
            let Some(node) = cur.nodes.as_slice().get(cur.pc) else {
                return Ok(());
            };
            match node {
                Node::Text(text) => {
                    push_within(out, text, limit).map_err(too_large)?;
                    cur.pc += 1;
                }
                Node::Var { path, escape, pos } => {
                    let value = self.context.lookup(path);
                    let value = value.map_err(|e| null_frame_error(e, *pos, &cur))?;
                    if self.record.is_some() {
                        self.note(path, false, value, *pos, &cur);
                    }
                    value.write(out, *escape, limit).map_err(too_large)?;
                    cur.pc += 1;
                }
                Node::Section {
                    path,
                    inverted,
                    end,
                    pos,
                } => {
                    let value = self.context.lookup(path);
                    let value = value.map_err(|e| null_frame_error(e, *pos, &cur))?;
                    // An inverted section is there for the name's absence.
                    if self.record.is_some() && !*inverted {
                        self.note(path, true, value, *pos, &cur);
                    }
                    cur.pc = self.enter_section(value, *inverted, cur.pc + 1, *end);
                }
                Node::Partial(partial) => {
                    if let Some(compiled) = self.cache.resolve(partial, self.source)? {
                        self.check_depth(&partial.name, partial.pos, &cur)?;
                        self.depth += 1;
                        let resume = Cursor {
                            nodes: cur.nodes.clone(),
                            pc: cur.pc + 1,
                        };
                        self.frames.push(Frame::Partial(resume));
                        cur = Cursor {
                            nodes: Nodes::Partial(compiled),
                            pc: 0,
                        };
                    } else {
                        cur.pc += 1;
                    }
                }
            }
        }
    }

    /// Handles reaching the end of the innermost section body (next list
    /// element, or leave) or of a partial (return to the includer).
    /// Returns whether the cursor was moved.
    fn finish_body(&mut self, cur: &mut Cursor<'t>) -> bool {
        match self.frames.last_mut() {
            Some(Frame::Section { start, end, rest }) if cur.pc == *end => {
                if let Some(next) = rest.next() {
                    self.context.replace_top(Item::from(next));
                    cur.pc = *start;
                } else {
                    self.context.pop();
                    self.frames.pop();
                }
                true
            }
            Some(Frame::Partial(_)) if cur.pc >= cur.nodes.as_slice().len() => {
                if let Some(Frame::Partial(resume)) = self.frames.pop() {
                    *cur = resume;
                    self.depth -= 1;
                }
                true
            }
            _ => false,
        }
    }

    /// Decides a section as mustache.js's `renderSection` and
    /// `renderInverted` do, and returns where to go next: into the body
    /// at `body`, or past it to `end`.
    fn enter_section(&mut self, value: Item<'d>, inverted: bool, body: usize, end: usize) -> usize {
        if inverted {
            return if value.is_blank() { body } else { end };
        }
        if !value.is_truthy() {
            return end;
        }
        match value {
            Item::Array(items) => {
                let mut rest = items.elements();
                let Some(first) = rest.next() else {
                    return end;
                };
                self.context.push(Item::from(first));
                self.frames.push(Frame::Section {
                    start: body,
                    end,
                    rest,
                });
                body
            }
            // `true` renders the body once in the unchanged context.
            Item::Bool(_) => body,
            other => {
                self.context.push(other);
                self.frames.push(Frame::Section {
                    start: body,
                    end,
                    rest: Elements::default(),
                });
                body
            }
        }
    }

    /// Records a lookup of a main-template tag (a partial's tags have positions in
    /// another text).
    #[cold]
    #[inline(never)]
    fn note(&mut self, path: &Path, section: bool, value: Item<'d>, pos: Pos, cur: &Cursor<'_>) {
        if !matches!(cur.nodes, Nodes::Main(_)) {
            return;
        }
        let found = !matches!(value, Item::Null) || self.context.finds(path);
        if let Some(record) = self.record.as_deref_mut() {
            let entry = record
                .entry(pos)
                .or_insert_with(|| (path.to_string(), section, false));
            entry.2 |= found;
        }
    }

    fn check_depth(&self, name: &str, pos: Pos, cur: &Cursor<'_>) -> Result<(), TemplateError> {
        if self.depth < MAX_PARTIAL_DEPTH {
            return Ok(());
        }
        let message = format!(
            "Partial \"{name}\" nested more than {MAX_PARTIAL_DEPTH} deep (endless recursion?)"
        );
        Err(located(message, pos, cur))
    }
}

/// The error for a name looked up through a null context value. Kept out
/// of line: building it is rare, and a lookup returning this large error
/// type by value would slow down every lookup.
#[cold]
#[inline(never)]
fn null_frame_error(error: NullFrame<'_>, pos: Pos, cur: &Cursor<'_>) -> TemplateError {
    let NullFrame(name) = error;
    let message = format!("Cannot read properties of null (reading '{name}')");
    located(message, pos, cur)
}

/// An error at a tag in the node list `cur` is running.
fn located(message: String, pos: Pos, cur: &Cursor<'_>) -> TemplateError {
    cur.nodes.locate(TemplateError::at(message, pos))
}
