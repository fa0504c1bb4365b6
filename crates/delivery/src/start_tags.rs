//! The start tags of an HTML text with where each begins and ends, as parse5's `Tokenizer`
//! alone finds them (the CSP step on code, `csp.js`, rewrites the text between these
//! offsets and nothing else).
//!
//! Like parse5's tokenizer without a tree builder, it never switches to raw text: the
//! inside of a `script` or `style` is tokenized as markup too, so `<b>` in a script is a
//! start tag, exactly as the reference sees it. Comments, doctypes and bogus comments are
//! skipped whole; a tag cut off by the end of the text is no tag. Attribute names are
//! lower-cased, values decoded (character references as in an attribute), and a repeated
//! attribute is dropped, as the tokenizer does. One pass, linear in the text.

use html5ever::data::NAMED_ENTITIES;

/// One start tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StartTag {
    /// Lower case.
    pub(crate) name: String,
    /// `(name, value)`, names lower case, the first of a repeated name only.
    pub(crate) attrs: Vec<(String, String)>,
    /// Byte offsets of `<` and just past `>`.
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl StartTag {
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn is_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0c' | ' ' | '\r')
}

/// Every start tag of `html`, in order.
pub(crate) fn start_tags(html: &str) -> Vec<StartTag> {
    let mut tags = Vec::new();
    let mut pos = 0;
    while let Some(found) = html[pos..].find('<') {
        let at = pos + found;
        let rest = &html[at + 1..];
        let next = rest.chars().next();
        pos = match next {
            Some('!') => skip_markup_declaration(html, at),
            Some('/') => match rest[1..].chars().next() {
                Some(c) if c.is_ascii_alphabetic() => match tag(html, at, at + 2) {
                    Some(end_tag) => end_tag.end,
                    None => html.len(),
                },
                Some('>') => at + 3,
                None => html.len(),
                // `</` then anything else: a bogus comment, to the next `>`.
                Some(_) => to_after_gt(html, at + 2),
            },
            Some(c) if c.is_ascii_alphabetic() => match tag(html, at, at + 1) {
                Some(start_tag) => {
                    let end = start_tag.end;
                    tags.push(start_tag);
                    end
                }
                None => html.len(),
            },
            Some('?') => to_after_gt(html, at + 1),
            // A `<` that starts nothing is text.
            _ => at + 1,
        };
    }
    tags
}

/// Past the next `>` from `from`, else the end.
fn to_after_gt(html: &str, from: usize) -> usize {
    html[from..].find('>').map_or(html.len(), |i| from + i + 1)
}

/// After `<!` at `at`: a comment, a doctype, or a bogus comment (`<![CDATA[` is one
/// outside foreign content).
fn skip_markup_declaration(html: &str, at: usize) -> usize {
    let after = at + 2;
    let rest = &html[after..];
    if let Some(body) = rest.strip_prefix("--") {
        let body_at = after + 2;
        // `<!-->` and `<!--->` end at once.
        if body.starts_with('>') {
            return body_at + 1;
        }
        if body.starts_with("->") {
            return body_at + 2;
        }
        let close = body.find("-->").map(|i| i + 3);
        let bang = body.find("--!>").map(|i| i + 4);
        return match (close, bang) {
            (Some(a), Some(b)) => body_at + a.min(b),
            (Some(a), None) | (None, Some(a)) => body_at + a,
            (None, None) => html.len(),
        };
    }
    to_after_gt(html, after)
}

/// The tag whose name starts at `name_at` (its `<` at `at`), or `None` when the text ends
/// inside it.
fn tag(html: &str, at: usize, name_at: usize) -> Option<StartTag> {
    let mut pos = name_at;
    let mut name = String::new();
    let mut attrs: Vec<(String, String)> = Vec::new();
    let mut attr: Option<(String, String)> = None;
    let push = |attrs: &mut Vec<(String, String)>, attr: &mut Option<(String, String)>| {
        if let Some((n, v)) = attr.take()
            && !attrs.iter().any(|(m, _)| *m == n)
        {
            attrs.push((n, v));
        }
    };
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Name,
        BeforeAttrName,
        AttrName,
        AfterAttrName,
        BeforeValue,
        Quoted(char),
        Unquoted,
        AfterQuoted,
        SelfClosing,
    }
    let mut state = State::Name;
    // `pending`: the character is read again in the next state (the tokenizer's
    // "reconsume").
    let mut pending: Option<(usize, char)> = None;
    loop {
        let (i, c) = match pending.take() {
            Some(item) => item,
            None => {
                let c = html[pos..].chars().next()?;
                let i = pos;
                pos += c.len_utf8();
                (i, c)
            }
        };
        let done = |attrs: Vec<(String, String)>, name: String| StartTag {
            name,
            attrs,
            start: at,
            end: i + 1,
        };
        match state {
            State::Name => match c {
                c if is_space(c) => state = State::BeforeAttrName,
                '/' => state = State::SelfClosing,
                '>' => return Some(done(attrs, name)),
                '\0' => name.push('\u{fffd}'),
                c => name.extend(c.to_lowercase()),
            },
            State::BeforeAttrName => match c {
                c if is_space(c) => {}
                '/' | '>' => {
                    pending = Some((i, c));
                    state = State::AfterAttrName;
                }
                c => {
                    // `=` here starts a name with it.
                    attr = Some((String::new(), String::new()));
                    if c == '=' {
                        attr.as_mut()?.0.push('=');
                    } else {
                        pending = Some((i, c));
                    }
                    state = State::AttrName;
                }
            },
            State::AttrName => match c {
                c if is_space(c) || c == '/' || c == '>' => {
                    pending = Some((i, c));
                    state = State::AfterAttrName;
                }
                '=' => state = State::BeforeValue,
                '\0' => attr.as_mut()?.0.push('\u{fffd}'),
                c => attr.as_mut()?.0.extend(c.to_lowercase()),
            },
            State::AfterAttrName => match c {
                c if is_space(c) => {}
                '/' => {
                    push(&mut attrs, &mut attr);
                    state = State::SelfClosing;
                }
                '=' => state = State::BeforeValue,
                '>' => {
                    push(&mut attrs, &mut attr);
                    return Some(done(attrs, name));
                }
                c => {
                    push(&mut attrs, &mut attr);
                    attr = Some((String::new(), String::new()));
                    pending = Some((i, c));
                    state = State::AttrName;
                }
            },
            State::BeforeValue => match c {
                c if is_space(c) => {}
                '"' | '\'' => state = State::Quoted(c),
                '>' => {
                    push(&mut attrs, &mut attr);
                    return Some(done(attrs, name));
                }
                c => {
                    pending = Some((i, c));
                    state = State::Unquoted;
                }
            },
            State::Quoted(quote) => match c {
                c if c == quote => {
                    push(&mut attrs, &mut attr);
                    state = State::AfterQuoted;
                }
                '&' => {
                    let (decoded, next) = reference(html, i);
                    attr.as_mut()?.1.push_str(&decoded);
                    pos = next;
                }
                c => attr.as_mut()?.1.push(c),
            },
            State::Unquoted => match c {
                c if is_space(c) => {
                    push(&mut attrs, &mut attr);
                    state = State::BeforeAttrName;
                }
                '&' => {
                    let (decoded, next) = reference(html, i);
                    attr.as_mut()?.1.push_str(&decoded);
                    pos = next;
                }
                '>' => {
                    push(&mut attrs, &mut attr);
                    return Some(done(attrs, name));
                }
                c => attr.as_mut()?.1.push(c),
            },
            State::AfterQuoted => match c {
                c if is_space(c) => state = State::BeforeAttrName,
                '/' => state = State::SelfClosing,
                '>' => return Some(done(attrs, name)),
                c => {
                    pending = Some((i, c));
                    state = State::BeforeAttrName;
                }
            },
            State::SelfClosing => match c {
                '>' => {
                    push(&mut attrs, &mut attr);
                    return Some(done(attrs, name));
                }
                c => {
                    pending = Some((i, c));
                    state = State::BeforeAttrName;
                }
            },
        }
    }
}

/// The character reference at `html[at]` (an `&`) in an attribute value: what it stands
/// for and where the text goes on. A named reference without `;` followed by `=` or an
/// alphanumeric stays as written, as HTML5 keeps old URLs' query strings.
fn reference(html: &str, at: usize) -> (String, usize) {
    let bytes = html.as_bytes();
    let after = at + 1;
    let literal = ("&".to_owned(), after);
    match bytes.get(after) {
        Some(b'#') => numeric(bytes, after + 1).unwrap_or(literal),
        Some(c) if c.is_ascii_alphanumeric() => {
            let run = bytes[after..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            // The longest entity name that starts the run, with its `;` when it has one.
            let longest = (1..=run.min(32)).rev().find_map(|len| {
                let end = after + len;
                if bytes.get(end) == Some(&b';')
                    && let Some(&(c1, c2)) = NAMED_ENTITIES.get(&html[after..=end])
                    && c1 != 0
                {
                    return Some((end + 1, c1, c2, true));
                }
                NAMED_ENTITIES
                    .get(&html[after..end])
                    .filter(|(c1, _)| *c1 != 0)
                    .map(|&(c1, c2)| (end, c1, c2, false))
            });
            let Some((end, c1, c2, with_semicolon)) = longest else {
                return literal;
            };
            let next = bytes.get(end).copied();
            if !with_semicolon && next.is_some_and(|b| b == b'=' || b.is_ascii_alphanumeric()) {
                return literal;
            }
            let mut text = String::new();
            text.extend(char::from_u32(c1));
            if c2 != 0 {
                text.extend(char::from_u32(c2));
            }
            (text, end)
        }
        _ => literal,
    }
}

/// `&#…` from its digits at `from`, with HTML5's replacements (NUL, surrogates and code
/// points past Unicode become U+FFFD; C1 controls the Windows-1252 characters).
fn numeric(bytes: &[u8], from: usize) -> Option<(String, usize)> {
    let (radix, digits_at) = match bytes.get(from) {
        Some(b'x' | b'X') => (16, from + 1),
        _ => (10, from),
    };
    let len = bytes[digits_at..]
        .iter()
        .take_while(|b| (*b).is_ascii_digit() || (radix == 16 && (*b).is_ascii_hexdigit()))
        .count();
    if len == 0 {
        return None;
    }
    let mut value: u32 = 0;
    for &b in &bytes[digits_at..digits_at + len] {
        let digit = (b as char).to_digit(radix)?;
        value = value.saturating_mul(radix).saturating_add(digit);
    }
    let mut end = digits_at + len;
    if bytes.get(end) == Some(&b';') {
        end += 1;
    }
    let c = match value {
        0 | 0xD800..=0xDFFF | 0x11_0000.. => '\u{fffd}',
        0x80..=0x9F => WINDOWS_1252[(value - 0x80) as usize]
            .and_then(char::from_u32)
            .unwrap_or_else(|| char::from_u32(value).unwrap_or('\u{fffd}')),
        v => char::from_u32(v).unwrap_or('\u{fffd}'),
    };
    Some((c.to_string(), end))
}

/// HTML5's replacements for numeric references to C1 controls (`None`: kept as is).
const WINDOWS_1252: [Option<u32>; 32] = [
    Some(0x20AC),
    None,
    Some(0x201A),
    Some(0x0192),
    Some(0x201E),
    Some(0x2026),
    Some(0x2020),
    Some(0x2021),
    Some(0x02C6),
    Some(0x2030),
    Some(0x0160),
    Some(0x2039),
    Some(0x0152),
    None,
    Some(0x017D),
    None,
    None,
    Some(0x2018),
    Some(0x2019),
    Some(0x201C),
    Some(0x201D),
    Some(0x2022),
    Some(0x2013),
    Some(0x2014),
    Some(0x02DC),
    Some(0x2122),
    Some(0x0161),
    Some(0x203A),
    Some(0x0153),
    None,
    Some(0x017E),
    Some(0x0178),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A tag as the tests look at it: name, attributes, its text.
    type Seen = (String, Vec<(String, String)>, String);

    fn summary(html: &str) -> Vec<Seen> {
        start_tags(html)
            .into_iter()
            .map(|t| {
                (
                    t.name.clone(),
                    t.attrs.clone(),
                    html[t.start..t.end].to_owned(),
                )
            })
            .collect()
    }

    fn attrs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| ((*n).into(), (*v).into()))
            .collect()
    }

    // Each expectation is what parse5 7's Tokenizer reported for the same input.
    #[test]
    fn as_parse5_alone_sees_them() {
        let html = r#"<script>if (a<b) x="<style nonce=aem>"</script><!-- <a> --><textarea><b x=&amp;aem y="&apos;&#39;&nonc" z=a&notit;></textarea><![CDATA[<i>]]><p a b a=2 / >"#;
        let found = summary(html);
        assert_eq!(found.len(), 5);
        assert_eq!(found[0].2, "<script>");
        assert_eq!(found[1].0, "b)");
        assert_eq!(
            found[1].1,
            attrs(&[("x", "<style nonce=aem>"), ("<", ""), ("script", "")])
        );
        assert_eq!(found[2].0, "textarea");
        assert_eq!(
            found[3].1,
            attrs(&[("x", "&aem"), ("y", "''&nonc"), ("z", "a&notit;")])
        );
        assert_eq!(found[4].2, "<p a b a=2 / >");
        assert_eq!(found[4].1, attrs(&[("a", ""), ("b", "")]));
    }

    #[test]
    fn cut_tags_comments_and_odd_markup() {
        assert_eq!(summary("<meta\n a=\"1\"><x y=\"unterminated").len(), 1);
        assert!(summary("<!--> <a> -->").iter().any(|t| t.0 == "a"));
        assert!(summary("<!-- --!> <a>").iter().any(|t| t.0 == "a"));
        assert!(summary("<!-- <a>").is_empty());
        assert_eq!(
            summary("<!DOCTYPE html><HTML LANG=en>")[0].1,
            attrs(&[("lang", "en")])
        );
        assert!(
            summary("a < b <3 </ x> <?php <i> ?>")
                .iter()
                .all(|t| t.0 != "i")
        );
        assert_eq!(
            summary("<a x=&#x80;&#0;>")[0].1,
            attrs(&[("x", "€\u{fffd}")])
        );
    }
}
