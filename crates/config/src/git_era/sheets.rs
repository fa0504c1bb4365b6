//! The git-era files that become parts of the site's configuration besides content and
//! indexing: `paths.json` (and the older `paths.yaml`), the path mappings that became
//! `public.toml`'s `[paths]`; a `headers` sheet, whose rows became `site.toml`'s
//! `[headers]`; `robots.txt`, which became `site.toml`'s `[robots]`.

use serde_json::{Value, json};

use super::Report;
use super::read::{Read, drop_unknown, object, ruled, text, yaml};
use crate::diagnostic::{Code, Diagnostic};
use crate::document::push_token;
use crate::model::api::{HeaderPair, HeadersConfig, PublicConfig, RobotsConfig};
use crate::model::files::SiteParts;
use crate::rules;
use crate::schema::SchemaKind;

/// `paths.json` / `paths.yaml` (`mappings`, `includes`) as `public.toml`.
pub(super) fn paths(path: &str, bytes: &[u8], report: &mut Report) -> Option<PublicConfig> {
    let read = yaml(path, bytes, report)?;
    let mut top = object(&read, &read.value, "", "the file", report)?.clone();
    drop_unknown(
        &read,
        &mut top,
        "",
        &["mappings", "includes"],
        |_| "public.toml's [paths] has `mappings` and `includes` only".into(),
        report,
    );
    // The schema and rules speak of `/paths/…`; in this file that is the top level.
    let body = json!({ "paths": top });
    let relocate = |mut d: Diagnostic| {
        let pointer = d.pointer.clone().unwrap_or_default();
        d.pointer = Some(
            pointer
                .strip_prefix("/paths")
                .unwrap_or(&pointer)
                .to_string(),
        );
        d
    };
    let problems: Vec<Diagnostic> = SchemaKind::PublicFile
        .check(&body)
        .into_iter()
        .map(relocate)
        .collect();
    ruled(&read, problems, report)?;
    let public: PublicConfig = serde_json::from_value(body).ok()?;
    let problems = rules::public(&public).into_iter().map(relocate).collect();
    ruled(&read, problems, report)?;
    Some(public)
}

/// A `headers` sheet (the JSON the platform delivers for a sheet: `data` rows, or the
/// first sheet of a workbook) whose rows have `url` (or `path`), `key` and `value`.
pub(super) fn headers(path: &str, bytes: &[u8], report: &mut Report) -> Option<HeadersConfig> {
    let read = yaml(path, bytes, report)?;
    let (rows, at) = sheet_rows(&read, report)?;
    let mut headers = HeadersConfig::default();
    for (i, row) in rows.iter().enumerate() {
        let pointer = push_token(&at, &i.to_string());
        let cell = |names: &[&str]| {
            let row = row.as_object()?;
            (row.iter())
                .find(|(name, _)| names.iter().any(|n| name.eq_ignore_ascii_case(n)))
                .and_then(|(_, value)| value.as_str())
                .map(str::trim)
                .filter(|value| !value.is_empty())
        };
        let (Some(glob), Some(key), Some(value)) =
            (cell(&["url", "path"]), cell(&["key"]), cell(&["value"]))
        else {
            report.diagnostics.push(read.not_carried(
                &pointer,
                &format!("row {}", i + 1),
                "a header row has `url`, `key` and `value`",
            ));
            continue;
        };
        let pair = HeaderPair {
            key: key.to_string(),
            value: value.to_string(),
        };
        // Each row is checked on its own, as site.toml would hold it, and located at the row.
        let site = json!({ "headers": { glob: [&pair] } });
        let problems: Vec<Diagnostic> = SchemaKind::SiteFile
            .check(&site)
            .into_iter()
            .map(|d| d.at_pointer(pointer.clone()))
            .collect();
        if ruled(&read, problems, report).is_some()
            && let Ok(parts) = serde_json::from_value::<SiteParts>(site)
        {
            for (glob, pairs) in parts.headers.unwrap_or_default().0 {
                headers.0.entry(glob).or_default().extend(pairs);
            }
        }
    }
    (!headers.0.is_empty()).then_some(headers)
}

/// The rows of a sheet's JSON and their pointer: `/data`, or `/<first name>/data` of a
/// workbook (`:names`).
fn sheet_rows<'r>(read: &'r Read, report: &mut Report) -> Option<(&'r Vec<Value>, String)> {
    let value = &read.value;
    let at = match value.get(":names").and_then(Value::as_array) {
        Some(names) => {
            let first = names.first().and_then(Value::as_str).unwrap_or("default");
            push_token(&push_token("", first), "data")
        }
        None => "/data".to_string(),
    };
    match value.pointer(&at).and_then(Value::as_array) {
        Some(rows) => Some((rows, at)),
        None => {
            report.diagnostics.push(
                read.locate(
                    Diagnostic::error(Code::MissingKey, format!("the sheet has no rows (`{at}`)"))
                        .with_help(
                            "a sheet's JSON has its rows in `data`, as the platform delivers it",
                        )
                        .at_pointer(""),
                ),
            );
            None
        }
    }
}

/// `robots.txt`, served as the site's `/robots.txt`.
pub(super) fn robots(path: &str, bytes: &[u8], report: &mut Report) -> Option<RobotsConfig> {
    let source = text(path, bytes, report)?;
    Some(RobotsConfig {
        txt: Some(source.text.to_string()),
    })
}
