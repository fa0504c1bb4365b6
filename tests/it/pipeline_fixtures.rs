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
