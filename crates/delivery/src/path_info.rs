//! A request path as the pipeline reads it (`utils/path.js`): the web path (no `.html`, no
//! `index`), the resource path on a bus (`.md` for pages), the selector (`plain`) and the
//! extension; `None` for paths it refuses (`//`, `.` or `..` segments).

/// `getPathInfo`'s answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathInfo {
    /// `plain` in `/a.plain.html`; empty when none.
    pub selector: String,
    /// `.html` for pages, else the last extension.
    pub extension: String,
    /// The extension as requested (`""` for `/a`, `.md` for `/index.md`).
    pub original_extension: String,
    /// The last segment as requested (`index` for `/x/index`).
    pub original_filename: String,
    /// The web path: `/a`, `/x/` for `/x/index`, `/a.plain.html`.
    pub path: String,
    /// The object's path on its bus: `/a.md`, `/x/index.md`, `/s.html`.
    pub resource_path: String,
    /// Before a folder mapping: the path requested.
    pub unmapped_path: String,
}

/// `getPathInfo(path)`.
pub fn path_info(path: &str) -> Option<PathInfo> {
    let path = if path.is_empty() { "/" } else { path };
    if path.contains("//") {
        return None;
    }
    let mut segs: Vec<&str> = path.split('/').collect();
    // The part before the first slash.
    segs.remove(0);
    if segs.is_empty() || segs.iter().any(|s| *s == "." || *s == "..") {
        return None;
    }
    let original_filename = segs.pop().unwrap_or_default().to_owned();
    let mut info = PathInfo {
        selector: String::new(),
        extension: ".html".into(),
        original_extension: String::new(),
        original_filename: original_filename.clone(),
        path: String::new(),
        resource_path: String::new(),
        unmapped_path: String::new(),
    };
    let mut segs: Vec<String> = segs.into_iter().map(str::to_owned).collect();
    let file_name;
    if original_filename.is_empty()
        || original_filename == "index.md"
        || original_filename == "index"
    {
        if let Some(dot) = original_filename.rfind('.') {
            info.original_extension = original_filename[dot..].to_owned();
        }
        segs.push(String::new());
        file_name = "index.md".to_owned();
    } else if !original_filename.contains('.') {
        segs.push(original_filename.clone());
        file_name = format!("{original_filename}.md");
    } else {
        let first_dot = original_filename.find('.').unwrap_or_default();
        let last_dot = original_filename.rfind('.').unwrap_or_default();
        info.extension = original_filename[last_dot..].to_owned();
        info.original_extension = info.extension.clone();
        let base = &original_filename[..first_dot];
        if last_dot != first_dot {
            info.selector = original_filename[first_dot + 1..last_dot].to_owned();
        }
        if info.selector.is_empty() {
            file_name = format!("{base}{}", info.extension);
            segs.push(file_name.clone());
        } else {
            // `.plain.html` is the page's markdown; other selectors keep their name.
            file_name = if info.selector == "plain" && info.extension == ".html" {
                format!("{base}.md")
            } else {
                format!("{base}.{}{}", info.selector, info.extension)
            };
            segs.push(format!("{base}.{}{}", info.selector, info.extension));
        }
    }
    info.path = format!("/{}", segs.join("/"));
    if let Some(last) = segs.last_mut() {
        *last = file_name;
    }
    info.resource_path = format!("/{}", segs.join("/"));
    Some(info)
}

/// `validatePathInfo`: a selector only on `.html`.
pub fn is_valid(info: &PathInfo) -> bool {
    info.selector.is_empty() || info.extension == ".html"
}

/// `getExtension`: the last segment's extension, `""` when none (or a leading dot only).
pub fn extension(path: &str) -> &str {
    let base = path.rsplit('/').next().unwrap_or_default();
    match base.rfind('.') {
        Some(pos) if pos >= 1 => &base[pos..],
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(p: &str) -> (String, String, String) {
        let info = path_info(p).unwrap();
        (info.path, info.resource_path, info.selector)
    }

    #[test]
    fn pages_folders_and_selectors() {
        assert_eq!(paths("/a/b"), ("/a/b".into(), "/a/b.md".into(), "".into()));
        assert_eq!(paths("/"), ("/".into(), "/index.md".into(), "".into()));
        assert_eq!(paths(""), ("/".into(), "/index.md".into(), "".into()));
        assert_eq!(
            paths("/x/index"),
            ("/x/".into(), "/x/index.md".into(), "".into())
        );
        assert_eq!(
            paths("/a.plain.html"),
            ("/a.plain.html".into(), "/a.md".into(), "plain".into())
        );
        assert_eq!(
            paths("/s.html"),
            ("/s.html".into(), "/s.html".into(), "".into())
        );
        assert_eq!(
            paths("/a.b.json"),
            ("/a.b.json".into(), "/a.b.json".into(), "b".into())
        );
        let index = path_info("/index.md").unwrap();
        assert_eq!(index.original_extension, ".md");
        assert_eq!(index.original_filename, "index.md");
    }

    #[test]
    fn refused_paths() {
        assert!(path_info("//a").is_none());
        assert!(path_info("/a/../b").is_none());
        assert!(path_info("/./b").is_none());
        assert!(!is_valid(&path_info("/a.b.json").unwrap()));
        assert!(is_valid(&path_info("/a.plain.html").unwrap()));
    }

    #[test]
    fn extensions() {
        assert_eq!(extension("/a/b.html"), ".html");
        assert_eq!(extension("/a/.hidden"), "");
        assert_eq!(extension("/a.b/c"), "");
        assert_eq!(extension("/not-a-page"), "");
    }
}
