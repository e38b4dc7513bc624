//! The tree's own rules (`skillpg_tidy`), held on the tree itself in the fast tier. Each rule's
//! planted violation is a unit test in its module.

use std::collections::BTreeSet;
use std::path::Path;

use skillpg_tidy::{
    crate_edges, fn_length, length_unit, live_html, module_cycles, module_docs, pure_core,
    rust_files, shared_literals, test_counts, unknown_fields, workspace_root,
};

fn crates_dir() -> std::path::PathBuf {
    workspace_root().join("crates")
}

/// Every crate's folder under `crates/` (each has its sources in `src/`; `skillpg-cli`'s manifest
/// is the root's, so that `cargo install --path .` installs `skillpg`).
fn crate_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(crates_dir())
        .expect("crates/")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("src").is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn src_of(name: &str) -> Vec<(String, String)> {
    rust_files(&crates_dir().join(name).join("src")).expect("sources")
}

/// `cargo metadata --offline --format-version 1` with `args`, at the workspace's root.
fn cargo_metadata(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--offline", "--format-version", "1"])
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata {args:?} (the wasm32 graph needs the lock's crates for every target: `cargo fetch --locked`, which scripts/test runs): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_none(rule: &str, found: &[String]) {
    assert!(found.is_empty(), "{rule}:\n{}", found.join("\n"));
}

#[test]
fn crates_depend_only_along_the_allowed_edges() {
    let metadata = cargo_metadata(&["--no-deps"]);
    let edges = crate_edges::workspace_edges(&metadata).expect("edges");
    let crates: BTreeSet<String> = crate_names().into_iter().collect();
    assert_none("crate edges", &crate_edges::violations(&crates, &edges));
    assert_none(
        "stale crate-edge permissions",
        &crate_edges::stale_permissions(&crates, &edges),
    );
}

#[test]
fn every_crates_modules_read_one_way() {
    let mut found = Vec::new();
    for name in crate_names() {
        let edges = module_cycles::module_edges(&src_of(&name)).expect("parses");
        found.extend(
            module_cycles::cycles(&edges)
                .iter()
                .map(|c| format!("{name}'s modules form a cycle: {}", c.join(" → "))),
        );
    }
    assert_none("module cycles", &found);
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let mut found = Vec::new();
    for name in crate_names() {
        for (path, text) in src_of(&name) {
            let path = format!("crates/{name}/src/{path}");
            found.extend(
                fn_length::long_functions(&path, &text, fn_length::MAX_LINES).expect("parses"),
            );
        }
    }
    let stale: Vec<String> = fn_length::EXCEPTIONS
        .iter()
        .filter(|(path, name, _)| {
            !found.iter().any(|f| {
                f.starts_with(&format!("{path}:")) && f.contains(&format!(": fn {name} is "))
            })
        })
        .map(|(path, name, _)| {
            format!("{path}: fn {name} is excepted but no longer too long: remove the exception")
        })
        .collect();
    found.retain(|f| !fn_length::excepted(f));
    found.extend(stale);
    assert_none("function length", &found);
}

#[test]
fn every_message_to_and_from_a_worker_denies_unknown_fields() {
    // The messages live in the experiment; their fields' types there and in the numerics.
    let mut files = Vec::new();
    for name in [
        "skillpg-routing",
        "skillpg-math",
        "skillpg-core",
        "skillpg-stats",
    ] {
        files.extend(
            src_of(name)
                .into_iter()
                .map(|(p, t)| (format!("crates/{name}/src/{p}"), t)),
        );
    }
    assert_none(
        "worker boundary",
        &unknown_fields::without_deny(&files).expect("parses"),
    );
}

#[test]
fn every_module_opens_with_its_doc() {
    let found: Vec<String> = crate_names()
        .iter()
        .flat_map(|name| {
            src_of(name)
                .into_iter()
                .filter(|(_, text)| !module_docs::has_module_doc(text))
                .map(move |(p, _)| format!("crates/{name}/src/{p} has no //! doc comment"))
        })
        .collect();
    assert_none("module docs", &found);
}

#[test]
fn the_readme_states_the_trees_test_counts() {
    let mut files = Vec::new();
    for name in crate_names() {
        for dir in ["src", "tests", "benches", "examples"] {
            let dir = crates_dir().join(&name).join(dir);
            if Path::new(&dir).is_dir() {
                files.extend(rust_files(&dir).expect("sources"));
            }
        }
    }
    let tree = test_counts::count(&files).expect("parses");
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).expect("README");
    let stated = test_counts::stated(&readme).expect("the README states its counts");
    assert_eq!(
        stated, tree,
        "README.md's tier table states {stated:?}; the tree has {tree:?}: write the tree's counts"
    );
}

#[test]
fn no_code_puts_markup_into_the_page() {
    let mut found = Vec::new();
    for name in crate_names() {
        for (path, text) in src_of(&name) {
            found.extend(
                live_html::in_rust(&format!("crates/{name}/src/{path}"), &text).expect("parses"),
            );
        }
    }
    let web = skillpg_tidy::workspace_root().join("web");
    let mut scripts: Vec<_> = std::fs::read_dir(&web)
        .expect("web/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "js"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "web/ serves JavaScript");
    for path in scripts {
        let text = std::fs::read_to_string(&path).expect("readable");
        found.extend(live_html::in_js(&path.display().to_string(), &text));
    }
    assert_none("live HTML", &found);
}

#[test]
fn the_pure_crates_read_no_files_and_the_engine_binds_no_browser() {
    let mut found = Vec::new();
    for name in pure_core::PURE {
        for (path, text) in src_of(name) {
            let path = format!("crates/{name}/src/{path}");
            found.extend(pure_core::fs_uses(&path, &text).expect("parses"));
        }
    }
    assert_none("std::fs in a pure crate", &found);
    let metadata = cargo_metadata(&["--locked", "--filter-platform", "wasm32-unknown-unknown"]);
    let mut found = Vec::new();
    for name in pure_core::NO_BINDINGS {
        found.extend(pure_core::bindings_in_tree(&metadata, name).expect("reads"));
    }
    assert_none("browser bindings in the engine", &found);
}

#[test]
fn literals_two_languages_share_are_equal() {
    let root = workspace_root();
    let read = |path: &str| std::fs::read_to_string(root.join(path)).ok();
    assert_none("shared literals", &shared_literals::disagreements(&read));
    let build_web = read("scripts/build-web").expect("scripts/build-web");
    assert_none(
        "wasm module names",
        &shared_literals::module_name_disagreements(&build_web, &read),
    );
}

#[test]
fn the_length_rules_count_in_each_clients_unit() {
    let rules = crates_dir().join("skillpg-core/src/rules");
    let mut found = Vec::new();
    for file in length_unit::CAPPED {
        let text = std::fs::read_to_string(rules.join(file)).expect("the rule's file");
        let path = format!("crates/skillpg-core/src/rules/{file}");
        found.extend(length_unit::own_counts(&path, &text).expect("parses"));
    }
    assert_none("a length counted outside Profile::length", &found);
}
