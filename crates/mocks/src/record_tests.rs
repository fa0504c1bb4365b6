use serde_json::{Value, json};
use url::Url;

use super::*;
use crate::{MockRequest, MockSet, Scenarios};

fn exchange(url: &str, request_headers: &[(&str, &str)], status: u16, body: &str) -> Exchange {
    Exchange {
        url: Url::parse(url).expect("url"),
        request_headers: pairs(request_headers),
        status,
        response_headers: pairs(&[
            ("content-type", "text/html; charset=utf-8"),
            ("x-html2md-img-src", "https://media.test"),
            ("set-cookie", "session=s3cr3t"),
            ("server", "cms/1.0"),
        ]),
        body: body.as_bytes().to_vec(),
    }
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

fn mapping(mock: &RecordedMock) -> Value {
    serde_json::from_slice(&mock.mapping.content).expect("mapping is JSON")
}

/// The files of `mocks`, parsed back as siteops (and WireMock) read them.
fn replayed(mocks: &[RecordedMock]) -> MockSet {
    let files: Vec<MockFile> = mocks
        .iter()
        .flat_map(|m| std::iter::once(m.mapping.clone()).chain(m.body.clone()))
        .collect();
    MockSet::from_files("mocks", &files).unwrap_or_else(|e| panic!("{e:?}"))
}

/// The name of the stub answering `url` with `headers`, or the no-match message.
fn answer(set: &MockSet, url: &str, headers: &[(&str, &str)]) -> String {
    let url = Url::parse(url).expect("url");
    let request = MockRequest {
        method: "GET",
        url: &url,
        headers: pairs(headers),
        body: &[],
    };
    match set.find(&request, &Scenarios::default()) {
        Ok(stub) => stub.name.clone(),
        Err(miss) => miss.to_string(),
    }
}

#[test]
fn a_page_becomes_a_mapping_and_a_body_file() {
    let mocks = recorded_mocks(&[exchange(
        "http://cms.test:8080/delivery/web/about.html?tenant=acme",
        &[
            ("authorization", "token abc"),
            ("x-content-source-location", "/about"),
        ],
        200,
        "<main>Hi</main>",
    )]);
    assert_eq!(mocks.len(), 1);
    let mock = &mocks[0];
    assert_eq!(
        mock.request,
        "GET cms.test/delivery/web/about.html?tenant=acme"
    );
    let slug = "cms.test_delivery_web_about-";
    assert!(mock.mapping.path.starts_with(&format!("mappings/{slug}")));
    assert!(mock.mapping.path.ends_with(".json"));
    let body = mock.body.as_ref().expect("a body file");
    let body_name = body.path.trim_start_matches("__files/");
    assert_eq!(
        body.path.trim_end_matches(".html"),
        mock.mapping
            .path
            .replace("mappings/", "__files/")
            .trim_end_matches(".json")
    );
    assert_eq!(body.content, b"<main>Hi</main>");
    assert_eq!(
        mapping(mock),
        json!({
            "name": "cms.test/delivery/web/about.html?tenant=acme",
            "request": {
                "method": "GET",
                "host": {"equalTo": "cms.test"},
                "url": "/delivery/web/about.html?tenant=acme"
            },
            "response": {
                "status": 200,
                "headers": {
                    "content-type": "text/html; charset=utf-8",
                    "x-html2md-img-src": "https://media.test"
                },
                "bodyFileName": body_name
            }
        })
    );
    let set = replayed(&mocks);
    let name = "cms.test/delivery/web/about.html?tenant=acme";
    for (url, headers) in [
        (
            "https://cms.test/delivery/web/about.html?tenant=acme",
            &[][..],
        ),
        (
            "http://cms.test:9/delivery/web/about.html?tenant=acme",
            &[("authorization", "token other")][..],
        ),
    ] {
        assert_eq!(answer(&set, url, headers), name, "{url}");
    }
    assert!(answer(&set, "https://cms.test/delivery/web/about.html", &[]).starts_with("no mock"));
    assert!(
        answer(
            &set,
            "https://other.test/delivery/web/about.html?tenant=acme",
            &[]
        )
        .starts_with("no mock")
    );
    let stub = &set.stubs()[0];
    assert_eq!(stub.response.body, b"<main>Hi</main>");
    assert_eq!(stub.response.status, 200);
}

#[test]
fn credentials_are_never_written_and_content_headers_are_matched() {
    let secrets = ["token abc", "k-123", "t-456", "sig-789", "s3cr3t"];
    let mocks = recorded_mocks(&[exchange(
        "https://api.test/products/1.json?access_token=t-456&lang=de&X-Amz-Signature=sig-789",
        &[
            ("Authorization", "token abc"),
            ("x-api-key", "k-123"),
            ("cookie", "session=s3cr3t"),
            ("x-api-version", "2"),
        ],
        200,
        "{}",
    )]);
    for mock in &mocks {
        for file in std::iter::once(&mock.mapping).chain(&mock.body) {
            let text = String::from_utf8_lossy(&file.content);
            for secret in secrets {
                assert!(!text.contains(secret), "{}: {text}", file.path);
            }
            assert!(!file.path.contains("t-456"), "{}", file.path);
        }
    }
    assert_eq!(mocks[0].request, "GET api.test/products/1.json?lang=de");
    let written = mapping(&mocks[0]);
    assert_eq!(
        written["request"],
        json!({
            "method": "GET",
            "host": {"equalTo": "api.test"},
            "urlPath": "/products/1.json",
            "queryParameters": {"lang": {"equalTo": "de"}},
            "headers": {"x-api-version": {"equalTo": "2"}}
        })
    );
    let set = replayed(&mocks);
    let name = "api.test/products/1.json?lang=de";
    assert_eq!(
        answer(
            &set,
            "https://api.test/products/1.json?access_token=other&lang=de",
            &[("x-api-version", "2")]
        ),
        name
    );
    assert!(
        answer(
            &set,
            "https://api.test/products/1.json?lang=de",
            &[("x-api-version", "3")]
        )
        .contains("header x-api-version must equal \"2\""),
    );
}

#[test]
fn the_last_answer_to_a_request_wins_and_other_headers_make_other_stubs() {
    let url = "https://media.test/a.png";
    let mut failed = exchange(url, &[], 500, "oops");
    failed.response_headers = pairs(&[("content-type", "text/plain")]);
    let mut image = exchange(url, &[("authorization", "token a")], 200, "PNG");
    image.response_headers = pairs(&[("content-type", "image/png")]);
    let other_version = exchange(url, &[("x-api-version", "3")], 200, "v3");
    let mocks = recorded_mocks(&[failed, image, other_version]);
    assert_eq!(mocks.len(), 2, "{mocks:?}");
    let plain = mocks
        .iter()
        .find(|m| mapping(m)["request"].get("headers").is_none())
        .expect("the stub without headers");
    assert_eq!(plain.status, 200);
    assert_eq!(plain.content_type.as_deref(), Some("image/png"));
    let body = plain.body.as_ref().expect("body");
    assert!(body.path.ends_with(".png"), "{}", body.path);
    assert_eq!(body.content, b"PNG");
    // The same request recorded again gets the same files; a different one does not.
    let again = recorded_mocks(&[exchange(url, &[], 404, "")]);
    assert_eq!(again[0].mapping.path, plain.mapping.path);
    assert!(again[0].body.is_none());
    assert!(mapping(&again[0])["response"].get("bodyFileName").is_none());
    assert_ne!(mocks[0].mapping.path, mocks[1].mapping.path);
}

#[test]
fn slugs_are_readable_safe_and_bounded() {
    let cases = [
        (
            "cms.test",
            "/delivery/web/about.html",
            "cms.test_delivery_web_about",
        ),
        ("cms.test", "/", "cms.test"),
        (
            "api.test",
            "/v1/acme%20eu/stores/3F25",
            "api.test_v1_acme-20eu_stores_3F25",
        ),
        (
            "api.test",
            "/recipes/lemon-tart",
            "api.test_recipes_lemon-tart",
        ),
        ("[::2]", "/x.tar.gz", "2-_x.tar"),
    ];
    for (host, path, readable) in cases {
        let slug = slug(host, path, "id");
        let (got, hash) = slug.rsplit_once('-').expect("hash");
        assert_eq!(got, readable, "{host}{path}");
        assert_eq!(hash.len(), 8);
    }
    let long = format!("/{}", "segment/".repeat(40));
    let slug = slug("cms.test", &long, "id");
    assert!(slug.len() <= SLUG_LENGTH + 9, "{slug}");
    assert_ne!(super::slug("h", "/a", "one"), super::slug("h", "/a", "two"));
}

#[test]
fn body_extensions_follow_the_content_type() {
    for (content_type, extension) in [
        ("text/html; charset=utf-8", "html"),
        ("application/json", "json"),
        ("application/ld+json", "json"),
        ("image/jpeg", "jpg"),
        ("image/svg+xml", "svg"),
        ("image/x-unknown", "bin"),
        ("application/rss+xml", "xml"),
        ("text/plain", "txt"),
        ("", "bin"),
    ] {
        assert_eq!(body_extension(content_type), extension, "{content_type}");
    }
}

#[test]
fn credential_names() {
    for (name, credential) in [
        ("Authorization", true),
        ("Proxy-Authorization", true),
        ("x-api-key", true),
        ("access_token", true),
        ("Cookie", true),
        ("X-Amz-Signature", true),
        ("x-api-version", false),
        ("tenant", false),
        ("lang", false),
    ] {
        assert_eq!(is_credential(name), credential, "{name}");
    }
}

/// Found by the `wiremock_stubs` fuzz target: a URL without a host was recorded with
/// `host` `equalTo ""`, which its own request never matched again.
#[test]
fn a_url_without_a_host_replays() {
    let mocks = recorded_mocks(&[exchange(
        "httqs:/'content.example/index.html",
        &[],
        200,
        "x",
    )]);
    assert!(mapping(&mocks[0])["request"].get("host").is_none());
    let set = replayed(&mocks);
    let url = Url::parse("httqs:/'content.example/index.html").unwrap();
    let request = MockRequest {
        method: "GET",
        url: &url,
        headers: Vec::new(),
        body: &[],
    };
    let stub = set
        .find(&request, &Scenarios::default())
        .unwrap_or_else(|miss| panic!("{miss}"));
    assert_eq!(stub.response.body, b"x");
}
