//! The page's `head`, as the pipeline's `extract-metadata` step derives the metadata and
//! `render` writes it: the first `metadata` block read and taken out of the body, then the
//! title, description, canonical URL, images and social tags, in the pipeline's order.
//!
//! The metadata sheets' values for the page (the delivery resolves them) go under the
//! block's: a sheet's empty cell is dropped, its `""` leaves the name without a value (no
//! tag, and no fallback to another name's). The site's
//! `head.html` follows, with the CSP nonce applied to it when the delivery has one.
//!
//! JavaScript's `undefined` matters here (a `Title` row with no value removes the title
//! element; an empty one keeps it), so values are `Option<String>` where the reference can
//! hold `undefined`.

use std::collections::HashMap;

use url::Url;

use super::html::{el, text};
use super::sections::ContentInfo;
use super::site::Site;
use super::steps::{rewrite_url, to_string};
use super::{PageDelivery, csp};
use crate::dom::{self, HElement, HNode};

/// The head's children, the `lang` of `html`, and the response headers the CSP step sets.
pub(crate) struct Head {
    pub children: Vec<HNode>,
    pub lang: Option<String>,
    pub headers: Vec<(String, String)>,
}

/// What the head is made of besides the body: where the page is, what the delivery gives
/// (sheets, the CSP step), the site's `head.html`.
pub(crate) struct HeadInputs<'a> {
    pub site: &'a Site<'a>,
    /// The request's path (`req.url.pathname`): the canonical URL's, even when a folder
    /// mapping rendered another page.
    pub request_path: &'a str,
    pub delivery: &'a PageDelivery,
    pub head_html: Option<&'a str>,
}

/// Names that a metadata row keeps even when its value is empty.
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

/// An ordered map with JavaScript object semantics: a key keeps its first position. Keys
/// are indexed, so that a page or sheet with many names stays linear.
#[derive(Default)]
struct Props {
    /// In insertion order; `None` where an entry was taken out.
    entries: Vec<Option<(String, Props1)>>,
    index: HashMap<String, usize>,
}

/// A value: `None` is `undefined`, `List` is an array (`article:tag`).
#[derive(Clone, Debug, PartialEq)]
enum Props1 {
    Text(Option<String>),
    List(Vec<String>),
}

impl Props {
    fn set(&mut self, key: &str, value: Props1) {
        match self.index.get(key).and_then(|&i| self.entries[i].as_mut()) {
            Some(entry) => entry.1 = value,
            None => {
                self.index.insert(key.to_owned(), self.entries.len());
                self.entries.push(Some((key.to_owned(), value)));
            }
        }
    }

    fn has(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    fn get(&self, key: &str) -> Option<&Props1> {
        let i = *self.index.get(key)?;
        self.entries[i].as_ref().map(|(_, v)| v)
    }

    fn take(&mut self, key: &str) -> Option<Props1> {
        let i = self.index.remove(key)?;
        self.entries[i].take().map(|(_, v)| v)
    }

    fn text(&self, key: &str) -> Option<String> {
        match self.get(key) {
            Some(Props1::Text(v)) => v.clone(),
            _ => None,
        }
    }

    fn iter(&self) -> impl Iterator<Item = &(String, Props1)> {
        self.entries.iter().flatten()
    }

    /// Takes out the entries for which `drop` holds.
    fn remove_where(&mut self, drop: impl Fn(&Props1) -> bool) {
        for entry in &mut self.entries {
            if entry.as_ref().is_some_and(|(_, v)| drop(v))
                && let Some((key, _)) = entry.take()
            {
                self.index.remove(&key);
            }
        }
    }

    fn into_entries(self) -> impl Iterator<Item = (String, Props1)> {
        self.entries.into_iter().flatten()
    }
}

/// `extract-metadata`, then the head part of `render`.
pub(crate) fn build_head(
    main: &mut Vec<HNode>,
    content: &ContentInfo,
    inputs: &HeadInputs<'_>,
) -> Head {
    let site = inputs.site;
    let mut config = sheet_config(inputs.delivery);
    if let Some(block) = take_first(main, &|e| e.is("div") && has_class(e, "metadata")) {
        for (name, value) in read_block_config(&block) {
            if value.as_deref().is_some_and(|v| !v.is_empty()) || FIXED.contains(&name.as_str()) {
                config.set(&name, Props1::Text(value));
            }
        }
    }
    // The names `extract-metadata` moves from the configuration into `meta`.
    let mut meta = Props::default();
    for name in [
        "title",
        "description",
        "keywords",
        "tags",
        "image",
        "image-alt",
        "canonical",
        "feed",
        "twitter:card",
    ] {
        if let Some(value) = config.take(name) {
            meta.set(name, value);
        }
    }
    if !meta.has("twitter:card") {
        meta.set("twitter:card", text_value("summary_large_image"));
    }
    if let Some(keywords) = meta.text("keywords").filter(|k| !k.is_empty()) {
        meta.set("keywords", text_value(&to_list(&keywords).join(", ")));
    }
    let tags = meta
        .text("tags")
        .filter(|t| !t.is_empty())
        .map(|t| to_list(&t));

    let mut title = if meta.has("title") {
        meta.text("title")
    } else {
        let from_h1 = find_in_div(main, &|e| e.is("h1"), false).map(|h1| to_string(&h1.children));
        Some(from_h1.unwrap_or_else(|| content.title.clone()))
    };
    if let Some(suffix) = config.take("title:suffix").and_then(|v| match v {
        Props1::Text(t) => t,
        Props1::List(_) => None,
    }) && let Some(t) = title.as_mut().filter(|t| !t.is_empty())
        && !suffix.is_empty()
        && suffix != "\"\""
    {
        *t = format!("{t} {suffix}");
    }
    let description = if meta.has("description") {
        meta.text("description")
    } else {
        extract_description(main)
    };

    let mut url = canonical_url(&site.absolute(inputs.request_path));
    if let Some(ext) = config.take("canonical:extension").and_then(|v| match v {
        Props1::Text(Some(t)) if !t.is_empty() => Some(t),
        _ => None,
    }) && !url.ends_with('/')
    {
        url = format!("{url}.{ext}");
    }
    let canonical = if meta.has("canonical") {
        url = meta.text("canonical").unwrap_or_default();
        meta.text("canonical")
    } else {
        Some(url.clone())
    };
    let og_url = if meta.has("canonical") {
        meta.text("canonical")
    } else {
        Some(url)
    };

    // The hero, when there is one, replaces the image `get-metadata` found, even with an
    // empty `src`.
    let (content_image, hero_alt) = match hero(main) {
        Some((image, alt)) => (image, alt),
        None => (content.image.clone(), None),
    };
    let mut image = if meta.has("image") {
        meta.text("image")
    } else {
        Some(
            content_image
                .filter(|i| !i.is_empty())
                .unwrap_or_else(|| "/default-meta-image.png".to_owned()),
        )
    };
    if let Some(value) = image.as_mut().filter(|v| !v.is_empty()) {
        *value = meta_image(value, site);
    }
    let image_alt = if meta.has("image-alt") {
        meta.text("image-alt")
    } else {
        hero_alt
    };
    for name in ["og:image", "og:image:secure_url", "twitter:image"] {
        if let Some(value) = config.text(name)
            && is_image_url(&value)
        {
            config.set(name, text_value(&meta_image(&value, site)));
        }
    }

    let mut metadata = Props::default();
    metadata.set("description", Props1::Text(description.clone()));
    metadata.set("keywords", Props1::Text(meta.text("keywords")));
    metadata.set("og:title", Props1::Text(title.clone()));
    metadata.set("og:description", Props1::Text(description));
    metadata.set("og:url", Props1::Text(og_url));
    metadata.set("og:image", Props1::Text(image.clone()));
    metadata.set("og:image:secure_url", Props1::Text(image));
    metadata.set("og:image:alt", Props1::Text(image_alt));
    // Places kept for values only the configuration can give (`meta` has none of them).
    metadata.set("og:updated_time", Props1::Text(None));
    metadata.set("article:tag", Props1::List(tags.unwrap_or_default()));
    for name in [
        "article:section",
        "article:published_time",
        "article:modified_time",
    ] {
        metadata.set(name, Props1::Text(None));
    }
    metadata.set("twitter:card", Props1::Text(meta.text("twitter:card")));
    for name in ["twitter:title", "twitter:description", "twitter:image"] {
        metadata.set(name, text_value(""));
    }
    for (name, value) in config.iter() {
        metadata.set(name, value.clone());
    }
    for (from, to) in [
        ("twitter:title", "og:title"),
        ("twitter:description", "og:description"),
        ("twitter:image", "og:image"),
    ] {
        if !config.has(from) {
            let value = metadata.get(to).cloned().unwrap_or(Props1::Text(None));
            metadata.set(from, value);
        }
    }
    metadata.remove_where(|v| *v == Props1::Text(None));

    let feed = meta.text("feed");
    let mut head = render_head(&title, canonical.as_deref(), feed.as_deref(), metadata);
    if let Some(extra) = inputs.head_html {
        let mut extra = dom::parse_fragment(extra);
        if let Some(policy) = &inputs.delivery.csp {
            head.headers = csp::on_tree(&mut extra, policy);
        }
        head.children.extend(extra);
    }
    head
}

/// The sheets' values (`state.metadata`, then `state.mappedMetadata`, a name keeping its
/// first place), an empty cell dropped and `""` made no value (`undefined`).
fn sheet_config(delivery: &PageDelivery) -> Props {
    let mut config = Props::default();
    for (name, value) in delivery.metadata.iter().chain(&delivery.mapped_metadata) {
        config.set(name, text_value(value));
    }
    config.remove_where(|v| *v == text_value(""));
    for entry in config.entries.iter_mut().flatten() {
        if entry.1 == text_value("\"\"") {
            entry.1 = Props1::Text(None);
        }
    }
    config
}

/// The head part of `render`.
fn render_head(
    title: &Option<String>,
    canonical: Option<&str>,
    feed: Option<&str>,
    metadata: Props,
) -> Head {
    let mut head = Vec::new();
    if let Some(title) = title {
        head.push(el("title", Vec::new(), vec![text(title.clone())]));
    }
    if let Some(canonical) = canonical.filter(|c| !c.is_empty()) {
        head.push(el(
            "link",
            vec![("rel", "canonical".into()), ("href", canonical.to_owned())],
            Vec::new(),
        ));
    }
    let mut json_ld = None;
    let mut lang = None;
    for (name, value) in metadata.into_entries() {
        let lower = name.to_lowercase();
        let values = match value {
            Props1::Text(Some(v)) => vec![v],
            Props1::Text(None) => Vec::new(),
            Props1::List(list) => list,
        };
        if lower == "json-ld" {
            json_ld = values.into_iter().next();
            continue;
        }
        if lower == "html-lang" {
            if let Some(v) = values.into_iter().next().filter(|v| !v.is_empty()) {
                lang = Some(v);
            }
            continue;
        }
        if let Some(code) = name.strip_prefix("hreflang:") {
            if !code.is_empty() {
                for href in values {
                    head.push(el(
                        "link",
                        vec![
                            ("rel", "alternate".into()),
                            ("hreflang", code.to_owned()),
                            ("href", href),
                        ],
                        Vec::new(),
                    ));
                }
            }
            continue;
        }
        let attr = if name.contains(':') && !name.starts_with("twitter:") {
            "property"
        } else {
            "name"
        };
        for value in values {
            head.push(el(
                "meta",
                vec![(attr, name.clone()), ("content", value)],
                Vec::new(),
            ));
        }
    }
    if let Some(feed) = feed {
        let title = title.as_deref().unwrap_or("undefined");
        head.push(el(
            "link",
            vec![
                ("rel", "alternate".into()),
                ("type", "application/xml+atom".into()),
                ("href", feed.to_owned()),
                ("title", format!("{title} feed")),
            ],
            Vec::new(),
        ));
    }
    if let Some(json) = json_ld.filter(|j| !j.is_empty()) {
        let sanitised = json.replace('<', "&#x3c;").replace('>', "&#x3e;");
        let sanitised = js_trim(&sanitised);
        head.push(match crate::json::pretty(sanitised) {
            // Escapes such as `\u003c` are printed as `<` again: written as escapes once
            // more, they cannot end the script (which runs with the page's nonce).
            Ok(pretty) => el(
                "script",
                vec![("type", "application/ld+json".into())],
                vec![text(crate::json::for_script(&pretty))],
            ),
            Err(e) => el(
                "script",
                vec![
                    ("type", "application/ld+json".into()),
                    (
                        "data-error",
                        format!("error in json-ld: {}", cleanup_header_value(&e)),
                    ),
                ],
                Vec::new(),
            ),
        });
    }
    Head {
        children: head,
        lang,
        headers: Vec::new(),
    }
}

fn text_value(value: &str) -> Props1 {
    Props1::Text(Some(value.to_owned()))
}

fn has_class(e: &HElement, class: &str) -> bool {
    e.attr("class")
        .is_some_and(|c| c.split_ascii_whitespace().any(|x| x == class))
}

/// Removes and returns the first element (document order) for which `pred` holds.
fn take_first(nodes: &mut Vec<HNode>, pred: &impl Fn(&HElement) -> bool) -> Option<HElement> {
    for i in 0..nodes.len() {
        if matches!(&nodes[i], HNode::Element(e) if pred(e)) {
            let HNode::Element(found) = nodes.remove(i) else {
                unreachable!("matched as an element")
            };
            return Some(found);
        }
        if let HNode::Element(e) = &mut nodes[i]
            && let Some(found) = take_first(&mut e.children, pred)
        {
            return Some(found);
        }
    }
    None
}

/// The first element (document order) for which `pred` holds and that has a `div`
/// ancestor (`select('div X')`).
fn find_in_div<'a>(
    nodes: &'a [HNode],
    pred: &impl Fn(&HElement) -> bool,
    in_div: bool,
) -> Option<&'a HElement> {
    for node in nodes {
        if let HNode::Element(e) = node {
            if in_div && pred(e) {
                return Some(e);
            }
            if let Some(found) = find_in_div(&e.children, pred, in_div || e.is("div")) {
                return Some(found);
            }
        }
    }
    None
}

fn elements(e: &HElement) -> impl Iterator<Item = &HElement> {
    e.children.iter().filter_map(HNode::element)
}

/// `toMetaName`: characters outside `[0-9a-zA-Z:_-]` become `-` (one per UTF-16 unit),
/// lower-cased, `hreflang-xx` written `hreflang:xx` with the tag's case kept.
pub(crate) fn meta_name(text: &str) -> String {
    let mut name = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-') {
            name.push(c);
        } else {
            (0..c.len_utf16()).for_each(|_| name.push('-'));
        }
    }
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("hreflang-") || lower.starts_with("hreflang:") {
        return format!("hreflang:{}", &name[9..]);
    }
    lower
}

/// `readBlockConfig`: each row of two cells is a name and a value (the last row of a
/// name wins; the name keeps its first place).
fn read_block_config(block: &HElement) -> Vec<(String, Option<String>)> {
    let mut config: Vec<(String, Option<String>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for row in elements(block).filter(|r| r.is("div")) {
        let [name_cell, value_cell, ..] = row.children.as_slice() else {
            continue;
        };
        let name = meta_name(&to_string(std::slice::from_ref(name_cell)));
        if name.is_empty() {
            continue;
        }
        let value = if name.eq_ignore_ascii_case("json-ld") {
            Some(js_trim(&to_string(std::slice::from_ref(value_cell))).to_owned())
        } else {
            config_value(value_cell)
        };
        match index.get(&name) {
            Some(&i) => config[i].1 = value,
            None => {
                index.insert(name.clone(), config.len());
                config.push((name, value));
            }
        }
    }
    config
}

fn config_value(cell: &HNode) -> Option<String> {
    let HNode::Element(cell) = cell else {
        return Some(to_string(std::slice::from_ref(cell)).trim().to_owned());
    };
    let mut value = None;
    if let Some(first) = elements(cell).next() {
        let list: Option<Vec<&HElement>> = if first.is("p") {
            Some(elements(cell).collect())
        } else if first.is("ul") || first.is("ol") {
            Some(elements(first).collect())
        } else {
            None
        };
        if let Some(list) = list {
            value = Some(
                list.iter()
                    .map(|e| to_string(&e.children))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
    }
    let empty = |v: &Option<String>| v.as_deref().is_none_or(str::is_empty);
    if empty(&value) {
        value = Some(to_string(&cell.children).trim().to_owned());
    }
    if empty(&value)
        && let Some(a) = find_in_div(
            std::slice::from_ref(&HNode::Element(cell.clone())),
            &|e| e.is("a"),
            true,
        )
    {
        value = a.attr("href").map(str::to_owned);
    }
    if empty(&value)
        && let Some(img) = find_in_div(
            std::slice::from_ref(&HNode::Element(cell.clone())),
            &|e| e.is("img"),
            true,
        )
    {
        value = img.attr("src").map(str::to_owned);
    }
    value
}

fn to_list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// `extractDescription`: the first `p` directly in a `div` with at least ten words (or a
/// word over 25 characters that is not a URL), cut to 25 words.
fn extract_description(nodes: &[HNode]) -> Option<String> {
    fn visit(nodes: &[HNode], parent_is_div: bool) -> Option<String> {
        for node in nodes {
            let HNode::Element(e) = node else { continue };
            if parent_is_div && e.is("p") {
                let text = to_string(&e.children);
                let mut words: Vec<&str> = text.split(js_space).filter(|w| !w.is_empty()).collect();
                if words.is_empty() {
                    words.push("");
                }
                let long = |w: &&str| w.encode_utf16().count() > 25 && !w.starts_with("http");
                if words.len() >= 10 || words.iter().any(long) {
                    let mut d = words.iter().take(25).copied().collect::<Vec<_>>().join(" ");
                    if words.len() > 25 {
                        d.push_str(" ...");
                    }
                    return Some(d);
                }
            }
            if let Some(found) = visit(&e.children, e.is("div")) {
                return Some(found);
            }
        }
        None
    }
    visit(nodes, false)
}

/// JavaScript's `\s`.
fn js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// The first image (or link to an image file) inside a `div`: its URL and alternative text.
fn hero(main: &[HNode]) -> Option<(Option<String>, Option<String>)> {
    let found = find_in_div(
        main,
        &|e| e.is("img") || (e.is("a") && e.attr("href").is_some_and(is_image_anchor)),
        false,
    )?;
    Some(if found.is("img") {
        (
            found.attr("src").map(str::to_owned),
            found
                .attr("alt")
                .filter(|a| !a.is_empty())
                .map(str::to_owned),
        )
    } else {
        let href = found.attr("href").unwrap_or("").to_owned();
        let text = to_string(&found.children).trim().to_owned();
        let alt = found
            .attr("title")
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .or_else(|| (!text.is_empty() && !same_url(&text, &href)).then_some(text));
        (Some(href), alt)
    })
}

fn localhost() -> Url {
    Url::parse("https://localhost/").expect("a valid URL")
}

fn is_image_anchor(href: &str) -> bool {
    const IMAGE_EXTENSIONS: &[&str] = &["avif", "webp", "png", "jpg", "jpeg", "gif"];
    let Ok(url) = localhost().join(href) else {
        return false;
    };
    let path = url.path();
    let ext = path
        .rsplit_once('.')
        .map_or(path, |(_, e)| e)
        .to_lowercase();
    IMAGE_EXTENSIONS.contains(&ext.as_str())
}

fn same_url(a: &str, b: &str) -> bool {
    a == b || matches!((localhost().join(a), localhost().join(b)), (Ok(x), Ok(y)) if x == y)
}

/// `^(https?:\/\/|\.?\/)`
fn is_image_url(value: &str) -> bool {
    value.starts_with("http://")
        || value.starts_with("https://")
        || value.starts_with('/')
        || value.starts_with("./")
}

/// A meta image as the pipeline writes it: `rewriteUrl`, then a path on the site gets the
/// 1200-wide `pjpg` rendition (`optimizeImageURL`), then the URL is made absolute. A URL
/// that does not parse stays as the last step left it.
fn meta_image(value: &str, site: &Site<'_>) -> String {
    let rewritten = rewrite_url(value, site);
    let dummy = Url::parse("https://__dummmy__/").expect("a valid URL");
    let Ok(base) = dummy.join(site.path) else {
        return rewritten;
    };
    let Ok(resolved) = base.join(&rewritten) else {
        return rewritten;
    };
    let src = if resolved.origin() == dummy.origin() {
        let mut s = resolved.path().to_owned();
        if let Some(q) = resolved.query().filter(|q| !q.is_empty()) {
            s.push('?');
            s.push_str(q);
        }
        if let Some(f) = resolved.fragment().filter(|f| !f.is_empty()) {
            s.push('#');
            s.push_str(f);
        }
        s
    } else {
        resolved.to_string()
    };
    let optimized = if src.starts_with('/') {
        optimize_image_url(&src)
    } else {
        src
    };
    site.absolute(&optimized)
}

/// `optimizeImageURL(src, 1200, 'pjpg')` for a site path: `width`, `format` and `optimize`
/// set in its query (as `URLSearchParams.set` does), the path kept as written.
fn optimize_image_url(src: &str) -> String {
    let uri = src.trim();
    let Ok(url) = Url::parse(&format!("https://dummy{uri}")) else {
        return uri.to_owned();
    };
    let mut params: Vec<(String, String)> = url.query_pairs().into_owned().collect();
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
    let hash = url
        .fragment()
        .filter(|f| !f.is_empty())
        .map(|f| format!("#{f}"))
        .unwrap_or_default();
    let path = uri.find(['?', '#']).map_or(uri, |pos| &uri[..pos]);
    format!("{path}?{query}{hash}")
}

/// `makeCanonicalHtmlUrl`: no `.html`, no final `index` (the query, which an absolute
/// path never has, kept).
fn canonical_url(url: &str) -> String {
    let (base, query) = match url.find('?') {
        Some(i) if i > 0 => url.split_at(i),
        _ => (url, ""),
    };
    let base = base.strip_suffix(".html").unwrap_or(base);
    let base = match base.strip_suffix("/index") {
        Some(stripped) => &base[..stripped.len() + 1],
        None => base,
    };
    format!("{base}{query}")
}

/// JavaScript's `trim`.
fn js_trim(s: &str) -> &str {
    crate::sanitize::js_trim_start(crate::sanitize::js_trim_end(s))
}

/// `cleanupHeaderValue` (helix-shared-utils), which the pipeline applies to the JSON-LD
/// error: tabs, printable ASCII and Latin-1 only, at most 1,024 of them.
fn cleanup_header_value(value: &str) -> String {
    value
        .chars()
        .filter(|&c| matches!(c, '\t' | '\u{20}'..='\u{7e}' | '\u{80}'..='\u{ff}'))
        .take(1024)
        .collect()
}
