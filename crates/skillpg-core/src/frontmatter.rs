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

    /// Mistral Vibe's split (`parse_skill_markdown`: the BOM is stripped, and `re.split` on
    /// `^-{3,}\s*$` wants only whitespace before the opening line): where the text opens with
    /// blank lines and then `---`, the split from that line; `None` where it is the same as
    /// [`SkillDoc::parse`]'s.
    pub fn dash_lines_view(&self) -> Option<SkillDoc> {
        if self.split != Split::NoFrontmatter {
            return None;
        }
        let content = &self.text[self.bom_len..];
        let blank = content.len() - content.trim_start().len();
        // Back to the start of the line that holds the first non-blank character.
        let start = self.bom_len + content[..blank].rfind('\n').map_or(0, |i| i + 1);
        (blank > 0 && content[blank..].starts_with("---") && start == self.bom_len + blank)
            .then(|| Self::parse_from(&self.text, start))
    }

    /// Splits `text` with the opening line at byte `start` (after the BOM, or the blank lines
    /// a lenient reader skips).
    fn parse_from(text: &str, start: usize) -> SkillDoc {
        let bom_len = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let content = &text[start..];
        let mut doc = SkillDoc {
            text: text.to_owned(),
            bom_len,
            split: Split::NoFrontmatter,
            opening_line_rest: None,
            skills_ref_cut: None,
            yaml: None,
        };
        if !content.starts_with("---") {
            return doc;
        }
        let first_line_end = content.find('\n').map(|i| i + 1).unwrap_or(content.len());
        let first_line = content[..first_line_end].trim_end_matches(['\n', '\r']);
        let yaml_start;
        if first_line.trim_end() == "---" {
            yaml_start = start + first_line_end;
        } else {
            // `---name: x`: the spec's text has no such form; skills-ref parses `name: x` as YAML.
            yaml_start = start + 3;
            doc.opening_line_rest = Some(yaml_start..start + first_line.len());
        }
        let mut closing = None;
        let mut offset = start + first_line_end;
        for line in text[offset..].split_inclusive('\n') {
            if line.trim_end() == "---" {
                let without_ending = line.trim_end_matches(['\n', '\r']);
                closing = Some((offset..offset + without_ending.len(), offset + line.len()));
                break;
            }
            offset += line.len();
        }
        // skills-ref ends the frontmatter at the first `---` after the opening three dashes.
        let sr_search_end = closing
            .as_ref()
            .map(|(line, _)| line.start)
            .unwrap_or(text.len());
        if let Some(pos) = text[start + 3..sr_search_end].find("---") {
            doc.skills_ref_cut = Some(start + 3 + pos);
        }
        match closing {
            Some((closing_line, body_start)) => {
                let yaml = yaml_start.min(closing_line.start)..closing_line.start;
                doc.yaml = Some(yaml::parse(&text[yaml.clone()]));
                doc.split = Split::Closed {
                    yaml,
                    closing_line,
                    body: body_start..text.len(),
                };
            }
            None => {
                let yaml = yaml_start.min(text.len())..text.len();
                doc.split = Split::Unclosed { yaml };
            }
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
