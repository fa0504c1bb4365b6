//! JavaScript regular-expression literals, run on `fancy-regex`.
//!
//! Configuration holds regexes the way JavaScript writes them, e.g.
//! `/(?<=event-)[a-z0-9-]+$/i`, because that is the syntax the people who write
//! the configuration know. Such patterns lean on look-around, which the `regex`
//! crate cannot do, so they run on `fancy-regex`. Its syntax is close to
//! JavaScript's but not equal, so a small single-pass translator rewrites the
//! parts whose meaning differs before compiling:
//!
//! * `\d`, `\w`, `\s` (and their negations) become the fixed sets JavaScript
//!   uses; the Rust ones are Unicode-wide, so `\d` would match `٣`. Inside a
//!   class the negated sets become nested classes (`[a\D]` → `[a[^0-9]]`).
//! * `\b` and `\B` become look-around over ASCII word characters, because the
//!   Rust word boundary is Unicode-aware and `(?-u:\b)` is rejected by
//!   fancy-regex.
//! * `.` excludes all four JavaScript line terminators (`\n`, `\r`, U+2028,
//!   U+2029), not only `\n`.
//! * Escapes that JavaScript reads as the plain character (`\e`, `\<`, `\K`,
//!   `\h`, …) become that character; in fancy-regex many of them are
//!   assertions or classes.
//! * `{` that does not start `{n}`, `{n,}` or `{n,m}`, and a lone `}` or `]`,
//!   are literal as in JavaScript; inside classes `[`, `&&`, `~~` and `--` are
//!   literal too, where Rust would read nested classes or set operations.
//! * `[]` never matches and `[^]` matches any character.
//! * Syntax only fancy-regex has (`(?>…)`, `(?(…)…)`, `(*FAIL)`, possessive
//!   `a++`, `(?x)`) is rejected, as JavaScript would.
//!
//! Known differences that remain (all rare in URL-path patterns):
//! * With `m`, `^` and `$` treat only `\n` as a line end, not `\r`, U+2028 or U+2029.
//! * With `i`, Unicode case folding applies to literals and to sets written as
//!   ranges, so `k` also matches the Kelvin sign and `[a-z]` matches `ſ`;
//!   JavaScript without `u` does not. The standalone `\w`/`\W`/`\b` are kept
//!   exact with `(?-i:…)`.
//! * `\u{…}` is a code point even without the `u` flag; JavaScript would read
//!   `\u{3}` as `uuu` there.
//! * A lone surrogate (`\uD800`) is an error, since a Rust string cannot hold one.
//! * A backreference to a group that has not matched yet fails the match;
//!   in JavaScript it matches the empty string. A backreference to a group
//!   that does not exist is an error, not a legacy octal escape.
//! * Identity escapes of letters (`\e`) are accepted even with `u`/`v`, where
//!   JavaScript would reject them. Group names must be Unicode
//!   letters, digits and `_`, not starting with a digit, which approximates
//!   JavaScript's identifier rules but refuses `$`, which fancy-regex cannot
//!   refer back to; duplicate names are accepted by fancy-regex.

use std::error::Error as _;

use fancy_regex::{CompileError, Error as FancyError, Regex, RegexBuilder};

/// Why a JavaScript regex literal could not be used, or why a match could not finish.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum JsRegexError {
    /// The text is not of the form `/pattern/flags`.
    #[error("a regular expression is written between slashes, like /\\d+$/")]
    NotALiteral,
    /// A character after the closing slash is not a JavaScript flag.
    #[error("unknown flag `{0}`; JavaScript flags are d, g, i, m, s, u, v, y")]
    UnknownFlag(char),
    /// A flag appears twice, which JavaScript rejects.
    #[error("flag `{0}` is given more than once")]
    DuplicateFlag(char),
    /// The pattern is not a valid regular expression.
    #[error("invalid regular expression: {message}")]
    Invalid {
        /// What is wrong, on one line.
        message: String,
    },
    /// Matching gave up, e.g. because the pattern backtracks too much on this input.
    #[error("the regular expression could not finish matching: {message}")]
    MatchFailed {
        /// Why matching stopped, on one line.
        message: String,
    },
}

/// A JavaScript regex literal compiled to an equivalent fancy-regex.
#[derive(Clone, Debug)]
pub struct JsRegex {
    literal: String,
    pattern: String,
    flags: String,
    regex: Regex,
}

impl JsRegex {
    /// Parses `/pattern/flags`.
    ///
    /// Flags `i`, `m` and `s` change matching as in JavaScript; `y` (sticky)
    /// anchors the match at the start of the haystack, which is what sticky
    /// means at `lastIndex` 0; `u`/`v` enable `\p{…}`; `d` and `g` only affect
    /// match indices and iteration, so they do not change the first match.
    pub fn parse(literal: &str) -> Result<JsRegex, JsRegexError> {
        let (pattern, flag_text) = split_literal(literal)?;
        let flags = Flags::parse(flag_text)?;
        let regex = compile(&translate(pattern, flags)?, flags)?;
        Ok(JsRegex {
            literal: literal.to_owned(),
            pattern: pattern.to_owned(),
            flags: flag_text.to_owned(),
            regex,
        })
    }

    /// The whole first match in `haystack`, or `None` when nothing matches.
    ///
    /// Hitting the backtracking limit is an error rather than "no match", so
    /// callers can tell a pattern that is too slow from one that does not apply.
    pub fn find<'h>(&self, haystack: &'h str) -> Result<Option<&'h str>, JsRegexError> {
        self.regex
            .find(haystack)
            .map(|found| found.map(|m| m.as_str()))
            .map_err(|error| match_failed(&error))
    }

    /// Whether the pattern matches anywhere in `haystack`.
    pub fn is_match(&self, haystack: &str) -> Result<bool, JsRegexError> {
        self.regex
            .is_match(haystack)
            .map_err(|error| match_failed(&error))
    }

    /// The pattern between the slashes, as written.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The flags after the closing slash, as written.
    pub fn flags(&self) -> &str {
        &self.flags
    }

    /// The literal as given to [`JsRegex::parse`].
    pub fn as_literal(&self) -> &str {
        &self.literal
    }
}

/// Splits `/pattern/flags` into pattern and flags.
///
/// The closing slash is the last `/` that is neither escaped nor inside a
/// character class, so `/[/]/` and `/a\/b/` keep their inner slashes. Taking
/// the last one also lets an unescaped `/` in the middle (`/a/b/`) stand for
/// itself; JavaScript would reject it, but what is meant is clear.
fn split_literal(literal: &str) -> Result<(&str, &str), JsRegexError> {
    if literal.ends_with(char::is_whitespace) {
        return Err(JsRegexError::NotALiteral);
    }
    let body = literal.strip_prefix('/').ok_or(JsRegexError::NotALiteral)?;
    let close = closing_slash(body).ok_or(JsRegexError::NotALiteral)?;
    let (pattern, rest) = body
        .split_at_checked(close)
        .ok_or(JsRegexError::NotALiteral)?;
    let flags = rest.strip_prefix('/').ok_or(JsRegexError::NotALiteral)?;
    if pattern.is_empty() {
        // `//` starts a comment in JavaScript, not a regex.
        return Err(JsRegexError::NotALiteral);
    }
    Ok((pattern, flags))
}

/// Byte index in `body` of the last `/` outside escapes and classes.
fn closing_slash(body: &str) -> Option<usize> {
    let mut escaped = false;
    let mut in_class = false;
    let mut last = None;
    for (index, c) in body.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '[' => in_class = true,
            ']' => in_class = false,
            '/' if !in_class => last = Some(index),
            _ => {}
        }
    }
    last
}

/// The flags that change how the pattern is translated or compiled.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    ignore_case: bool,
    multi_line: bool,
    dot_all: bool,
    sticky: bool,
    /// `u` or `v`: only `\p{…}` depends on it here.
    unicode: bool,
}

impl Flags {
    fn parse(text: &str) -> Result<Flags, JsRegexError> {
        let mut flags = Flags::default();
        let mut seen = String::new();
        for flag in text.chars() {
            if !"dgimsuvy".contains(flag) {
                return Err(JsRegexError::UnknownFlag(flag));
            }
            if seen.contains(flag) {
                return Err(JsRegexError::DuplicateFlag(flag));
            }
            seen.push(flag);
            match flag {
                'i' => flags.ignore_case = true,
                'm' => flags.multi_line = true,
                's' => flags.dot_all = true,
                'y' => flags.sticky = true,
                'u' | 'v' => flags.unicode = true,
                _ => {}
            }
        }
        if seen.contains('u') && seen.contains('v') {
            return Err(invalid("the u and v flags cannot be used together"));
        }
        Ok(flags)
    }
}

fn compile(translated: &str, flags: Flags) -> Result<Regex, JsRegexError> {
    // The translator guarantees balanced groups, so wrapping cannot change the meaning.
    let source = if flags.sticky {
        format!(r"\A(?:{translated})")
    } else {
        translated.to_owned()
    };
    RegexBuilder::new(&source)
        .case_insensitive(flags.ignore_case)
        .multi_line(flags.multi_line)
        .build()
        .map_err(|error| invalid(describe_compile_error(&error)))
}

/// The sentence that says what is wrong with the pattern.
///
/// fancy-regex reports positions in the translated pattern, which the user
/// never wrote, and the regex crate's messages span several lines with a caret
/// diagram, so only the description is kept.
fn describe_compile_error(error: &FancyError) -> String {
    let text = match error {
        FancyError::ParseError(_, kind) => kind.to_string(),
        FancyError::CompileError(inner) => match inner.as_ref() {
            CompileError::InnerError(build) => build
                .source()
                .map_or_else(|| build.to_string(), ToString::to_string),
            other => other.to_string(),
        },
        other => other.to_string(),
    };
    one_line(&text)
}

fn match_failed(error: &FancyError) -> JsRegexError {
    let message = match error {
        FancyError::RuntimeError(kind) => kind.to_string(),
        other => other.to_string(),
    };
    JsRegexError::MatchFailed {
        message: one_line(&message),
    }
}

/// Keeps the `error: …` line of a regex-syntax report (or the whole text) on one line.
fn one_line(text: &str) -> String {
    let summary = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("error: "))
        .unwrap_or(text);
    summary.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn invalid(message: impl Into<String>) -> JsRegexError {
    JsRegexError::Invalid {
        message: message.into(),
    }
}

/// `[^]`: any character, line terminators included.
const ANY_CHAR: &str = "(?s:.)";
/// `[]`: a class with nothing in it, which Rust cannot write directly.
const NEVER_MATCHES: &str = r"[^\x{0}-\x{10FFFF}]";
/// `.` without the `s` flag: anything but JavaScript's four line terminators.
const JS_DOT: &str = r"[^\n\r\x{2028}\x{2029}]";
const WORD_BOUNDARY: &str =
    r"(?-i:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))";
const NOT_WORD_BOUNDARY: &str =
    r"(?-i:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))";

/// One of JavaScript's fixed sets `\d`, `\w`, `\s` or their negations.
#[derive(Clone, Copy)]
struct AsciiSet {
    /// The set's members as the inside of a Rust class.
    body: &'static str,
    negated: bool,
    /// Whether the set holds letters, whose case variants the `i` flag would add.
    has_letters: bool,
}

impl AsciiSet {
    fn for_escape(letter: char) -> Option<AsciiSet> {
        let body = match letter.to_ascii_lowercase() {
            'd' => "0-9",
            'w' => "A-Za-z0-9_",
            's' => {
                r"\t\n\x{B}\f\r\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}"
            }
            _ => return None,
        };
        Some(AsciiSet {
            body,
            negated: letter.is_ascii_uppercase(),
            has_letters: letter.eq_ignore_ascii_case(&'w'),
        })
    }

    /// The set as a stand-alone class. `\w` is shielded from the `i` flag,
    /// which would otherwise add `ſ` and the Kelvin sign to it.
    fn standalone(self) -> String {
        let caret = if self.negated { "^" } else { "" };
        let class = format!("[{caret}{}]", self.body);
        if self.has_letters {
            format!("(?-i:{class})")
        } else {
            class
        }
    }

    /// The set as members of an enclosing class; a negated set becomes a
    /// nested class, which the regex crate supports and JavaScript's meaning needs.
    fn in_class(self) -> String {
        if self.negated {
            format!("[^{}]", self.body)
        } else {
            self.body.to_owned()
        }
    }
}

/// Translates a JavaScript pattern to fancy-regex syntax with the same meaning.
fn translate(pattern: &str, flags: Flags) -> Result<String, JsRegexError> {
    Translator {
        chars: pattern.chars().collect(),
        pos: 0,
        out: String::with_capacity(pattern.len() * 2),
        flags,
        groups: Vec::new(),
        prev: Prev::Nothing,
    }
    .run()
}

/// What the last token was, to reject quantifiers JavaScript would reject.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// Start of the pattern, of a group or of an alternative.
    Nothing,
    /// `^`, `$`, `\b` or `\B`.
    Assertion,
    Atom,
    Quantifier,
    LazyQuantifier,
}

/// Where a character class is in its member list, to tell a range `-` from a literal one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ClassState {
    /// At the start, after a finished range or after a set like `\d`.
    Fresh,
    /// After a single character that may start a range.
    AfterAtom,
    /// After the `-` of a range, waiting for its end.
    AfterDash,
}

struct Translator {
    chars: Vec<char>,
    pos: usize,
    out: String,
    flags: Flags,
    /// Whether `.` matches line terminators inside each open group;
    /// `(?s:…)` and `(?-s:…)` modifiers change it.
    groups: Vec<bool>,
    prev: Prev,
}

impl Translator {
    fn run(mut self) -> Result<String, JsRegexError> {
        while let Some(c) = self.next() {
            self.token(c)?;
        }
        if self.groups.is_empty() {
            Ok(self.out)
        } else {
            Err(invalid("a group is opened with `(` but never closed"))
        }
    }

    fn token(&mut self, c: char) -> Result<(), JsRegexError> {
        match c {
            '\\' => self.escape(),
            '[' => self.class(),
            '(' => self.open_group(),
            ')' => self.close_group(),
            '*' => self.quantifier("*"),
            '+' => self.quantifier("+"),
            '?' => self.quantifier("?"),
            '{' => self.brace(),
            '|' => {
                self.out.push('|');
                self.prev = Prev::Nothing;
                Ok(())
            }
            '^' | '$' => {
                self.out.push(c);
                self.prev = Prev::Assertion;
                Ok(())
            }
            '.' => {
                let dot = if self.dot_all() { ANY_CHAR } else { JS_DOT };
                self.atom_str(dot);
                Ok(())
            }
            _ => {
                self.atom_char(c);
                Ok(())
            }
        }
    }

    fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    fn eat(&mut self, expected: char) -> bool {
        let found = self.peek() == Some(expected);
        if found {
            self.pos += 1;
        }
        found
    }

    /// Characters up to (not including) `end`, which is consumed; `None` if `end` never comes.
    fn take_until(&mut self, end: char) -> Option<String> {
        let offset = self.chars.get(self.pos..)?.iter().position(|&c| c == end)?;
        let text = self
            .chars
            .get(self.pos..self.pos + offset)?
            .iter()
            .collect();
        self.pos += offset + 1;
        Some(text)
    }

    fn take_digits(&mut self) -> String {
        let mut digits = String::new();
        while let Some(d) = self.peek().filter(char::is_ascii_digit) {
            digits.push(d);
            self.pos += 1;
        }
        digits
    }

    fn dot_all(&self) -> bool {
        self.groups.last().copied().unwrap_or(self.flags.dot_all)
    }

    fn atom_char(&mut self, c: char) {
        push_literal(&mut self.out, c);
        self.prev = Prev::Atom;
    }

    fn atom_str(&mut self, text: &str) {
        self.out.push_str(text);
        self.prev = Prev::Atom;
    }

    fn assertion(&mut self, text: &str) {
        self.out.push_str(text);
        self.prev = Prev::Assertion;
    }

    /// Emits a quantifier, refusing those with nothing to repeat and the
    /// possessive forms (`a++`) that fancy-regex has and JavaScript does not.
    fn quantifier(&mut self, text: &str) -> Result<(), JsRegexError> {
        self.prev = match (self.prev, text) {
            (Prev::Atom, _) => Prev::Quantifier,
            (Prev::Quantifier, "?") => Prev::LazyQuantifier,
            _ => return Err(invalid(format!("nothing to repeat before `{text}`"))),
        };
        self.out.push_str(text);
        Ok(())
    }

    /// `{` is a quantifier only as `{n}`, `{n,}` or `{n,m}`; anywhere else
    /// JavaScript reads it as a literal brace, while fancy-regex would take
    /// e.g. `{,3}` as a quantifier.
    fn brace(&mut self) -> Result<(), JsRegexError> {
        match self.counted_repetition()? {
            Some(text) => self.quantifier(&text),
            None => {
                self.atom_char('{');
                Ok(())
            }
        }
    }

    fn counted_repetition(&mut self) -> Result<Option<String>, JsRegexError> {
        let start = self.pos;
        let min = self.take_digits();
        let comma = self.eat(',');
        let max = self.take_digits();
        if min.is_empty() || !self.eat('}') {
            self.pos = start;
            return Ok(None);
        }
        let too_large = || invalid(format!("the count in `{{{min}}}` is too large"));
        let low: u32 = min.parse().map_err(|_| too_large())?;
        if !max.is_empty() && max.parse::<u32>().map_err(|_| too_large())? < low {
            return Err(invalid(format!(
                "numbers out of order in `{{{min},{max}}}`"
            )));
        }
        let separator = if comma { "," } else { "" };
        Ok(Some(format!("{{{min}{separator}{max}}}")))
    }

    fn escape(&mut self) -> Result<(), JsRegexError> {
        let c = self
            .next()
            .ok_or_else(|| invalid("the pattern ends with a lone `\\`"))?;
        if let Some(set) = AsciiSet::for_escape(c) {
            self.atom_str(&set.standalone());
            return Ok(());
        }
        match c {
            'b' => self.assertion(WORD_BOUNDARY),
            'B' => self.assertion(NOT_WORD_BOUNDARY),
            '1'..='9' => {
                let number = format!("\\{c}{}", self.take_digits());
                self.atom_str(&number);
            }
            'k' if self.peek() == Some('<') => {
                self.pos += 1;
                let name = self.group_name()?;
                self.atom_str(&format!("\\k<{name}>"));
            }
            'p' | 'P' if self.flags.unicode && self.peek() == Some('{') => {
                let property = self.property(c)?;
                self.atom_str(&property);
            }
            _ => {
                let literal = self.char_escape(c)?;
                self.atom_char(literal);
            }
        }
        Ok(())
    }

    /// Escapes that stand for one character, in the pattern and in classes.
    /// Any other character escapes itself, as in JavaScript without `u`.
    fn char_escape(&mut self, c: char) -> Result<char, JsRegexError> {
        Ok(match c {
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'f' => '\u{C}',
            'v' => '\u{B}',
            '0'..='7' => self.legacy_octal(c),
            'x' => self.hex_value(2).and_then(char::from_u32).unwrap_or('x'),
            'u' => return self.unicode_escape(),
            'c' => self.control_escape(),
            other => other,
        })
    }

    /// `\0` and, inside classes, `\1`–`\377`: JavaScript's legacy octal escapes.
    fn legacy_octal(&mut self, first: char) -> char {
        let mut value = first.to_digit(8).map_or(0, |d| d as u8);
        for _ in 0..2 {
            match self.peek().and_then(|c| c.to_digit(8)) {
                Some(digit) if value <= 0o37 => {
                    value = value * 8 + digit as u8;
                    self.pos += 1;
                }
                _ => break,
            }
        }
        char::from(value)
    }

    /// `\cJ` is a control character; `\c` before anything but a letter is a
    /// literal backslash followed by `c`, so the `c` is put back.
    fn control_escape(&mut self) -> char {
        match self.peek() {
            Some(letter) if letter.is_ascii_alphabetic() => {
                self.pos += 1;
                char::from(letter as u8 % 32)
            }
            _ => {
                self.pos = self.pos.saturating_sub(1);
                '\\'
            }
        }
    }

    /// The value of the next `count` characters as hex digits, consumed only if all are hex.
    fn hex_value(&mut self, count: usize) -> Option<u32> {
        let digits: String = self.chars.get(self.pos..self.pos + count)?.iter().collect();
        if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let value = u32::from_str_radix(&digits, 16).ok()?;
        self.pos += count;
        Some(value)
    }

    /// `\uXXXX`, a `\uXXXX\uXXXX` surrogate pair, or `\u{X…}`.
    fn unicode_escape(&mut self) -> Result<char, JsRegexError> {
        if self.peek() == Some('{') {
            return self.braced_code_point();
        }
        let Some(unit) = self.hex_value(4) else {
            return Ok('u');
        };
        let code = if (0xD800..=0xDBFF).contains(&unit) {
            self.low_surrogate_after(unit)
        } else {
            unit
        };
        char::from_u32(code).ok_or_else(|| {
            invalid(format!(
                "\\u{unit:04X} is half of a UTF-16 surrogate pair and can never match text"
            ))
        })
    }

    fn low_surrogate_after(&mut self, high: u32) -> u32 {
        let start = self.pos;
        if self.eat('\\')
            && self.eat('u')
            && let Some(low) = self.hex_value(4).filter(|v| (0xDC00..=0xDFFF).contains(v))
        {
            return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        }
        self.pos = start;
        high
    }

    /// `\u{X…}`; anything not of that shape leaves `u` as a literal and the brace to be read next.
    fn braced_code_point(&mut self) -> Result<char, JsRegexError> {
        let start = self.pos;
        self.pos += 1;
        match self.take_until('}') {
            Some(hex) if !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit()) => {
                u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| invalid(format!("\\u{{{hex}}} is not a Unicode scalar value")))
            }
            _ => {
                self.pos = start;
                Ok('u')
            }
        }
    }

    /// `\p{…}` / `\P{…}` under `u` or `v`, passed on: the regex crate knows the same names.
    fn property(&mut self, letter: char) -> Result<String, JsRegexError> {
        self.pos += 1;
        let name = self
            .take_until('}')
            .ok_or_else(|| invalid(format!("`\\{letter}{{` is never closed by `}}`")))?;
        Ok(format!("\\{letter}{{{name}}}"))
    }

    /// The name of `(?<name>` or `\k<name>`, after the `<`.
    fn group_name(&mut self) -> Result<String, JsRegexError> {
        match self.take_until('>') {
            Some(name) if is_group_name(&name) => Ok(name),
            _ => Err(invalid(
                "a group name is written as <name>, where the name is an identifier such as <year>",
            )),
        }
    }

    fn class(&mut self) -> Result<(), JsRegexError> {
        if self.eat(']') {
            self.atom_str(NEVER_MATCHES);
            return Ok(());
        }
        if self.peek() == Some('^') && self.peek_at(1) == Some(']') {
            self.pos += 2;
            self.atom_str(ANY_CHAR);
            return Ok(());
        }
        self.out.push('[');
        if self.eat('^') {
            self.out.push('^');
        }
        let mut state = ClassState::Fresh;
        loop {
            let c = self
                .next()
                .ok_or_else(|| invalid("a character class is opened with `[` but never closed"))?;
            state = match c {
                ']' => break,
                '\\' => self.class_escape(state)?,
                '-' if state == ClassState::AfterAtom && self.dash_is_range() => {
                    self.out.push('-');
                    ClassState::AfterDash
                }
                _ => self.class_char(c, state),
            };
        }
        self.out.push(']');
        self.prev = Prev::Atom;
        Ok(())
    }

    /// Every class member that is one character goes through here, escaped
    /// so Rust cannot read it as a nested class, a set operation or a range.
    fn class_char(&mut self, c: char, state: ClassState) -> ClassState {
        push_literal(&mut self.out, c);
        if state == ClassState::AfterDash {
            ClassState::Fresh
        } else {
            ClassState::AfterAtom
        }
    }

    /// Whether a `-` after a character makes a range: not before `]`, and not
    /// before a set such as `\d`, where JavaScript reads the `-` literally.
    fn dash_is_range(&self) -> bool {
        match (self.peek(), self.peek_at(1)) {
            (None | Some(']'), _) => false,
            (Some('\\'), Some(e)) => {
                AsciiSet::for_escape(e).is_none() && !(self.flags.unicode && matches!(e, 'p' | 'P'))
            }
            _ => true,
        }
    }

    fn class_escape(&mut self, state: ClassState) -> Result<ClassState, JsRegexError> {
        let c = self
            .next()
            .ok_or_else(|| invalid("the pattern ends with a lone `\\`"))?;
        if let Some(set) = AsciiSet::for_escape(c) {
            self.out.push_str(&set.in_class());
            return Ok(ClassState::Fresh);
        }
        if matches!(c, 'p' | 'P') && self.flags.unicode && self.peek() == Some('{') {
            let property = self.property(c)?;
            self.out.push_str(&property);
            return Ok(ClassState::Fresh);
        }
        let member = match c {
            'b' => '\u{8}',
            '8' | '9' => c,
            _ => self.char_escape(c)?,
        };
        Ok(self.class_char(member, state))
    }

    fn open_group(&mut self) -> Result<(), JsRegexError> {
        let (opener, dot_all) = self.group_opener()?;
        self.out.push_str(&opener);
        self.groups.push(dot_all);
        self.prev = Prev::Nothing;
        Ok(())
    }

    /// The opener of a group and whether `.` matches line terminators inside it.
    fn group_opener(&mut self) -> Result<(String, bool), JsRegexError> {
        let inherited = self.dot_all();
        if !self.eat('?') {
            return Ok(("(".to_owned(), inherited));
        }
        match self.next() {
            Some(c @ (':' | '=' | '!')) => Ok((format!("(?{c}"), inherited)),
            Some('<') => match self.peek() {
                Some(c @ ('=' | '!')) => {
                    self.pos += 1;
                    Ok((format!("(?<{c}"), inherited))
                }
                _ => Ok((format!("(?<{}>", self.group_name()?), inherited)),
            },
            Some('i' | 'm' | 's' | '-') => {
                self.pos -= 1;
                self.modifiers(inherited)
            }
            _ => Err(invalid(
                "`(?` must be followed by `:`, `=`, `!`, `<=`, `<!`, `<name>` or modifiers such as `i:`",
            )),
        }
    }

    /// JavaScript's `(?ims-ims:…)` modifier groups.
    fn modifiers(&mut self, inherited: bool) -> Result<(String, bool), JsRegexError> {
        let bad = || {
            invalid(
                "modifiers are written as `(?i:…)`, `(?-i:…)` or `(?i-s:…)`, with i, m and s each at most once",
            )
        };
        let text = self.take_until(':').ok_or_else(bad)?;
        let (on, off) = text.split_once('-').unwrap_or((text.as_str(), ""));
        let letters: Vec<char> = on.chars().chain(off.chars()).collect();
        let unique = letters
            .iter()
            .enumerate()
            .all(|(i, c)| !letters.iter().skip(i + 1).any(|d| d == c));
        if letters.is_empty() || !unique || !letters.iter().all(|c| "ims".contains(*c)) {
            return Err(bad());
        }
        let dot_all = if on.contains('s') {
            true
        } else if off.contains('s') {
            false
        } else {
            inherited
        };
        Ok((format!("(?{text}:"), dot_all))
    }

    fn close_group(&mut self) -> Result<(), JsRegexError> {
        self.groups
            .pop()
            .ok_or_else(|| invalid("`)` has no matching `(`"))?;
        self.atom_str(")");
        Ok(())
    }
}

/// Whether `name` is an identifier, as JavaScript requires of group names;
/// fancy-regex alone would also take names such as `1a`. `$`, which
/// JavaScript allows, is refused because fancy-regex cannot refer back to it
/// with `\k<…>`.
fn is_group_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_alphabetic() || first == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// Pushes `c` so that it matches itself, escaping exactly the characters the
/// regex crate treats as special. Other punctuation is pushed bare because
/// some escapes that JavaScript reads as the plain character (`\<`, `\>`) are
/// assertions in fancy-regex.
fn push_literal(out: &mut String, c: char) {
    if r"\.+*?()|[]{}^$#&-~".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `literal`, runs it on `haystack` and compares the whole match.
    fn check(literal: &str, haystack: &str, expected: Option<&str>) {
        let regex = JsRegex::parse(literal)
            .unwrap_or_else(|error| panic!("{literal} should parse: {error}"));
        assert_eq!(
            regex.find(haystack),
            Ok(expected),
            "{literal} on {haystack:?}"
        );
        assert_eq!(regex.is_match(haystack), Ok(expected.is_some()));
    }

    fn check_all(cases: &[(&str, &str, Option<&str>)]) {
        for &(literal, haystack, expected) in cases {
            check(literal, haystack, expected);
        }
    }

    fn parse_error(literal: &str) -> JsRegexError {
        match JsRegex::parse(literal) {
            Ok(regex) => panic!("{literal} should not parse, got {regex:?}"),
            Err(error) => error,
        }
    }

    #[test]
    fn the_six_documented_forms_find_the_whole_id() {
        check_all(&[
            (r"/\d+$/", "/products/1234", Some("1234")),
            (r"/\d+$/", "/products/abc", None),
            (
                r"/[a-z0-9-]+$/",
                "/recipes/lemon-tart-2",
                Some("lemon-tart-2"),
            ),
            (
                r"/\d{4}\/\d{2}\/\d{2}\/[a-z0-9-]+$/",
                "/news/2024/05/17/launch-day",
                Some("2024/05/17/launch-day"),
            ),
            (
                r"/[^\/]+\/[^\/]+$/",
                "/docs/guides/getting-started",
                Some("guides/getting-started"),
            ),
            (
                r"/(?<=event-)[a-z0-9-]+$/",
                "/events/event-summer-fest",
                Some("summer-fest"),
            ),
            (
                r"/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i",
                "/stores/3F2504E0-4F89-11D3-9A0C-0305E82C3301",
                Some("3F2504E0-4F89-11D3-9A0C-0305E82C3301"),
            ),
        ]);
    }

    #[test]
    fn lookahead_and_lookbehind_work() {
        check_all(&[
            (r"/\d+(?=\.plain\.html$|$)/", "/p/42.plain.html", Some("42")),
            (r"/\d+(?=\.plain\.html$|$)/", "/p/42", Some("42")),
            (
                r"/(?<=\/hotels\/).+$/",
                "/hotels/paris/ritz",
                Some("paris/ritz"),
            ),
            (r"/(?<=\/p\/\d+-)[a-z]+/", "/p/123-shoes", Some("shoes")),
            (
                r"/(?<!event-)\b[a-z]+$/",
                "/events/event-x/party",
                Some("party"),
            ),
            (r"/[a-z]+(?!\d)$/", "/a/b2", None),
        ]);
    }

    #[test]
    fn escaped_sets_are_javascript_ascii_sets() {
        check_all(&[
            (r"/\d+/", "٣٤", None),
            (r"/[\d]+/", "٣4", Some("4")),
            (r"/\w+/", "é", None),
            (r"/\W/", "é", Some("é")),
            (r"/[^\D]/", "x٣7", Some("7")),
            (r"/[a\W]+/", "_é a", Some("é a")),
            (r"/\s/", "\u{85}", None),
            (r"/\s/", "\u{FEFF}", Some("\u{FEFF}")),
            (r"/\S+/", " ab ", Some("ab")),
            (r"/\w/i", "ſ", None),
            (r"/\bfoo/", "éfoo", Some("foo")),
            (r"/\Bfoo/", "xfoo", Some("foo")),
        ]);
    }

    #[test]
    fn dollar_without_m_matches_only_at_the_very_end() {
        check_all(&[
            (r"/\d+$/", "/a/123\n", None),
            (r"/\d+(?=$)/", "/a/123\n", None),
            (r"/\d+$/m", "/a/123\n", Some("123")),
            (r"/^b$/m", "a\nb\nc", Some("b")),
            (r"/^b$/", "a\nb\nc", None),
        ]);
    }

    #[test]
    fn dot_follows_javascript_line_terminators() {
        check_all(&[
            (r"/a.b/", "a\rb", None),
            (r"/a.b/", "a\u{2028}b", None),
            (r"/a.b/", "a-b", Some("a-b")),
            (r"/a.b/s", "a\nb", Some("a\nb")),
            (r"/a(?s:.)b/", "a\nb", Some("a\nb")),
            (r"/(?s:a(?-s:.)b)/", "a\nb", None),
        ]);
    }

    #[test]
    fn sticky_flag_anchors_at_the_start() {
        check_all(&[
            (r"/\d+/y", "/p/42", None),
            (r"/\/p\/\d+/y", "/p/42", Some("/p/42")),
            (r"/b|\d+/y", "/p/42", None),
            (r"/\d+/g", "/p/42", Some("42")),
        ]);
    }

    #[test]
    fn named_groups_and_backreferences() {
        check_all(&[
            (
                r"/(?<year>\d{4})-\k<year>/",
                "x 2024-2024",
                Some("2024-2024"),
            ),
            (
                r#"/(?<q>['"]).*?\k<q>/"#,
                r#"say "hi" now"#,
                Some(r#""hi""#),
            ),
            (r"/(a)\1/", "xaa", Some("aa")),
            (r"/(?<é_1>x)\k<é_1>/", "xx", Some("xx")),
        ]);
    }

    #[test]
    fn javascript_only_class_forms() {
        check_all(&[
            (r"/a[^]b/", "a\nb", Some("a\nb")),
            (r"/a[]b/", "ab", None),
            (r"/[/]/", "/", Some("/")),
            (r"/[^]]+/", "x]]", Some("x]]")),
            (r"/[a-z&&b]+/", "&&", Some("&&")),
            (r"/[~~]/", "~", Some("~")),
            (r"/[[]/", "[", Some("[")),
            (r"/[+--]/", ",", Some(",")),
            (r"/[--a]/", "0", Some("0")),
            (r"/[a-]/", "-", Some("-")),
            (r"/[\d-z]/", "-", Some("-")),
            (r"/[\b]/", "\u{8}", Some("\u{8}")),
            (r"/[\101]/", "A", Some("A")),
        ]);
    }

    #[test]
    fn escapes_are_translated() {
        check_all(&[
            (r"/\u0041\x42/", "AB", Some("AB")),
            (r"/\u{1F600}/", "😀", Some("😀")),
            (r"/\uD83D\uDE00/", "😀", Some("😀")),
            (r"/\cJ/", "\n", Some("\n")),
            (r"/\c1/", "\\c1", Some("\\c1")),
            (r"/\0/", "\0", Some("\0")),
            (r"/\e\h\K\G/", "ehKG", Some("ehKG")),
            (r"/\<\>/", "<>", Some("<>")),
            (r"/\-\.\//", "-./", Some("-./")),
            (r"/a&b~c#d/", "a&b~c#d", Some("a&b~c#d")),
            (r"/\p{L}/", "p{L}", Some("p{L}")),
            (r"/\p{L}+/u", "héllo", Some("héllo")),
        ]);
    }

    #[test]
    fn braces_are_literal_unless_they_count() {
        check_all(&[
            (r"/a{/", "a{", Some("a{")),
            (r"/a{,2}/", "a{,2}", Some("a{,2}")),
            (r"/a}/", "a}", Some("a}")),
            (r"/a{2}/", "aaa", Some("aa")),
            (r"/a{2,}?/", "aaa", Some("aa")),
            (r"/\u{3}/", "\u{3}", Some("\u{3}")),
            (r"/\u{zz}/", "u{zz}", Some("u{zz}")),
        ]);
    }

    #[test]
    fn translation_output() {
        let cases = [
            (r"\d+$", r"[0-9]+$"),
            (r"\W", r"(?-i:[^A-Za-z0-9_])"),
            (r"[^\/]+", r"[^/]+"),
            (r"[\D]", r"[[^0-9]]"),
            (r"(?<name>a)\k<name>", r"(?<name>a)\k<name>"),
            ("[^]", "(?s:.)"),
            ("[]", r"[^\x{0}-\x{10FFFF}]"),
            ("[+--]", r"[\+-\-]"),
        ];
        for (pattern, expected) in cases {
            assert_eq!(
                translate(pattern, Flags::default()).as_deref(),
                Ok(expected),
                "{pattern}"
            );
        }
    }

    #[test]
    fn malformed_literals_are_rejected() {
        let cases = [
            ("/abc", JsRegexError::NotALiteral),
            ("abc", JsRegexError::NotALiteral),
            ("//", JsRegexError::NotALiteral),
            ("//i", JsRegexError::NotALiteral),
            (" /a/", JsRegexError::NotALiteral),
            ("/a/ ", JsRegexError::NotALiteral),
            (r"/a\/", JsRegexError::NotALiteral),
            ("/[a/", JsRegexError::NotALiteral),
            ("", JsRegexError::NotALiteral),
            ("/a/x", JsRegexError::UnknownFlag('x')),
            ("/a/I", JsRegexError::UnknownFlag('I')),
            ("/a/gig", JsRegexError::DuplicateFlag('g')),
            ("/a/ii", JsRegexError::DuplicateFlag('i')),
        ];
        for (literal, expected) in cases {
            assert_eq!(parse_error(literal), expected, "{literal}");
        }
    }

    #[test]
    fn invalid_patterns_are_reported_on_one_line() {
        let cases = [
            "/(/",
            "/)/",
            "/a**/",
            "/a++/",
            "/*a/",
            "/(*FAIL)/",
            "/(?>a)/",
            "/(?x)a/",
            "/(?ii:a)/",
            "/[z-a]/",
            "/x{2,1}/",
            r"/\uD800/",
            r"/\u{110000}/",
            r"/\p{Bogus}/u",
            r"/\k<nope>/",
            r"/(a)\2/",
            "/(?<1a>x)/",
            "/(?<a-b>x)/",
            "/(?<>x)/",
            "/(?<$a>x)/",
            "/a/uv",
        ];
        for literal in cases {
            match parse_error(literal) {
                JsRegexError::Invalid { message } => {
                    assert!(
                        !message.is_empty() && !message.contains('\n'),
                        "{literal}: {message:?}"
                    );
                }
                other => panic!("{literal}: expected Invalid, got {other:?}"),
            }
        }
        let JsRegexError::Invalid { message } = parse_error("/[z-a]/") else {
            panic!("expected Invalid");
        };
        assert!(message.contains("range"), "{message}");
    }

    #[test]
    fn accessors_return_the_text_as_written() {
        let regex = JsRegex::parse(r"/[^\/]+\/x/gi").expect("parses");
        assert_eq!(regex.as_literal(), r"/[^\/]+\/x/gi");
        assert_eq!(regex.pattern(), r"[^\/]+\/x");
        assert_eq!(regex.flags(), "gi");
        let lenient = JsRegex::parse("/a/b/").expect("an inner bare slash is literal");
        assert_eq!(lenient.pattern(), "a/b");
        assert_eq!(lenient.find("x/a/b"), Ok(Some("a/b")));
    }

    #[test]
    fn backtracking_limit_is_reported_not_swallowed() {
        let regex = JsRegex::parse(r"/(a*)*\1b/").expect("parses");
        let haystack = "a".repeat(40);
        assert!(matches!(
            regex.find(&haystack),
            Err(JsRegexError::MatchFailed { .. })
        ));
        assert!(matches!(
            regex.is_match(&haystack),
            Err(JsRegexError::MatchFailed { .. })
        ));
    }

    #[test]
    fn error_messages_read_well() {
        assert_eq!(
            JsRegexError::NotALiteral.to_string(),
            r"a regular expression is written between slashes, like /\d+$/"
        );
        assert_eq!(
            JsRegexError::UnknownFlag('x').to_string(),
            "unknown flag `x`; JavaScript flags are d, g, i, m, s, u, v, y"
        );
    }
}
