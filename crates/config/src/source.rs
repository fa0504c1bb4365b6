//! Source files and positions: turns byte offsets into the line and column a person reads.

use std::ops::Range;
use std::sync::Arc;

/// One text file of the repository, with a line index so a byte offset maps to a line in
/// O(log n). Shared (`Arc`) between the parsed document and every diagnostic renderer.
#[derive(Debug)]
pub struct SourceFile {
    /// Repository-relative path with `/` separators, as printed in diagnostics.
    pub path: String,
    pub text: String,
    line_starts: Vec<usize>,
}

/// A 1-based line and column; the column counts characters, not bytes, as editors and the
/// GitHub annotation format do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Arc<SourceFile> {
        let text = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Arc::new(SourceFile {
            path: path.into(),
            text,
            line_starts,
        })
    }

    /// The position of a byte offset; offsets past the end or inside a character are clamped.
    pub fn position(&self, offset: usize) -> Position {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line_index = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let line_start = self.line_starts[line_index];
        let column = self.text[line_start..offset].chars().count() + 1;
        Position {
            line: line_index + 1,
            column,
        }
    }

    /// Start and end positions of a span (the end is exclusive, like the span).
    pub fn range(&self, span: &Range<usize>) -> (Position, Position) {
        (self.position(span.start), self.position(span.end))
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let file = SourceFile::new("a.toml", "ab\nçd = 1\n\nx");
        let at = |offset| {
            let p = file.position(offset);
            (p.line, p.column)
        };
        assert_eq!(at(0), (1, 1));
        assert_eq!(at(2), (1, 3));
        assert_eq!(at(3), (2, 1));
        // `ç` is two bytes but one column.
        assert_eq!(at(5), (2, 2));
        assert_eq!(at(4), (2, 1), "inside a character clamps to its start");
        assert_eq!(at(11), (3, 1));
        assert_eq!(at(12), (4, 1));
        assert_eq!(at(999), (4, 2), "past the end clamps to the end");
    }
}
