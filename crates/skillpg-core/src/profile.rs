//! Profiles: which product's rules a skill is checked against, as data.
//!
//! A profile sets how YAML is read, which fields exist, and the severity of each rule (or turns
//! it off). Rules read these values; no rule tests a profile's identity.
//! Each profile is dated: products change their limits (Claude Code's listing cap went from 250
//! to 1,536 characters).

use crate::diagnostic::Severity;

/// How the frontmatter's YAML is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlDialect {
    /// strictyaml, as skills-ref reads it: every scalar is a string; flow collections, anchors,
    /// tags and duplicate keys are errors.
    StrictYaml,
    /// PyYAML / js-yaml as hosts read it: YAML 1.1 types (`yes` is a boolean, `1.0` a float),
    /// the last duplicate key wins.
    Lenient,
}

/// Which frontmatter fields a product knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldSet {
    /// The six fields of the Agent Skills specification.
    Spec,
    /// The twenty fields Claude Code documents.
    ClaudeCode,
}

/// Which characters a name may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameCharset {
    /// Python `isalnum` after NFKC (letters and digits of any script) and `-`, as skills-ref.
    UnicodeAlnum,
    /// ASCII `a-z`, `0-9` and `-`, as Anthropic's packager and upload.
    AsciiKebab,
}

/// How the messages of a product are worded, where two products word the same failure
/// differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wording {
    /// skills-ref's messages.
    SkillsRef,
    /// Anthropic's `quick_validate.py` and the upload's messages.
    AnthropicUpload,
    /// The playground's own messages.
    Playground,
}

/// How SKILL.md's frontmatter is delimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitRule {
    /// The specification's text: the first line is `---`, the frontmatter ends at the next
    /// `---` line.
    SpecText,
    /// skills-ref's `content.split("---", 2)`: the first `---` anywhere after the opening one
    /// ends the frontmatter, even inside a value.
    SkillsRef,
}

/// A rule that is an error under a profile, with the documented check of the product that it
/// models. Only gates make a skill fail: every other finding is a warning or a note.
#[derive(Debug, Clone, Copy)]
pub struct Gate {
    /// The rule's kebab-case name.
    pub rule: &'static str,
    /// The product's documented check this error stands for, as the product's source says it.
    pub models: &'static str,
}

/// A product's rules.
#[derive(Debug)]
pub struct Profile {
    /// The identifier used on the command line and in links: `spec`, `claude-ai`, ...
    pub key: &'static str,
    /// A human title.
    pub title: &'static str,
    /// The date of the sources this profile was written from.
    pub as_of: &'static str,
    /// How the YAML is read.
    pub yaml: YamlDialect,
    /// How the frontmatter is delimited.
    pub split: SplitRule,
    /// Which fields exist.
    pub fields: FieldSet,
    /// Which characters a name may hold.
    pub name_charset: NameCharset,
    /// Words a name may not contain.
    pub reserved_words: &'static [&'static str],
    /// Whose wording the messages use.
    pub wording: Wording,
    /// Whether `name` is required (Claude Code falls back to the folder's name).
    pub name_required: bool,
    /// The listing cap on `description` + `when_to_use`, in characters, if the product has one.
    pub listing_cap_chars: Option<usize>,
    /// The rules that make a skill fail under this profile, each with the documented check it
    /// models. A rule not listed here is never an error: its findings are capped at a warning.
    pub gates: &'static [Gate],
    /// Severity below error per rule name; a rule not listed uses its default (capped at a
    /// warning unless it is a gate); `None` turns it off.
    pub severities: &'static [(&'static str, Option<Severity>)],
}

impl Profile {
    /// The severity of `rule` under this profile, or `None` when the rule is off: an error
    /// exactly when the rule is one of the profile's gates.
    pub fn severity(&self, rule: &str, default: Severity) -> Option<Severity> {
        if self.is_gate(rule) {
            return Some(Severity::Error);
        }
        let chosen = self.severities.iter().find(|(name, _)| *name == rule).map(|(_, s)| *s).unwrap_or(Some(default));
        chosen.map(|s| s.min(Severity::Warning))
    }

    /// Whether `rule` is one of this profile's documented gates.
    pub fn is_gate(&self, rule: &str) -> bool {
        self.gate(rule).is_some()
    }

    /// The gate `rule` models under this profile, if it is one.
    pub fn gate(&self, rule: &str) -> Option<&'static Gate> {
        self.gates.iter().find(|g| g.rule == rule)
    }

    /// The profile with `key`.
    pub fn by_key(key: &str) -> Option<&'static Profile> {
        ALL.iter().copied().find(|p| p.key == key)
    }
}

const W: Option<Severity> = Some(Severity::Warning);
const I: Option<Severity> = Some(Severity::Info);
const OFF: Option<Severity> = None;

const fn gate(rule: &'static str, models: &'static str) -> Gate {
    Gate { rule, models }
}

/// The Agent Skills specification exactly as skills-ref 0.1.1 applies it: its verdict is
/// skills-ref's. Where the specification's text forbids what skills-ref accepts, the finding is
/// a warning that says so.
pub static SPEC: Profile = Profile {
    key: "spec",
    title: "Agent Skills spec (skills-ref)",
    as_of: "agentskills 69ef37e, 2026-08-09; skills-ref 0.1.1",
    yaml: YamlDialect::StrictYaml,
    split: SplitRule::SkillsRef,
    fields: FieldSet::Spec,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::SkillsRef,
    name_required: true,
    listing_cap_chars: None,
    gates: &[
        gate("missing-skill-md", "validator.py: `Missing required file: SKILL.md` (SKILL.md or skill.md)"),
        gate("archive-unreadable", "skills-ref validates a folder: an archive that cannot be read gives it none to validate"),
        gate("archive-too-large", "skills-ref validates a folder: an archive that cannot be expanded safely gives it none, or part of one"),
        gate("non-utf8-text", "parser.py reads SKILL.md with `read_text(encoding='utf-8')`, which raises on other encodings"),
        gate("bom", "parser.py: the BOM is not stripped, so `SKILL.md must start with YAML frontmatter (---)`"),
        gate("frontmatter-missing", "parser.py: `SKILL.md must start with YAML frontmatter (---)`"),
        gate("frontmatter-unclosed", "parser.py: `SKILL.md frontmatter not properly closed with ---`"),
        gate("invalid-yaml", "parser.py: `Invalid YAML in frontmatter` (strictyaml.load raised)"),
        gate("yaml-flow-collection", "strictyaml refuses flow style: `Invalid YAML in frontmatter`"),
        gate("yaml-anchor-or-tag", "strictyaml refuses anchors and tags: `Invalid YAML in frontmatter`"),
        gate("yaml-tab", "strictyaml refuses tabs: `Invalid YAML in frontmatter`"),
        gate("duplicate-key", "strictyaml refuses duplicate keys: `Invalid YAML in frontmatter`"),
        gate("frontmatter-not-mapping", "parser.py: `SKILL.md frontmatter must be a YAML mapping`"),
        gate("unknown-field", "validator.py: `Unexpected fields in frontmatter`"),
        gate("name-missing", "validator.py: `Missing required field in frontmatter: name`"),
        gate("name-not-string", "validator.py: `Field 'name' must be a non-empty string`"),
        gate("name-too-long", "validator.py: `exceeds 64 character limit`"),
        gate("name-not-lowercase", "validator.py: `must be lowercase`"),
        gate("name-hyphen-edge", "validator.py: `cannot start or end with a hyphen`"),
        gate("name-consecutive-hyphens", "validator.py: `cannot contain consecutive hyphens`"),
        gate("name-invalid-chars", "validator.py: `contains invalid characters`"),
        gate("name-dir-mismatch", "validator.py: `Directory name ... must match skill name`"),
        gate("description-missing", "validator.py: `Missing required field in frontmatter: description`"),
        gate("description-empty", "validator.py: `Field 'description' must be a non-empty string`"),
        gate("description-too-long", "validator.py: `Description exceeds 1024 character limit`"),
        gate("compatibility-not-string", "validator.py: `Field 'compatibility' must be a string`"),
        gate("compatibility-too-long", "validator.py: `Compatibility exceeds 500 character limit`"),
    ],
    severities: &[("listing-cap", OFF), ("name-reserved-word", OFF), ("xml-in-field", OFF), ("claude-code-field-type", OFF), ("skill-md-lowercase", I)],
};

/// claude.ai upload, the Skills API and `package_skill.py`: the six fields only.
pub static CLAUDE_AI: Profile = Profile {
    key: "claude-ai",
    title: "claude.ai upload / Skills API",
    as_of: "Claude Code docs v2.1.240, 2026-08-22; Claude API docs 86fa4f70d, 2026-08-21",
    yaml: YamlDialect::Lenient,
    split: SplitRule::SpecText,
    fields: FieldSet::Spec,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &["anthropic", "claude"],
    wording: Wording::AnthropicUpload,
    name_required: true,
    listing_cap_chars: None,
    gates: &[
        gate("missing-skill-md", "quick_validate.py: `SKILL.md not found`"),
        gate("archive-unreadable", "claude.ai upload: the file must be a zip archive it can read"),
        gate("archive-too-large", "claude.ai upload: an archive it cannot expand within its limits is refused"),
        gate("archive-layout", "claude.ai upload: a zip holding one top-level folder with SKILL.md in it"),
        gate("skill-md-lowercase", "quick_validate.py reads `SKILL.md` only: `SKILL.md not found`"),
        gate("file-too-large", "claude.ai upload: 8 MB per file"),
        gate("non-utf8-text", "quick_validate.py reads SKILL.md as UTF-8, which raises on other encodings"),
        gate("bom", "quick_validate.py: `No YAML frontmatter found` (the BOM precedes `---`)"),
        gate("frontmatter-missing", "quick_validate.py: `No YAML frontmatter found`"),
        gate("frontmatter-unclosed", "quick_validate.py: `Invalid frontmatter format`"),
        gate("invalid-yaml", "quick_validate.py: `Invalid YAML in frontmatter` (yaml.safe_load raised)"),
        gate("frontmatter-not-mapping", "quick_validate.py: `Frontmatter must be a YAML dictionary`"),
        gate("unknown-field", "quick_validate.py and upload: `Unexpected key(s) in SKILL.md frontmatter`"),
        gate("name-missing", "quick_validate.py: `Missing 'name' in frontmatter`"),
        gate("name-not-string", "quick_validate.py: `Name must be a string`"),
        gate("name-too-long", "quick_validate.py: `Name is too long`; Claude API: maximum 64 characters"),
        gate("name-not-lowercase", "quick_validate.py: `should be kebab-case`"),
        gate("name-invalid-chars", "quick_validate.py: `should be kebab-case`"),
        gate("name-hyphen-edge", "quick_validate.py: `cannot start/end with hyphen`"),
        gate("name-consecutive-hyphens", "quick_validate.py: `contain consecutive hyphens`"),
        gate("name-reserved-word", "Claude API field requirements: cannot contain reserved words"),
        gate("xml-in-field", "quick_validate.py: `cannot contain angle brackets`; Claude API: no XML tags"),
        gate("description-missing", "quick_validate.py: `Missing 'description' in frontmatter`"),
        gate("description-empty", "Claude API field requirements: description must be non-empty"),
        gate("description-too-long", "quick_validate.py: `Description is too long`"),
        gate("compatibility-not-string", "quick_validate.py: `Compatibility must be a string`"),
        gate("compatibility-too-long", "quick_validate.py: `Compatibility is too long`"),
    ],
    severities: &[("claude-code-field-type", OFF)],
};

/// Claude Code: twenty documented fields, all optional; unknown ones ignored with a warning.
pub static CLAUDE_CODE: Profile = Profile {
    key: "claude-code",
    title: "Claude Code",
    as_of: "Claude Code docs v2.1.240, 2026-08-22",
    yaml: YamlDialect::Lenient,
    split: SplitRule::SpecText,
    fields: FieldSet::ClaudeCode,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: false,
    listing_cap_chars: Some(1536),
    gates: &[
        gate("missing-skill-md", "Claude Code loads a skill from the `SKILL.md` in its folder"),
        gate("archive-unreadable", "Claude Code loads skills from folders: an archive it cannot read installs nothing"),
        gate("archive-too-large", "Claude Code loads skills from folders: an archive that cannot be expanded safely installs nothing, or part of a skill"),
        gate("claude-code-field-type", "Claude Code frontmatter reference: each field's documented type and values"),
    ],
    severities: &[("allowed-tools-not-string", OFF), ("xml-in-field", OFF), ("name-reserved-word", OFF)],
};

/// Strict YAML clients (Codex, `npx skills`): what a YAML 1.2 loader without fallbacks refuses.
pub static STRICT_YAML: Profile = Profile {
    key: "strict-yaml",
    title: "Strict YAML clients (Codex, npx skills)",
    as_of: "agentskills client guide 69ef37e, 2026-08-09",
    yaml: YamlDialect::Lenient,
    split: SplitRule::SpecText,
    fields: FieldSet::Spec,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    gates: &[
        gate("missing-skill-md", "client guide: a skill is a folder holding a file named exactly `SKILL.md`"),
        gate("archive-unreadable", "client guide: skills are folders; an archive that cannot be read installs nothing"),
        gate("archive-too-large", "client guide: skills are folders; an archive that cannot be expanded safely installs nothing, or part of a skill"),
        gate("non-utf8-text", "strict clients read SKILL.md as UTF-8 text; an undecodable file is not parsed"),
        gate("frontmatter-missing", "client guide: unparseable frontmatter → skip the skill"),
        gate("frontmatter-unclosed", "client guide: unparseable frontmatter → skip the skill"),
        gate("invalid-yaml", "client guide: unparseable YAML → skip the skill"),
        gate("yaml-tab", "YAML forbids tabs in indentation; a strict loader refuses the document"),
        gate("duplicate-key", "YAML 1.2 requires unique keys; js-yaml and serde_yaml refuse duplicates"),
        gate("frontmatter-not-mapping", "client guide: unparseable frontmatter → skip the skill"),
        gate("name-missing", "client guide: a skill needs a name to be listed"),
        gate("description-missing", "client guide: missing description → skip the skill"),
        gate("description-empty", "client guide: empty description → skip the skill"),
    ],
    severities: &[("unknown-field", W), ("yaml-comment-in-value", W), ("claude-code-field-type", OFF), ("name-reserved-word", OFF), ("xml-in-field", OFF)],
};

/// Every profile, in the order the page shows them.
pub static ALL: [&Profile; 4] = [&SPEC, &CLAUDE_AI, &CLAUDE_CODE, &STRICT_YAML];
