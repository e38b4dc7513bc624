//! No live HTML anywhere the page's code runs: nothing from a skill, a file name or a link may
//! reach the DOM as markup. In Rust (the app's crates) a call or path naming `inner_html`,
//! `outer_html` or `insert_adjacent_html` is refused, read in the syntax (a comment that names
//! one is not a call); in the JavaScript the page serves (`web/`), an `innerHTML`, `outerHTML`,
//! `insertAdjacentHTML` or `document.write`. Text goes in as text (`textContent`, Leptos' text
//! nodes); the Architecture Invariant in ARCHITECTURE.md states the rule this holds.

use syn::visit::Visit;

/// The web-sys names that set markup.
const RUST_NAMES: [&str; 6] = [
    "inner_html",
    "set_inner_html",
    "outer_html",
    "set_outer_html",
    "insert_adjacent_html",
    "write_with_str",
];

/// The DOM names that set markup, as JavaScript spells them.
const JS_NAMES: [&str; 4] = [
    "innerHTML",
    "outerHTML",
    "insertAdjacentHTML",
    "document.write",
];

#[derive(Default)]
struct Names(Vec<String>);

impl<'ast> Visit<'ast> for Names {
    fn visit_ident(&mut self, ident: &'ast proc_macro2::Ident) {
        let name = ident.to_string();
        if RUST_NAMES.contains(&name.as_str()) {
            self.0.push(name);
        }
    }
}

/// The live-HTML names a Rust file `(path, text)` uses; a file that does not parse is an error.
pub fn in_rust(path: &str, text: &str) -> Result<Vec<String>, String> {
    let file = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
    let mut names = Names::default();
    names.visit_file(&file);
    Ok(names
        .0
        .into_iter()
        .map(|n| format!("{path} uses `{n}`: put text in as text (textContent, a text node)"))
        .collect())
}

/// The live-HTML names a JavaScript file uses, line by line (a `//` comment line is passed over).
pub fn in_js(path: &str, text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .flat_map(|(i, line)| {
            JS_NAMES
                .iter()
                .filter(move |n| line.contains(*n))
                .map(move |n| {
                    format!(
                        "{path}:{}: uses `{n}`: put text in as text (textContent)",
                        i + 1
                    )
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_inner_html_is_found_and_a_comment_is_not() {
        let rust = "/// Never `set_inner_html`.\nfn f(el: web_sys::Element, s: &str) { el.set_inner_html(s); }";
        let found = in_rust("app.rs", rust).expect("parses");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("set_inner_html"));
        assert!(
            in_rust(
                "ok.rs",
                "fn f(el: web_sys::Node, s: &str) { el.set_text_content(Some(s)); }"
            )
            .expect("parses")
            .is_empty()
        );
        let js = "// innerHTML is never used\nel.textContent = s;\nel.insertAdjacentHTML('beforeend', s);";
        let found = in_js("boot.js", js);
        assert_eq!(
            found,
            vec![
                "boot.js:3: uses `insertAdjacentHTML`: put text in as text (textContent)"
                    .to_owned()
            ]
        );
    }
}
