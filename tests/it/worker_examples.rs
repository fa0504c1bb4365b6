//! Issue 44: `siteops validate` renders each worker entry example through the mock that
//! answers its endpoint and the entry's template, as serve's worker would, and says what
//! the page would get wrong: a name of the template that no example's data holds
//! (`{{nmae}}`), a mock body that is not JSON (the page fails with 502), where each is.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

fn validate(root: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(["validate", "--root"])
        .arg(root)
        .env_remove("SITEOPS_TRANSFORM_URL")
        .env_remove("GITHUB_ACTIONS")
        .env("NO_COLOR", "1")
        .output()
        .expect("siteops runs")
}

const SITE: &str = "sites/acme/website";

/// Rewrites the response of a mapping file of the example site.
fn set_response(root: &Path, mapping: &str, response: Value) {
    let path = root.join(SITE).join("mocks/mappings").join(mapping);
    let mut stub: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("mapping")).expect("JSON");
    stub["response"] = response;
    std::fs::write(&path, serde_json::to_string_pretty(&stub).expect("JSON")).expect("write");
}

#[test]
fn examples_render_through_their_mocks_and_templates() {
    let repo = crate::support::example_copy();
    let root = repo.path();
    // The copy validates as the example does: every name of every template is in its
    // examples' data.
    let clean = validate(root);
    assert_eq!(
        String::from_utf8_lossy(&clean.stdout),
        "no problems found (6 sites checked)\n"
    );
    assert_eq!(clean.status.code(), Some(0));

    // A misspelt name: the title renders empty for both examples of the entry.
    let template = root.join(SITE).join("templates/product.html");
    let text = std::fs::read_to_string(&template).expect("template");
    let typo = text.replacen("<title>{{name}}", "<title>{{nmae}}", 1);
    assert_ne!(typo, text);
    std::fs::write(&template, typo).expect("write");
    let warned = validate(root);
    let stdout = String::from_utf8_lossy(&warned.stdout).into_owned();
    // A warning: validate passes.
    assert_eq!(warned.status.code(), Some(0), "{stdout}");
    insta::assert_snapshot!("worker-examples-typo", stdout);

    // Bodies that are not JSON, in the mapping and in a body file (not a `.json` one, so
    // validate reads it only because it answers an example).
    set_response(
        root,
        "recipe-lemon-tart.json",
        json!({"status": 200, "body": "<html><body>Lemon tart</body></html>"}),
    );
    set_response(
        root,
        "event-summer-fest.json",
        json!({"status": 200, "bodyFileName": "events/summer-fest.txt"}),
    );
    let files = root.join(SITE).join("mocks/__files/events");
    std::fs::create_dir_all(&files).expect("dir");
    std::fs::write(
        files.join("summer-fest.txt"),
        "{\n  \"title\": \"Summer fest\",\n}\n",
    )
    .expect("write");
    // A template that fails over its data as the worker's render would (500).
    set_response(
        root,
        "doc-getting-started.json",
        json!({"status": 200, "jsonBody": {"sections": [null]}}),
    );
    std::fs::write(
        root.join(SITE).join("templates/doc.html"),
        "<main>\n{{#sections}}<h2>{{title}}</h2>{{/sections}}\n</main>\n",
    )
    .expect("write");
    let failed = validate(root);
    let stdout = String::from_utf8_lossy(&failed.stdout).into_owned();
    assert_eq!(failed.status.code(), Some(1), "{stdout}");
    insta::assert_snapshot!("worker-examples-not-json", stdout);
}
