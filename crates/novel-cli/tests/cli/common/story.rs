//! The story-tick test harness: a novel from the fixture seed, the OpenAI-format test server
//! scripted with the fixture plans, prose and extractions, and a provider profile pointing at it.

use std::path::Path;

use novel_test_server::{BlockingTestServer, Reply, Rule, Script, TestServer};
use serde_json::Value;

use super::*;

pub fn story_fixture(name: &str) -> String {
    std::fs::read_to_string(fixture(&format!("story/{name}"))).unwrap()
}

pub fn replies(name: &str) -> Vec<Reply> {
    let items: Vec<Value> = serde_json::from_str(&story_fixture(name)).unwrap();
    items
        .into_iter()
        .map(|v| Reply::text(v.to_string()).into())
        .collect()
}

/// Requests are told apart by keys only their JSON schema has.
pub const EXTRACTION: &str = "loops_resolved";
pub const PLAN: &str = "expected_outcomes";

pub fn clean_script() -> Script {
    Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(Rule::when(PLAN).replies(replies("plans.json")))
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))))
}

/// A config dir with one profile pointing at the server, with fast retries for tests.
pub fn provider_config(tmp: &Path, base_url: &str) -> std::path::PathBuf {
    let dir = tmp.join("config");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("providers.toml"),
        format!(
            "default_profile = \"test\"\n\n[[profile]]\nname = \"test\"\nkind = \"openai-compatible\"\nbase_url = \"{base_url}\"\nmodel = \"test-model\"\nmax_retries = 2\nretry_base_delay_ms = 10\ntimeout_secs = 20\n"
        ),
    )
    .unwrap();
    dir
}

pub struct Setup {
    pub tmp: tempfile::TempDir,
    pub dir: std::path::PathBuf,
    pub config: std::path::PathBuf,
    pub server: BlockingTestServer,
}

pub fn setup(script: Script) -> Setup {
    let (tmp, dir) = new_novel();
    let server = TestServer::start_blocking(script).unwrap();
    let config = provider_config(tmp.path(), &server.base_url());
    Setup {
        tmp,
        dir,
        config,
        server,
    }
}

impl Setup {
    pub fn novel(&self) -> assert_cmd::Command {
        let mut cmd = novel();
        cmd.env("NOVEL_AGENT_CONFIG_DIR", &self.config)
            .arg("-C")
            .arg(&self.dir);
        cmd
    }

    pub fn status(&self) -> Value {
        serde_json::from_str(&stdout_of(self.novel().args(["--json", "status"]))).unwrap()
    }

    pub fn db(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(self.dir.join("novel.db")).unwrap()
    }

    pub fn count(&self, sql: &str) -> i64 {
        self.db().query_row(sql, [], |r| r.get(0)).unwrap()
    }

    /// Everything the story is made of; equal before and after means "unchanged".
    pub fn story_fingerprint(&self) -> String {
        novel_core::store::dump_story(&self.db()).unwrap()
    }
}
