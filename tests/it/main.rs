//! The one integration test binary. Modules by subject; shared helpers in `support`.

mod admin;
mod browser;
mod cli;
mod codesync;
mod compile;
mod crash;
mod docs;
mod golden;
mod golden_cli;
mod harness;
mod html2md_conformance;
mod html2md_roundtrip;
mod ingest;
mod live;
mod mocks_record;
mod mustache_spec;
mod plan_apply;
mod preview;
mod schemas;
mod serve_process;
mod support;
mod validate_cases;
mod watch_loop;
mod webdriver;
mod worker;
mod worker_golden;
