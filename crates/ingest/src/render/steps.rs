//! The pipeline's steps over the hast, in its order: `rewrite-urls`, `fix-sections`,
//! `create-page-blocks`, `create-pictures`, then (after the head is read)
//! `rewrite-icons` and `add-heading-ids`.
//!
//! `extract-section-metadata`, which runs between `create-pictures` and the head, is its
//! own module (`section_metadata`), applied when the delivery asks for it.

use url::Url;

use super::html::{el, text};
use super::media::{after_url_prefix, icon_end, mime_type};
use super::site::Site;
use super::slug::Slugger;
use crate::dom::{HElement, HNode};

/// `rewrite-urls`: `a[href]` and `img[src]` through `rewriteUrl`. Returns whether a URL
/// became a bare fragment because it named the page's own path, the one rewrite that
/// depends on the path (`.plain.html`'s differs from the page's).
pub(crate) fn rewrite_urls(nodes: &mut [HNode], site: &Site<'_>) -> bool {
    let mut to_own_path = false;
    for node in nodes {
        if let HNode::Element(e) = node {
            let attr = match &*e.name {
                "a" => Some("href"),
                "img" => Some("src"),
                _ => None,
            };
            if let Some(attr) = attr
                && let Some((_, value)) = e.attrs.iter_mut().find(|(k, _)| &**k == attr)
            {
                let rewritten = rewrite_url(value, site);
                // Only a URL of the page itself comes back as a fragment from an `https:` one.
                to_own_path |= rewritten.starts_with('#') && !value.starts_with('#');
                *value = rewritten;
            }
            to_own_path |= rewrite_urls(&mut e.children, site);
        }
    }
    to_own_path
}

/// `rewriteUrl`: media blobs, the platform's own URLs and those of the site's preview and
/// live hosts made relative.
pub(crate) fn rewrite_url(url: &str, site: &Site<'_>) -> String {
    if !url.starts_with("https://") {
        return url.to_owned();
    }
    let Ok(parsed) = Url::parse(url) else {
        return url.to_owned();
    };
    let host = parsed.host_str().unwrap_or("");
    let pathname = parsed.path();
    let search = parsed
        .query()
        .filter(|q| !q.is_empty())
        .map(|q| format!("?{q}"))
        .unwrap_or_default();
    let hash = parsed
        .fragment()
        .filter(|f| !f.is_empty())
        .map(|f| format!("#{f}"))
        .unwrap_or_default();
    let filename = pathname.rsplit('/').next().unwrap_or("");
    if url.starts_with("https://hlx.blob.core.windows.net/external/") {
        let (name, props) = match hash.split_once('?') {
            Some((n, p)) => (n, Some(p)),
            None => (hash.as_str(), None),
        };
        let extension = name
            .rsplit('.')
            .next()
            .filter(|e| !e.is_empty())
            .unwrap_or("jpg");
        let new_hash = props
            .filter(|p| !p.is_empty())
            .map(|p| format!("#{p}"))
            .unwrap_or_default();
        return format!("./media_{filename}.{extension}{new_hash}");
    }
    if media_blob(url) {
        return format!("./{filename}{hash}");
    }
    // `URL.host`: with the port, as the configured hosts are written.
    let host_port = match parsed.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    };
    if (host.contains("--") && platform_url(url)) || site.is_own_host(&host_port) {
        let page_path = site.path;
        if !hash.is_empty() && !page_path.is_empty() {
            if pathname == page_path {
                return hash;
            }
            if let Some(resource) = pathname.strip_suffix(".plain.html") {
                let resource = resource
                    .strip_suffix("/index")
                    .map_or(resource.to_owned(), |r| format!("{r}/"));
                if resource == page_path {
                    return hash;
                }
            }
        }
        return format!("{pathname}{search}{hash}");
    }
    url.to_owned()
}

/// `HELIX_URL_REGEXP`.
fn platform_url(url: &str) -> bool {
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^https://.*\.(aem|hlx3?)\.(live|page)").expect("valid regex")
    });
    RE.is_match(url)
}

/// `MEDIA_BLOB_REGEXP`.
fn media_blob(url: &str) -> bool {
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^https://.*\.(aem|hlx3?)\.(live|page)(/.*)?/media_")
            .expect("valid regex")
    });
    RE.is_match(url)
}

/// `fix-sections`: without any `div`, everything goes into one.
pub(crate) fn fix_sections(nodes: Vec<HNode>) -> Vec<HNode> {
    fn has_div(nodes: &[HNode]) -> bool {
        nodes.iter().any(|n| match n {
            HNode::Element(e) => e.is("div") || has_div(&e.children),
            _ => false,
        })
    }
    if has_div(&nodes) {
        nodes
    } else {
        vec![el("div", Vec::new(), nodes)]
    }
}

/// `create-page-blocks`: a table directly in a `div` becomes a block.
pub(crate) fn create_page_blocks(nodes: &mut [HNode], parent_is_div: bool) {
    for node in nodes {
        let HNode::Element(e) = node else { continue };
        if parent_is_div && e.is("table") {
            *node = table_to_divs(std::mem::replace(e, empty()));
            continue;
        }
        let is_div = e.is("div");
        create_page_blocks(&mut e.children, is_div);
    }
}

fn empty() -> HElement {
    HElement {
        name: html5ever::LocalName::from("div"),
        foreign: false,
        attrs: Vec::new(),
        children: Vec::new(),
    }
}

fn elements(nodes: Vec<HNode>) -> impl Iterator<Item = HElement> {
    nodes.into_iter().filter_map(|n| match n {
        HNode::Element(e) => Some(e),
        _ => None,
    })
}

/// `tableToDivs`.
fn table_to_divs(table: HElement) -> HNode {
    let mut rows: Vec<HElement> = Vec::new();
    for part in elements(table.children) {
        if part.is("thead") || part.is("tbody") {
            rows.extend(elements(part.children));
        }
    }
    if rows.is_empty() {
        return el("div", Vec::new(), Vec::new());
    }
    let header = rows.remove(0);
    let header_cols: Vec<HElement> = elements(header.children).collect();
    if header_cols.is_empty() {
        return el("div", Vec::new(), Vec::new());
    }
    if rows.is_empty()
        && header_cols.len() == 1
        && let Some(nested) = first_table(&header_cols[0].children)
    {
        return HNode::Element(nested.clone());
    }
    let classes = css_class_names(&to_string(&header_cols[0].children));
    let mut attrs = Vec::new();
    if !classes.is_empty() {
        attrs.push(("class", classes.join(" ")));
    }
    let cards = rows
        .into_iter()
        .map(|row| {
            let cells = elements(row.children)
                .map(|cell| {
                    let mut attrs = Vec::new();
                    if let Some(a) = cell.attr("align") {
                        attrs.push(("data-align", a.to_owned()));
                    }
                    if let Some(v) = cell.attr("valign") {
                        attrs.push(("data-valign", v.to_owned()));
                    }
                    el("div", attrs, cell.children)
                })
                .collect();
            el("div", Vec::new(), cells)
        })
        .collect();
    el("div", attrs, cards)
}

fn first_table(nodes: &[HNode]) -> Option<&HElement> {
    nodes.iter().find_map(|n| match n {
        HNode::Element(e) if e.is("table") => Some(e),
        HNode::Element(e) => first_table(&e.children),
        _ => None,
    })
}

/// `hast-util-to-string`: the text of the descendants.
pub(crate) fn to_string(nodes: &[HNode]) -> String {
    let mut out = String::new();
    fn push(nodes: &[HNode], out: &mut String) {
        for n in nodes {
            match n {
                HNode::Text(t) => out.push_str(t),
                HNode::Element(e) => push(&e.children, out),
                HNode::Comment(_) => {}
            }
        }
    }
    push(nodes, &mut out);
    out
}

/// `create-pictures`: stored images (`./media_…`) become responsive pictures (replacing
/// an `em` or `strong` around them), other images load lazily.
pub(crate) fn create_pictures(nodes: &mut [HNode]) {
    pictures(nodes, false);
}

/// Returns the picture that replaces the parent (an `em` or `strong`): the first one.
fn pictures(nodes: &mut [HNode], parent_styled: bool) -> Option<HNode> {
    let mut replace_parent = None;
    for node in nodes.iter_mut() {
        let HNode::Element(e) = node else { continue };
        if is_image(e) {
            let src = e.attr("src").unwrap_or("");
            if src.starts_with("./media_") {
                let pic = picture(src, e.attr("alt").unwrap_or(""), e.attr("title"));
                if parent_styled {
                    // Once the parent is replaced, later images no longer reach the tree.
                    replace_parent.get_or_insert(pic);
                } else {
                    *node = pic;
                }
            } else {
                set_attr(e, "loading", "lazy");
            }
        } else {
            let styled = e.is("em") || e.is("strong");
            if let Some(replacement) = pictures(&mut e.children, styled) {
                *node = replacement;
            }
        }
    }
    replace_parent
}

fn is_image(e: &HElement) -> bool {
    e.is("img") && e.attr("src").is_some_and(|s| !s.is_empty())
}

fn set_attr(e: &mut HElement, name: &str, value: &str) {
    match e.attrs.iter_mut().find(|(k, _)| &**k == name) {
        Some((_, v)) => *v = value.to_owned(),
        None => e
            .attrs
            .push((html5ever::LocalName::from(name), value.to_owned())),
    }
}

/// `createOptimizedPicture`.
fn picture(src: &str, alt: &str, title: Option<&str>) -> HNode {
    let base = Url::parse("https://localhost/").expect("valid base");
    let parsed = base.join(src).unwrap_or(base);
    let path = parsed.path().to_owned();
    let mut widths = Vec::new();
    let mut height = None;
    if let Some(fragment) = parsed.fragment() {
        for (k, v) in url::form_urlencoded::parse(fragment.as_bytes()) {
            match &*k {
                "width" => widths.push(v.into_owned()),
                "height" if height.is_none() => height = Some(v.into_owned()),
                _ => {}
            }
        }
    }
    let width = widths.first().cloned();
    let height = height.or_else(|| widths.get(1).cloned());
    let ext = path
        .rsplit_once('.')
        .map_or(path.as_str(), |(_, e)| e)
        .to_owned();
    let file = path.rsplit('/').next().unwrap_or("");
    let mime = file.rsplit_once('.').and_then(|(_, e)| mime_type(e));
    let variant = |width: &str, format: &str| {
        format!(".{path}?width={width}&format={format}&optimize=medium")
    };
    let source = |mime: Option<&str>, srcset: String, media: Option<&str>| {
        let mut attrs = Vec::new();
        if let Some(m) = mime {
            attrs.push(("type", m.to_owned()));
        }
        attrs.push(("srcset", srcset));
        if let Some(m) = media {
            attrs.push(("media", m.to_owned()));
        }
        el("source", attrs, Vec::new())
    };
    let mut img = vec![("loading", "lazy".to_owned()), ("alt", alt.to_owned())];
    if let Some(t) = title.filter(|t| *t != alt) {
        img.push(("data-title", t.to_owned()));
    }
    img.push(("src", variant("750", &ext)));
    if let Some(w) = width {
        img.push(("width", w));
    }
    if let Some(h) = height {
        img.push(("height", h));
    }
    el(
        "picture",
        Vec::new(),
        vec![
            source(
                Some("image/webp"),
                variant("2000", "webply"),
                Some("(min-width: 600px)"),
            ),
            source(Some("image/webp"), variant("750", "webply"), None),
            source(mime, variant("2000", &ext), Some("(min-width: 600px)")),
            el("img", img, Vec::new()),
        ],
    )
}

/// `rewrite-icons`: `:name:` in text (outside `code`) becomes `span.icon.icon-name`.
pub(crate) fn rewrite_icons(nodes: &mut Vec<HNode>) {
    let mut out = Vec::with_capacity(nodes.len());
    for node in std::mem::take(nodes) {
        match node {
            HNode::Text(value) if value.contains(':') => icons_in(&value, &mut out),
            HNode::Element(mut e) => {
                if !e.is("code") {
                    rewrite_icons(&mut e.children);
                }
                out.push(HNode::Element(e));
            }
            other => out.push(other),
        }
    }
    *nodes = out;
}

fn icons_in(value: &str, out: &mut Vec<HNode>) {
    let bytes = value.as_bytes();
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b':'
            && let Some(end) = icon_end(bytes, i + 1)
            && !after_url_prefix(&value[..i])
        {
            if last < i {
                out.push(text(&value[last..i]));
            }
            let name = &value[i + 1..end];
            let name = utf8_percent_encode_component(name);
            let name = name.strip_prefix("%23").unwrap_or(&name);
            out.push(el(
                "span",
                vec![("class", format!("icon icon-{name}"))],
                Vec::new(),
            ));
            last = end + 1;
            i = end + 1;
            continue;
        }
        i += 1;
    }
    if last < value.len() {
        out.push(text(&value[last..]));
    }
}

/// `encodeURIComponent` on an icon name (`#`, letters, digits, `_`, `-`).
fn utf8_percent_encode_component(name: &str) -> String {
    name.replace('#', "%23")
}

/// `add-heading-ids`: headings without an id get one from their text.
pub(crate) fn add_heading_ids(nodes: &mut [HNode], slugger: &mut Slugger) {
    for node in nodes {
        if let HNode::Element(e) = node {
            let heading = matches!(&*e.name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6") && !e.foreign;
            if heading && e.attr("id").is_none_or(str::is_empty) {
                let text = to_string(&e.children);
                let text = text.trim();
                if !text.is_empty() {
                    let id = slugger.slug(text);
                    set_attr(e, "id", &id);
                }
            }
            add_heading_ids(&mut e.children, slugger);
        }
    }
}

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
