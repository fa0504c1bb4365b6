//! Inputs made to hurt: huge numbers of problems, control characters, files that are not
//! files. Each test is the regression test of a hardening finding: it failed (or hung)
//! before the fix.

use std::path::Path;
use std::process::{Command, Output};

use siteops::diagnostic::render;

use crate::support::{repo, validate_repo};

fn siteops(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(args)
        .env_remove("SITEOPS_TRANSFORM_URL")
        .env_remove("GITHUB_ACTIONS")
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .output()
        .expect("siteops runs")
}

/// A scratch repository with `files` (`(path, content)`).
fn scratch(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, content) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(path, content).expect("write");
    }
    dir
}

const SITE: &str = "[code]\nowner = \"acme\"\nrepo = \"web\"\n\n[code.source]\ntype = \"github\"\nurl = \"https://github.com/acme/web\"\n\n[content.source]\nurl = \"https://content.example.com/web\"\ntype = \"markup\"\n";

/// The human format used to quote the whole file for each diagnostic: 20,000 problems took
/// 14.5 s in a release build (minutes in a test build). The timing goal is checked by the
/// `diagnostics` bench; here, that every problem is reported, each with its own line.
#[test]
fn twenty_thousand_unknown_keys_render_in_human_format() {
    const KEYS: usize = 20_000;
    let mut text = String::new();
    for i in 0..KEYS {
        text.push_str(&format!("k{i} = {i}\n"));
    }
    text.push_str(SITE);
    let validation = validate_repo(&repo(&[("sites/acme/web/site.toml", text.as_bytes())]));
    assert_eq!(validation.diagnostics.len(), KEYS);
    let human = render::human(&validation.diagnostics, &validation, false);
    assert_eq!(human.matches("error[unknown-key]").count(), KEYS);
    assert!(
        human.contains("--> sites/acme/web/site.toml:20000:1\n"),
        "the last key is located on its own line"
    );
    assert!(human.contains("20000 | k19999 = 19999\n"));
}

/// A TOML key may hold any character; GitHub annotations must not pass control characters
/// through raw (an escape sequence restyles the log, a line break forges a command).
#[test]
fn github_annotations_carry_no_raw_control_characters() {
    let site = format!("\"x\\u001b[2J\\r\\n::error::forged\\u0007\" = 1\n{SITE}");
    let dir = scratch(&[("sites/acme/web/site.toml", &site)]);
    let output = siteops(&["validate", "--format", "github"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(
        stdout,
        "::error file=sites/acme/web/site.toml,line=1,col=1,endLine=1,endColumn=38,title=unknown-key::unknown key `x%1B[2J%0D%0A::error::forged%07` in the top level%0Ahelp: known keys here: `base`, `code`, `content`, `environment`, `version`\n"
    );
}
