//! `cargo fuzz run json_reader`: the body and its properties are `siteops_template::fuzzing::json_reader`,
//! which the stable tests also replay over `fuzz/corpus/json_reader`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| siteops_template::fuzzing::json_reader(data));
