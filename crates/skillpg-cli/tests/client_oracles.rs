//! Differential tests against the clients' own loaders, as `skills_ref_differential.rs` holds
//! the spec profile to skills-ref: each client whose loader ships in a registry package is
//! installed at a pinned version (`oracles/package.json`, `oracles/openclaw`, `oracles/python`,
//! by `scripts/test`'s setup) and called on skill folders by `oracles/drive.mjs` (or
//! `oracles/python/drive.py`); `skillpg check --profile <client>` must give the
//! same verdict ("loads" or not) on every corpus skill and on every generated case of the stress
//! classes (a BOM, CRLF, an opening `--- `, fences of four or more dashes, blank lines before the
//! opening fence, duplicate keys, `name: 123`, lists where maps go, empty and over-long values
//! counted in characters, bytes and UTF-16 units, names with `/` or capitals, a lowercase
//! `skill.md`, an unclosed frontmatter, a tab after `key:` and before a key, a NUL in a value).
//!
//! Needs node, Python and the loaders installed in `oracles/` (`node_modules`, `openclaw/package`,
//! `python/.venv` and `python/site`: `scripts/test` installs them; the tests say so when
//! they are absent).

#![allow(
    clippy::print_stdout,
    reason = "the test prints the counts it measured, for the closing notes"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The clients with an oracle: the profile's key, which is the driver's client too.
const ORACLES: &[&str] = &[
    "gemini-cli",
    "pi",
    "mistral-vibe",
    "kimi-cli",
    "qwen-code",
    "openclaw",
];

/// The oracles whose client is a Python package, driven by `oracles/python/drive.py` in the
/// virtual environment `scripts/test` makes (the others by `oracles/drive.mjs`).
const PYTHON_ORACLES: &[&str] = &["mistral-vibe", "kimi-cli"];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where the loaders are installed: `oracles/`, or `SKILLPG_ORACLES` (`scripts/client-drift`'s
/// scratch install of the newest versions).
fn oracles() -> PathBuf {
    std::env::var_os("SKILLPG_ORACLES").map_or_else(|| repo().join("oracles"), PathBuf::from)
}

/// What the client's own loader says of each folder: `(loads, name, why)` by folder path.
fn oracle(client: &str, folders: &[PathBuf], scratch: &Path) -> (String, BTreeMap<String, Value>) {
    let list = scratch.join(format!("{client}.list"));
    let text: String = folders
        .iter()
        .map(|f| format!("{}\n", f.display()))
        .collect();
    std::fs::write(&list, text).expect("the list");
    let v = drive(client, &[list.as_os_str()]);
    let version = format!(
        "{}@{}",
        v["package"].as_str().expect("a package"),
        v["version"].as_str().expect("a version")
    );
    let cases = serde_json::from_value(v["cases"].clone()).expect("cases");
    (version, cases)
}

/// Runs `oracles/drive.mjs <client> <args>` (or `oracles/python/drive.py`) and reads its one
/// JSON answer.
fn drive(client: &str, args: &[&std::ffi::OsStr]) -> Value {
    let (program, driver, installed) = if PYTHON_ORACLES.contains(&client) {
        // Kimi Code CLI's loader needs Python 3.12, in a virtual environment of its own.
        let python = oracles().join(if client == "kimi-cli" {
            "kimi"
        } else {
            "python"
        });
        (
            python.join(".venv/bin/python"),
            python.join("drive.py"),
            python.join("site"),
        )
    } else {
        // OpenClaw's modules are unpacked beside the others (oracles/openclaw/install).
        let installed = if client == "openclaw" {
            oracles().join("openclaw/package")
        } else {
            oracles().join("node_modules")
        };
        (
            PathBuf::from("node"),
            oracles().join("drive.mjs"),
            installed,
        )
    };
    assert!(
        installed.exists(),
        "the {client} loader is not installed: {} is absent (scripts/test's setup installs it; Kimi Code CLI's needs Python 3.12, and its installer says when there is none)",
        installed.display()
    );
    let out = Command::new(&program)
        .arg(driver)
        .arg(client)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{} runs the {client} oracle: {e}", program.display()));
    assert!(
        out.status.success(),
        "the {client} oracle failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the oracle's JSON")
}

/// `skillpg check --profile <client>`'s verdict on each folder, by path, with its first error.
fn ours(client: &str, folders: &[PathBuf]) -> BTreeMap<String, (bool, Option<String>)> {
    let mut all = BTreeMap::new();
    // A few hundred folders a run keeps the command line short.
    for chunk in folders.chunks(400) {
        let out = Command::new(env!("CARGO_BIN_EXE_skillpg"))
            .args(["check", "--profile", client, "--format", "json"])
            .args(chunk)
            .output()
            .expect("skillpg runs");
        assert!(
            out.status.code().is_some_and(|c| c < 2),
            "skillpg check: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).expect("check's JSON");
        for s in v["skills"].as_array().expect("skills") {
            let first = s["diagnostics"]
                .as_array()
                .expect("findings")
                .iter()
                .find(|d| d["severity"] == "error")
                .map(|d| format!("{} {}", d["code"], d["message"]));
            all.insert(
                s["path"].as_str().expect("a path").to_owned(),
                (s["valid"].as_bool().expect("a verdict"), first),
            );
        }
    }
    all
}

/// What the client's listing shows for the skill at `folder` alone: its name and its line.
fn listed(client: &str, folder: &Path) -> (String, String) {
    let ingested = skillpg_fs::read_path(folder).expect("a skill folder");
    let analysis = skillpg_core::analyze(&ingested.skills[0]);
    let listings = skillpg_report::listings_of_loaded(
        &[analysis],
        Some(200_000),
        &skillpg_core::catalog::ListingSettings::default(),
        &|_, _| true,
    );
    let listing = listings
        .into_iter()
        .find(|l| l.client == client)
        .expect("the client's listing");
    let skill = listing.skills.into_iter().next().expect("the skill listed");
    (skill.name, skill.line)
}

/// Compares every client's verdicts on `folders`, and where both load, the name and line the
/// client lists; `show` gives a case's text for a report.
fn compare(folders: &[PathBuf], scratch: &Path, show: &dyn Fn(&Path) -> String) -> Vec<String> {
    let mut disagreements = Vec::new();
    for client in ORACLES {
        let (version, theirs) = oracle(client, folders, scratch);
        // The profile names the package and version it is held to: the one installed, unless
        // scripts/client-drift is trying the newest.
        let profile = skillpg_core::Profile::by_key(client).expect("a profile");
        if std::env::var_os("SKILLPG_ORACLES").is_none() {
            assert_eq!(
                profile.oracle.map(|o| o.replacen(' ', "@", 1)),
                Some(version.clone()),
                "{client}'s profile names the package its oracle installs"
            );
        }
        let mine = ours(client, folders);
        let (mut same, mut loads, mut listed_differently) = (0, 0, 0);
        for f in folders {
            let key = f.display().to_string();
            let their = &theirs[&key];
            let (valid, why) = mine
                .get(&key)
                .unwrap_or_else(|| panic!("skillpg checked {key}"));
            let loaded = their["loads"].as_bool().expect("loads");
            loads += usize::from(loaded);
            if *valid == loaded {
                same += 1;
                if loaded && !guesses_encoding(profile, f) {
                    let (name, line) = listed(client, f);
                    let their_name = their["name"].as_str().expect("a name");
                    let their_line = format!(
                        "- {their_name}: {}",
                        their["description"].as_str().expect("a description")
                    );
                    if name != their_name || line != their_line {
                        listed_differently += 1;
                        disagreements.push(format!(
                            "{client} ({version}) on {key}: it lists {their_line:?}, ours {line:?}\n{}",
                            show(f)
                        ));
                    }
                }
            } else {
                disagreements.push(format!(
                    "{client} ({version}) on {key}: theirs {}, ours {} ({})\n{}",
                    if loaded { "loads" } else { "skips" },
                    if *valid { "loads" } else { "fails" },
                    why.clone().unwrap_or_else(|| their["why"].to_string()),
                    show(f)
                ));
            }
        }
        println!(
            "{client} ({version}): {} folders; it loads {loads}; the same verdict on {same}; of those it loads, listed with another name or description {listed_differently}",
            folders.len()
        );
    }
    disagreements
}

/// Whether `profile`'s client guesses the encoding of the SKILL.md at `folder` (Mistral Vibe's
/// `read_safe` on bytes that are not UTF-8 and have no byte order mark: charset-normalizer's
/// guess, which the playground does not replay; it reads replacement characters there). The
/// verdict is still compared; the listed text is not.
fn guesses_encoding(profile: &skillpg_core::Profile, folder: &Path) -> bool {
    let bytes = std::fs::read(folder.join("SKILL.md")).unwrap_or_default();
    profile.utf8 == skillpg_core::profile::Utf8Reading::Sniffs
        && std::str::from_utf8(&bytes).is_err()
        && !bytes.starts_with(&[0xFF, 0xFE])
        && !bytes.starts_with(&[0xFE, 0xFF])
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skillpg-oracles-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch");
    d.canonicalize().expect("canonical")
}

#[test]
#[ignore = "slow tier, needs node and the clients' loaders installed in oracles/ (npm, PyPI): scripts/test installs and runs them"]
fn every_oracle_client_agrees_on_the_corpus() {
    let corpus = skillpg_fs::corpus_dir();
    assert!(
        corpus.exists(),
        "the shared corpus is absent: {} not found (tests need ../shared/corpus beside the repository)",
        corpus.display()
    );
    let mut folders = Vec::new();
    let mut stack = vec![corpus.canonicalize().expect("canonical")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("a folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.join("SKILL.md").is_file() {
                    folders.push(p.clone());
                }
                stack.push(p);
            }
        }
    }
    folders.sort();
    assert!(folders.len() >= 150, "the corpus has {}", folders.len());
    let named: Vec<&str> = skillpg_core::profile::ALL
        .iter()
        // The spec profile's oracle, skills-ref, runs in skillpg-core's skills_ref_differential.rs.
        .filter(|p| p.oracle.is_some() && p.key != "spec")
        .map(|p| p.key)
        .collect();
    assert_eq!(
        named, ORACLES,
        "every profile that names an oracle is run against it"
    );
    let tmp = scratch("corpus");
    let disagreements = compare(&folders, &tmp, &|_| String::new());
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        disagreements.is_empty(),
        "{} disagreement(s):\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[path = "../../skillpg-core/tests/generator/mod.rs"]
mod generator;
use generator::Rng;

/// One generated skill folder: its name, its SKILL.md's file name and bytes.
struct Case {
    dir: String,
    file: &'static str,
    bytes: Vec<u8>,
}

/// The stress classes, drawn together: `n` cases, the same on every run. Some are there for
/// one client's field checks (Qwen Code's `allowedTools`, `model` and `paths`; Mistral Vibe's
/// typed `license`, `metadata` and `compatibility`; Kimi Code CLI's `type`).
fn generate(n: usize) -> Vec<Case> {
    let names: Vec<(String, &str)> = vec![
        ("name: my-skill".into(), "my-skill"),
        ("name: my-skill".into(), "other-folder"),
        ("name: My-Skill".into(), "My-Skill"),
        ("name: MySkill".into(), "myskill"),
        ("name: my_skill".into(), "my_skill"),
        ("name: -my-skill".into(), "-my-skill"),
        ("name: my--skill".into(), "my--skill"),
        ("name: a/b".into(), "a-b"),
        ("name: 123".into(), "123"),
        ("name: true".into(), "true"),
        ("name: yes".into(), "yes"),
        ("name: no".into(), "no"),
        ("name: false".into(), "false"),
        ("name: 0".into(), "zero"),
        ("name: 1.0".into(), "one"),
        ("name: ~".into(), "tilde"),
        ("name:".into(), "empty"),
        ("name: \"\"".into(), "empty"),
        (String::new(), "no-name"),
        ("name:\n  - a".into(), "listname"),
        ("name:\n  k: v".into(), "mapname"),
        ("name: 技能".into(), "技能"),
        (format!("name: {}", "a".repeat(65)), "long-name"),
        ("name: 'my-skill'".into(), "my-skill"),
        ("name: my.skill:v2".into(), "my.skill-v2"),
        ("name: \"my-skill\"".into(), "my-skill"),
    ];
    let descriptions: Vec<String> = vec![
        "description: Formats tables. Use when the user pastes CSV.".into(),
        "description: \"\"".into(),
        "description:".into(),
        String::new(),
        "description: '   '".into(),
        "description: 42".into(),
        "description: true".into(),
        "description: yes".into(),
        "description: 0".into(),
        "description: ~".into(),
        "description:\n  - a".into(),
        "description:\n  k: v".into(),
        format!("description: {}", "x".repeat(1025)),
        format!("description: {}", "x".repeat(1024)),
        format!("description: {}", "表".repeat(342)),
        format!("description: {}", "😀".repeat(513)),
        "description: Use when: the user asks".into(),
        "description: >\n  Folded text\n  over lines.".into(),
        "description: \"Quoted: with colon\"".into(),
        "description:\n  - k: v".into(),
        "description:   Padded.   ".into(),
        // Issue 48's classes: a tab after the colon, a NUL inside the value.
        "description:\tTabbed. Use when asked.".into(),
        "description: Has a \u{0} NUL.".into(),
    ];
    let extras: Vec<String> = vec![
        String::new(),
        String::new(),
        "name: again".into(),
        "description: Again.".into(),
        "metadata:\n  - a".into(),
        "metadata:\n  author: me".into(),
        "metadata: text".into(),
        "allowed-tools:\n  - Read".into(),
        "license: 2024".into(),
        "x: y".into(),
        "\tbad: tab".into(),
        "disable-model-invocation: true".into(),
        "when_to_use: When asked.".into(),
        "allowedTools: Read".into(),
        "allowedTools:\n  - Read".into(),
        "model: 5".into(),
        "paths:\n  - /abs/**".into(),
        "paths:\n  - src/**".into(),
        "type: technique".into(),
        "license: yes".into(),
        "metadata: ~".into(),
        "compatibility: 5".into(),
        "\tlicense: MIT".into(),
        "license:\tMIT".into(),
    ];
    let mut rng = Rng(0x0bac_1e5e_ed00_0042);
    let mut cases = Vec::with_capacity(n);
    for _ in 0..n {
        let (name, dir) = rng.pick(&names).clone();
        let mut lines: Vec<String> = [name, rng.pick(&descriptions).clone()]
            .into_iter()
            .filter(|l| !l.is_empty())
            .collect();
        let extra = rng.pick(&extras).clone();
        if !extra.is_empty() {
            lines.push(extra);
        }
        if rng.next().is_multiple_of(3) {
            lines.reverse();
        }
        let fm = lines.join("\n");
        let body = "# Body\n\nText.\n";
        let text = match rng.next() % 20 {
            0 => format!("---\n{fm}\n---\n{body}").replace('\n', "\r\n"),
            1 => format!("\u{feff}---\n{fm}\n---\n{body}"),
            2 => format!("--- \n{fm}\n---\n{body}"),
            3 => format!("---\n{fm}\n{body}"),
            4 => format!("\n---\n{fm}\n---\n{body}"),
            5 => format!("---\n{fm}\n--- \n{body}"),
            6 => format!("---\n{fm}\n---"),
            // Fences of four and five dashes, blank lines (and spaces) before the opening one.
            7 => format!("----\n{fm}\n----\n{body}"),
            8 => format!("---\n{fm}\n-----\n{body}"),
            9 => format!("\n\n---\n{fm}\n---\n{body}"),
            10 => format!("  \n---\n{fm}\n---\n{body}"),
            // A tab before the first key.
            11 => format!("---\n\t{fm}\n---\n{body}"),
            _ => format!("---\n{fm}\n---\n{body}"),
        };
        let file = if rng.next().is_multiple_of(25) {
            "skill.md"
        } else {
            "SKILL.md"
        };
        cases.push(Case {
            dir: dir.to_owned(),
            file,
            bytes: text.into_bytes(),
        });
    }
    // Encodings: UTF-16 behind either byte order mark, and Latin-1 bytes in the description
    // and in the body.
    let text =
        "---\nname: encoded\ndescription: Caf\u{e9} menus. Use when asked.\n---\n# Caf\u{e9}\n";
    let utf16 = |big: bool| {
        let mut bytes = if big {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        for unit in text.encode_utf16() {
            bytes.extend(if big {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            });
        }
        bytes
    };
    let latin1: Vec<u8> = text.chars().map(|c| c as u8).collect();
    let body_only =
        b"---\nname: encoded\ndescription: Menus. Use when asked.\n---\n# Caf\xe9\n".to_vec();
    for bytes in [utf16(false), utf16(true), latin1, body_only] {
        cases.push(Case {
            dir: "encoded".to_owned(),
            file: "SKILL.md",
            bytes,
        });
    }
    // Frontmatter that is no mapping: empty, blank, a list, a scalar, a comment.
    for fm in ["", "\n", "- a\n- b\n", "just text\n", "# only a comment\n"] {
        cases.push(Case {
            dir: "not-a-map".to_owned(),
            file: "SKILL.md",
            bytes: format!("---\n{fm}---\n# Body\n\nText.\n").into_bytes(),
        });
    }
    cases
}

#[test]
#[ignore = "slow tier, needs node and the clients' loaders installed in oracles/ (npm, PyPI): scripts/test installs and runs them"]
fn every_oracle_client_agrees_on_the_stress_classes() {
    let tmp = scratch("generated");
    let cases = generate(2500);
    let mut folders = Vec::with_capacity(cases.len());
    let mut texts = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        let folder = tmp.join(format!("case-{i:04}")).join(&c.dir);
        std::fs::create_dir_all(&folder).expect("a case folder");
        std::fs::write(folder.join(c.file), &c.bytes).expect("a case");
        texts.insert(
            folder.clone(),
            format!("{}: {:?}", c.file, String::from_utf8_lossy(&c.bytes)),
        );
        folders.push(folder);
    }
    let disagreements = compare(&folders, &tmp, &|f| texts[f].clone());
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        disagreements.is_empty(),
        "{} disagreement(s):\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

/// Writes a skill named after its folder at `dir`, or a `skill.md` where `lowercase`.
fn plant_skill(dir: &Path, lowercase: bool) {
    std::fs::create_dir_all(dir).expect("a folder");
    let name = dir.file_name().expect("a name").to_string_lossy();
    std::fs::write(
        dir.join(if lowercase { "skill.md" } else { "SKILL.md" }),
        format!("---\nname: {name}\ndescription: Does {name}. Use when testing.\n---\n# {name}\n"),
    )
    .expect("a skill");
}

/// Where each client looks: in a project's skills folder (the first its `install` names), the
/// skills its own loader finds are exactly those `skillpg doctor` says it loads, over flat,
/// grouped, deep, nested, hidden, `node_modules` and lowercase layouts, and a skills folder that
/// is itself a skill.
#[test]
#[ignore = "slow tier, needs node and the clients' loaders installed in oracles/ (npm, PyPI): scripts/test installs and runs them"]
fn every_oracle_client_finds_the_skills_doctor_says_it_loads() {
    let layouts: [(&str, &[(&str, bool)]); 2] = [
        (
            "tree",
            &[
                ("a", false),
                ("group/b", false),
                ("group/deep/er/c", false),
                ("a/refs/inner", false),
                (".hidden/e", false),
                ("node_modules/f", false),
                ("d", true),
            ],
        ),
        ("root-is-a-skill", &[("", false), ("g", false)]),
    ];
    let tmp = scratch("discovery");
    let mut disagreements = Vec::new();
    for client in ORACLES {
        let install = skillpg_core::install::install_for(client).expect("where it looks");
        for (layout, skills) in layouts {
            let project = tmp.join(client).join(layout);
            let folder = project.join(install.project[0]);
            for (rel, lowercase) in skills {
                let dir = if rel.is_empty() {
                    folder.join("root")
                } else {
                    folder.join(rel)
                };
                plant_skill(&dir, *lowercase);
                if rel.is_empty() {
                    // The skills folder itself holds the SKILL.md.
                    for entry in std::fs::read_dir(&dir).expect("the skill").flatten() {
                        std::fs::rename(entry.path(), folder.join(entry.file_name()))
                            .expect("moved up");
                    }
                    std::fs::remove_dir(&dir).expect("emptied");
                }
            }
            let v = drive(client, &["--discover".as_ref(), folder.as_os_str()]);
            let mut theirs: Vec<String> = v["found"]
                .as_array()
                .expect("found")
                .iter()
                .map(|f| {
                    Path::new(f.as_str().expect("a path"))
                        .strip_prefix(&project)
                        .expect("inside the project")
                        .display()
                        .to_string()
                })
                .collect();
            theirs.sort();
            let doctor = Command::new(env!("CARGO_BIN_EXE_skillpg"))
                .args(["doctor", "--client", client, "--format", "json"])
                .arg(&project)
                .output()
                .expect("skillpg runs");
            let scans: Value = serde_json::from_slice(&doctor.stdout).expect("doctor's JSON");
            let mut ours: Vec<String> = scans[0]["skills"]
                .as_array()
                .expect("skills")
                .iter()
                .filter(|s| s["status"] == "loads")
                .map(|s| s["path"].as_str().expect("a path").to_owned())
                .collect();
            ours.sort();
            println!("{client} on {layout}: it finds {theirs:?}");
            if theirs != ours {
                disagreements.push(format!(
                    "{client} on {layout}: it finds {theirs:?}, doctor says {ours:?}"
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
