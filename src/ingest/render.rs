//! Rendering of the content model as the preview host serves it.
