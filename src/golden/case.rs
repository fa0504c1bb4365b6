//! `golden/<case>/case.toml`: which site, branch and pages a case renders. Pure: the caller
//! reads the file.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::GoldenError;
use siteops_config::model::SiteId;
use siteops_config::rules::is_id;
use siteops_server::preview::PagePath;

/// A parsed and checked `case.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseSpec {
    pub site: SiteId,
    pub branch: String,
    /// The pages, as written; each parses as a page path.
    pub pages: Vec<CasePage>,
    /// What the case shows, for people reading it.
    pub description: Option<String>,
}

/// One page of a case: its path and the name its snapshots share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CasePage {
    /// The page's web path (`/products/1234`, `/`).
    pub path: String,
    /// The stem of its snapshot files (`products-1234`, `index`).
    pub slug: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    site: String,
    #[serde(default)]
    branch: Option<String>,
    pages: Vec<String>,
    #[serde(default)]
    description: Option<String>,
    /// Refused with a reason: see [`HEADERS_UNSUPPORTED`].
    #[serde(default)]
    headers: Option<toml::Value>,
}

/// Why a case cannot send request headers to the worker.
pub const HEADERS_UNSUPPORTED: &str = "`headers` is not supported: a preview sends its sources only `Authorization` (from `x-content-source-authorization`) and `x-content-source-location`, so no other request header reaches the worker; choose pages whose worker entry has no `forwardHeaders`";

impl CaseSpec {
    /// Parses `text`, the content of the file `file` (named in errors).
    pub fn parse(file: &str, text: &str) -> Result<CaseSpec, GoldenError> {
        let error = |message: String| GoldenError::Case {
            file: file.to_string(),
            message,
        };
        let raw: CaseFile = toml::from_str(text).map_err(|e| error(e.to_string()))?;
        if raw.headers.is_some() {
            return Err(error(HEADERS_UNSUPPORTED.into()));
        }
        let site = match raw.site.split_once('/') {
            Some((org, site)) if is_id(org) && is_id(site) => SiteId {
                org: org.into(),
                site: site.into(),
            },
            _ => {
                return Err(error(format!(
                    "`site = \"{}\"` must be `org/site` (lower-case letters, digits and `-`)",
                    raw.site
                )));
            }
        };
        let branch = raw.branch.unwrap_or_else(|| "main".into());
        if !is_id(&branch) {
            return Err(error(format!(
                "`branch = \"{branch}\"` is not a branch name (lower-case letters, digits and `-`)"
            )));
        }
        if raw.pages.is_empty() {
            return Err(error(
                "`pages` is empty: name at least one page path".into(),
            ));
        }
        let mut pages = Vec::new();
        let mut slugs: BTreeMap<String, String> = BTreeMap::new();
        for written in &raw.pages {
            let page =
                PagePath::parse(written).map_err(|e| error(format!("page `{written}`: {e}")))?;
            let path = page.web_path();
            let slug = slug(&page);
            if let Some(other) = slugs.insert(slug.clone(), written.clone()) {
                return Err(error(format!(
                    "pages `{other}` and `{written}` would share the snapshot name `{slug}`"
                )));
            }
            pages.push(CasePage { path, slug });
        }
        Ok(CaseSpec {
            site,
            branch,
            pages,
            description: raw.description,
        })
    }
}

/// The stem of a page's snapshot files: its segments joined with `-` (`index` for a
/// folder), characters outside `[A-Za-z0-9._-]` as `_`.
pub fn slug(page: &PagePath) -> String {
    let mut parts: Vec<&str> = page.segments().iter().map(String::as_str).collect();
    if page.is_folder() {
        parts.push("index");
    }
    parts
        .join("-")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<CaseSpec, String> {
        CaseSpec::parse("golden/x/case.toml", text).map_err(|e| e.to_string())
    }

    #[test]
    fn a_case_with_defaults() {
        let spec =
            parse("site = \"acme/website\"\npages = [\"/products/1234\", \"/\", \"/a/b/\"]\n")
                .expect("parses");
        assert_eq!(spec.site.to_string(), "acme/website");
        assert_eq!(spec.branch, "main");
        let pages: Vec<(&str, &str)> = spec
            .pages
            .iter()
            .map(|p| (p.path.as_str(), p.slug.as_str()))
            .collect();
        assert_eq!(
            pages,
            [
                ("/products/1234", "products-1234"),
                ("/", "index"),
                ("/a/b/", "a-b-index")
            ]
        );
    }

    #[test]
    fn problems_name_the_file_and_what() {
        let cases = [
            (
                "site = \"acme\"\npages = [\"/\"]",
                "golden/x/case.toml: `site = \"acme\"` must be `org/site` (lower-case letters, digits and `-`)",
            ),
            (
                "site = \"acme/web\"\nbranch = \"Main\"\npages = [\"/\"]",
                "golden/x/case.toml: `branch = \"Main\"` is not a branch name (lower-case letters, digits and `-`)",
            ),
            (
                "site = \"acme/web\"\npages = []",
                "golden/x/case.toml: `pages` is empty: name at least one page path",
            ),
            (
                "site = \"acme/web\"\npages = [\"/a/../b\"]",
                "golden/x/case.toml: page `/a/../b`: ",
            ),
            (
                "site = \"acme/web\"\npages = [\"/a-b\", \"/a/b\"]",
                "golden/x/case.toml: pages `/a-b` and `/a/b` would share the snapshot name `a-b`",
            ),
            (
                "site = \"acme/web\"\npages = [\"/\"]\n[headers]\ntenant = \"acme-eu\"",
                "golden/x/case.toml: `headers` is not supported",
            ),
            (
                "site = \"acme/web\"\npages = [\"/\"]\npage = 1",
                "golden/x/case.toml: TOML parse error at line 3, column 1",
            ),
        ];
        for (text, expected) in cases {
            let message = parse(text).expect_err(text);
            assert!(message.starts_with(expected), "{text}\n{message}");
        }
    }

    #[test]
    fn slugs_are_file_names() {
        let slug_of = |raw: &str| slug(&PagePath::parse(raw).expect("page"));
        assert_eq!(slug_of("/caf%C3%A9/a%20b.v2"), "caf_-a_b.v2");
        assert_eq!(slug_of("/index.md"), "index");
        assert_eq!(slug_of("/docs/"), "docs-index");
    }
}
