//! The bundled service behind `siteops serve`: one HTTP server for the administration API
//! (`/admin`), the transformation worker (`/transform`) and the site preview hosts, over a
//! store of typed site documents; and code sync.
//!
//! The server's modules share one [`app::AppState`]. The live session that serves a
//! repository as it is edited is another crate (`siteops-live`), which this one cannot
//! name: it plugs in through [`app::Session`].

pub mod admin;
pub mod api;
pub mod app;
pub mod auth;
pub mod bulk;
pub mod code;
pub mod codesync;
pub mod effective;
pub mod fsutil;
pub mod html;
pub mod preview;
pub mod quota;
pub mod server;
pub mod sites;
pub mod store;
pub mod time;
pub mod worker;
