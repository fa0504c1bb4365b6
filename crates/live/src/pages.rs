//! The pages the dashboard offers for each site: the examples of the worker entries its
//! content comes from, and the pages its mocks answer for its content sources, each with
//! what a preview of it gives.

use std::collections::BTreeMap;

use url::Url;

use siteops_config::endpoint::EndpointTemplate;
use siteops_config::model::{Fleet, SiteId};
use siteops_mocks::{MockSet, Stub, UrlMatch};

/// A page the dashboard offers, and what a preview of it gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownPage {
    /// Its web path (`/`, `/products/1234`).
    pub path: String,
    pub kind: PageKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageKind {
    /// A page: previewed as HTML, with its `.md` and `.plain.html`.
    Page,
    /// A sheet (its source answers JSON): previewed as JSON, and nothing else.
    Sheet,
    /// A worker page whose endpoint needs these request headers (lower case). A preview
    /// sends its sources only `Authorization` and `x-content-source-location`, so no
    /// preview renders it: only the worker does, asked with them.
    NeedsHeaders(Vec<String>),
}

/// Known pages per site, sorted by path.
pub fn known_pages(
    fleet: &Fleet,
    mocks: &MockSet,
    worker: &str,
) -> BTreeMap<SiteId, Vec<KnownPage>> {
    let worker = worker.trim_end_matches('/');
    let mut pages: BTreeMap<SiteId, Vec<KnownPage>> = BTreeMap::new();
    for site in &fleet.sites {
        let Some(content) = &site.config.content else {
            continue;
        };
        let mut found: BTreeMap<String, PageKind> = BTreeMap::new();
        // The overlay first, as a preview asks it first: what it answers is what shows.
        let mut sources = Vec::new();
        if let Some(overlay) = &content.overlay {
            sources.push((overlay.url.as_str(), None));
        }
        sources.push((
            content.source.url.as_str(),
            content.source.suffix.as_deref(),
        ));
        for (url, suffix) in sources {
            // A source on the worker: the examples of the entries of that site and branch.
            if let Some(rest) = url.strip_prefix(worker)
                && let [org, name, branch] =
                    rest.trim_matches('/').split('/').collect::<Vec<_>>()[..]
                && let Some(target) = fleet
                    .sites
                    .iter()
                    .find(|s| s.id.org == org && s.id.site == name)
            {
                let entries = target
                    .transform
                    .get(branch)
                    .or_else(|| target.transform.get("main"));
                for entry in entries.into_iter().flatten() {
                    let headers: Vec<String> = EndpointTemplate::parse(&entry.entry.endpoint)
                        .map(|t| t.headers().into_iter().map(str::to_string).collect())
                        .unwrap_or_default();
                    let kind = if headers.is_empty() {
                        PageKind::Page
                    } else {
                        PageKind::NeedsHeaders(headers)
                    };
                    for example in &entry.examples {
                        found.entry(example.clone()).or_insert(kind.clone());
                    }
                }
                continue;
            }
            for (page, kind) in mocked_pages(mocks, url, suffix.unwrap_or_default()) {
                found.entry(page).or_insert(kind);
            }
        }
        let list = found
            .into_iter()
            .map(|(path, kind)| KnownPage { path, kind })
            .collect();
        pages.insert(site.id.clone(), list);
    }
    pages
}

/// The page paths that stubs answer with a success under the source `url`: their path,
/// less the source's path and the suffix, with what a preview makes of the answer.
fn mocked_pages(mocks: &MockSet, url: &str, suffix: &str) -> Vec<(String, PageKind)> {
    let Ok(source) = Url::parse(url) else {
        return Vec::new();
    };
    let base = source.path().trim_end_matches('/');
    mocks
        .stubs()
        .iter()
        .filter(|stub| (200..300).contains(&stub.response.status))
        .filter(|stub| {
            stub.request
                .host
                .as_ref()
                .is_none_or(|host| host.accepts_value(source.host_str()))
        })
        .filter_map(|stub| {
            let path = match &stub.request.url {
                UrlMatch::Url(url) => url.split('?').next()?,
                UrlMatch::Path(path) => path.as_str(),
                _ => return None,
            };
            let page = path.strip_prefix(base)?;
            let page = page.strip_suffix(suffix).unwrap_or(page);
            // A folder's page is fetched as `<folder>/index`, and shown as the folder.
            let page = page
                .strip_suffix("index")
                .filter(|p| p.ends_with('/'))
                .unwrap_or(page);
            let kind = kind_of(stub)?;
            page.starts_with('/').then(|| (page.to_string(), kind))
        })
        .collect()
}

/// What a preview makes of what a stub answers: a sheet from JSON, a page from HTML (or
/// an answer without a type); nothing from anything else (the pages' images).
fn kind_of(stub: &Stub) -> Option<PageKind> {
    let content_type = stub
        .response
        .headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
        .map(|(_, value)| value.as_str());
    match content_type {
        Some(value) if siteops_server::preview::fetch::is_sheet_type(value) => {
            Some(PageKind::Sheet)
        }
        Some(value) if siteops_media::essence(value) != "text/html" => None,
        _ => Some(PageKind::Page),
    }
}
