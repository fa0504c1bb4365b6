//! The live session of `siteops serve`: it applies the repository to the bundled service,
//! watches the repository, and tells open preview pages to reload.

pub mod watch;
