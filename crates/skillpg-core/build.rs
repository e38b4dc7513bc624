//! Collects each rule's documentation (the `//!` block at the top of `src/rules/<rule>.rs`)
//! into `rule_docs.rs`, so the CLI (`skillpg rules CODE`) and the page can show the
//! explanation next to every finding: the docs are written once, beside the code.

use std::fmt::Write;

fn main() {
    let dir = std::path::Path::new("src/rules");
    println!("cargo:rerun-if-changed=src/rules");
    let mut entries: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("src/rules")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "rs") && p.file_stem().is_some_and(|s| s != "mod")
        })
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("rule file");
            let doc: Vec<&str> = text
                .lines()
                .take_while(|l| l.starts_with("//!"))
                .map(|l| {
                    l.trim_start_matches("//!")
                        .strip_prefix(' ')
                        .unwrap_or(l.trim_start_matches("//!"))
                })
                .collect();
            (
                p.file_stem()
                    .expect("stem")
                    .to_string_lossy()
                    .replace('_', "-"),
                doc.join("\n"),
            )
        })
        .collect();
    entries.sort();
    let mut out = String::from(
        "/// Each rule's documentation by rule name, from the `//!` block of its file.\npub static RULE_DOCS: &[(&str, &str)] = &[\n",
    );
    for (name, doc) in entries {
        let _ = writeln!(out, "    ({name:?}, {doc:?}),");
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(std::path::Path::new(&out_dir).join("rule_docs.rs"), out)
        .expect("write rule_docs.rs");
}
