//! SVG validation, a pure and conservative scan of the XML markup: an SVG is accepted only
//! when the scan understands all of it and finds
//! - at most [`SVG_LIMIT`] bytes of UTF-8,
//! - an `svg` root element (a namespace prefix is allowed: `svg:svg`),
//! - no `script` element (with or without prefix),
//! - no attribute whose name starts with `on` (event handlers) and no attribute value that
//!   starts with `javascript:` (ignoring case and white space),
//! - no document type with an internal subset (`<!DOCTYPE svg [ … ]>`), whose entities
//!   could hide markup from this scan.
//!
//! Comments, CDATA sections and processing instructions are skipped. Anything the scan
//! cannot read (an unterminated tag, a stray `<`) is a rejection, never a guess.

/// Largest SVG accepted.
pub const SVG_LIMIT: usize = 40 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SvgError {
    #[error("the SVG is larger than {SVG_LIMIT} bytes")]
    TooLarge,
    #[error("the SVG is not UTF-8")]
    Encoding,
    #[error("the SVG's root element is not `svg`")]
    Root,
    #[error("the SVG contains a script element")]
    Script,
    #[error("the SVG has an event-handler attribute `{0}`")]
    EventHandler(String),
    #[error("the SVG has a javascript: URL in `{0}`")]
    JavascriptUrl(String),
    #[error("the SVG declares an internal DTD subset")]
    Doctype,
    #[error("the SVG's markup cannot be read at byte {0}")]
    Malformed(usize),
}

pub fn validate_svg(bytes: &[u8]) -> Result<(), SvgError> {
    if bytes.len() > SVG_LIMIT {
        return Err(SvgError::TooLarge);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| SvgError::Encoding)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut at = 0;
    let mut root: Option<String> = None;
    while let Some(offset) = text[at..].find('<') {
        let start = at + offset;
        let rest = &text[start..];
        let skip = |end: &str| {
            rest.find(end)
                .map(|i| start + i + end.len())
                .ok_or(SvgError::Malformed(start))
        };
        at = if rest.starts_with("<!--") {
            skip("-->")?
        } else if rest.starts_with("<![CDATA[") {
            skip("]]>")?
        } else if rest.starts_with("<?") {
            skip("?>")?
        } else if rest.len() >= 9 && rest[..9].eq_ignore_ascii_case("<!doctype") {
            let end = skip(">")?;
            if text[start..end].contains('[') {
                return Err(SvgError::Doctype);
            }
            end
        } else if rest.starts_with("</") {
            skip(">")?
        } else {
            let (name, end) = scan_tag(text, start)?;
            let local = name
                .rsplit(':')
                .next()
                .unwrap_or(&name)
                .to_ascii_lowercase();
            if local == "script" {
                return Err(SvgError::Script);
            }
            if root.is_none() {
                if local != "svg" {
                    return Err(SvgError::Root);
                }
                root = Some(name);
            }
            end
        };
    }
    match root {
        Some(_) => Ok(()),
        None => Err(SvgError::Root),
    }
}

/// Reads the start tag at `start` (`<name attr="v" …>` or `/>`): its name and the offset
/// after it, checking each attribute.
fn scan_tag(text: &str, start: usize) -> Result<(String, usize), SvgError> {
    let bytes = text.as_bytes();
    let malformed = || SvgError::Malformed(start);
    let name_char =
        |b: u8| !b.is_ascii_whitespace() && !matches!(b, b'/' | b'>' | b'=' | b'<' | b'"' | b'\'');
    let mut at = start + 1;
    let name_start = at;
    while at < bytes.len() && name_char(bytes[at]) {
        at += 1;
    }
    if at == name_start {
        return Err(malformed());
    }
    let name = text[name_start..at].to_string();
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        match bytes.get(at) {
            None => return Err(malformed()),
            Some(b'>') => return Ok((name, at + 1)),
            Some(b'/') if bytes.get(at + 1) == Some(&b'>') => return Ok((name, at + 2)),
            Some(_) => {}
        }
        let attribute_start = at;
        while at < bytes.len() && name_char(bytes[at]) {
            at += 1;
        }
        if at == attribute_start {
            return Err(malformed());
        }
        let attribute = &text[attribute_start..at];
        let local = attribute.rsplit(':').next().unwrap_or(attribute);
        if local.len() >= 2 && local[..2].eq_ignore_ascii_case("on") {
            return Err(SvgError::EventHandler(attribute.to_string()));
        }
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if bytes.get(at) != Some(&b'=') {
            continue; // an attribute without a value (not XML, but harmless)
        }
        at += 1;
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let quote = *bytes.get(at).ok_or_else(malformed)?;
        if quote != b'"' && quote != b'\'' {
            return Err(malformed());
        }
        let value_start = at + 1;
        let value_end = text[value_start..]
            .find(quote as char)
            .map(|i| value_start + i)
            .ok_or_else(malformed)?;
        let value = &text[value_start..value_end];
        if is_javascript_url(value) {
            return Err(SvgError::JavascriptUrl(attribute.to_string()));
        }
        at = value_end + 1;
    }
}

/// `javascript:` at the start once character references are decoded and white space and
/// control characters dropped, as a URL parser reads it.
fn is_javascript_url(value: &str) -> bool {
    let decoded = decode_references(value);
    let compact: String = decoded
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .take("javascript:".len())
        .collect();
    compact.eq_ignore_ascii_case("javascript:")
}

/// Decodes numeric character references and the named ones that spell URL syntax.
fn decode_references(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.find(';').unwrap_or(rest.len());
        let body = &rest[1..end];
        let decoded = if let Some(hex) = body
            .strip_prefix(['#'])
            .and_then(|b| b.strip_prefix(['x', 'X']))
        {
            u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
        } else if let Some(digits) = body.strip_prefix('#') {
            digits.parse::<u32>().ok().and_then(char::from_u32)
        } else {
            match body {
                "colon" => Some(':'),
                "Tab" => Some('\t'),
                "NewLine" => Some('\n'),
                "amp" => Some('&'),
                _ => None,
            }
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = rest.get(end + 1..).unwrap_or("");
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_validation() {
        let ok = [
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0"/></svg>"#,
            "<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<svg><g><rect/></g></svg>",
            "\u{feff}<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\"><svg/>",
            "<svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\"><svg:rect/></svg:svg>",
            "<svg><text><![CDATA[<script>not markup</script>]]></text></svg>",
            "<svg><a href=\"https://example.com\">x</a><desc>one &lt; two</desc></svg>",
            "<svg><a href=\"java\">x</a><a href=\"&amp;javascript:\"/></svg>",
            "<svg font='on'><g class=\"online\"/></svg>",
        ];
        for svg in ok {
            assert_eq!(validate_svg(svg.as_bytes()), Ok(()), "{svg}");
        }
        let bad = [
            ("<html><svg/></html>", SvgError::Root),
            ("just text", SvgError::Root),
            ("", SvgError::Root),
            ("<svg><script>alert(1)</script></svg>", SvgError::Script),
            ("<svg><SCRIPT/></svg>", SvgError::Script),
            ("<svg><svg:script/></svg>", SvgError::Script),
            (
                "<svg onload=\"alert(1)\"/>",
                SvgError::EventHandler("onload".into()),
            ),
            (
                "<svg><g ONCLICK='x'/></svg>",
                SvgError::EventHandler("ONCLICK".into()),
            ),
            (
                "<svg><g xlink:onclick='x'/></svg>",
                SvgError::EventHandler("xlink:onclick".into()),
            ),
            (
                "<svg><a href=\" JavaScript:alert(1)\"/></svg>",
                SvgError::JavascriptUrl("href".into()),
            ),
            (
                "<svg><a xlink:href=\"java&#x09;script&#x3a;x\"/></svg>",
                SvgError::JavascriptUrl("xlink:href".into()),
            ),
            (
                "<!DOCTYPE svg [<!ENTITY x \"<script/>\">]><svg>&x;</svg>",
                SvgError::Doctype,
            ),
            ("<svg><g", SvgError::Malformed(5)),
            ("<svg><!-- open", SvgError::Malformed(5)),
            ("<svg a=b/>", SvgError::Malformed(0)),
            ("<svg><desc>one < two</desc></svg>", SvgError::Malformed(15)),
            (
                "<svg><a href=\"&#106;avascript:x\"/></svg>",
                SvgError::JavascriptUrl("href".into()),
            ),
            (
                "<svg><a href=\"javascript&colon;x\"/></svg>",
                SvgError::JavascriptUrl("href".into()),
            ),
        ];
        for (svg, error) in bad {
            assert_eq!(validate_svg(svg.as_bytes()), Err(error), "{svg}");
        }
        let large = format!("<svg>{}</svg>", " ".repeat(SVG_LIMIT));
        assert_eq!(validate_svg(large.as_bytes()), Err(SvgError::TooLarge));
        assert_eq!(validate_svg(b"<svg>\xff</svg>"), Err(SvgError::Encoding));
    }
}
