//! The page's `head`: the first `metadata` block read and removed, then title, description,
//! canonical URL, images and the social tags derived as the pipeline's `extract-metadata`
//! step derives them.

use url::Url;

use super::content::{find, text_content};
use crate::ingest::dom::{HElement, HNode};
use crate::ingest::model::{Document, Kind, Node};

pub(super) fn has_class(e: &HElement, class: &str) -> bool {
    e.attr("class")
        .is_some_and(|c| c.split(' ').any(|x| x == class))
}

/// Removes the first `div.metadata` (document order) and returns it.
pub(super) fn take_metadata_block(nodes: &mut Vec<HNode>) -> Option<HElement> {
    for i in 0..nodes.len() {
        if let HNode::Element(e) = &nodes[i]
            && e.is("div")
            && has_class(e, "metadata")
        {
            let HNode::Element(found) = nodes.remove(i) else {
                unreachable!()
            };
            return Some(found);
        }
        if let HNode::Element(e) = &mut nodes[i]
            && let Some(found) = take_metadata_block(&mut e.children)
        {
            return Some(found);
        }
    }
    None
}

/// `toMetaName`.
pub(super) fn meta_name(text: &str) -> String {
    let name: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let lower = name.to_lowercase();
    if lower.starts_with("hreflang-") || lower.starts_with("hreflang:") {
        return format!("hreflang:{}", &name[9..]);
    }
    lower
}

pub(super) fn element_children(e: &HElement) -> Vec<&HElement> {
    e.children.iter().filter_map(HNode::element).collect()
}

/// `readBlockConfig`: each row of two cells is a name and a value.
pub(super) fn read_block_config(block: &HElement) -> Vec<(String, String)> {
    let mut config: Vec<(String, String)> = Vec::new();
    for row in element_children(block).into_iter().filter(|r| r.is("div")) {
        let [name_cell, value_cell, ..] = row.children.as_slice() else {
            continue;
        };
        let name = meta_name(&text_content(name_cell));
        if name.is_empty() {
            continue;
        }
        let value = if name.eq_ignore_ascii_case("json-ld") {
            text_content(value_cell).trim().to_owned()
        } else {
            config_value(value_cell)
        };
        match config.iter_mut().find(|(k, _)| *k == name) {
            Some(entry) => entry.1 = value,
            None => config.push((name, value)),
        }
    }
    config
}

pub(super) fn config_value(cell: &HNode) -> String {
    let HNode::Element(cell) = cell else {
        return text_content(cell).trim().to_owned();
    };
    let children = element_children(cell);
    let mut value = String::new();
    if let Some(first) = children.first() {
        let list: Option<Vec<&HElement>> = if first.is("p") {
            Some(children.clone())
        } else if first.is("ul") || first.is("ol") {
            Some(element_children(first))
        } else {
            None
        };
        if let Some(list) = list {
            value = list
                .iter()
                .map(|c| text_content(&HNode::Element((*c).clone())))
                .collect::<Vec<_>>()
                .join(", ");
        }
    }
    if value.is_empty() {
        value = cell
            .children
            .iter()
            .map(text_content)
            .collect::<String>()
            .trim()
            .to_owned();
    }
    if value.is_empty()
        && let Some(a) = find(&cell.children, &|e| e.is("a"))
    {
        value = a.attr("href").unwrap_or("").to_owned();
    }
    if value.is_empty()
        && let Some(img) = find(&cell.children, &|e| e.is("img"))
    {
        value = img.attr("src").unwrap_or("").to_owned();
    }
    value
}

pub(super) struct PageMeta {
    pub(super) title: String,
    pub(super) canonical: String,
    pub(super) feed: Option<String>,
    /// The meta tags in order (repeated names for lists such as `article:tag`).
    pub(super) tags: Vec<(String, String)>,
}

impl PageMeta {
    pub(super) fn build(
        doc: &Document,
        sections: &[HNode],
        mut config: Vec<(String, String)>,
        page: &Url,
    ) -> Self {
        const FIXED: &[&str] = &[
            "title",
            "description",
            "image",
            "image-alt",
            "url",
            "twitter:card",
            "og:url",
            "canonical",
        ];
        config.retain(|(k, v)| !v.is_empty() || FIXED.contains(&k.as_str()));
        let mut take = |name: &str| -> Option<String> {
            let i = config.iter().position(|(k, _)| k == name)?;
            Some(config.remove(i).1)
        };
        let title = take("title");
        let description = take("description");
        let keywords = take("keywords");
        let tags = take("tags");
        let image = take("image");
        let image_alt = take("image-alt");
        let canonical = take("canonical");
        let feed = take("feed");
        let twitter_card = take("twitter:card").unwrap_or_else(|| "summary_large_image".into());
        let keywords = keywords.map(|k| to_list(&k).join(", "));
        let tags = tags.map(|t| to_list(&t)).unwrap_or_default();

        let mut title = title.unwrap_or_else(|| {
            find(sections, &|e| e.is("h1"))
                .map(|h1| text_content(&HNode::Element(h1.clone())))
                .unwrap_or_else(|| content_title(doc))
        });
        if let Some(i) = config.iter().position(|(k, _)| k == "title:suffix") {
            let suffix = config.remove(i).1;
            if !title.is_empty() && suffix != "\"\"" {
                title = format!("{title} {suffix}");
            }
        }
        let description = description.or_else(|| extract_description(sections));
        let url = canonical_url(page);
        let canonical = canonical.unwrap_or(url.clone());
        let og_url = canonical.clone();

        let (hero_image, hero_alt) = hero(sections);
        let image = image
            .or(hero_image)
            .unwrap_or_else(|| "/default-meta-image.png".into());
        let image = meta_image(&image, page);
        let image_alt = image_alt.or(hero_alt);
        for (name, value) in config.iter_mut() {
            if matches!(
                name.as_str(),
                "og:image" | "og:image:secure_url" | "twitter:image"
            ) && (value.starts_with("http://")
                || value.starts_with("https://")
                || value.starts_with('/')
                || value.starts_with("./"))
            {
                *value = meta_image(value, page);
            }
        }

        let mut tags_out: Vec<(String, Option<Vec<String>>)> = vec![
            ("description".into(), description.clone().map(|d| vec![d])),
            ("keywords".into(), keywords.map(|k| vec![k])),
            ("og:title".into(), Some(vec![title.clone()])),
            ("og:description".into(), description.map(|d| vec![d])),
            ("og:url".into(), Some(vec![og_url])),
            ("og:image".into(), Some(vec![image.clone()])),
            ("og:image:secure_url".into(), Some(vec![image])),
            ("og:image:alt".into(), image_alt.map(|a| vec![a])),
            ("article:tag".into(), Some(tags)),
            ("twitter:card".into(), Some(vec![twitter_card])),
            ("twitter:title".into(), Some(vec![String::new()])),
            ("twitter:description".into(), Some(vec![String::new()])),
            ("twitter:image".into(), Some(vec![String::new()])),
        ];
        for (name, value) in &config {
            match tags_out.iter_mut().find(|(k, _)| k == name) {
                Some(entry) => entry.1 = Some(vec![value.clone()]),
                None => tags_out.push((name.clone(), Some(vec![value.clone()]))),
            }
        }
        for (from, to) in [
            ("twitter:title", "og:title"),
            ("twitter:description", "og:description"),
            ("twitter:image", "og:image"),
        ] {
            if !config.iter().any(|(k, _)| k == from) {
                let value = tags_out
                    .iter()
                    .find(|(k, _)| k == to)
                    .and_then(|(_, v)| v.clone());
                if let Some(entry) = tags_out.iter_mut().find(|(k, _)| k == from) {
                    entry.1 = value;
                }
            }
        }
        let tags = tags_out
            .into_iter()
            .flat_map(|(name, values)| {
                values
                    .unwrap_or_default()
                    .into_iter()
                    .map(move |v| (name.clone(), v))
            })
            .collect();
        PageMeta {
            title,
            canonical,
            feed,
            tags,
        }
    }
}

pub(super) fn to_list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The title the pipeline derives when none is given: the first heading of a section, else
/// its first paragraph of text.
pub(super) fn content_title(doc: &Document) -> String {
    let root = crate::ingest::markdown::document_root(doc);
    let mut sections: Vec<&[Node]> = Vec::new();
    let mut start = 0;
    for (i, n) in root.iter().enumerate() {
        if n.kind == Kind::ThematicBreak {
            sections.push(&root[start..i]);
            start = i + 1;
        }
    }
    sections.push(&root[start..]);
    for section in sections {
        let mut heading = None;
        let mut intro = None;
        for node in section {
            node.walk(&mut |n| match &n.kind {
                Kind::Heading { .. } if heading.is_none() => heading = Some(n.to_plain_text()),
                Kind::Paragraph if intro.is_none() => {
                    let only_image =
                        n.children.len() == 1 && matches!(n.children[0].kind, Kind::Image { .. });
                    if !n.children.is_empty() && !only_image {
                        intro = Some(n.to_plain_text());
                    }
                }
                _ => {}
            });
        }
        let title = heading
            .filter(|h| !h.is_empty())
            .or(intro)
            .unwrap_or_default();
        if !title.is_empty() {
            return title;
        }
    }
    String::new()
}

/// The first paragraph of a section or block cell with at least ten words (or a long
/// word), cut to 25 words.
pub(super) fn extract_description(nodes: &[HNode]) -> Option<String> {
    fn visit(parent: &HElement, out: &mut Option<String>) {
        for child in &parent.children {
            if out.is_some() {
                return;
            }
            let HNode::Element(e) = child else { continue };
            if parent.is("div") && e.is("p") {
                let text = text_content(child);
                let words: Vec<&str> = text.split_whitespace().collect();
                let words = if words.is_empty() { vec![""] } else { words };
                if words.len() >= 10
                    || words
                        .iter()
                        .any(|w| w.chars().count() > 25 && !w.starts_with("http"))
                {
                    let mut d = words.iter().take(25).copied().collect::<Vec<_>>().join(" ");
                    if words.len() > 25 {
                        d.push_str(" ...");
                    }
                    *out = Some(d);
                    return;
                }
            }
            visit(e, out);
        }
    }
    let mut out = None;
    let root = HElement {
        name: "#root".into(),
        foreign: false,
        attrs: Vec::new(),
        children: nodes.to_vec(),
    };
    visit(&root, &mut out);
    out
}

/// The first image (or link to an image file) inside a `div`: the page's default image.
pub(super) fn hero(sections: &[HNode]) -> (Option<String>, Option<String>) {
    const IMAGE_EXTENSIONS: &[&str] = &["avif", "webp", "png", "jpg", "jpeg", "gif"];
    let found = find(sections, &|e| {
        e.is("img")
            || (e.is("a")
                && e.attr("href").is_some_and(|href| {
                    Url::parse("https://localhost/")
                        .and_then(|base| base.join(href))
                        .map(|u| {
                            let path = u.path().to_lowercase();
                            IMAGE_EXTENSIONS.iter().any(|ext| {
                                path.rsplit('.').next() == Some(ext) && path.contains('.')
                            })
                        })
                        .unwrap_or(false)
                }))
    });
    match found {
        Some(e) if e.is("img") => (
            e.attr("src").map(str::to_owned),
            e.attr("alt").filter(|a| !a.is_empty()).map(str::to_owned),
        ),
        Some(a) => {
            let href = a.attr("href").unwrap_or("").to_owned();
            let text = text_content(&HNode::Element(a.clone())).trim().to_owned();
            let alt = a
                .attr("title")
                .map(str::to_owned)
                .or_else(|| (!text.is_empty() && text != href).then_some(text));
            (Some(href), alt)
        }
        None => (None, None),
    }
}

/// A meta image: page-relative paths get the 1200-wide rendition and become absolute.
pub(super) fn meta_image(src: &str, page: &Url) -> String {
    let Ok(resolved) = page.join(src) else {
        return src.to_owned();
    };
    let same_origin = resolved.origin() == page.origin();
    if !same_origin {
        return src.to_owned();
    }
    let mut params: Vec<(String, String)> = resolved.query_pairs().into_owned().collect();
    for (k, v) in [
        ("width", "1200"),
        ("format", "pjpg"),
        ("optimize", "medium"),
    ] {
        match params.iter().position(|(name, _)| name == k) {
            Some(i) => {
                params[i].1 = v.into();
                let mut j = i + 1;
                while j < params.len() {
                    if params[j].0 == k {
                        params.remove(j);
                    } else {
                        j += 1;
                    }
                }
            }
            None => params.push((k.into(), v.into())),
        }
    }
    let query = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish();
    let mut out = resolved.clone();
    out.set_query(Some(&query));
    out.to_string()
}

/// `makeCanonicalHtmlUrl`: the page URL without `.html` and a final `index`.
pub(super) fn canonical_url(page: &Url) -> String {
    let mut base = page.clone();
    base.set_query(None);
    base.set_fragment(None);
    let mut text = base.to_string();
    if let Some(stripped) = text.strip_suffix(".html") {
        text = stripped.to_owned();
    }
    if let Some(stripped) = text.strip_suffix("/index") {
        text = format!("{stripped}/");
    }
    match page.query() {
        Some(q) => format!("{text}?{q}"),
        None => text,
    }
}
