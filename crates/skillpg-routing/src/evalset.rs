//! Eval sets as people write them: one reader and one writer for each format, shared by the
//! CLI (`skillpg eval --evals FILE`) and the page's description lab.
//!
//! - skill-creator's JSON list, `[{"query": ..., "should_trigger": true}, ...]`;
//! - the lab's lines, one query a line: `+ query` when the skill should be used, `- query`
//!   when it should not; blank lines and `#` comments are skipped;
//! - a lab report (`skillpg eval --format json`, the page's export), whose queries, seed and
//!   holdout are kept.
//!
//! Every reader is bounded ([`MAX_QUERIES`]), refuses an empty query, and names the entry or
//! line that is wrong; none panics on any text (`fuzz/fuzz_targets/eval_set.rs`).

use crate::eval::{EvalReport, QueryRow};
use crate::skill_creator::{EvalQuery, MAX_QUERIES};

/// The marks a line may start with, and what each means. Word processors and chat apps turn a
/// typed `-` into a dash or a minus sign and `+` into its full-width form, so those read as
/// the mark they stand for.
const MARKS: [(char, bool); 7] = [
    ('+', true),
    ('\u{FF0B}', true),
    ('-', false),
    ('\u{2212}', false),
    ('\u{2013}', false),
    ('\u{2014}', false),
    ('\u{FF0D}', false),
];

pub use crate::skill_creator::{EvalSetError, evals_json, parse_evals};

/// Reads the lab's lines: `+ query` (should trigger) or `- query` (should not). A line with
/// neither mark, or with nothing after it, names its number and what it starts with; the first
/// such line is the error ([`line_errors`] names them all).
pub fn parse_lines(text: &str) -> Result<Vec<EvalQuery>, EvalSetError> {
    let (items, mut errors) = read_lines(text);
    match errors.is_empty() {
        true => Ok(items),
        false => Err(errors.swap_remove(0)),
    }
}

/// Every line of the lab's lines that does not read, in order (the bound past
/// [`MAX_QUERIES`] once): what the lab shows beside the eval box.
pub fn line_errors(text: &str) -> Vec<EvalSetError> {
    read_lines(text).1
}

fn read_lines(text: &str) -> (Vec<EvalQuery>, Vec<EvalSetError>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // The first character, whole: a line may start with any character, of any width.
        let mut chars = line.chars();
        let first = chars.next().unwrap_or(' ');
        let Some(&(_, should_trigger)) = MARKS.iter().find(|(mark, _)| *mark == first) else {
            errors.push(EvalSetError::NoMark {
                line: i + 1,
                shown: shown_char(first),
            });
            continue;
        };
        let query = chars.as_str().trim();
        if query.is_empty() {
            errors.push(EvalSetError::EmptyLine(i + 1));
            continue;
        }
        if out.len() == MAX_QUERIES {
            errors.push(EvalSetError::TooManyLines(i + 1));
            break;
        }
        out.push(EvalQuery {
            query: query.to_owned(),
            should_trigger,
        });
    }
    (out, errors)
}

/// A character as a message can show it: in quotes when it can be seen, else by its code
/// point (a line that starts with a zero-width space must not be told it starts with “”).
fn shown_char(c: char) -> String {
    let invisible = c.is_control()
        || c.is_whitespace()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{00AD}' | '\u{180E}' | '\u{FEFF}' | '\u{E0000}'..='\u{E007F}');
    if invisible {
        format!("U+{:04X}, an invisible character", c as u32)
    } else {
        format!("“{c}”")
    }
}

/// An eval set as the lab's lines (what [`parse_lines`] reads). A query's own line breaks
/// become spaces, so each query stays one line.
pub fn to_lines(items: &[EvalQuery]) -> String {
    items
        .iter()
        .map(|q| {
            format!(
                "{} {}\n",
                if q.should_trigger { '+' } else { '-' },
                q.query.trim().replace('\n', " ")
            )
        })
        .collect()
}

/// An eval set a person brought, with the split a lab report carries.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalInput {
    pub items: Vec<EvalQuery>,
    /// The report's seed, when the file is a lab report.
    pub seed: Option<u64>,
    /// The report's holdout, when the file is a lab report.
    pub holdout: Option<f64>,
}

/// An eval set from a file a person brings, in any of the three formats: a lab report (an
/// object), skill-creator's list (a list), or the lab's `+`/`-` lines (anything else).
pub fn parse_eval_input(text: &str) -> Result<EvalInput, EvalSetError> {
    let start = text.trim_start();
    if start.starts_with('{') {
        let report: EvalReport =
            serde_json::from_str(text).map_err(|e| EvalSetError::NotReport(e.to_string()))?;
        // A report that held its validation part out lists those queries apart, by text.
        let items: Vec<EvalQuery> = report
            .queries
            .iter()
            .map(QueryRow::item)
            .chain(report.held_out.iter().cloned())
            .collect();
        let items = parse_evals(&serde_json::to_string(&items).unwrap_or_default())?;
        return Ok(EvalInput {
            items,
            seed: Some(report.seed),
            holdout: Some(report.holdout),
        });
    }
    let items = if start.starts_with('[') {
        parse_evals(text)?
    } else {
        parse_lines(text)?
    };
    Ok(EvalInput {
        items,
        seed: None,
        holdout: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(query: &str, should: bool) -> EvalQuery {
        EvalQuery {
            query: query.into(),
            should_trigger: should,
        }
    }

    #[test]
    fn every_bad_line_is_named_and_the_first_is_the_error() {
        let text = "+ good\nno mark\n-\n+ fine\n* star\n";
        let all: Vec<String> = line_errors(text).iter().map(ToString::to_string).collect();
        assert_eq!(all.len(), 3, "{all:?}");
        assert!(all[0].starts_with("line 2: start it with"), "{all:?}");
        assert_eq!(all[1], "line 3: the query is empty");
        assert!(
            all[2].starts_with("line 5:") && all[2].contains("“*”"),
            "{all:?}"
        );
        assert_eq!(parse_lines(text).expect_err("bad").to_string(), all[0]);
        assert!(line_errors("+ a\n- b\n").is_empty());
    }

    #[test]
    fn skill_creator_sets_are_read_and_written() {
        let items = parse_evals(r#"[{"query": "merge these PDFs", "should_trigger": true}, {"query": "hi", "should_trigger": false}]"#).expect("parses");
        assert_eq!(items, vec![q("merge these PDFs", true), q("hi", false)]);
        assert_eq!(parse_evals(&evals_json(&items)).expect("round trip"), items);
        assert!(
            parse_evals(r#"[{"query": " ", "should_trigger": true}]"#)
                .is_err_and(|e| e.to_string().contains("query 1 is empty"))
        );
        assert!(
            parse_evals(r#"[{"query": "x"}]"#)
                .is_err_and(|e| e.to_string().contains("should_trigger"))
        );
    }

    #[test]
    fn lines_read_and_write_the_eval_set() {
        let items =
            parse_lines("# sql\n+ check this migration\n\n- write a query\n").expect("parses");
        assert_eq!(
            items,
            vec![q("check this migration", true), q("write a query", false)]
        );
        assert_eq!(parse_lines(&to_lines(&items)).expect("round trip"), items);
        assert!(parse_lines("check this").is_err_and(|e| e.to_string().contains("line 1")));
        assert!(
            parse_lines("+ ok\n-  ")
                .is_err_and(|e| e.to_string().contains("line 2: the query is empty"))
        );
    }

    #[test]
    fn a_line_may_start_with_any_character() {
        // Each of these once panicked the page: the mark was cut at byte 1.
        for first in ["é", "“", "–x", "•", "表", "😀", "\u{301}"] {
            let text = format!("+ fine\n{first} query\n");
            let res = parse_lines(&text);
            if first == "–x" {
                assert_eq!(
                    res.expect("an en dash is a typed minus")[1],
                    q("x query", false)
                );
            } else {
                let e = res.expect_err(first).to_string();
                assert!(
                    e.starts_with("line 2: start it with + (should trigger) or - (should not)"),
                    "{e}"
                );
                assert!(
                    e.contains(
                        first
                            .chars()
                            .next()
                            .map(String::from)
                            .unwrap_or_default()
                            .as_str()
                    ),
                    "{e}"
                );
            }
        }
        // Issue 36: an invisible first character is named by its code point, not shown as “”.
        for (first, named) in [
            ("\u{200B}", "U+200B"),
            ("\u{feff}", "U+FEFF"),
            ("\u{7}", "U+0007"),
        ] {
            let e = parse_lines(&format!("+ fine\n{first}+ query\n"))
                .expect_err(named)
                .to_string();
            assert!(
                e.contains(&format!("not {named}, an invisible character")),
                "{e}"
            );
        }
        assert_eq!(
            parse_lines("− minus sign\n＋ full width\n—em dash").expect("typed marks"),
            vec![
                q("minus sign", false),
                q("full width", true),
                q("em dash", false)
            ]
        );
    }

    #[test]
    fn lines_are_bounded_and_queries_stay_one_line() {
        let many: String = (0..=MAX_QUERIES).map(|i| format!("+ q{i}\n")).collect();
        assert!(
            parse_lines(&many).is_err_and(|e| e.to_string().contains(&MAX_QUERIES.to_string()))
        );
        let written = to_lines(&[q("two\nlines", true)]);
        assert_eq!(
            parse_lines(&written).expect("one line"),
            vec![q("two lines", true)]
        );
    }

    #[test]
    fn a_file_is_read_in_whichever_format_it_is() {
        let lines = parse_eval_input("+ a\n- b\n").expect("lines");
        let json = parse_eval_input(
            r#"[{"query": "a", "should_trigger": true}, {"query": "b", "should_trigger": false}]"#,
        )
        .expect("json");
        assert_eq!(lines, json);
        assert_eq!(lines.seed, None);
        assert!(
            parse_eval_input("{\"queries\": 1}")
                .is_err_and(|e| e.to_string().starts_with("not a lab report"))
        );
        assert!(
            parse_eval_input("a query with no mark")
                .is_err_and(|e| e.to_string().starts_with("line 1"))
        );
    }
}
