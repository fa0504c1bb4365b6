//! The pipeline's steps over the mdast: `split-sections` (thematic breaks), `get-metadata`
//! (the page's title, intro and image, and each section's content types) and
//! `unwrap-sole-images` (a section that is one image loses its paragraph).

use std::collections::BTreeMap;

use super::mdast::{Md, to_string};

/// What `get-metadata` reads from the mdast for the head.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ContentInfo {
    pub title: String,
    pub intro: String,
    /// The first image's URL (as written: `rewriteUrl` changes only platform URLs).
    pub image: Option<String>,
}

/// `split-sections`: the root's children split at thematic breaks into sections; a sole
/// section is unwrapped again.
pub(crate) fn split_sections(root: Md) -> Md {
    let Md::Root(children) = root else {
        return root;
    };
    let dividers: Vec<usize> = children
        .iter()
        .enumerate()
        .filter(|(_, n)| matches!(n, Md::ThematicBreak))
        .map(|(i, _)| i)
        .collect();
    let starts = std::iter::once(0).chain(dividers.iter().copied());
    let ends = dividers
        .iter()
        .copied()
        .chain(std::iter::once(children.len()));
    let mut sections = Vec::new();
    for (start, end) in starts.zip(ends) {
        if start == end {
            continue;
        }
        let from = if matches!(children[start], Md::ThematicBreak) {
            start + 1
        } else {
            start
        };
        sections.push(Md::Section(children[from..end].to_vec()));
    }
    if sections.len() == 1
        && let Some(Md::Section(only)) = sections.pop()
    {
        return Md::Root(only);
    }
    Md::Root(sections)
}

/// `get-metadata`, then `unwrap-sole-images` on the sections it typed.
pub(crate) fn metadata_and_unwrap(root: &mut Md) -> ContentInfo {
    let Md::Root(children) = root else {
        return ContentInfo::default();
    };
    let has_sections = children.iter().any(|c| matches!(c, Md::Section(_)));
    let mut infos: Vec<SectionInfo> = Vec::new();
    if has_sections {
        for child in children.iter_mut() {
            if let Md::Section(section) = child {
                let info = SectionInfo::of(section);
                unwrap_sole_image(section, &info);
                infos.push(info);
            }
        }
    } else {
        let info = SectionInfo::of(children);
        unwrap_sole_image(children, &info);
        infos.push(info);
    }
    let title = infos
        .iter()
        .map(|i| i.title.clone())
        .find(|t| !t.is_empty())
        .unwrap_or_default();
    ContentInfo {
        title,
        intro: infos.first().map(|i| i.intro.clone()).unwrap_or_default(),
        image: infos.iter().find_map(|i| i.image.clone()),
    }
}

struct SectionInfo {
    title: String,
    intro: String,
    image: Option<String>,
    /// The section's content types counted as `sectiontype` counts them.
    types: BTreeMap<&'static str, usize>,
}

impl SectionInfo {
    fn of(children: &[Md]) -> Self {
        let first = |f: &mut dyn FnMut(&Md) -> Option<String>| {
            children.iter().find_map(|c| c.find(&mut |n| f(n)))
        };
        let heading = first(&mut |n| matches!(n, Md::Heading { .. }).then(|| to_string(n)));
        let intro = first(&mut |n| match n {
            Md::Paragraph(kids)
                if !kids.is_empty() && !matches!(kids.as_slice(), [Md::Image { .. }]) =>
            {
                Some(to_string(n))
            }
            _ => None,
        });
        let image = first(&mut |n| match n {
            Md::Image { url, .. } => Some(url.clone()),
            _ => None,
        });
        let mut types = BTreeMap::new();
        for child in children {
            count_types(child, &mut types);
        }
        let mut title = heading.unwrap_or_default();
        let mut intro = intro.unwrap_or_default();
        // `fallback`
        if !intro.is_empty() && title.is_empty() {
            title = intro.clone();
        } else if !title.is_empty() && intro.is_empty() {
            intro = title.clone();
        }
        SectionInfo {
            title,
            intro,
            image,
            types,
        }
    }

    /// `has-only-image` and `nb-image-1`.
    fn is_sole_image(&self) -> bool {
        self.types.len() == 1 && self.types.get("image") == Some(&1)
    }
}

/// The counting of `sectiontype`'s reducer: a paragraph counts its children by type (empty
/// texts aside), anything else counts itself.
fn count_types(node: &Md, counter: &mut BTreeMap<&'static str, usize>) {
    let mut mine: BTreeMap<&'static str, usize> = BTreeMap::new();
    if let Md::Paragraph(children) = node {
        for child in children {
            if let Md::Text(value) = child
                && (value == "\n" || value.is_empty())
            {
                continue;
            }
            *mine.entry(child.type_name()).or_default() += 1;
        }
    }
    if mine.is_empty() {
        *mine.entry(node.type_name()).or_default() += 1;
    }
    for (k, v) in mine {
        *counter.entry(k).or_default() += v;
    }
}

fn unwrap_sole_image(children: &mut [Md], info: &SectionInfo) {
    if !info.is_sole_image() {
        return;
    }
    for child in children.iter_mut() {
        if let Md::Paragraph(kids) = child
            && let Some(first) = kids.first().cloned()
        {
            *child = first;
        }
    }
}
