//! The rendered preview page: `shared/conformance/html2md/roundtrip/NAME.input.html` goes
//! through ingestion and page rendering and must give `NAME.output.html` (the reference
//! renders from the stored markdown; the host name of its test setup is `undefined`). The
//! `-unspread` variants need list tightening, a per-site option of the hosted service that
//! siteops does not offer.

use siteops_ingest::render::{PageOptions, page_html};
use siteops_ingest::{IngestOptions, ingest};
use url::Url;

fn render(input: &str) -> String {
    let doc = ingest(input, &IngestOptions::default()).expect("the fixture ingests");
    let options = PageOptions {
        url: Url::parse("https://undefined/").unwrap(),
        head_html: None,
        delivery: Default::default(),
    };
    page_html(&doc.to_markdown(), &options)
}

#[test]
fn pages_render_as_the_reference() {
    let Some(roundtrip) = siteops_testkit::shared("conformance/html2md/roundtrip") else {
        return;
    };
    let mut names: Vec<String> = std::fs::read_dir(&roundtrip)
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".input.html").map(str::to_owned)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 9, "{names:?}");
    let mut failures = Vec::new();
    for name in &names {
        let input = std::fs::read_to_string(roundtrip.join(format!("{name}.input.html"))).unwrap();
        let expected =
            std::fs::read_to_string(roundtrip.join(format!("{name}.output.html"))).unwrap();
        let actual = render(&input);
        if actual.trim() != expected.trim() {
            failures.push(format!(
                "{name}:\n--- expected\n{}\n--- actual\n{}",
                expected.trim(),
                actual.trim()
            ));
        }
    }
    println!(
        "html2md roundtrip: {} of {} pages render exactly",
        names.len() - failures.len(),
        names.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
