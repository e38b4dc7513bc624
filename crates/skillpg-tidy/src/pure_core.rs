//! The engine stays pure: the crates that take bytes and return data ([`PURE`]) never touch
//! the file system (no `std::fs` outside `#[cfg(test)]` items: the edges read files, so the
//! page and the CLI check the same bytes the same way), and the engine's crate has no browser
//! bindings (`wasm-bindgen`, `web-sys`, `js-sys`) in its dependency tree for
//! `wasm32-unknown-unknown` (only the app crate touches the DOM). Checked in the fast tier; it
//! was a `grep` and a `cargo tree` at the end of `scripts/test`.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{TokenStream, TokenTree};

/// The crates that take bytes and return data.
pub const PURE: &[&str] = &[
    "skillpg-core",
    "skillpg-tokens",
    "skillpg-report",
    "skillpg-ide",
    "skillpg-share",
    "skillpg-stats",
    "skillpg-math",
    "skillpg-routing",
    "skillpg-embedder",
    "skillpg-decoder",
];

/// The crates whose dependency tree holds no browser binding.
pub const NO_BINDINGS: &[&str] = &["skillpg-core", "skillpg-tokens", "skillpg-report"];

const BINDINGS: [&str; 3] = ["wasm-bindgen", "web-sys", "js-sys"];

/// Each `std::fs` in `text` (the file at `path`) outside `#[cfg(test)]` items.
pub fn fs_uses(path: &str, text: &str) -> Result<Vec<String>, String> {
    let file = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for item in &file.items {
        if item_is_test_only(item) {
            continue;
        }
        let tokens = quote_item(item);
        find_std_fs(tokens, path, &mut out);
    }
    Ok(out)
}

fn item_is_test_only(item: &syn::Item) -> bool {
    let attrs = match item {
        syn::Item::Mod(m) => &m.attrs,
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Use(u) => &u.attrs,
        syn::Item::Impl(i) => &i.attrs,
        _ => return false,
    };
    crate::module_cycles::is_test_only(attrs)
}

fn quote_item(item: &syn::Item) -> TokenStream {
    let mut tokens = TokenStream::new();
    quote::ToTokens::to_tokens(item, &mut tokens);
    tokens
}

/// `std :: fs` as three tokens in a row (comments are not tokens), at any depth.
fn find_std_fs(tokens: TokenStream, path: &str, out: &mut Vec<String>) {
    let list: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, t) in list.iter().enumerate() {
        if let TokenTree::Group(g) = t {
            find_std_fs(g.stream(), path, out);
        }
        let is = |j: usize, s: &str| match list.get(j) {
            Some(TokenTree::Ident(id)) => id == s,
            Some(TokenTree::Punct(p)) => {
                s.len() == 1 && p.as_char() == s.chars().next().unwrap_or(' ')
            }
            _ => false,
        };
        if is(i, "std") && is(i + 1, ":") && is(i + 2, ":") && is(i + 3, "fs") {
            let line = t.span().start().line;
            out.push(format!(
                "{path}:{line}: std::fs in a pure crate: take bytes from the edge that reads them"
            ));
        }
    }
}

/// The browser bindings in `root`'s normal dependency tree, from `cargo metadata
/// --format-version 1 --filter-platform wasm32-unknown-unknown`'s JSON (its `resolve` graph).
pub fn bindings_in_tree(metadata: &str, root: &str) -> Result<Vec<String>, String> {
    let v: serde_json::Value =
        serde_json::from_str(metadata).map_err(|e| format!("cargo metadata: {e}"))?;
    let names: BTreeMap<&str, &str> = v["packages"]
        .as_array()
        .ok_or("cargo metadata: no packages")?
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    let nodes: BTreeMap<&str, &serde_json::Value> = v["resolve"]["nodes"]
        .as_array()
        .ok_or("cargo metadata: no resolve graph (run it without --no-deps)")?
        .iter()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    let start = names
        .iter()
        .find(|(_, n)| **n == root)
        .map(|(id, _)| *id)
        .ok_or_else(|| format!("cargo metadata: no package {root}"))?;
    let mut seen = BTreeSet::new();
    let mut todo = vec![start];
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes
            .get(id)
            .and_then(|n| n["deps"].as_array())
            .into_iter()
            .flatten()
        {
            let normal = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|k| k["kind"].is_null());
            if let (true, Some(pkg)) = (normal, dep["pkg"].as_str()) {
                todo.push(pkg);
            }
        }
    }
    Ok(seen
        .into_iter()
        .filter_map(|id| names.get(id))
        .filter(|n| BINDINGS.contains(n))
        .map(|n| {
            format!("{root} depends on {n} (for wasm32): only the app crate binds the browser")
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_std_fs_is_found_outside_tests_and_not_in_a_comment() {
        let text = "//! Reads nothing: std::fs is the edge's.\nuse std::fs;\nfn f() { let _ = std::fs::read(\"x\"); }\n#[cfg(test)]\nmod tests { fn t() { let _ = std::fs::read(\"x\"); } }\n";
        let found = fs_uses("x.rs", text).expect("parses");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("x.rs:2: std::fs"), "{found:?}");
        assert!(found[1].starts_with("x.rs:3: std::fs"), "{found:?}");
    }

    #[test]
    fn a_planted_binding_in_the_tree_is_found_through_a_normal_edge_only() {
        let metadata = serde_json::json!({
            "packages": [
                {"id": "core", "name": "skillpg-core"},
                {"id": "mid", "name": "getrandom"},
                {"id": "wb", "name": "wasm-bindgen"},
                {"id": "js", "name": "js-sys"}
            ],
            "resolve": {"nodes": [
                {"id": "core", "deps": [
                    {"pkg": "mid", "dep_kinds": [{"kind": null}]},
                    {"pkg": "js", "dep_kinds": [{"kind": "dev"}]}
                ]},
                {"id": "mid", "deps": [{"pkg": "wb", "dep_kinds": [{"kind": null}]}]},
                {"id": "wb", "deps": []},
                {"id": "js", "deps": []}
            ]}
        })
        .to_string();
        let found = bindings_in_tree(&metadata, "skillpg-core").expect("reads");
        assert_eq!(
            found,
            vec!["skillpg-core depends on wasm-bindgen (for wasm32): only the app crate binds the browser".to_owned()]
        );
    }
}
