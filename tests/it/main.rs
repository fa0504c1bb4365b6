//! The one integration test binary. Modules by subject; shared helpers in `support`.

mod cli;
mod compile;
mod docs;
mod schemas;
mod support;
mod validate_cases;
