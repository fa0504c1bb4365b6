//! A stub's `response`.

use std::time::Duration;

use base64::Engine as _;
use serde_json::Value;

use super::{MockErrorKind, Parser};
use crate::{Fault, StubResponse};

impl Parser<'_> {
    /// A `bodyFileName` that names no file: the message says where it was looked for, the
    /// help which file of `__files/` was perhaps meant.
    fn missing_body_file(&mut self, pointer: &str, path: &str) {
        let bodies: Vec<&str> = self
            .files
            .iter()
            .filter_map(|f| f.path.strip_prefix("__files/"))
            .collect();
        let wanted = path.strip_prefix("__files/").unwrap_or(path);
        let help = match super::closest(wanted, &bodies) {
            Some(meant) => format!("did you mean `{meant}`?"),
            None => "a bodyFileName is a path under the mocks' __files/ directory".to_string(),
        };
        let dir = self
            .file
            .rsplit_once("/mappings/")
            .map_or("", |(dir, _)| dir);
        self.report(
            MockErrorKind::MissingBodyFile,
            pointer,
            format!("there is no file {dir}/{path}"),
            Some(help),
        );
    }

    pub(super) fn response(&mut self, pointer: &str, value: &Value) -> Option<StubResponse> {
        const BODY_KEYS: [&str; 4] = ["body", "jsonBody", "base64Body", "bodyFileName"];
        let map = self.object(
            pointer,
            value,
            &[
                "status",
                "statusMessage",
                "headers",
                "body",
                "jsonBody",
                "base64Body",
                "bodyFileName",
                "fixedDelayMilliseconds",
                "fault",
            ],
        )?;
        let status = match map.get("status") {
            None => 200,
            Some(s) => match s.as_u64().filter(|s| (100..=599).contains(s)) {
                Some(s) => s as u16,
                None => {
                    self.error(
                        &format!("{pointer}/status"),
                        "must be an HTTP status (100 to 599)".into(),
                    );
                    200
                }
            },
        };
        let mut headers = Vec::new();
        if let Some(value) = map.get("headers") {
            match value {
                Value::Object(entries) => {
                    for (name, value) in entries {
                        match value {
                            Value::String(v) => headers.push((name.clone(), v.clone())),
                            Value::Array(values) => headers.extend(
                                values
                                    .iter()
                                    .filter_map(Value::as_str)
                                    .map(|v| (name.clone(), v.to_string())),
                            ),
                            _ => self.error(
                                &super::child(&format!("{pointer}/headers"), name),
                                "must be a string or an array of strings".into(),
                            ),
                        }
                    }
                }
                _ => self.error(&format!("{pointer}/headers"), "must be an object".into()),
            }
        }
        let delay = match map.get("fixedDelayMilliseconds") {
            None => None,
            Some(ms) => match ms.as_u64() {
                Some(ms) => Some(Duration::from_millis(ms)),
                None => {
                    self.error(
                        &format!("{pointer}/fixedDelayMilliseconds"),
                        "must be a whole number of milliseconds".into(),
                    );
                    None
                }
            },
        };
        let fault = match map.get("fault") {
            None => None,
            Some(name) => {
                let fault = Fault::ALL
                    .into_iter()
                    .find(|f| name.as_str() == Some(f.name()));
                if fault.is_none() {
                    let names: Vec<&str> = Fault::ALL.iter().map(|f| f.name()).collect();
                    self.error(
                        &format!("{pointer}/fault"),
                        format!("must be one of {}", names.join(", ")),
                    );
                }
                fault
            }
        };
        let chosen = self.one_of(pointer, map, &BODY_KEYS);
        let body = match chosen {
            None => Vec::new(),
            // WireMock sends `jsonBody` without a `Content-Type` unless `headers` gives one.
            Some("jsonBody") => serde_json::to_vec(&map["jsonBody"]).unwrap_or_default(),
            Some(key) => {
                let at = format!("{pointer}/{key}");
                let Some(text) = map[key].as_str() else {
                    self.error(&at, "must be a string".into());
                    return None;
                };
                match key {
                    "body" => text.as_bytes().to_vec(),
                    "base64Body" => match base64::engine::general_purpose::STANDARD.decode(text) {
                        Ok(bytes) => bytes,
                        Err(error) => {
                            self.error(&at, format!("not base64: {error}"));
                            return None;
                        }
                    },
                    // WireMock refuses a file outside `__files/` (an absolute path) with
                    // a 500 when the stub answers.
                    _ if text.starts_with('/') => {
                        return Some(StubResponse {
                            status: 500,
                            headers: vec![(
                                "Content-Type".into(),
                                "text/plain; charset=utf-8".into(),
                            )],
                            body: format!(
                                "Access to file {text} is not permitted: a bodyFileName is relative to __files/"
                            )
                            .into_bytes(),
                            delay,
                            fault,
                        });
                    }
                    _ => {
                        let path = format!("__files/{text}");
                        match self.files.iter().find(|f| f.path == path) {
                            Some(file) => file.content.clone(),
                            None => {
                                self.missing_body_file(&at, &path);
                                return None;
                            }
                        }
                    }
                }
            }
        };
        Some(StubResponse {
            status,
            headers,
            body,
            delay,
            fault,
        })
    }
}
