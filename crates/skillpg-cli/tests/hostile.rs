//! Issue 36's hostile inputs to the command line, each exactly as reported: a SKILL.md with a
//! NUL byte, `skillpg github` on paths that hold no skill and on a crafted event, a context
//! window past any real one, `skillpg.toml` roots that leave the project, unreadable files.

mod common;
use common::git;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skillpg_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skillpg"))
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_EVENT_PATH")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_OUTPUT")
        .output()
        .expect("run skillpg")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skillpg-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("mkdir");
    d
}

fn write(path: PathBuf, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_nul_byte_never_makes_a_skill_md_valid() {
    let root = scratch("nul");
    write(
        root.join("nofm/SKILL.md"),
        b"just text, no frontmatter, no name, no description\n\x00",
    );
    // In the frontmatter, a NUL is the YAML error every client's reader gives.
    write(
        root.join("nul-in-yaml/SKILL.md"),
        b"---\nname: nul-in-yaml\ndescription: Formats\x00 tables. Use when asked.\n---\n# Body\n",
    );
    // In the body it is text: the skill loads as it would without it.
    write(
        root.join("nul-in-body/SKILL.md"),
        b"---\nname: nul-in-body\ndescription: Formats tables. Use when a user pastes CSV.\n---\n# Body\n\x00\n",
    );
    for (skill, code) in [("nofm", "SPG010"), ("nul-in-yaml", "SPG015")] {
        let out = skillpg_in(&root, &["check", "--format", "json", skill]);
        assert_eq!(out.status.code(), Some(1), "{skill}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let codes = json["skills"][0]["diagnostics"].to_string();
        assert!(codes.contains(code), "{skill}: {codes}");
        // Every client judges it as it judges the same text without the NUL.
        let loads = |skill: &str| -> Vec<String> {
            let all = skillpg_in(
                &root,
                &["check", "--profile", "all", "--format", "json", skill],
            );
            let json: serde_json::Value = serde_json::from_slice(&all.stdout).expect("json");
            json["clients"]
                .as_array()
                .expect("clients")
                .iter()
                .filter(|c| c["skills"][0]["loads"] == true)
                .filter_map(|c| c["client"].as_str().map(str::to_owned))
                .collect()
        };
        let with_nul = loads(skill);
        assert!(
            !with_nul.contains(&"spec".to_owned()),
            "{skill}: {with_nul:?}"
        );
        assert!(with_nul.len() < 20, "{skill}: {with_nul:?}");
        if skill == "nofm" {
            write(
                root.join("nofm-plain/SKILL.md"),
                b"just text, no frontmatter, no name, no description
",
            );
            assert_eq!(with_nul, loads("nofm-plain"));
        }
        // github and baseline see it too; levels count the text.
        let gh = skillpg_in(&root, &["github", skill]);
        assert_eq!(gh.status.code(), Some(1), "github {skill}: {}", stderr(&gh));
        let base = skillpg_in(&root, &["baseline", skill]);
        assert!(
            String::from_utf8_lossy(&base.stdout).contains(code),
            "baseline {skill}"
        );
    }
    let levels = skillpg_in(&root, &["levels", "--format", "json", "nofm"]);
    let json: serde_json::Value = serde_json::from_slice(&levels.stdout).expect("json");
    assert!(json.to_string().contains("\"level2\":1"), "{json}");
    let out = skillpg_in(&root, &["check", "nul-in-body"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn github_refuses_paths_that_check_nothing() {
    let root = scratch("github-paths");
    write(
        root.join("skills/bad/SKILL.md"),
        b"---\nname: Bad_Skill\ndescription: x\n---\n",
    );
    // A folder of skills is every skill under it; so is `.`.
    for path in ["skills", "."] {
        let out = skillpg_in(&root, &["github", path]);
        assert_eq!(out.status.code(), Some(1), "{path}: {}", stderr(&out));
    }
    // A path that does not exist, and a folder with no skill, are usage errors.
    let out = skillpg_in(&root, &["github", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("nope: no such file or folder"),
        "{}",
        stderr(&out)
    );
    std::fs::create_dir_all(root.join("empty")).expect("mkdir");
    let out = skillpg_in(&root, &["github", "empty"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("nothing was checked"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn github_hands_git_only_object_names() {
    let root = scratch("github-sha");
    let repo = root.join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    git(&repo, &["init", "-q"]);
    write(
        repo.join("skills/a/SKILL.md"),
        b"---\nname: a\ndescription: x\n---\n",
    );
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "one"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);
    let planted = root.join("planted.txt");
    for base in [
        format!("--output={}", planted.display()),
        "HEAD~1".to_owned(),
        format!("{head} "),
    ] {
        let event = root.join("event.json");
        std::fs::write(
            &event,
            serde_json::json!({"pull_request": {"base": {"sha": base}, "head": {"sha": head}}})
                .to_string(),
        )
        .expect("write");
        let out = Command::new(env!("CARGO_BIN_EXE_skillpg"))
            .arg("github")
            .current_dir(&repo)
            .env("GITHUB_EVENT_PATH", &event)
            .env_remove("GITHUB_STEP_SUMMARY")
            .env_remove("GITHUB_OUTPUT")
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2), "{base}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("not an object name"),
            "{}",
            stderr(&out)
        );
        assert!(!planted.exists(), "git wrote {}", planted.display());
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_context_window_outside_the_range_is_a_usage_error_not_a_panic() {
    let root = scratch("window");
    write(
        root.join("skills/a/SKILL.md"),
        b"---\nname: a\ndescription: Formats tables.\n---\n",
    );
    for window in ["18446744073709551615", "0", "999", "10000001", "lots"] {
        for args in [
            vec!["listing", "skills", "--context-window", window],
            vec!["check", "--catalog", "skills", "--context-window", window],
            vec!["doctor", ".", "--context-window", window],
        ] {
            let out = skillpg_in(&root, &args);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
            assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
        }
    }
    // The same in skillpg.toml, under check --catalog and github.
    write(
        root.join("skillpg.toml"),
        b"context_window = 9223372036854775807\nroots = [\"skills\"]\n",
    );
    for args in [
        vec!["check", "--catalog"],
        vec!["github", "skills"],
        vec!["listing"],
    ] {
        let out = skillpg_in(&root, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("10,000,000"), "{}", stderr(&out));
    }
    // Roots that leave the project are refused.
    write(
        root.join("skillpg.toml"),
        b"roots = [\"../../../../etc\"]\n",
    );
    let out = skillpg_in(&root, &["check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("leaves the project"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// `skillpg` run where a file with no read permission is really unreadable: as this user when
/// it is not root, else as `nobody` through util-linux's `setpriv` (root reads any file), from
/// a copy of the binary that `nobody` may run.
fn skillpg_unprivileged(dir: &Path, args: &[&str]) -> Output {
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    if !is_root {
        return skillpg_in(dir, args);
    }
    let bin_dir = scratch("bin");
    let bin = bin_dir.join("skillpg");
    std::fs::copy(env!("CARGO_BIN_EXE_skillpg"), &bin).expect("copy the binary");
    chmod(&bin_dir, 0o755);
    chmod(&bin, 0o755);
    Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&bin)
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_EVENT_PATH")
        .output()
        .expect("setpriv runs (util-linux)")
}

fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

#[test]
fn an_unreadable_file_is_a_finding_and_every_other_skill_is_still_checked() {
    let root = scratch("unreadable");
    chmod(&root, 0o755);
    let good = b"---\nname: NAME\ndescription: Formats tables. Use when a user pastes CSV.\n---\n# Body\n\nSee [the guide](references/guide.md).\n";
    for name in ["a-skill", "b-skill"] {
        write(
            root.join(format!("skills/{name}/SKILL.md")),
            &String::from_utf8_lossy(good)
                .replace("NAME", name)
                .into_bytes(),
        );
        write(
            root.join(format!("skills/{name}/references/guide.md")),
            b"# Guide\n",
        );
    }
    for d in [
        "skills",
        "skills/a-skill",
        "skills/b-skill",
        "skills/a-skill/references",
        "skills/b-skill/references",
    ] {
        chmod(&root.join(d), 0o755);
    }
    let locked = root.join("skills/a-skill/references/guide.md");
    chmod(&locked, 0o000);
    let out = skillpg_unprivileged(&root, &["check", "--format", "json", "skills"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let skills = json["skills"].as_array().expect("skills");
    assert_eq!(skills.len(), 2, "both skills are checked: {json}");
    assert!(
        json.to_string().contains("file-unreadable"),
        "the unreadable file is named: {json}"
    );
    // doctor: the skill is listed (a reference it cannot read does not unlist it), and the
    // warning is there.
    let home = root.join("home");
    write(home.join(".claude/skills/.keep"), b"");
    std::os::unix::fs::symlink(
        root.join("skills/b-skill"),
        home.join(".claude/skills/linked"),
    )
    .expect("symlink");
    for d in ["home", "home/.claude", "home/.claude/skills"] {
        chmod(&root.join(d), 0o755);
    }
    let out = skillpg_unprivileged(
        &home,
        &["doctor", "--client", "claude-code", "--format", "json", "."],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("symbolic link"),
        "a linked skill folder is named: {text}"
    );
    chmod(&locked, 0o644);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn share_zed_refuses_what_the_page_would_refuse_and_names_what_it_leaves_out() {
    let root = scratch("zed");
    let big = format!(
        "---\nname: big\ndescription: Formats tables. Use when asked.\n---\n{}",
        "lorem ipsum ".repeat(200_000)
    );
    write(root.join("big/SKILL.md"), big.as_bytes());
    let out = skillpg_in(&root, &["share", "--zed", "big"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("at most 1,048,576"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty(), "no link is printed");
    write(
        root.join("withref/SKILL.md"),
        b"---\nname: withref\ndescription: Formats tables. Use when asked.\n---\nSee references/a.md.\n",
    );
    write(root.join("withref/references/a.md"), b"# A\n");
    let out = skillpg_in(&root, &["share", "--zed", "withref"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("zed://skill?data="));
    assert!(
        stderr(&out).contains("1 other file(s) of withref are not in it (references/a.md)"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_traversal_only_archive_is_located_at_the_archive_not_a_repeated_folder() {
    let root = scratch("trav");
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file(
        "trav/../../evil.md",
        zip::write::SimpleFileOptions::default(),
    )
    .expect("entry");
    std::io::Write::write_all(&mut zip, b"x").expect("write");
    let bytes = zip.finish().expect("zip").into_inner();
    write(root.join("trav.zip"), &bytes);
    let out = skillpg_in(&root, &["check", "--format", "json", "trav.zip"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let finding = json["skills"][0]["diagnostics"]
        .as_array()
        .and_then(|d| d.iter().find(|d| d["code"] == "SPG006"))
        .cloned()
        .expect("the traversal is reported");
    assert_eq!(finding["file"], "", "{finding}");
    assert!(
        finding["message"]
            .as_str()
            .unwrap_or("")
            .contains("`trav/../../evil.md`")
    );
    let text = skillpg_in(&root, &["check", "trav.zip"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(!text.contains("trav/trav/"), "{text}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn where_judges_with_skillpg_toml_as_check_does() {
    let root = scratch("where");
    write(
        root.join("skills/a/SKILL.md"),
        b"---\nname: a\ndescription: Formats tables. Use when asked.\nlicense: 2024\n---\n",
    );
    // A severity that makes a warning an error: check fails the skill, and so must where.
    write(
        root.join("skillpg.toml"),
        b"profiles = [\"claude-code\"]\n\n[severity]\nnon-string-scalar = \"error\"\n",
    );
    let check = skillpg_in(&root, &["check", "--profile", "claude-code", "skills/a"]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    let place = skillpg_in(
        &root,
        &[
            "where",
            "--client",
            "claude-code",
            "--format",
            "json",
            "skills/a",
        ],
    );
    assert_eq!(place.status.code(), Some(0), "{}", stderr(&place));
    let json: serde_json::Value = serde_json::from_slice(&place.stdout).expect("json");
    assert_eq!(
        json[0]["skills"][0]["not_listed"]["code"], "SPG022",
        "where says why it is not listed, as check fails it: {json}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// Issue 46's streaming items: a path that is a device, a FIFO or missing is said on standard
/// error and fails the run, and every other path is still checked (one missing path used to
/// check nothing), streamed or not; `--paths-from /dev/zero` ends at its bound instead of reading for ever.
#[test]
fn streaming_reports_a_special_or_missing_path_and_goes_on() {
    let root = scratch("special");
    write(
        root.join("good/SKILL.md"),
        b"---\nname: good\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n",
    );
    let fifo = root.join("a-fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let list = root.join("list.txt");
    std::fs::write(&list, "good\nmissing-skill\na-fifo\n/dev/zero\n").expect("the list");
    for format in ["jsonl", "json", "text"] {
        let out = skillpg_in(
            &root,
            &[
                "check",
                "--profile",
                "all",
                "--format",
                format,
                "--paths-from",
                "list.txt",
            ],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{format}: {err}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        // The text names failing skills only: there, the one readable skill is counted.
        let checked = if format == "text" {
            stdout.contains("1 of 1 load")
        } else {
            stdout.contains("good")
        };
        assert!(
            checked,
            "{format}: the readable skill is checked:\n{stdout}"
        );
        for bad in ["missing-skill", "a-fifo", "/dev/zero"] {
            assert!(
                err.contains(&format!("{bad}: ")) && err.contains("not checked"),
                "{format}: {bad}: {err}"
            );
        }
        if format == "json" {
            let doc: serde_json::Value =
                serde_json::from_str(&stdout).expect("a whole JSON document");
            assert!(doc.get("checks").is_some());
        }
    }
    // The same without streaming (one client, or the catalog, which needs every skill first).
    for args in [
        &["check", "--profile", "spec", "--format", "json"][..],
        &["check", "--profile", "all", "--catalog", "--format", "json"],
        &["check", "--profile", "spec", "--format", "text"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--paths-from", "list.txt"]);
        let out = skillpg_in(&root, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("good") || stdout.contains("1 of 1"),
            "{args:?}: the readable skill is checked:\n{stdout}"
        );
        for bad in ["missing-skill", "a-fifo", "/dev/zero"] {
            assert!(
                err.contains(&format!("{bad}: ")) && err.contains("not checked"),
                "{args:?}: {bad}: {err}"
            );
        }
    }
    let out = skillpg_in(
        &root,
        &["check", "--profile", "all", "--paths-from", "/dev/zero"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("over 64 MB"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&root);
}
