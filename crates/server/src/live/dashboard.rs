//! The dashboard at `/` of `siteops serve`: plain server-rendered HTML. The sites with
//! their compiled configuration, the last reload's diagnostics and changes, each site's
//! known pages with preview links, and the last previews with their traces.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::Snapshot;
use crate::code::{self, CodeRepo};
use crate::html::escape_into;
use siteops_config::compile::{ResourceKind, masked, pretty};
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

/// The whole dashboard page.
pub fn page(
    snapshot: &Snapshot,
    addresses: &Addresses,
    code: &CodeSources,
    previews: &[PreviewSummary],
) -> String {
    let mut out = String::with_capacity(16 * 1024);
    out.push_str("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>siteops serve</title><style>");
    out.push_str(STYLE);
    out.push_str("</style></head><body><header><h1>siteops serve</h1>");
    let _ = write!(
        out,
        "<span class=\"meta\">reload {} · {} ms</span>",
        snapshot.generation, snapshot.reload_ms
    );
    match &snapshot.error {
        None => out.push_str("<span class=\"ok\" id=\"status\">applied</span>"),
        Some(error) => {
            out.push_str("<span class=\"bad\" id=\"status\">");
            escape_into(error, &mut out);
            out.push_str("</span>");
        }
    }
    out.push_str("</header><main>");
    if !snapshot.diagnostics.is_empty() {
        out.push_str("<section id=\"diagnostics\"><h2>Diagnostics</h2><pre>");
        escape_into(&snapshot.diagnostics, &mut out);
        out.push_str("</pre></section>");
    }
    if !snapshot.changes.is_empty() {
        out.push_str("<section id=\"changes\"><h2>Applied by the last reload</h2><pre>");
        escape_into(&snapshot.changes.join("\n"), &mut out);
        out.push_str("</pre></section>");
    }
    previews_section(previews, &mut out);
    sites_section(snapshot, addresses, code, &mut out);
    out.push_str("</main></body></html>");
    out
}

fn previews_section(previews: &[PreviewSummary], out: &mut String) {
    out.push_str("<section id=\"previews\"><h2>Last previews</h2>");
    if previews.is_empty() {
        out.push_str("<p>No preview yet: open a page below.</p></section>");
        return;
    }
    out.push_str("<table><tr><th>site</th><th>page</th><th>status</th><th>when</th><th></th></tr>");
    for preview in previews {
        out.push_str("<tr><td>");
        escape_into(
            &format!(
                "{}/{} ({})",
                preview.site.org, preview.site.site, preview.branch
            ),
            out,
        );
        out.push_str("</td><td>");
        escape_into(&preview.path, out);
        let class = if preview.status < 300 { "ok" } else { "bad" };
        let _ = write!(
            out,
            "</td><td class=\"{class}\">{}</td><td>",
            preview.status
        );
        escape_into(&crate::time::format_rfc3339(preview.at, 0), out);
        out.push_str("</td><td><a class=\"trace\" href=\"");
        escape_into(&preview.trace_link, out);
        out.push_str("\">trace</a></td></tr>");
    }
    out.push_str("</table></section>");
}

/// Where each code repository's files come from now.
pub type CodeSources = BTreeMap<CodeRepo, code::Source>;

/// One line: the site's code repository and where its files come from.
fn code_line(repo: &CodeRepo, source: Option<&code::Source>, out: &mut String) {
    out.push_str("<p class=\"code\">Code: <b>");
    escape_into(&repo.to_string(), out);
    out.push_str("</b> ");
    match source {
        Some(code::Source::Checkout(dir)) => {
            out.push_str("from the local checkout <code>");
            escape_into(&dir.display().to_string(), out);
            out.push_str("</code>, live: saving a file reloads the open pages.");
        }
        Some(code::Source::Store { main_entries }) if !main_entries.is_empty() => {
            out.push_str("from the code store (synced by code jobs; the repository's <code>templates/</code>): ");
            escape_into(&main_entries.join(", "), out);
            out.push_str(". Map a checkout in siteops.toml to work on it live.");
        }
        _ => out.push_str(
            "from the code store, which is empty: run a code job, or map a checkout in siteops.toml.",
        ),
    }
    out.push_str("</p>");
}

fn sites_section(snapshot: &Snapshot, addresses: &Addresses, code: &CodeSources, out: &mut String) {
    let Some(compiled) = &snapshot.compiled else {
        out.push_str("<section><h2>Sites</h2><p>Nothing applied yet.</p></section>");
        return;
    };
    let mut sites: Vec<&SiteId> = compiled.resources.iter().map(|r| &r.site).collect();
    sites.dedup();
    for site in sites {
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
        let id = format!("site-{}-{}", site.org, site.site);
        let _ = write!(out, "<section class=\"site\" id=\"{id}\"><h2>");
        escape_into(&format!("{}/{}", site.org, site.site), out);
        out.push_str("</h2><div>");
        for branch in &branches {
            out.push_str("<span class=\"pill\">");
            escape_into(branch, out);
            out.push_str("</span>");
        }
        let host = addresses.preview_host(site, "main");
        out.push_str(" <a href=\"");
        escape_into(&host, out);
        out.push_str("/\">preview host</a> · <a href=\"");
        let _ = write!(out, "/admin/job/{}/{}/main/code", site.org, site.site);
        out.push_str("\">code jobs</a> · <a href=\"");
        escape_into(&format!("{host}/config.json"), out);
        out.push_str("\">config.json</a></div>");
        let repo = resources
            .iter()
            .find(|r| r.kind == ResourceKind::Site)
            .and_then(|r| CodeRepo::of_site(&r.body));
        if let Some(repo) = repo {
            code_line(&repo, code.get(&repo), out);
        }

        let pages = snapshot
            .pages
            .get(site)
            .map(Vec::as_slice)
            .unwrap_or_default();
        out.push_str("<h3>Pages</h3>");
        if pages.is_empty() {
            out.push_str("<p>No known pages (add mocks or worker entry examples).</p>");
        } else {
            out.push_str("<table class=\"pages\">");
            for page in pages {
                out.push_str("<tr><td>");
                escape_into(page, out);
                out.push_str("</td><td><a class=\"button preview\" href=\"");
                escape_into(&format!("{host}{page}"), out);
                out.push_str("\">preview</a> <a href=\"");
                escape_into(&format!("{host}{page}.md"), out);
                out.push_str("\">.md</a> <a href=\"");
                escape_into(&format!("{host}{page}.plain.html"), out);
                out.push_str("\">.plain.html</a></td></tr>");
            }
            out.push_str("</table>");
        }
        out.push_str("<h3>Compiled configuration</h3><details><summary>");
        let _ = write!(out, "{} documents", resources.len());
        out.push_str("</summary>");
        for resource in resources {
            out.push_str("<p><code>");
            escape_into(&resource.path(), out);
            out.push_str("</code></p><pre>");
            let body: Value = masked(&resource.kind, &resource.body);
            escape_into(&pretty(&body), out);
            out.push_str("</pre>");
        }
        out.push_str("</details></section>");
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
