//! A minimal W3C WebDriver client over reqwest, driving Debian's chromium through
//! chromedriver: enough for the browser test (navigate, find, click, read, run a script,
//! take a screenshot) without a browser-automation dependency tree.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

/// The key under which WebDriver returns an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub(crate) struct Browser {
    driver: Child,
    base: String,
    client: reqwest::Client,
}

/// The browser and driver binaries, when installed.
pub(crate) fn binaries() -> Option<(String, String)> {
    let find = |names: &[&str]| {
        names
            .iter()
            .find(|path| std::path::Path::new(path).exists())
            .map(|path| path.to_string())
    };
    Some((
        find(&["/usr/bin/chromium", "/usr/bin/chromium-browser"])?,
        find(&["/usr/bin/chromedriver"])?,
    ))
}

impl Browser {
    /// Starts chromedriver on a free port and a headless chromium session.
    pub(crate) async fn start(chromium: &str, chromedriver: &str) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let client = siteops_plan::http::client(Duration::from_secs(60));
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while client.get(format!("{base}/status")).send().await.is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let mut browser = Browser {
            driver,
            base,
            client,
        };
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,900"]
            }
        }}});
        let session = browser.call("POST", "/session", Some(capabilities)).await;
        let id = session["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        browser.base = format!("{}/session/{id}", browser.base);
        browser
    }

    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let request = match method {
            "GET" => self.client.get(&url),
            "DELETE" => self.client.delete(&url),
            _ => self.client.post(&url).json(&body.unwrap_or(json!({}))),
        };
        let response = request.send().await.expect("chromedriver answers");
        let status = response.status();
        let answer: Value = response.json().await.expect("JSON from chromedriver");
        assert!(status.is_success(), "{method} {path}: {answer}");
        answer["value"].clone()
    }

    pub(crate) async fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url}))).await;
    }

    /// The first element matching `css`, waiting up to five seconds for it to appear.
    pub(crate) async fn find(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let response = self
                .client
                .post(format!("{}/elements", self.base))
                .json(&json!({"using": "css selector", "value": css}))
                .send()
                .await
                .expect("chromedriver answers");
            let found: Value = response.json().await.expect("JSON");
            if let Some(element) = found["value"][0][ELEMENT].as_str() {
                return element.to_string();
            }
            assert!(Instant::now() < deadline, "no element matches {css}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub(crate) async fn click(&self, css: &str) {
        let element = self.find(css).await;
        self.call("POST", &format!("/element/{element}/click"), None)
            .await;
    }

    pub(crate) async fn text(&self, css: &str) -> String {
        let element = self.find(css).await;
        self.call("GET", &format!("/element/{element}/text"), None)
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    pub(crate) async fn url(&self) -> String {
        self.call("GET", "/url", None)
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Runs `script` in the page and returns its result.
    pub(crate) async fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
        .await
    }

    /// A PNG screenshot of the window.
    pub(crate) async fn screenshot(&self) -> Vec<u8> {
        let encoded = self.call("GET", "/screenshot", None).await;
        base64::engine::general_purpose::STANDARD
            .decode(encoded.as_str().unwrap_or_default())
            .expect("base64 PNG")
    }

    pub(crate) async fn quit(mut self) {
        let _ = self.client.delete(&self.base).send().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
    }
}
