//! The delivery against the reference's answers: each directory of
//! `tests/fixtures/delivery/` is a request (`case.json`: the URL, the pipeline's
//! configuration, what the content and code buses hold) and the answer
//! `@adobe/helix-html-pipeline` gave it (`reference.json`, written by `reference.mjs` there
//! from `../shared/anchors`). Checked without node: the answers are stored.
//!
//! Compared: the status, the body byte for byte, and every header but `x-surrogate-key`
//! (the platform's CDN purge keys, which siteops has no CDN for). A case with a
//! `known-difference` file is an open difference: skipped, and it must be listed, by name,
//! in `docs/src/fidelity.md`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use siteops_delivery::{
    Bus, BusObject, Buses, DeliveryRequest, Fetched, Partition, PipelineConfig, Response,
};

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/delivery");

/// The nonce the reference's answers carry (the pipeline tests' mocked randomness).
pub(crate) const REFERENCE_NONCE: &str = "ckE0bmQwbW1tckE0bmQwbW1t";

/// Headers not compared: the CDN's purge keys.
const NOT_COMPARED: &[&str] = &["x-surrogate-key"];

#[derive(Deserialize)]
struct Case {
    url: String,
    #[serde(default)]
    partition: Option<String>,
    #[serde(default)]
    pipe: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(default = "empty_object")]
    config: Value,
    #[serde(default)]
    content: BTreeMap<String, Value>,
    #[serde(default)]
    code: BTreeMap<String, Value>,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

#[derive(Deserialize, Debug, PartialEq)]
struct Answer {
    status: u16,
    headers: BTreeMap<String, String>,
    body: String,
}

/// The buses of a case: what `content` and `code` hold, as `reference.mjs` serves them.
struct CaseBuses<'a>(&'a Case);

impl Buses for CaseBuses<'_> {
    async fn get(&self, bus: Bus, path: &str) -> Fetched {
        let entries = match bus {
            Bus::Content => &self.0.content,
            Bus::Code => &self.0.code,
        };
        match entries.get(path) {
            Some(entry) => Fetched::Found(bus_object(entry)),
            None => Fetched::NotFound,
        }
    }
}

/// An entry: a string body, `{"body", "redirect", "lastModified"}`, or a JSON value (a
/// sheet), serialised as JavaScript's `JSON.stringify` does.
fn bus_object(entry: &Value) -> BusObject {
    let explicit = entry.as_object().filter(|o| {
        o.get("body").is_some_and(Value::is_string)
            || o.contains_key("redirect")
            || o.contains_key("lastModified")
    });
    match (entry, explicit) {
        (Value::String(body), _) => BusObject {
            body: body.clone().into_bytes(),
            ..BusObject::default()
        },
        (_, Some(o)) => BusObject {
            body: o
                .get("body")
                .and_then(Value::as_str)
                .unwrap_or("")
                .as_bytes()
                .to_vec(),
            redirect_location: o.get("redirect").and_then(Value::as_str).map(str::to_owned),
            last_modified: o
                .get("lastModified")
                .and_then(Value::as_str)
                .map(str::to_owned),
        },
        (value, None) => BusObject {
            body: serde_json::to_vec(value).expect("JSON serialises"),
            ..BusObject::default()
        },
    }
}

/// siteops's answer to a case.
fn deliver(case: &Case) -> Response {
    let config = PipelineConfig::from_json(&case.config.to_string()).expect("the case's config");
    let request = DeliveryRequest {
        url: url::Url::parse(&case.url).expect("the case's URL"),
        partition: match case.partition.as_deref() {
            Some("preview") => Partition::Preview,
            _ => Partition::Live,
        },
        origin: case.headers.get("origin").cloned(),
        forwarded_host: case.headers.get("x-forwarded-host").cloned(),
        nonce: REFERENCE_NONCE.to_owned(),
    };
    let buses = CaseBuses(case);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        match case.pipe.as_deref().unwrap_or("html") {
            "html" => siteops_delivery::html_pipe(&request, &config, &buses).await,
            "json" => siteops_delivery::json_pipe(&request, &config, &buses).await,
            "robots" => siteops_delivery::robots_pipe(&request, &config, &buses).await,
            "sitemap" => siteops_delivery::sitemap_pipe(&request, &config, &buses).await,
            other => panic!("unknown pipe {other}"),
        }
    })
}

fn compared(headers: impl IntoIterator<Item = (String, String)>) -> BTreeMap<String, String> {
    headers
        .into_iter()
        .filter(|(name, _)| !NOT_COMPARED.contains(&name.as_str()))
        .collect()
}

#[test]
fn the_delivery_answers_as_the_reference() {
    let mut names: Vec<String> = std::fs::read_dir(CASES)
        .unwrap()
        .filter_map(|e| {
            let e = e.ok()?;
            e.file_type()
                .ok()?
                .is_dir()
                .then(|| e.file_name().into_string().ok())?
        })
        .collect();
    names.sort();
    assert!(names.len() >= 3, "too few cases in {CASES}");
    let fidelity =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/fidelity.md"))
            .unwrap();
    let mut failures = Vec::new();
    for name in &names {
        let dir = Path::new(CASES).join(name);
        if dir.join("known-difference").exists() {
            assert!(
                fidelity.contains(&format!("### `{name}`")),
                "open difference {name} is not listed in docs/src/fidelity.md"
            );
            continue;
        }
        let read = |file: &str| {
            std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{name}/{file}: {e}"))
        };
        let case: Case = serde_json::from_str(&read("case.json")).unwrap();
        let mut want: Answer = serde_json::from_str(&read("reference.json")).unwrap();
        want.headers = compared(want.headers);
        let got = deliver(&case);
        let got = Answer {
            status: got.status,
            headers: compared(got.headers),
            body: String::from_utf8_lossy(&got.body).into_owned(),
        };
        if got != want {
            failures.push(format!(
                "{name}:\n  reference: {} {:?}\n  siteops:   {} {:?}\n  body equal: {}{}",
                want.status,
                want.headers,
                got.status,
                got.headers,
                got.body == want.body,
                first_difference(&want.body, &got.body),
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from the reference:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}

/// Where two bodies first differ, with a little context.
fn first_difference(want: &str, got: &str) -> String {
    let at = want
        .char_indices()
        .zip(got.chars())
        .find(|((_, a), b)| a != b)
        .map_or(want.len().min(got.len()), |((i, _), _)| i);
    if want == got {
        return String::new();
    }
    let clip = |s: &str| {
        // Char boundaries at or before the start, at or after the end.
        let mut start = at.saturating_sub(60).min(s.len());
        while !s.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (at + 60).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        s[start..end].to_owned()
    };
    format!(
        "\n  at byte {at}: reference …{:?}…\n               siteops …{:?}…",
        clip(want),
        clip(got)
    )
}
