//! The allowed edges between the workspace's crates, read from `cargo metadata`: the layers read
//! one way. The models (`skillpg-embedder`, `skillpg-decoder`) and their numerics sit below the
//! experiment (`skillpg-routing`), which binds them only in `skillpg-runtime`; the page
//! (`skillpg-app`) reaches no model, GPU or runtime crate (its worker does); the file edge
//! (`skillpg-fs`) reads bytes into the engine's bundles and knows nothing of routing; the
//! language server (`skillpg-lsp`) is an edge like the CLI, beside it, with no model; what an
//! editor shows (`skillpg-ide`) sits under both editors, the language server and the page. Normal and
//! build dependencies are held; dev-dependencies (tests and benchmarks binding the layers) are
//! not.

use std::collections::BTreeSet;

/// Each workspace crate and the workspace crates it may depend on.
pub const ALLOWED: &[(&str, &[&str])] = &[
    ("skillpg-math", &[]),
    ("skillpg-stats", &["skillpg-math"]),
    ("skillpg-tokens", &[]),
    ("skillpg-tidy", &[]),
    ("skillpg-core", &["skillpg-tokens"]),
    ("skillpg-report", &["skillpg-core"]),
    ("skillpg-fs", &["skillpg-core"]),
    ("skillpg-ide", &["skillpg-core", "skillpg-tokens"]),
    ("skillpg-embedder", &["skillpg-math"]),
    ("skillpg-decoder", &["skillpg-math"]),
    ("skillpg-gpu", &["skillpg-embedder", "skillpg-decoder"]),
    (
        "skillpg-routing",
        &["skillpg-core", "skillpg-stats", "skillpg-math"],
    ),
    ("skillpg-share", &["skillpg-core", "skillpg-routing"]),
    (
        "skillpg-runtime",
        &[
            "skillpg-embedder",
            "skillpg-decoder",
            "skillpg-gpu",
            "skillpg-routing",
        ],
    ),
    (
        "skillpg-worker",
        &[
            "skillpg-embedder",
            "skillpg-decoder",
            "skillpg-gpu",
            "skillpg-routing",
            "skillpg-runtime",
        ],
    ),
    (
        "skillpg-app",
        &[
            "skillpg-core",
            "skillpg-ide",
            "skillpg-report",
            "skillpg-routing",
            "skillpg-share",
            "skillpg-stats",
            "skillpg-tokens",
        ],
    ),
    (
        "skillpg-lsp",
        &[
            "skillpg-core",
            "skillpg-fs",
            "skillpg-ide",
            "skillpg-report",
        ],
    ),
    (
        "skillpg-cli",
        &[
            "skillpg-core",
            "skillpg-lsp",
            "skillpg-share",
            "skillpg-decoder",
            "skillpg-fs",
            "skillpg-gpu",
            "skillpg-report",
            "skillpg-embedder",
            "skillpg-routing",
            "skillpg-runtime",
            "skillpg-stats",
            "skillpg-tokens",
        ],
    ),
];

/// The workspace's crate-to-crate edges (normal and build dependencies), from `cargo metadata
/// --no-deps --format-version 1`'s JSON.
pub fn workspace_edges(metadata: &str) -> Result<BTreeSet<(String, String)>, String> {
    let v: serde_json::Value =
        serde_json::from_str(metadata).map_err(|e| format!("cargo metadata: {e}"))?;
    let packages = v["packages"]
        .as_array()
        .ok_or("cargo metadata: no packages")?;
    let members: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut edges = BTreeSet::new();
    for p in packages {
        let from = p["name"].as_str().unwrap_or_default();
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let to = d["name"].as_str().unwrap_or_default();
            let dev = d["kind"].as_str() == Some("dev");
            if members.contains(to) && !dev {
                edges.insert((from.to_owned(), to.to_owned()));
            }
        }
    }
    Ok(edges)
}

/// The crates of `crates` that [`ALLOWED`] does not name, and the edges it does not allow.
pub fn violations(crates: &BTreeSet<String>, edges: &BTreeSet<(String, String)>) -> Vec<String> {
    let allowed = |from: &str| ALLOWED.iter().find(|(c, _)| *c == from).map(|(_, to)| *to);
    let mut out = Vec::new();
    for c in crates {
        if allowed(c).is_none() {
            out.push(format!(
                "{c} is not in crate_edges::ALLOWED: say which crates it may depend on"
            ));
        }
    }
    for (from, to) in edges {
        if allowed(from).is_some_and(|ok| !ok.contains(&to.as_str())) {
            out.push(format!(
                "{from} depends on {to}: the layers allow it {:?} (crate_edges::ALLOWED)",
                allowed(from).unwrap_or_default()
            ));
        }
    }
    out
}

/// The permissions of [`ALLOWED`] that nothing uses: a crate it names that is not in the
/// workspace, or an edge no crate takes. A permission left from a dependency since removed would
/// let it come back unremarked; the table says only what the tree does.
pub fn stale_permissions(
    crates: &BTreeSet<String>,
    edges: &BTreeSet<(String, String)>,
) -> Vec<String> {
    stale_in(ALLOWED, crates, edges)
}

/// [`stale_permissions`] of any `table`.
fn stale_in(
    table: &[(&str, &[&str])],
    crates: &BTreeSet<String>,
    edges: &BTreeSet<(String, String)>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (from, tos) in table {
        if !crates.contains(*from) {
            out.push(format!(
                "crate_edges::ALLOWED names {from}, which is not in the workspace: remove it"
            ));
            continue;
        }
        for to in *tos {
            if !edges.contains(&((*from).to_owned(), (*to).to_owned())) {
                out.push(format!(
                    "crate_edges::ALLOWED lets {from} depend on {to}, which it does not: remove the permission"
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dependency's name and kind (`None` for a normal one).
    type Dep<'a> = (&'a str, Option<&'a str>);

    fn metadata(deps: &[(&str, &[Dep])]) -> String {
        let packages: Vec<serde_json::Value> = deps
            .iter()
            .map(|(name, ds)| {
                let ds: Vec<serde_json::Value> = ds
                    .iter()
                    .map(|(d, kind)| serde_json::json!({"name": d, "kind": kind}))
                    .collect();
                serde_json::json!({"name": name, "dependencies": ds})
            })
            .collect();
        serde_json::json!({ "packages": packages }).to_string()
    }

    #[test]
    fn a_model_that_depends_on_the_experiment_is_refused_and_a_dev_dependency_is_not() {
        let json = metadata(&[
            (
                "skillpg-decoder",
                &[("skillpg-routing", None), ("skillpg-math", None)],
            ),
            (
                "skillpg-embedder",
                &[("skillpg-routing", Some("dev")), ("serde", None)],
            ),
            ("skillpg-routing", &[]),
            ("skillpg-math", &[]),
        ]);
        let edges = workspace_edges(&json).expect("edges");
        let crates = [
            "skillpg-decoder",
            "skillpg-embedder",
            "skillpg-routing",
            "skillpg-math",
        ]
        .map(str::to_owned)
        .into();
        let found = violations(&crates, &edges);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("skillpg-decoder depends on skillpg-routing"),
            "{found:?}"
        );
    }

    #[test]
    fn a_permission_nothing_uses_is_stale() {
        let table: &[(&str, &[&str])] = &[
            ("skillpg-core", &["skillpg-tokens"]),
            ("skillpg-report", &["skillpg-core", "skillpg-tokens"]),
            ("skillpg-gone", &[]),
        ];
        let crates: BTreeSet<String> = ["skillpg-core", "skillpg-report", "skillpg-tokens"]
            .map(str::to_owned)
            .into();
        let edges: BTreeSet<(String, String)> = [
            ("skillpg-core", "skillpg-tokens"),
            ("skillpg-report", "skillpg-core"),
        ]
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .into();
        let found = stale_in(table, &crates, &edges);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].contains("skillpg-report depend on skillpg-tokens"),
            "{found:?}"
        );
        assert!(found[1].contains("skillpg-gone"), "{found:?}");
    }

    #[test]
    fn a_crate_the_table_does_not_name_is_refused() {
        let crates = ["skillpg-new".to_owned()].into();
        let found = violations(&crates, &BTreeSet::new());
        assert_eq!(found.len(), 1, "{found:?}");
    }
}
