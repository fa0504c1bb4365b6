//! The error type and the bookkeeping that turns byte offsets into the
//! 1-based line and column a person looks for in an editor.

/// A template that could not be compiled or rendered.
///
/// `line` and `column` are 1-based and point at the first character of the
/// offending tag (the opening delimiter); columns count Unicode characters,
/// not bytes. When the tag is inside a partial, `partial` names it and the
/// position is within that partial's own text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at line {line}, column {column}")]
pub struct TemplateError {
    /// What went wrong, worded like mustache.js's messages.
    pub message: String,
    /// 1-based line of the offending tag.
    pub line: usize,
    /// 1-based column (in characters) of the offending tag.
    pub column: usize,
    /// The partial whose text holds the tag, or `None` for the main template.
    pub partial: Option<String>,
}

impl TemplateError {
    pub(crate) fn at(message: impl Into<String>, pos: Pos) -> Self {
        Self {
            message: message.into(),
            line: pos.line as usize,
            column: pos.column as usize,
            partial: None,
        }
    }
}

/// Why a render produced no output.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The template failed on the data, as mustache.js would.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// The output would pass `limit` bytes; the render stopped there.
    #[error("the output would be larger than {limit} bytes")]
    TooLarge {
        /// The limit given to the render, in bytes.
        limit: usize,
    },
}

/// The output would pass its limit: the renderer's internal signal, which
/// [`RenderError::TooLarge`] reports with the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Full;

/// A tag's place in its source, kept on render-time nodes so that errors
/// found while rendering can still point at the tag. `u32` keeps nodes small.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Pos {
    pub line: u32,
    pub column: u32,
}

/// Converts increasing byte offsets into positions in one pass over the
/// source: the parser asks in source order, so each character is counted once.
pub(crate) struct Locator<'s> {
    src: &'s str,
    offset: usize,
    line: usize,
    column: usize,
}

impl<'s> Locator<'s> {
    pub(crate) fn new(src: &'s str) -> Self {
        Self {
            src,
            offset: 0,
            line: 1,
            column: 1,
        }
    }

    /// The position of the character at byte `offset`. Offsets before the
    /// previous one restart the count, so the answer is right in any order.
    pub(crate) fn locate(&mut self, offset: usize) -> Pos {
        if offset < self.offset {
            *self = Self::new(self.src);
        }
        if let Some(skipped) = self.src.get(self.offset..offset) {
            for c in skipped.chars() {
                if c == '\n' {
                    self.line += 1;
                    self.column = 1;
                } else {
                    self.column += 1;
                }
            }
            self.offset = offset;
        }
        Pos {
            line: saturate(self.line),
            column: saturate(self.column),
        }
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
