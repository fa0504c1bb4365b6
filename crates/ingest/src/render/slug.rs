//! Heading ids: `github-slugger`'s `slug` with the pipeline's `IDSlugger` (no leading
//! number, repeats counted per original slug, the empty slug counted too).

use std::collections::HashMap;

// Letters, numbers and combining marks are kept (a decomposed `é` keeps its accent).
use unicode_id::UnicodeID;

#[derive(Debug, Default)]
pub(crate) struct Slugger {
    occurrences: HashMap<String, usize>,
}

impl Slugger {
    pub fn slug(&mut self, value: &str) -> String {
        let mut slug = String::new();
        for c in value.to_lowercase().chars() {
            if c == ' ' {
                slug.push('-');
            } else if c.is_alphanumeric() || c == '-' || c == '_' || c.is_id_continue() {
                slug.push(c);
            }
        }
        // `.replace(/^\d+-+/, '')`
        let digits = slug.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && slug.as_bytes().get(digits) == Some(&b'-') {
            let dashes = slug[digits..].bytes().take_while(|b| *b == b'-').count();
            slug = slug[digits + dashes..].to_owned();
        }
        let original = slug.clone();
        let mut id = slug;
        while self.occurrences.contains_key(&id) {
            let count = self.occurrences.entry(original.clone()).or_insert(0);
            *count += 1;
            id = format!("{original}-{count}");
        }
        self.occurrences.insert(id.clone(), 0);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_and_leading_numbers() {
        let mut s = Slugger::default();
        assert_eq!(s.slug("Hello World!"), "hello-world");
        assert_eq!(s.slug("Hello World"), "hello-world-1");
        assert_eq!(s.slug("1. Intro"), "intro");
        assert_eq!(s.slug("!!!"), "");
        assert_eq!(s.slug("???"), "-1");
    }
}
