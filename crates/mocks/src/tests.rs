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
    let url = Url::parse(url).expect("url");
    let request = MockRequest {
        method,
        url: &url,
        headers: headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
    };
    match set.find(&request) {
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
            body: b"gone".to_vec()
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
    let cases: [Case; 17] = [
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
                r#"{"request": {"urlPath": "/a", "url": "/a", "bodyPatterns": []},
                    "response": {"status": 700, "fixedDelayMilliseconds": 5, "bodyFileName": "nope.html"}}"#,
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
            "bad.json: /request/bodyPatterns",
            "bad.json: /request",
            "bad.json: /response/fixedDelayMilliseconds",
            "bad.json: /response/status",
            "bad.json: /response/bodyFileName",
            "broken.json: /",
            "regex.json: /request/urlPathPattern",
        ]
    );
    assert!(errors[0].to_string().starts_with(
        "sites/acme/web/mocks/mappings/bad.json: /request/bodyPatterns: `bodyPatterns` is not supported"
    ));
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
