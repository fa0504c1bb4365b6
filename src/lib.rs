//! siteops: configuration as code for fleets of sites on a markup-based content delivery
//! platform. See ARCHITECTURE.md for the map of this crate.

pub mod admin;
pub mod app;
pub mod auth;
pub mod code;
pub mod codesync;
pub mod fsutil;
pub mod golden;
pub mod html;
pub mod live;
pub mod preview;
pub mod server;
pub mod sites;
pub mod store;
pub mod time;
pub mod worker;

// The pure leaves live in crates of their own (`crates/`), which cannot reach the server,
// the network or the runtime; re-exported here under the names the rest of the code uses.
pub use siteops_config::{
    compile, diagnostic, document, endpoint, model, repo, routing, rules, schema, source, validate,
};
pub use siteops_ingest as ingest;
pub use siteops_jsregex as jsregex;
pub use siteops_media as media;
pub use siteops_mocks as mocks;
pub use siteops_plan::{apply, http, plan, remote};
pub use siteops_template as template;
pub use siteops_template::json;
