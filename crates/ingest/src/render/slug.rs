//! Heading ids: `github-slugger`'s `slug` with the pipeline's `IDSlugger` (no leading
//! number, repeats counted per original slug, the empty slug counted too).

use std::collections::HashMap;

use super::slug_removed::REMOVED;

/// Whether `slug` removes `c`: github-slugger's own character class (its `regex.js`,
/// punctuation, symbols and controls of every script, `・` and `、` too), as ranges.
fn removed(c: char) -> bool {
    REMOVED
        .binary_search_by(|&(start, end)| {
            if end < c {
                std::cmp::Ordering::Less
            } else if start > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

#[derive(Debug, Default)]
pub(crate) struct Slugger {
    occurrences: HashMap<String, usize>,
}

impl Slugger {
    pub(super) fn slug(&mut self, value: &str) -> String {
        let mut slug = String::new();
        for c in value.to_lowercase().chars() {
            if c == ' ' {
                slug.push('-');
            } else if !removed(c) {
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

    /// Issue 28: `・` (U+30FB) is in the slugger's class, as is the rest of its punctuation.
    #[test]
    fn punctuation_of_every_script_is_removed() {
        let mut s = Slugger::default();
        assert_eq!(s.slug("IT・科学"), "it科学");
        assert_eq!(s.slug("中文，标点。「引用」"), "中文标点引用");
    }

    /// Samples of every range of the class and of the characters around it, with the id
    /// the reference (`IDSlugger`, github-slugger 2.0.0) gives a heading `a{c}b`: written
    /// by `slug_removed.mjs` with the table.
    #[test]
    fn each_range_of_the_class_is_the_reference_s() {
        let samples = include_str!("../../tests/fixtures/slug-samples.jsonl");
        let mut wrong = Vec::new();
        let mut count = 0;
        for line in samples.lines() {
            let (cp, want): (u32, String) = serde_json::from_str(line).expect("a sample");
            let c = char::from_u32(cp).expect("a scalar value");
            let got = Slugger::default().slug(&format!("a{c}b"));
            if got != want {
                wrong.push(format!("U+{cp:04X}: reference {want:?}, siteops {got:?}"));
            }
            count += 1;
        }
        assert!(count > 2000, "{count} samples");
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
