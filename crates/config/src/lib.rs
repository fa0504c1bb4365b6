//! The sites repository as configuration: read (`repo`), parsed with spans (`document`,
//! `source`), checked against schemas generated from the types (`schema`, `model`) and the
//! semantic rules (`rules`), turned into the validated model (`validate`) and compiled into
//! the administration API's and the worker's bodies (`compile`), each at its one path
//! (`api_path`). Problems are
//! `diagnostic::Diagnostic`s, located by file, line and column.
//!
//! Pure but for `repo`, which reads the repository's files: no network, no runtime, no
//! server (the crate graph test holds this).

pub mod api_path;
pub mod compile;
pub mod diagnostic;
pub mod document;
pub mod endpoint;
#[doc(hidden)]
pub mod fuzzing;
pub mod git_era;
pub mod import;
pub mod model;
pub mod repo;
pub mod routing;
pub mod rules;
pub mod schema;
pub mod source;
pub mod validate;
