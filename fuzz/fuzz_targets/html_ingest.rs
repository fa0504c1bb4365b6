//! `cargo fuzz run html_ingest`: the body and its properties are `siteops_ingest::fuzzing::html_ingest`,
//! which the stable tests also replay over `fuzz/corpus/html_ingest`.
#![no_main]

use std::sync::Once;

static HOOK: Once = Once::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // libFuzzer's panic hook aborts on every panic, even one that is caught. The renderer
    // catches markdown-rs's own panics (a known upstream bug, see the ingest crate's
    // `render::parse::to_mdast`) and renders the page anyway: let those through; any other
    // panic is still a crash.
    HOOK.call_once(|| {
        let crash = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !siteops_ingest::render::panicked_in_markdown_rs(info) {
                crash(info);
            }
        }));
    });
    siteops_ingest::fuzzing::html_ingest(data)
});
