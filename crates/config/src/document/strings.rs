//! From bytes of a string value as parsed to the bytes of the file that wrote it: so a
//! diagnostic about the `{{idd}}` of an endpoint points at `{{idd}}`, not the whole string.
//!
//! Handles the one-line forms, in TOML and YAML: quoted with `"` (backslash escapes),
//! with `'` (none, or YAML's `''`), and YAML's plain scalars. Anything else (multi-line
//! strings, block scalars, where folding and trimming move text about) gives `None`, and
//! the diagnostic keeps the whole value.

use std::ops::Range;

/// The bytes of `raw` (a value's text in the file, quotes included) that wrote bytes
/// `within` of the parsed string, or `None` when that cannot be told.
pub(super) fn narrow(raw: &str, within: &Range<usize>) -> Option<Range<usize>> {
    if raw.contains('\n') || raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        return None;
    }
    let (body, escapes) = if let Some(body) = quoted(raw, '"') {
        (body, Escapes::Backslash)
    } else if let Some(body) = quoted(raw, '\'') {
        (body, Escapes::DoubledQuote)
    } else if raw.starts_with(['[', '{', '|', '>', '&', '*', '!']) {
        return None;
    } else {
        (raw, Escapes::None)
    };
    let open = usize::from(body.len() != raw.len());
    // Each parsed character: where it starts in the parsed string, and the bytes of the
    // body that wrote it.
    let mut pieces: Vec<(usize, Range<usize>)> = Vec::new();
    let mut parsed = 0;
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        let at = body.len() - rest.len();
        let (written, decoded) = match (escapes, c) {
            (Escapes::Backslash, '\\') => backslash_escape(rest)?,
            (Escapes::DoubledQuote, '\'') if rest.starts_with("''") => (2, 1),
            _ => (c.len_utf8(), c.len_utf8()),
        };
        pieces.push((parsed, at..at + written));
        parsed += decoded;
        rest = rest.get(written..)?;
    }
    let start = if within.start == parsed {
        body.len()
    } else {
        pieces
            .iter()
            .find(|(from, _)| *from == within.start)?
            .1
            .start
    };
    let end = pieces
        .iter()
        .take_while(|(from, _)| *from < within.end)
        .last()
        .map_or(start, |(_, bytes)| bytes.end.max(start));
    (within.end <= parsed).then_some(open + start..open + end)
}

#[derive(Clone, Copy)]
enum Escapes {
    /// TOML's basic strings and YAML's double-quoted ones.
    Backslash,
    /// YAML's single-quoted strings (`''` is one quote); TOML's literal strings cannot
    /// hold `''`, so the rule reads them right too.
    DoubledQuote,
    None,
}

fn quoted(raw: &str, quote: char) -> Option<&str> {
    raw.strip_prefix(quote)?.strip_suffix(quote)
}

/// An escape at the start of `text` (which starts with `\`): how many bytes it is
/// written with, and how many the character it stands for takes.
fn backslash_escape(text: &str) -> Option<(usize, usize)> {
    let letter = text[1..].chars().next()?;
    let hex = |digits: usize| -> Option<(usize, usize)> {
        let code = u32::from_str_radix(text.get(2..2 + digits)?, 16).ok()?;
        Some((2 + digits, char::from_u32(code)?.len_utf8()))
    };
    match letter {
        'u' => hex(4),
        'U' => hex(8),
        'x' => hex(2),
        // YAML's escapes of non-ASCII characters: NEL, no-break space, LS, PS.
        'N' | '_' => Some((2, 2)),
        'L' | 'P' => Some((2, 3)),
        c if c.is_ascii() && !c.is_ascii_whitespace() => Some((2, 1)),
        // A line continuation, or something this does not know.
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'r>(raw: &'r str, parsed: &str, part: &str) -> Option<&'r str> {
        let start = parsed.find(part).expect("part of the parsed string");
        narrow(raw, &(start..start + part.len())).map(|bytes| &raw[bytes])
    }

    #[test]
    fn quoted_and_plain_strings_map_their_bytes() {
        let endpoint = "https://api.example.com/{{idd}}.json";
        assert_eq!(
            at(&format!("\"{endpoint}\""), endpoint, "{{idd}}"),
            Some("{{idd}}")
        );
        assert_eq!(
            at(&format!("'{endpoint}'"), endpoint, "{{idd}}"),
            Some("{{idd}}")
        );
        assert_eq!(at(endpoint, endpoint, "{{idd}}"), Some("{{idd}}"));
        // Escapes before the part shift it; an escape inside it is covered whole.
        assert_eq!(at(r#""/(\\d+$/""#, r"/(\d+$/", "("), Some("("));
        assert_eq!(at(r#""a\u00e9\"(b""#, "aé\"(b", "("), Some("("));
        assert_eq!(at(r#""a\tb""#, "a\tb", "\tb"), Some(r"\tb"));
        assert_eq!(at("'it''s (x'", "it's (x", "("), Some("("));
        assert_eq!(at(r#""é{{x}}""#, "é{{x}}", "{{x}}"), Some("{{x}}"));
    }

    #[test]
    fn forms_that_move_text_about_keep_the_whole_value() {
        assert_eq!(narrow("\"\"\"\na{{x}}\"\"\"", &(1..6)), None);
        assert_eq!(narrow("|\n  a{{x}}\n", &(1..6)), None);
        assert_eq!(narrow("\"a\\\n  b\"", &(0..1)), None);
        // A range past the string (the value changed) gives nothing rather than a guess.
        assert_eq!(narrow("\"ab\"", &(1..9)), None);
    }
}
