//! The pages the dashboard offers for each site: the examples of the worker entries its
//! content comes from, and the pages its mocks answer for its content sources.

use std::collections::{BTreeMap, BTreeSet};

use url::Url;

use siteops_config::model::{Fleet, SiteId};
use siteops_mocks::{MockSet, UrlMatch};

/// Known page paths per site, sorted.
pub fn known_pages(fleet: &Fleet, mocks: &MockSet, worker: &str) -> BTreeMap<SiteId, Vec<String>> {
    let worker = worker.trim_end_matches('/');
    let mut pages: BTreeMap<SiteId, Vec<String>> = BTreeMap::new();
    for site in &fleet.sites {
        let Some(content) = &site.config.content else {
            continue;
        };
        let mut found = BTreeSet::new();
        let mut sources = vec![(
            content.source.url.as_str(),
            content.source.suffix.as_deref(),
        )];
        if let Some(overlay) = &content.overlay {
            sources.push((overlay.url.as_str(), None));
        }
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
                    found.extend(entry.examples.iter().cloned());
                }
                continue;
            }
            found.extend(mocked_pages(mocks, url, suffix.unwrap_or_default()));
        }
        pages.insert(site.id.clone(), found.into_iter().collect());
    }
    pages
}

/// The page paths that stubs answer under the source `url`: their path, less the source's
/// path and the suffix.
fn mocked_pages(mocks: &MockSet, url: &str, suffix: &str) -> Vec<String> {
    let Ok(source) = Url::parse(url) else {
        return Vec::new();
    };
    let base = source.path().trim_end_matches('/');
    mocks
        .stubs()
        .iter()
        .filter(|stub| {
            stub.request
                .host
                .as_ref()
                .is_none_or(|host| host.accepts_value(source.host_str()))
        })
        .filter_map(|stub| match &stub.request.url {
            UrlMatch::Url(url) => url.split('?').next(),
            UrlMatch::Path(path) => Some(path.as_str()),
            _ => None,
        })
        .filter_map(|path| {
            let page = path.strip_prefix(base)?;
            let page = page.strip_suffix(suffix).unwrap_or(page);
            // A folder's page is fetched as `<folder>/index`, and shown as the folder.
            let page = page
                .strip_suffix("index")
                .filter(|p| p.ends_with('/'))
                .unwrap_or(page);
            page.starts_with('/').then(|| page.to_string())
        })
        .collect()
}
