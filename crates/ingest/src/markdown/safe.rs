//! Markdown escaping: the "unsafe" patterns of `mdast-util-to-markdown` and its GFM and
//! grid-table extensions, and `safe()`, which escapes a value where one of them would start
//! a construct. Each pattern is matched as its JavaScript regular expression is with the `g`
//! flag (leftmost, non-overlapping, the `after` character consumed), on bytes: every
//! character the patterns name is ASCII.

/// The constructs the serializer enters (its stack).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum C {
    Phrasing,
    Paragraph,
    HeadingAtx,
    HeadingSetext,
    Label,
    Reference,
    DestinationLiteral,
    DestinationRaw,
    TitleQuote,
    Autolink,
    Link,
    Image,
    ImageReference,
    Emphasis,
    Strong,
    Strikethrough,
    List,
    ListItem,
    Blockquote,
    CodeFenced,
    CodeFencedLangGraveAccent,
    Definition,
    Html,
    GtCell,
}

#[derive(Clone, Copy)]
enum Before {
    None,
    LineEnding,
    Digits,
    CloseBracket,
    AutolinkEmail,
    W,
    PorS,
}

#[derive(Clone, Copy)]
enum After {
    None,
    LineEnding,
    LineEndingOrEnd,
    OpenBracket,
    EntityStart,
    SpaceOrStar,
    Space,
    SpaceOrDash,
    SpaceOrEnd,
    TagStart,
    DomainChar,
    Slash,
    TableDelimiter,
    Dash,
    ColonPipeDash,
}

struct Pattern {
    character: u8,
    at_break: bool,
    before: Before,
    after: After,
    in_construct: &'static [C],
    not_in_construct: &'static [C],
}

const FULL_PHRASING_SPANS: &[C] = &[
    C::Autolink,
    C::DestinationLiteral,
    C::DestinationRaw,
    C::Reference,
    C::TitleQuote,
];
const AUTOLINK_EXCLUDED: &[C] = &[C::Autolink, C::Link, C::Image, C::Label];
const PHRASING: &[C] = &[C::Phrasing];
const FENCE_LANG: &[C] = &[C::CodeFencedLangGraveAccent];
const LINE_ENDING_SENSITIVE: &[C] = &[
    C::CodeFencedLangGraveAccent,
    C::DestinationLiteral,
    C::HeadingAtx,
];
const LABEL_OR_REFERENCE: &[C] = &[C::Label, C::Reference];

const fn p(character: u8, in_construct: &'static [C]) -> Pattern {
    Pattern {
        character,
        at_break: false,
        before: Before::None,
        after: After::None,
        in_construct,
        not_in_construct: &[],
    }
}

const fn brk(character: u8, after: After) -> Pattern {
    Pattern {
        character,
        at_break: true,
        before: Before::None,
        after,
        in_construct: &[],
        not_in_construct: &[],
    }
}

const fn phr(
    character: u8,
    before: Before,
    after: After,
    not_in_construct: &'static [C],
) -> Pattern {
    Pattern {
        character,
        at_break: false,
        before,
        after,
        in_construct: PHRASING,
        not_in_construct,
    }
}

const PATTERNS: &[Pattern] = &[
    // mdast-util-to-markdown
    phr(b'\t', Before::None, After::LineEnding, &[]),
    phr(b'\t', Before::LineEnding, After::None, &[]),
    p(b'\t', FENCE_LANG),
    p(b'\r', LINE_ENDING_SENSITIVE),
    p(b'\n', LINE_ENDING_SENSITIVE),
    phr(b' ', Before::None, After::LineEnding, &[]),
    phr(b' ', Before::LineEnding, After::None, &[]),
    p(b' ', FENCE_LANG),
    phr(b'!', Before::None, After::OpenBracket, FULL_PHRASING_SPANS),
    p(b'"', &[C::TitleQuote]),
    brk(b'#', After::None),
    Pattern {
        character: b'#',
        at_break: false,
        before: Before::None,
        after: After::LineEndingOrEnd,
        in_construct: &[C::HeadingAtx],
        not_in_construct: &[],
    },
    phr(b'&', Before::None, After::EntityStart, &[]),
    p(b'(', &[C::DestinationRaw]),
    phr(b'(', Before::CloseBracket, After::None, FULL_PHRASING_SPANS),
    Pattern {
        character: b')',
        at_break: true,
        before: Before::Digits,
        after: After::None,
        in_construct: &[],
        not_in_construct: &[],
    },
    p(b')', &[C::DestinationRaw]),
    brk(b'*', After::SpaceOrStar),
    phr(b'*', Before::None, After::None, FULL_PHRASING_SPANS),
    brk(b'+', After::Space),
    brk(b'-', After::SpaceOrDash),
    Pattern {
        character: b'.',
        at_break: true,
        before: Before::Digits,
        after: After::SpaceOrEnd,
        in_construct: &[],
        not_in_construct: &[],
    },
    brk(b'<', After::TagStart),
    phr(b'<', Before::None, After::TagStart, FULL_PHRASING_SPANS),
    p(b'<', &[C::DestinationLiteral]),
    brk(b'=', After::None),
    brk(b'>', After::None),
    p(b'>', &[C::DestinationLiteral]),
    brk(b'[', After::None),
    phr(b'[', Before::None, After::None, FULL_PHRASING_SPANS),
    p(b'[', LABEL_OR_REFERENCE),
    phr(b'\\', Before::None, After::LineEnding, &[]),
    p(b']', LABEL_OR_REFERENCE),
    brk(b'_', After::None),
    phr(b'_', Before::None, After::None, FULL_PHRASING_SPANS),
    brk(b'`', After::None),
    p(b'`', FENCE_LANG),
    phr(b'`', Before::None, After::None, FULL_PHRASING_SPANS),
    brk(b'~', After::None),
    // GFM autolink literals
    phr(
        b'@',
        Before::AutolinkEmail,
        After::DomainChar,
        AUTOLINK_EXCLUDED,
    ),
    phr(b'.', Before::W, After::DomainChar, AUTOLINK_EXCLUDED),
    phr(b':', Before::PorS, After::Slash, AUTOLINK_EXCLUDED),
    // GFM footnotes
    p(b'[', &[C::Label, C::Phrasing, C::Reference]),
    // GFM strikethrough
    phr(b'~', Before::None, After::None, FULL_PHRASING_SPANS),
    // GFM tables (cell constructs are never entered: tables are grid tables here)
    brk(b'|', After::TableDelimiter),
    brk(b':', After::Dash),
    brk(b'-', After::ColonPipeDash),
    // Grid tables
    p(b'|', &[C::GtCell]),
    p(b'+', &[C::GtCell]),
];

fn mask(list: &[C]) -> u32 {
    list.iter().fold(0, |m, c| m | (1 << *c as u32))
}

/// Each pattern's constructs as bit masks: (in, not in).
static MASKS: std::sync::LazyLock<Vec<(u32, u32)>> = std::sync::LazyLock::new(|| {
    PATTERNS
        .iter()
        .map(|p| (mask(p.in_construct), mask(p.not_in_construct)))
        .collect()
});

fn in_scope(stack_mask: u32, masks: (u32, u32)) -> bool {
    (masks.0 == 0 || stack_mask & masks.0 != 0) && stack_mask & masks.1 == 0
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Length of the `after` match at `at` (0 for `$` or none), or None when it fails.
fn after_len(after: After, bytes: &[u8], at: usize) -> Option<usize> {
    let next = bytes.get(at).copied();
    let one = |ok: bool| ok.then_some(1);
    match after {
        After::None => Some(0),
        After::LineEnding => one(matches!(next, Some(b'\r' | b'\n'))),
        After::LineEndingOrEnd => match next {
            None => Some(0),
            Some(b'\r' | b'\n') => Some(1),
            _ => None,
        },
        After::OpenBracket => one(next == Some(b'[')),
        After::EntityStart => one(next.is_some_and(|b| b == b'#' || b.is_ascii_alphabetic())),
        After::SpaceOrStar => one(matches!(next, Some(b' ' | b'\t' | b'\r' | b'\n' | b'*'))),
        After::Space => one(matches!(next, Some(b' ' | b'\t' | b'\r' | b'\n'))),
        After::SpaceOrDash => one(matches!(next, Some(b' ' | b'\t' | b'\r' | b'\n' | b'-'))),
        After::SpaceOrEnd => match next {
            None => Some(0),
            Some(b' ' | b'\t' | b'\r' | b'\n') => Some(1),
            _ => None,
        },
        After::TagStart => {
            one(next.is_some_and(|b| matches!(b, b'!' | b'/' | b'?') || b.is_ascii_alphabetic()))
        }
        After::DomainChar => one(next.is_some_and(|b| b == b'-' || b == b'.' || is_word(b))),
        After::Slash => one(next == Some(b'/')),
        After::TableDelimiter => one(matches!(next, Some(b'\t' | b' ' | b':' | b'-'))),
        After::Dash => one(next == Some(b'-')),
        After::ColonPipeDash => one(matches!(next, Some(b':' | b'|' | b'-'))),
    }
}

/// Start of the match whose character is at `at`, or None when the `before` part fails.
fn match_start(pattern: &Pattern, bytes: &[u8], at: usize) -> Option<usize> {
    let mut start = at;
    match pattern.before {
        Before::None => {}
        Before::Digits => {
            while start > 0 && bytes[start - 1].is_ascii_digit() {
                start -= 1;
            }
            if start == at {
                return None;
            }
        }
        single => {
            let b = *bytes.get(at.checked_sub(1)?)?;
            let ok = match single {
                Before::LineEnding => b == b'\r' || b == b'\n',
                Before::CloseBracket => b == b']',
                Before::AutolinkEmail => b == b'+' || b == b'-' || b == b'.' || is_word(b),
                Before::W => b == b'W' || b == b'w',
                Before::PorS => b == b'p' || b == b's',
                Before::None | Before::Digits => unreachable!(),
            };
            if !ok {
                return None;
            }
            start -= 1;
        }
    }
    if pattern.at_break {
        while start > 0 && matches!(bytes[start - 1], b' ' | b'\t') {
            start -= 1;
        }
        if start == 0 || !matches!(bytes[start - 1], b'\r' | b'\n') {
            return None;
        }
        start -= 1;
    }
    Some(start)
}

#[derive(Clone, Copy)]
struct Info {
    before: bool,
    after: bool,
}

/// Options of one `safe` call.
pub(crate) struct SafeConfig<'a> {
    pub before: &'a str,
    pub after: &'a str,
    /// Characters to encode as references instead of escaping with a backslash.
    pub encode: &'a [u8],
}

/// `state.safe(input, config)`.
/// Buffers reused across calls of [`safe`] (one set per thread).
#[derive(Default)]
struct Scratch {
    value: String,
    line_endings: Vec<usize>,
    found: Vec<(usize, Info)>,
    candidates: Vec<usize>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

pub(crate) fn safe(stack: &[C], input: &str, config: &SafeConfig<'_>) -> String {
    if plain(stack, input, config) {
        return input.to_owned();
    }
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => safe_with(&mut scratch, stack, input, config),
        Err(_) => safe_with(&mut Scratch::default(), stack, input, config),
    })
}

/// The bytes that are the character of a pattern, and the backslash, which is escaped
/// before punctuation; spaces and tabs left out (see [`plain`]).
const SPECIAL: [bool; 256] = {
    let mut special = [false; 256];
    let mut i = 0;
    while i < PATTERNS.len() {
        special[PATTERNS[i].character as usize] = true;
        i += 1;
    }
    special[b' ' as usize] = false;
    special[b'\t' as usize] = false;
    special[b'\\' as usize] = true;
    special
};

/// Whether a text starting with `b` starts the same once escaped: no pattern has `b`, and it
/// is not a space or a tab (whose patterns depend on a line ending next to them).
pub(crate) fn starts_plain(b: u8) -> bool {
    !SPECIAL[b as usize] && b != b' ' && b != b'\t'
}

/// Whether `safe` leaves `input` as it is, known without matching: no byte of it is the
/// character of a pattern, except spaces and tabs, whose patterns (outside a fence's info
/// string) need a line ending next to them, which the input has none of, so only a context
/// ending or starting with one could give them.
pub(crate) fn plain(stack: &[C], input: &str, config: &SafeConfig<'_>) -> bool {
    let blank = |b: Option<&u8>| matches!(b, Some(b' ' | b'\t'));
    let line_ending = |b: Option<&u8>| matches!(b, Some(b'\r' | b'\n'));
    let bytes = input.as_bytes();
    let special = bytes.iter().any(|&b| SPECIAL[b as usize]);
    let blank_after_line_ending =
        blank(bytes.first()) && line_ending(config.before.as_bytes().last());
    let blank_before_line_ending =
        blank(bytes.last()) && line_ending(config.after.as_bytes().first());
    let in_fence_info = stack.iter().any(|c| FENCE_LANG.contains(c));
    !(special || blank_after_line_ending || blank_before_line_ending || in_fence_info)
}

fn safe_with(scratch: &mut Scratch, stack: &[C], input: &str, config: &SafeConfig<'_>) -> String {
    let Scratch {
        value,
        line_endings,
        found,
        candidates,
    } = scratch;
    value.clear();
    line_endings.clear();
    found.clear();
    candidates.clear();
    value.push_str(config.before);
    value.push_str(input);
    value.push_str(config.after);
    let bytes = value.as_bytes();

    let mut present = [false; 128];
    for b in bytes {
        if *b < 128 {
            present[*b as usize] = true;
        }
    }
    let stack_mask = mask(stack);
    line_endings.extend(memchr::memchr2_iter(b'\r', b'\n', bytes));
    for (pattern, masks) in PATTERNS.iter().zip(MASKS.iter()) {
        if !present[pattern.character as usize] || !in_scope(stack_mask, *masks) {
            continue;
        }
        let has_before = pattern.at_break || !matches!(pattern.before, Before::None);
        let has_after = !matches!(pattern.after, After::None);
        // Where the character can be: next to a line ending for the patterns that need
        // one (usually only the context has line endings), anywhere for the others.
        candidates.clear();
        if pattern.at_break {
            for &le in line_endings.iter() {
                let mut j = le + 1;
                while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
                    j += 1;
                }
                if matches!(pattern.before, Before::Digits) {
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                }
                if bytes.get(j) == Some(&pattern.character) {
                    candidates.push(j);
                }
            }
        } else if matches!(pattern.before, Before::LineEnding) {
            candidates.extend(
                line_endings
                    .iter()
                    .map(|le| le + 1)
                    .filter(|j| bytes.get(*j) == Some(&pattern.character)),
            );
        } else if matches!(pattern.after, After::LineEnding | After::LineEndingOrEnd) {
            candidates.extend(
                line_endings
                    .iter()
                    .filter(|le| **le > 0 && bytes[**le - 1] == pattern.character)
                    .map(|le| le - 1),
            );
            if matches!(pattern.after, After::LineEndingOrEnd)
                && bytes.last() == Some(&pattern.character)
            {
                candidates.push(bytes.len() - 1);
            }
            candidates.sort_unstable();
            candidates.dedup();
        } else {
            candidates.extend(memchr::memchr_iter(pattern.character, bytes));
        }
        let mut last_index = 0;
        for &at in candidates.iter() {
            if at < last_index {
                continue;
            }
            let Some(start) = match_start(pattern, bytes, at) else {
                continue;
            };
            if start < last_index {
                continue;
            }
            let Some(consumed) = after_len(pattern.after, bytes, at + 1) else {
                continue;
            };
            last_index = at + 1 + consumed;
            found.push((
                at,
                Info {
                    before: has_before,
                    after: has_after,
                },
            ));
        }
    }
    if found.is_empty() {
        return escape_backslashes(input, config.after);
    }
    // One entry per position: a flag stays only if every pattern there has it.
    found.sort_by_key(|(p, _)| *p);
    found.dedup_by(|next, kept| {
        if next.0 == kept.0 {
            kept.1.before &= next.1.before;
            kept.1.after &= next.1.after;
            true
        } else {
            false
        }
    });

    let mut result = String::with_capacity(value.len() + found.len());
    let mut start = config.before.len();
    let end = value.len() - config.after.len();
    for (index, &(position, info)) in found.iter().enumerate() {
        if position < start || position >= end {
            continue;
        }
        let next = found.get(index + 1);
        let previous = index.checked_sub(1).map(|i| found[i]);
        if (position + 1 < end
            && next.is_some_and(|(p, i)| *p == position + 1 && info.after && !i.before && !i.after))
            || (previous
                .is_some_and(|(p, i)| p + 1 == position && info.before && !i.before && !i.after))
        {
            continue;
        }
        if start != position {
            escape_backslashes_into(&mut result, &value[start..position], "\\");
        }
        start = position;
        let b = bytes[position];
        if b.is_ascii_punctuation() && !config.encode.contains(&b) {
            result.push('\\');
        } else {
            use std::fmt::Write;
            let _ = write!(result, "&#x{:X};", b);
            start += 1;
        }
    }
    escape_backslashes_into(&mut result, &value[start..end], config.after);
    result
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    memchr::memchr(needle, haystack)
}

/// Doubles backslashes that would escape the following punctuation.
fn escape_backslashes(value: &str, after: &str) -> String {
    let mut out = String::with_capacity(value.len());
    escape_backslashes_into(&mut out, value, after);
    out
}

fn escape_backslashes_into(out: &mut String, value: &str, after: &str) {
    if memchr(b'\\', value.as_bytes()).is_none() {
        out.push_str(value);
        return;
    }
    let bytes = value.as_bytes();
    let mut start = 0;
    for (i, b) in bytes.iter().enumerate() {
        if *b != b'\\' {
            continue;
        }
        let next = bytes.get(i + 1).or_else(|| after.as_bytes().first());
        if next.is_some_and(u8::is_ascii_punctuation) {
            out.push_str(&value[start..i]);
            out.push('\\');
            start = i;
        }
    }
    out.push_str(&value[start..]);
}

/// Inline code: a line ending where a construct could start becomes a space. Every
/// line-start pattern is applied in turn with a JavaScript `g`-flag loop over the value as
/// it changes (a replacement can create a match for a later pattern, as in the reference).
pub(crate) fn inline_code_line_endings(value: &mut String) {
    for pattern in PATTERNS.iter().filter(|p| p.at_break) {
        let mut last_index = 0;
        loop {
            let bytes = value.as_bytes();
            let mut hit = None;
            for at in memchr::memchr_iter(pattern.character, bytes) {
                let Some(start) = match_start(pattern, bytes, at) else {
                    continue;
                };
                if start < last_index {
                    continue;
                }
                let Some(consumed) = after_len(pattern.after, bytes, at + 1) else {
                    continue;
                };
                hit = Some((start, at + 1 + consumed));
                break;
            }
            let Some((start, end)) = hit else { break };
            let mut position = start;
            if bytes[start] == b'\n' && start > 0 && bytes[start - 1] == b'\r' {
                position -= 1;
            }
            value.replace_range(position..start + 1, " ");
            last_index = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(stack: &[C], input: &str, before: &str, after: &str) -> String {
        safe(
            stack,
            input,
            &SafeConfig {
                before,
                after,
                encode: &[],
            },
        )
    }

    /// Where [`plain`] says the input comes out as it is, the matching agrees: every string
    /// of up to three characters of a small alphabet (letters, spaces, tabs, line endings,
    /// punctuation, a backslash, a digit, a non-ASCII letter), in several contexts and
    /// constructs.
    #[test]
    fn plain_inputs_are_left_as_they_are() {
        let alphabet = ['a', ' ', '\t', '\n', '.', '*', '\\', 'é', '1', '_', ','];
        let mut inputs = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> = inputs
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            inputs.extend(longer);
        }
        inputs.sort();
        inputs.dedup();
        let stacks: [&[C]; 4] = [
            &[C::Paragraph, C::Phrasing],
            &[C::Paragraph, C::Phrasing, C::GtCell],
            &[C::CodeFencedLangGraveAccent],
            &[C::Link, C::DestinationRaw],
        ];
        let mut plain_count = 0;
        for stack in stacks {
            for before in ["", "\n", "a", " "] {
                for after in ["", "\n", "a", "*"] {
                    let config = SafeConfig {
                        before,
                        after,
                        encode: &[],
                    };
                    for input in &inputs {
                        if plain(stack, input, &config) {
                            plain_count += 1;
                            let escaped = safe_with(&mut Scratch::default(), stack, input, &config);
                            assert_eq!(&escaped, input, "{stack:?} {before:?} {after:?}");
                        }
                    }
                }
            }
        }
        assert!(plain_count > 10_000, "{plain_count} plain cases");
    }

    #[test]
    fn escapes_like_mdast_util_to_markdown() {
        let phrasing = [C::Paragraph, C::Phrasing];
        assert_eq!(
            s(&phrasing, "media_1d6e.mp4", "\n", "\n"),
            "media\\_1d6e.mp4"
        );
        assert_eq!(
            s(&phrasing, "https://www.hlx.live/x", "\n", "\n"),
            "https\\://www\\.hlx.live/x"
        );
        assert_eq!(s(&phrasing, "1. item", "\n", "\n"), "1\\. item");
        assert_eq!(s(&phrasing, " x", "\n", "\n"), "&#x20;x");
        assert_eq!(s(&phrasing, "a*b", "\n", "\n"), "a\\*b");
        assert_eq!(s(&phrasing, "a\\*", "\n", "\n"), "a\\\\\\*");
        assert_eq!(s(&phrasing, "# x", "\n", "\n"), "\\# x");
        assert_eq!(
            s(&[C::Paragraph, C::Phrasing, C::GtCell], "a|b+c", "\n", "\n"),
            "a\\|b\\+c"
        );
    }
}
