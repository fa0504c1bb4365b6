//! Apply previews again the pages its changes make stale: one bulk preview job per site,
//! for exactly the paths the changed rules reach, shown in the plan before it is made.

use reqwest::StatusCode;
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

use super::Fixture;
use crate::preview::html;

async fn serve_pages(source: &MockServer, pages: &[(&str, &str)]) {
    source.reset().await;
    for (at, text) in pages {
        let page = format!(
            "<html><head><title>{text}</title></head><body><main><div><p>{text}</p></div></main></body></html>"
        );
        Mock::given(method("GET"))
            .and(path(format!("/delivery/blog{at}")))
            .respond_with(html(&page))
            .mount(source)
            .await;
    }
}

impl Fixture {
    fn stable(&self, text: &str) -> String {
        text.replace(&self.server.server.addr.to_string(), "127.0.0.1:[port]")
    }

    fn append(&self, file: &str, text: &str) {
        let path = self.root.join(file);
        let mut content = std::fs::read_to_string(&path).expect("read");
        content.push_str(text);
        std::fs::write(&path, content).expect("write");
    }

    /// acme/blog's page at `at`, as its preview host serves its content.
    async fn shown(&self, at: &str) -> String {
        let answer = (self.server.client)
            .get(self.server.url(&format!("{at}.plain.html")))
            .header("host", "main--blog--acme.localhost")
            .send()
            .await
            .expect("answered");
        answer.text().await.expect("text")
    }

    async fn blog_jobs(&self) -> Vec<serde_json::Value> {
        let listed = (self.server)
            .get("/admin/job/acme/blog/main/preview", &self.token)
            .await;
        assert_eq!(listed.status, StatusCode::OK, "{:?}", listed.error);
        listed.body["jobs"].as_array().cloned().unwrap_or_default()
    }
}

#[tokio::test]
async fn apply_previews_again_the_paths_a_changed_header_rule_reaches() {
    let source = MockServer::start().await;
    let f = Fixture::start().await;
    f.edit(
        "sites/acme/blog/site.toml",
        "url = \"https://cms.acme.example/delivery/blog\"",
        &format!("url = \"{}/delivery/blog\"", source.uri()),
    );
    let first = f.siteops("apply", &["--yes"]).await.expect(0);
    assert!(!first.stdout.contains("re-preview"), "{}", first.stdout);
    serve_pages(
        &source,
        &[
            ("/posts/a", "Old A"),
            ("/posts/b", "Old B"),
            ("/about", "Old About"),
        ],
    )
    .await;
    for at in ["/posts/a", "/posts/b", "/about"] {
        let answer = (f.server)
            .post(
                &format!("/admin/preview/acme/blog/main{at}"),
                &f.token,
                &json!({}),
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{at}: {:?}", answer.error);
    }
    serve_pages(
        &source,
        &[
            ("/posts/a", "New A"),
            ("/posts/b", "New B"),
            ("/about", "New About"),
        ],
    )
    .await;

    f.append(
        "sites/acme/blog/site.toml",
        "\n[[headers.\"/posts/**\"]]\nkey = \"cache-control\"\nvalue = \"max-age=60\"\n",
    );
    let plan = f.siteops("plan", &["--detailed-exitcode"]).await.expect(2);
    insta::assert_snapshot!("repreview-plan", f.stable(&plan.stdout));
    let quiet = f.siteops("plan", &["--no-preview"]).await.expect(0);
    assert!(!quiet.stdout.contains("re-preview"), "{}", quiet.stdout);
    let apply = f.siteops("apply", &["--yes"]).await.expect(0);
    insta::assert_snapshot!("repreview-apply", f.stable(&apply.stdout));

    // One job, for exactly the paths the rule reaches: the folder's previewed pages.
    let jobs = f.blog_jobs().await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(jobs[0]["data"]["paths"], json!(["/posts/*"]));
    assert_eq!(jobs[0]["state"], "stopped");
    assert_eq!(
        jobs[0]["progress"],
        json!({"total": 2, "processed": 2, "failed": 0})
    );
    assert!(f.shown("/posts/a").await.contains("New A"));
    assert!(
        f.shown("/about").await.contains("Old About"),
        "outside the rule: as it was"
    );

    // Nothing more to change: nothing previewed. `--no-preview` previews nothing either.
    let again = f.siteops("apply", &["--yes"]).await.expect(0);
    assert!(!again.stdout.contains("re-preview"), "{}", again.stdout);
    f.edit("sites/acme/blog/site.toml", "max-age=60", "max-age=120");
    let skipped = f
        .siteops("apply", &["--yes", "--no-preview"])
        .await
        .expect(0);
    assert!(
        !skipped.stdout.to_lowercase().contains("re-preview"),
        "{}",
        skipped.stdout
    );
    assert_eq!(f.blog_jobs().await.len(), 1);
}
