//! `skillpg lsp` driven over JSON-RPC as an editor drives it: the binary on stdio, messages
//! framed with `Content-Length`. Initialize, the index's diagnostics, didOpen, didChange,
//! codeAction (applied, then re-checked), hover, completion, document links, inlay hints and
//! shutdown; the diagnostics are held equal to `skillpg check --format json` on the same text.

#![allow(
    clippy::unwrap_used,
    reason = "a test client: a malformed message from the server is the failure"
)]

#[path = "common/lsp_client.rs"]
mod lsp_client;
use lsp_client::{Client, uri};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

const SKILL_MD: &str = "---\nname: bad-skill\ndescription: Formats tables. Use when a user pastes a CSV.\nlicense: 2024\n---\n\n# Bad\n\nRead [the guide](references/guide.md) and [x](references/missing.md).\n\n## Steps\n\n1. Do it.\n";

/// A skill folder `bad-skill` under `parent`, with a reference over 10,000 tokens.
fn plant(parent: &Path, skill_md: &str) -> PathBuf {
    let dir = parent.join("bad-skill");
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::write(dir.join("SKILL.md"), skill_md).unwrap();
    let guide = format!("# Guide\n{}", "lorem ipsum dolor sit amet ".repeat(3000));
    std::fs::write(dir.join("references/guide.md"), guide).unwrap();
    dir
}

/// `(file, code, severity, message, line, column)` of every finding `skillpg check` reports on
/// the folder, under `profile`.
fn cli_findings(dir: &Path, profile: &str) -> Vec<(String, String, String, String, u64, u64)> {
    let out = Command::new(env!("CARGO_BIN_EXE_skillpg"))
        .args(["check", "--profile", profile, "--format", "json"])
        .arg(dir)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut all: Vec<_> = v["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_owned(),
                d["code"].as_str().unwrap().to_owned(),
                d["severity"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap_or(1),
                d["column"].as_u64().unwrap_or(1),
            )
        })
        .collect();
    all.sort();
    all
}

/// The same tuple for what the server published on every file of the skill.
fn lsp_findings(
    client: &Client,
    dir: &Path,
    files: &[&str],
) -> Vec<(String, String, String, String, u64, u64)> {
    let mut all = Vec::new();
    for f in files {
        for d in client
            .published
            .get(&uri(&dir.join(f)))
            .into_iter()
            .flatten()
        {
            let severity = match d["severity"].as_u64() {
                Some(1) => "error",
                Some(2) => "warning",
                _ => "info",
            };
            all.push((
                f.to_string(),
                d["code"].as_str().unwrap().to_owned(),
                severity.to_owned(),
                d["message"].as_str().unwrap().to_owned(),
                d["range"]["start"]["line"].as_u64().unwrap() + 1,
                d["range"]["start"]["character"].as_u64().unwrap() + 1,
            ));
        }
    }
    all.sort();
    all
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skillpg-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d.canonicalize().unwrap()
}

#[test]
fn an_editor_session_checks_fixes_and_explains() {
    let root = scratch("session");
    let dir = plant(&root.join("workspace"), SKILL_MD);
    let md = dir.join("SKILL.md");
    let md_uri = uri(&md);
    let mut client = Client::start(&root);

    // UTF-32 positions are the CLI's columns (code points), so the two compare directly.
    let init = client.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": uri(&root.join("workspace")),
            "capabilities": {"general": {"positionEncodings": ["utf-32", "utf-16"]}},
            "initializationOptions": {"profiles": ["claude-code"]},
        }),
    );
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-32");
    assert_eq!(init["serverInfo"]["name"], "skillpg");
    client.notify("initialized", json!({}));

    // The index publishes the skill's findings at start, the reference's on its own file.
    let guide_uri = uri(&dir.join("references/guide.md"));
    client.diagnostics_for(&guide_uri);
    let files = ["SKILL.md", "references/guide.md"];
    assert_eq!(
        cli_findings(&dir, "claude-code").len(),
        3,
        "the planted findings"
    );
    assert_eq!(
        lsp_findings(&client, &dir, &files),
        cli_findings(&dir, "claude-code"),
        "the index's diagnostics are skillpg check's"
    );

    // An edit as the editor holds it, before it is saved: a Unicode name over its limit.
    let edited = SKILL_MD.replace("Formats tables.", "Formats tables — ünïcödé 😀.");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": md_uri, "languageId": "markdown", "version": 1, "text": SKILL_MD}}),
    );
    client.diagnostics_for(&md_uri);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": md_uri, "version": 2}, "contentChanges": [{"text": edited}]}),
    );
    client.diagnostics_for(&md_uri);
    let saved = plant(&root.join("cli"), &edited);
    assert_eq!(
        lsp_findings(&client, &dir, &files),
        cli_findings(&saved, "claude-code"),
        "diagnostics as you type are skillpg check's on the same text"
    );
    let quote = client.published[&md_uri]
        .iter()
        .find(|d| d["code"] == "SPG022")
        .expect("the unquoted license is found")
        .clone();
    assert!(
        quote["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .starts_with("http")
    );

    // Its quick fix, applied as the editor applies it, then re-checked.
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": md_uri}, "range": quote["range"], "context": {"diagnostics": [quote]}}),
    );
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "quickfix" && a["title"] == "Quote the value")
        .expect("a quick fix for the finding");
    assert_eq!(action["isPreferred"], true);
    let edit = &action["edit"]["changes"][&md_uri][0];
    assert_eq!(edit["newText"], "\"2024\"");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": md_uri, "version": 3}, "contentChanges": [{"range": edit["range"], "text": edit["newText"]}]}),
    );
    let after = client.diagnostics_for(&md_uri);
    assert!(
        !after.iter().any(|d| d["code"] == "SPG022"),
        "the fixed finding is gone: {after:?}"
    );
    let fixed = edited.replace("license: 2024", "license: \"2024\"");
    let saved = plant(&root.join("cli2"), &fixed);
    assert_eq!(
        lsp_findings(&client, &dir, &files),
        cli_findings(&saved, "claude-code")
    );

    // Hover on `description`: the level-1 line as the client lists it, tokens, limits.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": md_uri}, "position": {"line": 2, "character": 3}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("- bad-skill: Formats tables — ünïcödé 😀."),
        "{text}"
    );
    assert!(text.contains("| claude-code |"), "{text}");
    assert!(text.contains("/ 1,024 characters"), "{text}");
    assert!(text.contains("o200k_base"), "{text}");
    // On a heading: its section's tokens.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": md_uri}, "position": {"line": 10, "character": 3}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("**Steps**:"), "{text}");

    // Completion: Claude Code's fields not yet set, then a field's documented values.
    let items = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": md_uri}, "position": {"line": 1, "character": 0}}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"allowed-tools") && labels.contains(&"when_to_use"));
    assert!(
        !labels.contains(&"name"),
        "a field already set is not offered"
    );
    let items = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": md_uri}, "position": {"line": 3, "character": 9}}),
    );
    assert!(items.to_string().contains("Apache-2.0"), "{items}");

    // Document links: the guide resolves, the missing file is marked.
    let links = client.request(
        "textDocument/documentLink",
        json!({"textDocument": {"uri": md_uri}}),
    );
    let links = links.as_array().unwrap();
    assert!(links.iter().any(|l| l["target"] == guide_uri));
    assert!(
        links
            .iter()
            .any(|l| l["target"].is_null() && l["tooltip"].as_str().unwrap().starts_with("broken"))
    );

    // Inlay hints: each level's tokens.
    let hints = client.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": md_uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}}}),
    );
    let labels = hints.to_string();
    for label in ["L1 ", "L2 body ", "L3 "] {
        assert!(labels.contains(label), "{label} in {labels}");
    }

    // Closing the buffer brings the disk's text back.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": md_uri}}),
    );
    let back = client.diagnostics_for(&md_uri);
    assert!(back.iter().any(|d| d["code"] == "SPG022"));

    assert!(client.request("shutdown", Value::Null).is_null());
    client.notify("exit", Value::Null);
    let status = client.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn skillpg_toml_chooses_the_profiles_and_ignores() {
    let root = scratch("config");
    let dir = plant(&root.join("skills"), SKILL_MD);
    std::fs::write(
        root.join("skillpg.toml"),
        "profiles = [\"spec\", \"codex\"]\nroots = [\"skills\"]\n\n[[ignore]]\nrule = \"broken-link\"\nreason = \"the file is generated at build time\"\n",
    )
    .unwrap();
    let mut client = Client::start(&root);
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    client.notify("initialized", json!({}));
    let md_uri = uri(&dir.join("SKILL.md"));
    let diags = client.diagnostics_for(&md_uri);
    assert!(
        !diags.iter().any(|d| d["code"] == "SPG063"),
        "ignored: {diags:?}"
    );
    // Two profiles: each finding names the profiles that raise it.
    assert!(
        diags
            .iter()
            .all(|d| d["message"].as_str().unwrap().ends_with(']')),
        "{diags:?}"
    );
    // UTF-16 is the default position encoding.
    assert!(client.request("shutdown", Value::Null).is_null());
    client.notify("exit", Value::Null);
    assert!(client.child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&root);
}

/// Runs `skillpg lsp` on `input` and returns its exit status and what it wrote.
fn lsp_raw(input: &[u8]) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillpg"))
        .args(["lsp", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("skillpg lsp starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn framed(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// `initialize` and `initialized`, framed: the start of every raw session.
fn initialize_frames() -> Vec<u8> {
    let mut init = framed(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"capabilities":{}}}"#,
    );
    init.extend(framed(
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    ));
    init
}

#[test]
fn hostile_headers_neither_abort_nor_flood_nor_end_the_session() {
    let init = initialize_frames();
    let shutdown = framed(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#);
    let exit = framed(r#"{"jsonrpc":"2.0","method":"exit"}"#);
    // The issue's three headers, alone: no abort, no panic, no 1.44 GB held; a parse error.
    for header in ["99999999999999", "18446744073709551615", "1500000000"] {
        let (status, out) = lsp_raw(format!("Content-Length: {header}\r\n\r\n{{}}").as_bytes());
        assert_eq!(status.code(), Some(1), "{header}: {status:?} {out}");
        assert!(out.contains("-32700"), "{header}: {out}");
    }
    // Each broken message is answered, and the session goes on to a clean exit.
    for bad in [
        b"Content-Lenght: 2\r\n\r\n".to_vec(),
        b"Content-Length: many\r\n\r\n".to_vec(),
        framed("{not json"),
        b"Content-Length: 2\r\n\r\n\xff\xfe".to_vec(),
    ] {
        let mut input = init.clone();
        input.extend_from_slice(&bad);
        input.extend_from_slice(&shutdown);
        input.extend_from_slice(&exit);
        let (status, out) = lsp_raw(&input);
        assert!(out.contains("-32700"), "{out}");
        assert!(out.contains(r#""id":2"#), "shutdown is answered: {out}");
        assert_eq!(status.code(), Some(0), "{out}");
    }
}

#[test]
fn shutdown_and_exit_follow_the_protocol() {
    let init = initialize_frames();
    // A request after shutdown is refused with an error, and the session still exits cleanly.
    let mut input = init.clone();
    input.extend(framed(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#));
    input.extend(framed(
        r#"{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x/SKILL.md"},"position":{"line":0,"character":0}}}"#,
    ));
    input.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    let (status, out) = lsp_raw(&input);
    assert!(out.contains(r#""id":3"#) && out.contains("-32600"), "{out}");
    assert_eq!(status.code(), Some(0));
    // `exit` without `shutdown` exits 1, as the protocol asks.
    let mut input = init;
    input.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    let (status, _) = lsp_raw(&input);
    assert_eq!(status.code(), Some(1));
}

#[test]
fn a_skill_md_not_on_disk_is_checked_from_its_buffer() {
    let root = scratch("unsaved");
    let mut client = Client::initialized(&root, json!({}));
    // Neither the file nor its folder exists.
    let md = root.join("new-skill").join("SKILL.md");
    let md_uri = uri(&md);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": md_uri, "languageId": "markdown", "version": 1, "text": "---\nname: Not_Valid\n---\n"}}),
    );
    let diags = client.diagnostics_for(&md_uri);
    let codes: Vec<&str> = diags.iter().filter_map(|d| d["code"].as_str()).collect();
    assert!(
        !codes.contains(&"SPG001"),
        "the buffer is the SKILL.md: {diags:?}"
    );
    assert!(
        diags
            .iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("description")),
        "the missing description is found: {diags:?}"
    );
    assert!(!md.exists(), "nothing is written");
    // Closed without being saved: the skill is gone, and so are its findings.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": md_uri}}),
    );
    assert_eq!(
        client.diagnostics_for(&md_uri),
        Vec::<serde_json::Value>::new(),
        "its findings are cleared"
    );
    client.shut_down();
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_burst_of_edits_to_a_large_file_is_checked_once_and_a_hover_waits_for_none_of_the_rest() {
    let root = scratch("burst");
    let body = "Some prose about tables and CSV files.\n".repeat(60_000); // about 2.3 MB
    let skill_md = format!(
        "---\nname: bad-skill\ndescription: Formats tables. Use when a user pastes a CSV.\n---\n\n{body}"
    );
    let dir = plant(&root, &skill_md);
    let mut client = Client::initialized(&root, json!({}));
    let md_uri = uri(&dir.join("SKILL.md"));
    client.diagnostics_for(&md_uri);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": md_uri, "languageId": "markdown", "version": 1, "text": skill_md}}),
    );
    // 200 one-character edits sent at once, then a hover: one check of the latest text.
    for v in 0..200 {
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": md_uri, "version": v + 2}, "contentChanges": [{"range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}}, "text": "x"}]}),
        );
    }
    let started = std::time::Instant::now();
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": md_uri}, "position": {"line": 1, "character": 2}}),
    );
    let waited = started.elapsed();
    assert!(!hover.is_null());
    // Two hundred checks of 2.3 MB take minutes in a debug build; one takes seconds.
    assert!(waited < Duration::from_secs(45), "{waited:?}");
    client.shut_down();
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_server_registers_its_own_watchers_for_skill_folders_where_the_client_takes_them() {
    let root = scratch("watch");
    let dir = plant(&root.join("skills"), SKILL_MD);
    std::fs::create_dir_all(root.join("node_modules/x")).unwrap();
    let mut client = Client::initialized(
        &root,
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true, "relativePatternSupport": true}}}),
    );
    let registration = loop {
        let msg = client.next();
        if msg["method"] == "client/registerCapability" {
            break msg;
        }
    };
    let reg = &registration["params"]["registrations"][0];
    assert_eq!(reg["method"], "workspace/didChangeWatchedFiles");
    let watchers = reg["registerOptions"]["watchers"].as_array().unwrap();
    let text = serde_json::to_string(watchers).unwrap();
    assert!(
        text.contains("**/skillpg.toml") && text.contains("**/SKILL.md"),
        "{text}"
    );
    // The skill's folder, relative to its own base; nothing watches the whole tree.
    assert!(
        watchers.iter().any(|w| w["globPattern"]["baseUri"]
            .as_str()
            .is_some_and(|b| b.trim_end_matches('/') == uri(&dir))),
        "{text}"
    );
    assert!(
        !watchers.iter().any(|w| w["globPattern"] == "**/*"),
        "{text}"
    );
    assert!(!text.contains("node_modules"), "{text}");
    client.shut_down();
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_skill_md_of_many_broken_links_is_checked_in_linear_time() {
    // 80,000 links to a missing file: 80,000 findings, each merged across the chosen profiles.
    // Merging them by searching the list for each was quadratic (30 s a check in a release
    // build for 100,000 such links).
    let root = scratch("links");
    let body = "See [the guide](references/missing.md) first.\n".repeat(80_000);
    let skill_md = format!(
        "---\nname: bad-skill\ndescription: Formats tables. Use when a user pastes a CSV.\n---\n\n{body}"
    );
    let dir = plant(&root, &skill_md);
    let started = std::time::Instant::now();
    let mut client = Client::initialized(&root, json!({}));
    let diags = client.diagnostics_for(&uri(&dir.join("SKILL.md")));
    let took = started.elapsed();
    assert!(diags.len() >= 80_000, "{}", diags.len());
    // Quadratic, this took about 50 s here (debug build); linear, about 6 s.
    assert!(took < Duration::from_secs(25), "{took:?}");
    client.shut_down();
    let _ = std::fs::remove_dir_all(&root);
}
