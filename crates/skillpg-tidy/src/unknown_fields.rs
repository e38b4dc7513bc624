//! Every message between the page and its workers denies unknown fields: a field renamed on one
//! side is an error the page shows, never a silent default. The rule starts from the messages'
//! two types (`ToWorker`, `FromWorker`), follows every type their fields name, through every
//! crate given, and asks each one that derives `Deserialize` and has named fields (a struct, or
//! an enum with a struct variant) for `#[serde(deny_unknown_fields)]`.

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;

/// The messages' types, where the walk starts.
pub const ROOTS: &[&str] = &["ToWorker", "FromWorker"];

/// A type defined in the files given.
struct Def {
    path: String,
    item: syn::Item,
}

fn attr_list_mentions(attrs: &[syn::Attribute], attr: &str, word: &str) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident(attr)
            && a.meta.require_list().is_ok_and(|l| {
                l.tokens
                    .to_string()
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|t| t == word)
            })
    })
}

/// The idents a type expression names (`Option<Vec<RouteSkill>>` names `Option`, `Vec` and
/// `RouteSkill`).
#[derive(Default)]
struct Named(BTreeSet<String>);

impl<'ast> Visit<'ast> for Named {
    fn visit_path_segment(&mut self, s: &'ast syn::PathSegment) {
        self.0.insert(s.ident.to_string());
        syn::visit::visit_path_segment(self, s);
    }
}

fn named_by_fields(fields: &syn::Fields, out: &mut Named) {
    for f in fields {
        out.visit_type(&f.ty);
    }
}

/// Each type reachable from [`ROOTS`] through the files `(path, text)` that derives
/// `Deserialize`, has named fields and does not deny unknown fields.
pub fn without_deny(files: &[(String, String)]) -> Result<Vec<String>, String> {
    let mut defs: BTreeMap<String, Vec<Def>> = BTreeMap::new();
    for (path, text) in files {
        let file = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
        let mut items = Items(Vec::new());
        items.visit_file(&file);
        for item in items.0 {
            let name = match &item {
                syn::Item::Struct(s) => s.ident.to_string(),
                syn::Item::Enum(e) => e.ident.to_string(),
                _ => continue,
            };
            defs.entry(name).or_default().push(Def {
                path: path.clone(),
                item,
            });
        }
    }
    let mut out = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut todo: Vec<String> = ROOTS.iter().map(|r| (*r).to_owned()).collect();
    if let Some(missing) = ROOTS.iter().find(|r| !defs.contains_key(**r)) {
        return Err(format!(
            "the message type {missing} is not in the files given"
        ));
    }
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        for def in defs.get(&name).into_iter().flatten() {
            let mut named = Named::default();
            let (attrs, has_named_fields) = match &def.item {
                syn::Item::Struct(s) => {
                    named_by_fields(&s.fields, &mut named);
                    (&s.attrs, matches!(s.fields, syn::Fields::Named(_)))
                }
                syn::Item::Enum(e) => {
                    e.variants
                        .iter()
                        .for_each(|v| named_by_fields(&v.fields, &mut named));
                    let any = e
                        .variants
                        .iter()
                        .any(|v| matches!(v.fields, syn::Fields::Named(_)));
                    (&e.attrs, any)
                }
                _ => continue,
            };
            let deserialized = attr_list_mentions(attrs, "derive", "Deserialize");
            if deserialized
                && has_named_fields
                && !attr_list_mentions(attrs, "serde", "deny_unknown_fields")
            {
                out.push(format!(
                    "{}: {name} crosses the worker boundary without #[serde(deny_unknown_fields)]",
                    def.path
                ));
            }
            todo.extend(named.0.into_iter().filter(|n| defs.contains_key(n)));
        }
    }
    out.sort();
    Ok(out)
}

/// Every item of a file, nested modules included.
struct Items(Vec<syn::Item>);

impl<'ast> Visit<'ast> for Items {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        self.0.push(item.clone());
        syn::visit::visit_item(self, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_type_behind_a_message_without_the_attribute_is_found() {
        let protocol = r#"
            #[derive(Serialize, Deserialize)]
            #[serde(rename_all = "kebab-case", deny_unknown_fields)]
            pub enum ToWorker { Route { skills: Vec<RouteSkill>, mode: Mode } }
            #[derive(Serialize, Deserialize)]
            #[serde(deny_unknown_fields)]
            pub enum FromWorker { Done { decision: Option<Decision> }, Failed(String) }
            #[derive(Serialize, Deserialize)]
            pub enum Mode { Chapter, Choice }
        "#;
        let skills = r#"
            #[derive(Debug, Deserialize)]
            pub struct RouteSkill { pub name: String }
            #[derive(Debug, Deserialize)]
            pub struct Unrelated { pub x: u8 }
        "#;
        let outcome = r#"
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            pub struct Decision { pub choice: Option<usize> }
        "#;
        let files = [
            ("protocol.rs".to_owned(), protocol.to_owned()),
            ("skills.rs".to_owned(), skills.to_owned()),
            ("outcome.rs".to_owned(), outcome.to_owned()),
        ];
        let found = without_deny(&files).expect("parses");
        assert_eq!(
            found,
            vec![
                "skills.rs: RouteSkill crosses the worker boundary without #[serde(deny_unknown_fields)]"
                    .to_owned()
            ]
        );
    }
}
