//! Small lookups of the image and icon steps: the MIME type `mime` gives an extension, and
//! the pieces of `rewrite-icons`' pattern.

/// `mime.getType` for the image extensions a page links.
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
