//! siteops: configuration as code for fleets of sites on a markup-based content delivery
//! platform. This crate is the command line and the golden test harness; the work is in
//! the workspace's crates (see ARCHITECTURE.md), re-exported here under the module names
//! the commands, tests and benches use.

pub mod golden;
pub mod published;

pub use siteops_config::{
    compile, diagnostic, document, endpoint, model, repo, routing, rules, schema, source, validate,
};
pub use siteops_ingest as ingest;
pub use siteops_jsregex as jsregex;
pub use siteops_live as live;
pub use siteops_media as media;
pub use siteops_mocks as mocks;
pub use siteops_plan::{apply, http, plan, remote, scope, shard};
pub use siteops_server::{
    admin, api, app, auth, code, codesync, fsutil, html, preview, quota, server, sites, store,
    time, worker,
};
pub use siteops_template as template;
pub use siteops_template::json;
