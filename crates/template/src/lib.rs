//! Mustache templates rendered over JSON data, behaving as mustache.js 4.2
//! does, so that a template renders here exactly as it does in a
//! JavaScript host using that library.
//!
//! ```
//! use siteops_template::{NoPartials, Template};
//!
//! let template = Template::compile("Hello, {{name}}!").unwrap();
//! let data = serde_json::json!({ "name": "<World>" });
//! assert_eq!(template.render_value(&data, &NoPartials).unwrap(), "Hello, &lt;World&gt;!");
//! ```
//!
//! Where mustache.js and the Mustache specification disagree, this follows
//! mustache.js: dotted names are resolved as a whole chain per context frame,
//! numeric name segments index arrays, `length` works on lists and strings,
//! and `{{name}}` escapes eight characters rather than four. Lambdas do not
//! apply, as JSON holds no functions.

mod context;
mod error;
mod escape;
#[doc(hidden)]
pub mod fuzzing;
pub mod json;
mod node;
pub mod number;
mod parse;
mod partials;
mod render;
mod scan;
mod value;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::json::{Json, JsonRef};

pub use error::{RenderError, TemplateError};
pub use escape::escape_html;
pub use partials::{NoPartials, PartialSource};

/// A compiled template: parse once, render many times, from any thread.
#[derive(Debug, Clone)]
pub struct Template {
    nodes: Box<[node::Node]>,
    /// Bytes of literal text, the least a render writes.
    text_len: usize,
}

impl Template {
    /// Parses `source`. Malformed templates (unclosed or mismatched
    /// sections, an unclosed tag, an invalid delimiter change) are errors
    /// giving the line and column of the offending tag.
    pub fn compile(source: &str) -> Result<Template, TemplateError> {
        let nodes = parse::parse(source)?;
        let text_len = nodes
            .iter()
            .map(|node| match node {
                node::Node::Text(text) => text.len(),
                _ => 0,
            })
            .sum();
        Ok(Template {
            nodes: nodes.into_boxed_slice(),
            text_len,
        })
    }

    /// Renders over `data`. Partials are looked up by name through
    /// `partials` when first used and compiled once per call.
    pub fn render(
        &self,
        data: JsonRef<'_>,
        partials: &dyn PartialSource,
    ) -> Result<String, TemplateError> {
        self.render_limited(data, partials, usize::MAX)
            .map_err(unlimited)
    }

    /// [`render`](Self::render), stopping with [`RenderError::TooLarge`] as soon as the
    /// output would pass `limit` bytes: the oversized text is never built, so a render
    /// holds at most `limit` bytes of output whatever the data.
    pub fn render_limited(
        &self,
        data: JsonRef<'_>,
        partials: &dyn PartialSource,
        limit: usize,
    ) -> Result<String, RenderError> {
        // Growing a large output by doubling copies it again and again. Reserve for the
        // template's text plus a generous allowance per data node: address space that a
        // render does not use is never touched, so over-reserving costs little. Never
        // more than the limit, which the output cannot pass.
        let estimate = self.text_len + data.node_count().saturating_mul(32);
        let mut out = String::with_capacity(estimate.min(limit));
        self.render_limited_to(data, partials, &mut out, limit)?;
        Ok(out)
    }

    /// Renders into an existing `String` (lets callers reuse buffers),
    /// appending to what it holds. On error `out` is left as it was.
    pub fn render_to(
        &self,
        data: JsonRef<'_>,
        partials: &dyn PartialSource,
        out: &mut String,
    ) -> Result<(), TemplateError> {
        self.render_limited_to(data, partials, out, usize::MAX)
            .map_err(unlimited)
    }

    /// [`render_to`](Self::render_to) with `out` held to `limit` bytes in all (what it
    /// held before counts). On error `out` is left as it was.
    pub fn render_limited_to(
        &self,
        data: JsonRef<'_>,
        partials: &dyn PartialSource,
        out: &mut String,
        limit: usize,
    ) -> Result<(), RenderError> {
        let start = out.len();
        let result = render::render(&self.nodes, data, partials, out, limit, None);
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// [`render_limited`](Self::render_limited), also recording the names the template's
    /// tags looked up (`{{name}}`, `{{{name}}}`, `{{&name}}`, `{{#name}}`; not inverted
    /// sections, whose point is a name's absence, nor tags inside partials) with where
    /// they are and whether they found anything in the data: a tag that never found its
    /// name rendered empty, which is how a misspelt name shows. Tags that did not run
    /// (inside a section that did not render) are not listed. Output and errors are
    /// those of `render_limited`; normal renders do not pay for the recording.
    pub fn render_recording(
        &self,
        data: JsonRef<'_>,
        partials: &dyn PartialSource,
        limit: usize,
    ) -> (Result<String, RenderError>, Vec<Lookup>) {
        let mut record = render::Record::default();
        let mut out = String::new();
        let result = render::render(
            &self.nodes,
            data,
            partials,
            &mut out,
            limit,
            Some(&mut record),
        );
        let mut lookups: Vec<Lookup> = record
            .into_iter()
            .map(|(pos, (name, section, found))| Lookup {
                name,
                line: pos.line as usize,
                column: pos.column as usize,
                section,
                found,
            })
            .collect();
        lookups.sort_by_key(|l| (l.line, l.column));
        (result.map(|()| out), lookups)
    }

    /// Renders over a `serde_json::Value`, for callers that hold one (tests, small data):
    /// the value is encoded and parsed into the document form [`render`](Self::render) reads.
    pub fn render_value(
        &self,
        data: &Value,
        partials: &dyn PartialSource,
    ) -> Result<String, TemplateError> {
        let text = serde_json::to_vec(data).unwrap_or_default();
        let mut buffer = Vec::new();
        match Json::parse(&text, &mut buffer) {
            Ok(json) => self.render(json.root(), partials),
            // A `Value` always encodes to valid JSON.
            Err(_) => self.render(Json::null().root(), partials),
        }
    }
}

/// A tag of the template as a recording render saw it
/// ([`Template::render_recording`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lookup {
    /// The name as the tag writes it (`a.b`, `.`).
    pub name: String,
    /// 1-based line and column (in characters) of the tag's opening delimiter.
    pub line: usize,
    pub column: usize,
    /// `{{#name}}` rather than a variable.
    pub section: bool,
    /// Whether any lookup of it found the name in the data (a `null` value counts as
    /// found: the data has it). `false`: every time, it rendered as nothing.
    pub found: bool,
}

/// The error of a render without a limit. No output reaches `usize::MAX` bytes (memory
/// runs out long before), so only a template error can come back; the other arm keeps
/// that a message rather than a panic.
fn unlimited(error: RenderError) -> TemplateError {
    match error {
        RenderError::Template(error) => error,
        too_large @ RenderError::TooLarge { .. } => TemplateError {
            message: too_large.to_string(),
            line: 1,
            column: 1,
            partial: None,
        },
    }
}
