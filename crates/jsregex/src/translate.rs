//! The single-pass translator from JavaScript pattern syntax to fancy-regex syntax.

use super::{Flags, JsRegexError, invalid};

/// An open group: where its `(` is (a character index), and whether `.` matches line
/// terminators inside it (`(?s:…)` and `(?-s:…)` change it).
#[derive(Clone, Copy)]
struct Group {
    start: usize,
    dot_all: bool,
}

/// `[^]`: any character, line terminators included.
const ANY_CHAR: &str = "(?s:.)";
/// `[]`: a class with nothing in it, which Rust cannot write directly.
const NEVER_MATCHES: &str = r"[^\x{0}-\x{10FFFF}]";
/// `.` without the `s` flag: anything but JavaScript's four line terminators.
const JS_DOT: &str = r"[^\n\r\x{2028}\x{2029}]";
const WORD_BOUNDARY: &str = r"(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_])";
const NOT_WORD_BOUNDARY: &str =
    r"(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_])";

/// `\b` or `\B`. Without `u`/`v` the word characters are exactly the ASCII ones, so
/// the `i` flag is switched off inside; with `u` or `v`, JavaScript counts the
/// characters that fold to them (`ſ`, the Kelvin sign) too, as `i` does here.
fn word_boundary(assertion: &str, unicode: bool) -> String {
    if unicode {
        format!("(?:{assertion})")
    } else {
        format!("(?-i:{assertion})")
    }
}

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

    /// The set as a stand-alone class. Without `u`/`v`, `\w` is shielded from
    /// the `i` flag, which would otherwise add `ſ` and the Kelvin sign to it;
    /// with them JavaScript adds those two as well.
    fn standalone(self, unicode: bool) -> String {
        let caret = if self.negated { "^" } else { "" };
        let class = format!("[{caret}{}]", self.body);
        if self.has_letters && !unicode {
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
pub(super) fn translate(pattern: &str, flags: Flags) -> Result<String, JsRegexError> {
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
    groups: Vec<Group>,
    prev: Prev,
}

impl Translator {
    fn run(mut self) -> Result<String, JsRegexError> {
        while let Some(c) = self.next() {
            self.token(c)?;
        }
        match self.groups.first() {
            None => Ok(self.out),
            // The outermost: the inner ones may be closed by what was meant for it.
            Some(group) => Err(self.invalid_at(
                "a group is opened with `(` but never closed",
                group.start,
                group.start + 1,
            )),
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

    /// An error about the characters `from..to` (character indices) of the pattern,
    /// located in bytes, as callers count.
    fn invalid_at(&self, message: impl Into<String>, from: usize, to: usize) -> JsRegexError {
        let byte =
            |index: usize| -> usize { self.chars.iter().take(index).map(|c| c.len_utf8()).sum() };
        JsRegexError::Invalid {
            message: message.into(),
            at: Some(byte(from)..byte(to.max(from))),
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
        self.groups
            .last()
            .map_or(self.flags.dot_all, |group| group.dot_all)
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
            _ => {
                let start = self.pos.saturating_sub(text.chars().count());
                return Err(self.invalid_at(
                    format!("nothing to repeat before `{text}`"),
                    start,
                    self.pos,
                ));
            }
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
        let c = self.next().ok_or_else(|| self.lone_backslash())?;
        if let Some(set) = AsciiSet::for_escape(c) {
            self.atom_str(&set.standalone(self.flags.unicode));
            return Ok(());
        }
        match c {
            'b' => self.assertion(&word_boundary(WORD_BOUNDARY, self.flags.unicode)),
            'B' => self.assertion(&word_boundary(NOT_WORD_BOUNDARY, self.flags.unicode)),
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

    fn lone_backslash(&self) -> JsRegexError {
        self.invalid_at(
            "the pattern ends with a lone `\\`",
            self.pos.saturating_sub(1),
            self.pos,
        )
    }

    fn class(&mut self) -> Result<(), JsRegexError> {
        let start = self.pos.saturating_sub(1);
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
            let c = self.next().ok_or_else(|| {
                self.invalid_at(
                    "a character class is opened with `[` but never closed",
                    start,
                    start + 1,
                )
            })?;
            if self.flags.unicode_sets && self.is_class_set_syntax(c) {
                return Err(invalid(
                    "the v flag's class set syntax (`--`, `&&`, a class inside a class, `\\q{…}`) is not supported; write the class with the u flag's syntax",
                ));
            }
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

    /// Whether `c`, just read inside a class, starts syntax that only the `v`
    /// flag has: a nested class, a difference, an intersection or `\q{…}`.
    fn is_class_set_syntax(&self, c: char) -> bool {
        match c {
            '[' => true,
            '-' | '&' => self.peek() == Some(c),
            '\\' => self.peek() == Some('q'),
            _ => false,
        }
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
        let c = self.next().ok_or_else(|| self.lone_backslash())?;
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
        let start = self.pos.saturating_sub(1);
        let (opener, dot_all) = self.group_opener()?;
        self.out.push_str(&opener);
        self.groups.push(Group { start, dot_all });
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
        if self.groups.pop().is_none() {
            return Err(self.invalid_at(
                "`)` has no matching `(`",
                self.pos.saturating_sub(1),
                self.pos,
            ));
        }
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
