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

    /// The byte offset of a position (the inverse of [`SourceFile::position`]); a
    /// position past the end of its line or of the file is clamped to that end.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&line_start) = self.line_starts.get(position.line.saturating_sub(1)) else {
            return self.text.len();
        };
        let line = &self.text[line_start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        line_start
            + line
                .char_indices()
                .nth(position.column.saturating_sub(1))
                .map_or(line.len(), |(at, _)| at)
    }

    /// Start and end positions of a span (the end is exclusive, like the span).
    pub fn range(&self, span: &Range<usize>) -> (Position, Position) {
        (self.position(span.start), self.position(span.end))
    }

    /// The whole lines a span touches: from the start of its first line to the end of its
    /// last (with that line's `\n`, if any; a span ending just after a `\n` touches the
    /// next line), and the 1-based number of the first line. In
    /// O(log n + span): renderers quote these lines only, as quoting the whole file for
    /// each diagnostic made reports quadratic in the number of problems.
    pub fn lines_of(&self, span: &Range<usize>) -> (Range<usize>, usize) {
        let start = self.floor_char_boundary(span.start.min(self.text.len()));
        let end = self.floor_char_boundary(span.end.clamp(start, self.text.len()));
        let first = self.line_starts.partition_point(|&s| s <= start) - 1;
        // A span that ends just after a `\n` reaches the next line, as renderers show it.
        let last = self.line_starts.partition_point(|&s| s <= end) - 1;
        let stop = self
            .line_starts
            .get(last + 1)
            .copied()
            .unwrap_or(self.text.len());
        (self.line_starts[first]..stop, first + 1)
    }

    /// A byte range made safe to slice this text with: within it, on character
    /// boundaries. Spans computed elsewhere (a parser's byte column, a lossy decoding)
    /// may be neither; a diagnostic never panics on them.
    pub fn clamp(&self, bytes: &Range<usize>) -> Range<usize> {
        let start = self.floor_char_boundary(bytes.start.min(self.text.len()));
        let end = self.floor_char_boundary(bytes.end.clamp(start, self.text.len()));
        start..end
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

    #[test]
    fn offsets_of_positions_invert_positions() {
        let file = SourceFile::new("a.html", "ab\nçd = 1\n\nx");
        for offset in [0, 2, 3, 5, 11, 12, 13] {
            assert_eq!(file.offset(file.position(offset)), offset, "{offset}");
        }
        assert_eq!(
            file.offset(Position {
                line: 1,
                column: 99
            }),
            2
        );
        assert_eq!(
            file.offset(Position {
                line: 99,
                column: 1
            }),
            13
        );
    }

    #[test]
    fn ranges_are_clamped_to_the_text_and_its_characters() {
        let file = SourceFile::new("a.json", "aç\n");
        assert_eq!(file.clamp(&(2..99)), 1..4);
        assert_eq!(file.clamp(&(9..12)), 4..4);
        assert_eq!(file.clamp(&(0..2)), 0..1);
    }

    #[test]
    fn the_lines_of_a_span_are_found_by_index_not_by_scanning() {
        let file = SourceFile::new("a.toml", "ab\nçd = 1\n\nx");
        let lines = |range: std::ops::Range<usize>| {
            let (bytes, first) = file.lines_of(&range);
            (&file.text[bytes], first)
        };
        assert_eq!(lines(0..1), ("ab\n", 1));
        assert_eq!(lines(3..5), ("çd = 1\n", 2));
        // Ending just after a newline reaches the next line; an empty span is its line.
        assert_eq!(lines(1..3), ("ab\nçd = 1\n", 1));
        assert_eq!(lines(11..11), ("\n", 3));
        assert_eq!(lines(1..5), ("ab\nçd = 1\n", 1));
        assert_eq!(lines(12..13), ("x", 4));
        assert_eq!(
            lines(13..13),
            ("x", 4),
            "the end of the file is on the last line"
        );
        assert_eq!(lines(999..999), ("x", 4), "past the end clamps");
    }
}
