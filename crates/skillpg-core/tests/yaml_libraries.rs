//! Each `YamlDialect` held to the YAML library it is named after, run the way its client calls
//! it, on generated frontmatter: js-yaml 3.14 (through gray-matter's engine), js-yaml 4.1 and
//! the npm `yaml` package by `oracles/yaml-libraries.mjs`, PyYAML by
//! `oracles/python/yaml_library.py`, serde_yaml and serde_yaml_ng here (dev-dependencies), into
//! the string fields Goose and Zed read. What each library gives `name` and `description` (a
//! string and its text, another type, nothing, or a refusal of the whole frontmatter) must be
//! [`YamlDialect::read_fields`]'s, on every case. strictyaml is held to skills-ref itself in
//! `skills_ref_differential.rs`.
//!
//! The cases mix the stress classes (a generator, not a fixed list): YAML 1.1 and 1.2 booleans,
//! nulls and numbers in every spelling, quoting, a tab after `key:` and as indentation, a NUL
//! inside a value, a repeated key, lists and maps where strings go, block scalars, comments,
//! flow collections, anchors.
//!
//! Needs node, and the libraries installed in `oracles/` (`node_modules`, `python/.venv`:
//! `scripts/test`'s setup installs them; the test says so when they are absent).

#![allow(
    clippy::print_stdout,
    reason = "the test prints the counts it measured, for the closing notes"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use skillpg_core::profile::{FieldReading, FrontmatterReading, YamlDialect};

fn oracles() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../oracles")
}

mod generator;
use generator::Rng;

/// The values a field gets, in every class.
const VALUES: &[&str] = &[
    "my-skill",
    "Formats tables. Use when the user pastes CSV.",
    "yes",
    "no",
    "Yes",
    "NO",
    "on",
    "off",
    "y",
    "n",
    "true",
    "True",
    "FALSE",
    "null",
    "Null",
    "~",
    "",
    "123",
    "-7",
    "0",
    "017",
    "0o17",
    "0x1F",
    "0b101",
    "1_000",
    "1.0",
    "1.10",
    ".5",
    "1e3",
    "1.5e-3",
    ".inf",
    "-.Inf",
    ".nan",
    "12:30",
    "2024-01-01",
    "'yes'",
    "\"123\"",
    "'null'",
    "\"tab\\there\"",
    "\"a: b\"",
    "技能",
    "x # a comment",
    "[a, b]",
    "{a: b}",
    "&anchor shared",
    "!!str 42",
    "|\n  a block\n  of two lines",
    ">\n  folded\n  text",
    "\n  - a\n  - b",
    "\n  k: v",
    "Use when: x",
    "a\u{0}b",
];

/// One generated frontmatter: `name` and `description` from [`VALUES`], sometimes missing,
/// repeated or with another key, a tab after the colon or before a key.
fn generate(n: usize) -> Vec<String> {
    let mut rng = Rng(0x005e_ed1e_550f_ca5e);
    let mut cases: Vec<String> = Vec::new();
    // Every value once in each field, with a plain other field.
    for v in VALUES {
        cases.push(format!("name: {v}\ndescription: Does a thing.\n"));
        cases.push(format!("name: my-skill\ndescription: {v}\n"));
    }
    while cases.len() < n {
        let mut lines: Vec<String> = Vec::new();
        for key in ["name", "description"] {
            if rng.chance(9) {
                continue;
            }
            let sep = if rng.chance(5) { ":\t" } else { ": " };
            let indent = if rng.chance(12) { "\t" } else { "" };
            let v = rng.pick(VALUES);
            let v = if v.is_empty() && sep == ":\t" { "x" } else { v };
            lines.push(format!("{indent}{key}{sep}{v}"));
            if rng.chance(10) {
                lines.push(format!("{key}: {}", rng.pick(VALUES)));
            }
        }
        if rng.chance(3) {
            let other = rng.pick(&[
                "license: MIT",
                "metadata:\n  version: 1.0",
                "version: 2",
                "tags: [a, b]",
                "# a comment",
                "other:\tvalue",
                "ref: *anchor",
            ]);
            let at = (rng.next() % (lines.len() as u64 + 1)) as usize;
            lines.insert(at, (*other).to_owned());
        }
        cases.push(lines.join("\n") + "\n");
    }
    cases
}

/// The reading as the oracles write it.
fn ours(dialect: YamlDialect, text: &str) -> Value {
    let field = |f: &FieldReading| match f {
        FieldReading::Absent => json!({"t": "absent"}),
        FieldReading::Null => json!({"t": "null"}),
        FieldReading::Str(v) => json!({"t": "str", "v": v}),
        FieldReading::Bool => json!({"t": "bool"}),
        // JavaScript has one number type, and the oracles say "num" for both.
        FieldReading::Int | FieldReading::Float => json!({"t": "num"}),
        FieldReading::Seq => json!({"t": "seq"}),
        FieldReading::Map => json!({"t": "map"}),
        FieldReading::Timestamp => json!({"t": "other"}),
    };
    match dialect.read_fields(text) {
        FrontmatterReading::Error => json!({"kind": "error"}),
        FrontmatterReading::NotMapping => json!({"kind": "notmap"}),
        FrontmatterReading::Fields { name, description } => {
            json!({"kind": "fields", "name": field(&name), "description": field(&description)})
        }
    }
}

/// serde_yaml and serde_yaml_ng, the way Goose (`Option<String>` fields) and Zed (`String`
/// fields) read: a field's text, or a null, or the refusal of the whole frontmatter.
mod serde_oracles {
    use serde::Deserialize;
    use serde_json::{Value, json};

    #[derive(Deserialize)]
    struct Optional {
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        description: Option<String>,
    }

    /// The fields read into `String`s, as Zed's struct does (a null there is the library's
    /// own business: serde_yaml_ng reads a plain `null` as its text).
    #[derive(Deserialize)]
    struct Plain {
        #[serde(default)]
        name: String,
        #[serde(default)]
        description: String,
    }

    /// A field's reading: absent, a null, or its text.
    fn field(present: &[String], key: &str, v: Option<String>) -> Value {
        match v {
            _ if !present.iter().any(|k| k == key) => json!({"t": "absent"}),
            Some(v) => json!({"t": "str", "v": v}),
            None => json!({"t": "null"}),
        }
    }

    /// The two fields as read, `None` for an empty document; `Err` where the library refused.
    type Read = Result<Option<(Option<String>, Option<String>)>, ()>;

    /// Goose's reading: `Option<String>` fields (a null is `None`).
    pub fn optional(read: Read, keys: Option<Vec<String>>) -> Value {
        match read {
            Err(()) => json!({"kind": "error"}),
            Ok(None) => {
                json!({"kind": "fields", "name": {"t": "absent"}, "description": {"t": "absent"}})
            }
            Ok(Some((name, description))) => {
                let present = keys.unwrap_or_default();
                json!({"kind": "fields", "name": field(&present, "name", name), "description": field(&present, "description", description)})
            }
        }
    }

    macro_rules! keys {
        ($lib:ident, $t:expr) => {
            $lib::from_str::<std::collections::BTreeMap<String, $lib::Value>>($t)
                .ok()
                .map(|m| m.into_keys().collect())
        };
    }

    /// serde_yaml into Goose's `Option<String>` fields.
    pub fn serde_yaml_goose(text: &str) -> Value {
        let read = match serde_yaml::from_str::<Option<Optional>>(text) {
            Ok(Some(o)) => Ok(Some((o.name, o.description))),
            Ok(None) => Ok(None),
            Err(_) => Err(()),
        };
        optional(read, keys!(serde_yaml, text))
    }

    /// serde_yaml_ng into Zed's `String` fields (a field that is not there is left empty here,
    /// and said absent).
    pub fn serde_yaml_ng_zed(text: &str) -> Value {
        let present: Vec<String> = keys!(serde_yaml_ng, text).unwrap_or_default();
        match serde_yaml_ng::from_str::<Option<Plain>>(text) {
            Err(_) => json!({"kind": "error"}),
            Ok(None) => {
                json!({"kind": "fields", "name": {"t": "absent"}, "description": {"t": "absent"}})
            }
            Ok(Some(p)) => {
                json!({"kind": "fields", "name": field(&present, "name", Some(p.name)), "description": field(&present, "description", Some(p.description))})
            }
        }
    }
}

fn run(program: &Path, script: &Path, cases: &Path) -> Value {
    assert!(
        script.exists(),
        "{} is absent: the YAML libraries' oracles are not installed (scripts/test's setup installs them)",
        script.display()
    );
    let out = Command::new(program)
        .arg(script)
        .arg(cases)
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", program.display()));
    assert!(
        out.status.success(),
        "{} failed:\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the oracle's JSON")
}

#[test]
#[ignore = "slow tier, needs node and the YAML libraries installed in oracles/ (npm, PyPI): scripts/test installs and runs them"]
fn every_yaml_dialect_reads_as_its_library() {
    let cases = generate(5_000);
    let scratch = std::env::temp_dir().join(format!("skillpg-yaml-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch");
    let file = scratch.join("cases.json");
    std::fs::write(&file, serde_json::to_vec(&cases).expect("JSON")).expect("cases");
    let modules = oracles().join("node_modules");
    assert!(
        modules.join("js-yaml-3.14").exists() && modules.join("gray-matter").exists(),
        "js-yaml 3.14 and gray-matter are not installed in {} (scripts/test's setup installs oracles/package.json)",
        modules.display()
    );
    let mut theirs: BTreeMap<String, (String, Vec<Value>)> = BTreeMap::new();
    for answer in [
        run(
            Path::new("node"),
            &oracles().join("yaml-libraries.mjs"),
            &file,
        ),
        run(
            &oracles().join("python/.venv/bin/python"),
            &oracles().join("python/yaml_library.py"),
            &file,
        ),
    ] {
        for (dialect, lib) in answer["libraries"].as_object().expect("libraries") {
            let readings = lib["readings"].as_array().expect("readings").clone();
            theirs.insert(
                dialect.clone(),
                (
                    lib["library"].as_str().expect("a name").to_owned(),
                    readings,
                ),
            );
        }
    }
    let serde_readings = |read: fn(&str) -> Value| cases.iter().map(|c| read(c)).collect();
    theirs.insert(
        "SerdeYaml".into(),
        (
            "serde_yaml@0.9.34".into(),
            serde_readings(serde_oracles::serde_yaml_goose),
        ),
    );
    theirs.insert(
        "SerdeYamlNg".into(),
        (
            "serde_yaml_ng@0.10.0".into(),
            serde_readings(serde_oracles::serde_yaml_ng_zed),
        ),
    );
    let _ = std::fs::remove_dir_all(&scratch);
    let mut wrong = Vec::new();
    for dialect in YamlDialect::ALL {
        if dialect == YamlDialect::StrictYaml {
            continue;
        }
        let key = format!("{dialect:?}");
        let (library, readings) = theirs
            .get(&key)
            .unwrap_or_else(|| panic!("no oracle for {key}"));
        // The library the dialect names is the one run.
        let named = dialect.library().replacen(' ', "@", 1);
        assert!(
            named.starts_with(library.split(' ').next().unwrap_or_default()),
            "{key} names {named:?}, its oracle runs {library}"
        );
        let (mut same, mut shown) = (0, 0);
        for (text, their) in cases.iter().zip(readings) {
            let mine = ours(dialect, text);
            if &mine == their {
                same += 1;
            } else if shown < 12 {
                shown += 1;
                wrong.push(format!(
                    "{key} ({library}) on {text:?}:\n  theirs {their}\n  ours   {mine}"
                ));
            }
        }
        println!(
            "{key} ({library}): the same reading on {same} of {} cases",
            cases.len()
        );
    }
    assert!(
        wrong.is_empty(),
        "{} disagreement(s) shown:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
