//! The path of a code file, as a preview host request names it. Pure.
//!
//! A request path is percent-decoded segment by segment and refused unless every segment
//! is a plain file or directory name: no `.`/`..`, no encoded `/` or `\`, no NUL or other
//! control characters, and nothing the platform never serves from a repository: hidden
//! names (`.git`, `.env`, `.hlxignore`) and `node_modules`. What is left can only name a
//! file below the code's root, in a checkout or in the code store.

use percent_encoding::percent_decode_str;

/// A file of a site's code, relative to its root: `blocks/hero/hero.js`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CodePath(String);

/// Why a request path names no code file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodePathError {
    #[error("`{0}` names a directory, not a file")]
    Directory(String),
    #[error("`{0}` has an empty segment")]
    Empty(String),
    #[error("`{0}` is not valid percent-encoded UTF-8")]
    Encoding(String),
    #[error("`{0}` leaves its directory (`.` or `..`)")]
    Relative(String),
    #[error("`{0}` has a separator or control character inside a segment")]
    Separator(String),
    #[error("`{0}` is hidden or a dependency folder, which the platform never serves")]
    NotServed(String),
}

impl CodePath {
    /// Reads a request path (`/blocks/hero/hero.js`, percent-encoded as it arrived).
    pub(crate) fn from_request(raw: &str) -> Result<CodePath, CodePathError> {
        let error = |make: fn(String) -> CodePathError| make(raw.to_string());
        let Some(relative) = raw.strip_prefix('/') else {
            return Err(error(CodePathError::Relative));
        };
        if relative.is_empty() || relative.ends_with('/') {
            return Err(error(CodePathError::Directory));
        }
        let mut segments = Vec::new();
        for encoded in relative.split('/') {
            if encoded.is_empty() {
                return Err(error(CodePathError::Empty));
            }
            let segment = percent_decode_str(encoded)
                .decode_utf8()
                .map_err(|_| error(CodePathError::Encoding))?;
            if segment == "." || segment == ".." {
                return Err(error(CodePathError::Relative));
            }
            if segment
                .chars()
                .any(|c| c == '/' || c == '\\' || c.is_control())
            {
                return Err(error(CodePathError::Separator));
            }
            if segment.starts_with('.') || segment == "node_modules" {
                return Err(error(CodePathError::NotServed));
            }
            segments.push(segment.into_owned());
        }
        Ok(CodePath(segments.join("/")))
    }

    /// A path the program itself names (`head.html`, a template), checked the same way.
    pub fn new(relative: &str) -> Result<CodePath, CodePathError> {
        CodePath::from_request(&format!("/{}", relative.trim_start_matches('/')))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The file's extension, lower-cased (`css`), if its name has one.
    pub fn extension(&self) -> Option<String> {
        let name = self.0.rsplit('/').next()?;
        let (stem, extension) = name.rsplit_once('.')?;
        (!stem.is_empty()).then(|| extension.to_ascii_lowercase())
    }
}

impl std::fmt::Display for CodePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_read_and_decoded() {
        let path = CodePath::from_request("/blocks/hero/hero.js").expect("path");
        assert_eq!(path.as_str(), "blocks/hero/hero.js");
        assert_eq!(path.extension().as_deref(), Some("js"));
        let spaced = CodePath::from_request("/fonts/My%20Font.WOFF2").expect("path");
        assert_eq!(spaced.as_str(), "fonts/My Font.WOFF2");
        assert_eq!(spaced.extension().as_deref(), Some("woff2"));
        assert_eq!(
            CodePath::new("head.html").expect("path").as_str(),
            "head.html"
        );
    }

    #[test]
    fn paths_that_leave_the_root_or_name_hidden_files_are_refused() {
        for bad in [
            "/",
            "/styles/",
            "relative.css",
            "/a//b.css",
            "/../etc/passwd",
            "/styles/../../etc/passwd",
            "/%2e%2e/etc/passwd",
            "/%2E%2E/etc/passwd",
            "/styles/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
            "/..%2fetc%2fpasswd",
            "/..%5cetc%5cpasswd",
            "/.",
            "/.git/config",
            "/%2egit/config",
            "/.env",
            "/blocks/.hidden.js",
            "/node_modules/lib/index.js",
            "/a/node_modules/b.js",
            "/a%00.js",
            "/a%0a.js",
            "/%ff.js",
        ] {
            assert!(CodePath::from_request(bad).is_err(), "{bad}");
        }
    }
}
