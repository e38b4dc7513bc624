//! The length rules count through `Profile::length`: each client counts `name`, `description`
//! and the other capped fields in its own unit (code points, UTF-16 units, bytes, Codex's
//! collapsed whitespace), and a rule that counted `.chars()` itself would give every client the
//! specification's unit. The rules checked are the `*_too_long.rs` files of the engine's rules
//! that cap a field ([`CAPPED`]); `body_too_long.rs` counts tokens, and `listing_cap.rs`
//! counts what Claude Code's listing counts, in characters, whatever the profile.

use proc_macro2::{TokenStream, TokenTree};

/// The rules that cap a field's length.
pub const CAPPED: &[&str] = &[
    "name_too_long.rs",
    "description_too_long.rs",
    "compatibility_too_long.rs",
    "short_description_too_long.rs",
];

/// Each place in `text` (the rule at `path`) that counts a length itself: `.chars().count()`,
/// `.encode_utf16()`, `.len_utf16()`.
pub fn own_counts(path: &str, text: &str) -> Result<Vec<String>, String> {
    let file = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
    let mut tokens = TokenStream::new();
    for item in &file.items {
        if let syn::Item::Mod(m) = item
            && crate::module_cycles::is_test_only(&m.attrs)
        {
            continue;
        }
        quote::ToTokens::to_tokens(item, &mut tokens);
    }
    let mut out = Vec::new();
    scan(tokens, path, &mut out);
    Ok(out)
}

fn scan(tokens: TokenStream, path: &str, out: &mut Vec<String>) {
    let list: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, t) in list.iter().enumerate() {
        if let TokenTree::Group(g) = t {
            scan(g.stream(), path, out);
        }
        let TokenTree::Ident(id) = t else { continue };
        let counts_chars = id == "chars"
            && matches!(list.get(i + 2), Some(TokenTree::Punct(p)) if p.as_char() == '.')
            && matches!(list.get(i + 3), Some(TokenTree::Ident(c)) if c == "count");
        if counts_chars || id == "encode_utf16" || id == "len_utf16" {
            out.push(format!(
                "{path}:{}: `{id}` counts a length itself: count through `cx.profile.length`, in the client's unit",
                t.span().start().line
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_count_of_chars_is_found_and_profile_length_passes() {
        let good = "pub fn check(cx: &mut Cx) { let n = cx.profile.length(value); }\n";
        assert!(own_counts("x.rs", good).expect("parses").is_empty());
        let bad = "pub fn check(cx: &mut Cx) {\n    let n = value.chars().count();\n    let m = value.encode_utf16().count();\n}\n#[cfg(test)]\nmod tests { fn t() { let _ = \"x\".chars().count(); } }\n";
        let found = own_counts("x.rs", bad).expect("parses");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("x.rs:2: `chars`"), "{found:?}");
        assert!(found[1].starts_with("x.rs:3: `encode_utf16`"), "{found:?}");
    }
}
