//! One project through every edge of the CLI: a `skillpg.toml` with roots, two profiles, an
//! ignore, a severity, a budget gate and no context window, and three skills (one the
//! project's severity makes fail, one too long for Codex, one good). `check`, `baseline`,
//! `where`, `doctor`, `listing`, `github` and the language server (started in the project as
//! an editor starts it) must give the same verdicts, the same errors and the same budget
//! numbers: each takes a skill's findings from `skillpg_report::project`. (The page reads no
//! `skillpg.toml`: its matrix is held to `check --profile all`, and its listing to `listing`'s,
//! in `tests/e2e/clients.test.mjs`.) Needs git.

mod common;
use common::git;
#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn write(path: PathBuf, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn skillpg(dir: &Path, args: &[&str], envs: &[(&str, &Path)]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skillpg"));
    cmd.args(args).current_dir(dir);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("skillpg runs");
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "skillpg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("JSON")
}

/// The project: three skills under `.claude/skills` (where Claude Code looks, so `doctor`
/// finds them too), committed in a pull request's head.
fn project(root: &Path) -> (String, String) {
    std::fs::create_dir_all(root).expect("mkdir");
    git(root, &["init", "-q"]);
    write(
        root.join("skillpg.toml"),
        "profiles = [\"claude-code\", \"codex\", \"claude-code\"]\nroots = [\".claude/skills\"]\nfail_over = [\"90%\"]\n\n[severity]\ndescription-no-trigger = \"error\"\n\n[[ignore]]\nrule = \"broken-link\"\nskill = \"bad\"\nreason = \"written in the next pull request\"\n",
    );
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);
    let base = git(root, &["rev-parse", "HEAD"]);
    let skills = root.join(".claude/skills");
    write(
        skills.join("good/SKILL.md"),
        "---\nname: good\ndescription: Writes good release notes. Use when the user asks for release notes.\n---\n# Good\n",
    );
    write(
        skills.join("bad/SKILL.md"),
        "---\nname: Bad_Skill\ndescription: Does bad things.\nversion: 2\n---\n# Bad\nSee [the manual](references/manual.md).\n",
    );
    let long = format!(
        "{}Use when testing budgets.",
        "Handles long descriptions for testing budgets. ".repeat(40)
    );
    write(
        skills.join("long/SKILL.md"),
        &format!("---\nname: long\ndescription: {long}\n---\n# Long\n"),
    );
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "skills"]);
    (base, git(root, &["rev-parse", "HEAD"]))
}

#[test]
fn one_project_gets_the_same_verdicts_errors_and_budgets_from_every_edge() {
    let scratch = std::env::temp_dir().join(format!("skillpg-one-project-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let root = scratch.join("repo");
    let (base, head) = project(&root);

    // check: the verdicts and errors per (client, skill folder).
    let check = json(&skillpg(&root, &["check", "--format", "json"], &[]));
    let mut verdicts: BTreeMap<(String, String), Option<String>> = BTreeMap::new();
    let mut errors_of: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let checks = check["checks"].as_array().expect("one check a client");
    assert_eq!(checks.len(), 2, "claude-code named twice is checked once");
    for c in checks {
        let client = c["profile"].as_str().expect("a key").to_owned();
        for s in c["skills"].as_array().expect("skills") {
            let dir = s["path"]
                .as_str()
                .expect("a path")
                .rsplit('/')
                .next()
                .expect("a folder");
            let first_error = s["diagnostics"]
                .as_array()
                .expect("findings")
                .iter()
                .find(|d| d["severity"] == "error")
                .map(|d| d["code"].as_str().expect("a code").to_owned());
            assert_eq!(s["valid"].as_bool(), Some(first_error.is_none()));
            errors_of.insert(
                (client.clone(), dir.to_owned()),
                s["diagnostics"]
                    .as_array()
                    .expect("findings")
                    .iter()
                    .filter(|d| d["severity"] == "error")
                    .map(|d| d["code"].as_str().expect("a code").to_owned())
                    .collect(),
            );
            assert!(
                !s["diagnostics"].to_string().contains("SPG063"),
                "the project's ignore holds: {s}"
            );
            verdicts.insert((client.clone(), dir.to_owned()), first_error);
        }
    }
    let expected: BTreeMap<(String, String), Option<String>> = [
        ("claude-code", "bad", Some("SPG069")),
        ("claude-code", "good", None),
        ("claude-code", "long", None),
        ("codex", "bad", Some("SPG069")),
        ("codex", "good", None),
        ("codex", "long", Some("SPG043")),
    ]
    .into_iter()
    .map(|(c, s, e)| ((c.to_owned(), s.to_owned()), e.map(str::to_owned)))
    .collect();
    assert_eq!(
        verdicts, expected,
        "two clients, each once, as skillpg.toml names them"
    );

    // The language server, in the project with no settings of its own: check's errors, each
    // under the clients that raise it.
    let mut server = lsp_client::Client::initialized(&root, serde_json::json!({}));
    let skills = root.join(".claude/skills");
    let mut published: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for dir in ["bad", "good", "long"] {
        for client in ["claude-code", "codex"] {
            published.insert((client.to_owned(), dir.to_owned()), Vec::new());
        }
        let md = lsp_client::uri(&skills.join(dir).join("SKILL.md"));
        // A skill without findings under either client gets no publication at start.
        if errors_of.iter().all(|((_, d), e)| d != dir || e.is_empty()) {
            continue;
        }
        for d in server.diagnostics_for(&md) {
            if d["severity"] != 1 {
                continue;
            }
            let message = d["message"].as_str().expect("a message");
            let (_, clients) = message.rsplit_once(" [").expect("the clients named");
            for client in clients.trim_end_matches(']').split(", ") {
                published
                    .get_mut(&(client.to_owned(), dir.to_owned()))
                    .unwrap_or_else(|| panic!("a chosen client: {message}"))
                    .push(d["code"].as_str().expect("a code").to_owned());
            }
        }
    }
    server.shut_down();
    for list in published.values_mut().chain(errors_of.values_mut()) {
        list.sort();
    }
    assert_eq!(published, errors_of, "the language server and check");

    // baseline: exactly check's errors.
    let baseline = json(&skillpg(&root, &["baseline"], &[]));
    let mut recorded: Vec<(String, String, String)> = baseline["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["profile"].as_str().expect("a key").to_owned(),
                f["skill"]
                    .as_str()
                    .expect("a skill")
                    .rsplit('/')
                    .next()
                    .expect("a folder")
                    .to_owned(),
                f["code"].as_str().expect("a code").to_owned(),
            )
        })
        .collect();
    recorded.sort();
    let errors: Vec<(String, String, String)> = verdicts
        .iter()
        .filter_map(|((c, s), e)| e.clone().map(|e| (c.clone(), s.clone(), e)))
        .collect();
    assert_eq!(recorded, errors);

    // where (no paths: the roots): a skill is placed exactly where check passes it, and
    // check's first error is why not.
    let places = json(&skillpg(&root, &["where", "--format", "json"], &[]));
    for ((client, dir), error) in &verdicts {
        let c = places
            .as_array()
            .expect("clients")
            .iter()
            .find(|c| c["client"] == client.as_str())
            .expect("the client");
        let s = c["skills"]
            .as_array()
            .expect("skills")
            .iter()
            .find(|s| s["dir"] == dir.as_str())
            .expect("the skill");
        assert_eq!(
            s["not_listed"]["code"].as_str(),
            error.as_deref(),
            "where and check on {client}/{dir}"
        );
    }

    // doctor (the folder Claude Code scans): loads exactly where check passes.
    let scans = json(&skillpg(
        &root,
        &["doctor", "--client", "claude-code", "--format", "json"],
        &[],
    ));
    let claude = &scans[0];
    for s in claude["skills"].as_array().expect("skills") {
        let dir = s["path"]
            .as_str()
            .expect("a path")
            .rsplit('/')
            .next()
            .expect("a folder");
        let passes = verdicts[&("claude-code".to_owned(), dir.to_owned())].is_none();
        assert_eq!(
            s["status"] == "loads",
            passes,
            "doctor and check on {dir}: {s}"
        );
    }

    // listing: each client prices the skills that load under it.
    let listings = json(&skillpg(&root, &["listing", "--format", "json"], &[]));
    let listing = |client: &str| {
        listings
            .as_array()
            .expect("listings")
            .iter()
            .find(|l| l["client"] == client)
            .expect("the client")
            .clone()
    };
    for client in ["claude-code", "codex"] {
        let mut listed: Vec<String> = listing(client)["skills"]
            .as_array()
            .expect("skills")
            .iter()
            .map(|s| s["name"].as_str().expect("a name").to_owned())
            .collect();
        listed.sort();
        let passing: Vec<String> = verdicts
            .iter()
            .filter(|((c, _), e)| c == client && e.is_none())
            .map(|((_, s), _)| s.clone())
            .collect();
        assert_eq!(listed, passing, "{client} lists what loads under it");
    }
    let claude_used = listing("claude-code")["used"].as_u64().expect("a number");
    let thousands = |n: u64| skillpg_core::diagnostic::thousands(n);
    assert!(
        claude["listing"]
            .as_str()
            .expect("doctor's listing")
            .starts_with(&format!(
                "{} of 8,000 characters at a 200,000-token window",
                thousands(claude_used)
            )),
        "doctor and listing: {} against {claude_used}",
        claude["listing"]
    );

    // github, on the pull request that adds the three: the same verdicts and budget numbers.
    let event = scratch.join("event.json");
    write(
        event.clone(),
        &serde_json::json!({"pull_request": {"number": 1, "base": {"sha": base}, "head": {"sha": head}}}).to_string(),
    );
    let (summary, outputs) = (scratch.join("summary.md"), scratch.join("outputs.txt"));
    skillpg(
        &root,
        &["github"],
        &[
            ("GITHUB_EVENT_PATH", &event),
            ("GITHUB_STEP_SUMMARY", &summary),
            ("GITHUB_OUTPUT", &outputs),
        ],
    );
    let summary = std::fs::read_to_string(&summary).expect("a summary");
    for (name, dir) in [("Bad_Skill", "bad"), ("good", "good"), ("long", "long")] {
        let row = summary
            .lines()
            .find(|l| {
                l.starts_with(&format!("| `{name}` |")) && l.contains("loads")
                    || l.starts_with(&format!("| `{name}` |")) && l.contains("fails")
            })
            .unwrap_or_else(|| panic!("{name}'s verdicts in {summary}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        for (i, client) in ["claude-code", "codex"].into_iter().enumerate() {
            let passes = verdicts[&(client.to_owned(), dir.to_owned())].is_none();
            assert_eq!(
                cells[2 + i].contains("loads"),
                passes,
                "github and check on {client}/{dir}: {row}"
            );
        }
    }
    for client in ["claude-code", "codex"] {
        let l = listing(client);
        let row = summary
            .lines()
            .find(|r| r.starts_with(&format!("| {client} |")))
            .unwrap_or_else(|| panic!("{client}'s budget in {summary}"));
        assert!(
            row.contains(&format!(
                "| {} {} | {} (",
                thousands(l["whole"].as_u64().expect("a number")),
                l["unit"].as_str().expect("a unit"),
                thousands(l["budget"].as_u64().expect("a budget"))
            )),
            "github and listing on {client}: {row} against {l}"
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// `skillpg fix` reads the project too: a finding `skillpg.toml` ignores is not reported by
/// `check` and not fixed by `fix` (it applied the BOM's fix before).
#[test]
fn fix_leaves_alone_what_the_project_ignores() {
    let root = std::env::temp_dir().join(format!("skillpg-one-project-fix-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let skill = root.join("bommed/SKILL.md");
    write(
        skill.clone(),
        "\u{feff}---\nname: bommed\ndescription: Writes release notes. Use when the user asks for release notes.\n---\n# Bommed\n",
    );
    let before = std::fs::read(&skill).expect("read");
    // Without the project, fix removes the BOM.
    let out = skillpg(&root, &["fix", "bommed"], &[]);
    assert!(out.contains("SPG012"), "{out}");
    write(
        root.join("skillpg.toml"),
        "[[ignore]]\nrule = \"bom\"\nreason = \"the exporter writes one; the loader strips it\"\n",
    );
    let check = json(&skillpg(
        &root,
        &["check", "--format", "json", "bommed"],
        &[],
    ));
    assert_eq!(check["skills"][0]["valid"], true, "{check}");
    assert_eq!(
        check["skills"][0]["diagnostics"],
        serde_json::json!([]),
        "{check}"
    );
    let out = skillpg(&root, &["fix", "--write", "bommed"], &[]);
    assert!(
        !out.contains("SPG012"),
        "fix applied what the project ignores: {out}"
    );
    assert_eq!(
        std::fs::read(&skill).expect("read"),
        before,
        "the file is untouched"
    );
    let _ = std::fs::remove_dir_all(&root);
}
