//! `cargo fuzz run endpoint_template`: the body and its properties are `siteops_config::fuzzing::endpoint_template`,
//! which the stable tests also replay over `fuzz/corpus/endpoint_template`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| siteops_config::fuzzing::endpoint_template(data));
