//! Markdown serialisation of a [`Document`], byte for byte as the reference converter writes
//! it: `mdast-util-to-markdown` (with `*` for emphasis and strong, `-` bullets, fenced code,
//! `---` rules) plus GFM, grid tables and the `sub`/`sup`/`u` formats, after images become
//! references (`![alt][imageN]` with the definitions at the end).
//!
//! The handlers below follow their JavaScript originals closely (positions are tracked in
//! UTF-16 code units, as JavaScript counts them), because the escaping and the table layout
//! depend on every detail.

mod flow;
mod grid;
mod phrasing;
pub(crate) mod safe;
mod state;

use std::collections::HashMap;

use state::State;

use super::model::{BlockInfo, Document, Kind, MetaValue, Node};
use super::sanitize;

/// Length in UTF-16 code units (JavaScript's `length`).
pub(crate) fn js_len(s: &str) -> usize {
    // One unit per character (every byte that is not a continuation byte `10xxxxxx`), two
    // for the four-byte sequences (`11110xxx`), counted eight bytes at a time: in each
    // byte, bit 7 ANDed with the bits below it shifted up into bit 7.
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let bytes = s.as_bytes();
    let mut words = bytes.chunks_exact(8);
    let (mut continuations, mut four_byte_leads) = (0, 0);
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        continuations += (x & !(x << 1) & HIGH).count_ones() as usize;
        four_byte_leads += (x & (x << 1) & (x << 2) & (x << 3) & HIGH).count_ones() as usize;
    }
    for &b in words.remainder() {
        continuations += usize::from(b & 0xC0 == 0x80);
        four_byte_leads += usize::from(b >= 0xF0);
    }
    bytes.len() - continuations + four_byte_leads
}

/// micromark's `unicodePunctuation`: Unicode punctuation or symbol (`\p{P}|\p{S}`).
pub(crate) fn unicode_punctuation(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    static PUNCTUATION: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"^[\p{P}\p{S}]$").expect("valid regex"));
    let mut buf = [0u8; 4];
    PUNCTUATION.is_match(c.encode_utf8(&mut buf))
}

/// JavaScript's `/\s/`.
pub(super) fn unicode_whitespace(c: char) -> bool {
    sanitize::js_space(c)
}

/// Serialises `doc` to markdown. A page without `main` gives the empty string.
pub fn to_markdown(doc: &Document) -> String {
    if !doc.has_main {
        return String::new();
    }
    let metadata = metadata_block(doc);
    let rule = Node::new(Kind::ThematicBreak);
    let mut root: Vec<&Node> = Vec::new();
    for (i, section) in doc.sections.iter().enumerate() {
        if i > 0 {
            root.push(&rule);
        }
        root.extend(section.children.iter());
    }
    root.extend(metadata.iter());
    let refs = ImageRefs::collect(&root);
    let mut state = State {
        stack: Vec::new(),
        index_stack: Vec::new(),
        bullet_current: None,
        bullet_last_used: None,
        line_width: None,
        same_widths: i64::MIN..i64::MAX,
        attention: None,
        refs: &refs,
    };
    let mut out = state.root_flow(&root);
    let definitions: Vec<String> = (refs.order.iter().enumerate())
        .map(|(index, (url, title))| state.definition(index, url, title.as_deref()))
        .collect();
    out.reserve(definitions.iter().map(|d| d.len() + 2).sum::<usize>() + 1);
    for definition in definitions {
        out.push_str("\n\n");
        out.push_str(&definition);
    }
    if !out.is_empty() && !out.ends_with('\n') && !out.ends_with('\r') {
        out.push('\n');
    }
    out
}

/// The head metadata as the `Metadata` block the reference appends.
pub(crate) fn metadata_block(doc: &Document) -> Option<Node> {
    if doc.head_metadata.is_empty() {
        return None;
    }
    let rows = doc
        .head_metadata
        .iter()
        .map(|entry| {
            let value = match &entry.value {
                MetaValue::Text(text) => Node::text(text.clone()),
                // A head image has no title at all (not an empty one): see `ImageRefs`.
                MetaValue::Image(url) => Node::new(Kind::Image {
                    url: url.clone(),
                    title: Some(String::new()),
                    alt: String::new(),
                }),
            };
            let cell = |child| {
                Node::with(
                    Kind::BlockCell {
                        align: None,
                        valign: None,
                    },
                    vec![child],
                )
            };
            Node::with(
                Kind::BlockRow,
                vec![cell(Node::text(entry.name.clone())), cell(value)],
            )
        })
        .collect();
    let mut block = vec![Node::with(
        Kind::Block(BlockInfo {
            classes: vec!["metadata".into()],
        }),
        rows,
    )];
    sanitize::sanitize_text_and_formats(&mut block);
    block.pop()
}

/// Images become references: one identifier per distinct URL and title, in document order.
pub(super) struct ImageRefs {
    ids: HashMap<(String, String), usize>,
    order: Vec<(String, Option<String>)>,
}

impl ImageRefs {
    pub(super) fn collect(root: &[&Node]) -> Self {
        let mut refs = ImageRefs {
            ids: HashMap::new(),
            order: Vec::new(),
        };
        for node in root {
            node.walk(&mut |n| {
                if let Kind::Image { url, title, .. } = &n.kind {
                    let key = (url.clone(), title_key(title));
                    if !refs.ids.contains_key(&key) {
                        refs.ids.insert(key, refs.order.len());
                        refs.order.push((url.clone(), title.clone()));
                    }
                }
            });
        }
        refs
    }

    pub(super) fn id(&self, url: &str, title: &Option<String>) -> usize {
        self.ids
            .get(&(url.to_owned(), title_key(title)))
            .copied()
            .unwrap_or(0)
    }
}

/// The reference keys images by `${url}\n${title}`, where a missing body title is `null`.
fn title_key(title: &Option<String>) -> String {
    title.clone().unwrap_or_else(|| "null".into())
}

/// `s.replace(/[\r\n ]+/gm, ' ')`.
pub(super) fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut run = false;
    for c in s.chars() {
        if matches!(c, '\r' | '\n' | ' ') {
            if !run {
                out.push(' ');
            }
            run = true;
        } else {
            out.push(c);
            run = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::js_len;

    /// JavaScript's `length`, at every offset and length around the eight-byte words: ASCII,
    /// two-, three- and four-byte characters.
    #[test]
    fn js_len_counts_utf16_units() {
        let text = "aé€😀b\u{10FFFF}ü ascii 🎉中文x\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}";
        let starts = text.char_indices().map(|(i, _)| i);
        for start in starts {
            for (end, _) in text[start..]
                .char_indices()
                .chain([(text.len() - start, ' ')])
            {
                let s = &text[start..start + end];
                assert_eq!(js_len(s), s.encode_utf16().count(), "{s:?}");
            }
        }
    }
}
