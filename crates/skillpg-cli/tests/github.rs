//! `skillpg github`, the GitHub Action's step, in a GitHub-like environment: a scratch git
//! repository with a pull request's two commits, the event payload file, `GITHUB_STEP_SUMMARY`
//! and `GITHUB_OUTPUT`. Its annotations, summary and comment body are held to reviewed
//! snapshots (`UPDATE_EXPECT=1` rewrites them). Needs git, as any clone of this repository has.

mod common;
use common::git;

use std::path::PathBuf;
use std::process::Command;

fn write(path: PathBuf, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

#[test]
fn a_pull_request_is_checked_annotated_and_summarized() {
    let scratch = std::env::temp_dir().join(format!("skillpg-github-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let repo = scratch.join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    git(&repo, &["init", "-q"]);
    write(
        repo.join("skillpg.toml"),
        "profiles = [\"spec\", \"claude-code\"]\nroots = [\"skills\"]\n",
    );
    write(
        repo.join("skills/tables/SKILL.md"),
        "---\nname: tables\ndescription: Formats tables.\n---\n\n# Tables\n",
    );
    write(
        repo.join("skills/untouched/SKILL.md"),
        "---\nname: untouched\ndescription: Never changed by the pull request.\n---\n\n# Untouched\n",
    );
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "base"]);
    let base = git(&repo, &["rev-parse", "HEAD"]);
    // The pull request: one skill edited, one added with an error and a reference, a file
    // outside every skill.
    write(
        repo.join("skills/tables/SKILL.md"),
        "---\nname: tables\ndescription: Formats tables. Use when a user pastes CSV and asks for a table.\n---\n\n# Tables\n\nSee [the style guide](references/style.md).\n",
    );
    write(
        repo.join("skills/tables/references/style.md"),
        "# Style\n\nRight-align numbers.\n",
    );
    write(
        repo.join("skills/Bad_Skill/SKILL.md"),
        "---\nname: Bad_Skill\ndescription: \"Does things: many, many things\"\n---\n\n# Bad\n",
    );
    write(repo.join("README.md"), "# Skills\n");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "pull request"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);

    let event = scratch.join("event.json");
    write(
        event.clone(),
        &serde_json::json!({"number": 7, "pull_request": {"number": 7, "base": {"sha": base}, "head": {"sha": head}}})
            .to_string(),
    );
    let summary = scratch.join("summary.md");
    let outputs = scratch.join("outputs.txt");
    let comment = scratch.join("comment.md");
    let sarif = scratch.join("skills.sarif");
    let out = Command::new(env!("CARGO_BIN_EXE_skillpg"))
        .arg("github")
        .arg("--comment")
        .arg(&comment)
        .arg("--sarif")
        .arg(&sarif)
        .args(["--playground", "https://owner.github.io/skill-playground/"])
        .current_dir(&repo)
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_OUTPUT", &outputs)
        .output()
        .expect("skillpg runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "an error fails the step: {stderr}"
    );

    let annotations = String::from_utf8_lossy(&out.stdout);
    expect_test::expect_file!["snapshots/github-annotations.txt"].assert_eq(&annotations);
    let summary = std::fs::read_to_string(&summary).expect("the summary is written");
    expect_test::expect_file!["snapshots/github-summary.md"].assert_eq(&summary);
    let body = std::fs::read_to_string(&comment).expect("the comment is written");
    expect_test::expect_file!["snapshots/github-comment.md"].assert_eq(&body);
    assert!(body.starts_with(skillpg_comment_marker()));
    // Each changed skill's link opens it alone in the page, checked.
    assert!(body.contains("- [`tables`](https://owner.github.io/skill-playground/#v1="));
    assert!(body.contains("&view=check)"));
    assert!(
        !summary.contains("untouched"),
        "only the changed skills are checked"
    );

    let outputs = std::fs::read_to_string(&outputs).expect("the outputs are written");
    assert!(outputs.contains("valid=false\nskills=2\n"), "{outputs}");
    assert!(outputs.contains(&format!("comment-file={}", comment.display())));
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).expect("SARIF")).expect("JSON");
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(
        sarif["runs"].as_array().map(Vec::len),
        Some(2),
        "a run per client"
    );

    // No pull request or push to compare (a manual run): skillpg.toml's roots, every skill.
    let out = Command::new(env!("CARGO_BIN_EXE_skillpg"))
        .arg("github")
        .current_dir(&repo)
        .env_remove("GITHUB_EVENT_PATH")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_OUTPUT")
        .output()
        .expect("skillpg runs");
    let all = String::from_utf8_lossy(&out.stdout);
    assert!(all.contains("skills/Bad_Skill/SKILL.md"), "{all}");
    let _ = std::fs::remove_dir_all(&scratch);
}

fn skillpg_comment_marker() -> &'static str {
    "<!-- skillpg-action -->"
}

/// Runs `skillpg github` in `repo` for a pull request from `base` to `head`; the summary, the
/// outputs and the comment body.
fn github_pr(
    repo: &std::path::Path,
    base: &str,
    head: &str,
    extra: &[&str],
) -> (String, String, String) {
    let scratch = repo.parent().expect("a parent").to_path_buf();
    let event = scratch.join("event.json");
    write(
        event.clone(),
        &serde_json::json!({"pull_request": {"number": 1, "base": {"sha": base}, "head": {"sha": head}}}).to_string(),
    );
    let (summary, outputs, comment) = (
        scratch.join("summary.md"),
        scratch.join("outputs.txt"),
        scratch.join("comment.md"),
    );
    for f in [&summary, &outputs, &comment] {
        let _ = std::fs::remove_file(f);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_skillpg"))
        .arg("github")
        .arg("--comment")
        .arg(&comment)
        .args(extra)
        .current_dir(repo)
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_OUTPUT", &outputs)
        .output()
        .expect("skillpg runs");
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |p: &PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    (read(&summary), read(&outputs), read(&comment))
}

#[test]
fn deleted_and_renamed_skills_are_listed_and_the_budget_prices_the_installed_catalog() {
    let scratch =
        std::env::temp_dir().join(format!("skillpg-github-removed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let repo = scratch.join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    git(&repo, &["init", "-q"]);
    write(repo.join("skillpg.toml"), "roots = [\"skills\"]\n");
    for name in ["gone", "moved", "kept", "other"] {
        write(
            repo.join(format!("skills/{name}/SKILL.md")),
            &format!(
                "---\nname: {name}\ndescription: Does {name} things when a user asks for {name}.\n---\n\n# {name}\n"
            ),
        );
    }
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "base"]);
    let base = git(&repo, &["rev-parse", "HEAD"]);
    git(&repo, &["rm", "-rq", "skills/gone"]);
    git(&repo, &["mv", "skills/moved", "skills/renamed"]);
    write(
        repo.join("skills/kept/SKILL.md"),
        "---\nname: kept\ndescription: Does kept things when a user asks for kept, now better.\n---\n\n# kept\n",
    );
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "pr"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);
    let (summary, outputs, comment) = github_pr(&repo, &base, &head, &[]);
    assert!(summary.contains("`skills/gone`: deleted"), "{summary}");
    assert!(
        summary.contains("`skills/moved` → `skills/renamed`: renamed"),
        "{summary}"
    );
    assert!(comment.contains("`skills/gone`: deleted"), "{comment}");
    assert!(outputs.contains("removed=2\n"), "{outputs}");
    // Two skills checked (the renamed and the edited), but each client's listing prices the
    // three skills installed under `roots`.
    assert!(outputs.contains("skills=2\n"), "{outputs}");
    let claude = summary
        .lines()
        .find(|l| l.starts_with("| claude-code |"))
        .expect("Claude Code's budget row");
    let one_each: usize = ["kept", "renamed", "other"].len();
    assert!(claude.contains("characters"), "{claude}");
    let chars: usize = claude
        .split('|')
        .nth(2)
        .and_then(|c| c.trim().split(' ').next())
        .and_then(|n| n.replace(',', "").parse().ok())
        .expect("a number");
    assert!(chars > 100 * one_each / 2, "{claude}");
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
#[ignore = "slow tier, needs the shared corpus beside the repository: scripts/test runs it"]
fn the_comment_on_two_large_anthropic_skills_stays_under_githubs_limit() {
    let corpus = skillpg_fs::corpus_dir().join("anthropics__skills");
    assert!(
        corpus.is_dir(),
        "the shared corpus is not at {}: this test reads mcp-builder and web-artifacts-builder from it",
        corpus.display()
    );
    let scratch = std::env::temp_dir().join(format!("skillpg-github-large-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let repo = scratch.join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    git(&repo, &["init", "-q"]);
    write(repo.join("README.md"), "# skills\n");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "base"]);
    let base = git(&repo, &["rev-parse", "HEAD"]);
    for name in ["mcp-builder", "web-artifacts-builder"] {
        let out = Command::new("cp")
            .args(["-r"])
            .arg(corpus.join(name))
            .arg(repo.join(name))
            .output()
            .expect("cp");
        assert!(out.status.success());
    }
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "pr"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);
    let (_, _, comment) = github_pr(
        &repo,
        &base,
        &head,
        &["--playground", "https://owner.github.io/skill-playground/"],
    );
    let chars = comment.chars().count();
    assert!(chars < 65_536, "{chars} characters");
    assert!(comment.contains("mcp-builder") && comment.contains("web-artifacts-builder"));
    assert!(
        comment.contains("left out to keep this comment")
            || comment.contains("too large for a link"),
        "what was cut is said"
    );
    let _ = std::fs::remove_dir_all(&scratch);
}
