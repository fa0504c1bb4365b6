//! `cargo fuzz run site_files`: the body and its properties are `siteops_config::fuzzing::site_files`,
//! which the stable tests also replay over `fuzz/corpus/site_files`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| siteops_config::fuzzing::site_files(data));
