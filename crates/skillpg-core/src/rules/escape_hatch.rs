//! ## What it checks
//! A link from SKILL.md to a file over five times the body's size says what it costs or when
//! to read it.
//! ## Why it matters
//! One sentence with no cost and no condition offers the agent the whole bundle instead of the
//! one file it needs: vercel-react-best-practices points at `AGENTS.md` (26,362 tokens) "for the
//! complete guide", 83 times the price of the 319-token rule that answers the question.
//! ## Example
//! `For the complete guide with all rules expanded: AGENTS.md`
//! ## Fix
//! Say the size and the condition: "only if you need every rule at once (26k tokens)".
//! ## Source
//! Skill Playground chapter, "Failure two: the escape hatch".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::{LineIndex, Severity};

pub static META: RuleMeta = RuleMeta {
    code: "SPG064",
    name: "escape-hatch",
    summary: "A link to a large file that states no cost or condition.",
    default_severity: Severity::Warning,
    source: sources::CHAPTER,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let body_tokens = cx.a.body_tokens().max(1);
    let index = LineIndex::new(&doc.text);
    let mut seen: Vec<&str> = Vec::new();
    for link in &cx.a.links {
        // A folder link is a menu, not a read: only a file is read whole.
        let crate::links::Target::File { tokens } = link.target else { continue };
        if tokens <= 5 * body_tokens || seen.contains(&link.path.as_str()) {
            continue;
        }
        let line = index.line_col(&doc.text, link.span.start).line;
        let line_text = &doc.text[index.line_range(&doc.text, line)];
        if states_cost_or_condition(line_text) {
            continue;
        }
        seen.push(&link.path);
        let ratio = tokens as f64 / body_tokens as f64;
        let message = format!(
            "`{}` costs {} tokens, {ratio:.1}× the body, and this line says neither what it costs nor when it is worth reading",
            link.path,
            super::n(tokens)
        );
        cx.report_md(&META, Some(link.span.clone()), message);
    }
}

/// Whether a line names a size ("26k tokens", "900 lines") or a condition ("only if", "when").
fn states_cost_or_condition(line: &str) -> bool {
    let lower = line.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let condition = ["if", "when", "only", "unless", "whenever", "before", "after"].iter().any(|w| words.contains(w));
    let cost = words.windows(2).any(|w| {
        w[0].chars().next().is_some_and(|c| c.is_ascii_digit()) && ["tokens", "lines", "kb", "words", "pages", "k"].contains(&w[1])
    }) || words.iter().any(|w| w.ends_with("k") && w[..w.len() - 1].chars().all(|c| c.is_ascii_digit()) && w.len() > 1);
    condition || cost
}

#[cfg(test)]
mod tests {
    use super::states_cost_or_condition;

    #[test]
    fn cost_and_condition_words() {
        assert!(!states_cost_or_condition("For the complete guide with all rules expanded: `AGENTS.md`"));
        assert!(states_cost_or_condition("Read `AGENTS.md` only if you need every rule (26k tokens)."));
        assert!(states_cost_or_condition("`AGENTS.md` (26,362 tokens)"));
        assert!(states_cost_or_condition("When debugging hydration, read `x.md`"));
    }
}
