//! `cargo fuzz run wiremock_stubs`: the body and its properties are `siteops_mocks::fuzzing::wiremock_stubs`,
//! which the stable tests also replay over `fuzz/corpus/wiremock_stubs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| siteops_mocks::fuzzing::wiremock_stubs(data));
