//! A code repository as sites name it (`owner/repo`): the key of local checkouts and of
//! the live session's code events (the server's code store adds the org: `siteops-server`'s
//! `store::keys::code_file`).

use serde_json::Value;

use crate::model::api::CodeConfig;

/// A code repository, as sites name it: `owner/repo`, compared without regard to case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CodeRepo {
    pub owner: String,
    pub repo: String,
}

impl CodeRepo {
    pub fn new(owner: &str, repo: &str) -> CodeRepo {
        CodeRepo {
            owner: owner.to_ascii_lowercase(),
            repo: repo.to_ascii_lowercase(),
        }
    }

    /// Reads `owner/repo`; both parts as the interface's ids (`[a-z0-9][a-z0-9-]*`, any
    /// case, dots and underscores allowed as git hosts allow them).
    pub fn parse(text: &str) -> Option<CodeRepo> {
        let (owner, repo) = text.split_once('/')?;
        let part = |p: &str| {
            !p.is_empty()
                && !p.starts_with('.')
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        };
        (part(owner) && part(repo)).then(|| CodeRepo::new(owner, repo))
    }

    pub fn of(code: &CodeConfig) -> CodeRepo {
        CodeRepo::new(&code.owner, &code.repo)
    }

    /// The code repository of a stored site document, when it has a code block.
    pub fn of_site(site: &Value) -> Option<CodeRepo> {
        let code = site.get("code")?;
        Some(CodeRepo::new(
            code.get("owner")?.as_str()?,
            code.get("repo")?.as_str()?,
        ))
    }
}

impl std::fmt::Display for CodeRepo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.owner, self.repo)
    }
}
