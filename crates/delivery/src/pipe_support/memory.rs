//! Buses held in memory, and a runner for the cases the reference answered, for the
//! pipes' tests.

use futures_executor::block_on;
use serde_json::Value;
use url::Url;

use crate::bus::{Bus, BusObject, Buses, Fetched};
use crate::config::PipelineConfig;
use crate::response::{DeliveryRequest, Partition, Response};

#[derive(Default)]
pub(crate) struct MemoryBuses {
    pub(crate) objects: Vec<(Bus, String, Fetched)>,
}

impl MemoryBuses {
    /// A bus entry as the cases write it: a body, `{"body", "redirect",
    /// "lastModified"}`, `{"status"}` for a failing read, or a sheet as JSON.
    fn put(&mut self, bus: Bus, path: &str, entry: &Value) {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
        let fetched = match entry {
            Value::String(body) => Fetched::Found(BusObject {
                body: body.as_bytes().to_vec(),
                ..BusObject::default()
            }),
            Value::Object(o) if o.contains_key("status") => {
                Fetched::Failed(o["status"].to_string())
            }
            Value::Object(o)
                if o.get("body").is_some_and(Value::is_string)
                    || o.contains_key("redirect")
                    || o.contains_key("lastModified") =>
            {
                Fetched::Found(BusObject {
                    body: text(o.get("body")).unwrap_or_default().into_bytes(),
                    redirect_location: text(o.get("redirect")),
                    last_modified: text(o.get("lastModified")),
                })
            }
            // A sheet written as JSON.
            other => Fetched::Found(BusObject {
                body: other.to_string().into_bytes(),
                ..BusObject::default()
            }),
        };
        self.objects.push((bus, path.to_owned(), fetched));
    }
}

impl Buses for MemoryBuses {
    async fn get(&self, bus: Bus, path: &str) -> Fetched {
        self.objects
            .iter()
            .find(|(b, p, _)| *b == bus && p == path)
            .map_or(Fetched::NotFound, |(_, _, f)| f.clone())
    }
}

/// Which pipe a case runs.
pub(crate) type Pipe = fn(&DeliveryRequest, &PipelineConfig, &MemoryBuses) -> Response;

/// Runs every case of `cases` (a JSON array: `name`, `url`, `partition`,
/// `forwardedHost`, `origin`, `config`, `content`, `code`, and `expect`: the
/// reference's `status`, `headers` and `body`) through `pipe`, comparing all three.
pub(crate) fn check_cases(cases: &str, pipe: Pipe) {
    let cases: Vec<Value> = serde_json::from_str(cases).unwrap();
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let text = |key: &str| case.get(key).and_then(Value::as_str).map(str::to_owned);
        let request = DeliveryRequest {
            url: Url::parse(case["url"].as_str().unwrap()).unwrap(),
            partition: match case.get("partition").and_then(Value::as_str) {
                Some("preview") => Partition::Preview,
                _ => Partition::Live,
            },
            origin: text("origin"),
            forwarded_host: text("forwardedHost"),
            nonce: String::new(),
        };
        let config = case
            .get("config")
            .map_or_else(String::new, Value::to_string);
        let config =
            PipelineConfig::from_json(if config.is_empty() { "{}" } else { &config }).unwrap();
        let mut buses = MemoryBuses::default();
        for (key, bus) in [("content", Bus::Content), ("code", Bus::Code)] {
            for (path, entry) in case
                .get(key)
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                buses.put(bus, path, entry);
            }
        }
        let response = pipe(&request, &config, &buses);
        let expect = &case["expect"];
        let headers: Vec<(String, String)> = expect["headers"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(n, v)| (n.clone(), v.as_str().unwrap().to_owned()))
            .collect();
        let mut got_headers = response.headers.clone();
        got_headers.sort();
        let body = String::from_utf8_lossy(&response.body);
        if response.status != expect["status"].as_u64().unwrap() as u16
            || got_headers != headers
            || body != expect["body"].as_str().unwrap()
        {
            failures.push(format!(
                "{name}:\n  got      {} {got_headers:?} {body:?}\n  expected {} {headers:?} {:?}",
                response.status, expect["status"], expect["body"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `pipe` run to completion: the buses answer at once.
pub(crate) fn blocking<F: std::future::Future<Output = Response>>(future: F) -> Response {
    block_on(future)
}
