//! `cargo fuzz run mustache`: the body and its properties are `siteops_template::fuzzing::mustache`,
//! which the stable tests also replay over `fuzz/corpus/mustache`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| siteops_template::fuzzing::mustache(data));
