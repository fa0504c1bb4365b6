//! Foreign content: inline SVG (icons, logos, sprites), as long as no HTML element is in
//! it. An HTML element that breaks out of it, or a start tag in one of its HTML
//! integration points (`title`, `desc`, `foreignObject`), gives up.

use html5ever::{LocalName, local_name};

use super::names::{svg_attribute_name, svg_tag_name};
use super::*;

impl<'a> Builder<'a> {
    /// `<svg>` in the body: foreign content starts.
    pub(super) fn svg(&mut self, attrs: Attrs, self_closing: bool) -> Result<(), Bail> {
        self.insert_element(local_name!("svg"), svg_attributes(attrs), true)?;
        if self_closing {
            self.pop();
        }
        Ok(())
    }

    /// Whether the current node is SVG, so that `token` follows the rules for foreign
    /// content rather than the insertion mode's.
    pub(super) fn in_foreign(&self, token: &Token<'a>) -> Result<bool, Bail> {
        let Some(current) = self.stack.last() else {
            return Ok(false);
        };
        if !current.element.foreign {
            return Ok(false);
        }
        let integration_point =
            matches!(&*current.element.name, "title" | "desc" | "foreignObject");
        Ok(match token {
            Token::Eof => false,
            // Text in an integration point is inserted as in the body, which is the same.
            Token::Text(_) if integration_point => false,
            Token::Start { .. } if integration_point => return Err(Bail),
            _ => true,
        })
    }

    pub(super) fn foreign(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Text(text) => self.insert_text(text),
            Token::Comment(text) => self.insert_comment(text),
            Token::Start {
                name,
                attrs,
                self_closing,
            } => {
                if breaks_out(&name, &attrs) {
                    return Err(Bail);
                }
                self.insert_element(svg_tag_name(name), svg_attributes(attrs), true)?;
                if self_closing {
                    self.pop();
                }
            }
            Token::End(name) => {
                if matches!(name, local_name!("br") | local_name!("p")) {
                    return Err(Bail);
                }
                // The nearest SVG element of that name closes, with what is above it; an
                // HTML element met first hands the tag to the insertion mode.
                let at = self
                    .stack
                    .iter()
                    .rposition(|o| !o.element.foreign || o.element.name.eq_ignore_ascii_case(&name))
                    .ok_or(Bail)?;
                if !self.stack[at].element.foreign {
                    return Err(Bail);
                }
                while self.stack.len() > at {
                    self.pop();
                }
            }
            Token::Doctype | Token::Eof => return Err(Bail),
        }
        Ok(Flow::Done)
    }
}

/// The attributes of an SVG element, with the names the tree builder adjusts.
fn svg_attributes(attrs: Attrs) -> Attrs {
    attrs
        .into_iter()
        .map(|(name, value)| (svg_attribute_name(name), value))
        .collect()
}

/// HTML start tags that end foreign content.
fn breaks_out(name: &LocalName, attrs: &Attrs) -> bool {
    match *name {
        local_name!("font") => attrs
            .iter()
            .any(|(n, _)| matches!(&**n, "color" | "face" | "size")),
        _ => matches!(
            &**name,
            "b" | "big"
                | "blockquote"
                | "body"
                | "br"
                | "center"
                | "code"
                | "dd"
                | "div"
                | "dl"
                | "dt"
                | "em"
                | "embed"
                | "h1"
                | "h2"
                | "h3"
                | "h4"
                | "h5"
                | "h6"
                | "head"
                | "hr"
                | "i"
                | "img"
                | "li"
                | "listing"
                | "menu"
                | "meta"
                | "nobr"
                | "ol"
                | "p"
                | "pre"
                | "ruby"
                | "s"
                | "small"
                | "span"
                | "strong"
                | "strike"
                | "sub"
                | "sup"
                | "table"
                | "tt"
                | "u"
                | "ul"
                | "var"
        ),
    }
}
