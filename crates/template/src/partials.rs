//! Where partial templates come from, and how a render call compiles each
//! one once and reuses it.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;
use std::rc::Rc;

use super::error::TemplateError;
use super::node::{Indent, Node, PartialRef};
use super::parse::parse;

/// Supplies the source of partials by name, as the `partials` argument of
/// mustache.js's `render` does.
pub trait PartialSource {
    /// The template text of partial `name`, or `None` if there is no such
    /// partial; `{{>name}}` then renders as nothing.
    fn partial(&self, name: &str) -> Option<Cow<'_, str>>;
}

/// For templates that use no partials: every `{{>name}}` renders empty.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoPartials;

impl PartialSource for NoPartials {
    fn partial(&self, _name: &str) -> Option<Cow<'_, str>> {
        None
    }
}

impl<S: BuildHasher> PartialSource for HashMap<String, String, S> {
    fn partial(&self, name: &str) -> Option<Cow<'_, str>> {
        self.get(name).map(|s| Cow::Borrowed(s.as_str()))
    }
}

impl PartialSource for BTreeMap<String, String> {
    fn partial(&self, name: &str) -> Option<Cow<'_, str>> {
        self.get(name).map(|s| Cow::Borrowed(s.as_str()))
    }
}

impl<T: PartialSource + ?Sized> PartialSource for &T {
    fn partial(&self, name: &str) -> Option<Cow<'_, str>> {
        (**self).partial(name)
    }
}

/// A partial compiled for one render call. `Rc` lets the renderer keep
/// walking its nodes while the cache grows with further partials.
#[derive(Debug)]
pub(crate) struct Compiled {
    pub name: Box<str>,
    pub nodes: Vec<Node>,
    /// The indentation the nodes were compiled with, to report positions
    /// within the partial as written.
    indent: Option<Indent>,
}

impl Compiled {
    /// Attributes an error at one of this partial's tags to the partial.
    pub(crate) fn locate(&self, error: TemplateError) -> TemplateError {
        let error = match &self.indent {
            Some(indent) => unindent(error, indent),
            None => error,
        };
        TemplateError {
            partial: Some(self.name.to_string()),
            ..error
        }
    }
}

/// Compiled partials by name and indentation, including the names the
/// source did not know, so a partial inside a long list is looked up and
/// compiled once rather than once per element.
#[derive(Default)]
pub(crate) struct PartialCache {
    by_key: HashMap<Box<str>, Option<Rc<Compiled>>>,
}

impl PartialCache {
    pub(crate) fn resolve(
        &mut self,
        partial: &PartialRef,
        source: &dyn PartialSource,
    ) -> Result<Option<Rc<Compiled>>, TemplateError> {
        if let Some(found) = self.by_key.get(&*partial.cache_key) {
            return Ok(found.clone());
        }
        let found = match source.partial(&partial.name) {
            Some(text) => Some(Rc::new(compile(&text, partial)?)),
            None => None,
        };
        self.by_key.insert(partial.cache_key.clone(), found.clone());
        Ok(found)
    }
}

/// Compiles a partial as mustache.js does: with the default delimiters,
/// after prefixing the indentation of a standalone tag to its lines.
fn compile(text: &str, partial: &PartialRef) -> Result<Compiled, TemplateError> {
    let mut compiled = Compiled {
        name: partial.name.clone(),
        nodes: Vec::new(),
        indent: partial.indent.clone(),
    };
    let parsed = match &partial.indent {
        None => parse(text),
        Some(indent) => parse(&indent.apply(text)),
    };
    match parsed {
        Ok(nodes) => {
            compiled.nodes = nodes;
            Ok(compiled)
        }
        Err(error) => Err(compiled.locate(error)),
    }
}

/// Moves an error's column back to where the tag is in the partial as
/// written, before indentation was added.
fn unindent(mut error: TemplateError, indent: &Indent) -> TemplateError {
    if indent.shifts_line(error.line) {
        let width = indent.text.chars().count();
        error.column = error.column.saturating_sub(width).max(1);
    }
    error
}
