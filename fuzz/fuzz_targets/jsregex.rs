//! `cargo fuzz run jsregex`: the body and its properties are `siteops_jsregex::fuzzing::jsregex`,
//! which the stable tests also replay over `fuzz/corpus/jsregex`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| siteops_jsregex::fuzzing::jsregex(data));
