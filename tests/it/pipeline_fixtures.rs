//! The shared pipeline check's every case (`conformance/pipeline/check.py`: the fixtures of
//! `@adobe/helix-html-pipeline`'s rendering tests) rendered by the real binary through
//! `siteops ingest`'s delivery, as the pipeline's test renders it (its configuration per
//! case, the content bus, the tests' nonce), and compared by check.py's own comparator.
//! The driver, `tests/pipeline_fixtures.py`, says which flags render which case; the cases
//! served from the code bus are reference-answer cases (`tests/fixtures/delivery/`).

use std::process::Command;

#[test]
fn every_pipeline_fixture_renders_through_the_delivery() {
    let Some(pipeline) = siteops_testkit::shared("conformance/pipeline") else {
        return;
    };
    let python = Command::new("python3").arg("--version").output();
    if siteops_testkit::or_skip(
        python.ok().filter(|o| o.status.success()),
        "python3 (the shared check is a Python script)",
    )
    .is_none()
    {
        return;
    }
    let driver = siteops_testkit::workspace_root().join("tests/pipeline_fixtures.py");
    let output = Command::new("python3")
        .arg(driver)
        .arg(env!("CARGO_BIN_EXE_siteops"))
        .arg(&pipeline)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "pipeline fixtures differ:\n{stdout}\n{stderr}"
    );
    // Every case printed its line, and none was left out silently.
    assert!(
        stdout.contains("pipeline fixtures through the delivery:"),
        "{stdout}"
    );
    assert!(!stdout.contains("FAIL"), "{stdout}");
}

/// `siteops ingest` with the delivery's flags, on folders written here.
mod ingest_delivery {
    use std::path::Path;
    use std::process::{Command, Output};

    fn siteops(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_siteops"))
            .args(args)
            .output()
            .expect("siteops runs")
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    struct Site {
        dir: tempfile::TempDir,
    }

    impl Site {
        fn new() -> Site {
            let site = Site {
                dir: tempfile::tempdir().unwrap(),
            };
            write(&site.path("content/blog/post.md"), "# A post\n\nText.\n");
            write(
                &site.path("code/static.html"),
                "<html><head><script nonce=\"aem\" src=\"/a.js\"></script></head><body></body></html>\n",
            );
            write(
                &site.path("code/404.html"),
                "<html><body>Not found</body></html>\n",
            );
            write(
                &site.path("config.json"),
                r#"{"headers": {"/**": [
                    {"key": "Content-Security-Policy", "value": "script-src 'nonce-aem'"},
                    {"key": "X-Frame-Options", "value": "deny"}]}}"#,
            );
            site
        }

        fn path(&self, relative: &str) -> std::path::PathBuf {
            self.dir.path().join(relative)
        }

        /// `ingest` answering `url` from the site's folders.
        fn deliver(&self, url: &str, more: &[&str]) -> (Output, String) {
            let headers = self.path("headers.txt");
            let (content, code, config) = (
                self.path("content"),
                self.path("code"),
                self.path("config.json"),
            );
            let mut args = vec![
                "ingest",
                "--url",
                url,
                "--content",
                content.to_str().unwrap(),
                "--code",
                code.to_str().unwrap(),
                "--config",
                config.to_str().unwrap(),
                "--nonce",
                "N0nce",
                "--dump-headers",
                headers.to_str().unwrap(),
            ];
            args.extend_from_slice(more);
            let output = siteops(&args);
            let headers = std::fs::read_to_string(&headers).unwrap_or_default();
            (output, headers)
        }
    }

    #[test]
    fn static_code_takes_the_nonce_and_the_headers() {
        let site = Site::new();
        let (output, headers) = site.deliver("https://www.example.com/static.html", &[]);
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "<html><head><script nonce=\"N0nce\" src=\"/a.js\"></script></head><body></body></html>\n"
        );
        assert_eq!(
            headers,
            "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-security-policy: script-src 'nonce-N0nce'\r\nx-frame-options: deny\r\n\r\n"
        );
    }

    #[test]
    fn pages_and_their_plain_form_come_from_the_content() {
        let site = Site::new();
        let (output, headers) = site.deliver("https://www.example.com/blog/post", &[]);
        assert_eq!(output.status.code(), Some(0));
        let page = String::from_utf8_lossy(&output.stdout);
        assert!(page.contains("<title>A post</title>"), "{page}");
        assert!(headers.starts_with("HTTP/1.1 200 OK\r\n"), "{headers}");
        let (output, _) = site.deliver("https://www.example.com/blog/post", &["--format", "plain"]);
        let plain = String::from_utf8_lossy(&output.stdout);
        assert!(plain.contains("<h1 id=\"a-post\">A post</h1>"), "{plain}");
        assert!(!plain.contains("<head>"), "{plain}");
    }

    #[test]
    fn a_missing_page_is_the_codes_404_html_else_an_error() {
        let site = Site::new();
        let (output, headers) = site.deliver("https://www.example.com/missing", &[]);
        assert_eq!(output.status.code(), Some(0), "a 404 with a body answered");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "<html><body>Not found</body></html>\n"
        );
        assert!(
            headers.starts_with("HTTP/1.1 404 Not Found\r\n"),
            "{headers}"
        );
        assert!(
            headers.contains("x-error: failed to load /missing.md from content-bus: 404\r\n"),
            "{headers}"
        );

        std::fs::remove_file(site.path("code/404.html")).unwrap();
        write(&site.path("content/blog/index.md"), "# Blog\n");
        let (output, _) = site.deliver("https://www.example.com/blog/index", &[]);
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("--url https://www.example.com/blog/index: the delivery answered 404 without a body (request to /blog/index.md not allowed (no-index).)"),
            "{stderr}"
        );
        assert!(stderr.contains("--content "), "{stderr}");
    }

    #[test]
    fn a_file_stands_at_the_urls_path() {
        let site = Site::new();
        let file = site.path("elsewhere.md");
        write(&file, "# From the file\n");
        let (output, _) = site.deliver(
            "https://www.example.com/blog/post",
            &[file.to_str().unwrap()],
        );
        assert_eq!(output.status.code(), Some(0));
        let page = String::from_utf8_lossy(&output.stdout);
        assert!(page.contains("<title>From the file</title>"), "{page}");
    }

    #[test]
    fn a_bad_configuration_is_named_with_its_line_and_column() {
        let site = Site::new();
        write(&site.path("config.json"), "{\n  \"folders\": [1]\n}\n");
        let (output, _) = site.deliver("https://www.example.com/blog/post", &[]);
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&output.stderr);
        let config = site.path("config.json");
        assert!(
            stderr.contains(&format!(
                "{}:2:14: the --config is not a pipeline configuration",
                config.display()
            )),
            "{stderr}"
        );
    }
}
