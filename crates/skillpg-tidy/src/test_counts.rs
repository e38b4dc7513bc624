//! The README's test counts are the tree's: its tier table says how many tests `cargo test` runs
//! (the fast tier) and how many it leaves to `scripts/test` (`#[ignore]`d, the slow tier). They
//! are counted in the syntax: a function with a `#[test]` attribute, slow when it also has an
//! `#[ignore]`.

use syn::visit::Visit;

/// Tests in the fast tier and in the slow one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub fast: usize,
    pub slow: usize,
}

#[derive(Default)]
struct Tests(Counts);

impl<'ast> Visit<'ast> for Tests {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let is = |name: &str| {
            f.attrs
                .iter()
                .any(|a| a.path().segments.last().is_some_and(|s| s.ident == name))
        };
        if is("test") {
            if is("ignore") {
                self.0.slow += 1;
            } else {
                self.0.fast += 1;
            }
        }
        syn::visit::visit_item_fn(self, f);
    }
}

/// The tests of the files `(path, text)`.
pub fn count(files: &[(String, String)]) -> Result<Counts, String> {
    let mut tests = Tests::default();
    for (path, text) in files {
        let file = syn::parse_file(text).map_err(|e| format!("{path}: {e}"))?;
        tests.visit_file(&file);
    }
    Ok(tests.0)
}

/// The number just before `before` in `text`, or just after `after`.
fn number_near(text: &str, before: Option<&str>, after: Option<&str>) -> Option<usize> {
    if let Some(b) = before {
        let at = text.find(b)?;
        let digits: String = text[..at]
            .chars()
            .rev()
            .skip_while(|c| *c == ' ')
            .take_while(char::is_ascii_digit)
            .collect();
        return digits.chars().rev().collect::<String>().parse().ok();
    }
    let a = after?;
    let at = text.find(a)? + a.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The counts the README states: "N tests in seconds" in the fast tier's row, and "It leaves
/// the M tests" below the table.
pub fn stated(readme: &str) -> Result<Counts, String> {
    let fast = number_near(readme, Some(" tests in seconds"), None)
        .ok_or("the README has no \"N tests in seconds\" in the fast tier's row")?;
    let slow = number_near(readme, None, Some("It leaves the "))
        .ok_or("the README has no \"It leaves the M tests\" for the slow tier")?;
    Ok(Counts { fast, slow })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_are_counted_by_tier_and_a_wrong_readme_count_differs() {
        let text = r#"
            #[test] fn a() {}
            #[test] #[ignore = "slow tier"] fn b() {}
            mod tests { #[test] fn c() {} #[tokio::test] async fn d() {} fn helper() {} }
        "#;
        let counts = count(&[("x.rs".to_owned(), text.to_owned())]).expect("parses");
        assert_eq!(counts, Counts { fast: 3, slow: 1 });
        let readme = "| fast | `cargo test` | x | 3 tests in seconds |\n\nIt leaves the 1 tests";
        assert_eq!(stated(readme), Ok(counts));
        let wrong = "| fast | `cargo test` | x | 4 tests in seconds |\n\nIt leaves the 1 tests";
        assert_ne!(stated(wrong), Ok(counts));
        assert!(stated("nothing").is_err());
    }
}
