//! The pre-commit hooks as a user meets them: `pre-commit try-repo` against this repository,
//! in a scratch git repository holding a good skill and a bad one. pre-commit installs
//! `skillpg` with `cargo install --path .` (this repository's root package) and runs the hooks
//! from `.pre-commit-hooks.yaml`.
//!
//! Slow tier: it needs pre-commit (`pip install pre-commit`, which `scripts/test` does) and
//! builds the CLI once. The build is kept in `target/precommit` and made without LTO (the
//! profile's settings come from the environment, which pre-commit passes through), offline
//! from the registry cache the workspace's build filled: tests do not fetch.

mod common;
use common::git;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn try_repo(repo: &Path, scratch: &Path, hook: &str) -> Output {
    Command::new("pre-commit")
        .args(["try-repo"])
        .arg(root())
        .args([hook, "--all-files", "--verbose"])
        .current_dir(repo)
        .env("PRE_COMMIT_HOME", scratch.join("pre-commit-home"))
        .env("CARGO_TARGET_DIR", root().join("target/precommit"))
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .output()
        .expect("pre-commit runs (pip install pre-commit)")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn skill(repo: &Path, dir: &str, md: &str) {
    std::fs::create_dir_all(repo.join(dir)).expect("mkdir");
    std::fs::write(repo.join(dir).join("SKILL.md"), md).expect("write");
}

#[test]
#[ignore = "slow tier, needs pre-commit and a release build of skillpg: scripts/test runs it"]
fn pre_commit_runs_the_hooks_from_this_repository() {
    let scratch = std::env::temp_dir().join(format!("skillpg-hooks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let repo = scratch.join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    git(&repo, &["init", "-q"]);
    skill(
        &repo,
        "skills/good-skill",
        "---\nname: good-skill\ndescription: Formats tables. Use when a user pastes CSV and asks for a table.\n---\n\n# Good\n",
    );
    skill(
        &repo,
        "skills/bad-skill",
        "---\nname: Bad_Skill\ndescription: Formats tables. Use when a user pastes CSV.\n---\n\n# Bad\n",
    );
    std::fs::write(repo.join("README.md"), "not a skill\n").expect("write");
    // The README's snippet as written, in a repository of valid skills with no skillpg.toml:
    // both hooks it names pass (the budget hook once exited 2 here, wanting roots).
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let snippet = readme
        .split("```yaml\n- repo: https://github.com/OWNER/skill-playground")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README's pre-commit snippet");
    let ids: Vec<&str> = snippet
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- id: "))
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    assert_eq!(ids, ["skillpg-check", "skillpg-budget"], "{snippet}");
    let bad = std::fs::read_to_string(repo.join("skills/bad-skill/SKILL.md")).expect("read");
    std::fs::remove_dir_all(repo.join("skills/bad-skill")).expect("rm");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "good skills only"]);
    for hook in &ids {
        let out = try_repo(&repo, &scratch, hook);
        assert!(
            out.status.success(),
            "{hook} without skillpg.toml: {}",
            text(&out)
        );
    }
    // Without skillpg.toml the check stops a bad skill, names it by its path and prints every
    // error with the command that shows the rest.
    skill(&repo, "skills/bad-skill", &bad);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "a bad skill"]);
    let out = try_repo(&repo, &scratch, "skillpg-check");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("skills/bad-skill"), "{said}");
    assert!(
        said.contains("SPG034") && said.contains("SPG038"),
        "every error: {said}"
    );
    std::fs::write(
        repo.join("skillpg.toml"),
        "profiles = [\"spec\"]\nroots = [\"skills\"]\nfail_over = [\"codex=50\"]\n",
    )
    .expect("write");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "skills"]);

    // The check: the bad skill fails with its code and place; the good one is not named.
    let out = try_repo(&repo, &scratch, "skillpg-check");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("skills/bad-skill/SKILL.md:2:7"), "{said}");
    assert!(said.contains("INVALID  skills/bad-skill"), "{said}");
    assert!(said.contains("valid  skills/good-skill"), "{said}");

    // The budget: Codex's listing of both skills (62 approximate tokens at the one default
    // window) is over the 50 skillpg.toml allows, so the hook fails and says which client.
    let out = try_repo(&repo, &scratch, "skillpg-budget");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("over the budget gate: OpenAI Codex"),
        "{said}"
    );

    // Mended: the bad skill gone and a gate the listing fits, both hooks pass.
    std::fs::remove_dir_all(repo.join("skills/bad-skill")).expect("rm");
    std::fs::write(
        repo.join("skillpg.toml"),
        "profiles = [\"spec\"]\nroots = [\"skills\"]\nfail_over = [\"100%\"]\n",
    )
    .expect("write");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "mend"]);
    for hook in ["skillpg-check", "skillpg-budget"] {
        let out = try_repo(&repo, &scratch, hook);
        assert!(out.status.success(), "{hook}: {}", text(&out));
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
