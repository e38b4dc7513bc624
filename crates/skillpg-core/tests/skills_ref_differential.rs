//! Differential test against skills-ref, the reference validator (PyPI `skills-ref` 0.1.1).
//!
//! Generates many SKILL.md files from combinations of names, folder names, descriptions,
//! extra fields and formatting quirks, runs skills-ref over all of them in one Python process,
//! and compares with the `spec` profile: the verdicts must be equal on every case, and where
//! skills-ref reports field errors, our error messages must equal its messages, in order.
//! What the specification's text forbids and skills-ref accepts is a warning on our side
//! (its message says "the specification's text"), never an error.
//!
//! Needs `python3` with skills-ref installed (the README's test command installs it).

#![allow(
    clippy::print_stdout,
    reason = "the test prints the figures it measured, for the closing notes"
)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use skillpg_core::{BundleFile, Severity, SkillBundle, analyze, check, profile};

mod generator;
use generator::Rng;

struct Case {
    id: String,
    dir: String,
    text: String,
}

fn generate(n: usize) -> Vec<Case> {
    let long_name = "a".repeat(65);
    let long_desc = format!("Use when {}", "x".repeat(1020));
    let accents = "é".repeat(1024);
    let long_compat = "c".repeat(501);
    // (name line, folder name)
    let names: Vec<(String, String)> = vec![
        ("name: my-skill".into(), "my-skill".into()),
        ("name: my-skill".into(), "other-dir".into()),
        ("name: My-Skill".into(), "My-Skill".into()),
        ("name: -my-skill".into(), "-my-skill".into()),
        ("name: my--skill".into(), "my--skill".into()),
        ("name: my_skill".into(), "my_skill".into()),
        (format!("name: {long_name}"), long_name.clone()),
        ("name: 技能".into(), "技能".into()),
        ("name: мой-навык".into(), "мой-навык".into()),
        ("name: हिंदी".into(), "हिंदी".into()),
        ("name: ｍｙ-ｓｋｉｌｌ".into(), "my-skill".into()),
        ("name: skill²".into(), "skill2".into()),
        ("name: café".into(), "cafe\u{301}".into()),
        ("name: НАВЫК".into(), "НАВЫК".into()),
        ("name: my skill".into(), "my skill".into()),
        ("name: 123".into(), "123".into()),
        ("name: true".into(), "true".into()),
        ("name: null".into(), "null".into()),
        ("name: \"quoted-name\"".into(), "quoted-name".into()),
        ("name: '  padded  '".into(), "padded".into()),
        ("name:".into(), "empty".into()),
        ("name: \"\"".into(), "empty".into()),
        ("name:\n  - a".into(), "listname".into()),
        ("name:\n  k: v".into(), "mapname".into()),
        (String::new(), "no-name".into()),
        ("name: emoji-😀".into(), "emoji-😀".into()),
        ("name: a\u{2011}b".into(), "a\u{2011}b".into()),
    ];
    let descriptions: Vec<String> = vec![
        "description: Formats tables. Use when the user pastes CSV.".into(),
        "description:".into(),
        "description: \"\"".into(),
        "description: '   '".into(),
        format!("description: {long_desc}"),
        format!("description: {accents}"),
        "description: >\n  Folded text\n  over lines.".into(),
        "description: |\n  Literal\n  text.".into(),
        "description: Use when: the user asks".into(),
        "description: C# and F# #tags".into(),
        "description: \"Quoted: with colon\"".into(),
        "description: 42".into(),
        "description:\n  - a".into(),
        String::new(),
    ];
    let extras: Vec<String> = vec![
        String::new(),
        "license: MIT".into(),
        "license:\n  - MIT".into(),
        "version: 1.0.0".into(),
        "argument-hint: file".into(),
        "metadata:\n  author: me\n  version: \"1.0\"".into(),
        "metadata: foo".into(),
        "metadata:\n  nested:\n    a: b".into(),
        "metadata:\n  tags:\n    - a\n    - b".into(),
        "allowed-tools: Read Write".into(),
        "allowed-tools: [Read, Write]".into(),
        "allowed-tools:\n  - Read".into(),
        "compatibility: Requires Python 3.11".into(),
        "compatibility: \"\"".into(),
        format!("compatibility: {long_compat}"),
        "compatibility:\n  - a".into(),
        "name: again".into(),
        "x: {a: b}".into(),
        "x: &anchor v".into(),
        "x: !!str v".into(),
    ];
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut res = Vec::with_capacity(n);
    for idx in 0..n {
        let (name, dir) = rng.pick(&names).clone();
        let desc = rng.pick(&descriptions).clone();
        let extra = rng.pick(&extras).clone();
        let quirk = rng.next() % 12;
        let mut lines: Vec<String> = [name, desc, extra]
            .into_iter()
            .filter(|l| !l.is_empty())
            .collect();
        if rng.next().is_multiple_of(2) {
            lines.reverse();
        }
        let fm = lines.join("\n");
        let mut text = match quirk {
            0 => format!("---\n{fm}\n---\n# Body\n"),
            1 => format!("---\n{fm}\n---\n# Body\n").replace('\n', "\r\n"),
            2 => format!("\u{feff}---\n{fm}\n---\n# Body\n"),
            3 => format!("---\n{fm}\n# no closing line\n"),
            4 => format!("---{fm}\n---\n# Body\n"),
            5 => "---\n---\n# empty frontmatter\n".to_owned(),
            6 => format!("---\n{fm}\n\tbad: tab\n---\n"),
            7 => format!("# Title first\n---\n{fm}\n---\n"),
            _ => format!("---\n{fm}\n---\n\n# Body\n\nText.\n"),
        };
        if quirk == 8 && rng.next().is_multiple_of(2) {
            text = text.replacen("description: ", "description: Summarize --- then ", 1);
        }
        res.push(Case {
            id: format!("case-{idx:04}"),
            dir,
            text,
        });
    }
    res
}

/// Runs the Python oracle with `args`; fails loudly when python3 or skills-ref is missing.
fn run_oracle(args: &[std::ffi::OsString]) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/skills_ref_oracle.py");
    let output = Command::new("python3")
        .arg(&script)
        .args(args)
        .output()
        .expect("python3 must be installed for the skills-ref differential test");
    assert!(
        output.status.success(),
        "skills-ref oracle failed (install it with `python3 -m pip install skills-ref==0.1.1`):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("oracle JSON")
}

/// On the 152 real skills of the shared corpus, the spec profile's verdict equals skills-ref's
/// wherever the specification's text and skills-ref agree, and its messages too.
#[test]
#[ignore = "slow tier, needs python3 with skills-ref 0.1.1: scripts/test runs it"]
fn spec_profile_agrees_with_skills_ref_on_the_corpus() {
    let corpus = skillpg_fs::corpus_dir();
    assert!(
        corpus.exists(),
        "the shared corpus is absent: {} not found (tests need ../shared/corpus beside the repository)",
        corpus.display()
    );
    let mut dirs: Vec<std::path::PathBuf> = Vec::new();
    for repo in std::fs::read_dir(&corpus)
        .expect("corpus")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
    {
        for skill in std::fs::read_dir(repo.path())
            .expect("repo")
            .filter_map(Result::ok)
            .filter(|e| e.path().join("SKILL.md").exists())
        {
            dirs.push(skill.path());
        }
    }
    dirs.sort();
    let mut args: Vec<std::ffi::OsString> = vec!["--each".into()];
    args.extend(dirs.iter().map(|d| d.as_os_str().to_owned()));
    let parsed = run_oracle(&args);
    let (mut same, mut text_warnings) = (0, 0);
    let mut disagreements = Vec::new();
    for dir in &dirs {
        let theirs: Vec<String> =
            serde_json::from_value(parsed["cases"][dir.to_string_lossy().as_ref()].clone())
                .expect("oracle entry");
        let ingested = skillpg_fs::read_path(dir).expect("corpus skill");
        let diags = check(&analyze(&ingested.skills[0]), &profile::SPEC);
        let errors: Vec<&str> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message.as_str())
            .collect();
        text_warnings += usize::from(diags.iter().any(|d| {
            d.severity != Severity::Error && d.message.contains("the specification's text")
        }));
        if errors == theirs.iter().map(String::as_str).collect::<Vec<_>>()
            || theirs.iter().any(|m| is_parse_error(m)) && !errors.is_empty()
        {
            same += 1;
        } else {
            disagreements.push(format!(
                "{}: ours {errors:?} theirs {theirs:?}",
                dir.display()
            ));
        }
    }
    println!(
        "corpus: {} skills; same verdict and messages {same}; warned under the spec's text {text_warnings}; disagreements {}",
        dirs.len(),
        disagreements.len()
    );
    assert!(
        dirs.len() >= 150,
        "expected the 152-skill corpus, found {}",
        dirs.len()
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// Whether a skills-ref message is a parse error (its wording is strictyaml's or the parser's
/// own, which we do not reproduce character for character).
fn is_parse_error(message: &str) -> bool {
    [
        "Invalid YAML",
        "SKILL.md must start",
        "not properly closed",
        "must be a YAML mapping",
        "CRASH",
    ]
    .iter()
    .any(|p| message.starts_with(p))
}

#[test]
#[ignore = "slow tier, needs python3 with skills-ref 0.1.1: scripts/test runs it"]
fn spec_profile_agrees_with_skills_ref() {
    let cases = generate(2000);
    let tmp = std::env::temp_dir().join(format!("skillpg-oracle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    for c in &cases {
        let dir = tmp.join(&c.id).join(&c.dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("SKILL.md"), c.text.as_bytes()).expect("write case");
    }
    let parsed = run_oracle(&[tmp.as_os_str().to_owned()]);
    let oracle: BTreeMap<String, Vec<String>> =
        serde_json::from_value(parsed["cases"].clone()).expect("cases");

    let (mut agree, mut text_warnings, mut n_msgs_compared, mut cut_short, mut parse_stricter) =
        (0usize, 0usize, 0usize, 0usize, 0usize);
    let mut disagreements = Vec::new();
    for c in &cases {
        let bundle = SkillBundle::new(
            &c.dir,
            vec![BundleFile {
                path: "SKILL.md".into(),
                bytes: c.text.clone().into_bytes(),
            }],
        );
        let diags = check(&analyze(&bundle), &profile::SPEC);
        let errors: Vec<&str> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message.as_str())
            .collect();
        let theirs = &oracle[&c.id];
        text_warnings += usize::from(diags.iter().any(|d| {
            d.severity != Severity::Error && d.message.contains("the specification's text")
        }));
        // skills-ref ends the frontmatter at a `---` inside a value; so does the spec profile.
        cut_short += usize::from(diags.iter().any(|d| d.rule == "dashes-in-frontmatter"));
        if errors.is_empty() != theirs.is_empty() {
            disagreements.push(format!(
                "{} ({}): ours {errors:?} theirs {theirs:?}\n{}",
                c.id, c.dir, c.text
            ));
            continue;
        }
        agree += 1;
        // Same verdict: where skills-ref reports field errors, the messages must match in order.
        if !theirs.is_empty() && !theirs.iter().any(|m| is_parse_error(m)) {
            n_msgs_compared += 1;
            if errors.iter().any(|m| is_parse_error(m)) {
                // Same verdict, but we stop at a YAML error that strictyaml reads past (a tab
                // before the only key of the document): counted, not compared.
                parse_stricter += 1;
            } else if errors != theirs.iter().map(String::as_str).collect::<Vec<_>>() {
                disagreements.push(format!(
                    "{} ({}): messages differ\n ours   {errors:?}\n theirs {theirs:?}\n{}",
                    c.id, c.dir, c.text
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert_eq!(
        profile::SPEC.oracle.map(str::to_owned),
        parsed["version"]
            .as_str()
            .map(|v| format!("skills-ref {v}")),
        "the spec profile names the skills-ref it is held to"
    );
    println!(
        "skills-ref {}: {} cases; same verdict {agree}; warned under the spec's text {text_warnings}; cut short at `---` in a value {cut_short}; messages compared {n_msgs_compared} (and {parse_stricter} where only our YAML error differs); disagreements {}",
        parsed["version"],
        cases.len(),
        disagreements.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreement(s) with skills-ref:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert!(
        agree > cases.len() / 2,
        "too few agreeing cases: the generator has drifted"
    );
}
