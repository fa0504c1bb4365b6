//! Ingestion rules of the interface ("Markup page") and `siteops ingest`: spans, data
//! attributes and styles removed, icons, blocks and invalid block names, metadata from the
//! head and from a metadata block, the image hook, and the command's output.

use std::process::{Command, Output};

use siteops_ingest::render::plain_html;
use siteops_ingest::{IngestOptions, Warning, ingest};
use url::Url;

fn markdown(html: &str) -> String {
    ingest(html, &IngestOptions::default())
        .expect("ingests")
        .to_markdown()
}

fn page(body: &str) -> String {
    format!("<html><head><title>T</title></head><body><main><div>{body}</div></main></body></html>")
}

/// Converts each body and compares the markdown before the metadata table.
fn check(cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (body, expected) in cases {
        let md = markdown(&page(body));
        let content = md.split("+-").next().unwrap_or("").trim_end();
        if content != *expected {
            failures.push(format!(
                "{body}\n  expected: {expected:?}\n  actual:   {content:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn spans_data_attributes_and_styles_are_removed() {
    check(&[
        (
            r#"<p><span style="color:red">red</span> <span data-x="1">text</span></p>"#,
            "red text",
        ),
        (r#"<p data-track="x" style="margin:0">para</p>"#, "para"),
        (
            r#"<p>an <span class="icon icon-adobe"></span> icon</p>"#,
            "an :adobe: icon",
        ),
        (r#"<p><span class="icon">no name</span></p>"#, "no name"),
        (
            "<p>H<sub>2</sub>O, x<sup>2</sup>, <u>under</u></p>",
            "H<sub>2</sub>O, x<sup>2</sup>, <u>under</u>",
        ),
    ]);
}

#[test]
fn blocks_become_grid_tables() {
    let md = markdown(&page(
        r#"<div class="columns bleed dark-green"><div><div>a</div><div>b</div></div><div><div>c</div></div></div>"#,
    ));
    // As the reference lays it out (checked with @adobe/helix-html2md).
    let expected = "\
+-----------------------------+
| Columns (bleed, dark green) |
+--------------+--------------+
| a            | b            |
+--------------+--------------+
| c                           |
+-----------------------------+";
    assert!(md.starts_with(expected), "{md}");
}

#[test]
fn invalid_block_names_are_kept_with_a_warning() {
    let html = page(
        r#"<div class="hero_big"><div><div>x</div></div></div><div class="ok-name 2col"><div><div>y</div></div></div><div class="a--b"><div><div>z</div></div></div><div class="fine"><div><div>w</div></div></div>"#,
    );
    let doc = ingest(&html, &IngestOptions::default()).unwrap();
    assert_eq!(
        doc.warnings,
        vec![
            Warning::InvalidBlockClass {
                class: "hero_big".into(),
                section: 1
            },
            Warning::InvalidBlockClass {
                class: "2col".into(),
                section: 1
            },
            Warning::InvalidBlockClass {
                class: "a--b".into(),
                section: 1
            },
        ]
    );
    assert_eq!(doc.blocks().count(), 4, "invalid blocks are kept");
    let md = doc.to_markdown();
    assert!(md.contains("| Hero\\_big "), "{md}");
    assert!(md.contains("| Ok Name (2col) "), "{md}");
    assert_eq!(
        doc.warnings[0].to_string(),
        "block class name `hero_big` in section 1 is invalid: use letters, digits and single dashes, not starting with a digit"
    );
}

#[test]
fn metadata_comes_from_the_head_and_from_a_metadata_block() {
    let html = r#"<html lang="de"><head><title>Head title</title><meta name="description" content="From the head">
        <meta property="og:image" content="/og.png"><meta name="viewport" content="width=device-width"></head>
        <body><main><div><p>Text</p><div class="metadata"><div><div>Template</div><div>docs</div></div>
        <div><div>Tags</div><div><p>a</p><p>b</p></div></div></div></div></main></body></html>"#;
    let doc = ingest(html, &IngestOptions::default()).unwrap();
    let meta = doc.page_metadata();
    let get = |name: &str| {
        meta.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(get("title"), Some("Head title"));
    assert_eq!(get("description"), Some("From the head"));
    assert_eq!(get("og:image"), Some("/og.png"));
    assert_eq!(get("html-lang"), Some("de"));
    assert_eq!(
        get("viewport"),
        None,
        "the platform sets the viewport itself"
    );
    assert_eq!(get("template"), Some("docs"));
    assert_eq!(get("tags"), Some("a, b"));
    // The first metadata block becomes head tags and is not shown; as in the reference,
    // the head's own Metadata table (after it) then stays a visible block.
    let plain = plain_html(&doc.to_markdown());
    assert!(
        !plain.contains("docs"),
        "the metadata block is not shown: {plain}"
    );
    assert!(plain.contains("<p>Text</p>"), "{plain}");
}

#[test]
fn a_page_without_main_is_empty() {
    let doc = ingest(
        "<html><head><title>x</title></head><body><p>y</p></body></html>",
        &IngestOptions::default(),
    )
    .unwrap();
    assert!(!doc.has_main);
    assert_eq!(doc.to_markdown(), "");
}

#[test]
fn metadata_limit_is_configurable() {
    let title = "t".repeat(200);
    let html =
        format!("<html><head><title>{title}</title></head><body><main></main></body></html>");
    let small = IngestOptions {
        max_metadata_size: 100,
    };
    assert_eq!(
        ingest(&html, &small).unwrap_err().to_string(),
        "metadata size limit exceeded"
    );
    assert!(ingest(&html, &IngestOptions::default()).is_ok());
}

#[test]
fn image_hook_lists_resolves_and_rewrites() {
    let html = r#"<html><head><meta name="twitter:image" content="https://cdn.example/t.png"></head><body><main><div>
        <p><img src="pics/a.png"><img src="/b.png"><img src="about:blank"><img src="HTTPS://cdn.example/t.png"></p>
        </div></main></body></html>"#;
    let mut doc = ingest(html, &IngestOptions::default()).unwrap();
    let page = Url::parse("https://source.example/docs/page").unwrap();
    let urls: Vec<String> = doc
        .image_urls(&page)
        .into_iter()
        .map(|i| i.url.to_string())
        .collect();
    assert_eq!(
        urls,
        [
            "https://source.example/docs/pics/a.png",
            "https://source.example/b.png",
            "https://cdn.example/t.png"
        ]
    );
    doc.map_images(&page, |url| {
        if url.path() == "/b.png" {
            "about:error".into()
        } else {
            format!(
                "./media_{}.png",
                url.path().trim_start_matches('/').replace('/', "_")
            )
        }
    });
    let md = doc.to_markdown();
    assert!(md.contains("[image0]: ./media_docs_pics_a.png"), "{md}");
    assert!(md.contains("[image1]: about:error"), "{md}");
    assert!(md.contains("[image2]: about:blank"), "{md}");
    assert!(md.contains("[image3]: ./media_t.png"), "{md}");
    assert!(
        md.contains("[image4]: ./media_t.png"),
        "the head image has its own reference: {md}"
    );
}

fn siteops(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("siteops runs")
}

/// The reference converter's fixtures, read in place (skipped, with the reason, without).
fn fixtures() -> Option<String> {
    siteops_testkit::shared("conformance/html2md/fixtures").map(|dir| dir.display().to_string())
}

#[test]
fn ingest_command_prints_one_file() {
    let Some(fixtures) = fixtures() else {
        return;
    };
    let file = format!("{fixtures}/blocks-with-colspan.html");
    let output = siteops(&["ingest", &file]);
    assert_eq!(output.status.code(), Some(0));
    insta::assert_snapshot!("ingest-one-file", String::from_utf8_lossy(&output.stdout));
}

#[test]
fn ingest_command_writes_many_files_and_names_the_failing_one() {
    let Some(fixtures) = fixtures() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bad = dir.path().join("bad.html");
    std::fs::write(
        &bad,
        r#"<head><script type="application/ld+json">{nope</script></head><main></main>"#,
    )
    .unwrap();
    let warn = dir.path().join("warn.html");
    std::fs::write(
        &warn,
        r#"<main><div><div class="my_block"><div><div>x</div></div></div></div></main>"#,
    )
    .unwrap();
    let simple = format!("{fixtures}/simple.html");
    let output = siteops(&[
        "ingest",
        &simple,
        bad.to_str().unwrap(),
        warn.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr =
        String::from_utf8_lossy(&output.stderr).replace(&dir.path().display().to_string(), "[TMP]");
    insta::assert_snapshot!("ingest-many-files-stderr", stderr);
    let expected = std::fs::read_to_string(format!("{fixtures}/simple.md")).unwrap();
    assert_eq!(
        std::fs::read_to_string(out.join("simple.md"))
            .unwrap()
            .trim(),
        expected.trim()
    );
    assert!(out.join("warn.md").exists());
    assert!(
        !out.join("bad.md").exists(),
        "nothing is written for a failing file"
    );
}

#[test]
fn ingest_command_renders_the_preview_page() {
    let Some(fixtures) = fixtures() else {
        return;
    };
    let file = format!("{fixtures}/simple.html");
    let output = siteops(&[
        "ingest",
        &file,
        "--format",
        "html",
        "--url",
        "https://main--site--org.aem.page/simple",
    ]);
    assert_eq!(output.status.code(), Some(0));
    insta::assert_snapshot!("ingest-page-html", String::from_utf8_lossy(&output.stdout));
}

/// A preview refuses a page over 1 MiB; ingesting a larger one locally cost far more than
/// its size (55 MB: 22 s and 4.7 GB). The command takes the preview's limit unless raised.
#[test]
fn ingest_command_refuses_a_file_over_the_limit_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.html");
    let body = "<p>x</p>".repeat(1024 * 1024 / 8);
    std::fs::write(&big, format!("<main><div>{body}</div></main>")).unwrap();
    let output = siteops(&["ingest", big.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.replace(&dir.path().display().to_string(), "[TMP]"),
        "error: [TMP]/big.html: the file is larger than 1048576 bytes, the most a preview ingests; raise the limit with --max-input-size BYTES\n"
    );
    assert!(output.stdout.is_empty());
    let raised = siteops(&[
        "ingest",
        big.to_str().unwrap(),
        "--max-input-size",
        "2000000",
    ]);
    assert_eq!(
        raised.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&raised.stderr)
    );
    assert!(String::from_utf8_lossy(&raised.stdout).starts_with("x"));
}

/// Files are converted on several threads; what is written and reported does not depend
/// on how many, nor on which file finished first.
#[test]
fn ingest_command_output_does_not_depend_on_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..12 {
        let path = dir.path().join(format!("page-{i:02}.html"));
        // Every third page has a warning, every fifth is refused: the messages must
        // come in the files' order.
        let body = if i % 5 == 4 {
            format!(
                "<head><script type=\"application/ld+json\">{{bad {i}</script></head><main><div>x</div></main>"
            )
        } else if i % 3 == 0 {
            format!(
                "<main><div><div class=\"my_block\"><div><div>page {i}</div></div></div></div></main>"
            )
        } else {
            format!(
                "<main><div><h1>Page {i}</h1>{}</div></main>",
                "<p>text</p>".repeat(i * 50)
            )
        };
        std::fs::write(&path, body).unwrap();
        files.push(path.to_str().unwrap().to_owned());
    }
    let run = |jobs: &str| {
        let out = dir.path().join(format!("out-{jobs}"));
        let mut args = vec!["ingest", "--jobs", jobs, "--out", out.to_str().unwrap()];
        args.extend(files.iter().map(String::as_str));
        let output = siteops(&args);
        let mut written: Vec<(String, String)> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| {
                let path = e.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&path).unwrap())
            })
            .collect();
        written.sort();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
            written,
        )
    };
    let one = run("1");
    assert_eq!(one.0, Some(1), "two pages are refused");
    assert_eq!(
        one.2.len(),
        10,
        "{:?}",
        one.2.iter().map(|w| &w.0).collect::<Vec<_>>()
    );
    let errors: Vec<&str> = one.1.lines().filter(|l| l.starts_with("error")).collect();
    assert!(
        errors[0].contains("page-04") && errors[1].contains("page-09"),
        "{errors:?}"
    );
    for jobs in ["2", "5"] {
        assert_eq!(run(jobs), one, "--jobs {jobs}");
    }
    let zero = siteops(&["ingest", "--jobs", "0", &files[0]]);
    assert_eq!(zero.status.code(), Some(1), "0 jobs is bad usage");
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--jobs"));
}

/// A page's bytes as a browser decodes UTF-8: valid text as it is, each invalid sequence
/// one replacement character.
#[test]
fn pages_decode_as_utf8_with_replacements() {
    use siteops_ingest::decode_page;
    assert!(matches!(
        decode_page("café".as_bytes()),
        std::borrow::Cow::Borrowed("café")
    ));
    assert_eq!(decode_page(b"a\xffb\xe2\x82"), "a\u{fffd}b\u{fffd}");
}

#[test]
fn ingest_command_needs_out_for_several_files() {
    let output = siteops(&["ingest", "a.html", "b.html"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("several files need --out DIR"));
}

#[test]
fn plain_html_is_sections_and_blocks() {
    let html = page(
        r#"<h2>Title</h2><div class="cards two-up"><div><div><p>one</p><p>two</p></div><div><picture><img src="./media_abc.png#width=800&height=600" alt="Pic"></picture></div></div></div>"#,
    );
    let doc = ingest(&html, &IngestOptions::default()).unwrap();
    let plain = plain_html(&doc.to_markdown());
    let expected = r#"<div>
  <h2 id="title">Title</h2>
  <div class="cards two-up">
    <div>
      <div>
        <p>one</p>
        <p>two</p>
      </div>
      <div>
        <picture>
          <source type="image/webp" srcset="./media_abc.png?width=2000&#x26;format=webply&#x26;optimize=medium" media="(min-width: 600px)">
          <source type="image/webp" srcset="./media_abc.png?width=750&#x26;format=webply&#x26;optimize=medium">
          <source type="image/png" srcset="./media_abc.png?width=2000&#x26;format=png&#x26;optimize=medium" media="(min-width: 600px)">
          <img loading="lazy" alt="Pic" src="./media_abc.png?width=750&#x26;format=png&#x26;optimize=medium" width="800" height="600">
        </picture>
      </div>
    </div>
  </div>
</div>"#;
    assert_eq!(plain.trim(), expected);
}

#[test]
fn page_html_takes_the_head_html_and_metadata() {
    use siteops_ingest::render::{PageOptions, page_html};
    let html = r#"<html lang="fr"><head><title>Bonjour</title><meta name="description" content="Une page"><link rel="alternate" hreflang="en" href="/en/"></head>
        <body><main><div><p>Texte</p></div></main></body></html>"#;
    let doc = ingest(html, &IngestOptions::default()).unwrap();
    let options = PageOptions {
        url: Url::parse("https://main--site--org.aem.page/fr/index").unwrap(),
        head_html: Some(r#"<script src="/scripts/scripts.js" type="module"></script>"#.into()),
        delivery: Default::default(),
    };
    let page = page_html(&doc.to_markdown(), &options);
    assert!(
        page.starts_with("<!DOCTYPE html>\n<html lang=\"fr\">"),
        "{page}"
    );
    for expected in [
        "<title>Bonjour</title>",
        r#"<link rel="canonical" href="https://main--site--org.aem.page/fr/">"#,
        r#"<meta name="description" content="Une page">"#,
        r#"<link rel="alternate" hreflang="en" href="/en/">"#,
        r#"<script src="/scripts/scripts.js" type="module"></script>"#,
        "<p>Texte</p>",
    ] {
        assert!(page.contains(expected), "{expected} missing in {page}");
    }
    assert!(
        page.find("twitter:image").unwrap() < page.find("scripts.js").unwrap(),
        "head.html comes after the meta tags"
    );
    assert!(!page.contains("class=\"metadata\""), "{page}");
}

/// A `json-ld` value whose escapes spell `</script>` stays inside its script: the printed
/// JSON holds neither `</script` nor `<!--` and reads back as the value written.
#[test]
fn json_ld_cannot_end_its_script() {
    use siteops_ingest::render::{PageOptions, page_html};
    let value = r#"{"name":"\u003c/script\u003e\u003cscript\u003ewindow.pwned=1\u003c/SCRIPT \u003e\u003c!--","n":1}"#;
    let html = format!(
        "<html><body><main><div><p>Text</p><div class=\"metadata\"><div><div>json-ld</div><div>{value}</div></div></div></div></main></body></html>"
    );
    let doc = ingest(&html, &IngestOptions::default()).unwrap();
    let options = PageOptions {
        url: Url::parse("https://main--site--org.aem.page/p").unwrap(),
        head_html: None,
        delivery: Default::default(),
    };
    let page = page_html(&doc.to_markdown(), &options);
    let start = page
        .find(r#"<script type="application/ld+json">"#)
        .expect(&page)
        + r#"<script type="application/ld+json">"#.len();
    let end = start + page[start..].find("</script>").expect(&page);
    let script = &page[start..end];
    assert!(
        !page[end + 1..].to_ascii_lowercase().contains("<script"),
        "{page}"
    );
    assert!(!script.to_ascii_lowercase().contains("<!--"), "{script}");
    let parsed: serde_json::Value = serde_json::from_str(script).expect(script);
    assert_eq!(
        parsed,
        serde_json::json!({"name": "</script><script>window.pwned=1</SCRIPT ><!--", "n": 1})
    );
}

/// Deeply nested input loses its elements past the limit (with a warning), and what is kept
/// converts and renders on a thread with the 2 MiB stack that async runtime workers get.
#[test]
fn deep_nesting_is_bounded() {
    use siteops_ingest::MAX_DEPTH;
    use siteops_ingest::render::{PageOptions, page_html};
    let nested = |depth: usize, inner: &str| {
        let mut html = String::from("<html><body><main><div>");
        for i in 0..depth {
            html.push_str(if i % 3 == 0 {
                "<blockquote>"
            } else if i % 3 == 1 {
                "<ul><li>"
            } else {
                "<em>"
            });
        }
        html.push_str(inner);
        html.push_str("</main></body></html>");
        html
    };
    let converted = |html: String| {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let doc = ingest(&html, &IngestOptions::default()).expect("converted");
                let md = doc.to_markdown();
                let options = PageOptions {
                    url: Url::parse("https://main--site--org.aem.page/").unwrap(),
                    head_html: None,
                    delivery: Default::default(),
                };
                let page = page_html(&md, &options);
                (doc.warnings, md, page)
            })
            .unwrap()
            .join()
            .expect("no stack overflow")
    };
    let (warnings, md, page) =
        converted(nested((MAX_DEPTH - 10) / 2, "deep <strong>text</strong>"));
    assert_eq!(warnings, []);
    assert!(md.contains("deep **text**"), "{md}");
    assert!(page.contains("<strong>text</strong>"), "{page}");
    // Past the limit: the deepest elements are gone, the page is still there.
    let divs = |depth: usize| {
        format!(
            "<html><body><main><div><p>before</p>{}deep <strong>text</strong></main></body></html>",
            "<div>".repeat(depth)
        )
    };
    let (warnings, md, page) = converted(divs(MAX_DEPTH));
    assert_eq!(
        warnings,
        [Warning::NestingTooDeep {
            limit: MAX_DEPTH,
            read_up_to: None
        }]
    );
    assert!(!md.contains("text") && !page.contains("text"), "{md}");
    assert!(page.contains("<p>before</p>"), "{page}");
    // Far past it: the parser stops early, keeping what it read.
    let (warnings, _, page) = converted(nested(20_000, "x"));
    assert!(
        matches!(warnings[..], [Warning::NestingTooDeep { limit: MAX_DEPTH, read_up_to: Some(at) }] if at < 64 * 1024),
        "{warnings:?}"
    );
    assert!(page.contains("<blockquote>"), "{page}");
}
