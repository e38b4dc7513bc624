//! No cycle between a crate's top-level modules, in every crate: a module may name another
//! through `crate::…` only where the graph still reads one way, so each module can be read
//! knowing only those below it. A module is a file or folder directly under `src/`; an edge is
//! any `crate::m` path or `use crate::m…` in the syntax (a doc comment that names a module is
//! not one), a `super::…` path that climbs to the crate root and names `m` (`super::m` in a
//! top-level file, `super::super::m` one folder down, counting inline `mod`s), and a name the
//! crate root re-exports from `m` (`pub use m::Name;` read as `crate::Name`), outside
//! `#[cfg(test)]` items: a test may use any module to check its own (the eval
//! report read back by the eval-set reader above it), which does not change how the code reads.

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;

/// The top-level module a file under `src/` belongs to (`None` for the crate root).
fn module_of(path: &str) -> Option<String> {
    let first = path.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_owned())
}

/// The crate-level names a file refers to, and how deep in the module tree its code sits (a
/// top-level file is 1; each folder and inline `mod` adds one).
#[derive(Default)]
struct CrateRefs {
    names: BTreeSet<String>,
    depth: usize,
}

impl CrateRefs {
    /// The crate-level name a path of `idents` reaches: after `crate`, or after as many
    /// `super`s as climb to the root.
    fn reach(&mut self, idents: &[String]) {
        let supers = idents.iter().take_while(|i| *i == "super").count();
        let head = if idents.first().is_some_and(|i| i == "crate") {
            idents.get(1)
        } else if supers > 0 && supers >= self.depth {
            idents.get(supers)
        } else {
            None
        };
        if let Some(h) = head {
            self.names.insert(h.clone());
        }
    }
}

impl<'ast> Visit<'ast> for CrateRefs {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let idents: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.reach(&idents);
        syn::visit::visit_path(self, path);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            self.depth += 1;
            syn::visit::visit_item_mod(self, item);
            self.depth -= 1;
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        let mut tree = &item.tree;
        while let syn::UseTree::Path(p) = tree
            && (p.ident == "crate" || p.ident == "super")
        {
            prefix.push(p.ident.to_string());
            tree = &p.tree;
        }
        if prefix.is_empty() {
            return;
        }
        let mut heads = BTreeSet::new();
        collect_heads(tree, &mut heads);
        for h in heads {
            let mut idents = prefix.clone();
            idents.push(h);
            self.reach(&idents);
        }
    }
}

/// The names the crate root re-exports from a module (`pub use m::…::Name;`, `pub use
/// m::{A, B as C};`), by the name they take at the root.
fn root_reexports(root: &syn::File) -> BTreeMap<String, String> {
    fn leaves(tree: &syn::UseTree, out: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => leaves(&p.tree, out),
            syn::UseTree::Name(n) => out.push(n.ident.to_string()),
            syn::UseTree::Rename(r) => out.push(r.rename.to_string()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| leaves(t, out)),
            syn::UseTree::Glob(_) => {}
        }
    }
    let mut out = BTreeMap::new();
    for item in &root.items {
        let syn::Item::Use(u) = item else { continue };
        if !matches!(u.vis, syn::Visibility::Public(_)) {
            continue;
        }
        let mut tree = &u.tree;
        if let syn::UseTree::Path(p) = tree
            && (p.ident == "crate" || p.ident == "self")
        {
            tree = &p.tree;
        }
        if let syn::UseTree::Path(p) = tree {
            let mut names = Vec::new();
            leaves(&p.tree, &mut names);
            for n in names {
                out.insert(n, p.ident.to_string());
            }
        }
    }
    out
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
    let mut reexported = BTreeMap::new();
    for (path, text) in files {
        if module_of(path).is_none() {
            let root = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
            reexported.extend(root_reexports(&root));
        }
    }
    let mut edges = BTreeSet::new();
    for (path, text) in files {
        let Some(from) = module_of(path) else {
            continue;
        };
        let file = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
        // `a.rs` and `a/mod.rs` sit one below the root; `a/b.rs` two.
        let depth = path.split('/').count() - usize::from(path.ends_with("/mod.rs"));
        let mut refs = CrateRefs {
            names: BTreeSet::new(),
            depth,
        };
        refs.visit_file(&file);
        for name in refs.names {
            let to = if modules.contains(&name) {
                name
            } else if let Some(m) = reexported.get(&name) {
                m.clone()
            } else {
                continue;
            };
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
    fn a_cycle_written_with_super_or_through_a_root_reexport_is_found() {
        let edges = |files: &[(String, String)]| module_edges(files).expect("parses");
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        // `super::b` in a top-level file, `super::super::a` one folder down, and `super::x`
        // inside an inline module (which stays in its own file's module).
        let files = [
            file("lib.rs", "pub mod a; pub mod b;"),
            file("a.rs", "pub fn f() { super::b::g(); }"),
            file("b/mod.rs", "pub mod deep; pub fn g() {}"),
            file(
                "b/deep.rs",
                "use super::super::a::f;\nmod inner { use super::g; }\npub fn h() { f() }",
            ),
        ];
        let found = edges(&files);
        assert!(
            found.contains(&pair("a", "b")) && found.contains(&pair("b", "a")),
            "{found:?}"
        );
        assert_eq!(cycles(&found).len(), 1);
        // A name the root re-exports from `a`, used from `b` as `crate::Name`.
        let files = [
            file(
                "lib.rs",
                "pub mod a; pub mod b; pub use a::{Thing, Other as Renamed};",
            ),
            file(
                "a.rs",
                "pub struct Thing; pub struct Other; pub fn f() { crate::b::g(); }",
            ),
            file("b.rs", "pub fn g() -> crate::Renamed { todo!() }"),
        ];
        let found = edges(&files);
        assert!(found.contains(&pair("b", "a")), "{found:?}");
        assert_eq!(cycles(&found).len(), 1);
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
