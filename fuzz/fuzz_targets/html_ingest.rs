//! `cargo fuzz run html_ingest`: the body and its properties are `siteops_ingest::fuzzing::html_ingest`,
//! which the stable tests also replay over `fuzz/corpus/html_ingest`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| siteops_ingest::fuzzing::html_ingest(data));
