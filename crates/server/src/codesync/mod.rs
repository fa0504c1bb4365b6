//! Code sync for external (`byogit`) repositories: jobs that fetch a branch's files
//! through the repository's `raw_url` into the service's code store.
//!
//! - [`job`]: the job record and where it is stored;
//! - [`files`]: which files a sync fetches;
//! - [`signature`]: push notification signatures (HMAC-SHA256);
//! - [`lease`]: which instance runs a job, and taking over one whose instance died;
//! - [`runner`]: runs a job (the network edge).
//!
//! The code store is shared by every site of an org with the same `code.owner`/`code.repo`
//! ([`crate::store::keys::code_file`]); another org's sites have their own.

pub mod files;
pub mod job;
pub mod lease;
pub mod runner;
pub mod signature;

/// Store key of a code file of `org`'s code store ([`crate::store::keys::code_file`]).
pub fn code_key(org: &str, owner: &str, repo: &str, branch: &str, path: &str) -> String {
    crate::store::keys::code_file(org, &crate::code::CodeRepo::new(owner, repo), branch, path)
}
