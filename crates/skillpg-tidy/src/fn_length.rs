//! No function in any crate over [`MAX_LINES`] lines, from `fn` to its closing brace: a view
//! that long mixes its state, its handlers and its markup, and a command that long composes
//! what a library should; either reads as a wall. Split it into components or helpers, or move
//! its logic into a type with tested transitions. [`EXCEPTIONS`] names the few that read better
//! whole, each with why; an exception no longer needed fails too.

use syn::spanned::Spanned;
use syn::visit::Visit;

/// The most lines a function may span.
pub const MAX_LINES: usize = 120;

/// Functions allowed past [`MAX_LINES`] (file, name, why splitting would not read better).
pub const EXCEPTIONS: &[(&str, &str, &str)] = &[
    (
        "crates/skillpg-core/src/yaml.rs",
        "parse_text",
        "one loop over the YAML parser's events whose arms share the stack of open nodes and their spans; split, each arm would take the whole state",
    ),
    (
        "crates/skillpg-decoder/src/model.rs",
        "assemble",
        "binds each tensor of a checkpoint by name, in the model's order, to its part: one line a part, and the order is the model's",
    ),
    (
        "crates/skillpg-embedder/src/fast.rs",
        "forward_batch",
        "one transformer pass over a batch, each step reading the buffers the one before wrote (the numerics the GPU kernels are checked against); split, every step would pass a dozen buffers",
    ),
    (
        "crates/skillpg-gpu/src/batch.rs",
        "new",
        "creates every buffer and bind group of a pass, each named once beside the kernel binding that reads it",
    ),
    (
        "crates/skillpg-gpu/src/decoder.rs",
        "build",
        "uploads the model's matrices and makes the pass's buffers in the order the kernels bind them",
    ),
    (
        "crates/skillpg-gpu/src/decoder.rs",
        "plan_specs",
        "the table of every dispatch of a decoder pass, in order: a table reads whole",
    ),
];

/// Whether `finding` (a line of [`long_functions`]) is one of the [`EXCEPTIONS`].
pub fn excepted(finding: &str) -> bool {
    EXCEPTIONS.iter().any(|(path, name, _)| {
        finding.starts_with(&format!("{path}:")) && finding.contains(&format!(": fn {name} is "))
    })
}

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
        // An exception covers its own function alone.
        assert!(!excepted(&found[0]));
        assert!(excepted(
            "crates/skillpg-core/src/yaml.rs:209: fn parse_text is 191 lines (at most 120): split it"
        ));
        assert!(!excepted(
            "crates/skillpg-core/src/yaml.rs:9: fn parse_text_more is 191 lines (at most 120): split it"
        ));
        assert!(!excepted(
            "crates/skillpg-core/src/ingest.rs:9: fn parse_text is 191 lines (at most 120): split it"
        ));
    }
}
