//! Placeholder until the port of `extract-metadata` lands.

use url::Url;

use super::html::{el, text};
use super::sections::ContentInfo;
use crate::ingest::dom::HNode;

pub(crate) struct Head {
    pub children: Vec<HNode>,
    pub lang: Option<String>,
}

pub(crate) fn build_head(
    main: &mut Vec<HNode>,
    content: &ContentInfo,
    _page_url: &Url,
    _head_html: Option<&str>,
) -> Head {
    let _ = super::meta::take_metadata_block(main);
    Head {
        children: vec![el("title", Vec::new(), vec![text(content.title.clone())])],
        lang: None,
    }
}
