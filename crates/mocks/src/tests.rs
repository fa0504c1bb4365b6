use url::Url;

use super::*;

/// Method, URL and headers of a request.
type Request<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

fn file(path: &str, content: &str) -> MockFile {
    MockFile {
        path: path.into(),
        content: content.as_bytes().to_vec(),
    }
}

fn set(files: &[MockFile]) -> MockSet {
    MockSet::from_files("mocks", files).unwrap_or_else(|e| panic!("{e:?}"))
}

/// The name of the stub answering `method url` with `headers`, or the no-match message.
fn answer(set: &MockSet, method: &str, url: &str, headers: &[(&str, &str)]) -> String {
    serve(set, &mut Scenarios::default(), method, url, headers, "")
}

/// [`answer`] with a body, moving `scenarios` on.
fn serve(
    set: &MockSet,
    scenarios: &mut Scenarios,
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> String {
    let url = Url::parse(url).expect("url");
    let request = MockRequest {
        method,
        url: &url,
        headers: headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        body: body.as_bytes(),
    };
    match set.answer(&request, scenarios) {
        Ok(stub) => stub.name.clone(),
        Err(miss) => miss.to_string(),
    }
}

#[test]
fn each_request_field_selects_a_stub() {
    let mocks = set(&[file(
        "mappings/all.json",
        r#"{"mappings": [
            {"name": "exact-url", "request": {"method": "GET", "url": "/a?x=1"}, "response": {"status": 200}},
            {"name": "path", "request": {"method": "GET", "urlPath": "/b"}, "response": {"status": 200}},
            {"name": "url-pattern", "request": {"urlPattern": "/c/[0-9]+\\?.*"}, "response": {"status": 200}},
            {"name": "path-pattern", "request": {"urlPathPattern": "/d/[a-z]+"}, "response": {"status": 200}},
            {"name": "post", "request": {"method": "POST", "urlPath": "/e"}, "response": {"status": 201}},
            {"name": "host", "request": {"urlPath": "/f", "host": {"equalTo": "api.example.com"}}, "response": {"status": 200}},
            {"name": "header", "request": {"urlPath": "/g", "headers": {"Authorization": {"equalTo": "token t"}}}, "response": {"status": 200}},
            {"name": "no-header", "request": {"urlPath": "/g", "headers": {"Authorization": {"absent": true}}}, "response": {"status": 401}},
            {"name": "query", "request": {"urlPath": "/h", "queryParameters": {"market": {"matches": "c[hz]"}}}, "response": {"status": 200}},
            {"name": "contains", "request": {"urlPath": "/i", "headers": {"accept": {"contains": "json"}}}, "response": {"status": 200}},
            {"name": "case", "request": {"urlPath": "/j", "headers": {"x-tenant": {"equalTo": "ACME", "caseInsensitive": true}}}, "response": {"status": 200}}
        ]}"#,
    )]);
    let cases: &[(Request<'_>, &str)] = &[
        (("GET", "https://x.test/a?x=1", &[]), "exact-url"),
        (("GET", "https://x.test/b?anything=2", &[]), "path"),
        (("DELETE", "https://x.test/c/42?q", &[]), "url-pattern"),
        (("GET", "https://x.test/d/abc", &[]), "path-pattern"),
        (("POST", "https://x.test/e", &[]), "post"),
        (("GET", "https://api.example.com/f", &[]), "host"),
        (
            ("GET", "https://x.test/g", &[("authorization", "token t")]),
            "header",
        ),
        (("GET", "https://x.test/g", &[]), "no-header"),
        (("GET", "https://x.test/h?market=cz", &[]), "query"),
        (
            ("GET", "https://x.test/i", &[("Accept", "application/json")]),
            "contains",
        ),
        (("GET", "https://x.test/j", &[("X-Tenant", "acme")]), "case"),
    ];
    for ((method, url, headers), expected) in cases {
        assert_eq!(
            answer(&mocks, method, url, headers),
            *expected,
            "{method} {url}"
        );
    }
    // And each field refuses what it does not match.
    let misses: &[Request<'_>] = &[
        ("GET", "https://x.test/a?x=2", &[]),
        ("GET", "https://x.test/c/x?q", &[]),
        ("GET", "https://x.test/d/ABC", &[]),
        ("GET", "https://x.test/e", &[]),
        ("GET", "https://other.example.com/f", &[]),
        (
            "GET",
            "https://x.test/g",
            &[("authorization", "token other")],
        ),
        ("GET", "https://x.test/h?market=de", &[]),
        ("GET", "https://x.test/i", &[("Accept", "text/html")]),
    ];
    for (method, url, headers) in misses {
        let message = answer(&mocks, method, url, headers);
        assert!(message.starts_with("no mock matches"), "{url}: {message}");
    }
}

#[test]
fn no_match_names_the_url_and_the_closest_mocks() {
    let mocks = set(&[
        file(
            "mappings/product.json",
            r#"{"request": {"method": "GET", "url": "/products/1234.json", "host": {"equalTo": "api.acme.example"}}, "response": {"jsonBody": {}}}"#,
        ),
        file(
            "mappings/team.json",
            r#"{"request": {"method": "GET", "url": "/team.json"}, "response": {"jsonBody": []}}"#,
        ),
    ]);
    assert_eq!(
        answer(
            &mocks,
            "GET",
            "https://api.acme.example/products/1235.json",
            &[]
        ),
        "no mock matches GET https://api.acme.example/products/1235.json; closest: \
         `product` (mocks/mappings/product.json): url is /products/1234.json; \
         `team` (mocks/mappings/team.json): url is /team.json;"
    );
    assert_eq!(
        answer(&MockSet::default(), "GET", "https://a.test/", &[]),
        "no mock matches GET https://a.test/ (there are no mocks)"
    );
}

#[test]
fn responses_take_every_body_form() {
    let mocks = set(&[
        file(
            "mappings/bodies.json",
            r#"[
                {"name": "text", "request": {"urlPath": "/t"}, "response": {"status": 404, "body": "gone", "headers": {"x-error": "missing"}}},
                {"name": "json", "request": {"urlPath": "/j"}, "response": {"jsonBody": {"a": [1]}}},
                {"name": "base64", "request": {"urlPath": "/b"}, "response": {"base64Body": "aGk="}},
                {"name": "file", "request": {"urlPath": "/f"}, "response": {"bodyFileName": "pages/index.html", "headers": {"Content-Type": "text/html"}}}
            ]"#,
        ),
        file("__files/pages/index.html", "<main></main>"),
    ]);
    let by_name = |name: &str| {
        mocks
            .stubs()
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.response.clone())
            .expect("stub")
    };
    assert_eq!(
        by_name("text"),
        StubResponse {
            status: 404,
            headers: vec![("x-error".into(), "missing".into())],
            body: b"gone".to_vec(),
            delay: None,
            fault: None,
        }
    );
    let json = by_name("json");
    assert_eq!(json.body, br#"{"a":[1]}"#);
    assert!(
        json.headers.is_empty(),
        "WireMock adds no Content-Type to jsonBody"
    );
    assert_eq!(by_name("base64").body, b"hi");
    assert_eq!(by_name("file").body, b"<main></main>");
}

#[test]
fn priority_then_file_order_decides_and_layers_come_first() {
    let base = set(&[
        file(
            "mappings/a.json",
            r#"{"name": "a", "request": {"urlPath": "/p"}, "response": {}}"#,
        ),
        file(
            "mappings/b.json",
            r#"{"name": "b", "request": {"urlPath": "/p"}, "response": {}, "priority": 1}"#,
        ),
    ]);
    assert_eq!(answer(&base, "GET", "https://x.test/p", &[]), "b");
    // Without a priority a stub has WireMock's default, 5: a catch-all of 10 comes after.
    let catch_all = set(&[
        file(
            "mappings/all.json",
            r#"{"name": "all", "request": {"urlPathPattern": ".*"}, "response": {}, "priority": 10}"#,
        ),
        file(
            "mappings/p.json",
            r#"{"name": "p", "request": {"urlPath": "/p"}, "response": {}}"#,
        ),
    ]);
    assert_eq!(answer(&catch_all, "GET", "https://x.test/p", &[]), "p");
    assert_eq!(answer(&catch_all, "GET", "https://x.test/q", &[]), "all");
    let mut layered = set(&[file(
        "mappings/a.json",
        r#"{"name": "a", "request": {"urlPath": "/p"}, "response": {}}"#,
    )]);
    layered.layer(set(&[file(
        "mappings/extra.json",
        r#"{"name": "extra", "request": {"urlPath": "/p"}, "response": {}}"#,
    )]));
    assert_eq!(answer(&layered, "GET", "https://x.test/p", &[]), "extra");
}

/// Where two stubs of equal priority both match, WireMock answers with the one added
/// last: the later stub of a file, the stub of the file loaded later.
#[test]
fn the_stub_loaded_last_wins_a_tie_as_in_wiremock() {
    let mocks = set(&[
        file(
            "mappings/a.json",
            r#"{"name": "a", "request": {"urlPath": "/two"}, "response": {}}"#,
        ),
        file(
            "mappings/b.json",
            r#"{"mappings": [
                {"name": "b-first", "request": {"urlPath": "/one"}, "response": {}},
                {"name": "b-second", "request": {"urlPath": "/one"}, "response": {}},
                {"name": "b", "request": {"urlPath": "/two"}, "response": {}}
            ]}"#,
        ),
        file(
            "mappings/c.json",
            r#"{"name": "c", "request": {"urlPath": "/two"}, "response": {}, "insertionIndex": 3}"#,
        ),
    ]);
    assert_eq!(answer(&mocks, "GET", "https://x.test/one", &[]), "b-second");
    assert_eq!(answer(&mocks, "GET", "https://x.test/two", &[]), "c");
}

/// Matchers as WireMock applies them: the method's case counts, `doesNotMatch` passes an
/// absent field, `hasExactly` wants as many values as matchers and each matcher passed by
/// some value, `includes` each matcher passed by some value, and a body file outside
/// `__files/` answers 500.
#[test]
fn matchers_follow_wiremock() {
    let mocks = set(&[file(
        "mappings/m.json",
        r#"{"mappings": [
            {"name": "lower", "request": {"method": "get", "urlPath": "/lower"}, "response": {}},
            {"name": "dnm", "request": {"urlPath": "/h", "headers": {"X-A": {"doesNotMatch": "z.*"}}}, "response": {}},
            {"name": "qdnm", "request": {"urlPath": "/d", "queryParameters": {"x": {"doesNotMatch": "1"}}}, "response": {}},
            {"name": "exact", "request": {"urlPath": "/q", "queryParameters": {"x": {"hasExactly": [{"equalTo": "1"}, {"matches": "[0-9]"}]}}}, "response": {}},
            {"name": "incl", "request": {"urlPath": "/i", "queryParameters": {"x": {"includes": [{"equalTo": "1"}]}}}, "response": {}},
            {"name": "abs", "request": {"urlPath": "/abs"}, "response": {"bodyFileName": "/pages/j.txt"}},
            {"name": "ci", "request": {"urlPath": "/ci", "headers": {"X-A": {"equalTo": "v", "caseInsensitive": true}}}, "response": {}}
        ]}"#,
    )]);
    let none = "no match";
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case<'_>; 17] = [
        // With several values, the one closest to `v` (case counting) decides.
        ("https://x.test/ci", &[("x-a", "V")], "ci"),
        ("https://x.test/ci", &[("x-a", "V"), ("x-a", "vz")], none),
        ("https://x.test/ci", &[("x-a", "zz"), ("x-a", "V")], none),
        (
            "https://x.test/ci",
            &[("x-a", "V"), ("x-a", "zz"), ("x-a", "v")],
            "ci",
        ),
        ("https://x.test/lower", &[], none),
        ("https://x.test/h", &[], "dnm"),
        ("https://x.test/h", &[("x-a", "a")], "dnm"),
        ("https://x.test/h", &[("x-a", "zz")], none),
        ("https://x.test/d", &[], "qdnm"),
        ("https://x.test/d?x=2", &[], "qdnm"),
        ("https://x.test/d?x=1", &[], none),
        ("https://x.test/q?x=2&x=1", &[], "exact"),
        ("https://x.test/q?x=1", &[], none),
        ("https://x.test/q?x=1&x=2&x=3", &[], none),
        ("https://x.test/q?x=1&x=1", &[], "exact"),
        ("https://x.test/i?x=5&x=1", &[], "incl"),
        ("https://x.test/i?x=5", &[], none),
    ];
    for (url, headers, expected) in cases {
        let got = answer(&mocks, "GET", url, headers);
        let got = if got.starts_with("no mock") {
            none
        } else {
            got.as_str()
        };
        assert_eq!(got, expected, "{url} {headers:?}");
    }
    let abs = mocks.stubs().iter().find(|s| s.name == "abs").unwrap();
    assert_eq!(abs.response.status, 500);
}

#[test]
fn unsupported_or_broken_stubs_are_errors_naming_file_and_key() {
    let errors = MockSet::from_files(
        "sites/acme/web/mocks",
        &[
            file(
                "mappings/bad.json",
                r#"{"request": {"urlPath": "/a", "url": "/a", "cookies": {}},
                    "response": {"status": 700, "transformers": ["t"], "bodyFileName": "nope.html"}}"#,
            ),
            file(
                "mappings/new.json",
                r#"{"request": {"urlPath": "/a", "pathParameters": {"id": {"equalTo": "1"}},
                                "headers": {"x": {"and": [{"equalTo": "1"}]}, "y": {"not": {"equalTo": 1}}},
                                "bodyPatterns": [{"matchesJsonPath": "$.items.length()"}, {"equalToJson": "{"}]},
                    "response": {"fault": "TIMEOUT", "fixedDelayMilliseconds": -5}}"#,
            ),
            file(
                "mappings/template.json",
                r#"{"request": {"urlPathTemplate": "/c/{id}", "pathParameters": {"name": {"equalTo": "1"}}}, "response": {}}"#,
            ),
            file("mappings/broken.json", "{"),
            file("mappings/regex.json", r#"{"request": {"urlPathPattern": "(["}, "response": {}}"#),
        ],
    )
    .expect_err("invalid stubs");
    let lines: Vec<String> = errors
        .iter()
        .map(|e| {
            format!(
                "{}: {}",
                e.file.rsplit('/').next().unwrap_or_default(),
                e.pointer
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            "bad.json: /request/cookies",
            "bad.json: /request",
            "bad.json: /response/transformers",
            "bad.json: /response/status",
            "bad.json: /response/bodyFileName",
            "broken.json: ",
            "new.json: /request/headers/x/and",
            "new.json: /request/headers/y/not/equalTo",
            "new.json: /request/pathParameters",
            "new.json: /request/bodyPatterns/0/matchesJsonPath",
            "new.json: /request/bodyPatterns/1/equalToJson",
            "new.json: /response/fixedDelayMilliseconds",
            "new.json: /response/fault",
            "regex.json: /request/urlPathPattern",
            "template.json: /request/pathParameters/name",
        ]
    );
    assert_eq!(
        errors[0].to_string(),
        "sites/acme/web/mocks/mappings/bad.json:1:44: `cookies` is a WireMock feature that siteops mocks do not implement \
         (siteops takes `method`, `url`, `urlPath`, `urlPattern`, `urlPathPattern`, `urlPathTemplate`, \
         `pathParameters`, `host`, `headers`, `queryParameters`, `bodyPatterns` here)"
    );
    let messages: Vec<&str> = errors[6..].iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "must be an array of at least two matchers",
            "must be a string",
            "needs a urlPathTemplate to take its parameters from",
            "siteops cannot evaluate the JSON path \"$.items.length()\" (it takes RFC 9535 paths): \
             at position 14, parser error",
            "not JSON: EOF while parsing an object at line 1 column 1",
            "must be a whole number of milliseconds",
            "must be one of CONNECTION_RESET_BY_PEER, EMPTY_RESPONSE, MALFORMED_RESPONSE_CHUNK, \
             RANDOM_DATA_THEN_CLOSE",
            "invalid regex: unclosed character class",
            "the urlPathTemplate has no {name}",
        ]
    );
}

#[test]
fn the_example_site_mocks_parse() {
    fn read(dir: &std::path::Path, prefix: &str, files: &mut Vec<MockFile>) {
        for entry in std::fs::read_dir(dir).expect("mock directory") {
            let path = entry.expect("entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).expect("name");
            let relative = format!("{prefix}{name}");
            if path.is_dir() {
                read(&path, &format!("{relative}/"), files);
            } else {
                let content = std::fs::read(&path).expect("read");
                files.push(MockFile {
                    path: relative,
                    content,
                });
            }
        }
    }
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sites/acme/website/mocks");
    let mut files = Vec::new();
    read(&dir, "", &mut files);
    let mocks = set(&files);
    assert_eq!(
        answer(&mocks, "GET", "https://api.acme.example/team.json", &[]),
        "team"
    );
    assert_eq!(
        answer(
            &mocks,
            "GET",
            "https://cms.acme.example/delivery/website/index.html?tenant=acme",
            &[]
        ),
        "page-index"
    );
}

#[test]
fn logical_template_and_body_matchers() {
    let mocks = set(&[file(
        "mappings/new.json",
        r#"{"mappings": [
            {"name": "and", "request": {"urlPath": "/and", "headers": {"x": {"and": [{"contains": "a"}, {"contains": "b"}]}}}, "response": {}},
            {"name": "or", "request": {"urlPath": "/or", "queryParameters": {"q": {"or": [{"equalTo": "1"}, {"absent": true}]}}}, "response": {}},
            {"name": "not", "request": {"urlPath": "/not", "headers": {"x": {"not": {"matches": "[0-9]+"}}}}, "response": {}},
            {"name": "template", "request": {"urlPathTemplate": "/c/{id}/a/{kind}", "pathParameters": {"id": {"matches": "[0-9]+"}, "kind": {"equalTo": "home"}}}, "response": {}},
            {"name": "wildcard", "request": {"urlPathTemplate": "/w/**/end"}, "response": {}},
            {"name": "json", "request": {"method": "POST", "urlPath": "/j", "bodyPatterns": [{"equalToJson": {"a": 1, "b": ["x", "y"]}, "ignoreArrayOrder": true}]}, "response": {}},
            {"name": "extra", "request": {"method": "POST", "urlPath": "/e", "bodyPatterns": [{"equalToJson": "{\"a\": \"${json-unit.any-string}\"}", "ignoreExtraElements": true}]}, "response": {}},
            {"name": "path", "request": {"method": "POST", "urlPath": "/p", "bodyPatterns": [{"matchesJsonPath": "$.items[?(@.price > 10)]"}, {"matchesJsonPath": {"expression": "$.name", "contains": "kettle"}}]}, "response": {}},
            {"name": "text", "request": {"method": "POST", "urlPath": "/t", "bodyPatterns": [{"contains": "boil"}, {"doesNotMatch": ".*burn.*"}]}, "response": {}}
        ]}"#,
    )]);
    let mut scenarios = Scenarios::default();
    let mut ask = |method: &str, url: &str, headers: &[(&str, &str)], body: &str| {
        let answer = serve(&mocks, &mut scenarios, method, url, headers, body);
        if answer.starts_with("no mock") {
            "-".to_string()
        } else {
            answer
        }
    };
    /// Method, URL, headers, body, and the stub that answers (`-`: none).
    type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: &[Case<'_>] = &[
        ("GET", "https://x.test/and", &[("x", "ab")], "", "and"),
        ("GET", "https://x.test/and", &[("x", "a")], "", "-"),
        ("GET", "https://x.test/or?q=1", &[], "", "or"),
        ("GET", "https://x.test/or", &[], "", "or"),
        ("GET", "https://x.test/or?q=2", &[], "", "-"),
        ("GET", "https://x.test/not", &[("x", "a1")], "", "not"),
        ("GET", "https://x.test/not", &[("x", "12")], "", "-"),
        ("GET", "https://x.test/not", &[], "", "not"),
        ("GET", "https://x.test/c/12/a/home", &[], "", "template"),
        ("GET", "https://x.test/c/12/a/home?x=1", &[], "", "template"),
        (
            "GET",
            "https://x.test/c/12/a/home?x=/1",
            &[],
            "",
            "template",
        ),
        ("GET", "https://x.test/c/ab/a/home", &[], "", "-"),
        ("GET", "https://x.test/c/1/2/a/home", &[], "", "-"),
        ("GET", "https://x.test/w/a/b/end", &[], "", "wildcard"),
        ("GET", "https://x.test/w/end", &[], "", "-"),
        (
            "POST",
            "https://x.test/j",
            &[],
            r#"{"b": ["y", "x"], "a": 1.0}"#,
            "json",
        ),
        (
            "POST",
            "https://x.test/j",
            &[],
            r#"{"b": ["y", "x"], "a": 1, "c": 2}"#,
            "-",
        ),
        ("POST", "https://x.test/j", &[], "not json", "-"),
        (
            "POST",
            "https://x.test/e",
            &[],
            r#"{"a": "s", "c": 2}"#,
            "extra",
        ),
        ("POST", "https://x.test/e", &[], r#"{"a": 1}"#, "-"),
        (
            "POST",
            "https://x.test/p",
            &[],
            r#"{"name": "A kettle", "items": [{"price": 12}]}"#,
            "path",
        ),
        (
            "POST",
            "https://x.test/p",
            &[],
            r#"{"name": "A kettle", "items": [{"price": 8}]}"#,
            "-",
        ),
        ("POST", "https://x.test/t", &[], "we boil water", "text"),
        ("POST", "https://x.test/t", &[], "we boil and burn", "-"),
    ];
    for (method, url, headers, body, expected) in cases {
        assert_eq!(
            ask(method, url, headers, body),
            *expected,
            "{method} {url} {headers:?} {body}"
        );
    }
}

#[test]
fn scenarios_move_on_as_their_stubs_answer() {
    let mocks = set(&[file(
        "mappings/s.json",
        r#"{"mappings": [
            {"name": "first", "scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "two", "request": {"urlPath": "/a"}, "response": {}},
            {"name": "second", "scenarioName": "s", "requiredScenarioState": "two", "newScenarioState": "three", "request": {"urlPath": "/a"}, "response": {}},
            {"name": "last", "scenarioName": "s", "requiredScenarioState": "three", "request": {"urlPath": "/a"}, "response": {}},
            {"name": "reset", "scenarioName": "s", "newScenarioState": "Started", "request": {"urlPath": "/reset"}, "response": {}}
        ]}"#,
    )]);
    let mut scenarios = Scenarios::default();
    let mut names = Vec::new();
    for path in ["/a", "/a", "/a", "/a", "/reset", "/a"] {
        names.push(serve(
            &mocks,
            &mut scenarios,
            "GET",
            &format!("https://x.test{path}"),
            &[],
            "",
        ));
    }
    assert_eq!(names, ["first", "second", "last", "last", "reset", "first"]);
    // `find` alone moves nothing; a miss names the scenario's state.
    let mut stuck = Scenarios::default();
    let _ = serve(&mocks, &mut stuck, "GET", "https://x.test/a", &[], "");
    let url = Url::parse("https://x.test/a").unwrap();
    let request = MockRequest {
        method: "GET",
        url: &url,
        headers: Vec::new(),
        body: &[],
    };
    assert_eq!(mocks.find(&request, &stuck).unwrap().name, "second");
    assert_eq!(mocks.find(&request, &stuck).unwrap().name, "second");
}

#[test]
fn host_is_the_host_header_in_its_own_case() {
    let mocks = set(&[file(
        "mappings/h.json",
        r#"{"name": "host", "request": {"host": {"equalTo": "api.acme.example"}}, "response": {}}"#,
    )]);
    assert_eq!(
        answer(&mocks, "GET", "https://api.acme.example/", &[]),
        "host"
    );
    assert_eq!(
        answer(
            &mocks,
            "GET",
            "https://api.acme.example/",
            &[("Host", "api.acme.example:8443")]
        ),
        "host"
    );
    assert!(
        answer(
            &mocks,
            "GET",
            "https://api.acme.example/",
            &[("Host", "API.ACME.EXAMPLE")]
        )
        .starts_with("no mock matches")
    );
}

/// Issue 28: each problem of a mapping says its line and column and what kind it is; a
/// mistyped key says which was meant, a WireMock feature that it is one, a missing body
/// which file was perhaps meant.
#[test]
fn errors_are_located_and_suggest_the_key_or_file_meant() {
    let errors = MockSet::from_files(
        "sites/acme/web/mocks",
        &[
            file(
                "mappings/a.json",
                "{\n  \"request\": {\"urll\": \"/a\"},\n  \"response\": {\"status\": 200},\n}\n",
            ),
            file(
                "mappings/b.json",
                "{\n  \"request\": {\"urll\": \"/a\", \"headers\": {\"a/b\": {\"equalTo\": 1}}},\n  \"response\": {\"transformers\": [\"x\"], \"bodyFileName\": \"page.htm\"}\n}\n",
            ),
            file("__files/page.html", "<p>hi</p>"),
            file(
                "mappings/c.json",
                r#"{"request": {"bodyPatterns": [{"equalToXml": "<a/>"}, {"equalto": "x"}, {"caseInsensitive": true}]}, "response": {}}"#,
            ),
        ],
    )
    .expect_err("invalid stubs");
    let summary: Vec<(String, MockErrorKind, Option<&str>)> = errors[..5]
        .iter()
        .map(|e| (e.to_string(), e.kind, e.help.as_deref()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "sites/acme/web/mocks/mappings/a.json:3:30: not valid JSON: trailing comma \
                 (JSON has no comma after the last item of an object or array)"
                    .to_string(),
                MockErrorKind::Syntax,
                Some("JSON has no comma after the last item of an object or array"),
            ),
            (
                "sites/acme/web/mocks/mappings/b.json:2:15: unknown key `urll` (did you mean `url`?)"
                    .to_string(),
                MockErrorKind::UnknownKey,
                Some("did you mean `url`?"),
            ),
            (
                "sites/acme/web/mocks/mappings/b.json:2:60: must be a string".to_string(),
                MockErrorKind::Invalid,
                None,
            ),
            (
                "sites/acme/web/mocks/mappings/b.json:3:16: `transformers` is a WireMock feature that siteops mocks do not implement \
                 (siteops takes `status`, `statusMessage`, `headers`, `body`, `jsonBody`, `base64Body`, `bodyFileName`, `fixedDelayMilliseconds`, `fault` here)"
                    .to_string(),
                MockErrorKind::Unsupported,
                Some("siteops takes `status`, `statusMessage`, `headers`, `body`, `jsonBody`, `base64Body`, `bodyFileName`, `fixedDelayMilliseconds`, `fault` here"),
            ),
            (
                "sites/acme/web/mocks/mappings/b.json:3:55: there is no file sites/acme/web/mocks/__files/page.htm (did you mean `page.html`?)"
                    .to_string(),
                MockErrorKind::MissingBodyFile,
                Some("did you mean `page.html`?"),
            ),
        ]
    );
    assert_eq!(errors[2].pointer, "/request/headers/a~1b/equalTo");
    let matchers: Vec<(MockErrorKind, &str, Option<&str>)> = errors[5..]
        .iter()
        .map(|e| (e.kind, e.pointer.as_str(), e.help.as_deref()))
        .collect();
    assert_eq!(
        matchers,
        [
            (
                MockErrorKind::Unsupported,
                "/request/bodyPatterns/0/equalToXml",
                Some(
                    "siteops takes `equalTo`, `caseInsensitive`, `contains`, `matches`, `doesNotMatch`, `absent`, `and`, `or`, `not`, `equalToJson`, `ignoreArrayOrder`, `ignoreExtraElements`, `matchesJsonPath` here"
                )
            ),
            (
                MockErrorKind::UnknownKey,
                "/request/bodyPatterns/1/equalto",
                Some("did you mean `equalTo`?")
            ),
            (MockErrorKind::Invalid, "/request/bodyPatterns/2", None),
        ]
    );
    let text = "{\n  \"request\": {\"urll\": \"/a\"},\n  \"response\": {\"status\": 200},\n}\n";
    assert_eq!(text.as_bytes()[errors[0].span.start], b',');
}
