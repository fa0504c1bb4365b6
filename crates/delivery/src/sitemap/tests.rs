//! The sitemap pipes against the reference's answers (`reference_cases.json`: each
//! case's request, configuration and buses, and what `sitemapPipe` or
//! `sitemapIndexPipe` of helix-html-pipeline 6.32.3 answered to it).

use super::*;
use crate::pipe_support::memory::{blocking, check_cases};

#[test]
fn answers_as_the_reference_answers() {
    check_cases(include_str!("reference_cases.json"), |r, c, b| {
        blocking(sitemap_pipe(r, c, b))
    });
}

#[test]
fn a_sitemap_names_each_row_of_sitemap_json() {
    let xml = generate_sitemap(
        br#"{"data":[{"path":"/a<b>","lastModified":"1619754438"},{"path":"/c"}]}"#,
        "www.site.com",
    )
    .ok()
    .unwrap();
    assert_eq!(
        xml,
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n\
         \x20 <url>\n    <loc>https://www.site.com/a&lt;b&gt;</loc>\n    <lastmod>2021-04-30</lastmod>\n  </url>\n\
         \x20 <url>\n    <loc>https://www.site.com/c</loc>\n    <lastmod>1970-01-01</lastmod>\n  </url>\n\
         </urlset>\n"
    );
}

#[test]
fn without_the_sites_names_the_default_host_is_the_requests() {
    let request = DeliveryRequest {
        url: url::Url::parse("http://main--site--org.localhost:3000/sitemap.xml").unwrap(),
        partition: crate::Partition::Preview,
        origin: None,
        forwarded_host: None,
        nonce: String::new(),
    };
    let config = PipelineConfig::default();
    let host = Hosts::new(&config, &request).sitemap_host(&config, &request);
    assert_eq!(host, "main--site--org.localhost:3000");
}

#[test]
fn a_sitemap_stops_at_its_cap() {
    // 20,000 rows of a few bytes, on a host as long as a request header may make it.
    let rows = vec!["{}"; 20_000].join(",");
    let json = format!(r#"{{"data":[{rows}]}}"#);
    let host = "h".repeat(4_000);
    let failure = generate_sitemap(json.as_bytes(), &host).err().unwrap();
    assert_eq!(failure.status, 500);
    assert_eq!(
        failure.message,
        format!("sitemap exceeds {MAX_SITEMAP_BYTES} bytes")
    );
}
