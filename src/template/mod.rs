//! Mustache templates rendered over JSON data, behaving as mustache.js 4.2
//! does, so that a template renders here exactly as it does in a
//! JavaScript host using that library.
//!
//! ```
//! use siteops::template::{NoPartials, Template};
//!
//! let template = Template::compile("Hello, {{name}}!").unwrap();
//! let data = serde_json::json!({ "name": "<World>" });
//! assert_eq!(template.render(&data, &NoPartials).unwrap(), "Hello, &lt;World&gt;!");
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
mod node;
pub(crate) mod number;
mod parse;
mod partials;
mod render;
mod scan;
mod value;

#[cfg(test)]
mod tests;

use serde_json::Value;

pub use error::TemplateError;
pub use escape::escape_html;
pub use partials::{NoPartials, PartialSource};

/// A compiled template: parse once, render many times, from any thread.
#[derive(Debug, Clone)]
pub struct Template {
    nodes: Box<[node::Node]>,
}

impl Template {
    /// Parses `source`. Malformed templates (unclosed or mismatched
    /// sections, an unclosed tag, an invalid delimiter change) are errors
    /// giving the line and column of the offending tag.
    pub fn compile(source: &str) -> Result<Template, TemplateError> {
        let nodes = parse::parse(source)?;
        Ok(Template {
            nodes: nodes.into_boxed_slice(),
        })
    }

    /// Renders over `data`. Partials are looked up by name through
    /// `partials` when first used and compiled once per call.
    pub fn render(
        &self,
        data: &Value,
        partials: &dyn PartialSource,
    ) -> Result<String, TemplateError> {
        let mut out = String::new();
        self.render_to(data, partials, &mut out)?;
        Ok(out)
    }

    /// Renders into an existing `String` (lets callers reuse buffers),
    /// appending to what it holds. On error `out` is left as it was.
    pub fn render_to(
        &self,
        data: &Value,
        partials: &dyn PartialSource,
        out: &mut String,
    ) -> Result<(), TemplateError> {
        let start = out.len();
        let result = render::render(&self.nodes, data, partials, out);
        if result.is_err() {
            out.truncate(start);
        }
        result
    }
}
