//! No cycle between a crate's top-level modules, in every crate: a module may name another
//! through `crate::…` only where the graph still reads one way, so each module can be read
//! knowing only those below it. A module is a file or folder directly under `src/`; an edge is
//! any `crate::m` path or `use crate::m…` in the syntax (a doc comment that names a module is
//! not one), outside `#[cfg(test)]` items: a test may use any module to check its own (the eval
//! report read back by the eval-set reader above it), which does not change how the code reads.

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;

/// The top-level module a file under `src/` belongs to (`None` for the crate root).
fn module_of(path: &str) -> Option<String> {
    let first = path.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_owned())
}

#[derive(Default)]
struct CrateRefs(BTreeSet<String>);

impl<'ast> Visit<'ast> for CrateRefs {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let mut segments = path.segments.iter();
        if segments.next().is_some_and(|s| s.ident == "crate")
            && let Some(next) = segments.next()
        {
            self.0.insert(next.ident.to_string());
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if let syn::UseTree::Path(p) = &item.tree
            && p.ident == "crate"
        {
            collect_heads(&p.tree, &mut self.0);
        }
    }
}

/// Whether the attributes hold `#[cfg(test)]`.
pub(crate) fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// The first names under `use crate::`: `{a, b::c}` gives `a` and `b`.
fn collect_heads(tree: &syn::UseTree, out: &mut BTreeSet<String>) {
    match tree {
        syn::UseTree::Path(p) => {
            out.insert(p.ident.to_string());
        }
        syn::UseTree::Name(n) => {
            out.insert(n.ident.to_string());
        }
        syn::UseTree::Rename(r) => {
            out.insert(r.ident.to_string());
        }
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| collect_heads(t, out)),
        syn::UseTree::Glob(_) => {}
    }
}

/// The edges between top-level modules of the files `(path under src/, text)`: `(from, to)`
/// for each module that names another. A file that does not parse is an error.
pub fn module_edges(files: &[(String, String)]) -> Result<BTreeSet<(String, String)>, String> {
    let modules: BTreeSet<String> = files.iter().filter_map(|(p, _)| module_of(p)).collect();
    let mut edges = BTreeSet::new();
    for (path, text) in files {
        let Some(from) = module_of(path) else {
            continue;
        };
        let file = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
        let mut refs = CrateRefs::default();
        refs.visit_file(&file);
        for to in refs.0 {
            if to != from && modules.contains(&to) {
                edges.insert((from.clone(), to));
            }
        }
    }
    Ok(edges)
}

/// Each cycle among `edges`, as the modules on it in order (the first repeated at the end);
/// one cycle for each strongly connected group of modules.
pub fn cycles(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges {
        next.entry(a).or_default().push(b);
    }
    let mut found: Vec<Vec<String>> = Vec::new();
    let mut seen_in_cycle: BTreeSet<String> = BTreeSet::new();
    for start in next.keys() {
        if seen_in_cycle.contains(*start) {
            continue;
        }
        if let Some(path) = path_back(&next, start) {
            seen_in_cycle.extend(path.iter().cloned());
            found.push(path);
        }
    }
    found
}

/// A shortest path from `start` back to itself, breadth first.
fn path_back(next: &BTreeMap<&str, Vec<&str>>, start: &str) -> Option<Vec<String>> {
    let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        for &to in next.get(at).into_iter().flatten() {
            if to == start {
                // `at`, its parent, …, back to `start`: the cycle read backwards.
                let mut chain = Vec::new();
                let mut cur = at;
                while cur != start {
                    chain.push(cur.to_owned());
                    cur = parent[cur];
                }
                chain.reverse();
                let mut path = vec![start.to_owned()];
                path.extend(chain);
                path.push(start.to_owned());
                return Some(path);
            }
            if to != start && !parent.contains_key(to) {
                parent.insert(to, at);
                queue.push_back(to);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, text: &str) -> (String, String) {
        (path.to_owned(), text.to_owned())
    }

    #[test]
    fn a_planted_cycle_is_found_and_a_doc_comment_is_not_an_edge() {
        let files = [
            file("lib.rs", "pub mod profile; pub mod rules; pub mod yaml;"),
            file(
                "profile.rs",
                "use crate::rules::Rule;\n/// See [`crate::yaml`].\npub fn f() {}",
            ),
            file("rules/mod.rs", "pub fn g() { crate::yaml::parse(); }"),
            file("rules/name.rs", "use crate::{profile::Profile, yaml};"),
            file(
                "yaml.rs",
                "pub fn parse() {}\n#[cfg(test)]\nmod tests { use crate::profile::Profile; }",
            ),
        ];
        let edges = module_edges(&files).expect("parses");
        let want: BTreeSet<(String, String)> = [
            ("profile", "rules"),
            ("rules", "profile"),
            ("rules", "yaml"),
        ]
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
        // yaml's tests naming profile add no edge.
        assert_eq!(edges, want);
        let found = cycles(&edges);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].first(), found[0].last());
        assert!(found[0].contains(&"rules".to_owned()) && found[0].contains(&"profile".to_owned()));
    }

    #[test]
    fn a_graph_that_reads_one_way_has_no_cycle() {
        let edges = [("a", "b"), ("b", "c"), ("a", "c")]
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect();
        assert!(cycles(&edges).is_empty());
    }
}
