//! A cursor over the template source that reproduces the regular expressions
//! mustache.js's `Scanner` uses, so that tags are cut at exactly the same
//! places (which whitespace is trimmed, where a tag ends).

/// JavaScript's `\s`: the characters mustache.js trims around tag contents
/// and treats as blank when deciding whether a line is standalone. It
/// differs from `char::is_whitespace` (U+FEFF is in, U+0085 is out).
pub(crate) fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// Position in the source, always on a character boundary because it only
/// moves past whole matched strings.
pub(crate) struct Scanner<'s> {
    src: &'s str,
    pos: usize,
}

impl<'s> Scanner<'s> {
    pub(crate) fn new(src: &'s str) -> Self {
        Self { src, pos: 0 }
    }

    /// Byte offset of the cursor.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn is_done(&self) -> bool {
        self.pos >= self.src.len()
    }

    /// The source between two earlier cursor positions.
    pub(crate) fn slice(&self, from: usize, to: usize) -> &'s str {
        self.src.get(from..to).unwrap_or("")
    }

    fn rest(&self) -> &'s str {
        self.src.get(self.pos..).unwrap_or("")
    }

    /// Consumes `literal` if the rest starts with it.
    pub(crate) fn eat(&mut self, literal: &str) -> bool {
        let found = self.rest().starts_with(literal);
        if found {
            self.pos += literal.len();
        }
        found
    }

    /// Consumes one character if `accept` likes it.
    pub(crate) fn eat_char(&mut self, accept: impl Fn(char) -> bool) -> Option<char> {
        let c = self.rest().chars().next().filter(|&c| accept(c))?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Consumes JavaScript whitespace (mustache.js's `/\s*/`).
    pub(crate) fn skip_whitespace(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start_matches(is_js_whitespace).len();
    }

    /// Consumes and returns everything before the next `needle`, or the
    /// whole rest when there is none (mustache.js's `scanUntil(/needle/)`).
    pub(crate) fn until(&mut self, needle: &str) -> &'s str {
        let rest = self.rest();
        let text = rest
            .find(needle)
            .and_then(|i| rest.get(..i))
            .unwrap_or(rest);
        self.pos += text.len();
        text
    }

    /// mustache.js's `scanUntil(/\s*needle/)`: like [`Self::until`] but
    /// leaves the whitespace before the needle unconsumed and out of the
    /// returned value, which is how tag contents lose trailing blanks.
    pub(crate) fn until_trimmed(&mut self, needle: &str) -> &'s str {
        let rest = self.rest();
        let text = match rest.find(needle).and_then(|i| rest.get(..i)) {
            Some(before) => before.trim_end_matches(is_js_whitespace),
            None => rest,
        };
        self.pos += text.len();
        text
    }

    /// mustache.js's `scan(/\s*needle/)`: whitespace then `needle`, or
    /// nothing consumed at all.
    pub(crate) fn eat_after_whitespace(&mut self, needle: &str) -> bool {
        let start = self.pos;
        self.skip_whitespace();
        let found = self.eat(needle);
        if !found {
            self.pos = start;
        }
        found
    }
}
