//! Literals two languages share are checked equal: the routing model's cache the service
//! worker keeps and the page writes, the decoder models' store it never deletes, and the
//! marker and length limit of the pull-request comment that `skillpg github` writes and the
//! Action's script edits; and the names `scripts/build-web` gives the wasm modules, which the
//! page's scripts import. One side changed without the other fails here, not in a visitor's
//! browser (a service worker that deletes the model on every new build) or on a pull request
//! (a second comment on every push).

/// How the JavaScript's literal stands to the Rust constant's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tie {
    /// The same value.
    Equal,
    /// The JavaScript's literal is a prefix of the value (a family of names).
    Prefix,
}

/// Each shared literal: the Rust file and its constant, the JavaScript file and the text that
/// comes right before its literal there, and how the two stand.
pub const SHARED: &[(&str, &str, &str, &str, Tie)] = &[
    (
        "crates/skillpg-app/src/routing_run.rs",
        "MODEL_CACHE",
        "web/sw.js",
        "const MODEL_CACHE = ",
        Tie::Equal,
    ),
    (
        "crates/skillpg-app/src/decoder_run.rs",
        "STORE",
        "web/sw.js",
        "k.startsWith(",
        Tie::Prefix,
    ),
    (
        "crates/skillpg-report/src/github.rs",
        "COMMENT_MARKER",
        "scripts/action-comment.mjs",
        "export const MARKER = ",
        Tie::Equal,
    ),
    (
        "crates/skillpg-report/src/github.rs",
        "MAX_COMMENT_CHARS",
        "scripts/action-comment.mjs",
        "export const MAX_COMMENT_CHARS = ",
        Tie::Equal,
    ),
];

/// The value of the constant `name` in Rust `text`: a string's contents, or an integer's
/// digits.
pub fn rust_const(text: &str, name: &str) -> Option<String> {
    let file = syn::parse_file(text).ok()?;
    file.items.iter().find_map(|item| match item {
        syn::Item::Const(c) if c.ident == name => match &*c.expr {
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Str(s) => Some(s.value()),
                syn::Lit::Int(i) => Some(i.base10_digits().to_owned()),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    })
}

/// The literal right after `before` in JavaScript `text`: a quoted string's contents, or a
/// number's digits (without `_`).
pub fn js_literal(text: &str, before: &str) -> Option<String> {
    let rest = &text[text.find(before)? + before.len()..];
    let quote = rest.chars().next()?;
    if quote == '\'' || quote == '"' || quote == '`' {
        let body = &rest[1..];
        return Some(body[..body.find(quote)?].to_owned());
    }
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '_')
        .filter(|c| *c != '_')
        .collect();
    (!digits.is_empty()).then_some(digits)
}

/// The shared literals of [`SHARED`] that disagree, read through `read` (a path to its text).
pub fn disagreements(read: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    for (rust_file, name, js_file, before, tie) in SHARED {
        let rust = read(rust_file).and_then(|t| rust_const(&t, name));
        let js = read(js_file).and_then(|t| js_literal(&t, before));
        match (rust, js) {
            (Some(r), Some(j)) => {
                let agree = match tie {
                    Tie::Equal => r == j,
                    Tie::Prefix => r.starts_with(&j),
                };
                if !agree {
                    out.push(format!(
                        "{rust_file} {name} = {r:?} but {js_file} has {j:?} after `{before}`: change both"
                    ));
                }
            }
            (None, _) => out.push(format!(
                "{rust_file}: no constant {name} (shared_literals::SHARED)"
            )),
            (_, None) => out.push(format!(
                "{js_file}: no literal after `{before}` (shared_literals::SHARED)"
            )),
        }
    }
    out
}

/// Where each wasm module `scripts/build-web` names (`--out-name`) is imported by its name: the
/// module (its `.js` glue) and the files that import it.
pub const MODULE_USERS: &[(&str, &[&str])] = &[
    ("skillpg_app", &["web/boot.js", "web/sw.js"]),
    ("skillpg_worker", &["web/worker.js"]),
];

/// The modules `build_web` (the script's text) names and the scripts that do not import them
/// by that name, read through `read`.
pub fn module_name_disagreements(
    build_web: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Vec<String> {
    let named: Vec<&str> = build_web
        .split("--out-name ")
        .skip(1)
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    let mut out = Vec::new();
    for (module, users) in MODULE_USERS {
        if !named.contains(module) {
            out.push(format!(
                "scripts/build-web names no module {module} (it names {named:?}): change the scripts that import it too"
            ));
            continue;
        }
        for user in *users {
            let import = format!("./{module}.js");
            if !read(user).is_some_and(|t| t.contains(&import)) {
                out.push(format!(
                    "{user} does not import {import}, the name scripts/build-web gives it"
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_disagreement_is_found_and_agreement_passes() {
        let rust = "pub const MODEL_CACHE: &str = \"model-v2\";\npub const STORE: &str = \"skillpg-decoder-v1\";\npub const COMMENT_MARKER: &str = \"<!-- m -->\";\npub const MAX_COMMENT_CHARS: usize = 65_536;\n";
        let good_js = "const MODEL_CACHE = 'model-v2';\nk.startsWith('skillpg-decoder-');\nexport const MARKER = '<!-- m -->';\nexport const MAX_COMMENT_CHARS = 65_536;\n";
        let read = |js: &'static str| {
            move |path: &str| Some(if path.ends_with(".rs") { rust } else { js }.to_owned())
        };
        assert_eq!(disagreements(&read(good_js)), Vec::<String>::new());
        let bad_js = "const MODEL_CACHE = 'model-v3';\nk.startsWith('skillpg-decoders-');\nexport const MARKER = '<!-- m -->';\nexport const MAX_COMMENT_CHARS = 65536;\n";
        let found = disagreements(&read(bad_js));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("MODEL_CACHE = \"model-v2\" but web/sw.js has \"model-v3\""));
        assert!(found[1].contains("STORE"));
    }

    #[test]
    fn a_renamed_module_is_found_in_the_scripts_that_import_it() {
        let read = |path: &str| {
            Some(match path {
                "web/worker.js" => "import('./skillpg_worker.js')".to_owned(),
                _ => "import('./skillpg_app.js')".to_owned(),
            })
        };
        let build = "wasm-bindgen --out-name skillpg_app a.wasm\nwasm-bindgen --out-name skillpg_worker b.wasm\n";
        assert!(module_name_disagreements(build, &read).is_empty());
        let renamed =
            "wasm-bindgen --out-name page a.wasm\nwasm-bindgen --out-name skillpg_worker b.wasm\n";
        let found = module_name_disagreements(renamed, &read);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("names no module skillpg_app"),
            "{found:?}"
        );
    }
}
