//! The dashboard at `/` of `siteops serve`: server-rendered HTML, built with maud (every
//! value escaped by construction). The sites with
//! their compiled configuration, the last reload's diagnostics and changes, each site's
//! known pages with preview links, and the last previews with their traces.

use std::collections::{BTreeMap, BTreeSet};

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::Snapshot;
use super::offline::Outgoing;
use super::pages::{KnownPage, PageKind};
use siteops_config::compile::{Compiled, ResourceKind, masked, pretty};
use siteops_config::model::SiteId;
use siteops_server::code::{self, CodeRepo};
use siteops_server::preview::url::{PagePath, Variant};

/// One stored preview, as the dashboard lists it.
#[derive(Debug, Clone)]
pub struct PreviewSummary {
    pub site: SiteId,
    pub branch: String,
    pub path: String,
    pub status: u16,
    /// When it was made (seconds since the epoch).
    pub at: u64,
    /// Where its trace is shown.
    pub trace_link: String,
    /// The images that became `about:error`: their URL and why.
    pub failed_images: Vec<(String, String)>,
}

impl PreviewSummary {
    pub fn of(preview: super::RecentPreview) -> PreviewSummary {
        PreviewSummary {
            trace_link: format!("/.siteops/previews/{}", preview.id),
            failed_images: preview
                .trace
                .images
                .iter()
                .filter(|image| image.failed())
                .map(|image| {
                    let url = image.url.as_deref().unwrap_or(&image.src);
                    (url.to_string(), image.decision.clone())
                })
                .collect(),
            site: preview.site,
            branch: preview.branch,
            path: preview.path,
            status: preview.status,
            at: preview.at,
        }
    }
}

/// What the pages need to know of the server.
#[derive(Default)]
pub struct Addresses {
    /// The port every host name is served on.
    pub port: u16,
    /// `serve --site-port`: the preview hosts also answered on a port of their own.
    pub site_ports: Vec<(siteops_server::preview::PreviewHost, std::net::SocketAddr)>,
}

impl Addresses {
    pub fn preview_host(&self, site: &SiteId, branch: &str) -> String {
        let host = siteops_server::preview::PreviewHost {
            branch: branch.into(),
            site: site.site.clone(),
            org: site.org.clone(),
        };
        host.origin(Some(self.port))
    }

    /// The address `site`'s preview host of `branch` is also answered at
    /// (`serve --site-port`), if any.
    pub fn site_port(&self, site: &SiteId, branch: &str) -> Option<String> {
        self.site_ports
            .iter()
            .find(|(host, _)| {
                host.org == site.org && host.site == site.site && host.branch == branch
            })
            .map(|(_, addr)| format!("http://{addr}"))
    }

    /// The dashboard, as the preview hosts' pages link to it.
    pub fn dashboard(&self) -> String {
        format!("http://localhost:{}/", self.port)
    }

    /// The page of a site's code sync jobs on `branch`.
    pub fn jobs(site: &SiteId, branch: &str) -> String {
        format!("{JOBS_PATH}/{}/{}/{branch}", site.org, site.site)
    }
}

/// Where the pages of code sync jobs are: `/.siteops/jobs/<org>/<site>/<branch>`.
pub const JOBS_PATH: &str = "/.siteops/jobs";

pub const STYLE: &str = r#"
:root { --fg: #1d2430; --muted: #5b6576; --line: #e3e7ee; --accent: #2857d6; --bad: #b42318; --good: #067647; --warn: #b54708; --bg: #f7f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { background: #fff; border-bottom: 1px solid var(--line); padding: 14px 28px; display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 18px; margin: 0; }
header .meta { color: var(--muted); font-size: 13px; }
main { padding: 20px 28px; max-width: 1200px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px; margin-bottom: 16px; }
h2 { font-size: 16px; margin: 0 0 10px; }
h3 { font-size: 14px; margin: 12px 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
pre { background: #0f1620; color: #e6edf3; padding: 10px 12px; border-radius: 6px; overflow: auto; font-size: 12.5px; max-height: 420px; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; }
td, th { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
.ok { color: var(--good); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; } .warn { color: var(--warn); font-weight: 600; }
.pill { display: inline-block; padding: 0 8px; border-radius: 10px; background: #eef2ff; color: var(--accent); font-size: 12px; margin-right: 4px; }
.button { display: inline-block; padding: 2px 10px; border: 1px solid var(--accent); border-radius: 5px; font-size: 13px; }
details summary { cursor: pointer; color: var(--muted); }
"#;

/// The document around a page of `serve`: the shared style, a header, the main part.
pub fn layout(title: &str, header: Markup, main: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                // No icon: without this line every page of serve costs a `/favicon.ico`
                // request that answers 404 in the browser's console.
                link rel="icon" href="data:,";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                header { (header) }
                main { (main) }
            }
        }
    }
}

/// The whole dashboard page.
pub fn page(
    snapshot: &Snapshot,
    addresses: &Addresses,
    code: &CodeSources,
    previews: &[PreviewSummary],
    outgoing: &Outgoing,
) -> String {
    let header = html! {
        h1 { "siteops serve" }
        span.meta { "reload " (snapshot.generation) " · " (snapshot.reload_ms) " ms" }
        @match &snapshot.error {
            None => span.ok #status { "applied" },
            Some(error) => span.bad #status { (error) },
        }
    };
    let main = html! {
        @if !snapshot.diagnostics.is_empty() {
            section #diagnostics { h2 { "Diagnostics" } pre { (snapshot.diagnostics) } }
        }
        @if !snapshot.changes.is_empty() {
            section #changes { h2 { "Applied by the last reload" } pre { (snapshot.changes.join("\n")) } }
        }
        (outgoing_section(outgoing))
        (previews_section(previews))
        (sites_section(snapshot, addresses, code, previews))
    };
    layout("siteops serve", header, main).into_string()
}

fn previews_section(previews: &[PreviewSummary]) -> Markup {
    html! {
        section #previews {
            h2 { "Last previews" }
            @if previews.is_empty() {
                p { "No preview yet: open a page below." }
            } @else {
                table {
                    tr { th { "site" } th { "page" } th { "status" } th { "when" } th {} }
                    @for preview in previews {
                        tr {
                            td { (preview.site.org) "/" (preview.site.site) " (" (preview.branch) ")" }
                            td { (preview.path) }
                            (preview_state(preview))
                            td { (siteops_server::time::format_rfc3339(preview.at, 0)) }
                            td { a.trace href=(preview.trace_link) { "trace" } }
                        }
                    }
                }
            }
        }
    }
}

/// Where outgoing requests go, per host.
fn outgoing_section(outgoing: &Outgoing) -> Markup {
    html! {
        section #outgoing {
            h2 { "Outgoing requests" }
            p #mode {
                @match outgoing {
                    Outgoing::Offline => {
                        b { "offline" } ": every request answered from the mocks, never the network (loopback still goes out)."
                    }
                    Outgoing::Online => {
                        b { "online" } ": every request goes to the network; the mocks are ignored."
                    }
                    Outgoing::Mocks(hosts) => {
                        b { "mocks" } " for the hosts "
                        @if hosts.named.is_empty() { "(none named)" }
                        @for (i, host) in hosts.named.iter().enumerate() {
                            @if i > 0 { ", " } code.mocked { (host) }
                        }
                        "; " b { "the network" } " for the rest."
                    }
                }
            }
            @if let Outgoing::Mocks(hosts) = outgoing {
                @if !hosts.open.is_empty() {
                    p #open {
                        "Mocks without a named host (no " code { "host" } " matcher, or a pattern) answer what they match on any host: "
                        (hosts.open.join(", "))
                    }
                }
            }
        }
    }
}

/// A preview's state: its status, and a warning when images of a page that rendered failed.
fn preview_state(preview: &PreviewSummary) -> Markup {
    let failed = &preview.failed_images;
    let class = if preview.status < 300 && !failed.is_empty() {
        "warn"
    } else {
        status_class(preview.status)
    };
    html! {
        td class={ "state " (class) } {
            (preview.status)
            @if !failed.is_empty() {
                " · " (failed.len()) @if failed.len() == 1 { " image failed" } @else { " images failed" }
                ul.failed {
                    @for (url, why) in failed { li { code { (url) } ": " (why) } }
                }
            }
        }
    }
}

/// The class of a status: `ok` below 300, else `bad`.
pub fn status_class(status: u16) -> &'static str {
    if status < 300 { "ok" } else { "bad" }
}

/// Where each code repository's files come from now.
pub type CodeSources = BTreeMap<CodeRepo, code::Source>;

/// One line: the site's code repository and where its files come from.
fn code_line(repo: &CodeRepo, source: Option<&code::Source>) -> Markup {
    html! {
        p.code {
            "Code: " b { (repo) } " "
            @match source {
                Some(code::Source::Checkout(dir)) => {
                    "from the local checkout " code { (dir.display()) }
                    ", live: saving a file reloads the open pages."
                }
                Some(code::Source::Store { main_entries }) if !main_entries.is_empty() => {
                    "from the code store (synced by code jobs; the repository's " code { "templates/" } "): "
                    (main_entries.join(", "))
                    ". Map a checkout in siteops.toml to work on it live."
                }
                _ => "from the code store, which is empty: run a code job, or map a checkout in siteops.toml.",
            }
        }
    }
}

fn sites_section(
    snapshot: &Snapshot,
    addresses: &Addresses,
    code: &CodeSources,
    previews: &[PreviewSummary],
) -> Markup {
    let Some(compiled) = &snapshot.compiled else {
        return html! { section { h2 { "Sites" } p { "Nothing applied yet." } } };
    };
    // A site's resources are not next to each other (its worker configuration sorts with
    // the others'): a set, so each site is one section.
    let sites: BTreeSet<&SiteId> = compiled.resources.iter().filter_map(|r| r.site()).collect();
    html! {
        @for site in sites {
            (site_section(snapshot, compiled, site, addresses, code, previews))
        }
    }
}

fn site_section(
    snapshot: &Snapshot,
    compiled: &Compiled,
    site: &SiteId,
    addresses: &Addresses,
    code: &CodeSources,
    previews: &[PreviewSummary],
) -> Markup {
    let resources: Vec<_> = compiled
        .resources
        .iter()
        .filter(|r| r.site() == Some(site))
        .collect();
    let mut branches: Vec<&str> = resources
        .iter()
        .filter_map(|r| match &r.kind {
            ResourceKind::Worker(branch) => Some(branch.as_str()),
            _ => None,
        })
        .collect();
    if !branches.contains(&"main") {
        branches.insert(0, "main");
    }
    let host = addresses.preview_host(site, "main");
    let repo = resources
        .iter()
        .find(|r| r.kind == ResourceKind::Site)
        .and_then(|r| CodeRepo::of_site(&r.body));
    let known = snapshot
        .pages
        .get(site)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let pages = &with_previewed(known, site, previews)[..];
    html! {
        section.site id={ "site-" (site.org) "-" (site.site) } {
            h2 { (site.org) "/" (site.site) }
            div {
                @for branch in &branches { span.pill { (branch) } }
                " " a href={ (host) "/" } { "preview host" }
                @if let Some(port) = addresses.site_port(site, "main") {
                    " · " a.site-port href={ (port) "/" } title="the preview host on a port of its own (serve --site-port)" { (port) }
                }
                " · " a.jobs href=(Addresses::jobs(site, "main")) { "code jobs" }
                " · " a href={ (host) "/config.json" } { "config.json" }
            }
            @if let Some(repo) = &repo { (code_line(repo, code.get(repo))) }
            @if let Some(site_body) = resources.iter().find(|r| r.kind == ResourceKind::Site) {
                (delivery_line(&host, &site_body.body, pages))
            }
            h3 { "Pages" }
            @if pages.is_empty() {
                p { "No known pages (add mocks or worker entry examples, or open a page on the preview host)." }
            } @else {
                table.pages {
                    @for page in pages { (page_row(&host, page)) }
                }
            }
            h3 { "Compiled configuration" }
            details {
                summary { (resources.len()) " documents" }
                @for resource in &resources {
                    p { code { (resource.path()) } }
                    pre { (pretty(&masked(&resource.kind, &resource.body))) }
                }
            }
        }
    }
}

/// The site's known pages and those previewed well on its main branch in this session: a
/// site without mocks or examples (a repoless site on a real source) lists what was opened
/// (a preview that failed has no `.md` to link to).
fn with_previewed(
    known: &[KnownPage],
    site: &SiteId,
    previews: &[PreviewSummary],
) -> Vec<KnownPage> {
    let mut pages = known.to_vec();
    for preview in previews {
        if preview.site == *site
            && preview.branch == "main"
            && (200..300).contains(&preview.status)
            && !pages.iter().any(|page| page.path == preview.path)
        {
            let kind = if preview.path.ends_with(".json") {
                PageKind::Sheet
            } else {
                PageKind::Page
            };
            pages.push(KnownPage {
                path: preview.path.clone(),
                kind,
            });
        }
    }
    pages.sort_by(|a, b| a.path.cmp(&b.path));
    pages
}

/// What the preview host delivers around the site's pages, as its document sets it up:
/// the metadata sheets and the redirects sheet to preview, each folder mapping (with a
/// page under it), the header rules and `robots.txt`.
fn delivery_line(host: &str, site: &serde_json::Value, pages: &[KnownPage]) -> Markup {
    let sheet_page = |sheet: &str| sheet.strip_suffix(".json").unwrap_or(sheet).to_owned();
    let sources: Vec<String> = match site.pointer("/metadata/source").and_then(|s| s.as_array()) {
        Some(sources) => sources
            .iter()
            .filter_map(|s| s.as_str())
            .map(sheet_page)
            .collect(),
        // The platform's default sheet.
        None => vec!["/metadata".to_owned()],
    };
    let known = |path: &str| pages.iter().any(|p| p.path == path);
    let folders: Vec<(&str, &str)> = site
        .get("folders")
        .and_then(|f| f.as_object())
        .map(|f| {
            f.iter()
                .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)))
                .collect()
        })
        .unwrap_or_default();
    let globs: Vec<&str> = site
        .get("headers")
        .and_then(|h| h.as_object())
        .map(|h| h.keys().map(String::as_str).collect())
        .unwrap_or_default();
    html! {
        p.delivery {
            "Delivery: "
            @for source in sources.iter().filter(|s| known(s)) {
                a href={ (host) (source) } { "metadata sheet " (source) } " · "
            }
            @if known("/redirects") {
                a href={ (host) "/redirects" } { "redirects sheet" } " · "
            }
            @for (folder, mapped) in &folders {
                a href={ (host) (folder.trim_end_matches('/')) "/any-page" } {
                    "folder " (folder) " → " (mapped)
                }
                " · "
            }
            @for glob in &globs { "headers " code { (glob) } " · " }
            a href={ (host) "/robots.txt" } { "robots.txt" }
        }
    }
}

/// One known page: its links on the preview host, as what a preview of it gives.
fn page_row(host: &str, page: &KnownPage) -> Markup {
    let parsed = PagePath::parse(&page.path).ok();
    let link = |variant| {
        parsed
            .as_ref()
            .map(|p| format!("{host}{}", p.served_path(variant)))
    };
    html! {
        tr {
            td { (page.path) }
            td {
                @match (&page.kind, link(Variant::Html)) {
                    (PageKind::NeedsHeaders(headers), _) => {
                        "needs the request headers " (headers.join(", "))
                        ", which a preview does not send: the worker renders it when asked with them ("
                        code { "siteops validate --explain" } ")"
                    }
                    (_, None) => "not a page path",
                    (PageKind::Sheet, Some(page)) => {
                        a.button.preview href=(page) { "preview" } " a sheet (JSON)"
                    }
                    (PageKind::Page, Some(page)) => {
                        a.button.preview href=(page) { "preview" } " "
                        @if let Some(markdown) = link(Variant::Markdown) {
                            a href=(markdown) { ".md" } " "
                        }
                        @if let Some(plain) = link(Variant::Plain) {
                            a href=(plain) { ".plain.html" }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_session_says_so_and_escapes_errors() {
        let snapshot = Snapshot {
            error: Some("<bad> & worse".into()),
            diagnostics: "error[x]: <oops>".into(),
            ..Snapshot::default()
        };
        let html = page(
            &snapshot,
            &Addresses {
                port: 3000,
                ..Default::default()
            },
            &CodeSources::new(),
            &[],
            &Outgoing::Online,
        );
        assert!(html.contains("&lt;bad&gt; &amp; worse"));
        assert!(html.contains("error[x]: &lt;oops&gt;"));
        assert!(html.contains("Nothing applied yet."));
        assert!(html.contains("No preview yet"));
        // Issue 44: no `/favicon.ico` request (a 404 in the console) from serve's pages.
        assert!(
            html.contains(r#"<link rel="icon" href="data:,">"#),
            "{html}"
        );
    }

    /// Issue 44: a repoless site on a real source (no mocks, no examples) listed no page,
    /// however many were opened.
    #[test]
    fn previewed_pages_join_the_known_ones() {
        let known = [KnownPage {
            path: "/products/1234".into(),
            kind: PageKind::Page,
        }];
        let summary = |site: SiteId, branch: &str, path: &str| PreviewSummary {
            site,
            branch: branch.into(),
            path: path.into(),
            status: 200,
            at: 0,
            trace_link: String::new(),
            failed_images: Vec::new(),
        };
        let previews = [
            summary(site("acme", "blog"), "main", "/about"),
            summary(site("acme", "blog"), "main", "/products/1234"),
            summary(site("acme", "blog"), "main", "/nav.json"),
            summary(site("acme", "blog"), "feature", "/draft"),
            PreviewSummary {
                status: 404,
                ..summary(site("acme", "blog"), "main", "/gone")
            },
            summary(site("acme", "website"), "main", "/other"),
        ];
        let pages = with_previewed(&known, &site("acme", "blog"), &previews);
        assert_eq!(
            pages,
            [
                KnownPage {
                    path: "/about".into(),
                    kind: PageKind::Page
                },
                KnownPage {
                    path: "/nav.json".into(),
                    kind: PageKind::Sheet
                },
                known[0].clone(),
            ]
        );
    }

    fn site(org: &str, name: &str) -> SiteId {
        SiteId {
            org: org.into(),
            site: name.into(),
        }
    }

    fn known(path: &str, kind: PageKind) -> KnownPage {
        KnownPage {
            path: path.into(),
            kind,
        }
    }

    /// Issue 28: a site with a worker configuration was listed twice (its resources are
    /// not next to each other), and `/` linked its markdown as `/.md`.
    #[test]
    fn each_site_once_and_each_page_with_the_links_its_kind_has() {
        use siteops_config::compile::Resource;
        let resource = |site: SiteId, kind| Resource {
            owner: siteops_config::compile::Owner::Site(site),
            body: match kind {
                ResourceKind::Site => serde_json::json!({
                    "folders": {"/events/": "/events/summer"},
                    "headers": {"/news/**": [{"key": "cache-control", "value": "max-age=300"}]},
                }),
                _ => serde_json::json!({}),
            },
            kind,
        };
        let website = site("acme", "website");
        let snapshot = Snapshot {
            // As compiled resources sort: by path, workers last.
            compiled: Some(Compiled {
                resources: vec![
                    resource(website.clone(), ResourceKind::Site),
                    resource(site("globex", "docs"), ResourceKind::Site),
                    resource(website.clone(), ResourceKind::Worker("main".into())),
                ],
            }),
            pages: BTreeMap::from([(
                website.clone(),
                vec![
                    known("/", PageKind::Page),
                    known("/guides/", PageKind::Page),
                    known("/settings", PageKind::Sheet),
                    known("/metadata", PageKind::Sheet),
                    known(
                        "/stores/1",
                        PageKind::NeedsHeaders(vec!["tenant".into(), "x-market".into()]),
                    ),
                ],
            )]),
            ..Snapshot::default()
        };
        let html = page_html(&snapshot);
        assert_eq!(
            html.matches("id=\"site-acme-website\"").count(),
            1,
            "{html}"
        );
        assert_eq!(html.matches("id=\"site-globex-docs\"").count(), 1, "{html}");
        let host = "http://main--website--acme.localhost:3000";
        for link in [
            "/index.md",
            "/index.plain.html",
            "/guides/index.md",
            "/guides/index.plain.html",
            "/settings",
            "/metadata",
            "/events/any-page",
            "/robots.txt",
        ] {
            assert!(
                html.contains(&format!("href=\"{host}{link}\"")),
                "{link}: {html}"
            );
        }
        assert!(!html.contains("/.md\""), "{html}");
        assert!(!html.contains("/settings.md"), "a sheet has no markdown");
        assert!(!html.contains("/stores/1\""), "no preview renders it");
        assert!(html.contains("folder /events/ → /events/summer"), "{html}");
        assert!(html.contains("headers <code>/news/**</code>"), "{html}");
        assert!(
            !html.contains("redirects sheet"),
            "no known redirects sheet"
        );
        assert!(html.contains("needs the request headers tenant, x-market"));
        assert!(html.contains("href=\"/.siteops/jobs/acme/website/main\""));
    }

    fn page_html(snapshot: &Snapshot) -> String {
        page(
            snapshot,
            &Addresses {
                port: 3000,
                ..Default::default()
            },
            &CodeSources::new(),
            &[],
            &Outgoing::Online,
        )
    }
}
