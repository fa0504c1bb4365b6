//! The dashboard at `/` of `siteops serve`: server-rendered HTML, built with maud (every
//! value escaped by construction). The sites with
//! their compiled configuration, the last reload's diagnostics and changes, each site's
//! known pages with preview links, and the last previews with their traces.

use std::collections::BTreeMap;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::Snapshot;
use crate::code::{self, CodeRepo};
use siteops_config::compile::{Compiled, ResourceKind, masked, pretty};
use siteops_config::model::SiteId;

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
}

/// What the pages need to know of the server.
pub struct Addresses {
    /// The port every host name is served on.
    pub port: u16,
}

impl Addresses {
    pub fn preview_host(&self, site: &SiteId, branch: &str) -> String {
        format!(
            "http://{branch}--{}--{}.localhost:{}",
            site.site, site.org, self.port
        )
    }
}

pub const STYLE: &str = r#"
:root { --fg: #1d2430; --muted: #5b6576; --line: #e3e7ee; --accent: #2857d6; --bad: #b42318; --good: #067647; --bg: #f7f8fa; }
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
.ok { color: var(--good); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; }
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
        (previews_section(previews))
        (sites_section(snapshot, addresses, code))
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
                            td class=(status_class(preview.status)) { (preview.status) }
                            td { (crate::time::format_rfc3339(preview.at, 0)) }
                            td { a.trace href=(preview.trace_link) { "trace" } }
                        }
                    }
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

fn sites_section(snapshot: &Snapshot, addresses: &Addresses, code: &CodeSources) -> Markup {
    let Some(compiled) = &snapshot.compiled else {
        return html! { section { h2 { "Sites" } p { "Nothing applied yet." } } };
    };
    let mut sites: Vec<&SiteId> = compiled.resources.iter().map(|r| &r.site).collect();
    sites.dedup();
    html! {
        @for site in sites {
            (site_section(snapshot, compiled, site, addresses, code))
        }
    }
}

fn site_section(
    snapshot: &Snapshot,
    compiled: &Compiled,
    site: &SiteId,
    addresses: &Addresses,
    code: &CodeSources,
) -> Markup {
    let resources: Vec<_> = compiled
        .resources
        .iter()
        .filter(|r| &r.site == site)
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
    let pages = snapshot
        .pages
        .get(site)
        .map(Vec::as_slice)
        .unwrap_or_default();
    html! {
        section.site id={ "site-" (site.org) "-" (site.site) } {
            h2 { (site.org) "/" (site.site) }
            div {
                @for branch in &branches { span.pill { (branch) } }
                " " a href={ (host) "/" } { "preview host" }
                " · " a href={ "/admin/job/" (site.org) "/" (site.site) "/main/code" } { "code jobs" }
                " · " a href={ (host) "/config.json" } { "config.json" }
            }
            @if let Some(repo) = &repo { (code_line(repo, code.get(repo))) }
            h3 { "Pages" }
            @if pages.is_empty() {
                p { "No known pages (add mocks or worker entry examples)." }
            } @else {
                table.pages {
                    @for page in pages {
                        tr {
                            td { (page) }
                            td {
                                a.button.preview href={ (host) (page) } { "preview" } " "
                                a href={ (host) (page) ".md" } { ".md" } " "
                                a href={ (host) (page) ".plain.html" } { ".plain.html" }
                            }
                        }
                    }
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
            &Addresses { port: 3000 },
            &CodeSources::new(),
            &[],
        );
        assert!(html.contains("&lt;bad&gt; &amp; worse"));
        assert!(html.contains("error[x]: &lt;oops&gt;"));
        assert!(html.contains("Nothing applied yet."));
        assert!(html.contains("No preview yet"));
    }
}
