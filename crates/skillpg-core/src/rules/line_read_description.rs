//! ## What it checks
//! The description a client that reads frontmatter line by line (Letta Code, not YAML) lists is
//! the description YAML reads.
//! ## Why it matters
//! Letta Code's reader takes each `key: value` line as it stands: a folded `description: >`
//! is listed as `>`, a continuation line is dropped, and a frontmatter whose `---` lines end in
//! CRLF, or that has no body after it, is not seen at all (the body's first paragraph is listed
//! instead). The skill loads, but the agent chooses it by a description the author never wrote.
//! ## Example
//! `description: >` followed by indented lines.
//! ## Fix
//! Write the description on one line (quoted when it holds `: `), with LF line ends and a body.
//! ## Source
//! letta-ai/letta-code `src/utils/frontmatter.ts` (`parseFrontmatter`) and `src/agent/skills.ts`
//! (`parseSkillFile`).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG088",
    name: "line-read-description",
    summary: "A line-by-line reader (Letta Code) lists another description than YAML reads.",
    default_severity: Severity::Warning,
    source: sources::LETTA_CODE,
};

/// What Letta Code lists as the description of SKILL.md `text`: the frontmatter's
/// `description:` line as it stands (surrounding quotes stripped), or, when it sees no
/// frontmatter or no such line, the body's first paragraph.
pub fn letta_description(text: &str) -> LettaReading {
    // `/^---\n([\s\S]*?)\n---\n([\s\S]*)$/`, with both groups non-empty.
    let found = text.strip_prefix("---\n").and_then(|rest| {
        let end = rest.find("\n---\n")?;
        let (yaml, body) = (&rest[..end], &rest[end + 5..]);
        (!yaml.is_empty() && !body.is_empty()).then_some((yaml, body))
    });
    let (lines, body) = match found {
        Some((yaml, body)) => (Some(yaml), body),
        None => (None, text),
    };
    let from_line = lines.and_then(|yaml| {
        // The last `description:` line wins (a later key overwrites an earlier one); an empty
        // value starts a list, which is not a string.
        yaml.split('\n')
            .filter(|l| !l.trim_start().starts_with('-'))
            .filter_map(|l| {
                let colon = l.find(':').filter(|&i| i > 0)?;
                (l[..colon].trim() == "description").then(|| l[colon + 1..].trim())
            })
            .next_back()
            .filter(|v| !v.is_empty())
    });
    let (description, seen) = match from_line {
        Some(v) => (v.to_owned(), lines.is_some()),
        None => {
            let first = body.trim().split("\n\n").next().unwrap_or("");
            let first = if first.is_empty() {
                "No description available"
            } else {
                first
            };
            (first.to_owned(), lines.is_some())
        }
    };
    let d = description.trim();
    let unquoted = [('"', '"'), ('\'', '\'')]
        .iter()
        .find(|(a, b)| d.len() >= 2 && d.starts_with(*a) && d.ends_with(*b))
        .map_or(d, |_| &d[1..d.len() - 1]);
    LettaReading {
        description: unquoted.to_owned(),
        sees_frontmatter: seen,
        from_frontmatter: from_line.is_some(),
    }
}

/// What Letta Code reads of a SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LettaReading {
    /// The description it lists.
    pub description: String,
    /// Whether its pattern found a frontmatter at all.
    pub sees_frontmatter: bool,
    /// Whether the description came from a `description:` line (else the body).
    pub from_frontmatter: bool,
}

pub fn check(cx: &mut Cx) {
    if !cx.profile.reads_lines {
        return;
    }
    let Some(doc) = cx.a.doc.as_ref() else { return };
    let yaml_description = cx
        .field("description")
        .and_then(crate::yaml::Node::as_scalar)
        .map(|s| s.value.trim().to_owned());
    let reading = letta_description(&doc.text);
    if yaml_description.as_deref() == Some(reading.description.as_str()) {
        return;
    }
    let shown: String = reading.description.chars().take(80).collect();
    let ellipsis = if reading.description.chars().count() > 80 {
        "…"
    } else {
        ""
    };
    let why = if !reading.sees_frontmatter && doc.yaml_range().is_some() {
        "it sees no frontmatter (its pattern wants `---` lines ending in LF and a body after the closing one)"
    } else if !reading.from_frontmatter {
        "it finds no one-line `description:` in the frontmatter"
    } else {
        "it takes the `description:` line as it stands"
    };
    let message = format!(
        "{} reads frontmatter line by line, not as YAML: {why}, so it lists the description as `{shown}{ellipsis}`; write the description on one line (quoted when it holds `: `)",
        cx.profile.title
    );
    let span = cx
        .field("description")
        .and_then(crate::yaml::Node::as_scalar)
        .map(|s| s.span.clone())
        .and_then(|r| cx.yaml_span(&r));
    cx.report_md(&META, span, message);
}
