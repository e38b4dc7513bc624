//! Profiles: which product's rules a skill is checked against, as data.
//!
//! A profile sets how YAML is read, which fields exist, and the severity of each rule (or turns
//! it off). Rules read these values; no rule tests a profile's identity.
//! Each profile is dated: products change their limits (Claude Code's listing cap went from 250
//! to 1,536 characters).

use crate::diagnostic::Severity;

mod agents;
mod dialect;
pub use agents::{
    AUGMENT, CLINE, COPILOT_CLI, COPILOT_CLI_LISTING, COPILOT_CODE, CRUSH, GOOSE, KILO_CODE,
    KIMI_CLI, LETTA_CODE, MISTRAL_VIBE, OPENCLAW, OPENCODE, PI, QWEN_CODE, ROO_CODE, ZED,
    ZED_LISTING,
};
pub use dialect::{FieldReading, FrontmatterReading, YamlDialect};

// The field sets live with the profiles that name them, below the rules that read them, so
// that the engine's modules read one way (`skillpg-tidy`'s module-cycle rule).

/// Why an archive entry that climbs out of its folder is an error in every profile: extracted,
/// it would write outside the skill (zip-slip), so the archive is refused as the attack it is,
/// not read in part with a warning.
const TRAVERSAL_GATE: &str = "an archive entry that climbs out of its folder (`../`, an absolute path) would be written outside the skill when extracted (zip-slip): the archive is refused, not read in part";

/// The six fields of the specification.
pub const SPEC_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// The twenty fields of Claude Code's frontmatter reference.
pub const CLAUDE_CODE_FIELDS: [&str; 20] = [
    "name",
    "description",
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "allowed-tools",
    "disallowed-tools",
    "model",
    "effort",
    "context",
    "agent",
    "background",
    "hooks",
    "paths",
    "shell",
    "metadata",
    "license",
    "compatibility",
];

/// Which frontmatter fields a product knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldSet {
    /// The six fields of the Agent Skills specification.
    Spec,
    /// The twenty fields Claude Code documents.
    ClaudeCode,
    /// VS Code / GitHub Copilot: the specification's six, `argument-hint`, `user-invocable` and
    /// `disable-model-invocation`.
    Copilot,
    /// Cursor: `name`, `description`, `license`, `compatibility`, `metadata` and
    /// `disable-model-invocation`.
    Cursor,
    /// Codex reads `name`, `description` and `metadata` (for `short-description`) and ignores
    /// the rest.
    Codex,
    /// Gemini CLI reads `name` and `description` and ignores the rest.
    Gemini,
    /// Clients that read only `name` and `description` and ignore the rest (Roo Code, Kilo
    /// Code, Cline).
    NameDescription,
    /// Zed: `name`, `description` and `disable-model-invocation` (its `SkillMetadata`).
    Zed,
    /// Crush: its `Skill` struct's `name`, `description`, `user-invocable`,
    /// `disable-model-invocation`, `license`, `compatibility` and `metadata`.
    Crush,
    /// pi: the specification's six and `disable-model-invocation`
    /// (`ALLOWED_FRONTMATTER_FIELDS`); any other key is a warning.
    Pi,
    /// Goose's `SkillFrontmatter`: `name`, `description` and `metadata` (a map).
    Goose,
    /// Qwen Code's `SkillConfig`: `name`, `description`, `allowedTools`, `hooks`, `model`,
    /// `argument-hint`, `when_to_use`, `disable-model-invocation`, `user-invocable`, `paths` and
    /// `priority`; any other key is ignored.
    Qwen,
    /// Kimi Code CLI's `Skill`: `name`, `description` and `type`; any other key is ignored.
    Kimi,
    /// Mistral Vibe's `SkillMetadata`: the specification's six, `user-invocable` and
    /// `disable-model-invocation`; any other key is ignored.
    Vibe,
}

impl FieldSet {
    /// The fields this product knows.
    pub fn known(self) -> &'static [&'static str] {
        match self {
            FieldSet::Spec => &SPEC_FIELDS,
            FieldSet::ClaudeCode => &CLAUDE_CODE_FIELDS,
            FieldSet::Copilot => &[
                "name",
                "description",
                "license",
                "compatibility",
                "metadata",
                "allowed-tools",
                "argument-hint",
                "user-invocable",
                // VS Code's code reads this older spelling too (its prompt validator and agent
                // parser: `frontmatter['user-invokable']`), though its docs spell it `invocable`.
                "user-invokable",
                "disable-model-invocation",
            ],
            FieldSet::Cursor => &[
                "name",
                "description",
                "license",
                "compatibility",
                "metadata",
                "disable-model-invocation",
            ],
            FieldSet::Codex => &["name", "description", "metadata"],
            FieldSet::Gemini | FieldSet::NameDescription => &["name", "description"],
            FieldSet::Zed => &["name", "description", "disable-model-invocation"],
            FieldSet::Goose => &["name", "description", "metadata"],
            FieldSet::Crush => &[
                "name",
                "description",
                "user-invocable",
                "disable-model-invocation",
                "license",
                "compatibility",
                "metadata",
            ],
            FieldSet::Kimi => &["name", "description", "type"],
            FieldSet::Qwen => &[
                "name",
                "description",
                "allowedTools",
                "hooks",
                "model",
                "argument-hint",
                "when_to_use",
                "disable-model-invocation",
                "user-invocable",
                "paths",
                "priority",
            ],
            FieldSet::Vibe => &[
                "name",
                "description",
                "license",
                "compatibility",
                "metadata",
                "allowed-tools",
                "user-invocable",
                "disable-model-invocation",
            ],
            FieldSet::Pi => &[
                "name",
                "description",
                "license",
                "compatibility",
                "metadata",
                "allowed-tools",
                "disable-model-invocation",
            ],
        }
    }
}

/// What a product counts a length limit in: the same description can be 1,000 of one and 1,100
/// of another when it holds emoji or non-Latin text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LengthUnit {
    /// Unicode code points (Python's `len`, Rust's `chars().count()`).
    CodePoints,
    /// Code points after every run of whitespace becomes one space and the ends are trimmed
    /// (Codex's `sanitize_single_line`).
    CollapsedCodePoints,
    /// UTF-16 code units (JavaScript's `String.length`): an emoji outside the BMP counts 2.
    Utf16Units,
    /// UTF-8 bytes (Rust's `str::len`, Go's `len`): a CJK character counts 3, an emoji 4.
    Utf8Bytes,
}

impl LengthUnit {
    /// The length of `text` in this unit.
    pub fn count(self, text: &str) -> usize {
        match self {
            LengthUnit::CodePoints => text.chars().count(),
            LengthUnit::CollapsedCodePoints => collapse_whitespace(text).chars().count(),
            LengthUnit::Utf16Units => text.encode_utf16().count(),
            LengthUnit::Utf8Bytes => text.len(),
        }
    }

    /// The unit's name, as a message says it ("1,030 UTF-16 units").
    pub fn noun(self) -> &'static str {
        match self {
            LengthUnit::CodePoints => "characters",
            LengthUnit::CollapsedCodePoints => "characters once whitespace is collapsed",
            LengthUnit::Utf16Units => "UTF-16 units",
            LengthUnit::Utf8Bytes => "UTF-8 bytes",
        }
    }
}

/// `text` on one line: every run of whitespace one space, the ends trimmed (what Codex lists).
pub fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How a product prices its skill listing (level 1 of every installed skill) against the
/// context window, and what it does when the listing is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listing {
    /// The share of the context window the listing may take, in percent.
    pub percent_of_window: usize,
    /// How an entry's cost is counted against that share.
    pub cost: ListingCost,
    /// The budget in characters when the window is not known, if the product documents one.
    pub unknown_window_chars: Option<usize>,
    /// How one skill is written in the listing.
    pub entry: ListingEntry,
    /// The most of one description the listing ever shows, in characters.
    pub description_cap: Option<usize>,
    /// Whether skills that still do not fit once descriptions are shortened are left out
    /// (Codex), or keep their names (Claude Code).
    pub omits_skills: bool,
    /// Whether a person can set its description cap and its share of the window
    /// ([`crate::catalog::ListingSettings`]: Claude Code's `skillListingMaxDescChars` and
    /// `skillListingBudgetFraction`).
    pub settable: bool,
    /// How an over-budget listing is made to fit.
    pub fill: ListingFill,
    /// Whether the listing names a skill by its folder (Claude Code's command name for personal
    /// and project skills; the frontmatter `name` is a display label), else by its `name`.
    pub names_by_folder: bool,
    /// Whether a skill without a description is listed with the body's first paragraph
    /// (Claude Code), else with none.
    pub description_from_body: bool,
    /// Whether names that are equal once case, spacing, invisible characters and
    /// compatibility forms are folded collide (Claude Code skips such a synced skill).
    pub folds_synced_names: bool,
}

/// How a client makes an over-budget listing fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListingFill {
    /// Descriptions are shortened first (each to an equal share), then, where the client
    /// omits skills, the last are left out (Claude Code, Codex).
    ShortenDescriptions,
    /// Whole entries in order until the next one does not fit; that one and every later one
    /// are left out, and no description is shortened (Zed, the Copilot CLI).
    WholeInOrder,
}

/// How a listing entry is counted against the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListingCost {
    /// Characters, against the window's share at 4 characters a token (Claude Code's
    /// `SLASH_COMMAND_TOOL_CHAR_BUDGET` arithmetic).
    CharsAtFourPerToken,
    /// Approximate tokens, UTF-8 bytes / 4 rounded up (Codex's `approx_token_count`).
    BytesOverFour,
    /// A fixed number of UTF-8 bytes, whatever the window (Zed's
    /// `MAX_SKILL_DESCRIPTIONS_SIZE`, 50 KB).
    FixedBytes(usize),
    /// A fixed number of characters, whatever the window (the Copilot CLI's 15,000).
    FixedChars(usize),
}

/// How one skill is written in a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListingEntry {
    /// `- name: description`.
    NameDescription,
    /// `- name: description (file: path)`, the path to the skill's SKILL.md (Codex).
    NameDescriptionPath,
}

/// Which characters a name may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameCharset {
    /// Python `isalnum` after NFKC (letters and digits of any script) and `-`, as skills-ref.
    UnicodeAlnum,
    /// ASCII `a-z`, `0-9` and `-`, as Anthropic's packager and upload.
    AsciiKebab,
    /// Anything but `/` (Goose's loader: `Skill name '…' contains '/', skipping`).
    NoSlash,
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
    /// A client's own fences: which lines open and close the frontmatter, and whether blank
    /// lines may come before the opening one. Mistral Vibe's `re.split(r"^-{3,}\s*$", content,
    /// 2)` is dashes both ways after blank lines; pi's `startsWith("---")` and
    /// `indexOf("\n---")` a prefix both ways; Gemini CLI's regex an exact `---` line, then the
    /// first line that starts with `---`; Zed's `trim_start` and Crush's trimmed lines the
    /// specification's fences after blank lines.
    Fences {
        /// The opening line.
        open: crate::frontmatter::Fence,
        /// The closing line.
        close: crate::frontmatter::Fence,
        /// Whether blank (whitespace-only) lines before the opening one are skipped.
        blank_lines_first: bool,
    },
}

impl SplitRule {
    /// Mistral Vibe's split.
    pub const DASH_LINES: SplitRule = SplitRule::Fences {
        open: crate::frontmatter::Fence::Dashes,
        close: crate::frontmatter::Fence::Dashes,
        blank_lines_first: true,
    };
}

/// How a client turns SKILL.md's bytes into text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Utf8Reading {
    /// As UTF-8, refusing a byte that does not decode (Python's `read_text(encoding="utf-8")`,
    /// Rust's `read_to_string`): any such SKILL.md is refused.
    Strict,
    /// As UTF-8, a byte that does not decode becoming U+FFFD (Node's and Bun's `"utf8"`): the
    /// skill loads with replacement characters, but UTF-16 has no frontmatter it can see (pi's
    /// and Gemini CLI's own loaders, run in tests/client_oracles.rs).
    Lossy,
    /// By its byte order mark, then UTF-8, then a guess (Mistral Vibe's `read_safe`): UTF-16
    /// loads too.
    Sniffs,
}

/// Which repeated keys a client refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuplicateKeys {
    /// Its YAML reader refuses (or reports) any repeated key.
    AnyKey,
    /// It reads the frontmatter into a fixed set of fields and refuses only a repeated one of
    /// these (serde's derive), ignoring any other key however often it appears.
    Fields(&'static [&'static str]),
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
    /// A short name for a table's row ("Codex").
    pub short: &'static str,
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
    /// What the length limits on `name`, `description` and `compatibility` count.
    pub length_unit: LengthUnit,
    /// The skill listing's budget, when the product documents one.
    pub listing: Option<Listing>,
    /// Where the product documents what this profile encodes, for a person to check.
    pub source_url: &'static str,
    /// What the product does with frontmatter whose YAML does not parse, when it does not
    /// refuse the skill (said after the parser's message).
    pub on_bad_yaml: Option<&'static str>,
    /// Which repeated keys it refuses.
    pub duplicate_keys: DuplicateKeys,
    /// Whether `name` is compared with the folder's name without regard to case (Crush's
    /// `strings.EqualFold`); elsewhere exactly.
    pub name_dir_fold_case: bool,
    /// Whether, when the YAML does not parse, the client turns every unquoted top-level
    /// `key: a: b` into a block scalar and parses again (OpenCode's `fallbackSanitization`).
    pub requotes_colon_values: bool,
    /// Whether it reads the frontmatter as `key: value` lines rather than YAML (Letta Code):
    /// [`line-read-description`](crate::rules) says what it lists when that differs.
    pub reads_lines: bool,
    /// Whether, when the YAML does not parse, it reads `name:` and `description:` lines instead
    /// and skips the skill unless it finds both (Gemini CLI's `parseSimpleFrontmatter`):
    /// [`fallback-fields-missing`](crate::rules) is then its gate.
    pub line_fallback: bool,
    /// The characters its listing turns into `-` in a name (Gemini CLI: `:\\/<>*?"|`, "for
    /// use as a filename"); empty where it lists the name as written.
    pub name_sanitized: &'static str,
    /// Whether a description of only whitespace counts as empty (the loaders that trim it);
    /// pydantic's `min_length=1` (Mistral Vibe) takes `'   '`.
    pub description_trimmed: bool,
    /// Where a missing or empty (falsy) description gives way to the body's first non-blank
    /// line, cut to this many characters with `…` (Kimi Code CLI: 240). Data for the rules'
    /// words and verdicts: the listing takes the description from the client's replay
    /// ([`Profile::replay`], `replay::kimi_cli`), the one place that reads it.
    pub description_fallback: Option<usize>,
    /// How it decodes SKILL.md's bytes.
    pub utf8: Utf8Reading,
    /// The client's loader replayed whole ([`crate::replay`]), where its reading is not
    /// YAML's and its checks run on that reading: its refusal is `loader-replay-refuses`, and
    /// its reading is what the listing shows.
    pub replay: Option<crate::replay::Replay>,
    /// The client's own package whose loader the test suite calls on every case
    /// (`tests/client_oracles.rs`), as `package version`; `None` where the profile rests on
    /// reading the source (`as_of`).
    pub oracle: Option<&'static str>,
    /// Where versions that people still run behave otherwise: which one this profile models,
    /// and what the others do (empty where no such change is known).
    pub other_versions: &'static str,
    /// Whether its scan goes on inside a folder that holds `SKILL.md`, so that a `SKILL.md`
    /// below it (`pdf/references/x/SKILL.md`) is a skill of its own (Codex's recursive walk);
    /// elsewhere that file is one of the outer skill's files.
    pub scans_inside_skills: bool,
    /// The largest SKILL.md the client reads, in bytes, when it refuses larger ones before
    /// reading them (Zed: 100 KiB); [`skill-md-too-large`](crate::rules) says so.
    pub skill_md_max_bytes: Option<usize>,
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
        let chosen = self
            .severities
            .iter()
            .find(|(name, _)| *name == rule)
            .map(|(_, s)| *s)
            .unwrap_or(Some(default));
        chosen.map(|s| s.min(Severity::Warning))
    }

    /// Whether the client refuses a SKILL.md whose frontmatter it cannot see: its
    /// `frontmatter-missing` is a gate, or its replayed loader refuses a file without one.
    pub fn needs_frontmatter(&self) -> bool {
        self.is_gate("frontmatter-missing")
            || self
                .replay
                .is_some_and(|replay| replay("# A body and no frontmatter\n", "folder").is_err())
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

    /// The profiles `keys` name, each once, in the order first named (`all` is every client;
    /// no key is `spec`): the one resolution of the CLI's `--profile`, `skillpg.toml`'s
    /// `profiles` and the language server's. An unknown key is an error that names it and the
    /// keys there are, on every edge.
    pub fn resolve<K: AsRef<str>>(keys: &[K]) -> Result<Vec<&'static Profile>, String> {
        let mut out: Vec<&'static Profile> = Vec::new();
        let mut unknown = Vec::new();
        for k in keys {
            match Profile::named(k.as_ref()) {
                Some(ps) => {
                    for p in ps {
                        if !out.iter().any(|q| q.key == p.key) {
                            out.push(p);
                        }
                    }
                }
                None => unknown.push(k.as_ref().to_owned()),
            }
        }
        if !unknown.is_empty() {
            let known: Vec<&str> = ALL.iter().map(|p| p.key).collect();
            return Err(format!(
                "unknown profile{} {} (expected {}, or all)",
                if unknown.len() > 1 { "s" } else { "" },
                unknown
                    .iter()
                    .map(|k| format!("'{k}'"))
                    .collect::<Vec<_>>()
                    .join(", "),
                known.join(", ")
            ));
        }
        if out.is_empty() {
            out.extend(Profile::by_key("spec"));
        }
        Ok(out)
    }

    /// The profiles `key` names: one, or every client for `all` (the CLI's `--profile`, the
    /// language server's and `skillpg.toml`'s `profiles`); `None` when no profile has it.
    pub fn named(key: &str) -> Option<Vec<&'static Profile>> {
        if key == "all" {
            Some(ALL.to_vec())
        } else {
            Profile::by_key(key).map(|p| vec![p])
        }
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
    short: "spec",
    as_of: "agentskills 69ef37e, 2026-08-09; skills-ref 0.1.1",
    yaml: YamlDialect::StrictYaml,
    split: SplitRule::SkillsRef,
    fields: FieldSet::Spec,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::SkillsRef,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::CodePoints,
    listing: None,
    source_url: "https://agentskills.io/specification",
    on_bad_yaml: None,
    scans_inside_skills: false,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Strict,
    replay: None,
    oracle: Some("skills-ref 0.1.1"),
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &[
        gate(
            "missing-skill-md",
            "validator.py: `Missing required file: SKILL.md` (SKILL.md or skill.md)",
        ),
        gate(
            "archive-unreadable",
            "skills-ref validates a folder: an archive that cannot be read gives it none to validate",
        ),
        gate(
            "archive-too-large",
            "skills-ref validates a folder: an archive that cannot be expanded safely gives it none, or part of one",
        ),
        gate("path-outside-folder", TRAVERSAL_GATE),
        gate(
            "non-utf8-text",
            "parser.py reads SKILL.md with `read_text(encoding='utf-8')`, which raises on other encodings",
        ),
        gate(
            "bom",
            "parser.py: the BOM is not stripped, so `SKILL.md must start with YAML frontmatter (---)`",
        ),
        gate(
            "frontmatter-missing",
            "parser.py: `SKILL.md must start with YAML frontmatter (---)`",
        ),
        gate(
            "frontmatter-unclosed",
            "parser.py: `SKILL.md frontmatter not properly closed with ---`",
        ),
        gate(
            "invalid-yaml",
            "parser.py: `Invalid YAML in frontmatter` (strictyaml.load raised)",
        ),
        gate(
            "yaml-flow-collection",
            "strictyaml refuses flow style: `Invalid YAML in frontmatter`",
        ),
        gate(
            "yaml-anchor-or-tag",
            "strictyaml refuses anchors and tags: `Invalid YAML in frontmatter`",
        ),
        gate(
            "yaml-tab",
            "strictyaml refuses tabs: `Invalid YAML in frontmatter`",
        ),
        gate(
            "duplicate-key",
            "strictyaml refuses duplicate keys: `Invalid YAML in frontmatter`",
        ),
        gate(
            "frontmatter-not-mapping",
            "parser.py: `SKILL.md frontmatter must be a YAML mapping`",
        ),
        gate(
            "unknown-field",
            "validator.py: `Unexpected fields in frontmatter`",
        ),
        gate(
            "name-missing",
            "validator.py: `Missing required field in frontmatter: name`",
        ),
        gate(
            "name-not-string",
            "validator.py: `Field 'name' must be a non-empty string`",
        ),
        gate(
            "name-too-long",
            "validator.py: `exceeds 64 character limit`",
        ),
        gate("name-not-lowercase", "validator.py: `must be lowercase`"),
        gate(
            "name-hyphen-edge",
            "validator.py: `cannot start or end with a hyphen`",
        ),
        gate(
            "name-consecutive-hyphens",
            "validator.py: `cannot contain consecutive hyphens`",
        ),
        gate(
            "name-invalid-chars",
            "validator.py: `contains invalid characters`",
        ),
        gate(
            "name-dir-mismatch",
            "validator.py: `Directory name ... must match skill name`",
        ),
        gate(
            "description-missing",
            "validator.py: `Missing required field in frontmatter: description`",
        ),
        gate(
            "description-empty",
            "validator.py: `Field 'description' must be a non-empty string`",
        ),
        gate(
            "description-too-long",
            "validator.py: `Description exceeds 1024 character limit`",
        ),
        gate(
            "compatibility-not-string",
            "validator.py: `Field 'compatibility' must be a string`",
        ),
        gate(
            "compatibility-too-long",
            "validator.py: `Compatibility exceeds 500 character limit`",
        ),
    ],
    severities: &[
        ("listing-cap", OFF),
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
    short: "claude.ai / API",
    as_of: "Claude Code docs v2.1.240, 2026-08-22; Claude API docs 86fa4f70d, 2026-08-21",
    yaml: YamlDialect::PyYaml,
    split: SplitRule::SpecText,
    fields: FieldSet::Spec,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &["anthropic", "claude"],
    wording: Wording::AnthropicUpload,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::CodePoints,
    listing: None,
    source_url: "https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview",
    on_bad_yaml: None,
    scans_inside_skills: false,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Strict,
    replay: None,
    oracle: None,
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &[
        gate(
            "missing-skill-md",
            "quick_validate.py: `SKILL.md not found`",
        ),
        gate(
            "archive-unreadable",
            "claude.ai upload: the file must be a zip archive it can read",
        ),
        gate(
            "archive-too-large",
            "claude.ai upload: an archive it cannot expand within its limits is refused",
        ),
        gate("path-outside-folder", TRAVERSAL_GATE),
        gate(
            "archive-layout",
            "claude.ai upload: a zip holding one top-level folder with SKILL.md in it",
        ),
        gate(
            "skill-md-lowercase",
            "quick_validate.py reads `SKILL.md` only: `SKILL.md not found`",
        ),
        gate("file-too-large", "claude.ai upload: 8 MB per file"),
        gate(
            "non-utf8-text",
            "quick_validate.py reads SKILL.md as UTF-8, which raises on other encodings",
        ),
        gate(
            "bom",
            "quick_validate.py: `No YAML frontmatter found` (the BOM precedes `---`)",
        ),
        gate(
            "frontmatter-missing",
            "quick_validate.py: `No YAML frontmatter found`",
        ),
        gate(
            "frontmatter-unclosed",
            "quick_validate.py: `Invalid frontmatter format`",
        ),
        gate(
            "invalid-yaml",
            "quick_validate.py: `Invalid YAML in frontmatter` (yaml.safe_load raised)",
        ),
        gate(
            "frontmatter-not-mapping",
            "quick_validate.py: `Frontmatter must be a YAML dictionary`",
        ),
        gate(
            "unknown-field",
            "quick_validate.py and upload: `Unexpected key(s) in SKILL.md frontmatter`",
        ),
        gate(
            "name-missing",
            "quick_validate.py: `Missing 'name' in frontmatter`",
        ),
        gate(
            "name-not-string",
            "quick_validate.py: `Name must be a string`",
        ),
        gate(
            "name-too-long",
            "quick_validate.py: `Name is too long`; Claude API: maximum 64 characters",
        ),
        gate(
            "name-not-lowercase",
            "quick_validate.py: `should be kebab-case`",
        ),
        gate(
            "name-invalid-chars",
            "quick_validate.py: `should be kebab-case`",
        ),
        gate(
            "name-hyphen-edge",
            "quick_validate.py: `cannot start/end with hyphen`",
        ),
        gate(
            "name-consecutive-hyphens",
            "quick_validate.py: `contain consecutive hyphens`",
        ),
        gate(
            "name-reserved-word",
            "Claude API field requirements: cannot contain reserved words",
        ),
        gate(
            "xml-in-field",
            "quick_validate.py: `cannot contain angle brackets`; Claude API: no XML tags",
        ),
        gate(
            "description-missing",
            "quick_validate.py: `Missing 'description' in frontmatter`",
        ),
        gate(
            "description-empty",
            "Claude API field requirements: description must be non-empty",
        ),
        gate(
            "description-too-long",
            "quick_validate.py: `Description is too long`",
        ),
        gate(
            "compatibility-not-string",
            "quick_validate.py: `Compatibility must be a string`",
        ),
        gate(
            "compatibility-too-long",
            "quick_validate.py: `Compatibility is too long`",
        ),
    ],
    severities: &[("claude-code-field-type", OFF)],
};

/// Claude Code's skill listing: 1% of the context window at 4 characters a token; each entry's
/// description and `when_to_use` cut at 1,536 characters; past the budget descriptions are
/// shortened and every name stays listed.
pub const CLAUDE_CODE_LISTING: Listing = Listing {
    percent_of_window: 1,
    cost: ListingCost::CharsAtFourPerToken,
    unknown_window_chars: None,
    entry: ListingEntry::NameDescription,
    description_cap: Some(1536),
    omits_skills: false,
    settable: true,
    fill: ListingFill::ShortenDescriptions,
    names_by_folder: true,
    description_from_body: true,
    folds_synced_names: true,
};

/// Claude Code: twenty documented fields, all optional; unknown ones ignored with a warning.
pub static CLAUDE_CODE: Profile = Profile {
    key: "claude-code",
    title: "Claude Code",
    short: "Claude Code",
    as_of: "Claude Code docs v2.1.240, 2026-08-22",
    yaml: YamlDialect::PyYaml,
    split: SplitRule::SpecText,
    fields: FieldSet::ClaudeCode,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: false,
    listing_cap_chars: Some(1536),
    length_unit: LengthUnit::CodePoints,
    listing: Some(CLAUDE_CODE_LISTING),
    source_url: "https://code.claude.com/docs/en/skills",
    on_bad_yaml: None,
    scans_inside_skills: false,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Lossy,
    replay: None,
    oracle: None,
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &[
        gate(
            "skill-nested",
            "Claude Code docs: a skill is a folder holding `SKILL.md` directly under a skills folder (`~/.claude/skills/<name>/SKILL.md`); a `SKILL.md` deeper inside a skill is one of its files",
        ),
        gate(
            "missing-skill-md",
            "Claude Code loads a skill from the `SKILL.md` in its folder",
        ),
        gate(
            "archive-unreadable",
            "Claude Code loads skills from folders: an archive it cannot read installs nothing",
        ),
        gate(
            "archive-too-large",
            "Claude Code loads skills from folders: an archive that cannot be expanded safely installs nothing, or part of a skill",
        ),
        gate("path-outside-folder", TRAVERSAL_GATE),
        gate(
            "claude-code-field-type",
            "Claude Code frontmatter reference: each field's documented type and values",
        ),
    ],
    severities: &[
        ("allowed-tools-not-string", OFF),
        ("xml-in-field", OFF),
        ("name-reserved-word", OFF),
    ],
};

/// Strict YAML clients (`npx skills`; pi and OpenClaw now have profiles of their own, held to
/// their loaders): what a YAML 1.2 loader without fallbacks
/// refuses. (Codex, which also reads strict YAML, has a profile of its own.)
pub static STRICT_YAML: Profile = Profile {
    key: "strict-yaml",
    title: "Strict YAML clients (npx skills)",
    short: "strict YAML",
    as_of: "agentskills client guide 69ef37e, 2026-08-09",
    yaml: YamlDialect::PyYaml,
    split: SplitRule::SpecText,
    fields: FieldSet::Spec,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::CodePoints,
    listing: None,
    source_url: "https://agentskills.io/client-implementation/adding-skills-support",
    on_bad_yaml: None,
    scans_inside_skills: false,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Strict,
    replay: None,
    oracle: None,
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &[
        gate(
            "missing-skill-md",
            "client guide: a skill is a folder holding a file named exactly `SKILL.md`",
        ),
        gate(
            "archive-unreadable",
            "client guide: skills are folders; an archive that cannot be read installs nothing",
        ),
        gate(
            "archive-too-large",
            "client guide: skills are folders; an archive that cannot be expanded safely installs nothing, or part of a skill",
        ),
        gate("path-outside-folder", TRAVERSAL_GATE),
        gate(
            "non-utf8-text",
            "strict clients read SKILL.md as UTF-8 text; an undecodable file is not parsed",
        ),
        gate(
            "frontmatter-missing",
            "client guide: unparseable frontmatter → skip the skill",
        ),
        gate(
            "frontmatter-unclosed",
            "client guide: unparseable frontmatter → skip the skill",
        ),
        gate(
            "invalid-yaml",
            "client guide: unparseable YAML → skip the skill",
        ),
        gate(
            "yaml-tab",
            "YAML forbids tabs in indentation; a strict loader refuses the document",
        ),
        gate(
            "duplicate-key",
            "YAML 1.2 requires unique keys; js-yaml and serde_yaml refuse duplicates",
        ),
        gate(
            "frontmatter-not-mapping",
            "client guide: unparseable frontmatter → skip the skill",
        ),
        gate(
            "name-missing",
            "client guide: a skill needs a name to be listed",
        ),
        gate(
            "description-missing",
            "client guide: missing description → skip the skill",
        ),
        gate(
            "description-empty",
            "client guide: empty description → skip the skill",
        ),
    ],
    severities: &[
        ("unknown-field", W),
        ("yaml-comment-in-value", W),
        ("claude-code-field-type", OFF),
        ("name-reserved-word", OFF),
        ("xml-in-field", OFF),
    ],
};

/// Codex's skill listing (`render.rs`): 2% of the context window in approximate tokens (UTF-8
/// bytes / 4), or 8,000 characters when the window is unknown; each entry names the skill's
/// SKILL.md; descriptions are shortened first, then skills are left out ("Codex shortens skill
/// descriptions first. For very large skill sets, some skills may be omitted").
pub const CODEX_LISTING: Listing = Listing {
    percent_of_window: 2,
    cost: ListingCost::BytesOverFour,
    unknown_window_chars: Some(8000),
    entry: ListingEntry::NameDescriptionPath,
    description_cap: Some(1024),
    omits_skills: true,
    settable: false,
    fill: ListingFill::ShortenDescriptions,
    names_by_folder: false,
    description_from_body: false,
    folds_synced_names: false,
};

/// OpenAI Codex (CLI, IDE extension, app): its loader's checks. It reads `name`, `description`
/// and `metadata.short-description` with serde_yaml, collapses whitespace, and counts code
/// points; it checks no character set and ignores every other field.
pub static CODEX: Profile = Profile {
    key: "codex",
    title: "OpenAI Codex",
    short: "Codex",
    as_of: "openai/codex core-skills loader.rs (c9d127cf) and render.rs, and developers.openai.com/codex/skills, read 2026-12-04",
    yaml: YamlDialect::PyYaml,
    split: SplitRule::SpecText,
    fields: FieldSet::Codex,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: false,
    listing_cap_chars: None,
    length_unit: LengthUnit::CollapsedCodePoints,
    listing: Some(CODEX_LISTING),
    source_url: "https://developers.openai.com/codex/skills",
    on_bad_yaml: None,
    // loader.rs: a breadth-first walk of every folder under a skills root, to depth 6, that
    // parses every file named SKILL.md it meets, inside a skill's folder too.
    scans_inside_skills: true,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Strict,
    replay: None,
    oracle: None,
    other_versions: "",
    // loader.rs: serde's derive reads `name`, `description` and `metadata` (and
    // `metadata.short-description`); a repeated one is `duplicate field`, any other is ignored.
    duplicate_keys: DuplicateKeys::Fields(&[
        "name",
        "description",
        "metadata",
        "short-description",
    ]),
    gates: &[
        gate(
            "missing-skill-md",
            "loader.rs: only a file named exactly `SKILL.md` is a skill (`SKILLS_FILENAME`)",
        ),
        gate(
            "skill-md-lowercase",
            "loader.rs: only a file named exactly `SKILL.md` is a skill (`SKILLS_FILENAME`)",
        ),
        gate(
            "archive-unreadable",
            "Codex loads skills from folders: an archive that cannot be read installs nothing",
        ),
        gate(
            "archive-too-large",
            "Codex loads skills from folders: an archive that cannot be expanded safely installs nothing, or part of a skill",
        ),
        gate("path-outside-folder", TRAVERSAL_GATE),
        gate(
            "non-utf8-text",
            "loader.rs: `fs::read_to_string` fails: `failed to read file`",
        ),
        gate(
            "bom",
            "loader.rs `extract_frontmatter`: the first line, trimmed, must be `---` (a BOM is not whitespace): `missing YAML frontmatter delimited by ---`",
        ),
        gate(
            "frontmatter-missing",
            "loader.rs: `missing YAML frontmatter delimited by ---`",
        ),
        gate(
            "frontmatter-unclosed",
            "loader.rs: `missing YAML frontmatter delimited by ---`",
        ),
        gate(
            "invalid-yaml",
            "loader.rs: serde_yaml refuses it: `invalid YAML`",
        ),
        gate(
            "yaml-tab",
            "serde_yaml (libyaml) refuses tabs in indentation: `invalid YAML`",
        ),
        gate(
            "duplicate-key",
            "serde_yaml refuses a duplicate field: `invalid YAML: duplicate field`",
        ),
        gate(
            "frontmatter-not-mapping",
            "loader.rs: the frontmatter deserializes into a struct: `invalid YAML`",
        ),
        gate(
            "metadata-not-mapping",
            "loader.rs: `metadata` deserializes into a struct (`SkillFrontmatterMetadata`): a string or a list is `invalid YAML: invalid type`",
        ),
        gate(
            "description-missing",
            "loader.rs: `description` is a required field: `invalid YAML: missing field `description``",
        ),
        gate(
            "description-empty",
            "loader.rs `validate_len`: empty once whitespace is collapsed: `missing field `description``",
        ),
        gate(
            "name-too-long",
            "loader.rs: `MAX_NAME_LEN` 64, code points after `sanitize_single_line`",
        ),
        gate(
            "description-too-long",
            "loader.rs: `MAX_DESCRIPTION_LEN` 1024, code points after `sanitize_single_line`",
        ),
        gate(
            "short-description-too-long",
            "loader.rs: `MAX_SHORT_DESCRIPTION_LEN` (1,024; 500 in earlier releases): `invalid metadata.short-description`",
        ),
    ],
    severities: &[
        ("unknown-field", I),
        ("name-not-lowercase", I),
        ("name-invalid-chars", I),
        ("name-hyphen-edge", I),
        ("name-consecutive-hyphens", I),
        ("name-dir-mismatch", I),
        ("claude-code-field-type", OFF),
        ("name-reserved-word", OFF),
        ("xml-in-field", OFF),
        ("listing-cap", OFF),
    ],
};

/// GitHub Copilot in VS Code (and the Copilot coding agent and CLI, which read the same
/// folders): the documented frontmatter requirements.
pub static COPILOT: Profile = Profile {
    key: "copilot",
    title: "GitHub Copilot / VS Code",
    short: "Copilot / VS Code",
    as_of: "VS Code docs, Agent Skills reference, and microsoft/vscode agent-customization skills.md (the main branch; the docs name no VS Code release), read 2026-12-04",
    yaml: YamlDialect::PyYaml,
    split: SplitRule::SpecText,
    fields: FieldSet::Copilot,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf16Units,
    listing: None,
    source_url: "https://code.visualstudio.com/docs/agents/reference/agent-skills-reference",
    on_bad_yaml: None,
    scans_inside_skills: false,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Strict,
    replay: None,
    oracle: None,
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &[
        gate(
            "skill-nested",
            "VS Code's `findAgentSkillsInFolder` looks at `*/SKILL.md` only: a `SKILL.md` inside a skill's folder is not found",
        ),
        gate(
            "missing-skill-md",
            "VS Code docs: each skill has its own directory containing `SKILL.md`",
        ),
        gate(
            "archive-unreadable",
            "VS Code loads skills from folders: an archive that cannot be read installs nothing",
        ),
        gate(
            "archive-too-large",
            "VS Code loads skills from folders: an archive that cannot be expanded safely installs nothing, or part of a skill",
        ),
        gate("path-outside-folder", TRAVERSAL_GATE),
        gate(
            "non-utf8-text",
            "VS Code decodes SKILL.md as UTF-8 (inferred from its file service, not run): a UTF-16 file has no `---` line it can see, so no frontmatter, which the docs require",
        ),
        gate(
            "frontmatter-missing",
            "VS Code docs: `name` and `description` are required frontmatter; without frontmatter there are none",
        ),
        gate(
            "frontmatter-unclosed",
            "VS Code docs: `name` and `description` are required frontmatter; an unclosed block gives none",
        ),
        gate(
            "invalid-yaml",
            "VS Code docs: `name` and `description` are required frontmatter; unreadable YAML gives none",
        ),
        gate(
            "frontmatter-not-mapping",
            "VS Code docs: `name` and `description` are required frontmatter fields",
        ),
        gate("name-missing", "VS Code docs: `name` is required"),
        gate(
            "name-too-long",
            "VS Code docs: `name` is 1-64 characters (counted as TypeScript does, in UTF-16 units)",
        ),
        gate(
            "name-not-lowercase",
            "VS Code docs: `name` is lowercase alphanumeric and hyphens",
        ),
        gate(
            "name-invalid-chars",
            "VS Code docs: `name` is lowercase alphanumeric and hyphens",
        ),
        gate(
            "name-dir-mismatch",
            "VS Code docs: `name` must match the skill's folder",
        ),
        gate(
            "description-missing",
            "VS Code docs: `description` is required",
        ),
        gate(
            "description-empty",
            "VS Code docs: `description` is required",
        ),
        gate(
            "description-too-long",
            "VS Code docs: `description` is at most 1,024 characters (counted as TypeScript does, in UTF-16 units)",
        ),
    ],
    severities: &[
        ("claude-code-field-type", OFF),
        ("name-reserved-word", OFF),
        ("xml-in-field", OFF),
        ("listing-cap", OFF),
    ],
};

/// Cursor (closed source): the requirements its documentation states.
pub static CURSOR: Profile = Profile {
    key: "cursor",
    title: "Cursor",
    short: "Cursor",
    as_of: "cursor.com/docs/context/skills (undated, naming no Cursor release; its loader is not public), as quoted by syllago.dev and agenticthinking.ai, read 2026-12-04",
    yaml: YamlDialect::PyYaml,
    split: SplitRule::SpecText,
    fields: FieldSet::Cursor,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::CodePoints,
    listing: None,
    source_url: "https://cursor.com/docs/context/skills",
    on_bad_yaml: None,
    scans_inside_skills: false,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Strict,
    replay: None,
    oracle: None,
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &[
        gate(
            "skill-nested",
            "Cursor docs: each skill is a folder under `.cursor/skills/` holding `SKILL.md`; a `SKILL.md` deeper inside a skill is one of its files (inferred, the loader is not public)",
        ),
        gate(
            "missing-skill-md",
            "Cursor docs: each skill is a folder containing a `SKILL.md` file",
        ),
        gate(
            "archive-unreadable",
            "Cursor loads skills from folders: an archive that cannot be read installs nothing",
        ),
        gate(
            "archive-too-large",
            "Cursor loads skills from folders: an archive that cannot be expanded safely installs nothing, or part of a skill",
        ),
        gate("path-outside-folder", TRAVERSAL_GATE),
        gate(
            "non-utf8-text",
            "inferred, Cursor's loader is not public: read as UTF-8, a UTF-16 file has no `---` line, so no frontmatter, which Cursor's docs require",
        ),
        gate(
            "frontmatter-missing",
            "Cursor docs: `SKILL.md` starts with YAML frontmatter holding `name` and `description`",
        ),
        gate(
            "frontmatter-unclosed",
            "Cursor docs: `SKILL.md` starts with YAML frontmatter holding `name` and `description`",
        ),
        gate(
            "invalid-yaml",
            "Cursor docs: `name` and `description` are read from YAML frontmatter; unreadable YAML gives none",
        ),
        gate(
            "frontmatter-not-mapping",
            "Cursor docs: `name` and `description` are frontmatter fields",
        ),
        gate("name-missing", "Cursor docs: `name` is required"),
        gate(
            "name-not-lowercase",
            "Cursor docs: `name` is lowercase letters, numbers and hyphens only",
        ),
        gate(
            "name-invalid-chars",
            "Cursor docs: `name` is lowercase letters, numbers and hyphens only",
        ),
        gate(
            "name-dir-mismatch",
            "Cursor docs: `name` must match the parent folder's name",
        ),
        gate(
            "description-missing",
            "Cursor docs: `description` is required",
        ),
        gate(
            "description-empty",
            "Cursor docs: `description` is required",
        ),
    ],
    severities: &[
        ("claude-code-field-type", OFF),
        ("name-reserved-word", OFF),
        ("xml-in-field", OFF),
        ("listing-cap", OFF),
    ],
};

/// Gemini CLI: its loader (`skillLoader.ts`) reads `name` and `description` with js-yaml,
/// falls back to a key-value reading when the YAML fails, checks no length and no character
/// set, and turns `:\/<>*?"|` in a name into `-`.
pub static GEMINI_CLI: Profile = Profile {
    key: "gemini-cli",
    title: "Gemini CLI",
    short: "Gemini CLI",
    as_of: "google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts at 5411f113 (2026-08-21), read 2026-12-04; held to @google/gemini-cli-core 0.61.0's own loader (tests/client_oracles.rs)",
    // js-yaml 4: the YAML 1.2 core schema.
    yaml: YamlDialect::JsYaml4,
    split: SplitRule::Fences {
        open: crate::frontmatter::Fence::Exact,
        close: crate::frontmatter::Fence::Prefix,
        blank_lines_first: false,
    },
    fields: FieldSet::Gemini,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf16Units,
    listing: None,
    source_url: "https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/skills/skillLoader.ts",
    on_bad_yaml: Some(
        "Gemini CLI then reads the frontmatter as `key: value` lines, and loads the skill when it finds a `name:` and a `description:` line: a value that spans lines, or holds a list, reads differently than YAML would give it",
    ),
    scans_inside_skills: false,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: true,
    name_sanitized: ":\\/<>*?\"|",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Lossy,
    replay: None,
    oracle: Some("@google/gemini-cli-core 0.61.0"),
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &[
        gate(
            "skill-nested",
            "skillLoader.ts: it globs `SKILL.md` and `*/SKILL.md` only: a `SKILL.md` inside a skill's folder is not found",
        ),
        gate(
            "missing-skill-md",
            "skillLoader.ts: it globs `SKILL.md` and `*/SKILL.md` only",
        ),
        gate(
            "skill-md-lowercase",
            "skillLoader.ts: it globs `SKILL.md` and `*/SKILL.md` only",
        ),
        gate(
            "archive-unreadable",
            "Gemini CLI loads skills from folders: an archive that cannot be read installs nothing",
        ),
        gate(
            "archive-too-large",
            "Gemini CLI loads skills from folders: an archive that cannot be expanded safely installs nothing, or part of a skill",
        ),
        gate("path-outside-folder", TRAVERSAL_GATE),
        gate(
            "bom",
            "skillLoader.ts: `FRONTMATTER_REGEX` starts `^---`, and Node keeps the BOM: the skill is skipped",
        ),
        gate(
            "frontmatter-opening-space",
            "skillLoader.ts: `FRONTMATTER_REGEX` opens with `^---\\r?\\n`: with a space after the dashes nothing matches, and the skill is skipped",
        ),
        gate(
            "non-utf8-text",
            "skillLoader.ts: `fs.readFile(filePath, 'utf-8')`: a UTF-16 file does not match `FRONTMATTER_REGEX`, and the skill is skipped",
        ),
        gate(
            "frontmatter-missing",
            "skillLoader.ts: no `FRONTMATTER_REGEX` match: the skill is skipped",
        ),
        gate(
            "frontmatter-unclosed",
            "skillLoader.ts: no `FRONTMATTER_REGEX` match: the skill is skipped",
        ),
        gate(
            "frontmatter-not-mapping",
            "skillLoader.ts: a frontmatter that YAML reads as a list, a scalar or nothing gives no `name` or `description`, and the skill is skipped (its own loader, run in tests/client_oracles.rs)",
        ),
        gate(
            "fallback-fields-missing",
            "skillLoader.ts `parseSimpleFrontmatter`: when js-yaml throws, it returns nothing unless it finds both a `name:` and a `description:` line, and the skill is skipped",
        ),
        gate(
            "name-missing",
            "skillLoader.ts: js-yaml gives no string `name` and `parseSimpleFrontmatter` finds no `name:` line: the skill is skipped (a `name: 123` loads, read as text by the fallback)",
        ),
        gate(
            "description-missing",
            "skillLoader.ts: `typeof description !== 'string'`: the skill is skipped",
        ),
    ],
    severities: &[
        ("invalid-yaml", W),
        ("yaml-tab", W),
        ("duplicate-key", W),
        ("unknown-field", I),
        ("name-not-lowercase", I),
        ("name-invalid-chars", I),
        ("name-hyphen-edge", I),
        ("name-consecutive-hyphens", I),
        ("name-dir-mismatch", I),
        ("name-too-long", I),
        ("claude-code-field-type", OFF),
        ("name-reserved-word", OFF),
        ("xml-in-field", OFF),
        ("listing-cap", OFF),
    ],
};

/// Every profile, in the order the page shows them.
pub static ALL: [&Profile; 24] = [
    &SPEC,
    &CLAUDE_AI,
    &CLAUDE_CODE,
    &STRICT_YAML,
    &CODEX,
    &COPILOT,
    &COPILOT_CODE,
    &CURSOR,
    &GEMINI_CLI,
    &ROO_CODE,
    &KILO_CODE,
    &CLINE,
    &ZED,
    &CRUSH,
    &PI,
    &GOOSE,
    &OPENCODE,
    &LETTA_CODE,
    &AUGMENT,
    &COPILOT_CLI,
    &MISTRAL_VIBE,
    &KIMI_CLI,
    &QWEN_CODE,
    &OPENCLAW,
];

/// The clients grouped as a person looks for them (the spec and the readers that hold to it;
/// each vendor's products; editors; terminal agents), every profile of [`ALL`] in exactly one
/// group, in [`ALL`]'s order within each: the page's "Where it loads" shows them so.
pub static GROUPS: [(&str, &[&str]); 6] = [
    ("The spec", &["spec", "strict-yaml"]),
    ("Anthropic", &["claude-ai", "claude-code"]),
    ("OpenAI", &["codex"]),
    ("GitHub", &["copilot", "copilot-code", "copilot-cli"]),
    (
        "Editors",
        &["cursor", "roo-code", "kilo-code", "cline", "zed"],
    ),
    (
        "Terminal agents",
        &[
            "gemini-cli",
            "crush",
            "pi",
            "goose",
            "opencode",
            "letta-code",
            "augment",
            "mistral-vibe",
            "kimi-cli",
            "qwen-code",
            "openclaw",
        ],
    ),
];

/// The title of the group of [`GROUPS`] that holds the profile `key`.
pub fn group_of(key: &str) -> Option<&'static str> {
    GROUPS
        .iter()
        .find(|(_, keys)| keys.contains(&key))
        .map(|(title, _)| *title)
}

impl Profile {
    /// The profile's length of `text` (see [`LengthUnit`]).
    pub fn length(&self, text: &str) -> usize {
        self.length_unit.count(text)
    }
}

/// One installed skill, as a client's listing reads it (`catalog::InstalledSkill::from_analysis`
/// makes it; the analysis caches it per client).
#[derive(Debug, Clone)]
pub struct InstalledSkill {
    /// The name the client lists.
    pub name: String,
    /// The description, with `when_to_use` appended where the client appends it.
    pub description: String,
    /// The skill's folder name (the listing's path names it).
    pub dir: String,
}
