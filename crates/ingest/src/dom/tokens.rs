//! The tokenizer of the fast path ([`super::fast_path`]): HTML5 tokenization for markup
//! without parse errors that could change a tree.
//!
//! It reads what well-formed pages are made of (tags with quoted or plain attributes,
//! text with character references, comments, `<!DOCTYPE html>`, raw text) exactly as the
//! HTML5 tokenizer does, and gives up ([`Bail`]) on everything else: bogus comments,
//! processing instructions, `</>`, an attribute name with a quote, a value that runs
//! into the next attribute, an end tag with attributes, a numeric reference to a control
//! character, raw text whose end tag has attributes, a script with `<!--`, and the like.
//! Giving up is always safe: the page is then parsed by html5ever.

use std::borrow::Cow;

use html5ever::LocalName;
use html5ever::data::NAMED_ENTITIES;

/// The fast path cannot promise html5ever's tree for this input.
#[derive(Debug)]
pub(crate) struct Bail;

pub(crate) type Attrs = Vec<(LocalName, String)>;

#[derive(Debug)]
pub(crate) enum Token<'a> {
    /// `<!DOCTYPE html>`, the one doctype read (no quirks).
    Doctype,
    Start {
        name: LocalName,
        attrs: Attrs,
        self_closing: bool,
    },
    End(LocalName),
    Text(Cow<'a, str>),
    Comment(&'a str),
    Eof,
}

/// HTML white space as the tokenizer knows it (carriage returns are gone by then).
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b' ')
}

pub(crate) struct Tokenizer<'a> {
    input: &'a str,
    pos: usize,
}

impl<'a> Tokenizer<'a> {
    /// `input` must have no carriage return and no NUL (the fast path gives up on NUL and
    /// normalizes line endings first, as the HTML5 input stream does).
    pub(super) fn new(input: &'a str) -> Self {
        Tokenizer { input, pos: 0 }
    }

    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// The input not read yet.
    pub(super) fn rest(&self) -> &'a str {
        &self.input[self.pos..]
    }

    fn bytes(&self) -> &'a [u8] {
        self.input.as_bytes()
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.bytes().get(i).copied()
    }

    pub(super) fn next_token(&mut self) -> Result<Token<'a>, Bail> {
        let Some(first) = self.at(self.pos) else {
            return Ok(Token::Eof);
        };
        if first == b'<' {
            match self.at(self.pos + 1) {
                Some(c) if c.is_ascii_alphabetic() => return self.start_tag(),
                Some(b'/') => return self.end_tag(),
                Some(b'!') => return self.markup_declaration(),
                Some(b'?') => return Err(Bail),
                // A `<` that starts no tag is text.
                _ => {}
            }
        }
        self.text().map(Token::Text)
    }

    /// Text up to the next tag, comment or declaration, references decoded.
    fn text(&mut self) -> Result<Cow<'a, str>, Bail> {
        let bytes = self.bytes();
        let start = self.pos;
        // `<` at `start` is text already (checked by the caller).
        let mut at = if bytes[start] == b'<' {
            start + 1
        } else {
            start
        };
        let mut decoded: Option<String> = None;
        let mut copied = start;
        loop {
            let Some(found) = memchr::memchr2(b'<', b'&', &bytes[at..]) else {
                at = bytes.len();
                break;
            };
            at += found;
            if bytes[at] == b'<' {
                if starts_markup(bytes.get(at + 1).copied()) {
                    break;
                }
                at += 1;
                continue;
            }
            match reference(self.input, at, Context::Text)? {
                Some((chars, end)) => {
                    let out = decoded.get_or_insert_with(String::new);
                    out.push_str(&self.input[copied..at]);
                    out.push_str(chars.as_str());
                    copied = end;
                    at = end;
                }
                None => at += 1,
            }
        }
        self.pos = at;
        Ok(match decoded {
            None => Cow::Borrowed(&self.input[start..at]),
            Some(mut out) => {
                out.push_str(&self.input[copied..at]);
                Cow::Owned(out)
            }
        })
    }

    fn start_tag(&mut self) -> Result<Token<'a>, Bail> {
        let name = self.tag_name(self.pos + 1)?;
        let mut attrs = Attrs::new();
        let bytes = self.bytes();
        loop {
            while self.at(self.pos).is_some_and(is_space) {
                self.pos += 1;
            }
            match self.at(self.pos).ok_or(Bail)? {
                b'>' => {
                    self.pos += 1;
                    return Ok(Token::Start {
                        name,
                        attrs,
                        self_closing: false,
                    });
                }
                b'/' => {
                    if self.at(self.pos + 1) != Some(b'>') {
                        return Err(Bail);
                    }
                    self.pos += 2;
                    return Ok(Token::Start {
                        name,
                        attrs,
                        self_closing: true,
                    });
                }
                b'=' => return Err(Bail),
                _ => {}
            }
            // The attribute's name.
            let start = self.pos;
            let mut end = start;
            while let Some(&b) = bytes.get(end) {
                if is_space(b) || matches!(b, b'/' | b'>' | b'=') {
                    break;
                }
                if matches!(b, b'"' | b'\'' | b'<') {
                    return Err(Bail);
                }
                end += 1;
            }
            let attr_name = local_name(&self.input[start..end]);
            self.pos = end;
            while self.at(self.pos).is_some_and(is_space) {
                self.pos += 1;
            }
            let value = if self.at(self.pos) == Some(b'=') {
                self.pos += 1;
                while self.at(self.pos).is_some_and(is_space) {
                    self.pos += 1;
                }
                self.attribute_value()?
            } else {
                String::new()
            };
            // A repeated attribute is dropped; the first one counts.
            if !attrs.iter().any(|(n, _)| *n == attr_name) {
                attrs.push((attr_name, value));
            }
        }
    }

    fn attribute_value(&mut self) -> Result<String, Bail> {
        let bytes = self.bytes();
        let quote = self.at(self.pos).ok_or(Bail)?;
        let (start, context) = match quote {
            b'"' | b'\'' => (self.pos + 1, Context::Quoted(quote)),
            b'>' => return Err(Bail),
            _ => (self.pos, Context::Unquoted),
        };
        let mut value = String::new();
        let mut at = start;
        let mut copied = start;
        loop {
            let b = *bytes.get(at).ok_or(Bail)?;
            let ends = match context {
                Context::Quoted(q) => b == q,
                _ => is_space(b) || b == b'>',
            };
            if ends {
                break;
            }
            if b == b'&' {
                if let Some((chars, end)) = reference(self.input, at, context)? {
                    value.push_str(&self.input[copied..at]);
                    value.push_str(chars.as_str());
                    copied = end;
                    at = end;
                    continue;
                }
            } else if matches!(context, Context::Unquoted)
                && matches!(b, b'"' | b'\'' | b'<' | b'=' | b'`')
            {
                return Err(Bail);
            }
            at += 1;
        }
        value.push_str(&self.input[copied..at]);
        if let Context::Quoted(_) = context {
            at += 1;
            // After a quoted value: white space, `/` or `>`, or the next attribute would
            // start without a space (a parse error).
            match bytes.get(at) {
                Some(&b) if is_space(b) || b == b'/' || b == b'>' => {}
                _ => return Err(Bail),
            }
        }
        self.pos = at;
        Ok(value)
    }

    /// The lower-cased name of a tag starting at `from`, up to white space, `/` or `>`.
    fn tag_name(&mut self, from: usize) -> Result<LocalName, Bail> {
        let bytes = self.bytes();
        let mut end = from;
        while let Some(&b) = bytes.get(end) {
            if is_space(b) || b == b'/' || b == b'>' {
                break;
            }
            end += 1;
        }
        if end == bytes.len() {
            return Err(Bail);
        }
        self.pos = end;
        Ok(local_name(&self.input[from..end]))
    }

    fn end_tag(&mut self) -> Result<Token<'a>, Bail> {
        if !self
            .at(self.pos + 2)
            .is_some_and(|c| c.is_ascii_alphabetic())
        {
            return Err(Bail);
        }
        let name = self.tag_name(self.pos + 2)?;
        while self.at(self.pos).is_some_and(is_space) {
            self.pos += 1;
        }
        if self.at(self.pos) != Some(b'>') {
            return Err(Bail);
        }
        self.pos += 1;
        Ok(Token::End(name))
    }

    fn markup_declaration(&mut self) -> Result<Token<'a>, Bail> {
        let rest = &self.input[self.pos + 2..];
        if let Some(comment) = rest.strip_prefix("--") {
            // `<!-->` and `<!--->` are comments closed early; `--!>` closes one too.
            if comment.starts_with('>') || comment.starts_with("->") {
                return Err(Bail);
            }
            let end = memchr::memmem::find(comment.as_bytes(), b"-->").ok_or(Bail)?;
            let text = &comment[..end];
            if memchr::memmem::find(text.as_bytes(), b"--!").is_some() {
                return Err(Bail);
            }
            self.pos += 2 + 2 + end + 3;
            return Ok(Token::Comment(text));
        }
        // `<!DOCTYPE html>`, in any case; any other doctype may set a quirks mode.
        if rest
            .get(..7)
            .is_some_and(|d| d.eq_ignore_ascii_case("doctype"))
        {
            let after = &rest[7..];
            let spaces = after.bytes().take_while(|&b| is_space(b)).count();
            let name = &after[spaces..];
            if spaces > 0
                && name
                    .get(..5)
                    .is_some_and(|n| n.eq_ignore_ascii_case("html>"))
            {
                self.pos += 2 + 7 + spaces + 5;
                return Ok(Token::Doctype);
            }
        }
        Err(Bail)
    }

    /// Raw text (`script`, `style`, ...) or, with `rcdata`, escapable raw text (`title`,
    /// `textarea`) up to the end tag of `name`, which is consumed.
    pub(super) fn raw_text(&mut self, name: &str, rcdata: bool) -> Result<Cow<'a, str>, Bail> {
        let bytes = self.bytes();
        let start = self.pos;
        let end = if name == "script" {
            script_end(bytes, start)?
        } else {
            let mut at = start;
            loop {
                let found = memchr::memmem::find(&bytes[at..], b"</").ok_or(Bail)?;
                let lt = at + found;
                match end_tag_at(bytes, lt, name) {
                    Some(true) => break lt,
                    Some(false) => return Err(Bail),
                    None => at = lt + 2,
                }
            }
        };
        let raw = &self.input[start..end];
        self.pos = end + 2 + name.len() + 1;
        if !rcdata || !raw.contains('&') {
            return Ok(Cow::Borrowed(raw));
        }
        let mut out = String::with_capacity(raw.len());
        let mut copied = start;
        let mut at = start;
        while let Some(found) = memchr::memchr(b'&', &bytes[at..end]) {
            at += found;
            match reference(&self.input[..end], at, Context::Text)? {
                Some((chars, after)) => {
                    out.push_str(&self.input[copied..at]);
                    out.push_str(chars.as_str());
                    copied = after;
                    at = after;
                }
                None => at += 1,
            }
        }
        out.push_str(&self.input[copied..end]);
        Ok(Cow::Owned(out))
    }
}

/// Whether an end tag of `name` starts at `bytes[lt]` (a `<`): `Some(true)` when it is
/// `</name>`, `Some(false)` when it is one with attributes or white space, or cut off by the
/// end of the input (the fast path gives up), `None` when it is none.
fn end_tag_at(bytes: &[u8], lt: usize, name: &str) -> Option<bool> {
    let after = lt + 2 + name.len();
    let named = bytes.get(lt + 1) == Some(&b'/')
        && bytes
            .get(lt + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()));
    if !named {
        return None;
    }
    match bytes.get(after) {
        Some(b'>') => Some(true),
        Some(&b) if is_space(b) || b == b'/' => Some(false),
        None => Some(false),
        _ => None,
    }
}

/// Where the script data starting at `from` ends (the `<` of its `</script>`), through the
/// tokenizer's script data states: after `<!--` the data is escaped, and in it a
/// `<script` starts a double-escaped part in which `</script>` is text, until `</script`
/// (or `-->`) ends it.
fn script_end(bytes: &[u8], from: usize) -> Result<usize, Bail> {
    #[derive(PartialEq)]
    enum State {
        Data,
        Escaped,
        DoubleEscaped,
    }
    // Whether the letters at `at` spell `script` followed by a tag name's end.
    let script_word = |at: usize| {
        bytes
            .get(at..at + 6)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"script"))
            && bytes
                .get(at + 6)
                .is_some_and(|&b| is_space(b) || b == b'/' || b == b'>')
    };
    let mut state = State::Data;
    let mut at = from;
    loop {
        let found = match state {
            State::Data => memchr::memchr(b'<', &bytes[at..]),
            _ => memchr::memchr2(b'<', b'-', &bytes[at..]),
        };
        at += found.ok_or(Bail)?;
        if bytes[at] == b'-' {
            // `-->` ends the escaped part (dashes before it count as one run).
            if bytes[at..].starts_with(b"-->") {
                state = State::Data;
                at += 3;
            } else {
                at += 1;
            }
            continue;
        }
        match state {
            State::Data | State::Escaped => {
                match end_tag_at(bytes, at, "script") {
                    Some(true) => return Ok(at),
                    Some(false) => return Err(Bail),
                    None => {}
                }
                if state == State::Data && bytes[at..].starts_with(b"<!--") {
                    state = State::Escaped;
                    // `<!--` leaves the tokenizer in the escaped dash dash state: more
                    // dashes keep it there, and `>` ends the escaped part at once.
                    at += 4;
                    while bytes.get(at) == Some(&b'-') {
                        at += 1;
                    }
                    if bytes.get(at) == Some(&b'>') {
                        state = State::Data;
                        at += 1;
                    }
                    continue;
                }
                if state == State::Escaped && script_word(at + 1) {
                    state = State::DoubleEscaped;
                    at += 7;
                    continue;
                }
            }
            State::DoubleEscaped => {
                if bytes.get(at + 1) == Some(&b'/') && script_word(at + 2) {
                    state = State::Escaped;
                    at += 8;
                    continue;
                }
            }
        }
        at += 1;
    }
}

/// Whether `<` followed by `next` starts a tag, an end tag or a declaration (and so ends
/// text), as the tokenizer's tag open state decides.
fn starts_markup(next: Option<u8>) -> bool {
    matches!(next, Some(c) if c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?'))
}

/// A name as the tokenizer gives it: ASCII letters lower-cased.
fn local_name(raw: &str) -> LocalName {
    if raw.bytes().any(|b| b.is_ascii_uppercase()) {
        LocalName::from(raw.to_ascii_lowercase())
    } else {
        LocalName::from(raw)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Context {
    Text,
    Quoted(u8),
    Unquoted,
}

/// The one or two characters a reference stands for.
pub(crate) struct Chars {
    buf: [u8; 8],
    len: usize,
}

impl Chars {
    fn new(chars: &[char]) -> Self {
        let mut buf = [0; 8];
        let mut len = 0;
        for c in chars {
            len += c.encode_utf8(&mut buf[len..]).len();
        }
        Chars { buf, len }
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).expect("encoded from chars")
    }
}

/// The character reference at `input[at]` (an `&`): what it stands for and where it ends,
/// or `None` when it is no reference and the `&` is text. Gives up on the references the
/// HTML5 tokenizer replaces or reports (numeric ones to controls, surrogates and
/// noncharacters, or without `;`).
fn reference(input: &str, at: usize, context: Context) -> Result<Option<(Chars, usize)>, Bail> {
    let bytes = input.as_bytes();
    let after = at + 1;
    match bytes.get(after) {
        Some(b'#') => numeric(bytes, after + 1).map(Some),
        Some(c) if c.is_ascii_alphanumeric() => {
            let run = bytes[after..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            let end = after + run;
            if bytes.get(end) == Some(&b';')
                && let Some(&(c1, c2)) = NAMED_ENTITIES.get(&input[after..=end])
                && c1 != 0
            {
                return Ok(Some((chars(c1, c2)?, end + 1)));
            }
            // The longest name without `;` (the legacy ones: `&amp`, `&copy`, ...) that
            // starts the run.
            let legacy = (1..=run.min(32)).rev().find_map(|len| {
                NAMED_ENTITIES
                    .get(&input[after..after + len])
                    .filter(|(c1, _)| *c1 != 0)
                    .map(|&(c1, c2)| (len, c1, c2))
            });
            let Some((len, c1, c2)) = legacy else {
                return Ok(None);
            };
            let next = bytes.get(after + len).copied();
            // In an attribute, `&copy=` and `&copyx` stay as they are, for old URLs.
            if context != Context::Text
                && next.is_some_and(|b| b == b'=' || b.is_ascii_alphanumeric())
            {
                return Ok(None);
            }
            Ok(Some((chars(c1, c2)?, after + len)))
        }
        _ => Ok(None),
    }
}

fn chars(c1: u32, c2: u32) -> Result<Chars, Bail> {
    let first = char::from_u32(c1).ok_or(Bail)?;
    Ok(match char::from_u32(c2) {
        Some(second) if c2 != 0 => Chars::new(&[first, second]),
        _ => Chars::new(&[first]),
    })
}

/// `&#...;` from its digits at `from`: only references to characters that the tokenizer
/// takes as they are, with the closing `;`.
fn numeric(bytes: &[u8], from: usize) -> Result<(Chars, usize), Bail> {
    let (hex, digits_from) = match bytes.get(from) {
        Some(b'x' | b'X') => (true, from + 1),
        _ => (false, from),
    };
    let digits = bytes[digits_from.min(bytes.len())..]
        .iter()
        .take_while(|b| {
            if hex {
                b.is_ascii_hexdigit()
            } else {
                b.is_ascii_digit()
            }
        })
        .count();
    let end = digits_from + digits;
    if digits == 0 || digits > 8 || bytes.get(end) != Some(&b';') {
        return Err(Bail);
    }
    let text = std::str::from_utf8(&bytes[digits_from..end]).map_err(|_| Bail)?;
    let value = u32::from_str_radix(text, if hex { 16 } else { 10 }).map_err(|_| Bail)?;
    let plain = matches!(value, 0x09 | 0x0A | 0x0C | 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFDCF | 0xFDF0..=0x10FFFF)
        && value & 0xFFFE != 0xFFFE;
    if !plain {
        return Err(Bail);
    }
    let c = char::from_u32(value).ok_or(Bail)?;
    Ok((Chars::new(&[c]), end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokens of `html`, written back compactly (`bail` where the fast path gives up).
    fn tokens(html: &str) -> Vec<String> {
        let mut tokens = Tokenizer::new(html);
        let mut out = Vec::new();
        loop {
            out.push(match tokens.next_token() {
                Ok(Token::Eof) => return out,
                Ok(Token::Doctype) => "<!DOCTYPE>".to_owned(),
                Ok(Token::Start {
                    name,
                    attrs,
                    self_closing,
                }) => {
                    let attrs: String = attrs.iter().map(|(n, v)| format!(" {n}={v:?}")).collect();
                    let close = if self_closing { "/" } else { "" };
                    format!("<{name}{attrs}{close}>")
                }
                Ok(Token::End(name)) => format!("</{name}>"),
                Ok(Token::Text(text)) => format!("{text:?}"),
                Ok(Token::Comment(text)) => format!("<!--{text}-->"),
                Err(Bail) => {
                    out.push("bail".into());
                    return out;
                }
            });
        }
    }

    #[test]
    fn references_decode_as_the_tokenizer_decodes_them() {
        assert_eq!(tokens("a &amp; b"), [r#""a & b""#]);
        assert_eq!(tokens("&copy2024 AT&T"), [r#""©2024 AT&T""#]);
        assert_eq!(tokens("&notin; &notit;"), [r#""∉ ¬it;""#]);
        assert_eq!(tokens("&#x41;&#66;"), [r#""AB""#]);
        assert_eq!(
            tokens(r#"<A HREF="?a=1&copy=2&amp;b" title=&lt;x href=no/>"#),
            [r#"<a href="?a=1&copy=2&b" title="<x">"#]
        );
        assert_eq!(tokens("<br/>"), ["<br/>"]);
        assert_eq!(tokens("&#0;"), ["bail"]);
        assert_eq!(tokens("&#x80;"), ["bail"]);
        assert_eq!(tokens("&#65"), ["bail"]);
    }

    #[test]
    fn gives_up_where_the_tokenizer_reports_an_error() {
        for html in [
            "<!x>",
            "<?xml?>",
            "</>",
            "</ a>",
            "<a b='c'd>",
            "<a \"b>",
            "<a b=c\"d>",
            "</a b>",
            "<!-->",
            "<!--->",
            "<!-- a --!>",
            "<a",
            "<a b='c",
            "<!DOCTYPE html PUBLIC \"x\">",
        ] {
            assert_eq!(tokens(html).last().unwrap(), "bail", "{html}");
        }
        assert_eq!(tokens("a < b"), [r#""a < b""#]);
        assert_eq!(tokens("<!-- a -- b --->"), ["<!-- a -- b --->"]);
        assert_eq!(tokens("<!doctype HTML>"), ["<!DOCTYPE>"]);
    }

    /// Where script data ends, through its escaped and double-escaped states.
    #[test]
    fn script_data_ends_where_the_tokenizer_ends_it() {
        let script = |data: &str| {
            let html = format!("{data}</script>tail");
            let mut tokens = Tokenizer::new(&html);
            tokens.raw_text("script", false).ok().map(Cow::into_owned)
        };
        assert_eq!(script("a < b").as_deref(), Some("a < b"));
        assert_eq!(script("<!-- x -->").as_deref(), Some("<!-- x -->"));
        assert_eq!(
            script("<!-- <script>x</script> -->").as_deref(),
            Some("<!-- <script>x</script> -->")
        );
        assert_eq!(script("<!--->").as_deref(), Some("<!--->"));
        // Double-escaped to the end: the script runs to the end of the input.
        assert_eq!(script("<!-- <script>"), None);
        assert_eq!(script("x</script >"), None);
    }
}
