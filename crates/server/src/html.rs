//! HTML escaping for the pages siteops itself renders (sign-in, dashboard).

/// Escapes the five characters that matter in HTML text and quoted attributes.
pub(crate) fn escape_into(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup() {
        let mut out = String::new();
        super::escape_into(r#"<a href="x">Tom & 'Jerry'</a>"#, &mut out);
        assert_eq!(
            out,
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
    }
}
