//! Images, links and icons as the pipeline renders them: stored (`./media_`) images as
//! responsive pictures, URLs normalised as micromark does, `:name:` texts as icon spans.

use super::html::{el, text};
use crate::ingest::dom::HNode;
use crate::ingest::model::{Kind, Node};

/// A stored (`./media_`) image as a responsive picture.
pub(super) fn media_picture(node: &Node) -> Option<HNode> {
    let Kind::Image { url, title, alt } = &node.kind else {
        return None;
    };
    let src = normalize_uri(url);
    if !src.starts_with("./media_") {
        return None;
    }
    let parsed = url::Url::parse("https://localhost/")
        .ok()?
        .join(&src)
        .ok()?;
    let path = parsed.path().to_owned();
    let mut width = None;
    let mut height = None;
    if let Some(fragment) = parsed.fragment() {
        for (k, v) in url::form_urlencoded::parse(fragment.as_bytes()) {
            match &*k {
                "width" if width.is_none() => width = Some(v.into_owned()),
                "width" if height.is_none() => height = Some(v.into_owned()),
                "height" => height = Some(v.into_owned()),
                _ => {}
            }
        }
    }
    let ext = path.rsplit('.').next().unwrap_or("").to_owned();
    let mime = mime_type(&ext);
    let variant = |width: &str, format: &str| {
        format!(".{path}?width={width}&format={format}&optimize=medium")
    };
    let source = |mime: Option<&str>, srcset: String, media: Option<&str>| {
        let mut attrs = Vec::new();
        if let Some(m) = mime {
            attrs.push(("type", m.to_owned()));
        }
        attrs.push(("srcset", srcset));
        if let Some(m) = media {
            attrs.push(("media", m.to_owned()));
        }
        el("source", attrs, Vec::new())
    };
    let mut img = vec![("loading", "lazy".to_owned()), ("alt", alt.clone())];
    if let Some(t) = title.as_ref().filter(|t| !t.is_empty())
        && t != alt
    {
        img.push(("data-title", t.clone()));
    }
    img.push(("src", variant("750", &ext)));
    if let Some(w) = width {
        img.push(("width", w));
    }
    if let Some(h) = height {
        img.push(("height", h));
    }
    Some(el(
        "picture",
        Vec::new(),
        vec![
            source(
                Some("image/webp"),
                variant("2000", "webply"),
                Some("(min-width: 600px)"),
            ),
            source(Some("image/webp"), variant("750", "webply"), None),
            source(mime, variant("2000", &ext), Some("(min-width: 600px)")),
            el("img", img, Vec::new()),
        ],
    ))
}

pub(super) fn mime_type(ext: &str) -> Option<&'static str> {
    Some(match ext.to_ascii_lowercase().as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "svg" => "image/svg+xml",
        "mp4" => "video/mp4",
        _ => return None,
    })
}

/// micromark's `normalizeUri`: characters outside the URL-safe set percent-encoded,
/// existing escapes kept.
pub(crate) fn normalize_uri(value: &str) -> String {
    const SAFE: &[u8] = b"!#$&'()*+,-./:;=?@[]_~";
    let bytes = value.as_bytes();
    let mut out = String::with_capacity(value.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            out.push_str(&value[i..i + 3]);
            i += 3;
            continue;
        }
        if b.is_ascii_alphanumeric() || SAFE.contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        i += 1;
    }
    out
}

/// Text with `:name:` icons as `span.icon.icon-name` (not after `http…`/`urn…` in the same
/// word, as the pipeline's look-behind has it).
pub(super) fn push_text_with_icons(value: &str, out: &mut Vec<HNode>) {
    let value: String = value
        .chars()
        .map(|c| {
            if matches!(c, '\t' | '\x0b' | '\r' | '\n') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let bytes = value.as_bytes();
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b':'
            && let Some(end) = icon_end(bytes, i + 1)
            && !after_url_prefix(&value[..i])
        {
            if last < i {
                out.push(text(&value[last..i]));
            }
            let mut name = value[i + 1..end].to_owned();
            if let Some(stripped) = name.strip_prefix('#') {
                name = stripped.to_owned();
            }
            out.push(el(
                "span",
                vec![("class", format!("icon icon-{name}"))],
                Vec::new(),
            ));
            last = end + 1;
            i = end + 1;
            continue;
        }
        i += 1;
    }
    if last < value.len() {
        out.push(text(&value[last..]));
    }
}

/// The closing `:` of `#?[a-z_-]+[a-z\d]*` starting at `start`, case-insensitive.
pub(super) fn icon_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    if bytes.get(i) == Some(&b'#') {
        i += 1;
    }
    let letters = bytes[i..]
        .iter()
        .take_while(|b| b.is_ascii_alphabetic() || **b == b'_' || **b == b'-')
        .count();
    if letters == 0 {
        return None;
    }
    i += letters;
    i += bytes[i..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    (bytes.get(i) == Some(&b':')).then_some(i)
}

pub(super) fn after_url_prefix(before: &str) -> bool {
    let word = before
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    word.contains("http") || word.contains("urn")
}
