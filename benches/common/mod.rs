//! The generated fleet that the benchmarks share.

use siteops_config::repo::RepoFiles;

/// A fleet shaped like a real one: one base site per 50 with its own external repository,
/// secret, worker entries and templates; the others share its code through `base`, with
/// their own content, access and public configuration.
pub(crate) fn fleet(sites: usize) -> RepoFiles {
    let mut repo = RepoFiles::new();
    repo.insert(
        "siteops.toml",
        "transform_url = \"https://transform.example.com\"\n",
    );
    for n in 0..sites {
        let org = format!("org{}", n / 500);
        let base = n - n % 50;
        let dir = format!("sites/{org}/site{n}");
        if n == base {
            repo.insert(format!("{dir}/site.toml"), base_site(&org, n));
            repo.insert(
                format!("{dir}/secrets.toml"),
                format!("[sync]\nenv = \"SYNC_{n}\"\n"),
            );
            repo.insert(format!("{dir}/transform/main.toml"), WORKER.to_string());
            for template in ["product", "article", "team"] {
                repo.insert_path(format!("{dir}/templates/{template}.html"));
            }
        } else {
            repo.insert(
                format!("{dir}/site.toml"),
                format!(
                    "version = 1\nbase = \"site{base}\"\n\n[content.source]\nurl = \"https://cms.example.com/{org}/site{n}?tenant={org}\"\ntype = \"markup\"\nsuffix = \".html\"\n"
                ),
            );
        }
        repo.insert(format!("{dir}/access.toml"), ACCESS.to_string());
        repo.insert(
            format!("{dir}/public.toml"),
            format!("[paths]\nmappings = [\"/content/site{n}/:/\"]\nincludes = [\"/content/site{n}/\"]\n"),
        );
    }
    repo
}

fn base_site(org: &str, n: usize) -> String {
    format!(
        r#"version = 1

[code]
owner = "{org}"
repo = "site{n}"

[code.source]
type = "byogit"
url = "https://git.example.com/{org}/site{n}"
raw_url = "https://raw.git.example.com/{org}/site{n}"
owner = "p{n}"
repo = "site{n}"
secretId = "sync"

[content.source]
url = "https://cms.example.com/{org}/site{n}?tenant={org}"
type = "markup"
suffix = ".html"

[content.overlay]
url = "{{transform_url}}/{org}/site{n}/main"
type = "markup"
"#
    )
}

const ACCESS: &str = r#"[admin]
requireAuth = "auto"

[admin.role]
admin = ["web@example.com", "ops@example.com"]
config_admin = ["A1B2C3@techacct.example.com"]
"#;

const WORKER: &str = r#"[[entry]]
path = "/products/"
regex = '/\d+$/'
endpoint = "https://api.example.com/products/{{id}}.json?market={{headers['x-market']}}"
forwardHeaders = ["x-market"]
template = "/templates/product.html"
relativeURLPrefix = "https://media.example.com"
examples = ["/products/1234"]

[[entry]]
path = "/news/"
regex = '/\d{4}\/\d{2}\/\d{2}\/[a-z0-9-]+$/'
endpoint = "https://api.example.com/news/{{id}}.json"
template = "/templates/article.html"
examples = ["/news/2024/05/17/launch-day"]

[[entry]]
path = "/team/"
endpoint = "https://api.example.com/team.json"
arrayKey = "data"
pathKey = "path"
template = "/templates/team.html"
"#;
