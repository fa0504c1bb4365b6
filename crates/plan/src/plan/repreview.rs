//! Which previewed pages a plan's changes make stale, and so which paths apply previews
//! again: pure, from the plan's `before` and `after` of each changed document.
//!
//! A site's previews are made from its configuration; these parts of a site (or profile)
//! document change how a previewed page is rendered or delivered ([`PARTS`]):
//! - `headers`: the response headers of the paths a rule's glob matches: those paths;
//! - `folders`: which page renders a folder's paths: the folder's pages;
//! - `metadata`: the metadata sheets, whose rows (content, not configuration) can reach
//!   any page: every page.
//!
//! A change of `content` or `code` changes where pages and `head.html` come from: a
//! migration, whose pages may not all be there yet, previewed deliberately (a bulk preview
//! of `/*`), not as a side effect.
//! Other parts (access, public mappings, CDN, sidekick, secrets, API keys, …) change who
//! may read a page or what the service does, not the pages. A site created by the plan
//! has no previews yet; a profile's change reaches the sites of the repository that extend
//! it (the site may set the same part itself, which then does not change: the paths are
//! an upper bound). Paths are in the bulk preview's form: a page (`/en/`), or a folder's
//! previewed pages (`/blog/*`; `/*` is every page).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{Action, Kind, Plan};

/// The document parts whose change makes previews stale, in the order above.
pub const PARTS: [&str; 3] = ["headers", "folders", "metadata"];

/// The branch previewed again: the platform's production branch (a site's configuration
/// names no other).
pub const BRANCH: &str = "main";

/// One site's paths to preview again, on one branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repreview {
    pub org: String,
    pub site: String,
    pub branch: String,
    /// Sorted; no path under a folder also listed.
    pub paths: Vec<String>,
}

impl Repreview {
    /// `org/site`.
    pub fn site_id(&self) -> String {
        format!("{}/{}", self.org, self.site)
    }
}

/// The sites whose previews `plan` makes stale, sorted by org and site, with their paths.
pub fn affected(plan: &Plan) -> Vec<Repreview> {
    let mut sites: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    let empty = Value::Object(Map::new());
    // A site the plan creates has no previews yet, whatever its profile does.
    let created: BTreeSet<(&str, &str)> = (plan.changes())
        .filter(|r| r.kind == Kind::Site && r.action == Action::Create)
        .map(|r| (r.org.as_str(), r.site.as_str()))
        .collect();
    for resource in plan.changes() {
        let (before, after) = (
            resource.before.as_ref().unwrap_or(&empty),
            resource.after.as_ref().unwrap_or(&empty),
        );
        let reached: Vec<(String, String)> = match (resource.kind, resource.action) {
            // A new site has no previews; a site deleted has none to keep.
            (Kind::Site, Action::Update) => vec![(resource.org.clone(), resource.site.clone())],
            (Kind::Profile, _) => (resource.extended_by.iter())
                .filter_map(|id| id.split_once('/'))
                .filter(|site| !created.contains(site))
                .map(|(org, site)| (org.to_string(), site.to_string()))
                .collect(),
            _ => continue,
        };
        let paths = changed_paths(before, after);
        if paths.is_empty() {
            continue;
        }
        for site in reached {
            sites.entry(site).or_default().extend(paths.iter().cloned());
        }
    }
    sites
        .into_iter()
        .map(|((org, site), paths)| Repreview {
            org,
            site,
            branch: BRANCH.to_string(),
            paths: covering(paths),
        })
        .collect()
}

/// The paths whose pages change between two bodies of a site or profile document.
pub fn changed_paths(before: &Value, after: &Value) -> BTreeSet<String> {
    let mut paths = BTreeSet::new();
    let part = |name: &str| (before.get(name), after.get(name));
    for glob in changed_keys(part("headers")) {
        paths.insert(glob_path(&glob));
    }
    for folder in changed_keys(part("folders")) {
        paths.insert(folder_path(&folder));
    }
    let (before, after) = part("metadata");
    if before != after {
        paths.insert("/*".to_string());
    }
    paths
}

/// The keys of two objects (absent: empty) whose values differ, either way.
fn changed_keys((before, after): (Option<&Value>, Option<&Value>)) -> Vec<String> {
    let object = |value: Option<&Value>| value.and_then(Value::as_object).cloned();
    let (before, after) = (
        object(before).unwrap_or_default(),
        object(after).unwrap_or_default(),
    );
    let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    keys.into_iter()
        .filter(|key| before.get(*key) != after.get(*key))
        .map(|key| key.to_string())
        .collect()
}

/// A header rule's URL glob as a bulk preview path: the folder of its first segment with a
/// wildcard (`/blog/**` → `/blog/*`, `/**` → `/*`, `/docs/*.pdf` → `/docs/*`, `/a/*/b` →
/// `/a/*`), or, without one, the path itself.
pub fn glob_path(glob: &str) -> String {
    let glob = format!("/{}", glob.trim_start_matches('/'));
    let segments: Vec<&str> = glob[1..].split('/').collect();
    match segments.iter().position(|s| s.contains('*')) {
        None => glob,
        Some(at) => {
            let mut path = String::from("/");
            for segment in &segments[..at] {
                path.push_str(segment);
                path.push('/');
            }
            path.push('*');
            path
        }
    }
}

/// A folder mapping's folder (`/products`, `/products/`) as the pages under it.
fn folder_path(folder: &str) -> String {
    let folder = folder.trim_end_matches('/');
    if folder.contains('*') {
        return glob_path(folder);
    }
    format!("{folder}/*")
}

/// `paths` without those a folder among them covers (`/*` covers every other), sorted.
fn covering(paths: BTreeSet<String>) -> Vec<String> {
    let folders: Vec<String> = (paths.iter())
        .filter_map(|p| p.strip_suffix('*').map(str::to_string))
        .collect();
    paths
        .into_iter()
        .filter(|path| {
            !folders
                .iter()
                .any(|folder| path.starts_with(folder.as_str()) && *path != format!("{folder}*"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn globs_become_folders_at_their_first_wildcard() {
        for (glob, path) in [
            ("/**", "/*"),
            ("/*", "/*"),
            ("/blog/**", "/blog/*"),
            ("/blog/*", "/blog/*"),
            ("/docs/*.pdf", "/docs/*"),
            ("/a/*/b", "/a/*"),
            ("/blog*", "/*"),
            ("/en/about", "/en/about"),
            ("/en/", "/en/"),
            ("en/about", "/en/about"),
            ("/", "/"),
        ] {
            assert_eq!(glob_path(glob), path, "{glob}");
        }
    }

    #[test]
    fn only_the_rules_that_change_are_previewed() {
        let before = json!({
            "headers": {"/**": [{"key": "a", "value": "1"}], "/blog/**": [{"key": "b", "value": "1"}]},
            "access": {"admin": {"role": {"admin": ["a@example.com"]}}},
        });
        let after = json!({
            "headers": {"/**": [{"key": "a", "value": "1"}], "/blog/**": [{"key": "b", "value": "2"}], "/en/about": []},
            "access": {"admin": {"role": {"admin": ["b@example.com"]}}},
            "folders": {"/products": "/products/default"},
        });
        let paths: Vec<String> = changed_paths(&before, &after).into_iter().collect();
        assert_eq!(paths, ["/blog/*", "/en/about", "/products/*"]);
        assert!(changed_paths(&before, &before).is_empty());
        let content = |url: &str| json!({"content": {"source": {"url": url}}});
        assert!(changed_paths(&content("https://a"), &content("https://b")).is_empty());
        let metadata = json!({"metadata": {"source": ["/metadata.json"]}});
        let paths: Vec<String> = changed_paths(&json!({}), &metadata).into_iter().collect();
        assert_eq!(paths, ["/*"]);
    }

    #[test]
    fn a_folder_covers_what_is_under_it() {
        let set = |paths: &[&str]| paths.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            covering(set(&["/blog/*", "/blog/a", "/blog/x/*", "/en/", "/blogs"])),
            ["/blog/*", "/blogs", "/en/"]
        );
        assert_eq!(covering(set(&["/*", "/blog/*", "/en/"])), ["/*"]);
    }

    fn planned(
        kind: Kind,
        action: Action,
        site: &str,
        before: Value,
        after: Value,
    ) -> super::super::Planned {
        super::super::Planned {
            address: format!("acme/{site}"),
            org: "acme".into(),
            site: site.into(),
            kind,
            name: None,
            action,
            sensitive: false,
            reason: None,
            extended_by: Vec::new(),
            effective: Vec::new(),
            unaffected: 0,
            drift: None,
            before: Some(before),
            after: Some(after),
            changes: Vec::new(),
            body: None,
            read: None,
        }
    }

    #[test]
    fn sites_and_the_sites_extending_a_profile() {
        let headers =
            |value: &str| json!({"headers": {"/blog/**": [{"key": "x", "value": value}]}});
        let mut profile = planned(
            Kind::Profile,
            Action::Update,
            "",
            json!({}),
            json!({"metadata": {"source": ["/m.json"]}}),
        );
        profile.extended_by = vec!["acme/blog".into(), "acme/new".into(), "acme/website".into()];
        let plan = Plan {
            version: super::super::FORMAT_VERSION,
            settings: Default::default(),
            fingerprint: String::new(),
            path_family: None,
            summary: super::super::Summary {
                create: 1,
                update: 3,
                delete: 0,
                unchanged: 0,
                effective: 0,
            },
            notes: Vec::new(),
            unmanaged: Default::default(),
            resources: vec![
                planned(
                    Kind::Site,
                    Action::Update,
                    "website",
                    headers("1"),
                    headers("2"),
                ),
                planned(Kind::Site, Action::Create, "new", json!({}), headers("2")),
                planned(
                    Kind::Site,
                    Action::Update,
                    "docs",
                    json!({"title": "a"}),
                    json!({"title": "b"}),
                ),
                profile,
            ],
        };
        let got = affected(&plan);
        let shown: Vec<(String, Vec<String>)> =
            got.iter().map(|r| (r.site_id(), r.paths.clone())).collect();
        assert_eq!(
            shown,
            [
                ("acme/blog".to_string(), vec!["/*".to_string()]),
                ("acme/website".to_string(), vec!["/*".to_string()]),
            ]
        );
        assert!(got.iter().all(|r| r.branch == "main"));
    }
}
