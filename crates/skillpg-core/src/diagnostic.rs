//! Diagnostics are data: a stable code, a severity, a message, a location and maybe a fix.

use std::ops::Range;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; never blocks loading.
    Info,
    /// Likely to hurt (routing, cost, portability) but the skill loads.
    Warning,
    /// The product of the profile rejects or mis-reads the skill.
    Error,
}

impl Severity {
    /// The lower-case word used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Where a rule's requirement comes from, so every diagnostic can cite it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceRef {
    /// A short human title, e.g. "Agent Skills specification, name field".
    pub title: &'static str,
    /// The public address of the source.
    pub url: &'static str,
}

/// Whether applying a fix can change what the skill means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applicability {
    /// Keeps the meaning; `skillpg fix` applies it by default.
    Safe,
    /// Changes content a person should review; applied only with `--unsafe`.
    Unsafe,
}

/// One replacement of a byte range of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Byte range in the file's decoded text.
    pub range: Range<usize>,
    /// The text that replaces the range.
    pub replacement: String,
}

/// A suggested change that resolves a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, imperative ("Quote the value").
    pub title: String,
    /// Non-overlapping edits, all in the diagnostic's file.
    pub edits: Vec<Edit>,
    /// Whether it may be applied without review.
    pub applicability: Applicability,
}

/// A 1-based line and column (in characters) in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct LineCol {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in Unicode scalar values.
    pub column: usize,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code, e.g. `SPG012`; never reused for another meaning.
    pub code: &'static str,
    /// The rule's kebab-case name, e.g. `name-dir-mismatch`.
    pub rule: &'static str,
    /// The severity under the profile that produced it.
    pub severity: Severity,
    /// The message, in the product's own wording where one exists.
    pub message: String,
    /// Path relative to the skill folder, `/`-separated; empty for the folder itself.
    pub file: String,
    /// Byte range in the file's decoded text, when the finding has a place.
    pub span: Option<Range<usize>>,
    /// Line and column of `span.start`, filled in by the engine.
    pub location: Option<LineCol>,
    /// A fix, when one is known.
    pub fix: Option<Fix>,
    /// Where the requirement comes from.
    pub source: SourceRef,
}

/// What every rule declares about itself.
#[derive(Debug)]
pub struct RuleMeta {
    /// Stable code, `SPG` and three digits.
    pub code: &'static str,
    /// Kebab-case name of what is flagged.
    pub name: &'static str,
    /// One sentence: what it checks.
    pub summary: &'static str,
    /// Severity when the profile does not set one.
    pub default_severity: Severity,
    /// Where the requirement comes from.
    pub source: SourceRef,
}

/// The sources rules cite.
pub mod sources {
    use super::SourceRef;

    pub const SPEC: SourceRef = SourceRef {
        title: "Agent Skills specification",
        url: "https://agentskills.io/specification",
    };
    pub const SKILLS_REF: SourceRef = SourceRef {
        title: "skills-ref reference validator (validator.py, parser.py)",
        url: "https://github.com/agentskills/agentskills/tree/main/skills-ref",
    };
    pub const CLIENT_GUIDE: SourceRef = SourceRef {
        title: "Agent Skills client implementation guide",
        url: "https://agentskills.io/client-implementation/adding-skills-support",
    };
    pub const CLAUDE_CODE: SourceRef = SourceRef {
        title: "Claude Code skills documentation, frontmatter reference",
        url: "https://code.claude.com/docs/en/skills",
    };
    pub const CLAUDE_API: SourceRef = SourceRef {
        title: "Claude API, Agent Skills overview (field requirements)",
        url: "https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview",
    };
    pub const PACKAGER: SourceRef = SourceRef {
        title: "anthropics/skills quick_validate.py (package_skill.py, claude.ai upload)",
        url: "https://github.com/anthropics/skills/blob/main/skills/skill-creator/scripts/quick_validate.py",
    };
    pub const CHAPTER: SourceRef = SourceRef {
        title: "Skill Playground chapter: progressive disclosure, measured",
        url: "https://agentskills.io/specification#progressive-disclosure",
    };
    pub const UNICODE_SECURITY: SourceRef = SourceRef {
        title: "Unicode Technical Report #36 and CVE-2021-42574 (Trojan Source)",
        url: "https://trojansource.codes/",
    };
    pub const CODEX: SourceRef = SourceRef {
        title: "OpenAI Codex skills (developers.openai.com/codex/skills; openai/codex core-skills loader.rs and render.rs)",
        url: "https://developers.openai.com/codex/skills",
    };
    pub const GEMINI_CLI: SourceRef = SourceRef {
        title: "Gemini CLI skill loader (google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts)",
        url: "https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/skills/skillLoader.ts",
    };
    pub const QWEN_CODE: SourceRef = SourceRef {
        title: "Qwen Code skill manager (QwenLM/qwen-code packages/core/src/skills/skill-manager.ts, utils/yaml-parser.ts)",
        url: "https://github.com/QwenLM/qwen-code/tree/main/packages/core/src/skills",
    };
    pub const KIMI_CLI: SourceRef = SourceRef {
        title: "Kimi Code CLI skill loader (MoonshotAI/kimi-cli src/kimi_cli/skill/__init__.py)",
        url: "https://github.com/MoonshotAI/kimi-cli/blob/main/src/kimi_cli/skill/__init__.py",
    };
    pub const MISTRAL_VIBE: SourceRef = SourceRef {
        title: "Mistral Vibe skill model (mistralai/mistral-vibe vibe/core/skills/models.py, SkillMetadata)",
        url: "https://github.com/mistralai/mistral-vibe/blob/main/vibe/core/skills/models.py",
    };
    pub const OPENCODE: SourceRef = SourceRef {
        title: "OpenCode skill loader (anomalyco/opencode packages/opencode/src/skill/index.ts)",
        url: "https://github.com/anomalyco/opencode/blob/dev/packages/opencode/src/skill/index.ts",
    };
    pub const ZED: SourceRef = SourceRef {
        title: "Zed agent skills loader (zed-industries/zed crates/agent_skills/agent_skills.rs)",
        url: "https://github.com/zed-industries/zed/blob/main/crates/agent_skills/agent_skills.rs",
    };
    pub const LETTA_CODE: SourceRef = SourceRef {
        title: "Letta Code skill loader (letta-ai/letta-code src/utils/frontmatter.ts, src/agent/skills.ts)",
        url: "https://github.com/letta-ai/letta-code/blob/main/src/utils/frontmatter.ts",
    };
    pub const CONTRACT: SourceRef = SourceRef {
        title: "SKILL.md as an interface contract (JSON Schema, semantic versioning)",
        url: "https://semver.org/",
    };
}

/// `26362` as `26,362`, as the chapter writes counts (messages, tables and the page use it).
pub fn thousands(count: u64) -> String {
    let digits = count.to_string();
    let mut res = String::with_capacity(digits.len() + digits.len() / 3);
    for (idx, c) in digits.chars().enumerate() {
        if idx > 0 && (digits.len() - idx).is_multiple_of(3) {
            res.push(',');
        }
        res.push(c);
    }
    res
}

/// Maps byte offsets of a text to 1-based lines and columns.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes `text`; `\n` ends a line (a preceding `\r` belongs to the line).
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(idx, _)| idx + 1));
        LineIndex { line_starts }
    }

    /// The line and column of byte `offset` (clamped to the text).
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line_idx = match self.line_starts.binary_search(&offset) {
            Ok(idx) => idx,
            Err(idx) => idx - 1,
        };
        let line_start = self.line_starts[line_idx];
        let mut end = offset;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        LineCol {
            line: line_idx + 1,
            column: text[line_start..end].chars().count() + 1,
        }
    }

    /// The byte range of 1-based `line`, without its line ending (empty for line 0 or past
    /// the end).
    pub fn line_range(&self, text: &str, line: usize) -> Range<usize> {
        if line == 0 {
            return 0..0;
        }
        let start = self
            .line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(text.len());
        let mut end = self
            .line_starts
            .get(line)
            .map(|&next| next.saturating_sub(1))
            .unwrap_or(text.len());
        if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        start..end.max(start)
    }

    /// The number of lines (a trailing newline does not open a new line).
    pub fn n_lines(&self, text: &str) -> usize {
        let n = self.line_starts.len();
        if text.ends_with('\n') { n - 1 } else { n }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let text = "ab\nçé x\r\nlast";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 0), LineCol { line: 1, column: 1 });
        let x = text.find('x').unwrap_or(0);
        assert_eq!(idx.line_col(text, x), LineCol { line: 2, column: 4 });
        assert_eq!(idx.line_range(text, 2), 3..(text.find('\r').unwrap_or(0)));
        assert_eq!(idx.n_lines(text), 3);
        // The fuzzer's second finding: line 0 used to underflow.
        assert_eq!(idx.line_range(text, 0), 0..0);
        assert_eq!(idx.line_range(text, 99), text.len()..text.len());
    }
}
