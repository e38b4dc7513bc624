//! ## What it checks
//! A link from SKILL.md to a file over five times the body's size says what it costs or when
//! to read it. A sentence (or list item, or table row) that names the file's topic counts as
//! saying when; one that offers only "the complete guide" or "more details" does not.
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
use std::ops::Range;

use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG064",
    name: "escape-hatch",
    summary: "A link to a large file that states no cost or condition.",
    default_severity: Severity::Warning,
    source: sources::CHAPTER,
};

pub(crate) fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let mut seen: Vec<&str> = Vec::new();
    for link in &cx.a.links {
        // A folder link is a menu, not a read: only a file is read whole.
        let crate::links::Target::File { file } = link.target else {
            continue;
        };
        let Some(target) = cx.a.files.get(file) else {
            continue;
        };
        // Counted only when its size allows it to be over five times the body.
        let body_tokens = cx.a.body_tokens().max(1);
        if !target.may_exceed(5 * body_tokens) || seen.contains(&link.path.as_str()) {
            continue;
        }
        if target.tokens_up_to(5 * body_tokens) <= 5 * body_tokens {
            continue;
        }
        let tokens = target.tokens();
        if says_when(&doc.text, link.span.clone()) {
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

/// Whether the sentence of `text` around the link at `link` says what the file costs, when to
/// read it, or what topic it covers (an index entry such as "`play.md` — play/pause toggle"
/// does); a sentence that offers only "the complete guide" or "more details" does not.
pub fn says_when(text: &str, link: Range<usize>) -> bool {
    let sentence = sentence_around(text, link.clone());
    let before = &text[sentence.start..link.start];
    let after = &text[link.end..sentence.end];
    let outside = format!("{before} {after}");
    // "See [font.md](font.md) for:" introduces a list of topics on the next lines.
    let rest_of_line = text[link.end..].lines().next().unwrap_or("");
    rest_of_line.trim_end().ends_with("for:")
        || states_cost_or_condition(&outside)
        || names_topic(&outside)
}

/// The sentence (or list item, or table row) around `span`: from the previous sentence end,
/// blank line or item start to the next.
fn sentence_around(text: &str, span: Range<usize>) -> Range<usize> {
    const BOUNDS: [&str; 11] = [
        ". ", "! ", "? ", ".\n", "!\n", "?\n", ":\n", "---\n", "\n\n", "\n- ", "\n* ",
    ];
    let head = &text[..span.start];
    let tail = &text[span.end..];
    let line_start = head.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line_end = tail.find('\n').map(|i| span.end + i).unwrap_or(text.len());
    // A table row is one entry: its other cells name the topic.
    if text[line_start..].trim_start().starts_with('|') {
        return line_start..line_end;
    }
    let bound_before = |end: usize| {
        BOUNDS
            .iter()
            .filter_map(|s| head[..end].rfind(s).map(|i| i + s.len()))
            .max()
            .unwrap_or(0)
    };
    let mut start = bound_before(head.len());
    // "→ [reporting.md](reporting.md)" on its own line points back at the sentence before it.
    if start > 1 && !head[start..].chars().any(char::is_alphanumeric) {
        start = bound_before(start - 2);
    }
    let end = BOUNDS
        .iter()
        .filter_map(|s| tail.find(s))
        .min()
        .map(|i| span.end + i)
        .unwrap_or(text.len());
    start.min(span.start)..end.max(span.end)
}

/// Whether `words` name what the file is about, beyond generic offers ("the complete guide
/// with all rules expanded", "for more details", "see also").
fn names_topic(words: &str) -> bool {
    const GENERIC: [&str; 58] = [
        "see",
        "for",
        "the",
        "a",
        "an",
        "complete",
        "full",
        "all",
        "more",
        "detailed",
        "details",
        "detail",
        "guide",
        "guidance",
        "reference",
        "references",
        "documentation",
        "docs",
        "information",
        "info",
        "instructions",
        "rules",
        "expanded",
        "with",
        "and",
        "step",
        "by",
        "each",
        "also",
        "in",
        "this",
        "file",
        "files",
        "read",
        "refer",
        "to",
        "of",
        "combined",
        "quick",
        "comprehensive",
        "everything",
        "entire",
        "explanations",
        "commands",
        "here",
        "below",
        "above",
        "further",
        "additional",
        "examples",
        "usage",
        "it",
        "is",
        "are",
        "at",
        "on",
        "or",
        "md",
    ];
    let lower = words.to_lowercase();
    lower.split(|c: char| !c.is_alphanumeric()).any(|w| {
        w.chars().count() > 1 && !GENERIC.contains(&w) && !w.chars().all(|c| c.is_ascii_digit())
    })
}

/// Whether a line names a size ("26k tokens", "900 lines") or a condition ("only if", "when").
fn states_cost_or_condition(line: &str) -> bool {
    let lower = line.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let condition = [
        "if", "when", "only", "unless", "whenever", "before", "after",
    ]
    .iter()
    .any(|w| words.contains(w));
    let cost = words.windows(2).any(|w| {
        w[0].chars().next().is_some_and(|c| c.is_ascii_digit())
            && ["tokens", "lines", "kb", "words", "pages", "k"].contains(&w[1])
    }) || words.iter().any(|w| {
        w.ends_with("k") && w[..w.len() - 1].chars().all(|c| c.is_ascii_digit()) && w.len() > 1
    });
    condition || cost
}

#[cfg(test)]
mod tests {
    use super::says_when;

    fn judge(text: &str, link: &str) -> bool {
        let at = text.find(link).expect("link in text");
        says_when(text, at..at + link.len())
    }

    #[test]
    fn generic_offers_are_escape_hatches() {
        assert!(!judge(
            "For the complete guide with all rules expanded: `AGENTS.md`",
            "`AGENTS.md`"
        ));
        assert!(!judge(
            "Analysis runs in two phases. For complete step-by-step guidance, see `x.md`.",
            "`x.md`"
        ));
        assert!(!judge("- `AGENTS.md`", "`AGENTS.md`"));
        assert!(!judge(
            "See also [x.md](x.md) for a combined quick reference.",
            "[x.md](x.md)"
        ));
    }

    #[test]
    fn cost_condition_or_topic_say_when() {
        assert!(judge(
            "Read `AGENTS.md` only if you need every rule (26k tokens).",
            "`AGENTS.md`"
        ));
        assert!(judge("`AGENTS.md` (26,362 tokens)", "`AGENTS.md`"));
        assert!(judge("When debugging hydration, read `x.md`", "`x.md`"));
        assert!(judge(
            "- `references/play.md` — combined play/pause toggle",
            "`references/play.md`"
        ));
        assert!(judge(
            "| Java | [lang-java.md](references/lang-java.md) |",
            "[lang-java.md](references/lang-java.md)"
        ));
        assert!(judge(
            "See [font.md](./font.md) for:\n- a\n",
            "[font.md](./font.md)"
        ));
        assert!(judge(
            "The protocol is drawn with\n[syntax.md](syntax.md).",
            "[syntax.md](syntax.md)"
        ));
        assert!(judge(
            "Intro.\n**Then write it up**, with the failed patterns.\n→ [reporting.md](reporting.md)\n",
            "[reporting.md](reporting.md)"
        ));
    }
}
