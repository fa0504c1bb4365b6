//! The transformation worker: JSON from an endpoint, through a Mustache template, to a
//! markup page. [`html`] holds the pure post-processing the worker applies to a render
//! (media URL prefixes, `article:tag` metadata, path mappings) and the generic page it
//! produces when no template can be fetched.

pub mod html;
