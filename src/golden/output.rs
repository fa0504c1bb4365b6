//! What a golden case records of each page, made deterministic. Pure.
//!
//! Per page, in this order:
//! - `trace`: the preview's answer without its links and time stamps (status, paths,
//!   source, media, warnings, and the trace of fetch attempts and images, with
//!   `elapsedMs` as `"[elapsed]"`); for a failed preview, its status and `x-error`;
//! - `html`: the page as the preview host serves it (a JSON page: `json`, the sheet);
//! - `md`: the stored markdown.
//!
//! The server's port appears as `[port]` wherever it would show (`127.0.0.1:[port]`).

use serde_json::{Map, Value, json};

/// The kinds of output of a page, and the extension of their snapshot names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    Trace,
    Html,
    Markdown,
    Json,
}

impl OutputKind {
    pub fn extension(self) -> &'static str {
        match self {
            OutputKind::Trace => "trace",
            OutputKind::Html => "html",
            OutputKind::Markdown => "md",
            OutputKind::Json => "json",
        }
    }
}

/// One rendered output: which page, what, its snapshot name and expression, the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub page: String,
    pub kind: OutputKind,
    /// The snapshot's name, `<page slug>.<extension>` (the file is `<name>.snap`).
    pub name: String,
    /// How the output was obtained, the snapshot's `expression`.
    pub expression: String,
    pub text: String,
}

/// The answer keys kept in the `trace` output, in this order.
const KEPT: [&str; 4] = ["webPath", "resourcePath", "trace", "warnings"];
/// Keys of the answer's `preview` object kept.
const KEPT_PREVIEW: [&str; 5] = [
    "source",
    "sourceLocation",
    "sourceLastModified",
    "contentType",
    "media",
];

/// The `trace` output of a successful preview, from the route's JSON answer.
pub fn trace_of_answer(answer: &Value, port: u16) -> String {
    let mut out = Map::new();
    out.insert("status".into(), json!(200));
    for key in KEPT_PREVIEW {
        if let Some(value) = answer["preview"].get(key) {
            out.insert(key.into(), value.clone());
        }
    }
    for key in KEPT {
        if let Some(value) = answer.get(key) {
            out.insert(key.into(), value.clone());
        }
    }
    let mut value = Value::Object(out);
    redact_elapsed(&mut value);
    redact_port(&pretty(&value), port)
}

/// The `trace` output of a preview that failed: the status and the `x-error` message.
pub fn trace_of_failure(status: u16, error: &str, port: u16) -> String {
    redact_port(&pretty(&json!({"status": status, "error": error})), port)
}

/// A sheet's JSON, pretty-printed (keys sorted) so that a change is a line diff.
pub fn pretty_json(body: &[u8], port: u16) -> String {
    let text = match serde_json::from_slice::<Value>(body) {
        Ok(value) => pretty(&value),
        Err(_) => String::from_utf8_lossy(body).into_owned(),
    };
    redact_port(&text, port)
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Every `elapsedMs` value, at any depth, becomes `"[elapsed]"`.
fn redact_elapsed(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "elapsedMs" {
                    *value = json!("[elapsed]");
                } else {
                    redact_elapsed(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_elapsed),
        _ => {}
    }
}

/// `127.0.0.1:<port>` and `localhost:<port>` as `…:[port]`, where `port` is the whole
/// number (not the start of a longer one).
pub fn redact_port(text: &str, port: u16) -> String {
    let mut out = text.to_string();
    for host in ["127.0.0.1", "localhost"] {
        let needle = format!("{host}:{port}");
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(&needle) {
            let after = &rest[at + needle.len()..];
            result.push_str(&rest[..at]);
            if after.starts_with(|c: char| c.is_ascii_digit()) {
                result.push_str(&needle);
            } else {
                result.push_str(host);
                result.push_str(":[port]");
            }
            rest = after;
        }
        result.push_str(rest);
        out = result;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_are_redacted_only_whole() {
        assert_eq!(
            redact_port(
                "http://127.0.0.1:4312/x http://a.localhost:4312/ 127.0.0.1:43121 cms:4312",
                4312
            ),
            "http://127.0.0.1:[port]/x http://a.localhost:[port]/ 127.0.0.1:43121 cms:4312"
        );
    }

    #[test]
    fn the_trace_keeps_what_a_review_needs() {
        let answer = json!({
            "webPath": "/a",
            "resourcePath": "/a.md",
            "preview": {
                "status": 200,
                "url": "http://main--s--o.localhost/a",
                "lastModified": "2026-01-01T00:00:00Z",
                "contentBusId": "abc",
                "sourceLocation": "markup:http://127.0.0.1:5000/transform/o/s/main/a",
                "source": "overlay",
                "contentType": "text/html",
                "media": []
            },
            "links": {"preview": "http://localhost/admin/preview/o/s/main/a"},
            "trace": {"fetch": [{"source": "overlay", "url": "u", "status": 200, "elapsedMs": 12, "decision": "used"}], "images": []},
            "warnings": []
        });
        let text = trace_of_answer(&answer, 5000);
        assert_eq!(
            text,
            r#"{
  "contentType": "text/html",
  "media": [],
  "resourcePath": "/a.md",
  "source": "overlay",
  "sourceLocation": "markup:http://127.0.0.1:[port]/transform/o/s/main/a",
  "status": 200,
  "trace": {
    "fetch": [
      {
        "decision": "used",
        "elapsedMs": "[elapsed]",
        "source": "overlay",
        "status": 200,
        "url": "u"
      }
    ],
    "images": []
  },
  "warnings": [],
  "webPath": "/a"
}"#
        );
        assert_eq!(
            trace_of_failure(404, "unable to fetch /a from the primary source: 404", 1),
            "{\n  \"error\": \"unable to fetch /a from the primary source: 404\",\n  \"status\": 404\n}"
        );
    }
}
