//! Images of a previewed page: which hosts may receive credentials ([`allow`]), what a
//! downloaded file is ([`media`], [`svg`]), and the downloader ([`download`]).

pub mod allow;
pub mod download;
pub use siteops_media as media;
pub mod svg;

pub use download::{ImageMap, MediaSink, SinkError, download_images};
