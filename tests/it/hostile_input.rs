//! Inputs made to hurt: huge numbers of problems, control characters, files that are not
//! files. Each test is the regression test of a hardening finding: it failed (or hung)
//! before the fix.

use siteops::diagnostic::render;

use crate::support::{repo, validate_repo};

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
