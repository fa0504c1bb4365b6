//! `fstab.yaml` → `site.toml`'s `[content]` and `[folders]`: the `/` mountpoint is the
//! content source, typed as the platform types a bare URL (helix-shared-config's
//! `MountConfig`: SharePoint and OneDrive addresses are `onedrive`, Google Drive ones
//! `google` with the folder id the URL ends in); `folders` are the folder mappings.
//! Other mountpoints have no place in the configuration, and are reported.

use serde_json::{Value, json};

use super::Report;
use super::read::{Read, drop_unknown, object, ruled, typed, yaml};
use crate::diagnostic::{Code, Diagnostic};
use crate::document::push_token;
use crate::model::api::{ContentConfig, FoldersConfig};
use crate::model::files::SiteParts;
use crate::rules;
use crate::schema::SchemaKind;

/// What fstab.yaml gives the site.
#[derive(Debug, Default)]
pub(super) struct Fstab {
    pub(super) content: Option<ContentConfig>,
    pub(super) folders: Option<FoldersConfig>,
}

const ROOT: &str = "/mountpoints/~1";

pub(super) fn fstab(path: &str, bytes: &[u8], report: &mut Report) -> Fstab {
    let mut out = Fstab::default();
    let Some(read) = yaml(path, bytes, report) else {
        return out;
    };
    let Some(top) = object(&read, &read.value, "", "the file", report) else {
        return out;
    };
    let mut top = top.clone();
    drop_unknown(
        &read,
        &mut top,
        "",
        &["mountpoints", "folders"],
        |_| "fstab.yaml has `mountpoints` and `folders` only".into(),
        report,
    );
    if let Some(mountpoints) = top.get("mountpoints") {
        out.content = content(&read, mountpoints, report);
    } else {
        report.diagnostics.push(
            read.locate(
                Diagnostic::error(Code::MissingContent, "fstab.yaml has no `mountpoints`")
                    .with_help("add a `/` mountpoint, or a [content.source] table to site.toml")
                    .at_pointer(""),
            ),
        );
    }
    if let Some(folders) = top.get("folders") {
        out.folders = folder_mappings(&read, folders, report);
    }
    out
}

fn content(read: &Read, mountpoints: &Value, report: &mut Report) -> Option<ContentConfig> {
    let mountpoints = object(read, mountpoints, "/mountpoints", "`mountpoints`", report)?;
    for key in mountpoints.keys().filter(|key| key.as_str() != "/") {
        report.diagnostics.push(read.not_carried(
            &push_token("/mountpoints", key),
            &format!("mountpoint `{key}`"),
            "a site has one content source (and an overlay in front of it), so its pages under this path come from the `/` mountpoint's source",
        ));
    }
    let Some(root) = mountpoints.get("/") else {
        report.diagnostics.push(
            read.locate(
                Diagnostic::error(Code::MissingContent, "fstab.yaml has no `/` mountpoint")
                    .at_pointer("/mountpoints"),
            ),
        );
        return None;
    };
    let mut source = match root {
        Value::String(url) => typed_url(url).or_else(|| {
            report.diagnostics.push(read.locate(
                Diagnostic::error(
                    Code::MissingKey,
                    format!("cannot tell the content source type of `{url}`"),
                )
                .with_help("write the mountpoint as a table with `url` and `type` (`markup`, `onedrive` or `google`)")
                .at_pointer(ROOT),
            ));
            None
        })?,
        Value::Object(table) => {
            let mut table = table.clone();
            drop_unknown(
                read,
                &mut table,
                ROOT,
                &["url", "type", "suffix", "id", "tenantId", "itemId"],
                |_| "a content source has `url`, `type`, `suffix`, `id`, `tenantId` and `itemId` only".into(),
                report,
            );
            if !table.contains_key("type")
                && let Some(Value::Object(found)) =
                    table.get("url").and_then(Value::as_str).and_then(typed_url)
            {
                table.extend(found.into_iter().filter(|(key, _)| key != "url"));
            }
            Value::Object(table)
        }
        _ => {
            object(read, root, ROOT, "mountpoint `/`", report);
            return None;
        }
    };
    // The content rules and schema speak of `/source/…`; here that is the mountpoint.
    let body = json!({ "source": source.take() });
    let relocate = |d: Diagnostic| {
        let pointer = d.pointer.clone().unwrap_or_default();
        let rest = pointer
            .strip_prefix("/source")
            .unwrap_or_default()
            .to_string();
        let mut d = d;
        d.pointer = Some(format!("{ROOT}{rest}"));
        d
    };
    let problems: Vec<Diagnostic> = SchemaKind::ApiContent
        .check(&body)
        .into_iter()
        .map(relocate)
        .collect();
    let failed = problems.iter().any(Diagnostic::is_error);
    report.diagnostics.extend(read.spans.locate_all(problems));
    if failed {
        return None;
    }
    let content: ContentConfig = serde_json::from_value(body).ok()?;
    let problems = rules::content(&content).into_iter().map(relocate).collect();
    ruled(read, problems, report)?;
    Some(content)
}

/// A mountpoint given as a bare URL, typed as the platform types it; `None` for a URL
/// of no type it knows.
fn typed_url(url: &str) -> Option<Value> {
    let parsed = url::Url::parse(url).ok()?;
    let host = parsed.host_str().unwrap_or_default();
    if (parsed.scheme() == "https" && host.ends_with(".sharepoint.com"))
        || url.starts_with("https://1drv.ms/")
    {
        return Some(json!({ "url": url, "type": "onedrive" }));
    }
    if url.starts_with("https://drive.google.com/") {
        let id = parsed.path_segments()?.next_back()?.to_string();
        return Some(json!({ "url": url, "type": "google", "id": id }));
    }
    // Document Authoring serves markup.
    if host == "content.da.live" {
        return Some(json!({ "url": url, "type": "markup" }));
    }
    None
}

fn folder_mappings(read: &Read, folders: &Value, report: &mut Report) -> Option<FoldersConfig> {
    object(read, folders, "/folders", "`folders`", report)?;
    // The site's schema holds what a folder and its page may be; checked here, where
    // they were written.
    let site = json!({ "folders": folders });
    let parts: SiteParts = typed(read, &site, SchemaKind::SiteFile, report)?;
    parts.folders
}
