//! The content type of a code file, from its extension, as the platform's code bus records
//! it: text types (and JavaScript, JSON, SVG, XML) as UTF-8. Pure.

/// The `content-type` value a code file is served with.
pub fn content_type(extension: Option<&str>) -> String {
    let Some(extension) = extension else {
        return "application/octet-stream".into();
    };
    let guessed = mime_guess::from_ext(extension).first_or_octet_stream();
    let essence = match guessed.essence_str() {
        // The registered type of JavaScript (RFC 9239), for `.js` and `.mjs` alike.
        "application/javascript" | "application/x-javascript" => "text/javascript",
        other => other,
    };
    let textual = essence.starts_with("text/")
        || matches!(
            essence,
            "application/json" | "application/xml" | "image/svg+xml" | "application/manifest+json"
        );
    if textual {
        format!("{essence}; charset=utf-8")
    } else {
        essence.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_files_get_their_types() {
        for (extension, expected) in [
            ("css", "text/css; charset=utf-8"),
            ("js", "text/javascript; charset=utf-8"),
            ("mjs", "text/javascript; charset=utf-8"),
            ("html", "text/html; charset=utf-8"),
            ("json", "application/json; charset=utf-8"),
            ("svg", "image/svg+xml; charset=utf-8"),
            ("png", "image/png"),
            ("woff2", "font/woff2"),
            ("ico", "image/x-icon"),
            ("unknown-ext", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Some(extension)), expected, "{extension}");
        }
        assert_eq!(content_type(None), "application/octet-stream");
    }
}
