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
//!   Rust word boundary is Unicode-aware and `(?-i:\b)` is rejected by
//!   fancy-regex.
//! * Without `u`/`v`, the standalone `\w`, `\W`, `\b` and `\B` are kept exact
//!   under `i` with `(?-i:…)`; with `u`/`v` they fold like JavaScript's, which
//!   then counts `ſ` and the Kelvin sign as word characters.
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
//! Known differences that remain (all rare in URL-path patterns). The table
//! `ENGINES` in `src/tests.rs` shows each on an example, with JavaScript's result
//! and the `regress` crate's; `docs/dev/decisions.md` says why this crate stays
//! on fancy-regex.
//! * With `m`, `^` and `$` treat only `\n` as a line end, not `\r`, U+2028 or U+2029.
//! * With `i` and without `u`, Unicode case folding applies to literals and to
//!   sets written as ranges or with `\w` inside a class, so `k` also matches
//!   the Kelvin sign and `[a-z]` and `[\w]` match `ſ`; JavaScript does not.
//! * Without `u`, JavaScript reads the haystack as UTF-16 code units, so `.`
//!   does not match an emoji but `..` does; here a character is a code point,
//!   as with `u`.
//! * `\u{…}` is a code point even without the `u` flag; JavaScript would read
//!   `\u{3}` as `uuu` there.
//! * A lone surrogate (`\uD800`) is an error, since a Rust string cannot hold one.
//! * A backreference to a group that has not matched yet (`\1(a)`,
//!   `(a)|\1b`) fails the match; in JavaScript it matches the empty string.
//!   A named backreference before its group, or a backreference to a group
//!   that does not exist, is an error, not an empty match or a legacy octal
//!   escape.
//! * Identity escapes of letters (`\e`) are accepted even with `u`/`v`, where
//!   JavaScript would reject them. Group names must be Unicode
//!   letters, digits and `_`, not starting with a digit, which approximates
//!   JavaScript's identifier rules but refuses `$`, which fancy-regex cannot
//!   refer back to; duplicate names are accepted by fancy-regex.
//! * With `v`, class set syntax (`--`, `&&`, a class inside a class, `\q{…}`)
//!   is refused rather than read as the `u` flag would; other `v`-only rules
//!   (reserved double punctuators such as `!!`) are not checked.
//! * Matching that backtracks past fancy-regex's limit stops with
//!   [`JsRegexError::MatchFailed`]; JavaScript would go on, for minutes on
//!   patterns such as `/([a-z0-9]+-?)+$/`.
//!
//! A pattern whose translation has no look-around or backreference (after the
//! translation: `\b` becomes look-around) runs on the `regex` crate alone, in time
//! linear in the haystack ([`JsRegex::is_linear`]). Other patterns may take time
//! quadratic in it (`/(?<=event-)[a-z0-9-]+$/` tries the look-behind at every
//! position): callers bound the haystack's length and run them where a slow match
//! holds up nothing else.

use std::error::Error as _;
use std::ops::Range;

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
        /// The bytes of the literal that are wrong (the `(` never closed, the `*` with
        /// nothing to repeat), when the fault has one place; see [`JsRegexError::span`].
        at: Option<Range<usize>>,
    },
    /// Matching gave up, e.g. because the pattern backtracks too much on this input.
    #[error("the regular expression could not finish matching: {message}")]
    MatchFailed {
        /// Why matching stopped, on one line.
        message: String,
    },
}

impl JsRegexError {
    /// Where in the literal the fault is, in bytes, when it has one place: what a caret
    /// should point at rather than the whole literal.
    pub fn span(&self) -> Option<Range<usize>> {
        match self {
            JsRegexError::Invalid { at, .. } => at.clone(),
            _ => None,
        }
    }

    /// The span moved `by` bytes on: errors of the pattern are placed in the literal.
    fn shifted(self, by: usize) -> JsRegexError {
        match self {
            JsRegexError::Invalid { message, at } => JsRegexError::Invalid {
                message,
                at: at.map(|at| at.start + by..at.end + by),
            },
            other => other,
        }
    }
}

/// A JavaScript regex literal compiled to an equivalent fancy-regex, or to a `regex`
/// crate regex when nothing in it needs backtracking.
#[derive(Clone, Debug)]
pub struct JsRegex {
    literal: String,
    pattern: String,
    flags: String,
    engine: Engine,
}

#[derive(Clone, Debug)]
enum Engine {
    /// No look-around nor backreference: a finite automaton, linear in the haystack.
    Linear(regex::Regex),
    /// Backtracking, bounded by fancy-regex's limit.
    Backtracking(Regex),
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
        // The pattern starts after the opening slash: its errors are placed in the literal.
        let translated = translate(pattern, flags).map_err(|error| error.shifted(1))?;
        let engine = compile(&translated, flags)?;
        Ok(JsRegex {
            literal: literal.to_owned(),
            pattern: pattern.to_owned(),
            flags: flag_text.to_owned(),
            engine,
        })
    }

    /// The whole first match in `haystack`, or `None` when nothing matches.
    ///
    /// Hitting the backtracking limit is an error rather than "no match", so
    /// callers can tell a pattern that is too slow from one that does not apply.
    pub fn find<'h>(&self, haystack: &'h str) -> Result<Option<&'h str>, JsRegexError> {
        match &self.engine {
            Engine::Linear(regex) => Ok(regex.find(haystack).map(|m| m.as_str())),
            Engine::Backtracking(regex) => regex
                .find(haystack)
                .map(|found| found.map(|m| m.as_str()))
                .map_err(|error| match_failed(&error)),
        }
    }

    /// Whether the pattern matches anywhere in `haystack`.
    pub fn is_match(&self, haystack: &str) -> Result<bool, JsRegexError> {
        match &self.engine {
            Engine::Linear(regex) => Ok(regex.is_match(haystack)),
            Engine::Backtracking(regex) => regex
                .is_match(haystack)
                .map_err(|error| match_failed(&error)),
        }
    }

    /// Whether matching takes time linear in the haystack: the pattern runs on the
    /// `regex` crate's automata. Otherwise (look-around, backreferences) it backtracks,
    /// and may take time quadratic in the haystack or worse, up to fancy-regex's limit.
    pub fn is_linear(&self) -> bool {
        matches!(self.engine, Engine::Linear(_))
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
    let close = match closing_slash(body) {
        Slash::At(close) => close,
        Slash::Missing => return Err(JsRegexError::NotALiteral),
        // `/[abc/`: the slash is there, but a `[` never closed holds it. Saying so points
        // at the real mistake, where "written between slashes" would not.
        Slash::InClass(open) => {
            return Err(JsRegexError::Invalid {
                message: "a character class is opened with `[` but never closed (a `/` inside it does not end the expression)".into(),
                at: Some(open + 1..open + 2),
            });
        }
    };
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

/// Where the closing slash of a literal's body is.
enum Slash {
    /// Byte index in the body of the last `/` outside escapes and classes.
    At(usize),
    /// No such `/`, but one inside the class opened at this byte index, never closed.
    InClass(usize),
    Missing,
}

fn closing_slash(body: &str) -> Slash {
    let mut escaped = false;
    // The byte index of the `[` of the class the scan is in.
    let mut class: Option<usize> = None;
    let mut last = None;
    let mut slash_in_class = false;
    for (index, c) in body.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '[' if class.is_none() => class = Some(index),
            ']' => class = None,
            '/' if class.is_none() => last = Some(index),
            '/' => slash_in_class = true,
            _ => {}
        }
    }
    match (last, class) {
        (Some(close), _) => Slash::At(close),
        (None, Some(open)) if slash_in_class => Slash::InClass(open),
        _ => Slash::Missing,
    }
}

/// The flags that change how the pattern is translated or compiled.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    ignore_case: bool,
    multi_line: bool,
    dot_all: bool,
    sticky: bool,
    /// `u` or `v`: `\p{…}`, and what `i` does to `\w` and `\b`, depend on it here.
    unicode: bool,
    /// `v`: classes may hold set operations, which are refused.
    unicode_sets: bool,
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
                'u' => flags.unicode = true,
                'v' => {
                    flags.unicode = true;
                    flags.unicode_sets = true;
                }
                _ => {}
            }
        }
        if seen.contains('u') && seen.contains('v') {
            return Err(invalid("the u and v flags cannot be used together"));
        }
        Ok(flags)
    }
}

fn compile(translated: &str, flags: Flags) -> Result<Engine, JsRegexError> {
    // The translator guarantees balanced groups, so wrapping cannot change the meaning.
    let source = if flags.sticky {
        format!(r"\A(?:{translated})")
    } else {
        translated.to_owned()
    };
    // fancy-regex first: it judges the syntax (and refuses what JavaScript would), and a
    // pattern it accepts that the `regex` crate also compiles has no look-around nor
    // backreference, so the linear engine gives the same matches.
    let backtracking = RegexBuilder::new(&source)
        .case_insensitive(flags.ignore_case)
        .multi_line(flags.multi_line)
        .build()
        .map_err(|error| invalid(describe_compile_error(&error)))?;
    match regex::RegexBuilder::new(&source)
        .case_insensitive(flags.ignore_case)
        .multi_line(flags.multi_line)
        .build()
    {
        Ok(linear) => Ok(Engine::Linear(linear)),
        Err(_) => Ok(Engine::Backtracking(backtracking)),
    }
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
        at: None,
    }
}

#[doc(hidden)]
pub mod fuzzing;
mod translate;

use translate::translate;
#[cfg(test)]
mod tests;
