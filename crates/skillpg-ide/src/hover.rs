//! The hover at a place in SKILL.md: on `name` or `description`, the level-1 line as each
//! client lists it, its tokens and each client's limits in its own unit; on a heading, its
//! section's tokens; on a link, the tokens it sends the agent to. Markdown, which the language
//! server sends as it is and the page builds into elements (text nodes, never HTML).

use std::ops::Range;

use skillpg_core::catalog::{self, InstalledSkill};
use skillpg_core::links::Target;
use skillpg_core::{Analysis, Profile, Severity};

use crate::thousands;

/// The context window the level-1 hover prices a listing at (the CLI's default).
const CONTEXT_WINDOW: usize = 200_000;

/// Says that counts are o200k_base's, on every hover that shows one.
pub const TOKENIZER_NOTE: &str =
    "Tokens are o200k_base counts, an approximation of each vendor's own tokenizer.";

/// A hover's text (Markdown) and the stretch of SKILL.md it is about, in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hover {
    pub markdown: String,
    pub span: Range<usize>,
}

/// The hover at byte `offset` of SKILL.md, under `profiles`.
pub fn hover(a: &Analysis, profiles: &[&'static Profile], offset: usize) -> Option<Hover> {
    let doc = a.doc.as_ref()?;
    let text = doc.text.as_str();
    if let Some(skillpg_core::yaml::Node::Map { entries, .. }) = doc.root() {
        for (key, value) in entries {
            let span = doc.yaml_span(&(key.span.start..value.span().end.max(key.span.end)));
            if !span.contains(&offset) && span.end != offset {
                continue;
            }
            if key.value == "name" || key.value == "description" {
                return Some(Hover {
                    markdown: level_one(a, profiles),
                    span,
                });
            }
        }
    }
    if let Some(link) = a.links.iter().find(|l| l.span.contains(&offset)) {
        // The tokenizer's note goes with a count, and only there: a hover on a missing file
        // counts nothing.
        let markdown = match &link.target {
            Target::File { .. } | Target::Dir { .. } => format!(
                "**Level 3:** `{}` costs **{}** tokens when the agent reads it{}.\n\n{TOKENIZER_NOTE}",
                link.path,
                thousands(a.link_tokens(link)),
                if link.sent {
                    " (the body sends it there)"
                } else {
                    "; the body does not send the agent there"
                }
            ),
            Target::Missing => format!("`{}` is not in the skill folder.", link.path),
            Target::OutsideFolder => format!(
                "`{}` leaves the skill folder: it is not bundled with the skill.",
                link.path
            ),
        };
        return Some(Hover {
            markdown,
            span: link.span.clone(),
        });
    }
    let body = doc.body_range();
    if body.contains(&offset) && offset <= text.len() {
        let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
        if text[start..end].starts_with('#') {
            let section = a.sections().iter().find(|s| s.range.contains(&offset))?;
            let tokens = a.section_tokens(section);
            let body_tokens = a.body_tokens().max(1);
            return Some(Hover {
                markdown: format!(
                    "**{}**: {} tokens, {:.0}% of the body (level 2: {} tokens, read when the skill is used).\n\n{TOKENIZER_NOTE}",
                    if section.title.is_empty() {
                        "Preamble"
                    } else {
                        section.title.as_str()
                    },
                    thousands(tokens),
                    100.0 * tokens as f64 / body_tokens as f64,
                    thousands(a.body_tokens()),
                ),
                span: start..end,
            });
        }
    }
    None
}

/// The level-1 hover: each distinct listed line with the clients that list it so, then each
/// client's lengths against its limits, in its unit.
pub fn level_one(a: &Analysis, profiles: &[&'static Profile]) -> String {
    let mut lines: Vec<(String, Vec<&str>)> = Vec::new();
    for p in profiles {
        let line = listed_line(a, p);
        match lines.iter_mut().find(|(l, _)| *l == line) {
            Some((_, ps)) => ps.push(p.key),
            None => lines.push((line, vec![p.key])),
        }
    }
    let mut out =
        String::from("**Level 1**: the line every session lists before the skill is used.\n\n");
    for (line, ps) in &lines {
        out.push_str(&format!(
            "```text\n{line}\n```\n{} tokens · {}\n\n",
            thousands(skillpg_tokens::count(line) + 1),
            ps.join(", ")
        ));
    }
    out.push_str("| client | name | description | over a limit |\n|---|---|---|---|\n");
    let name = a.name().unwrap_or_default();
    let description = a.description().unwrap_or_default();
    for p in profiles {
        let unit = p.length_unit.noun();
        out.push_str(&format!(
            "| {} | {} / 64 {unit} | {} / 1,024 {unit}{} | {} |\n",
            p.key,
            thousands(p.length(name)),
            thousands(p.length(description)),
            p.listing_cap_chars
                .map(|c| format!("; lists the first {}", thousands(c)))
                .unwrap_or_default(),
            over_limit(p),
        ));
    }
    out.push('\n');
    out.push_str(TOKENIZER_NOTE);
    out
}

/// The skill's level-1 line as `p` lists it (its cut included), else `- name: description`.
fn listed_line(a: &Analysis, p: &Profile) -> String {
    let skill = InstalledSkill::from_analysis(a, p);
    catalog::listing(p, std::slice::from_ref(&skill), Some(CONTEXT_WINDOW))
        .and_then(|r| r.skills.into_iter().next())
        .map(|s| s.line)
        .unwrap_or_else(|| format!("- {}: {}", skill.name, skill.description))
}

/// What `p` does with a name or description over its limit.
fn over_limit(p: &Profile) -> String {
    let does = |rule: &str| {
        if p.is_gate(rule) {
            "refuses"
        } else {
            match p.severity(rule, Severity::Error) {
                Some(_) => "warns",
                None => "accepts",
            }
        }
    };
    let (n, d) = (does("name-too-long"), does("description-too-long"));
    if n == d {
        n.to_owned()
    } else {
        format!("name: {n}; description: {d}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis(files: &[(&str, &str)]) -> Analysis {
        let files = files
            .iter()
            .map(|(p, t)| skillpg_core::BundleFile {
                path: (*p).to_owned(),
                bytes: t.as_bytes().to_vec(),
            })
            .collect();
        skillpg_core::analyze(&skillpg_core::SkillBundle::new("demo", files))
    }

    /// The tokenizer's note goes with a count and nowhere else: a link to a file that is there
    /// shows its tokens and the note; one to a missing file says it is missing, and no more.
    #[test]
    fn the_tokenizer_note_only_beside_a_count() {
        let md = "---\nname: demo\ndescription: d\n---\nSee [a](references/a.md) and [b](references/b.md).\n";
        let a = analysis(&[("SKILL.md", md), ("references/a.md", "some words here\n")]);
        let at = |needle: &str| md.find(needle).expect("in the text") + 2;
        let there = hover(&a, &[], at("references/a.md")).expect("a hover on the link");
        assert!(there.markdown.contains("tokens when the agent reads it"));
        assert!(there.markdown.contains(TOKENIZER_NOTE));
        let missing = hover(&a, &[], at("references/b.md")).expect("a hover on the link");
        assert_eq!(
            missing.markdown,
            "`references/b.md` is not in the skill folder."
        );
    }
}
