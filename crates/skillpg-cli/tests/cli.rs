//! The `skillpg` binary end to end: exit codes, the JSON shapes the issue fixes, SARIF, text
//! output with a caret, `fix` printing a diff without writing, and `stats`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skillpg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skillpg"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run skillpg")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The entry of `key` in a JSON list of clients (`[{"client": …}]`).
fn client_entry(json: &serde_json::Value, key: &str) -> serde_json::Value {
    json.as_array()
        .and_then(|a| a.iter().find(|c| c["client"] == key))
        .cloned()
        .unwrap_or_else(|| panic!("no client {key} in {json}"))
}

/// `n` skill folders `{prefix}-00`, `{prefix}-01`, … whose descriptions are `description`.
fn temp_skills(prefix: &str, n: usize, description: &str) -> Vec<PathBuf> {
    (0..n)
        .map(|i| {
            let name = format!("{prefix}-{i:02}");
            temp_skill(
                &name,
                &format!("---\nname: {name}\ndescription: {description}\n---\n"),
            )
        })
        .collect()
}

fn temp_skill(name: &str, skill_md: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("skillpg-cli-{}-{name}", std::process::id()))
        .join(name);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("SKILL.md"), skill_md).expect("write");
    dir
}

#[test]
fn check_exit_codes_and_json_shape() {
    let good = temp_skill(
        "good-skill",
        "---\nname: good-skill\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n",
    );
    let bad = temp_skill(
        "bad-skill",
        "---\nname: Bad_Skill\ndescription: Use when: broken\n---\n",
    );
    let out = skillpg(&["check", "--format", "json", good.to_str().expect("utf-8")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let skill = &json["skills"][0];
    assert_eq!(
        (skill["name"].as_str(), skill["valid"].as_bool()),
        (Some("good-skill"), Some(true))
    );
    assert!(skill["path"].is_string() && skill["diagnostics"].is_array());

    let out = skillpg(&["check", "--format", "json", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let d = &json["skills"][0]["diagnostics"][0];
    for key in ["code", "severity", "message", "file", "line", "column"] {
        assert!(!d[key].is_null(), "diagnostic lacks {key}: {d}");
    }
    assert_eq!(d["code"], "SPG015");

    assert_eq!(skillpg(&["check", "does-not-exist"]).status.code(), Some(2));
    assert_eq!(
        skillpg(&["check", "--profile", "nope", good.to_str().expect("utf-8")])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(skillpg(&["check"]).status.code(), Some(2));
}

#[test]
fn text_output_shows_the_line_and_a_caret_and_sarif_is_valid_json() {
    let bad = temp_skill(
        "caret-skill",
        "---\nname: other-name\ndescription: Formats tables. Use when asked.\n---\n",
    );
    let out = skillpg(&["check", bad.to_str().expect("utf-8")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "error[SPG038]: Directory name 'caret-skill' must match skill name 'other-name'"
        ),
        "{text}"
    );
    assert!(
        text.contains("2 | name: other-name") && text.contains("^^^^^^^^^^"),
        "{text}"
    );
    let out = skillpg(&["check", "--format", "sarif", bad.to_str().expect("utf-8")]);
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).expect("sarif json");
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "SPG038");
}

#[test]
fn levels_and_cost_json() {
    let out = skillpg(&[
        "cost",
        "--format",
        "json",
        "--l1",
        "46",
        "--l2",
        "324",
        "--l3",
        "1346",
        "--read-tokens",
        "665",
        "--turns",
        "40",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["system_prompt"]["tokens"], 68_640);
    assert_eq!(
        format!(
            "{:.4}",
            json["system_prompt"]["usd"].as_f64().unwrap_or(0.0)
        ),
        "0.1373"
    );
    assert_eq!(
        format!(
            "{:.4}",
            json["system_prompt"]["usd_cached"].as_f64().unwrap_or(0.0)
        ),
        "0.0168"
    );
    assert_eq!(json["skill_used"]["tokens"], 2_829);
    assert_eq!(json["skill_unused"]["tokens"], 1_840);
    let out = skillpg(&["levels", "--format", "json", "web/samples/release-notes"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["skills"][0]["files"], 2);
    assert_eq!(json["total"]["level1"], json["skills"][0]["level1"]);
    assert!(
        json["skills"][0]["files_detail"][0]["tokens"]
            .as_u64()
            .unwrap_or(0)
            > 0
    );
}

#[test]
fn fix_prints_a_diff_and_writes_only_when_asked() {
    let dir = temp_skill(
        "fix-skill",
        "\u{feff}---\nname: fix-skill\ndescription: Use when: fixing\n---\n",
    );
    let before = std::fs::read(dir.join("SKILL.md")).expect("read");
    let out = skillpg(&["fix", dir.to_str().expect("utf-8")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("+description: \"Use when: fixing\"") && text.contains("# applied: SPG012"),
        "{text}"
    );
    assert_eq!(
        std::fs::read(dir.join("SKILL.md")).expect("read"),
        before,
        "fix without --write must not write"
    );
    let out = skillpg(&["fix", "--write", dir.to_str().expect("utf-8")]);
    assert!(out.status.success());
    let after = std::fs::read_to_string(dir.join("SKILL.md")).expect("read");
    assert_eq!(
        after,
        "---\nname: fix-skill\ndescription: \"Use when: fixing\"\n---\n"
    );
    assert_eq!(
        skillpg(&["check", dir.to_str().expect("utf-8")])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn stats_reproduce_the_chapter() {
    let out = String::from_utf8(skillpg(&["stats", "wilson", "18", "24"]).stdout).expect("utf-8");
    assert!(out.contains("[55.1, 88.0]"), "{out}");
    let out = String::from_utf8(skillpg(&["stats", "wilson", "10", "24"]).stdout).expect("utf-8");
    assert!(out.contains("[24.5, 61.2]"), "{out}");
    let out = String::from_utf8(skillpg(&["stats", "sign-test", "9", "1"]).stdout).expect("utf-8");
    assert!(out.contains("p = 0.0215"), "{out}");
    assert_eq!(
        skillpg(&["stats", "wilson", "5", "4"]).status.code(),
        Some(2)
    );
}

/// The listing budget runs only over a declared catalog, and is reported once for it.
#[test]
fn catalog_is_declared_and_reported_once() {
    let root = std::env::temp_dir().join(format!("skillpg-cli-{}-catalog", std::process::id()));
    for i in 0..60 {
        let dir = root.join(format!("s{i:02}"));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: s{i:02}\ndescription: Use when {}\n---\n",
                "x".repeat(200)
            ),
        )
        .expect("write");
    }
    let path = root.to_str().expect("utf-8");
    let alone = skillpg(&[
        "check",
        "--profile",
        "claude-code",
        "--format",
        "json",
        path,
    ]);
    let json: serde_json::Value = serde_json::from_slice(&alone.stdout).expect("json");
    assert_eq!(json["skills"].as_array().map(Vec::len), Some(60));
    assert_eq!(
        json["catalog"].as_array().map(Vec::len),
        Some(0),
        "no catalog unless declared"
    );
    assert!(!String::from_utf8_lossy(&alone.stdout).contains("SPG051"));
    let together = skillpg(&[
        "check",
        "--catalog",
        "--profile",
        "claude-code",
        "--format",
        "json",
        path,
    ]);
    assert_eq!(
        together.status.code(),
        Some(0),
        "the listing budget is advisory"
    );
    let json: serde_json::Value = serde_json::from_slice(&together.stdout).expect("json");
    assert_eq!(
        json["catalog"].as_array().map(Vec::len),
        Some(1),
        "{}",
        json["catalog"]
    );
    assert_eq!(json["catalog"][0]["code"], "SPG051");
    assert_eq!(
        String::from_utf8_lossy(&together.stdout)
            .matches("SPG051")
            .count(),
        1
    );
}

/// `compare` refuses requests without labels (no "0/n correct"), and negative thresholds parse.
#[test]
fn compare_refuses_unlabelled_requests_and_accepts_negative_thresholds() {
    let skill = temp_skill(
        "cmp-skill",
        "---\nname: cmp-skill\ndescription: Formats tables. Use when the user pastes CSV.\n---\n",
    );
    let requests = skill.parent().expect("parent").join("requests.txt");
    std::fs::write(
        &requests,
        "format this CSV => cmp-skill\nwhat is the weather\n",
    )
    .expect("write");
    let out = skillpg(&[
        "compare",
        "--requests",
        requests.to_str().expect("utf-8"),
        "--a",
        skill.to_str().expect("utf-8"),
        "--thin-b",
        "--threshold",
        "-0.5",
        "--margin",
        "-1",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(err.contains("1 of 2 have no label (request 2)"), "{err}");
    assert!(
        !err.contains("unexpected argument"),
        "a negative threshold is a value: {err}"
    );
}

/// A zip of `entries`, deflated.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    skillpg_core::ingest::write_archive(entries)
}

/// `zip` with every entry's uncompressed size rewritten to `size`, in the local headers and the
/// central directory: what a 2 GiB bomb declares, without deflating 2 GiB in a test.
fn declaring(mut zip: Vec<u8>, size: u32) -> Vec<u8> {
    for at in 0..zip.len().saturating_sub(30) {
        let offset = match zip[at..at + 4] {
            [0x50, 0x4b, 0x03, 0x04] => 22,
            [0x50, 0x4b, 0x01, 0x02] => 24,
            _ => continue,
        };
        zip[at + offset..at + offset + 4].copy_from_slice(&size.to_le_bytes());
    }
    zip
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("skillpg-cli-{}-archives", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path.to_str().expect("utf-8").to_owned()
}

fn check_json(args: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let out = skillpg(args);
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (
        out.status.code(),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Archives go through the same path as folders: an archive with no readable skill prints its
/// findings and fails under every profile; one that is fine passes; each finding carries the
/// profile's severity.
#[test]
fn archives_report_their_findings_and_fail_when_they_hold_no_skill() {
    // `SKILL.ZIP` is an archive as much as `good-skill.skill`: the extension's case does not matter.
    let shouting = temp_file(
        "GOOD-SKILL.ZIP",
        &zip_of(&[("good-skill/SKILL.md", b"---\nname: good-skill\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n")]),
    );
    let (code, json, err) = check_json(&["check", "--format", "json", &shouting]);
    assert_eq!(
        (code, &json["skills"][0]["name"]),
        (Some(0), &serde_json::json!("good-skill")),
        "read as an archive: {json} {err}"
    );
    let good = temp_file(
        "good-skill.skill",
        &zip_of(&[("good-skill/SKILL.md", b"---\nname: good-skill\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n")]),
    );
    let bomb = temp_file(
        "bomb.zip",
        &declaring(
            zip_of(&[("b/SKILL.md", b"---\n"), ("b/zeros.bin", &[0u8; 4096])]),
            0x7fff_ffff,
        ),
    );
    let corrupt = temp_file(
        "corrupt.zip",
        b"PK\x03\x04 this is not a zip archive at all",
    );
    let empty = temp_file("empty.zip", &zip_of(&[]));
    let traversal = temp_file(
        "traversal.zip",
        &zip_of(&[("../../etc/evil", b"x"), ("trav-skill/SKILL.md", b"---\nname: trav-skill\ndescription: Formats tables. Use when the user pastes CSV.\n---\n")]),
    );
    for profile in ["spec", "claude-ai", "claude-code", "strict-yaml"] {
        let (code, json, err) =
            check_json(&["check", "--profile", profile, "--format", "json", &good]);
        assert_eq!(code, Some(0), "{profile}: {json} {err}");
        assert_eq!(json["skills"][0]["name"], "good-skill");

        for (path, rule) in [
            (&bomb, "archive-too-large"),
            (&corrupt, "archive-unreadable"),
            (&empty, "missing-skill-md"),
        ] {
            let (code, json, err) =
                check_json(&["check", "--profile", profile, "--format", "json", path]);
            assert_eq!(
                code,
                Some(1),
                "{profile} {path}: an archive with no skill fails: {json} {err}"
            );
            let skills = json["skills"].as_array().expect("skills");
            assert_eq!(
                skills.len(),
                1,
                "{profile} {path}: the input is reported: {json}"
            );
            assert_eq!(skills[0]["valid"], false);
            assert_eq!(skills[0]["path"], path.as_str(), "located at the archive");
            let diags = skills[0]["diagnostics"].as_array().expect("diagnostics");
            assert!(
                diags
                    .iter()
                    .any(|d| d["rule"] == rule && d["severity"] == "error"),
                "{profile} {path}: {rule} is an error: {json}"
            );
            assert!(
                diags.iter().any(|d| d["rule"] == "missing-skill-md"),
                "{profile} {path}: {json}"
            );
        }

        // A path that climbs out is an error in every profile (a zip-slip attempt, refused in
        // every output format), and the entry is not extracted.
        let (code, json, err) = check_json(&[
            "check",
            "--profile",
            profile,
            "--format",
            "json",
            &traversal,
        ]);
        assert_eq!(code, Some(1), "{profile}: {json} {err}");
        let diags = json["skills"][0]["diagnostics"]
            .as_array()
            .expect("diagnostics");
        let outside = diags
            .iter()
            .find(|d| d["rule"] == "path-outside-folder")
            .expect("the traversal is reported");
        assert_eq!(
            outside["severity"], "error",
            "{profile}: a gate in every profile"
        );
        assert!(
            outside["message"]
                .as_str()
                .unwrap_or("")
                .contains("../../etc/evil")
        );
    }

    // Every output of every profile shows the traversal as an error (issue 28: the text of
    // `--profile all` once showed nothing, and the check passed).
    for format in ["text", "json", "sarif"] {
        let out = skillpg(&["check", "--profile", "all", "--format", format, &traversal]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{format}: {text}");
        assert!(
            text.contains("path-outside-folder") && text.contains("zip-slip"),
            "{format}: {text}"
        );
    }

    // The text output says where and what, and the verdict line counts the archive.
    let out = skillpg(&["check", &bomb]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(text.contains("error[SPG007]: the archive declares 4095 MB of files, over the limit of 64 MB; nothing was read"), "{text}");
    assert!(text.contains(&format!("--> {bomb}")), "{text}");
    assert!(text.contains("0 of 1 skill(s) valid"), "{text}");
    // Counting, fixing or routing an archive with nothing in it is an error that names it.
    for args in [
        &["levels", bomb.as_str()][..],
        &["fix", bomb.as_str()],
        &[
            "route",
            "--requests",
            "web/samples/routing/requests.json",
            bomb.as_str(),
        ],
    ] {
        let out = skillpg(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("bomb.zip: no skill could be read: the archive declares"),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn profile_all_prints_one_verdict_per_client_and_sarif_has_a_run_per_client() {
    // Loads everywhere but in VS Code, whose docs want the name to match the folder.
    let odd = temp_skill(
        "folder-name",
        "---\nname: other-name\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n",
    );
    let good = temp_skill(
        "good-one",
        "---\nname: good-one\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n",
    );
    let paths = [odd.to_str().expect("utf-8"), good.to_str().expect("utf-8")];
    let out = skillpg(&["check", "--profile", "all", paths[0], paths[1]]);
    assert_eq!(out.status.code(), Some(1), "a skill fails in some client");
    let text = String::from_utf8_lossy(&out.stdout);
    let keys: Vec<&str> = skillpg_core::profile::ALL.iter().map(|p| p.key).collect();
    let lines: Vec<&str> = text.lines().take(keys.len()).collect();
    for (line, key) in lines.iter().zip(&keys) {
        assert!(
            line.starts_with(key),
            "one line per client, in order: {line}"
        );
    }
    let line = |key: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(&format!("{key} ")))
            .copied()
            .unwrap_or_default()
    };
    assert!(
        // A failing skill is named by its path (its frontmatter name may be what is wrong).
        line("copilot").contains("1 of 2 load; fails: ")
            && line("copilot").contains("/folder-name (SPG038 name-dir-mismatch"),
        "{text}"
    );
    assert!(
        line("codex").contains("2 of 2 load"),
        "Codex checks no folder name: {text}"
    );
    assert!(
        text.contains("<https://developers.openai.com/codex/skills>"),
        "each client's source: {text}"
    );

    let out = skillpg(&[
        "check",
        "--profile",
        "all",
        "--format",
        "json",
        paths[0],
        paths[1],
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let copilot = json["clients"]
        .as_array()
        .expect("clients")
        .iter()
        .find(|c| c["client"] == "copilot")
        .expect("copilot");
    assert_eq!(copilot["skills"][0]["loads"], false);
    assert_eq!(copilot["skills"][0]["reason"]["rule"], "name-dir-mismatch");
    assert_eq!(json["checks"].as_array().map(Vec::len), Some(keys.len()));

    let out = skillpg(&[
        "check",
        "--profile",
        "all",
        "--format",
        "sarif",
        paths[0],
        paths[1],
    ]);
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).expect("sarif");
    let runs = sarif["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), keys.len(), "one run per client");
    assert_eq!(runs[5]["automationDetails"]["id"], "skillpg/copilot/");
    assert_eq!(runs[5]["results"][0]["ruleId"], "SPG038");
    assert!(
        runs[4]["results"]
            .as_array()
            .expect("codex results")
            .iter()
            .all(|r| r["level"] != "error"),
        "Codex: notes at most"
    );

    for key in &keys {
        let out = skillpg(&["check", "--profile", key, paths[1]]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "--profile {key}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn listing_says_which_descriptions_each_client_shortens() {
    let long = "Formats tables and converts CSV, TSV and spreadsheets with care. ".repeat(8);
    let dirs = temp_skills("lister", 12, &format!("{long}Use when asked."));
    let mut args = vec!["listing", "--context-window", "20000", "--format", "json"];
    args.extend(dirs.iter().map(|d| d.to_str().expect("utf-8")));
    let out = skillpg(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let client = |key: &str| client_entry(&json, key);
    let codex = client("codex");
    assert_eq!(
        (codex["budget"].as_u64(), codex["unit"].as_str()),
        (Some(400), Some("approximate tokens"))
    );
    assert!(codex["used"].as_u64() <= codex["budget"].as_u64());
    let cc = client("claude-code");
    assert_eq!(
        cc["budget"].as_u64(),
        Some(800),
        "1% of 20k tokens at 4 characters a token"
    );
    assert!(
        cc["skills"]
            .as_array()
            .expect("skills")
            .iter()
            .all(|s| s["shown_chars"].as_u64() < s["description_chars"].as_u64())
    );
    assert!(
        client("cursor")["budget"].is_null(),
        "Cursor documents no budget"
    );
    let text =
        String::from_utf8_lossy(&skillpg(&["listing", dirs[0].to_str().expect("utf-8")]).stdout)
            .into_owned();
    assert!(
        // No window given: the one default of every edge, 200,000 tokens (issue 37).
        text.contains("OpenAI Codex: ")
            && text.contains("of 4,000 approximate tokens at a 200,000-token window (fits)"),
        "{text}"
    );
}

/// `tests/heldout/clients.tsv`: each row's expected verdict per new client, against
/// `skillpg check --profile all` on that corpus skill.
#[test]
#[ignore = "slow tier, needs the shared corpus beside the repository: scripts/test runs it"]
fn held_out_skills_get_the_verdicts_written_down_before_the_run() {
    let corpus = root().join("../shared/corpus");
    assert!(
        corpus.exists(),
        "the shared corpus is absent: {} not found (this test needs ../shared/corpus beside the repository)",
        corpus.display()
    );
    let table =
        std::fs::read_to_string(root().join("crates/skillpg-cli/tests/heldout/clients.tsv"))
            .expect("the table");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    assert!(rows.len() >= 20, "at least 20 held-out skills");
    let clients = [
        "codex",
        "copilot",
        "cursor",
        "gemini-cli",
        "roo-code",
        "kilo-code",
        "cline",
        "zed",
        "crush",
        "pi",
        "goose",
        "opencode",
        "letta-code",
        "augment",
        "copilot-cli",
        "claude-code",
        "strict-yaml",
        "copilot-code",
    ];
    for row in &rows {
        assert_eq!(
            row.len(),
            clients.len() + 2,
            "{}: a verdict per client and why",
            row[0]
        );
    }
    let folders: Vec<String> = rows
        .iter()
        .map(|r| corpus.join(r[0]).to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["check", "--profile", "all", "--format", "json"];
    args.extend(folders.iter().map(String::as_str));
    let out = skillpg(&args);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let mut wrong = Vec::new();
    for (client_idx, client) in clients.iter().enumerate() {
        let row_of = json["clients"]
            .as_array()
            .expect("clients")
            .iter()
            .find(|c| c["client"] == *client)
            .expect("client");
        for (skill_idx, row) in rows.iter().enumerate() {
            let cell = &row_of["skills"][skill_idx];
            let got = if cell["loads"] == true {
                "loads".to_owned()
            } else {
                format!("fails:{}", cell["reason"]["rule"].as_str().unwrap_or("?"))
            };
            let want = row[1 + client_idx];
            if got != want {
                wrong.push(format!(
                    "{} in {client}: expected {want}, got {got} ({})",
                    row[0], cell["reason"]["message"]
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The routing model's files, fetched by `scripts/fetch-model`.
fn model_dir() -> PathBuf {
    let dir = root().join("target/model");
    assert!(
        dir.join("minilm-i8.spgm").exists(),
        "the routing model is absent: run scripts/fetch-model ({} not found)",
        dir.display()
    );
    dir
}

#[test]
#[ignore = "slow tier, needs the routing model (scripts/fetch-model): scripts/test runs it"]
fn eval_reports_train_and_validation_reproducibly_and_pairs_a_draft_on_validation() {
    let model = model_dir();
    let model = model.to_str().expect("utf-8").to_owned();
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut a: Vec<&str> = vec![
            "eval",
            "--model",
            &model,
            "--weights",
            "i8",
            "--kernel",
            "integer",
            "--evals",
            "web/samples/routing/evals-sql-review.json",
            "--skill",
            "sql-review",
            "--format",
            "json",
        ];
        a.extend_from_slice(extra);
        a.push("web/samples/routing");
        a.into_iter().map(str::to_owned).collect()
    };
    let run = |a: &[String]| skillpg(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let out = run(&args(&[]));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["queries"].as_array().map(Vec::len), Some(20));
    let held = report["queries"]
        .as_array()
        .expect("queries")
        .iter()
        .filter(|q| q["split"] == "validation")
        .count() as u64;
    assert_eq!(
        (
            report["train"]["n"].as_u64(),
            report["validation"]["n"].as_u64()
        ),
        (Some(20 - held), Some(held)),
        "each query in the part of its split"
    );
    assert!((4..=12).contains(&held), "about 40% held out: {held} of 20");
    assert!(
        report["version"].as_str().is_some_and(|v| v.len() == 8),
        "the eval set's version: {}",
        report["version"]
    );
    assert_eq!(
        report["catalog"].as_array().map(Vec::len),
        Some(5),
        "the other five skills compete"
    );
    assert!(
        report["validation"]["accuracy_ci"][0].as_f64()
            <= report["validation"]["accuracy"].as_f64()
    );
    // The same seed gives the same bytes; another seed another split.
    assert_eq!(run(&args(&[])).stdout, out.stdout);
    let other: serde_json::Value =
        serde_json::from_slice(&run(&args(&["--seed", "7"])).stdout).expect("json");
    let splits = |r: &serde_json::Value| {
        r["queries"]
            .as_array()
            .expect("queries")
            .iter()
            .map(|q| q["split"].as_str().unwrap_or_default().to_owned())
            .collect::<Vec<_>>()
    };
    assert_ne!(splits(&report), splits(&other));
    // A report reads back as the eval set, with its seed.
    let saved = std::env::temp_dir().join(format!("skillpg-eval-{}.json", std::process::id()));
    std::fs::write(&saved, &out.stdout).expect("write");
    let mut again = args(&[]);
    let at = again
        .iter()
        .position(|a| *a == "web/samples/routing/evals-sql-review.json")
        .expect("evals");
    again[at] = saved.to_str().expect("utf-8").to_owned();
    assert_eq!(
        run(&again).stdout,
        out.stdout,
        "the report is an eval set too"
    );
    // A draft is paired with the current description on validation only.
    let out = run(&args(&["--draft", "Reviews SQL."]));
    let cmp: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let c = &cmp["comparison"];
    // Every validation query is paired, or set aside as too close for the router to call.
    let pairs: u64 = ["both", "only_current", "only_draft", "neither", "too_close"]
        .iter()
        .map(|k| c[k].as_u64().expect("count"))
        .sum();
    assert_eq!(pairs, held, "the validation queries, paired");
    assert!(
        c["verdict"].as_str().is_some_and(|v| !v.is_empty()) && c["warning"].is_boolean(),
        "{c}"
    );
    assert!(
        c["p_value"]
            .as_f64()
            .is_some_and(|p| (0.0..=1.0).contains(&p))
    );
    assert_eq!(cmp["draft"]["description"], "Reviews SQL.");
}

#[test]
fn prompt_prints_the_decoder_system_prompt_as_written_and_thinned() {
    // `skillpg prompt` is the decoder's system prompt, one `- name: description` line a skill (the
    // benchmarks send it to wllama and llama.cpp); `--thin` gives the chapter's arm B, shorter.
    let out = skillpg(&["prompt", "web/samples/routing"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = String::from_utf8(out.stdout).expect("utf-8");
    let skills = std::fs::read_dir(root().join("web/samples/routing"))
        .expect("samples")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().join("SKILL.md").exists()))
        .count();
    assert_eq!(
        written.lines().filter(|l| l.starts_with("- ")).count(),
        skills,
        "{written}"
    );
    assert!(written.contains("- sql-review: "), "{written}");
    let thin = String::from_utf8(skillpg(&["prompt", "--thin", "web/samples/routing"]).stdout)
        .expect("utf-8");
    assert_eq!(thin.lines().filter(|l| l.starts_with("- ")).count(), skills);
    assert!(
        thin.len() < written.len(),
        "thinned descriptions are shorter"
    );
    assert_ne!(
        skillpg(&["prompt", "no/such/folder"]).status.code(),
        Some(0)
    );
}

#[test]
fn prompt_chat_prints_the_text_the_decoder_feeds_the_model() {
    // `--chat` is what the wllama benchmark sends, so that it runs the decoder's own template:
    // the system turn as the prefix, and each request's turn after it.
    let out = skillpg(&[
        "prompt",
        "--thin",
        "--chat",
        "--request",
        "Review this SQL query",
        "--request",
        "What's the weather?",
        "web/samples/routing",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let system = String::from_utf8(skillpg(&["prompt", "--thin", "web/samples/routing"]).stdout)
        .expect("utf-8");
    assert_eq!(v["prefix"], skillpg_routing::prompt::prompt_prefix(&system));
    assert_eq!(
        v["requests"][0],
        skillpg_routing::prompt::prompt_request("Review this SQL query")
    );
    assert_eq!(
        v["requests"][1],
        skillpg_routing::prompt::prompt_request("What's the weather?")
    );
    assert!(
        v["prefix"]
            .as_str()
            .is_some_and(|p| p.starts_with("<|im_start|>system\n") && p.contains("- sql-review: ")),
        "{v}"
    );
    // A request without --chat is a usage error, not a silently ignored flag.
    assert_ne!(
        skillpg(&["prompt", "--request", "x", "web/samples/routing"])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn where_says_where_each_client_looks_and_why_a_skill_would_not_be_listed() {
    // Issue 28: a skill inside another's folder, and two skills with one name.
    let dir = std::env::temp_dir().join(format!("skillpg-where-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let ok = |name: &str| {
        format!("---\nname: {name}\ndescription: Does a thing when asked.\n---\n# Body\n")
    };
    for (path, name) in [
        ("pdf/SKILL.md", "pdf"),
        ("pdf/references/forms/SKILL.md", "forms"),
        ("copy-of-pdf/SKILL.md", "pdf"),
    ] {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("dir");
        std::fs::write(&file, ok(name)).expect("write");
    }
    let out = skillpg(&["where", "--format", "json", dir.to_str().expect("utf-8")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let places: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let client = |key: &str| client_entry(&places, key);
    let skill = |c: &serde_json::Value, name: &str, dir: &str| {
        c["skills"]
            .as_array()
            .expect("skills")
            .iter()
            .find(|s| s["name"] == name && s["dir"] == dir)
            .expect("the skill")
            .clone()
    };
    let gemini = client("gemini-cli");
    assert_eq!(gemini["project"][0], ".gemini/skills");
    assert_eq!(
        skill(&gemini, "pdf", "pdf")["paths"][0],
        ".gemini/skills/pdf/SKILL.md"
    );
    assert_eq!(
        skill(&gemini, "forms", "forms")["not_listed"]["rule"],
        "skill-nested"
    );
    assert!(
        skill(&gemini, "pdf", "pdf")["same_name"][0]
            .as_str()
            .is_some_and(|p| p.ends_with("copy-of-pdf")),
        "{gemini}"
    );
    let codex = client("codex");
    assert!(
        skill(&codex, "forms", "forms")["not_listed"].is_null(),
        "{codex}"
    );
    assert_eq!(skill(&codex, "forms", "forms")["inside"], "pdf");
    // The text names the folders and the reason in the client's words.
    let text = skillpg(&[
        "where",
        "--client",
        "gemini-cli",
        dir.to_str().expect("utf-8"),
    ]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("project: .gemini/skills/, .agents/skills/"),
        "{text}"
    );
    assert!(
        text.contains("forms: not listed: SPG087 skill-nested"),
        "{text}"
    );
    assert!(!text.contains("OpenAI Codex"), "one client: {text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn doctor_explains_each_skill_a_client_would_not_list_in_its_own_words() {
    // Issue 28: a synthetic home with a name installed twice, a nested skill, a skill two
    // folders down, one that fails a gate, and a catalog over Codex's budget at a small window.
    let home = std::env::temp_dir().join(format!("skillpg-doctor-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let skill = |name: &str, description: &str| {
        format!("---\nname: {name}\ndescription: {description}\n---\n# Body\n")
    };
    for (path, text) in [
        (
            ".claude/skills/pdf/SKILL.md",
            skill("pdf", "Fills PDF forms when asked to."),
        ),
        (
            ".claude/skills/pdf/references/forms/SKILL.md",
            skill("forms", "Fills forms."),
        ),
        (
            ".agents/skills/pdf/SKILL.md",
            skill("pdf", "Reads PDF files when one is given."),
        ),
        (
            ".agents/skills/group/deep/SKILL.md",
            skill("deep", "Does deep work when asked."),
        ),
        (
            ".agents/skills/bad/SKILL.md",
            "---\nname: bad\n---\n# Body\n".to_owned(),
        ),
        (
            ".kimi/skills/notes/SKILL.md",
            "# Notes\n\nTakes notes when asked.\n".to_owned(),
        ),
    ] {
        let file = home.join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("dir");
        std::fs::write(&file, text).expect("write");
    }
    let home_arg = home.to_str().expect("utf-8");
    let out = skillpg(&[
        "doctor",
        "--format",
        "json",
        "--context-window",
        "1000",
        home_arg,
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let scans: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let seen = |client: &str, path: &str| {
        scans
            .as_array()
            .expect("clients")
            .iter()
            .find(|c| c["client"] == client)
            .and_then(|c| c["skills"].as_array())
            .and_then(|s| s.iter().find(|k| k["path"] == path))
            .unwrap_or_else(|| panic!("{client} {path}: {scans}"))
            .clone()
    };
    let why = |k: &serde_json::Value| k["why"].to_string();
    // Depth: Gemini CLI and Claude Code look one folder down; Codex walks to depth 6.
    let deep = seen("gemini-cli", ".agents/skills/group/deep");
    assert_eq!(deep["status"], "not found");
    assert!(why(&deep).contains("2 folder(s) down"), "{deep}");
    assert_eq!(
        seen("claude-code", ".claude/skills/pdf/references/forms")["status"],
        "not found"
    );
    assert_ne!(
        seen("codex", ".agents/skills/group/deep")["status"],
        "not found"
    );
    // Kimi Code CLI scans only the first of `.kimi`, `.claude` and `.codex` that exists (and
    // loads a SKILL.md without frontmatter, named after its folder).
    assert_eq!(seen("kimi-cli", ".kimi/skills/notes")["status"], "loads");
    let hidden = seen("kimi-cli", ".claude/skills/pdf");
    assert_eq!(hidden["status"], "not found");
    assert!(why(&hidden).contains("`.kimi/skills` does"), "{hidden}");
    assert_eq!(seen("kimi-cli", ".agents/skills/bad")["status"], "loads");
    // A gate, in the client's words.
    let bad = seen("gemini-cli", ".agents/skills/bad");
    assert_eq!(bad["status"], "not listed");
    assert!(why(&bad).contains("description-missing"), "{bad}");
    // A name installed twice: the client's precedence.
    let twice = seen("copilot", ".claude/skills/pdf");
    assert!(
        why(&twice).contains("the same name in .agents/skills/pdf and .claude/skills/pdf"),
        "{twice}"
    );
    // Codex at a 1,000-token window (the least a window may be): 20 tokens of listing, so
    // skills are left out.
    let codex: Vec<serde_json::Value> = client_entry(&scans, "codex")["skills"]
        .as_array()
        .expect("codex")
        .clone();
    assert!(
        codex
            .iter()
            .any(|k| why(k).contains("left out of OpenAI Codex's listing")),
        "{codex:?}"
    );
    let text = skillpg(&["doctor", "--client", "gemini-cli", home_arg]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Gemini CLI (gemini-cli)") && !text.contains("OpenAI Codex"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn claude_codes_listing_settings_are_settable_and_checked() {
    // Issue 28: skillListingBudgetFraction and skillListingMaxDescChars (Claude Code docs
    // v2.1.240), for `listing` and `check --catalog`.
    let long = "Formats tables and converts CSV files with care when asked to. ".repeat(10);
    let dirs = temp_skills("settable", 6, &long);
    let paths: Vec<&str> = dirs.iter().map(|d| d.to_str().expect("utf-8")).collect();
    let claude = |extra: &[&str]| {
        let mut args = vec!["listing", "--context-window", "20000", "--format", "json"];
        args.extend(extra);
        args.extend(&paths);
        let out = skillpg(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        client_entry(&json, "claude-code")
    };
    let default = claude(&[]);
    assert_eq!(
        default["budget"], 800,
        "1% of 20,000 tokens at 4 characters a token"
    );
    let set = claude(&["--budget-fraction", "0.05", "--max-desc-chars", "200"]);
    assert_eq!(set["budget"], 4000);
    assert!(set["whole"].as_u64() < default["whole"].as_u64(), "{set}");
    // The catalog check follows the same settings: over at 1%, fits at 5% with 200 characters.
    let mut catalog = vec![
        "check",
        "--catalog",
        "--profile",
        "claude-code",
        "--context-window",
        "20000",
    ];
    catalog.extend(&paths);
    let over = String::from_utf8_lossy(&skillpg(&catalog).stdout).into_owned();
    assert!(
        over.contains("SPG051") && over.contains("(1% of a 20,000-token window)"),
        "{over}"
    );
    catalog.extend(["--budget-fraction", "0.05", "--max-desc-chars", "200"]);
    let fits = String::from_utf8_lossy(&skillpg(&catalog).stdout).into_owned();
    assert!(!fits.contains("SPG051"), "{fits}");
    // Over again at 2% with the default cap: the message names the share that was set.
    let mut two = vec![
        "check",
        "--catalog",
        "--profile",
        "claude-code",
        "--context-window",
        "20000",
    ];
    two.extend(&paths);
    two.extend(["--budget-fraction", "0.02"]);
    let two = String::from_utf8_lossy(&skillpg(&two).stdout).into_owned();
    assert!(two.contains("(2% of a 20,000-token window)"), "{two}");
    // A share that is not one is a usage error.
    let bad = skillpg(&["listing", "--budget-fraction", "1.5", paths[0]]);
    assert_eq!(bad.status.code(), Some(2));
    // skillOverrides: the first skill off, the second by name only; the rest priced alone.
    let first = dirs[0]
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a folder name");
    let second = dirs[1]
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a folder name");
    let off_arg = format!("{first}=off");
    let name_only_arg = format!("{second}=name-only");
    let overridden = claude(&[
        "--skill-override",
        &off_arg,
        "--skill-override",
        &name_only_arg,
    ]);
    let state_of = |name: &str| {
        overridden["skills"]
            .as_array()
            .expect("skills")
            .iter()
            .find(|s| s["name"] == name)
            .map(|s| s["state"].clone())
            .expect("the skill is in the listing")
    };
    assert_eq!(state_of(first), "off");
    assert_eq!(state_of(second), "name-only");
    assert!(
        overridden["whole"].as_u64() < default["whole"].as_u64(),
        "{overridden}"
    );
    let mut text_args = vec!["listing", "--context-window", "20000", "--skill-override"];
    text_args.push(&off_arg);
    text_args.extend(&paths);
    let text = String::from_utf8_lossy(&skillpg(&text_args).stdout).into_owned();
    assert!(
        text.contains(&format!("{first}: not listed (skillOverrides: off)")),
        "{text}"
    );
    // The budget gate: over at 100% (the listing is cut at 1% of 20,000 tokens), within at a
    // generous absolute limit, and a client without a budget is a usage error.
    let mut gate = vec![
        "listing",
        "--context-window",
        "20000",
        "--fail-over",
        "claude-code=100%",
    ];
    gate.extend(&paths);
    let over = skillpg(&gate);
    assert_eq!(over.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&over.stderr)
            .contains("over the budget gate: Claude Code: the listing takes"),
        "{}",
        String::from_utf8_lossy(&over.stderr)
    );
    let mut roomy = vec![
        "listing",
        "--context-window",
        "20000",
        "--fail-over",
        "claude-code=1000000",
    ];
    roomy.extend(&paths);
    assert_eq!(skillpg(&roomy).status.code(), Some(0));
    let no_budget = skillpg(&["listing", "--fail-over", "cursor=90%", paths[0]]);
    assert_eq!(no_budget.status.code(), Some(2));
    let bad_state = skillpg(&["listing", "--skill-override", "x=sometimes", paths[0]]);
    assert_eq!(bad_state.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad_state.stderr)
            .contains("on, name-only, user-invocable-only, off"),
        "the message lists the states"
    );
}

#[test]
fn a_baseline_lets_check_fail_only_on_new_errors() {
    // Issue 29: `skillpg baseline` records today's errors; `check --baseline` fails only on
    // errors it does not hold, and an edit above an old error does not make it new.
    let dir = std::env::temp_dir().join(format!("skillpg-baseline-{}", std::process::id()));
    let skill = dir.join("pdf");
    std::fs::create_dir_all(&skill).expect("dir");
    let write = |text: &str| std::fs::write(skill.join("SKILL.md"), text).expect("write");
    write("---\nname: PDF\ndescription: Use when asked.\n---\n# Body\n");
    let path = skill.to_str().expect("utf-8");
    let recorded = skillpg(&["baseline", "--profile", "spec", path]);
    assert_eq!(recorded.status.code(), Some(0));
    let file = dir.join("baseline.json");
    std::fs::write(&file, &recorded.stdout).expect("the baseline");
    let file = file.to_str().expect("utf-8");
    assert_eq!(
        skillpg(&["check", path]).status.code(),
        Some(1),
        "the old error fails plain check"
    );
    let known = skillpg(&["check", "--baseline", file, path]);
    assert_eq!(known.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&known.stderr).contains("not counted, 0 new"),
        "{}",
        String::from_utf8_lossy(&known.stderr)
    );
    // A line above moves the old error down: still known.
    write("---\n# a comment\nname: PDF\ndescription: Use when asked.\n---\n# Body\n");
    assert_eq!(
        skillpg(&["check", "--baseline", file, path]).status.code(),
        Some(0)
    );
    // A new error fails.
    write("---\nname: PDF\n---\n# Body\n");
    let new = skillpg(&["check", "--baseline", file, path]);
    assert_eq!(new.status.code(), Some(1));
    std::fs::write(dir.join("bad.json"), "[]").expect("write");
    let bad = skillpg(&[
        "check",
        "--baseline",
        dir.join("bad.json").to_str().expect("utf-8"),
        path,
    ]);
    assert_eq!(bad.status.code(), Some(2), "not a baseline: a usage error");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn skillpg_toml_chooses_profiles_and_roots_ignores_with_a_reason_and_sets_severities() {
    // Issue 29: the project's settings, read by `check` (--config, or skillpg.toml here).
    let dir = std::env::temp_dir().join(format!("skillpg-config-{}", std::process::id()));
    let skill = dir.join("skills").join("PDF");
    std::fs::create_dir_all(&skill).expect("dir");
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: PDF\ndescription: Use when asked.\n---\n# Body\n",
    )
    .expect("write");
    let config = dir.join("skillpg.toml");
    let write = |text: &str| std::fs::write(&config, text).expect("the config");
    let run = || skillpg(&["check", "--config", config.to_str().expect("utf-8")]);
    // Roots from the file, the spec's verdict: the uppercase name fails.
    write("profiles = [\"spec\"]\nroots = [\"skills\"]\n");
    assert_eq!(run().status.code(), Some(1));
    // Ignored for this skill, with a reason: it passes, and stderr says one was ignored.
    write(
        "profiles = [\"spec\"]\nroots = [\"skills\"]\n\n[[ignore]]\nrule = \"name-not-lowercase\"\nskill = \"PDF\"\nreason = \"kept for old links\"\n",
    );
    let ok = run();
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    assert!(String::from_utf8_lossy(&ok.stderr).contains("1 finding(s) ignored"));
    // Two profiles: one verdict per client, as --profile all prints them.
    write("profiles = [\"spec\", \"codex\"]\nroots = [\"skills\"]\n");
    let both = String::from_utf8_lossy(&run().stdout).into_owned();
    assert!(
        both.contains("OpenAI Codex") && both.contains("skills-ref"),
        "{both}"
    );
    // A rule raised to an error fails a skill that loads everywhere else.
    write(
        "profiles = [\"codex\"]\nroots = [\"skills\"]\n[severity]\nname-not-lowercase = \"error\"\n",
    );
    assert_eq!(run().status.code(), Some(1));
    // A baseline is recorded under the same settings, so the raised error is known to it.
    let cfg = config.to_str().expect("utf-8");
    let recorded = skillpg(&["baseline", "--config", cfg]);
    assert_eq!(recorded.status.code(), Some(0));
    let baseline = dir.join("baseline.json");
    std::fs::write(&baseline, &recorded.stdout).expect("the baseline");
    let known = skillpg(&[
        "check",
        "--config",
        cfg,
        "--baseline",
        baseline.to_str().expect("utf-8"),
    ]);
    assert_eq!(
        known.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&known.stderr)
    );
    // A mistake in the file is a usage error that names it.
    write("[[ignore]]\nrule = \"name-not-lowercase\"\n");
    let bad = run();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("reason"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `skillpg clients` names every profile with what its verdicts rest on: the client's own
/// loader where the test suite runs it, else a dated source; and the versions that differ.
#[test]
fn clients_says_what_each_verdict_rests_on() {
    let out = skillpg(&["clients", "--format", "json"]);
    assert!(out.status.success());
    let all: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let all = all.as_array().expect("a list");
    assert_eq!(all.len(), skillpg_core::profile::ALL.len());
    for c in all {
        assert!(c["as_of"].as_str().is_some_and(|a| a.contains("20")), "{c}");
        assert!(
            c["source"]
                .as_str()
                .is_some_and(|s| s.starts_with("https://")),
            "{c}"
        );
    }
    let entry = |key: &str| {
        all.iter()
            .find(|c| c["key"] == key)
            .expect("a client")
            .clone()
    };
    assert_eq!(
        entry("pi")["oracle"],
        "@mariozechner/pi-coding-agent 0.73.1"
    );
    assert_eq!(entry("spec")["oracle"], "skills-ref 0.1.1");
    assert!(entry("codex")["oracle"].is_null());
    for moved in ["zed", "cline", "kilo-code"] {
        assert!(entry(moved)["other_versions"].is_string(), "{moved}");
    }
    let text = String::from_utf8(skillpg(&["clients"]).stdout).expect("UTF-8");
    assert!(text.contains("Gemini CLI (gemini-cli)\n  verified: @google/gemini-cli-core 0.61.0"));
}

/// `check --profile all` streams: the JSON it writes skill by skill is the document the
/// in-memory report makes (`skillpg_report::client_verdicts` and `check_json`, as the CLI
/// printed it before it streamed), byte for byte, over good, failing and archive inputs; and
/// `--format jsonl` gives one line a skill whose verdicts are each client's and whose findings
/// are each client's findings, each written once.
#[test]
fn check_all_streams_the_same_report_and_jsonl_names_each_finding_once() {
    use skillpg_core::{Profile, analyze, profile::ALL};
    let good = temp_skill(
        "stream-good",
        "---\nname: stream-good\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n",
    );
    let bad = temp_skill(
        "stream-bad",
        "---\nname: Stream_Bad\ndescription: Use when: broken\nversion: 2\n---\nSee [x](missing.md).\n",
    );
    // An archive that cannot be read: an input whose own findings are its one skill's.
    let zip = good.parent().expect("a parent").join("broken.zip");
    std::fs::write(&zip, b"PK\x03\x04 not really a zip").expect("write");
    let paths = vec![good.clone(), bad.clone(), zip];
    let args: Vec<&str> = paths.iter().map(|p| p.to_str().expect("UTF-8")).collect();

    // The in-memory report, made here as the CLI made it.
    let project = skillpg_report::project::Project {
        config: None,
        listing: &skillpg_core::catalog::ListingSettings::default(),
    };
    let mut analyses = Vec::new();
    let mut own = Vec::new();
    for p in &paths {
        let ingested = skillpg_fs::read_path(p).expect("read");
        for (i, b) in ingested
            .checked_skills(&p.display().to_string())
            .iter()
            .enumerate()
        {
            analyses.push(analyze(b));
            own.push(if i == 0 {
                ingested.diagnostics.clone()
            } else {
                Vec::new()
            });
        }
    }
    let checks: Vec<(&Profile, Vec<Vec<skillpg_core::Diagnostic>>)> = ALL
        .iter()
        .map(|p| {
            let per = analyses
                .iter()
                .zip(&own)
                .map(|(a, o)| project.findings(p, a, o).0)
                .collect();
            (*p, per)
        })
        .collect();
    let reports: Vec<_> = checks
        .iter()
        .map(|(p, per)| skillpg_report::check_json(p, &analyses, per, &[]))
        .collect();
    let expected = serde_json::to_string_pretty(&serde_json::json!({
        "clients": skillpg_report::client_verdicts(&analyses, &checks),
        "checks": reports,
    }))
    .expect("JSON");
    let mut json_args = vec!["check", "--profile", "all", "--format", "json"];
    json_args.extend(&args);
    let out = skillpg(&json_args);
    assert_eq!(out.status.code(), Some(1), "one skill fails somewhere");
    assert_eq!(
        String::from_utf8(out.stdout).expect("UTF-8"),
        format!("{expected}\n")
    );

    let mut line_args = vec!["check", "--profile", "all", "--format", "jsonl"];
    line_args.extend(&args);
    let out = skillpg(&line_args);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), analyses.len(), "one line a skill");
    for (line, (a, i)) in lines.iter().zip(analyses.iter().zip(0..)) {
        assert_eq!(line["path"], a.display_path.as_str());
        let mut written = 0;
        for (p, per) in &checks {
            let client = line["clients"]
                .as_array()
                .expect("clients")
                .iter()
                .find(|c| c["client"] == p.key)
                .expect("every client");
            assert_eq!(
                client["loads"],
                skillpg_core::is_valid(&per[i]),
                "{}",
                p.key
            );
            // Each of the client's findings is there once, naming the client.
            for d in &per[i] {
                let hits = line["findings"]
                    .as_array()
                    .expect("findings")
                    .iter()
                    .filter(|f| {
                        f["code"] == d.code
                            && f["message"] == d.message.as_str()
                            && f["severity"] == d.severity.as_str()
                            && f["file"] == d.file.as_str()
                    })
                    .count();
                assert_eq!(hits, 1, "{} {}", p.key, d.message);
                written += 1;
            }
        }
        let named: usize = line["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| f["clients"].as_array().expect("clients").len())
            .sum();
        assert!(
            named <= written,
            "no finding names a client that did not raise it"
        );
        if i == 1 {
            assert!(
                line["findings"]
                    .as_array()
                    .expect("findings")
                    .iter()
                    .any(|f| f["clients"].as_array().expect("clients").len() > 1),
                "a finding shared by several clients is written once: {line}"
            );
        }
    }
    let out = skillpg(&["check", "--format", "jsonl", "--catalog", args[0]]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "jsonl cannot wait for a catalog"
    );
}

/// The webhooks case held in the tree (`crates/skillpg-routing/tests/fixtures/webhooks`): a
/// bare list of the train queries' words and an honest rewrite in the skill's own words, judged
/// by the routing model among the skill's neighbours, get different words: the list is called
/// keyword stuffing, the rewrite is not, and each sentence says train and validation together.
#[test]
#[ignore = "slow tier, needs the routing model (scripts/fetch-model): scripts/test runs it"]
#[allow(
    clippy::print_stdout,
    reason = "the test prints both verdicts, for the closing notes"
)]
fn a_keyword_list_and_an_honest_rewrite_get_different_verdicts_in_words() {
    let model = model_dir();
    let fixture = root().join("crates/skillpg-routing/tests/fixtures/webhooks");
    let read = |f: &str| std::fs::read_to_string(fixture.join(f)).expect("a fixture");
    let judge = |draft: &str| -> serde_json::Value {
        let evals = fixture.join("evals.txt");
        let folders: Vec<PathBuf> = ["webhooks", "cron-jobs", "email-digest"]
            .iter()
            .map(|s| fixture.join(s))
            .collect();
        let mut args: Vec<&str> = vec![
            "eval",
            "--model",
            model.to_str().expect("UTF-8"),
            "--weights",
            "i8",
            "--kernel",
            "integer",
            "--evals",
            evals.to_str().expect("UTF-8"),
            "--skill",
            "webhooks",
            "--draft",
            draft,
            "--format",
            "json",
        ];
        args.extend(folders.iter().map(|f| f.to_str().expect("UTF-8")));
        let out = skillpg(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("JSON")
    };
    let whole_honest = judge(read("honest.txt").trim());
    let judge = |draft: &str| judge(draft)["comparison"].clone();
    let keywords = judge(read("keywords.txt").trim());
    let honest = whole_honest["comparison"].clone();
    // Issue 49's scenario: the four words the lab suggests from the lost should-trigger train
    // queries, appended to the description as written, are flagged as fitted to those queries;
    // the honest rewrite adds none of them and is not called worse over one query.
    let current_description = "Handles webhook endpoints.";
    let lost: Vec<String> = whole_honest["current"]["queries"]
        .as_array()
        .expect("the current run's queries")
        .iter()
        .filter(|q| q["split"] == "train" && q["should_trigger"] == true && q["triggered"] == false)
        .map(|q| q["query"].as_str().expect("a query").to_owned())
        .collect();
    let lost: Vec<&str> = lost.iter().map(String::as_str).collect();
    let suggested = skillpg_routing::explain::candidate_terms(current_description, &lost, 4);
    assert_eq!(suggested.len(), 4, "four words to suggest: {lost:?}");
    let appended = judge(&format!("{current_description} {}", suggested.join(" ")));
    println!(
        "suggested words appended: {}\n  {}",
        appended["summary"], appended["fitted"]
    );
    assert!(
        appended["fitted"]
            .as_str()
            .is_some_and(|w| w.contains("that gain is fitted")),
        "{appended}"
    );
    assert!(honest["fitted"].is_null(), "{honest}");
    assert_eq!(honest["warning"], false, "{honest}");
    println!(
        "keyword list: {}\n  {}\nhonest rewrite: {}",
        keywords["summary"], keywords["stuffing_words"], honest["summary"]
    );
    assert!(
        keywords["stuffing_words"]
            .as_str()
            .is_some_and(|w| w.contains("keyword stuffing")),
        "{keywords}"
    );
    assert!(honest["stuffing"].is_null(), "{honest}");
    for c in [&keywords, &honest] {
        let summary = c["summary"].as_str().expect("a sentence");
        assert!(summary.starts_with("On train, ") && summary.contains(" On validation, "));
        assert_eq!(
            c["one_split"].as_str(),
            Some(skillpg_routing::eval::ONE_SPLIT_ONLY),
            "judged on one split, and said why"
        );
    }
    let warnings = |c: &serde_json::Value| {
        [&c["stuffing_words"], &c["overfit"], &c["train_loss"]]
            .iter()
            .map(|v| !v.is_null())
            .collect::<Vec<_>>()
    };
    assert_ne!(
        warnings(&keywords),
        warnings(&honest),
        "different verdicts in words"
    );
}

#[test]
#[ignore = "slow tier, needs the routing model (scripts/fetch-model): scripts/test runs it"]
fn the_routing_benchmarks_stored_scores_are_the_models_own() {
    let model = model_dir();
    let out_file = std::env::temp_dir().join(format!("skillpg-bench-{}.json", std::process::id()));
    let out = skillpg(&[
        "bench-preview",
        "--model",
        model.to_str().expect("utf-8"),
        "--weights",
        "i8",
        "--kernel",
        "integer",
        "--scores-out",
        out_file.to_str().expect("utf-8"),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fresh: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out_file).expect("scores written")).expect("json");
    let _ = std::fs::remove_file(&out_file);
    let kept: serde_json::Value =
        serde_json::from_str(skillpg_routing::bench_report::STORED_MINILM_I8).expect("json");
    // The integer kernel is exact, so the kept cosines are the model's to the last digit
    // printed; a small tolerance only absorbs float formatting.
    let flat = |v: &serde_json::Value| -> Vec<f64> {
        let mut all = Vec::new();
        for s in v["suites"].as_array().expect("suites") {
            for set in ["as_written", "thinned", "authors_thin"] {
                for row in s[set].as_array().into_iter().flatten() {
                    all.extend(
                        row.as_array()
                            .expect("row")
                            .iter()
                            .map(|x| x.as_f64().expect("number")),
                    );
                }
            }
        }
        all
    };
    let (a, b) = (flat(&fresh), flat(&kept));
    assert_eq!(a.len(), b.len(), "the same tasks and skills");
    assert!(
        a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-5),
        "the kept scores are the model's"
    );
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains(skillpg_routing::bench_report::BENCHMARK_LINE),
        "{report}"
    );
}
