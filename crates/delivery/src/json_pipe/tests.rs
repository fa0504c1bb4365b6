//! The json pipe against the reference's answers (`reference_cases.json`: each case's
//! request, configuration and buses, and what `jsonPipe` of helix-html-pipeline 6.32.3
//! answered to it), and the behaviours the brief names one by one.

use serde_json::{Value, json};

use super::*;
use crate::pipe_support::memory::{MemoryBuses, blocking, check_cases};

fn run(request: &DeliveryRequest, config: &PipelineConfig, buses: &impl Buses) -> Response {
    blocking(json_pipe(request, config, buses))
}

#[test]
fn answers_as_the_reference_answers() {
    check_cases(include_str!("reference_cases.json"), run);
}

/// A sheet of `rows` rows `{"n": i}` at `/big.json`, answered for `query`.
fn big_sheet(rows: usize, query: &str) -> Value {
    let data: Vec<Value> = (0..rows).map(|n| json!({ "n": n })).collect();
    let sheet =
        json!({ "total": rows, "offset": 0, "limit": rows, "data": data, ":type": "sheet" });
    let mut buses = MemoryBuses::default();
    buses.objects.push((
        Bus::Content,
        "/big.json".into(),
        Fetched::Found(crate::bus::BusObject {
            body: sheet.to_string().into_bytes(),
            ..Default::default()
        }),
    ));
    let request = DeliveryRequest {
        url: url::Url::parse(&format!("https://h/big.json{query}")).unwrap(),
        partition: crate::Partition::Live,
        origin: None,
        forwarded_host: None,
        nonce: String::new(),
    };
    let response = run(&request, &PipelineConfig::default(), &buses);
    assert_eq!(response.status, 200);
    serde_json::from_slice(&response.body).unwrap()
}

#[test]
fn a_filtered_sheet_gives_a_thousand_rows_by_default() {
    let answer = big_sheet(1200, "?offset=0");
    assert_eq!(answer["total"], 1200);
    assert_eq!(answer["limit"], 1000);
    assert_eq!(answer["data"].as_array().unwrap().len(), 1000);
    assert_eq!(answer["data"][999], json!({ "n": 999 }));
}

#[test]
fn offset_and_a_huge_limit_slice_what_is_there() {
    let answer = big_sheet(1200, "?offset=1100&limit=1000000000");
    assert_eq!(answer["offset"], 1100);
    assert_eq!(answer["limit"], 100);
    assert_eq!(answer["data"][0], json!({ "n": 1100 }));
}

#[test]
fn a_stored_sheet_without_parameters_is_its_stored_bytes() {
    let answer = big_sheet(1200, "");
    assert_eq!(answer["limit"], 1200);
}

#[test]
fn content_that_is_not_json_is_a_502_once_filtered() {
    let cases = r#"[{"name": "not json", "url": "https://h/d.json?limit=1",
        "content": {"/d.json": "hello"},
        "expect": {"status": 502, "body": "", "headers": {
            "x-error": "failed to parse json: expected value at line 1 column 1"}}}]"#;
    // The reference's message is V8's: "Unexpected token 'h', "hello" is not valid JSON".
    check_cases(cases, run);
}

#[test]
fn path_info_reads_as_the_reference() {
    let info = path_info("/a/b.plain.json").unwrap();
    assert_eq!(
        (
            info.path.as_str(),
            info.resource_path.as_str(),
            info.extension.as_str()
        ),
        ("/a/b.plain.json", "/a/b.plain.json", ".json")
    );
    let info = path_info("/a/").unwrap();
    assert_eq!(
        (
            info.path.as_str(),
            info.resource_path.as_str(),
            info.extension.as_str()
        ),
        ("/a/", "/a/index.md", ".html")
    );
    let info = path_info("/generic").unwrap();
    assert_eq!(
        (info.path.as_str(), info.resource_path.as_str()),
        ("/generic", "/generic.md")
    );
    assert_eq!(path_info("/a//b.json"), None);
    assert_eq!(path_info("/a/../b.json"), None);
}
