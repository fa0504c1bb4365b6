//! Lookups over the rendered tree shared by the steps and the head.

/// `toBlockCSSClassNames`: `Columns (bleed, dark green)` -> `columns bleed dark-green`.
pub(crate) fn css_class_names(text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut names: Vec<&str> = Vec::new();
    match text.rfind('(') {
        Some(idx) => {
            names.push(&text[..idx]);
            names.extend(text[idx + 1..].split(','));
        }
        None => names.push(text),
    }
    names
        .into_iter()
        .map(|name| {
            let mut out = String::new();
            let mut dash = false;
            for c in name.to_lowercase().chars() {
                if c.is_ascii_lowercase() || c.is_ascii_digit() {
                    out.push(c);
                    dash = false;
                } else if !dash {
                    out.push('-');
                    dash = true;
                }
            }
            out.trim_matches('-').to_owned()
        })
        .filter(|n| !n.is_empty())
        .collect()
}
