//! The bundled service behind `siteops serve`: one HTTP server for the administration API
//! (`/admin`), the transformation worker (`/transform`) and the site preview hosts, over a
//! store of typed site documents; code sync; and the live session that serves a
//! repository as it is edited.
//!
//! The server's modules share one [`app::AppState`] and never name the live session:
//! [`live`] plugs into them through [`app::Session`].

pub mod admin;
pub mod api;
pub mod app;
pub mod auth;
pub mod code;
pub mod codesync;
pub mod effective;
pub mod fsutil;
pub mod html;
pub mod live;
pub mod preview;
pub mod quota;
pub mod server;
pub mod sites;
pub mod store;
pub mod time;
pub mod worker;
