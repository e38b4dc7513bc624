//! The clients beyond the first eight, each from its loader's code where it is public (the
//! file and commit read are in `as_of`), else its documentation: VS Code's code (beside the
//! documented `copilot` profile), Roo Code, Kilo Code, Cline, Zed, Crush, pi, Goose, OpenCode,
//! Letta Code, Augment and the GitHub Copilot CLI. Where a client warns and loads
//! (pi, Zed's long descriptions), the rule is a warning under its profile, not a gate.

use super::{
    DuplicateKeys, FieldSet, Gate, I, LengthUnit, Listing, ListingCost, ListingEntry, ListingFill,
    NameCharset, OFF, Profile, SplitRule, TRAVERSAL_GATE, Utf8Reading, W, Wording, YamlDialect,
    gate,
};
use crate::frontmatter::Fence;

/// What every client that loads skills from folders refuses of an archive: it installs nothing
/// it cannot read or expand safely, and an entry that climbs out is an attack.
macro_rules! archive_gates {
    ($who:literal) => {
        [
            gate(
                "archive-unreadable",
                concat!($who, " loads skills from folders: an archive that cannot be read installs nothing"),
            ),
            gate(
                "archive-too-large",
                concat!($who, " loads skills from folders: an archive that cannot be expanded safely installs nothing, or part of a skill"),
            ),
            gate("path-outside-folder", TRAVERSAL_GATE),
        ]
    };
}

/// Rules none of these clients has: Claude Code's field types, Anthropic's reserved words and
/// angle brackets, Claude Code's per-entry listing cap.
const NOT_THEIRS: [(&str, Option<crate::diagnostic::Severity>); 4] = [
    ("claude-code-field-type", OFF),
    ("name-reserved-word", OFF),
    ("xml-in-field", OFF),
    ("listing-cap", OFF),
];

/// Roo Code's `loadSkillMetadata` (`SkillsManager.ts`), which Kilo Code's follows: gray-matter
/// (js-yaml), a name and description that are strings, the name equal to its folder and
/// `^[a-z0-9]+(?:-[a-z0-9]+)*$` in 1-64 UTF-16 units, the trimmed description 1-1024; any
/// failure is a `console.error` and the skill is skipped.
const ROO_GATES: [Gate; 24] = {
    let [a, b, c] = archive_gates!("Roo Code");
    [
        gate(
            "skill-nested",
            "SkillsManager.ts `scanSkillsDirectory`: only the direct children of a skills folder are read (`<skills>/<entry>/SKILL.md`)",
        ),
        gate(
            "missing-skill-md",
            "SkillsManager.ts: `if (!(await fileExists(skillMdPath))) return` (`path.join(skillDir, \"SKILL.md\")`)",
        ),
        gate(
            "skill-md-lowercase",
            "SkillsManager.ts reads `SKILL.md` only (`path.join(skillDir, \"SKILL.md\")`)",
        ),
        a,
        b,
        c,
        gate(
            "non-utf8-text",
            "SkillsManager.ts reads SKILL.md as UTF-8: a UTF-16 file has no `---` gray-matter sees, so `missing required 'name' field`",
        ),
        gate(
            "frontmatter-missing",
            "gray-matter gives no data: `Skill at … is missing required 'name' field`",
        ),
        gate(
            "frontmatter-unclosed",
            "gray-matter reads an unclosed block to the end as YAML (inferred from gray-matter, not run): the body does not parse, or gives no name",
        ),
        gate(
            "invalid-yaml",
            "js-yaml throws inside gray-matter: `Failed to load skill at …`",
        ),
        gate(
            "yaml-tab",
            "js-yaml refuses tabs in indentation: `Failed to load skill at …`",
        ),
        gate(
            "duplicate-key",
            "js-yaml refuses a duplicated mapping key: `Failed to load skill at …`",
        ),
        gate(
            "frontmatter-not-mapping",
            "SkillsManager.ts: `frontmatter.name` of a non-mapping is missing: `missing required 'name' field`",
        ),
        gate(
            "name-missing",
            "SkillsManager.ts: `missing required 'name' field`",
        ),
        gate(
            "name-not-string",
            "SkillsManager.ts: `typeof frontmatter.name !== \"string\"`: `missing required 'name' field`",
        ),
        gate(
            "name-too-long",
            "SkillsManager.ts: `name must be 1-64 characters` (`.length`, UTF-16 units)",
        ),
        gate(
            "name-not-lowercase",
            "SkillsManager.ts: `/^[a-z0-9]+(?:-[a-z0-9]+)*$/`: `must be lowercase letters/numbers/hyphens only`",
        ),
        gate(
            "name-invalid-chars",
            "SkillsManager.ts: `/^[a-z0-9]+(?:-[a-z0-9]+)*$/`: `must be lowercase letters/numbers/hyphens only`",
        ),
        gate(
            "name-hyphen-edge",
            "SkillsManager.ts: `no leading/trailing hyphen`",
        ),
        gate(
            "name-consecutive-hyphens",
            "SkillsManager.ts: `no consecutive hyphens`",
        ),
        gate(
            "name-dir-mismatch",
            "SkillsManager.ts: `Skill name \"…\" doesn't match directory \"…\"`",
        ),
        gate(
            "description-missing",
            "SkillsManager.ts: `missing required 'description' field`",
        ),
        gate(
            "description-empty",
            "SkillsManager.ts: the trimmed description must be 1-1024 characters (and a string)",
        ),
        gate(
            "description-too-long",
            "SkillsManager.ts: `invalid description length: must be 1-1024 characters` (`.length` of the trimmed text, UTF-16 units)",
        ),
    ]
};

/// Roo Code: `RooCodeInc/Roo-Code` `src/services/skills/SkillsManager.ts`.
pub static ROO_CODE: Profile = Profile {
    key: "roo-code",
    title: "Roo Code",
    short: "Roo Code",
    as_of: "RooCodeInc/Roo-Code src/services/skills/SkillsManager.ts at 18348889, read 2026-12-04",
    yaml: YamlDialect::JsYaml3,
    split: SplitRule::SpecText,
    fields: FieldSet::NameDescription,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf16Units,
    listing: None,
    source_url: "https://github.com/RooCodeInc/Roo-Code/blob/main/src/services/skills/SkillsManager.ts",
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
    gates: &ROO_GATES,
    severities: &[
        ("unknown-field", I),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
};

/// Kilo Code: a fork of Roo Code whose loader keeps Roo's checks, reading `.kilocode/skills`
/// and then `.claude/skills`.
pub static KILO_CODE: Profile = Profile {
    key: "kilo-code",
    title: "Kilo Code",
    short: "Kilo Code",
    as_of: "Kilo-Org/kilocode src/services/skills/SkillsManager.ts (Roo Code's checks, kilocode-legacy), as read for clients.md (December 2026), modelled by Roo Code's file at 18348889, re-read 2026-12-04; the main line, `@kilocode/cli` 7.8.1, is an OpenCode fork",
    source_url: "https://github.com/Kilo-Org/kilocode/blob/main/src/services/skills/SkillsManager.ts",
    other_versions: "Models the Roo Code fork's `SkillsManager.ts`, which lives on in `kilocode-legacy`. Kilo Code's main line is now an OpenCode fork (`packages/opencode/src/skill/index.ts`), for which the `opencode` profile's verdicts apply (10 of 34 test skills differ)",
    ..ROO_CODE
};

/// Cline: `cline/cline` `skills.ts` and `frontmatter.ts`. js-yaml fails open to `{}`, so every
/// frontmatter failure is reported as a missing name.
pub static CLINE: Profile = Profile {
    key: "cline",
    title: "Cline",
    short: "Cline",
    as_of: "cline/cline src/core/context/instructions/user-instructions/skills.ts at 1040805a and frontmatter.ts at 2aa69905, read 2026-12-04",
    yaml: YamlDialect::JsYaml4,
    split: SplitRule::SpecText,
    fields: FieldSet::NameDescription,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf16Units,
    listing: None,
    source_url: "https://github.com/cline/cline/blob/main/src/core/context/instructions/user-instructions/skills.ts",
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
    other_versions: "Models the extension's loader (`src/core/context/instructions/user-instructions/skills.ts`). Cline's app now lists disk skills through its SDK (`sdk/packages/core/src/extensions/config/user-instruction-config-loader.ts`): there the name falls back to the folder's, the description is optional, and an empty body is refused (12 of 34 test skills get another verdict)",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &{
        let [a, b, c] = archive_gates!("Cline");
        [
            gate(
                "skill-nested",
                "skills.ts `scanSkillsDirectory`: only the direct children of a skills folder are read",
            ),
            gate(
                "missing-skill-md",
                "skills.ts: `if (!(await fileExistsAtPath(skillMdPath))) return null`",
            ),
            gate(
                "skill-md-lowercase",
                "skills.ts reads `SKILL.md` only (`path.join(skillDir, \"SKILL.md\")`)",
            ),
            a,
            b,
            c,
            gate(
                "non-utf8-text",
                "skills.ts reads SKILL.md as UTF-8: a UTF-16 file has no `---` line, so `missing required 'name' field`",
            ),
            gate(
                "bom",
                "frontmatter.ts: `/^---\\r?\\n/` does not match after a BOM: data `{}`, so `missing required 'name' field`",
            ),
            gate(
                "frontmatter-opening-space",
                "frontmatter.ts `parseYamlFrontmatter`: the regex opens `^---\\r?\\n`, so `--- ` is no frontmatter: no name, and the skill is skipped",
            ),
            gate(
                "frontmatter-missing",
                "frontmatter.ts returns data `{}`: `missing required 'name' field`",
            ),
            gate(
                "frontmatter-unclosed",
                "frontmatter.ts returns data `{}`: `missing required 'name' field`",
            ),
            gate(
                "invalid-yaml",
                "frontmatter.ts fails open: js-yaml's error goes to the log and data is `{}`, so Cline says `missing required 'name' field` (the wrong cause)",
            ),
            gate(
                "yaml-tab",
                "js-yaml refuses tabs in indentation; Cline then says `missing required 'name' field`",
            ),
            gate(
                "duplicate-key",
                "js-yaml refuses a duplicated key; Cline then says `missing required 'name' field`",
            ),
            gate(
                "frontmatter-not-mapping",
                "skills.ts: a non-mapping has no `name`: `missing required 'name' field`",
            ),
            gate("name-missing", "skills.ts: `missing required 'name' field`"),
            gate(
                "name-not-string",
                "skills.ts: `typeof frontmatter.name !== \"string\"`: `missing required 'name' field`",
            ),
            gate(
                "name-dir-mismatch",
                "skills.ts: `Skill name \"…\" doesn't match directory \"…\"`, and the skill is skipped",
            ),
            gate(
                "description-missing",
                "skills.ts: `missing required 'description' field`",
            ),
            gate(
                "description-empty",
                "skills.ts: `!frontmatter.description || typeof … !== \"string\"`: `missing required 'description' field`",
            ),
        ]
    },
    severities: &[
        ("unknown-field", I),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
};

/// Zed's catalog (`MAX_SKILL_DESCRIPTIONS_SIZE`): 50 KB of names and descriptions in the
/// system prompt, filled in order; the rest are dropped with a warning.
pub const ZED_LISTING: Listing = Listing {
    percent_of_window: 0,
    cost: ListingCost::FixedBytes(50 * 1024),
    unknown_window_chars: None,
    entry: ListingEntry::NameDescription,
    description_cap: None,
    omits_skills: true,
    settable: false,
    fill: ListingFill::WholeInOrder,
    names_by_folder: false,
    description_from_body: false,
    folds_synced_names: false,
};

/// Zed: `zed-industries/zed` `crates/agent_skills/agent_skills.rs`. Names are checked in
/// bytes against an ASCII set; a description over 1,024 bytes loads with a warning (zed#58356).
pub static ZED: Profile = Profile {
    key: "zed",
    title: "Zed",
    short: "Zed",
    as_of: "zed-industries/zed crates/agent_skills/agent_skills.rs at 007ed5ce, with PR #58356 (long descriptions warn, 2026-06-02) and PR #63766 (lengths in characters, 2026-09), read 2026-12-04; the 100 KiB read limit and serde_yaml_ng's plain scalars per shared/reference/clients.md (2026-12)",
    yaml: YamlDialect::SerdeYamlNg,
    split: SplitRule::Fences {
        open: Fence::Exact,
        close: Fence::Exact,
        blank_lines_first: true,
    },
    fields: FieldSet::Zed,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    // Characters since PR #63766 (2026-09); names are ASCII, so bytes and characters agree.
    length_unit: LengthUnit::CodePoints,
    listing: Some(ZED_LISTING),
    source_url: "https://github.com/zed-industries/zed/blob/main/crates/agent_skills/agent_skills.rs",
    on_bad_yaml: None,
    scans_inside_skills: false,
    // A SKILL.md over 100 KiB is refused before it is read.
    skill_md_max_bytes: Some(100 * 1024),
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
    other_versions: "Models Zed after PRs #57466 and #57510 (2026-05-22), #58356 (2026-06-02) and #63766 (2026-09). Earlier releases read SKILL.md in 4 KiB chunks, which broke some files whose multi-byte characters crossed a chunk (zed#57463); before #58356 an over-long description was refused rather than warned about; before #63766 lengths were counted in bytes, not characters. The 100 KiB limit holds in every release",
    // serde's derive of `SkillMetadata`: a repeated field is `duplicate field`; other keys
    // are ignored.
    duplicate_keys: DuplicateKeys::Fields(&["name", "description", "disable-model-invocation"]),
    gates: &{
        let [a, b, c] = archive_gates!("Zed");
        [
            gate(
                "skill-nested",
                "agent_skills.rs `find_skill_files`: every `<skills_root>/<name>/SKILL.md` directly under the root; discovery is one level deep",
            ),
            gate(
                "missing-skill-md",
                "agent_skills.rs: a skill is `<name>/SKILL.md` (`SKILL_FILE_NAME`)",
            ),
            gate(
                "skill-md-lowercase",
                "agent_skills.rs: a skill is `<name>/SKILL.md` (`SKILL_FILE_NAME`)",
            ),
            a,
            b,
            c,
            gate(
                "skill-md-too-large",
                "agent_skills.rs: a SKILL.md over 100 KiB is refused before it is read",
            ),
            gate(
                "non-utf8-text",
                "agent_skills.rs reads SKILL.md into a Rust `String`: other encodings fail (`Failed to read file`) or show no `---`",
            ),
            gate(
                "bom",
                "agent_skills.rs: `trim_start` keeps a BOM (it is not whitespace): `SKILL.md must start with YAML frontmatter (---)`",
            ),
            gate(
                "frontmatter-missing",
                "agent_skills.rs: `SKILL.md must start with YAML frontmatter (---)`",
            ),
            gate(
                "frontmatter-unclosed",
                "agent_skills.rs: `SKILL.md missing closing frontmatter delimiter (---)`",
            ),
            gate(
                "invalid-yaml",
                "agent_skills.rs: serde_yaml_ng refuses it: `Invalid YAML frontmatter`",
            ),
            gate(
                "yaml-tab",
                "serde_yaml_ng (libyaml) refuses tabs in indentation: `Invalid YAML frontmatter`",
            ),
            gate(
                "duplicate-key",
                "serde refuses a repeated field of `SkillMetadata`: `Invalid YAML frontmatter`",
            ),
            gate(
                "frontmatter-not-mapping",
                "agent_skills.rs: the frontmatter deserializes into `SkillMetadata`: `Invalid YAML frontmatter`",
            ),
            gate(
                "name-missing",
                "agent_skills.rs: `SkillMetadata.name` is required: `missing field `name``",
            ),
            gate(
                "name-not-string",
                "agent_skills.rs: `name: String`: a null is `invalid type` (serde_yaml_ng reads a plain scalar such as `123` as the string), an empty one `Skill name cannot be empty`",
            ),
            gate(
                "name-too-long",
                "agent_skills.rs `validate_name`: over 64 (an ASCII name: bytes and characters agree): `Skill name must be at most 64 characters`",
            ),
            gate(
                "name-not-lowercase",
                "agent_skills.rs `validate_name`: `Skill name must contain only lowercase letters, numbers, and hyphens`",
            ),
            gate(
                "name-invalid-chars",
                "agent_skills.rs `validate_name`: `Skill name must contain only lowercase letters, numbers, and hyphens`",
            ),
            gate(
                "description-missing",
                "agent_skills.rs: `SkillMetadata.description` is required: `missing field `description``",
            ),
            gate(
                "description-empty",
                "agent_skills.rs `validate_description`: `Skill description cannot be empty`",
            ),
        ]
    },
    severities: &[
        // zed.dev/docs/ai/skills refuses these; the loader at 007ed5ce checks neither.
        ("name-hyphen-edge", W),
        ("name-consecutive-hyphens", W),
        // The docs say `name` matches its folder; the loader does not compare them.
        ("name-dir-mismatch", W),
        // PR #58356: over 1,024 loads, with a warning in the thread's footer (characters since
        // PR #63766).
        ("description-too-long", W),
        ("unknown-field", I),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
};

/// Crush: `charmbracelet/crush` `internal/skills/skills.go`. yaml.v3 into a typed struct, a
/// name of ASCII letters (either case) and digits matched to its folder without regard to
/// case, lengths in bytes; every `SKILL.md` below a skills path is a skill.
pub static CRUSH: Profile = Profile {
    key: "crush",
    title: "Crush",
    short: "Crush",
    as_of: "charmbracelet/crush internal/skills/skills.go at 1a71e7f7, read 2026-12-04",
    yaml: YamlDialect::PyYaml,
    split: SplitRule::Fences {
        open: Fence::Exact,
        close: Fence::Exact,
        blank_lines_first: true,
    },
    fields: FieldSet::Crush,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf8Bytes,
    listing: None,
    source_url: "https://github.com/charmbracelet/crush/blob/main/internal/skills/skills.go",
    on_bad_yaml: None,
    // `DiscoverWithStates`: fastwalk of every folder below a skills path, each `SKILL.md` it
    // meets parsed, inside a skill's folder too.
    scans_inside_skills: true,
    skill_md_max_bytes: None,
    name_dir_fold_case: true,
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
    gates: &{
        let [a, b, c] = archive_gates!("Crush");
        [
            gate(
                "missing-skill-md",
                "skills.go: a skill is a file named `SKILL.md` (`SkillFileName`)",
            ),
            gate(
                "skill-md-lowercase",
                "skills.go: `d.Name() != SkillFileName` skips any other spelling",
            ),
            a,
            b,
            c,
            gate(
                "non-utf8-text",
                "skills.go splits the text on `\\n` and trims lines: a UTF-16 file has no `---` line (`no YAML frontmatter found`), and yaml.v3 refuses invalid UTF-8",
            ),
            gate(
                "frontmatter-missing",
                "skills.go `SplitFrontmatter`: `no YAML frontmatter found`",
            ),
            gate(
                "frontmatter-unclosed",
                "skills.go `SplitFrontmatter`: `unclosed frontmatter`",
            ),
            gate(
                "invalid-yaml",
                "skills.go: yaml.v3 refuses it: `parsing frontmatter: …`",
            ),
            gate(
                "yaml-tab",
                "yaml.v3 refuses tabs in indentation: `parsing frontmatter: …`",
            ),
            gate(
                "duplicate-key",
                "yaml.v3 refuses a key already defined in the mapping: `parsing frontmatter: …`",
            ),
            gate(
                "frontmatter-not-mapping",
                "skills.go: the frontmatter unmarshals into `Skill`: `parsing frontmatter: …`",
            ),
            gate(
                "metadata-not-mapping",
                "skills.go: `Metadata map[string]string`: a string or a list cannot be unmarshalled into it",
            ),
            gate(
                "metadata-not-string-map",
                "skills.go: `Metadata map[string]string`: a nested mapping or list cannot be unmarshalled into a string",
            ),
            gate("name-missing", "skills.go `Validate`: `name is required`"),
            gate(
                "name-too-long",
                "skills.go `Validate`: `len(s.Name) > MaxNameLength` (UTF-8 bytes): `name exceeds 64 characters`",
            ),
            gate(
                "name-invalid-chars",
                "skills.go: `^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$`: `name must be alphanumeric with hyphens`",
            ),
            gate(
                "name-hyphen-edge",
                "skills.go: `^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$`: `no leading/trailing/consecutive hyphens`",
            ),
            gate(
                "name-consecutive-hyphens",
                "skills.go: `^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$`: `no leading/trailing/consecutive hyphens`",
            ),
            gate(
                "name-dir-mismatch",
                "skills.go: `strings.EqualFold(filepath.Base(s.Path), s.Name)`: `name … must match directory …` (case aside)",
            ),
            gate(
                "description-missing",
                "skills.go `Validate`: `description is required`",
            ),
            gate(
                "description-empty",
                "skills.go `Validate`: `description is required`",
            ),
            gate(
                "description-too-long",
                "skills.go `Validate`: `len(s.Description) > 1024` (UTF-8 bytes): `description exceeds 1024 characters`",
            ),
            gate(
                "compatibility-too-long",
                "skills.go `Validate`: `len(s.Compatibility) > 500` (UTF-8 bytes): `compatibility exceeds 500 characters`",
            ),
        ]
    },
    severities: &[
        // The pattern takes uppercase letters: `MySkill` loads.
        ("name-not-lowercase", I),
        ("unknown-field", I),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
};

/// pi (`badlogic/pi-mono` `packages/coding-agent/src/core/skills.ts`): the specification's rules
/// as warnings; only a missing or blank description, or a file it cannot parse, skips a skill.
pub static PI: Profile = Profile {
    key: "pi",
    title: "pi (coding agent)",
    short: "pi",
    as_of: "badlogic/pi-mono packages/coding-agent/src/core/skills.ts at 277544fd and src/utils/frontmatter.ts at 5c3131cc, read 2026-12-06; held to @mariozechner/pi-coding-agent 0.73.1's own loader (tests/client_oracles.rs)",
    // frontmatter.ts parses with the `yaml` package's default: the YAML 1.2 core schema.
    yaml: YamlDialect::YamlJs,
    split: SplitRule::Fences {
        open: Fence::Prefix,
        close: Fence::Prefix,
        blank_lines_first: false,
    },
    fields: FieldSet::Pi,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    // `const name = frontmatter.name || parentDirName`.
    name_required: false,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf16Units,
    listing: None,
    source_url: "https://github.com/badlogic/pi-mono/blob/main/packages/coding-agent/src/core/skills.ts",
    on_bad_yaml: Some(
        "pi skips the skill: `loadSkillFromFile` catches the `yaml` parser's error and reports it as a warning",
    ),
    // `loadSkillsFromDirInternal`: "if a directory contains SKILL.md, treat it as a skill root
    // and do not recurse further" (pi 0.73.1, its own loader run in tests/client_oracles.rs).
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
    oracle: Some("@mariozechner/pi-coding-agent 0.73.1"),
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &{
        let [a, b, c] = archive_gates!("pi");
        [
            gate(
                "skill-nested",
                "skills.ts `loadSkillsFromDirInternal`: a folder that holds `SKILL.md` is a skill root, and its subfolders are not searched",
            ),
            gate(
                "missing-skill-md",
                "skills.ts: below a skills folder's root, only files named `SKILL.md` are skills",
            ),
            gate(
                "skill-md-lowercase",
                "skills.ts: `entry.name === \"SKILL.md\"`",
            ),
            a,
            b,
            c,
            gate(
                "bom",
                "frontmatter.ts: `readFileSync(path, \"utf-8\")` keeps the BOM, so `normalized.startsWith(\"---\")` is false: no frontmatter, no description, and the skill is skipped (pi 0.73.1)",
            ),
            gate(
                "name-not-string",
                "skills.ts `validateName`: a name that is not a string and not empty (a number, `true`, a list, a map) reaches `name.startsWith`, which throws; `loadSkillFromFile` catches it and skips the skill. An empty one (`name:`, `false`, `0`) gives way to the folder's name",
            ),
            gate(
                "non-utf8-text",
                "skills.ts reads SKILL.md as UTF-8: a UTF-16 file has no frontmatter, so no description, and the skill is skipped",
            ),
            gate(
                "frontmatter-missing",
                "skills.ts: without frontmatter there is no description: `description is required`, and the skill is skipped",
            ),
            gate(
                "frontmatter-unclosed",
                "skills.ts: without a closed frontmatter there is no description: `description is required`, and the skill is skipped",
            ),
            gate(
                "invalid-yaml",
                "skills.ts `loadSkillFromFile`: the parser's error is caught, reported as a warning, and the skill is skipped",
            ),
            gate(
                "duplicate-key",
                "frontmatter.ts: `yaml`'s `parse` refuses a repeated key (`uniqueKeys`, its default); `loadSkillFromFile` catches the error and skips the skill",
            ),
            gate(
                "frontmatter-not-mapping",
                "skills.ts: a frontmatter that is not a mapping has no description: the skill is skipped",
            ),
            gate(
                "description-missing",
                "skills.ts: `description is required`; \"unless description is completely missing\" the skill still loads",
            ),
            gate(
                "description-empty",
                "skills.ts: `!description || description.trim() === \"\"`: skipped",
            ),
        ]
    },
    severities: &[
        // Every other finding of its `validateName`, `validateDescription` and
        // `validateFrontmatterFields` is a warning and the skill loads.
        ("unknown-field", W),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
};

/// Goose (`block/goose` `crates/goose/src/skills`): the frontmatter ends at the first `---`
/// anywhere (`content.split("---")`), a name without `/` is all it needs, and a description is
/// optional.
pub static GOOSE: Profile = Profile {
    key: "goose",
    title: "Goose",
    short: "Goose",
    as_of: "block/goose crates/goose/src/skills/mod.rs at 013ab848 (`SkillFrontmatter`, `parse_skill_content`) and src/sources/mod.rs, read 2026-12-06",
    yaml: YamlDialect::SerdeYaml,
    split: SplitRule::SkillsRef,
    fields: FieldSet::Goose,
    // `parse_skill_content`: a name with `/` is skipped; nothing else is checked.
    name_charset: NameCharset::NoSlash,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::CodePoints,
    listing: None,
    source_url: "https://github.com/block/goose/blob/main/crates/goose/src/skills/mod.rs",
    on_bad_yaml: None,
    // A recursive walk: every `SKILL.md` below a skills folder is a skill.
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
    // serde's derive of `SkillFrontmatter`: a repeated field is `duplicate field`.
    duplicate_keys: DuplicateKeys::Fields(&["name", "description", "metadata"]),
    gates: &{
        let [a, b, c] = archive_gates!("Goose");
        [
            gate(
                "missing-skill-md",
                "skills/mod.rs: a skill is a `SKILL.md` found by its walk",
            ),
            gate(
                "skill-md-lowercase",
                "skills/mod.rs: a skill is a `SKILL.md` found by its walk",
            ),
            a,
            b,
            c,
            gate(
                "non-utf8-text",
                "skills/mod.rs reads SKILL.md into a Rust `String`: other encodings are not read",
            ),
            gate(
                "frontmatter-missing",
                "skills/mod.rs: `content.split(\"---\")` finds no frontmatter: the skill is skipped",
            ),
            gate(
                "frontmatter-unclosed",
                "skills/mod.rs: `content.split(\"---\")` finds no closing `---`: the skill is skipped",
            ),
            gate(
                "invalid-yaml",
                "skills/mod.rs: a YAML error is a warning in the log and the skill is skipped",
            ),
            gate(
                "yaml-tab",
                "serde_yaml refuses tabs in indentation: a warning, and the skill is skipped",
            ),
            gate(
                "frontmatter-not-mapping",
                "skills/mod.rs: the frontmatter deserializes into its metadata struct: skipped",
            ),
            gate(
                "name-missing",
                "skills/mod.rs `parse_skill_content`: `is missing a required 'name' in frontmatter, skipping`",
            ),
            gate(
                "name-not-string",
                "skills/mod.rs: `name: Option<String>`, an empty one skipped as missing (serde_yaml reads a plain scalar such as `123` as the string; a list or a map fails the parse)",
            ),
            gate(
                "name-invalid-chars",
                "skills/mod.rs `parse_skill_content`: `Skill name '…' contains '/', skipping`",
            ),
            gate(
                "metadata-not-mapping",
                "skills/mod.rs: `metadata: HashMap<String, Value>`: a list or a scalar fails the parse (`Failed to parse skill frontmatter`), and the skill is skipped",
            ),
        ]
    },
    severities: &[
        // "optional, defaults to empty".
        ("description-missing", I),
        ("description-empty", I),
        ("unknown-field", I),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
};

/// OpenCode (`anomalyco/opencode` `src/skill/index.ts`, `src/config/markdown.ts`):
/// gray-matter, and on a YAML error its `fallbackSanitization` (an unquoted top-level
/// `key: a: b` becomes a block scalar) and a second parse; zod then wants `name` and
/// `description` as strings, and nothing else.
pub static OPENCODE: Profile = Profile {
    key: "opencode",
    title: "OpenCode",
    short: "OpenCode",
    as_of: "anomalyco/opencode packages/opencode/src/skill/index.ts at 048f74f4 and src/config/markdown.ts at 0a8a0ed8, read 2026-12-04",
    yaml: YamlDialect::JsYaml3,
    split: SplitRule::SpecText,
    fields: FieldSet::NameDescription,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf16Units,
    listing: None,
    source_url: "https://github.com/anomalyco/opencode/blob/dev/packages/opencode/src/skill/index.ts",
    on_bad_yaml: None,
    // `skills/**/SKILL.md`: any depth below a skills folder, inside skills too.
    scans_inside_skills: true,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: true,
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
    gates: &{
        let [a, b, c] = archive_gates!("OpenCode");
        [
            gate(
                "missing-skill-md",
                "index.ts: a skill is a file matching `skills/**/SKILL.md`",
            ),
            gate(
                "skill-md-lowercase",
                "index.ts: a skill is a file matching `skills/**/SKILL.md`",
            ),
            a,
            b,
            c,
            gate(
                "non-utf8-text",
                "index.ts reads SKILL.md as text: a UTF-16 file has no `---` gray-matter sees, so zod finds no `name`",
            ),
            gate(
                "frontmatter-missing",
                "index.ts: gray-matter gives no data and zod's `name: z.string()` fails: the skill is not added",
            ),
            gate(
                "frontmatter-unclosed",
                "index.ts: gray-matter reads an unclosed block to the end as YAML (inferred from gray-matter, not run): no usable `name`",
            ),
            gate(
                "invalid-yaml",
                "markdown.ts: js-yaml fails, `fallbackSanitization` re-quotes colon values and parses again; when that fails too: `Failed to parse YAML frontmatter`",
            ),
            gate(
                "yaml-tab",
                "js-yaml refuses tabs in indentation, before and after the fallback: `Failed to parse YAML frontmatter`",
            ),
            gate(
                "duplicate-key",
                "js-yaml refuses a duplicated key, before and after the fallback: `Failed to parse YAML frontmatter`",
            ),
            gate(
                "frontmatter-not-mapping",
                "index.ts: zod's `Info.pick({ name, description })` fails on a non-mapping",
            ),
            gate("name-missing", "index.ts: zod `name: z.string()`"),
            gate("name-not-string", "index.ts: zod `name: z.string()`"),
            gate(
                "description-missing",
                "index.ts: zod `description: z.string()`",
            ),
            gate(
                "description-not-string",
                "index.ts: zod `description: z.string()` refuses null and non-strings (an empty string passes: `description-empty` is a warning here)",
            ),
        ]
    },
    severities: &[
        // zod's `z.string()` takes `""`: the skill loads, with nothing to route on.
        ("description-empty", W),
        ("unknown-field", I),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
};

/// Letta Code (`letta-ai/letta-code` `src/agent/skills.ts`, `src/utils/frontmatter.ts`): it
/// reads frontmatter line by line, not as YAML, and never refuses a skill it finds: the id is
/// the folder's path, a missing name or description falls back (the title or folder; the
/// body's first paragraph). What can go wrong is what it lists: `line-read-description`.
pub static LETTA_CODE: Profile = Profile {
    key: "letta-code",
    title: "Letta Code",
    short: "Letta Code",
    as_of: "letta-ai/letta-code src/agent/skills.ts at 04f7dd41 and src/utils/frontmatter.ts at 29f4fde2, read 2026-12-04",
    yaml: YamlDialect::PyYaml,
    split: SplitRule::SpecText,
    fields: FieldSet::Spec,
    name_charset: NameCharset::UnicodeAlnum,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: false,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf16Units,
    listing: None,
    source_url: "https://github.com/letta-ai/letta-code/blob/main/src/agent/skills.ts",
    on_bad_yaml: Some(
        "Letta Code does not parse YAML: it reads `key: value` lines and loads the skill",
    ),
    // `findSkillFiles` recurses into every folder; the id is the folder's path.
    scans_inside_skills: true,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: true,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Lossy,
    replay: None,
    oracle: None,
    other_versions: "Newer releases also read `.agents/skills` in the project (clients.md, turn 5); the folders `skillpg where` lists are the ones at the commit read",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &{
        let [a, b, c] = archive_gates!("Letta Code");
        [
            gate(
                "missing-skill-md",
                "skills.ts: a skill is a file named `SKILL.MD` in any case (`entry.name.toUpperCase() === \"SKILL.MD\"`)",
            ),
            a,
            b,
            c,
        ]
    },
    severities: &[
        // A line reader: YAML's refusals and types mean nothing to it.
        ("invalid-yaml", I),
        ("yaml-flow-collection", OFF),
        ("yaml-anchor-or-tag", OFF),
        ("yaml-tab", OFF),
        ("duplicate-key", OFF),
        ("frontmatter-not-mapping", OFF),
        ("non-string-scalar", OFF),
        ("yaml-comment-in-value", OFF),
        // It lists the id (the folder's path); a name is a display label, with fallbacks.
        ("name-missing", OFF),
        ("name-not-string", OFF),
        ("name-too-long", OFF),
        ("name-not-lowercase", OFF),
        ("name-invalid-chars", OFF),
        ("name-hyphen-edge", OFF),
        ("name-consecutive-hyphens", OFF),
        ("name-dir-mismatch", OFF),
        ("description-missing", I),
        ("description-too-long", OFF),
        ("skill-md-lowercase", OFF),
        ("unknown-field", OFF),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
};

/// Augment (Auggie): its documentation's requirements (the loader is not public).
pub static AUGMENT: Profile = Profile {
    key: "augment",
    title: "Augment (Auggie)",
    short: "Augment",
    as_of: "docs.augmentcode.com/cli/skills for Auggie, `@augmentcode/auggie` 0.36.0 the npm release then (shared/reference/clients.md), read 2026-12-04 (documentation only; the loader is not public)",
    yaml: YamlDialect::PyYaml,
    split: SplitRule::SpecText,
    fields: FieldSet::Spec,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::CodePoints,
    listing: None,
    source_url: "https://docs.augmentcode.com/cli/skills",
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
    gates: &{
        let [a, b, c] = archive_gates!("Augment");
        [
            gate(
                "skill-nested",
                "Augment docs: a skill is `<skills folder>/<name>/SKILL.md`",
            ),
            gate(
                "missing-skill-md",
                "Augment docs: each skill is a folder with a `SKILL.md`",
            ),
            a,
            b,
            c,
            gate(
                "non-utf8-text",
                "Augment docs require frontmatter; a UTF-16 file has no `---` line a UTF-8 reader sees (inferred: the loader is not public)",
            ),
            gate(
                "frontmatter-missing",
                "Augment docs: `name` and `description` are required frontmatter",
            ),
            gate(
                "frontmatter-unclosed",
                "Augment docs: `name` and `description` are required frontmatter",
            ),
            gate(
                "invalid-yaml",
                "Augment docs: `name` and `description` are required frontmatter; unreadable YAML gives none",
            ),
            gate(
                "frontmatter-not-mapping",
                "Augment docs: `name` and `description` are required frontmatter",
            ),
            gate("name-missing", "Augment docs: `name` is required"),
            gate("name-not-string", "Augment docs: `name` is required"),
            gate("name-too-long", "Augment docs: `name` is 1-64 characters"),
            gate(
                "name-not-lowercase",
                "Augment docs: `name` is lowercase alphanumerics and hyphens",
            ),
            gate(
                "name-invalid-chars",
                "Augment docs: `name` is lowercase alphanumerics and hyphens",
            ),
            gate(
                "name-dir-mismatch",
                "Augment docs: `name` matches the skill's folder",
            ),
            gate(
                "description-missing",
                "Augment docs: `description` is required",
            ),
            gate(
                "description-empty",
                "Augment docs: `description` is 1-1024 characters",
            ),
            gate(
                "description-too-long",
                "Augment docs: `description` is 1-1024 characters",
            ),
        ]
    },
    severities: &[NOT_THEIRS[0], NOT_THEIRS[1], NOT_THEIRS[2], NOT_THEIRS[3]],
};

/// The Copilot CLI's catalog: 15,000 characters, skills rendered in the order they arrive until
/// the next does not fit ("Showing 25 of 201 skills").
pub const COPILOT_CLI_LISTING: Listing = Listing {
    percent_of_window: 0,
    cost: ListingCost::FixedChars(15_000),
    unknown_window_chars: None,
    entry: ListingEntry::NameDescription,
    description_cap: None,
    omits_skills: true,
    settable: false,
    fill: ListingFill::WholeInOrder,
    names_by_folder: false,
    description_from_body: false,
    folds_synced_names: false,
};

/// The GitHub Copilot CLI: Copilot's documented frontmatter rules, with its catalog budget.
pub static COPILOT_CLI: Profile = Profile {
    key: "copilot-cli",
    title: "GitHub Copilot CLI",
    short: "Copilot CLI",
    as_of: "github/copilot-cli#2314 and microsoft/GitHub-Copilot-for-Azure#1138 (the 15,000-character catalog), with Copilot's documented rules, for `@github/copilot` 1.0.102 the npm release then (a native binary, not run; shared/reference/clients.md), read 2026-12-04",
    listing: Some(COPILOT_CLI_LISTING),
    source_url: "https://github.com/github/copilot-cli/issues/2314",
    ..super::COPILOT
};

/// GitHub Copilot in VS Code **as its code loads skills** (`computeSkillDiscoveryInfo`), beside
/// `copilot`, which follows its documentation: a missing name, or one unlike its folder, loads
/// under the folder's name; an over-long name is cut (`truncateAgentSkillName`); a missing
/// description loads without one. Only a file it cannot parse, or one it does not find, is
/// skipped; a second skill of the same name is skipped too.
pub static COPILOT_CODE: Profile = Profile {
    key: "copilot-code",
    title: "GitHub Copilot / VS Code (its code)",
    short: "VS Code (code)",
    as_of: "microsoft/vscode src/vs/workbench/contrib/chat/common/promptSyntax/service/promptsServiceImpl.ts (`computeSkillDiscoveryInfo`) at 00eacc90, read 2026-12-04",
    source_url: "https://github.com/microsoft/vscode/blob/main/src/vs/workbench/contrib/chat/common/promptSyntax/service/promptsServiceImpl.ts",
    gates: &{
        let [a, b, c] = archive_gates!("VS Code");
        [
            gate(
                "skill-nested",
                "promptFilesLocator.ts `findAgentSkillsInFolder`: `*/SKILL.md` only: a `SKILL.md` inside a skill's folder is not found",
            ),
            gate(
                "missing-skill-md",
                "promptFilesLocator.ts `findAgentSkillsInFolder`: `*/SKILL.md` only",
            ),
            a,
            b,
            c,
        ]
    },
    severities: &[
        // `if (!name) name = folderName`; a name unlike its folder: `using folder name`.
        ("name-missing", I),
        ("name-dir-mismatch", I),
        ("name-too-long", I),
        ("name-not-lowercase", W),
        ("name-invalid-chars", W),
        ("description-missing", W),
        ("description-empty", W),
        ("description-too-long", W),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
    ..super::COPILOT
};

/// Mistral Vibe (`mistralai/mistral-vibe` `vibe/core/skills/`): `parse_skill_markdown` strips a
/// BOM, splits on lines of three or more dashes and reads the frontmatter with PyYAML's
/// `safe_load`; pydantic's `SkillMetadata` then wants the specification's name and description
/// rules (but not the folder's name) and typed optional fields. Any exception skips the skill.
pub static MISTRAL_VIBE: Profile = Profile {
    key: "mistral-vibe",
    title: "Mistral Vibe",
    short: "Vibe",
    as_of: "mistral-vibe 3.0.3 (PyPI): vibe/core/skills/parser.py, models.py and manager.py, read 2026-12-06; held to its own loader (tests/client_oracles.rs)",
    // PyYAML's safe_load: YAML 1.1 types, the last repeated key wins.
    yaml: YamlDialect::PyYaml,
    split: SplitRule::DASH_LINES,
    fields: FieldSet::Vibe,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    // pydantic counts a `str`'s length in code points.
    length_unit: LengthUnit::CodePoints,
    listing: None,
    source_url: "https://github.com/mistralai/mistral-vibe/blob/main/vibe/core/skills/models.py",
    on_bad_yaml: None,
    scans_inside_skills: false,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: false,
    description_fallback: None,
    utf8: Utf8Reading::Sniffs,
    replay: None,
    oracle: Some("mistral-vibe 3.0.3"),
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &{
        let [a, b, c] = archive_gates!("Mistral Vibe");
        [
            gate(
                "skill-nested",
                "manager.py `_discover_skills_in_dir`: only `<skills>/<entry>/SKILL.md` of each direct subfolder",
            ),
            gate(
                "missing-skill-md",
                "manager.py: `skill_file = skill_dir / \"SKILL.md\"`; `if not skill_file.is_file(): continue`",
            ),
            gate("skill-md-lowercase", "manager.py looks for `SKILL.md` only"),
            a,
            b,
            c,
            gate(
                "frontmatter-missing",
                "parser.py: `Missing or invalid YAML frontmatter (metadata section must start and end with ---)`",
            ),
            gate(
                "frontmatter-unclosed",
                "parser.py: without a closing dash line, `Missing or invalid YAML frontmatter`",
            ),
            gate(
                "invalid-yaml",
                "parser.py: `Invalid YAML frontmatter` (`yaml.safe_load` raised)",
            ),
            gate(
                "yaml-tab",
                "PyYAML refuses a tab where indentation goes: `Invalid YAML frontmatter`",
            ),
            gate(
                "frontmatter-not-mapping",
                "parser.py: `YAML frontmatter must be a mapping/dictionary`",
            ),
            gate(
                "name-missing",
                "models.py `SkillMetadata.name`: `Field required`",
            ),
            gate(
                "name-not-string",
                "models.py `name: str`: pydantic wants a string (`Input should be a valid string`)",
            ),
            gate("name-too-long", "models.py: `max_length=64` (code points)"),
            gate(
                "name-not-lowercase",
                "models.py: `pattern=r\"^[a-z0-9]+(-[a-z0-9]+)*$\"`",
            ),
            gate(
                "name-invalid-chars",
                "models.py: `pattern=r\"^[a-z0-9]+(-[a-z0-9]+)*$\"`",
            ),
            gate(
                "name-hyphen-edge",
                "models.py: `pattern=r\"^[a-z0-9]+(-[a-z0-9]+)*$\"`",
            ),
            gate(
                "name-consecutive-hyphens",
                "models.py: `pattern=r\"^[a-z0-9]+(-[a-z0-9]+)*$\"`",
            ),
            gate(
                "description-missing",
                "models.py `SkillMetadata.description`: `Field required`",
            ),
            gate(
                "description-empty",
                "models.py `description: str`, `min_length=1`: a string of at least one code point",
            ),
            gate(
                "description-too-long",
                "models.py: `max_length=1024` (code points)",
            ),
            gate(
                "metadata-not-mapping",
                "models.py `normalize_metadata`: `v.items()` of a value that is not a mapping raises, and `_try_load_skill` skips the skill",
            ),
            gate(
                "compatibility-not-string",
                "models.py `compatibility: str | None`: pydantic wants a string",
            ),
            gate(
                "license-not-string",
                "models.py `license: str | None`: pydantic wants a string (`Input should be a valid string`)",
            ),
        ]
    },
    severities: &[
        // manager.py only logs `Skill name '…' doesn't match directory name '…'`.
        ("name-dir-mismatch", W),
        ("unknown-field", I),
        NOT_THEIRS[0],
        NOT_THEIRS[1],
        NOT_THEIRS[2],
        NOT_THEIRS[3],
    ],
};

/// Kimi Code CLI (`MoonshotAI/kimi-cli` `src/kimi_cli/skill/`): it refuses almost nothing. No
/// frontmatter, an unclosed one, or no name or description is a skill named after its folder,
/// described by the body's first line; only YAML that does not parse, a name or description
/// that is there and not a string, a `type` other than `standard` or `flow`, and bytes that are
/// not UTF-8 keep a skill out. Read from its source: its package needs Python 3.12 and
/// libraries (kosong) that use 3.12's generic syntax, which this project's Python cannot run.
pub static KIMI_CLI: Profile = Profile {
    key: "kimi-cli",
    title: "Kimi Code CLI",
    short: "Kimi",
    as_of: "MoonshotAI/kimi-cli src/kimi_cli/skill/__init__.py and src/kimi_cli/utils/frontmatter.py as shipped in kimi-cli 1.52.0 (PyPI), read 2026-12-06",
    // PyYAML's safe_load: YAML 1.1 types, the last repeated key wins.
    yaml: YamlDialect::PyYaml,
    split: SplitRule::SpecText,
    fields: FieldSet::Kimi,
    name_charset: NameCharset::NoSlash,
    reserved_words: &[],
    wording: Wording::Playground,
    // `name = frontmatter.get("name") or default_name` (the folder's name).
    name_required: false,
    listing_cap_chars: None,
    length_unit: LengthUnit::CodePoints,
    listing: None,
    source_url: "https://github.com/MoonshotAI/kimi-cli/blob/main/src/kimi_cli/skill/__init__.py",
    on_bad_yaml: Some(
        "Kimi Code CLI skips the skill: `parse_frontmatter` raises `Invalid frontmatter YAML.` and `discover_skills` logs `Skipping invalid skill`",
    ),
    scans_inside_skills: false,
    skill_md_max_bytes: None,
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: false,
    // `_first_meaningful_line`, cut by `_truncate` (`_DESCRIPTION_FALLBACK_MAX_LEN = 240`).
    description_fallback: Some(240),
    utf8: Utf8Reading::Strict,
    replay: Some(crate::replay::kimi_cli),
    oracle: Some("kimi-cli 1.52.0"),
    other_versions: "Models the Python kimi-cli 1.52.0, its last release on PyPI, which clients.md calls archived; its successor, Kimi Code, is in no registry this project reaches, so its loader was not read",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &{
        let [a, b, c] = archive_gates!("Kimi Code CLI");
        [
            gate(
                "skill-nested",
                "skill/__init__.py `discover_skills`: only `<skills>/<entry>/SKILL.md` of each direct subfolder (and flat `<skills>/<name>.md` files)",
            ),
            gate(
                "missing-skill-md",
                "skill/__init__.py: `skill_md = entry / \"SKILL.md\"`; `if not await skill_md.is_file(): continue`",
            ),
            gate(
                "skill-md-lowercase",
                "skill/__init__.py looks for `SKILL.md` only",
            ),
            a,
            b,
            c,
            gate(
                "non-utf8-text",
                "skill/__init__.py: `read_text(encoding=\"utf-8\")` raises `UnicodeDecodeError`, which `except OSError` does not catch: it leaves `discover_skills` with the whole folder's scan (run in tests/client_oracles.rs)",
            ),
            gate(
                "loader-replay-refuses",
                "skill/__init__.py `parse_skill_text` and utils/frontmatter.py `parse_frontmatter`, replayed: `Invalid frontmatter YAML.`, `Frontmatter YAML must be a mapping.`, `Invalid skill type`, and pydantic's `Skill` wanting a string `name` and `description`; `discover_skills` logs `Skipping invalid skill`",
            ),
        ]
    },
    // It checks no name rule, no length and no folder match; the replay says what it wants of
    // a name and a description.
    severities: &REPLAYED,
};

/// The severities of a client whose loader is replayed whole (Qwen Code, OpenClaw, Kimi Code
/// CLI): the
/// replay says what it wants of a name and a description, in its own words, so YAML's reading
/// of them (which would contradict it: `description: 123` is the string "123" to both) is off;
/// neither checks a name's characters or its folder.
const REPLAYED: [(&str, Option<crate::diagnostic::Severity>); 13] = [
    ("name-missing", OFF),
    ("name-not-string", OFF),
    ("description-missing", OFF),
    ("description-empty", OFF),
    ("description-not-string", OFF),
    ("name-dir-mismatch", I),
    ("name-not-lowercase", I),
    ("name-invalid-chars", I),
    ("unknown-field", I),
    NOT_THEIRS[0],
    NOT_THEIRS[1],
    NOT_THEIRS[2],
    NOT_THEIRS[3],
];

/// Qwen Code (`QwenLM/qwen-code` `packages/core/src/skills/`, a Gemini CLI fork): its
/// `parseSkillContent` is replayed whole ([`crate::replay::qwen_code`]): the `yaml` package's
/// core schema, its own line parser when that throws, and its checks on what they read. Its
/// refusal is the one gate on the file's text; every other finding is advice.
pub static QWEN_CODE: Profile = Profile {
    key: "qwen-code",
    title: "Qwen Code",
    short: "Qwen",
    as_of: "QwenLM/qwen-code packages/core/src/skills/skill-manager.ts, skills/types.ts and utils/yaml-parser.ts as bundled in @qwen-code/qwen-code 0.24.4, read 2026-12-06; held to that package's own loader (tests/client_oracles.rs)",
    yaml: YamlDialect::YamlJs,
    split: SplitRule::SpecText,
    fields: FieldSet::Qwen,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    name_required: true,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf16Units,
    listing: None,
    source_url: "https://github.com/QwenLM/qwen-code/blob/main/packages/core/src/skills/skill-manager.ts",
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
    replay: Some(crate::replay::qwen_code),
    oracle: Some("@qwen-code/qwen-code 0.24.4"),
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &{
        let [a, b, c] = archive_gates!("Qwen Code");
        [
            gate(
                "skill-nested",
                "skill-manager.ts `loadSkillsFromDir`: only `<skills>/<entry>/SKILL.md` of each direct subfolder",
            ),
            gate(
                "missing-skill-md",
                "skill-manager.ts: `fs.access(path.join(skillDir, \"SKILL.md\"))` fails: `No valid SKILL.md found`",
            ),
            gate(
                "skill-md-lowercase",
                "skill-manager.ts reads `SKILL.md` only (`SKILL_MANIFEST_FILE`)",
            ),
            a,
            b,
            c,
            gate(
                "non-utf8-text",
                "skill-manager.ts: `fs.readFile(filePath, \"utf8\")`: a UTF-16 file has no `---` line, so `Invalid format: missing YAML frontmatter`",
            ),
            gate(
                "loader-replay-refuses",
                "skill-manager.ts `parseSkillContent`, replayed: its frontmatter match, `yaml` then `parseSimple`, and its checks on name, description, `allowedTools`, `model` and `paths`",
            ),
        ]
    },
    severities: &REPLAYED,
};

/// OpenClaw (`openclaw/openclaw` `src/skills/loading/local-loader.ts` and
/// `packages/markdown-core/src/frontmatter.ts`): its frontmatter reader is replayed whole
/// ([`crate::replay::openclaw`]): YAML's core schema with a `description:` line quoted again
/// where YAML fails, every value a string, `key: value` lines filling in; the name is optional
/// (the folder's), a description is required, and a SKILL.md over 256,000 bytes is refused.
pub static OPENCLAW: Profile = Profile {
    key: "openclaw",
    title: "OpenClaw",
    short: "OpenClaw",
    as_of: "openclaw/openclaw src/skills/loading/local-loader.ts, skill-root-discovery.ts and packages/markdown-core/src/frontmatter.ts as bundled in openclaw 2026.9.6, read 2026-12-06; held to that package's own loader (tests/client_oracles.rs)",
    yaml: YamlDialect::YamlJs,
    split: SplitRule::SpecText,
    fields: FieldSet::Spec,
    name_charset: NameCharset::AsciiKebab,
    reserved_words: &[],
    wording: Wording::Playground,
    // `frontmatter.name?.trim() || fallbackName` (the folder's).
    name_required: false,
    listing_cap_chars: None,
    length_unit: LengthUnit::Utf16Units,
    listing: None,
    source_url: "https://github.com/openclaw/openclaw/blob/main/src/skills/loading/local-loader.ts",
    on_bad_yaml: None,
    // `discoverSkillCandidates`: a folder that holds SKILL.md is a skill, and not searched.
    scans_inside_skills: false,
    // `DEFAULT_MAX_SKILL_FILE_BYTES = 256e3`, read through `readFileDescriptorBoundedSync`.
    skill_md_max_bytes: Some(256_000),
    name_dir_fold_case: false,
    requotes_colon_values: false,
    reads_lines: false,
    line_fallback: false,
    name_sanitized: "",
    description_trimmed: true,
    description_fallback: None,
    utf8: Utf8Reading::Lossy,
    replay: Some(crate::replay::openclaw),
    oracle: Some("openclaw 2026.9.6"),
    other_versions: "",
    duplicate_keys: DuplicateKeys::AnyKey,
    gates: &{
        let [a, b, c] = archive_gates!("OpenClaw");
        [
            gate(
                "skill-nested",
                "skill-root-discovery.ts `discoverSkillCandidates`: a folder that holds `SKILL.md` is one skill, and its subfolders are not searched",
            ),
            gate(
                "missing-skill-md",
                "local-loader.ts: `path.join(params.skillDir, \"SKILL.md\")` is the one file read",
            ),
            gate(
                "skill-md-lowercase",
                "skill-root-discovery.ts and local-loader.ts look for `SKILL.md` only",
            ),
            a,
            b,
            c,
            gate(
                "skill-md-too-large",
                "skill-root-discovery.ts `DEFAULT_MAX_SKILL_FILE_BYTES = 256e3`: a larger SKILL.md fails its bounded read, and the skill is skipped",
            ),
            gate(
                "non-utf8-text",
                "local-loader.ts reads SKILL.md as UTF-8: a UTF-16 file has no `---` line, so no description: `description is required`",
            ),
            gate(
                "loader-replay-refuses",
                "local-loader.ts `loadSingleSkillDirectory` and markdown-core's `parseFrontmatterBlockResult`, replayed: an unclosed frontmatter, YAML that still fails after its `description:` line is quoted (a repeated key, a tab), a frontmatter that is not a mapping, or no description",
            ),
        ]
    },
    severities: &REPLAYED,
};
