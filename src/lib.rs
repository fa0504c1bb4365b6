//! siteops: configuration as code for fleets of sites on a markup-based content delivery
//! platform. This crate is the command line and the golden test harness; the work is in
//! the workspace's crates (see ARCHITECTURE.md), which the commands, tests and benches
//! name by their own names (`siteops_config`, `siteops_server`, …).

pub mod golden;
pub mod published;
