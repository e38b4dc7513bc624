//! Splits SKILL.md into its YAML frontmatter and Markdown body.
//!
//! The split follows the specification's text: the first line is `---`, and the frontmatter ends
//! at the next line that is `---`.
//! skills-ref splits differently (`content.split("---", 2)`: a first line `---name: x` passes,
//! and the first `---` anywhere closes the frontmatter), so the split also records where
//! skills-ref would read something else, for the rules that say so.

use std::ops::Range;

use crate::yaml::{self, ParsedYaml};

/// The parts of SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Split {
    /// The first line does not start with `---`.
    NoFrontmatter,
    /// The opening `---` has no closing `---` line; `yaml` runs to the end of the file.
    Unclosed {
        /// Byte range of the text after the opening `---`.
        yaml: Range<usize>,
    },
    /// The normal case.
    Closed {
        /// Byte range of the YAML between the delimiter lines.
        yaml: Range<usize>,
        /// Byte range of the closing delimiter line, without its line ending.
        closing_line: Range<usize>,
        /// Byte range of the body: everything after the closing line, unstripped.
        body: Range<usize>,
    },
}

/// SKILL.md read and split.
#[derive(Debug, Clone)]
pub struct SkillDoc {
    /// The decoded text, BOM included when the file has one.
    pub text: String,
    /// Byte length of a leading BOM (0 or 3).
    pub bom_len: usize,
    /// Where the frontmatter and body are.
    pub split: Split,
    /// Text after `---` on the first line (`---name: x`), which skills-ref accepts.
    pub opening_line_rest: Option<Range<usize>>,
    /// Where skills-ref's `split("---", 2)` would end the frontmatter, when that is before the
    /// closing line (a `---` inside a value).
    pub skills_ref_cut: Option<usize>,
    /// The parsed frontmatter (offsets relative to the YAML range).
    pub yaml: Option<ParsedYaml>,
}

impl SkillDoc {
    /// Splits and parses `text` (the decoded SKILL.md).
    pub fn parse(text: &str) -> SkillDoc {
        let bom_len = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Self::parse_from(text, bom_len)
    }

    /// SKILL.md split by a client's own fences (`open`, `close`; blank lines before the opening
    /// one skipped where `blank_lines_first`), read by a library with `leniency`; `None` where
    /// that is this doc (the same split, and nothing the leniency reads differently).
    pub fn fenced_view(
        &self,
        open: Fence,
        close: Fence,
        blank_lines_first: bool,
        leniency: yaml::Leniency,
    ) -> Option<SkillDoc> {
        let content = &self.text[self.bom_len..];
        let blank = content.len() - content.trim_start().len();
        // Back to the start of the line that holds the first non-blank character.
        let skipped = self.bom_len + content[..blank].rfind('\n').map_or(0, |i| i + 1);
        let start = if blank_lines_first && skipped == self.bom_len + blank {
            skipped
        } else {
            self.bom_len
        };
        let (split, opening_line_rest) = split_at(&self.text, start, open, close);
        if split == self.split && opening_line_rest == self.opening_line_rest {
            return self.with_leniency(leniency);
        }
        let yaml = match &split {
            Split::Closed { yaml, .. } => {
                Some(yaml::parse_with(&self.text[yaml.clone()], leniency))
            }
            _ => None,
        };
        Some(SkillDoc {
            text: self.text.clone(),
            bom_len: self.bom_len,
            split,
            opening_line_rest,
            skills_ref_cut: self.skills_ref_cut,
            yaml,
        })
    }

    /// The same split with the frontmatter read as a YAML library that reads more than YAML's
    /// grammar reads it (a tab after `key:`, tabs before a key, a NUL: [`yaml::Leniency`]);
    /// `None` where that reads nothing else.
    pub fn with_leniency(&self, leniency: yaml::Leniency) -> Option<SkillDoc> {
        let Split::Closed { yaml: range, .. } = &self.split else {
            return None;
        };
        let text = &self.text[range.clone()];
        leniency.matters_for(text).then(|| SkillDoc {
            yaml: Some(yaml::parse_with(text, leniency)),
            ..self.clone()
        })
    }

    /// Splits `text` with the opening line at byte `start` (after the BOM), as the
    /// specification's text says.
    fn parse_from(text: &str, start: usize) -> SkillDoc {
        let bom_len = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let (split, opening_line_rest) = split_at(text, start, Fence::Exact, Fence::Exact);
        let mut doc = SkillDoc {
            text: text.to_owned(),
            bom_len,
            split,
            opening_line_rest,
            skills_ref_cut: None,
            yaml: None,
        };
        if doc.split == Split::NoFrontmatter {
            return doc;
        }
        // skills-ref ends the frontmatter at the first `---` after the opening three dashes.
        let sr_search_end = match &doc.split {
            Split::Closed { closing_line, .. } => closing_line.start,
            _ => text.len(),
        };
        if let Some(pos) = text[start + 3..sr_search_end].find("---") {
            doc.skills_ref_cut = Some(start + 3 + pos);
        }
        if let Split::Closed { yaml, .. } = &doc.split {
            doc.yaml = Some(yaml::parse(&text[yaml.clone()]));
        }
        doc
    }

    /// The byte range of the YAML text, when there is frontmatter.
    pub fn yaml_range(&self) -> Option<Range<usize>> {
        match &self.split {
            Split::Closed { yaml, .. } | Split::Unclosed { yaml } => Some(yaml.clone()),
            Split::NoFrontmatter => None,
        }
    }

    /// The body: after the closing delimiter line when there is one, else the whole text.
    pub fn body_range(&self) -> Range<usize> {
        match &self.split {
            Split::Closed { body, .. } => body.clone(),
            Split::Unclosed { .. } => self.text.len()..self.text.len(),
            Split::NoFrontmatter => self.bom_len..self.text.len(),
        }
    }

    /// SKILL.md as skills-ref reads it, when that differs from this split: the frontmatter ends
    /// at the first `---` after the opening one, even inside a value, and the rest is body.
    pub fn skills_ref_view(&self) -> Option<SkillDoc> {
        let cut = self.skills_ref_cut?;
        let yaml_start = self.yaml_range()?.start.min(cut);
        let yaml = yaml_start..cut;
        Some(SkillDoc {
            text: self.text.clone(),
            bom_len: self.bom_len,
            split: Split::Closed {
                yaml: yaml.clone(),
                closing_line: cut..cut + 3,
                body: cut + 3..self.text.len(),
            },
            opening_line_rest: self.opening_line_rest.clone(),
            skills_ref_cut: Some(cut),
            yaml: Some(yaml::parse(&self.text[yaml])),
        })
    }

    /// The body text.
    pub fn body(&self) -> &str {
        &self.text[self.body_range()]
    }

    /// The frontmatter's root node, when it parsed.
    pub fn root(&self) -> Option<&yaml::Node> {
        self.yaml.as_ref().and_then(|y| y.root.as_ref())
    }

    /// Converts a YAML-relative byte range to a file range.
    pub fn yaml_span(&self, range: &Range<usize>) -> Range<usize> {
        let base = self.yaml_range().map(|r| r.start).unwrap_or(0);
        base + range.start..base + range.end
    }

    /// The string value of a top-level field, when it is a scalar.
    pub fn field_str(&self, key: &str) -> Option<&str> {
        self.root()?.get(key)?.as_scalar().map(|s| s.value.as_str())
    }
}

/// What a `parseSimpleFrontmatter` reading of `yaml` lists: the last `name:` line's value and
/// the last `description:` line's with its indented continuation lines joined by spaces, each
/// trimmed; `None` unless both lines are there.
pub fn line_fallback_reading(yaml: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = yaml
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        let key = lines[i].trim_start();
        if let Some(rest) = key.strip_prefix("name:") {
            name = Some(rest.trim().to_owned());
        } else if let Some(rest) = key.strip_prefix("description:") {
            let mut parts = vec![rest.trim()];
            // `/^[ \t]+\S/`: an indented line that is not blank continues the value.
            while let Some(next) = lines.get(i + 1).filter(|l| {
                l.starts_with([' ', '\t']) && !l.trim_start_matches([' ', '\t']).is_empty()
            }) {
                parts.push(next.trim());
                i += 1;
            }
            description = Some(
                parts
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        i += 1;
    }
    Some((name?, description?))
}

/// A line that opens or closes the frontmatter, as a client matches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fence {
    /// `---` alone, trailing whitespace allowed: the specification's text.
    Exact,
    /// Three or more dashes, then only whitespace (Mistral Vibe's `^-{3,}\s*$`).
    Dashes,
    /// Any line that starts with `---`: pi's `startsWith("---")` and `indexOf("\n---")`,
    /// Gemini CLI's unanchored `\r?\n---` (`-----` closes, and `---x` too).
    Prefix,
}

impl Fence {
    /// Whether `line` (without its line ending) is this fence.
    pub fn matches(self, line: &str) -> bool {
        match self {
            Fence::Exact => line.trim_end() == "---",
            Fence::Dashes => {
                let t = line.trim_end();
                t.len() >= 3 && t.bytes().all(|b| b == b'-')
            }
            Fence::Prefix => line.starts_with("---"),
        }
    }
}

/// Where the frontmatter of `text` is with its opening line at byte `start`, `open` and `close`
/// being the client's fences; and the text after `---` on the first line where the
/// specification's fence reads skills-ref's `---name: x` form.
fn split_at(text: &str, start: usize, open: Fence, close: Fence) -> (Split, Option<Range<usize>>) {
    let content = &text[start..];
    if !content.starts_with("---") {
        return (Split::NoFrontmatter, None);
    }
    let first_line_end = content.find('\n').map(|i| i + 1).unwrap_or(content.len());
    let first_line = content[..first_line_end].trim_end_matches(['\n', '\r']);
    let mut rest = None;
    let yaml_start = if open.matches(first_line) {
        // pi reads from the fourth character on (`slice(4)`): after a longer first line of
        // dashes, that is the rest of the line, which YAML reads as nothing.
        if open == Fence::Prefix && first_line.len() > 3 && !first_line.bytes().all(|b| b == b'-') {
            start + 4.min(first_line.len())
        } else {
            start + first_line_end
        }
    } else if open == Fence::Exact && !first_line.starts_with("----") {
        // `---name: x`: the spec's text has no such form; skills-ref parses `name: x` as YAML.
        // (A first line of four dashes or more opens nothing: Gemini CLI's `^---\r?\n` and the
        // specification's `---` line alike.)
        rest = Some(start + 3..start + first_line.len());
        start + 3
    } else {
        return (Split::NoFrontmatter, None);
    };
    let mut offset = start + first_line_end;
    for line in text[offset..].split_inclusive('\n') {
        let without_ending = line.trim_end_matches(['\n', '\r']);
        if close.matches(without_ending) {
            let closing_line = offset..offset + without_ending.len();
            let yaml = yaml_start.min(closing_line.start)..closing_line.start;
            let body = offset + line.len()..text.len();
            return (
                Split::Closed {
                    yaml,
                    closing_line,
                    body,
                },
                rest,
            );
        }
        offset += line.len();
    }
    (
        Split::Unclosed {
            yaml: yaml_start.min(text.len())..text.len(),
        },
        rest,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fallback_lists_the_last_lines_and_joins_continuations() {
        assert_eq!(
            line_fallback_reading("name: 'a'\ndescription:\n  - x\n  - y\nname: b"),
            Some(("b".to_owned(), "- x - y".to_owned()))
        );
        assert_eq!(line_fallback_reading("name: a"), None);
    }

    #[test]
    fn closed_frontmatter_and_unstripped_body() {
        let doc = SkillDoc::parse("---\nname: a\ndescription: b\n---\n\n# Body\n");
        assert_eq!(doc.body(), "\n# Body\n");
        assert_eq!(doc.field_str("name"), Some("a"));
        assert_eq!(doc.skills_ref_cut, None);
    }

    #[test]
    fn crlf_and_bom() {
        let doc = SkillDoc::parse("\u{feff}---\r\nname: a\r\n---\r\nbody\r\n");
        assert_eq!(doc.bom_len, 3);
        assert_eq!(doc.field_str("name"), Some("a"));
        assert_eq!(doc.body(), "body\r\n");
    }

    #[test]
    fn records_where_skills_ref_reads_differently() {
        let doc = SkillDoc::parse("---name: a\ndescription: x --- y\n---\n");
        assert!(doc.opening_line_rest.is_some());
        assert_eq!(doc.field_str("name"), Some("a"));
        assert_eq!(doc.field_str("description"), Some("x --- y"));
        assert!(doc.skills_ref_cut.is_some());
        let theirs = doc
            .skills_ref_view()
            .expect("skills-ref reads it differently");
        assert_eq!(theirs.field_str("description"), Some("x"));
        assert_eq!(theirs.field_str("name"), Some("a"));
    }

    #[test]
    fn skills_ref_closes_an_unclosed_frontmatter_at_dashes_in_a_value() {
        let doc = SkillDoc::parse("---\ndescription: a --- b\nname: n\n");
        assert!(matches!(doc.split, Split::Unclosed { .. }));
        let theirs = doc.skills_ref_view().expect("a cut");
        assert!(matches!(theirs.split, Split::Closed { .. }));
        assert_eq!(theirs.field_str("name"), None);
        assert!(
            SkillDoc::parse("---\nname: a\n---\n")
                .skills_ref_view()
                .is_none()
        );
    }

    #[test]
    fn unclosed_and_missing() {
        assert!(matches!(
            SkillDoc::parse("---\nname: a\n").split,
            Split::Unclosed { .. }
        ));
        assert_eq!(
            SkillDoc::parse("# no frontmatter").split,
            Split::NoFrontmatter
        );
    }
}
