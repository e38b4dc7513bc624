//! No function in the app (`skillpg-app`) over [`MAX_LINES`] lines, from `fn` to its closing
//! brace: a view that long mixes its state, its handlers and its markup, and reads as a wall.
//! Split it into components, or move its logic into a state type with tested transitions.

use syn::spanned::Spanned;
use syn::visit::Visit;

/// The most lines a function may span.
pub const MAX_LINES: usize = 120;

struct Lengths<'a> {
    path: &'a str,
    max: usize,
    out: Vec<String>,
}

impl Lengths<'_> {
    fn check(&mut self, name: &syn::Ident, start: proc_macro2::Span, block: &syn::Block) {
        let first = start.start().line;
        let last = block.span().end().line;
        let lines = last + 1 - first;
        if lines > self.max {
            self.out.push(format!(
                "{}:{first}: fn {name} is {lines} lines (at most {}): split it",
                self.path, self.max
            ));
        }
    }
}

impl<'ast> Visit<'ast> for Lengths<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.check(&f.sig.ident, f.sig.fn_token.span, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.check(&f.sig.ident, f.sig.fn_token.span, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }
}

/// Each function of `text` (the file at `path`) longer than `max` lines.
pub fn long_functions(path: &str, text: &str, max: usize) -> Result<Vec<String>, String> {
    let file = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
    let mut lengths = Lengths {
        path,
        max,
        out: Vec::new(),
    };
    lengths.visit_file(&file);
    Ok(lengths.out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_long_function_is_found_with_its_line() {
        let body = "    let _ = 1;\n".repeat(5);
        let text = format!(
            "/// Short.\nfn short() {{}}\n\nstruct S;\nimpl S {{\n    fn long(&self) {{\n{body}    }}\n}}\n"
        );
        let found = long_functions("x.rs", &text, 6).expect("parses");
        assert_eq!(
            found,
            vec!["x.rs:6: fn long is 7 lines (at most 6): split it".to_owned()]
        );
        assert!(long_functions("x.rs", &text, 7).expect("parses").is_empty());
    }
}
