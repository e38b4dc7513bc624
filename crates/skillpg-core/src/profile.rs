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
    /// Severity per rule name; a rule not listed uses its default; `None` turns it off.
    pub severities: &'static [(&'static str, Option<Severity>)],
}

impl Profile {
    /// The severity of `rule` under this profile, or `None` when the rule is off.
    pub fn severity(&self, rule: &str, default: Severity) -> Option<Severity> {
        self.severities.iter().find(|(name, _)| *name == rule).map(|(_, s)| *s).unwrap_or(Some(default))
    }

    /// The profile with `key`.
    pub fn by_key(key: &str) -> Option<&'static Profile> {
        ALL.iter().copied().find(|p| p.key == key)
    }
}

const E: Option<Severity> = Some(Severity::Error);
const W: Option<Severity> = Some(Severity::Warning);
const I: Option<Severity> = Some(Severity::Info);
const OFF: Option<Severity> = None;

/// Advisory rules (budgets, routing, staleness) that no loader enforces; in `spec` they are
/// capped at a warning so that its verdict stays skills-ref's.
const SPEC_ADVISORY_CAP: [(&str, Option<Severity>); 4] =
    [("reference-too-large", W), ("references-too-large", W), ("broken-link", W), ("listing-cap", OFF)];

/// The Agent Skills specification as skills-ref 0.1.1 applies it, stricter where the
/// specification's text is (and saying so).
pub static SPEC: Profile = Profile {
    key: "spec",
    title: "Agent Skills spec (skills-ref)",
    as_of: "agentskills 69ef37e, 2026-08-09; skills-ref 0.1.1",
    yaml: YamlDialect::StrictYaml,
    fields: FieldSet::Spec,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::SkillsRef,
    name_required: true,
    listing_cap_chars: None,
    severities: &[
        ("duplicate-key", E),
        SPEC_ADVISORY_CAP[0],
        SPEC_ADVISORY_CAP[1],
        SPEC_ADVISORY_CAP[2],
        SPEC_ADVISORY_CAP[3],
        ("name-reserved-word", OFF),
        ("xml-in-field", OFF),
        ("claude-code-field-type", OFF),
        ("skill-md-lowercase", I),
    ],
};

/// claude.ai upload, the Skills API and `package_skill.py`: the six fields only.
pub static CLAUDE_AI: Profile = Profile {
    key: "claude-ai",
    title: "claude.ai upload / Skills API",
    as_of: "Claude Code docs v2.1.240, 2026-08-22; Claude API docs 86fa4f70d, 2026-08-21",
    yaml: YamlDialect::Lenient,
    fields: FieldSet::Spec,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &["anthropic", "claude"],
    wording: Wording::AnthropicUpload,
    name_required: true,
    listing_cap_chars: None,
    severities: &[
        ("name-dir-mismatch", W),
        ("skill-md-lowercase", E),
        ("claude-code-field-type", OFF),
        ("compatibility-empty", W),
        ("metadata-not-string-map", W),
        ("allowed-tools-not-string", W),
        ("frontmatter-opening-line", W),
    ],
};

/// Claude Code: twenty documented fields, unknown ones ignored with a warning.
pub static CLAUDE_CODE: Profile = Profile {
    key: "claude-code",
    title: "Claude Code",
    as_of: "Claude Code docs v2.1.240, 2026-08-22",
    yaml: YamlDialect::Lenient,
    fields: FieldSet::ClaudeCode,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: false,
    listing_cap_chars: Some(1536),
    severities: &[
        ("unknown-field", W),
        ("name-dir-mismatch", W),
        ("name-invalid-chars", W),
        ("name-too-long", W),
        ("name-not-lowercase", W),
        ("name-hyphen-edge", W),
        ("name-consecutive-hyphens", W),
        ("description-too-long", W),
        ("skill-md-lowercase", W),
        ("compatibility-empty", W),
        ("metadata-not-string-map", W),
        ("allowed-tools-not-string", OFF),
        ("frontmatter-opening-line", W),
        ("bom", W),
        ("xml-in-field", OFF),
        ("name-reserved-word", OFF),
    ],
};

/// Strict YAML clients (Codex, `npx skills`): what a YAML 1.2 loader without fallbacks refuses.
pub static STRICT_YAML: Profile = Profile {
    key: "strict-yaml",
    title: "Strict YAML clients (Codex, npx skills)",
    as_of: "agentskills client guide 69ef37e, 2026-08-09",
    yaml: YamlDialect::Lenient,
    fields: FieldSet::Spec,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    severities: &[
        ("unknown-field", W),
        ("name-dir-mismatch", W),
        ("duplicate-key", E),
        ("yaml-tab", E),
        ("yaml-comment-in-value", W),
        ("non-string-scalar", E),
        ("claude-code-field-type", OFF),
        ("name-reserved-word", OFF),
        ("xml-in-field", OFF),
    ],
};

/// Every profile, in the order the page shows them.
pub static ALL: [&Profile; 4] = [&SPEC, &CLAUDE_AI, &CLAUDE_CODE, &STRICT_YAML];
