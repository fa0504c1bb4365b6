//! SVG validation, a pure and conservative scan of the XML markup: an SVG is accepted only
//! when the scan understands all of it and finds
//! - at most [`SVG_LIMIT`] bytes of UTF-8,
//! - an `svg` root element (a namespace prefix is allowed: `svg:svg`),
//! - no `script` element (with or without prefix),
//! - no element that can hold HTML or load a document, whose scripts the rules below would
//!   never see (`foreignObject`, `iframe`, `embed`, `object`, …: [`DOCUMENT_ELEMENTS`]),
//! - no `use` of anything outside the SVG (an `href` other than `#id`), and no animation
//!   (`animate`, `set`, …) of an `href` or an event handler,
//! - no attribute whose name starts with `on` (event handlers) and no attribute value that
//!   starts with `javascript:` (ignoring case and white space),
//! - no document type with an internal subset (`<!DOCTYPE svg [ … ]>`), whose entities
//!   could hide markup from this scan.
//!
//! Comments, CDATA sections and processing instructions are skipped. Anything the scan
//! cannot read (an unterminated tag, a stray `<`) is a rejection, never a guess.

/// Largest SVG accepted.
pub const SVG_LIMIT: usize = 40 * 1024;

/// Elements (local names, compared without case) refused wherever they are: each can carry
/// HTML (`foreignObject`, and the HTML elements an XML document creates in any place) or
/// load another document, in which `<iframe srcdoc="&lt;script&gt;…">` runs script.
pub const DOCUMENT_ELEMENTS: &[&str] = &[
    "foreignobject",
    "iframe",
    "frame",
    "frameset",
    "embed",
    "object",
    "applet",
    "portal",
    "handler",
    "listener",
];

/// Animation elements, which can set another attribute of their target to any value.
const ANIMATIONS: &[&str] = &["animate", "set", "animatemotion", "animatetransform"];

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
    #[error("the SVG has a `{0}` element, which can hold HTML or load a document")]
    DocumentElement(String),
    #[error("the SVG's `use` references `{0}`, outside the SVG")]
    ExternalUse(String),
    #[error("the SVG animates the attribute `{0}`")]
    AnimatedAttribute(String),
    #[error("the SVG declares an internal DTD subset")]
    Doctype,
    #[error("the SVG's markup cannot be read at byte {0}")]
    Malformed(usize),
}

pub(crate) fn validate_svg(bytes: &[u8]) -> Result<(), SvgError> {
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
            let (name, attributes, end) = scan_tag(text, start)?;
            let local = local_name(name).to_ascii_lowercase();
            if local == "script" {
                return Err(SvgError::Script);
            }
            check_element(name, &local, &attributes)?;
            if root.is_none() {
                if local != "svg" {
                    return Err(SvgError::Root);
                }
                root = Some(name.to_string());
            }
            end
        };
    }
    match root {
        Some(_) => Ok(()),
        None => Err(SvgError::Root),
    }
}

/// A start tag's attributes: names and raw values, in order.
type Attributes<'a> = Vec<(&'a str, &'a str)>;

/// The name without its namespace prefix (`xlink:href` → `href`).
fn local_name(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// The rules on an element as a whole (its `local` name in lower case, its attributes).
fn check_element(name: &str, local: &str, attributes: &[(&str, &str)]) -> Result<(), SvgError> {
    if DOCUMENT_ELEMENTS.contains(&local) {
        return Err(SvgError::DocumentElement(name.to_string()));
    }
    let value_of = |wanted: &'static str| {
        attributes
            .iter()
            .filter(move |(attribute, _)| local_name(attribute).eq_ignore_ascii_case(wanted))
            .map(|(_, value)| decode_references(value))
    };
    if local == "use" {
        // Only a fragment of this same SVG (`#id`) is used; anything else is loaded.
        for target in value_of("href") {
            if !target.trim_start().starts_with('#') {
                return Err(SvgError::ExternalUse(target));
            }
        }
    }
    if ANIMATIONS.contains(&local) {
        for animated in value_of("attributeName") {
            let animated_local = local_name(animated.trim()).to_ascii_lowercase();
            if animated_local == "href" || animated_local.starts_with("on") {
                return Err(SvgError::AnimatedAttribute(animated.trim().to_string()));
            }
        }
    }
    Ok(())
}

/// Reads the start tag at `start` (`<name attr="v" …>` or `/>`): its name, its attributes
/// (names and raw values) and the offset after it, checking each attribute.
fn scan_tag(text: &str, start: usize) -> Result<(&str, Attributes<'_>, usize), SvgError> {
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
    let name = &text[name_start..at];
    let mut attributes = Vec::new();
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        match bytes.get(at) {
            None => return Err(malformed()),
            Some(b'>') => return Ok((name, attributes, at + 1)),
            Some(b'/') if bytes.get(at + 1) == Some(&b'>') => {
                return Ok((name, attributes, at + 2));
            }
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
        let local = local_name(attribute);
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
        attributes.push((attribute, value));
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
            "<svg><defs><path id=\"p\"/></defs><use href=\"#p\"/><use xlink:href=' #p'/></svg>",
            "<svg><rect><animate attributeName=\"x\" to=\"10\"/><set attributeName='fill' to='red'/></rect></svg>",
            "<svg><g class=\"object iframe\"><text>foreignObject</text></g></svg>",
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
            (
                "<svg><foreignObject><iframe srcdoc=\"&lt;script&gt;top.x=1&lt;/script&gt;\"/></foreignObject></svg>",
                SvgError::DocumentElement("foreignObject".into()),
            ),
            (
                "<svg><svg:FOREIGNOBJECT/></svg>",
                SvgError::DocumentElement("svg:FOREIGNOBJECT".into()),
            ),
            (
                "<svg><iframe xmlns=\"http://www.w3.org/1999/xhtml\" src=\"/x.html\"/></svg>",
                SvgError::DocumentElement("iframe".into()),
            ),
            (
                "<svg><embed src=\"x.svg\"/></svg>",
                SvgError::DocumentElement("embed".into()),
            ),
            (
                "<svg><h:object xmlns:h=\"http://www.w3.org/1999/xhtml\" data=\"x\"/></svg>",
                SvgError::DocumentElement("h:object".into()),
            ),
            (
                "<svg><use href=\"https://example.com/a.svg#p\"/></svg>",
                SvgError::ExternalUse("https://example.com/a.svg#p".into()),
            ),
            (
                "<svg><use xlink:href=\"data:image/svg+xml;base64,PHN2Zy8+#p\"/></svg>",
                SvgError::ExternalUse("data:image/svg+xml;base64,PHN2Zy8+#p".into()),
            ),
            (
                "<svg><a><set attributeName=\"href\" to=\"data:text/html,x\"/></a></svg>",
                SvgError::AnimatedAttribute("href".into()),
            ),
            (
                "<svg><a><animate attributeName=\"xlink:href\" values=\"#a;javascript:x\"/></a></svg>",
                SvgError::AnimatedAttribute("xlink:href".into()),
            ),
            (
                "<svg><g><set attributeName=\"onclick\" to=\"x()\"/></g></svg>",
                SvgError::AnimatedAttribute("onclick".into()),
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
