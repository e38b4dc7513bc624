//! One fixture per rule at least: every rule fires on a small skill written to trigger it, and
//! the whole output is kept as a reviewed snapshot (`UPDATE_EXPECT=1 cargo test` rewrites it).

use std::collections::BTreeSet;

use skillpg_core::profile::{self, Profile};
use skillpg_core::{BundleFile, Diagnostic, SkillBundle, analyze, check, check_catalog};

/// A fixture: the folder's name, its files, and the profile to check it under.
struct Case {
    name: &'static str,
    dir: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    profile: &'static Profile,
}

fn md(dir: &'static str, name: &'static str, text: &str, profile: &'static Profile) -> Case {
    Case {
        name,
        dir,
        files: vec![("SKILL.md", text.as_bytes().to_vec())],
        profile,
    }
}

const OK: &str =
    "---\nname: ok\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n";

fn cases() -> Vec<Case> {
    use profile::{
        CLAUDE_AI, CLAUDE_CODE, CODEX, COPILOT, CURSOR, GEMINI_CLI, GOOSE, OPENCODE, SPEC,
        STRICT_YAML, ZED,
    };
    use skillpg_core::profile::{CLINE, KIMI_CLI, MISTRAL_VIBE, OPENCLAW, PI, QWEN_CODE, ROO_CODE};
    let big = "word ".repeat(12_000);
    let mut v = vec![
        md("ok", "clean skill", OK, &SPEC),
        Case { name: "no SKILL.md", dir: "empty", files: vec![("README.md", b"hi".to_vec())], profile: &SPEC },
        Case { name: "lowercase skill.md", dir: "ok", files: vec![("skill.md", OK.as_bytes().to_vec())], profile: &CLAUDE_CODE },
        md("ok", "bom", &format!("\u{feff}{OK}"), &SPEC),
        md("ok", "no frontmatter", "# Just a body\n", &SPEC),
        md("ok", "unclosed", "---\nname: ok\ndescription: Use when testing.\n", &SPEC),
        md("ok", "unclosed, but skills-ref closes it at dashes in a value", "---\nname: ok\ndescription: x --- y\n", &CLAUDE_AI),
        md("ok", "opening line", "---name: ok\ndescription: Use when testing.\n---\n", &SPEC),
        md("ok", "opening line with a trailing space", "--- \nname: ok\ndescription: Use when testing.\n---\n", &GEMINI_CLI),
        md("ok", "unquoted colon", "---\nname: ok\ndescription: Use when: the user asks\n---\n", &SPEC),
        md("ok", "flow list", "---\nname: ok\ndescription: Use when testing.\nallowed-tools: [Read, Write]\n---\n", &SPEC),
        md("ok", "anchor and tag", "---\nname: &n ok\ndescription: !!str Use when testing.\n---\n", &SPEC),
        md("ok", "tab", "---\nname:\tok\ndescription: Use when testing.\n---\n", &SPEC),
        md("ok", "duplicate key", "---\nname: ok\nname: ok\ndescription: Use when testing.\n---\n", &SPEC),
        md("ok", "not a mapping", "---\n- a\n- b\n---\n", &SPEC),
        md("ok", "dashes in value", "---\nname: ok\ndescription: Use when testing --- or not.\n---\n", &SPEC),
        md("ok", "unknown fields (spec)", "---\nname: ok\ndescription: Use when testing.\nversion: 1.0.0\nargument-hint: file\n---\n", &SPEC),
        md("ok", "unknown fields (claude.ai)", "---\nname: ok\ndescription: Use when testing.\nversion: 1.0.0\n---\n", &CLAUDE_AI),
        md("ok", "unknown field (claude code)", "---\nname: ok\ndescription: Use when testing.\nflavour: x\n---\n", &CLAUDE_CODE),
        md("ok", "name missing", "---\ndescription: Use when testing.\n---\n", &SPEC),
        md("ok", "name empty", "---\nname:\ndescription: Use when testing.\n---\n", &SPEC),
        md("ok", "name int (claude.ai)", "---\nname: 123\ndescription: Use when testing.\n---\n", &CLAUDE_AI),
        md("123", "name int (Zed: serde reads the string \"123\")", "---\nname: 123\ndescription: Use when testing.\n---\n", &ZED),
        // Issue 48's cells, each verdict written from the client's own code first: Roo Code's
        // gray-matter reads `yes` with js-yaml 3 (YAML 1.2 booleans: the string "yes"); Cline's
        // js-yaml 4 and Goose's serde_yaml read a tab after `key:` as a space; Zed's
        // serde_yaml_ng reads `null` into its `String` description as "null"; pi's `yaml` reads
        // a NUL inside a plain scalar; Mistral Vibe's `^-{3,}\s*$` takes fences of four and
        // five dashes; Zed's `trim_start` skips blank lines before the opening `---`.
        md("yes", "name yes (Roo Code: js-yaml 3 reads the string \"yes\")", "---\nname: yes\ndescription: Use when testing.\n---\n", &ROO_CODE),
        md("ok", "tab after the colon (Cline: js-yaml 4 reads it)", "---\nname:\tok\ndescription: Use when testing.\n---\n", &CLINE),
        md("ok", "description null (Zed: serde_yaml_ng reads \"null\")", "---\nname: ok\ndescription: null\n---\n", &ZED),
        md("ok", "a NUL in the description (pi: the yaml package reads it)", "---\nname: ok\ndescription: Use when \u{0} testing.\n---\n", &PI),
        md("ok", "fences of four and five dashes (Mistral Vibe)", "----\nname: ok\ndescription: Use when testing.\n-----\n", &MISTRAL_VIBE),
        md("ok", "blank lines before the opening fence (Zed)", "\n\n---\nname: ok\ndescription: Use when testing.\n---\n", &ZED),
        md("ok", "name with a slash (Goose skips it)", "---\nname: team/ok\ndescription: Use when testing.\n---\n", &GOOSE),
        md("ok", "metadata a list (Goose's serde refuses it)", "---\nname: ok\ndescription: Use when testing.\nmetadata:\n  - a\n---\n", &GOOSE),
        md("ok", "SKILL.md over 100 KiB (Zed refuses it unread)", &format!("---\nname: ok\ndescription: Use when testing.\n---\n{}", "word ".repeat(21_000)), &ZED),
        md("ok", "name too long", &format!("---\nname: {}\ndescription: Use when testing.\n---\n", "a".repeat(65)), &SPEC),
        md("ok", "name uppercase", "---\nname: OK\ndescription: Use when testing.\n---\n", &SPEC),
        md("ok", "name hyphens", "---\nname: -o--k-\ndescription: Use when testing.\n---\n", &SPEC),
        md("ok", "name chars", "---\nname: o_k\ndescription: Use when testing.\n---\n", &SPEC),
        md("हिंदी", "name devanagari (skills-ref rejects marks)", "---\nname: हिंदी\ndescription: Use when testing.\n---\n", &SPEC),
        md("ok", "name dir mismatch", "---\nname: other\ndescription: Use when testing.\n---\n", &SPEC),
        md("claude-helper", "reserved word", "---\nname: claude-helper\ndescription: Use when testing.\n---\n", &CLAUDE_AI),
        md("ok", "description missing", "---\nname: ok\n---\n", &SPEC),
        md("ok", "description empty", "---\nname: ok\ndescription: \"\"\n---\n", &SPEC),
        md("ok", "description empty (OpenCode's zod takes it)", "---\nname: ok\ndescription: \"\"\n---\n", &OPENCODE),
        md("ok", "description null (OpenCode's zod refuses it)", "---\nname: ok\ndescription:\n---\n", &OPENCODE),
        md("ok", "YAML fails, and Gemini CLI's line fallback finds no description line", "---\nname: ok\n\tbad: tab\n---\n", &GEMINI_CLI),
        md("ok", "YAML fails, and Gemini CLI's line fallback finds both lines", "---\nname: ok\n\tbad: tab\ndescription: Use when testing.\n---\n", &GEMINI_CLI),
        // Mistral Vibe, each written from mistral-vibe 3.0.3's models.py and parser.py first.
        md("ok", "license 2024: pydantic's `str | None` refuses an integer (Vibe)", "---\nname: ok\ndescription: Use when testing.\nlicense: 2024\n---\n", &MISTRAL_VIBE),
        md("ok", "blank lines before the opening dashes: Vibe's split allows them", "\n\n---\nname: ok\ndescription: Use when testing.\n---\n", &MISTRAL_VIBE),
        md("ok", "a description of spaces: pydantic's min_length takes it (Vibe)", "---\nname: ok\ndescription: '   '\n---\n", &MISTRAL_VIBE),
        md("Ok", "a capital in the name: Vibe's pattern refuses it, the folder need not match", "---\nname: Ok\ndescription: Use when testing.\n---\n", &MISTRAL_VIBE),
        // Kimi Code CLI, written from kimi-cli 1.52.0's skill/__init__.py first.
        md("ok", "type technique: Kimi knows only standard and flow", "---\nname: ok\ndescription: Use when testing.\ntype: technique\n---\n", &KIMI_CLI),
        md("ok", "no frontmatter: Kimi names it after the folder and reads the first line", "# Ok\n\nUse when testing.\n", &KIMI_CLI),
        // Qwen Code, written from @qwen-code/qwen-code 0.24.4's parseSkillContent first.
        md("ok", "a repeated key: Qwen's line parser keeps the quotes, and `'ok'` fails its name pattern", "---\nname: 'ok'\ndescription: Use when testing.\nname: 'ok'\n---\n", &QWEN_CODE),
        md("Ok_v2", "capitals, `_` and a number: Qwen's pattern takes them, and String(123) too", "---\nname: Ok_v2\ndescription: 123\n---\n", &QWEN_CODE),
        md("ok", "a description that is a map: String() throws on Qwen's null-prototype object", "---\nname: ok\ndescription:\n  k: v\n---\n", &QWEN_CODE),
        // OpenClaw, written from openclaw 2026.9.6's local-loader.ts and frontmatter.ts first.
        md("ok", "an unquoted colon: OpenClaw quotes the description line YAML failed on, and loads", "---\nname: ok\ndescription: Use when: the user asks\n---\n", &OPENCLAW),
        md("ok", "description ~: YAML's null, so OpenClaw's line reader gives the text `~`", "---\nname: ok\ndescription: ~\n---\n", &OPENCLAW),
        md("ok", "no frontmatter: OpenClaw takes the folder's name, finds no description and skips it", "# Ok\n\nUse when testing.\n", &OPENCLAW),
        md("ok", "a repeated key: OpenClaw's YAML refuses it", "---\nname: ok\ndescription: Use when testing.\nname: ok\n---\n", &OPENCLAW),
        Case { name: "Latin-1 bytes: pi reads them as replacement characters and loads", dir: "ok", files: vec![("SKILL.md", b"---\nname: ok\ndescription: Caf\xe9 menus. Use when testing.\n---\n".to_vec())], profile: &PI },
        md("ok", "name a number (pi throws, and skips it)", "---\nname: 123\ndescription: Use when testing.\n---\n", &PI),
        md("ok", "name null (pi takes the folder's name)", "---\nname: ~\ndescription: Use when testing.\n---\n", &PI),
        md("ok", "description yes (a string in YAML 1.2)", "---\nname: ok\ndescription: yes\n---\n", &PI),
        md("ok", "description too long", &format!("---\nname: ok\ndescription: Use when {}\n---\n", "x".repeat(1100)), &SPEC),
        md("ok", "xml in description", "---\nname: ok\ndescription: Use when a <table> appears.\n---\n", &CLAUDE_AI),
        md("ok", "compatibility list", "---\nname: ok\ndescription: Use when testing.\ncompatibility:\n  - a\n---\n", &SPEC),
        md("ok", "compatibility long", &format!("---\nname: ok\ndescription: Use when testing.\ncompatibility: {}\n---\n", "c".repeat(501)), &SPEC),
        md("ok", "compatibility empty", "---\nname: ok\ndescription: Use when testing.\ncompatibility: \"\"\n---\n", &SPEC),
        md("ok", "metadata a string", "---\nname: ok\ndescription: Use when testing.\nmetadata: v2\n---\n", &CODEX),
        md("ok", "metadata nested", "---\nname: ok\ndescription: Use when testing.\nmetadata:\n  tags:\n    - a\n---\n", &SPEC),
        md("ok", "allowed-tools list", "---\nname: ok\ndescription: Use when testing.\nallowed-tools:\n  - Read\n  - Bash(*)\n---\n", &SPEC),
        md("ok", "non-string scalar", "---\nname: ok\ndescription: Use when testing.\nlicense: no\nmetadata:\n  version: 1.10\n---\n", &STRICT_YAML),
        md("ok", "comment in value", "---\nname: ok\ndescription: Use when linting C code #fast\n---\n", &STRICT_YAML),
        md("ok", "claude code types", "---\nname: ok\ndescription: Use when testing.\nuser-invocable: nope\neffort: maximum\nhooks: x\n---\n", &CLAUDE_CODE),
        md("ok", "listing cap", &format!("---\nname: ok\ndescription: Use when {}\nwhen_to_use: {}\n---\n", "d".repeat(1000), "w".repeat(600)), &CLAUDE_CODE),
        Case {
            name: "big, binary and broken files",
            dir: "ok",
            files: vec![
                (
                    "SKILL.md",
                    b"---\nname: ok\ndescription: Use when testing.\n---\nFor the complete guide: [all](AGENTS.md). Then [gone](references/gone.md) and [up](../x.md).\n"
                        .to_vec(),
                ),
                ("AGENTS.md", big.as_bytes().to_vec()),
                ("references/more.md", big.as_bytes().to_vec()),
                ("references/three.md", big.as_bytes().to_vec()),
                ("assets/logo.png", b"\x89PNG\r\n\x1a\n\0\0".to_vec()),
                ("notes.txt", b"caf\xe9".to_vec()),
                ("huge.bin", vec![b'a'; skillpg_core::bundle::MAX_FILE_BYTES + 1]),
            ],
            profile: &CLAUDE_CODE,
        },
        md("ok", "body too long", &format!("---\nname: ok\ndescription: Use when testing.\n---\n{}", "line\n".repeat(600)), &SPEC),
        Case {
            name: "stale counts",
            dir: "ok",
            files: vec![
                ("SKILL.md", b"---\nname: ok\ndescription: Use when testing.\n---\nThis skill has 3 rules.\n".to_vec()),
                ("rules/a.md", b"a".to_vec()),
                ("rules/b.md", b"b".to_vec()),
                ("rules/_template.md", b"t".to_vec()),
                ("README.md", b"Contains 10+ rules.\n".to_vec()),
            ],
            profile: &SPEC,
        },
        md(
            "ok",
            "dynamic context and wildcard",
            "---\nname: ok\ndescription: Use when testing.\nallowed-tools: Bash(*) Read\n---\nBranch: !`git branch --show-current`\n```!\nls\n```\n",
            &CLAUDE_CODE,
        ),
        md("ok", "invisible unicode", "---\nname: ok\ndescription: Use when testing\u{200B}.\n---\nText \u{202E}reversed\u{202C}.\n", &SPEC),
        md("ok", "no trigger", "---\nname: ok\ndescription: Helps with SQL.\n---\n", &SPEC),
        md(
            "ok",
            "contract view",
            "---\nname: ok\ndescription: Use when an order id is given.\nmetadata:\n  version: \"1.0\"\n---\n## Input Schema\n```json\n{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"sting\"}}}\n```\n## Output Schema\n```json\n{\"type\": \"object\",}\n```\n## Error Cases\n| code | when | recovery |\n|---|---|---|\n| E_NOT_FOUND | unknown id | ask again |\n| E_NOT_FOUND | dup | x |\n",
            &SPEC,
        ),
    ];
    v.push(md("ok", "crlf is fine", &OK.replace('\n', "\r\n"), &SPEC));
    // The clients beyond Anthropic's: what each refuses, and what it only ignores.
    v.push(md(
        "ok",
        "unknown fields do nothing (codex)",
        "---\nname: ok\ndescription: Use when testing.\nlicense: MIT\nargument-hint: file\n---\n",
        &CODEX,
    ));
    v.push(md(
        "ok",
        "short description too long (codex)",
        &format!("---\nname: ok\ndescription: Use when testing.\nmetadata:\n  short-description: {}\n---\n", "s".repeat(1030)),
        &CODEX,
    ));
    v.push(md(
        "Ok_Skill",
        "no character set, whitespace collapsed (codex)",
        "---\nname: Ok_Skill\ndescription: |\n  Use when\n  testing.\n---\n",
        &CODEX,
    ));
    v.push(md(
        "ok",
        "name dir mismatch (copilot)",
        "---\nname: other\ndescription: Use when testing.\nargument-hint: file\n---\n",
        &COPILOT,
    ));
    v.push(md(
        "ok",
        "1,000 emoji are 2,000 UTF-16 units (copilot)",
        &format!(
            "---\nname: ok\ndescription: {}\n---\n",
            "\u{1F4A1}".repeat(1000)
        ),
        &COPILOT,
    ));
    v.push(md(
        "ok",
        "claude code fields are unknown (cursor)",
        "---\nname: ok\ndescription: Use when testing.\nargument-hint: file\ndisable-model-invocation: true\n---\n",
        &CURSOR,
    ));
    v.push(md(
        "ok",
        "name with a colon is rewritten (gemini cli)",
        "---\nname: gke:prs\ndescription: Use when testing.\n---\n",
        &GEMINI_CLI,
    ));
    v.push(md(
        "ok",
        "invalid YAML falls back to key-value (gemini cli)",
        "---\nname: ok\ndescription: Use when: the user asks\n---\n",
        &GEMINI_CLI,
    ));
    v.push(md(
        "ok",
        "a folded description that Letta Code's line reader lists as `>`",
        "---\nname: ok\ndescription: >\n  Use when testing\n  folded text.\n---\n# Body\n",
        &profile::LETTA_CODE,
    ));
    v.push(md(
        "ok",
        "an unquoted colon that OpenCode reads after re-quoting it",
        "---\nname: ok\ndescription: Use when: the user asks\n---\n# Body\n",
        &profile::OPENCODE,
    ));
    v.push(md(
        "ok",
        "no frontmatter (claude code loads it)",
        "# Just a body\n\nFormats tables.\n",
        &CLAUDE_CODE,
    ));
    v.push(md(
        "ok",
        "invalid YAML (claude code loads the body)",
        "---\nname: ok\ndescription: Use when: the user asks\n---\n",
        &CLAUDE_CODE,
    ));
    v.push(md(
        "ok",
        "dashes cut the name off (skills-ref)",
        "---\ndescription: Use when testing --- or not.\nname: ok\n---\n",
        &SPEC,
    ));
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(OK.encode_utf16().flat_map(u16::to_le_bytes));
    v.push(Case {
        name: "UTF-16 SKILL.md",
        dir: "ok",
        files: vec![("SKILL.md", utf16)],
        profile: &SPEC,
    });
    v.push(Case {
        name: "paths: sent, mentioned, written, outside",
        dir: "ok",
        files: vec![(
            "SKILL.md",
            b"---\nname: ok\ndescription: Use when testing.\n---\nRead [the guide](guide.md) and run `scripts/run.py`.\nCheck the project's `./docs/` folder.\nSave the summary to `./report.md`.\nSee [x](../other-skill/SKILL.md).\n"
                .to_vec(),
        )],
        profile: &SPEC,
    });
    v.push(Case {
        name: "paths relative to a plugin root",
        dir: "ok",
        files: vec![("SKILL.md", b"---\nname: ok\ndescription: Use when testing.\n---\nResolve `${MY_PLUGIN_ROOT}` first, then run `scripts/plan.py`.\n".to_vec())],
        profile: &SPEC,
    });
    v.push(Case {
        name: "an index entry names its topic",
        dir: "ok",
        files: vec![
            ("SKILL.md", b"---\nname: ok\ndescription: Use when testing.\n---\n- `references/play.md` \xe2\x80\x94 combined play/pause toggle\n".to_vec()),
            ("references/play.md", "word ".repeat(500).into_bytes()),
        ],
        profile: &SPEC,
    });
    v
}

fn bundle(case: &Case) -> SkillBundle {
    SkillBundle::new(
        case.dir,
        case.files
            .iter()
            .map(|(p, b)| BundleFile {
                path: (*p).to_owned(),
                bytes: b.clone(),
            })
            .collect(),
    )
}

fn render(case: &Case, diags: &[Diagnostic]) -> String {
    let mut out = format!("## {} [{}]\n", case.name, case.profile.key);
    if diags.is_empty() {
        out.push_str("  (no findings)\n");
    }
    for d in diags {
        let at = d
            .location
            .map(|l| format!(":{}:{}", l.line, l.column))
            .unwrap_or_default();
        let fix = d
            .fix
            .as_ref()
            .map(|f| format!(" [fix: {}]", f.title))
            .unwrap_or_default();
        out.push_str(&format!(
            "  {} {} {}{}: {}{}\n",
            d.code,
            d.severity.as_str(),
            d.file,
            at,
            d.message,
            fix
        ));
    }
    out
}

#[test]
fn every_rule_has_a_fixture_and_the_output_is_reviewed() {
    let mut out = String::new();
    let mut fired: BTreeSet<&str> = BTreeSet::new();
    for case in cases() {
        let diags = check(&analyze(&bundle(&case)), case.profile);
        fired.extend(diags.iter().map(|d| d.rule));
        out.push_str(&render(&case, &diags));
    }
    // The catalog rule needs several skills.
    let many: Vec<_> = (0..60)
        .map(|i| {
            let text = format!(
                "---\nname: s{i}\ndescription: Use when {}\n---\n",
                "x".repeat(200)
            );
            analyze(&SkillBundle::new(
                &format!("s{i}"),
                vec![BundleFile {
                    path: "SKILL.md".into(),
                    bytes: text.into_bytes(),
                }],
            ))
        })
        .collect();
    let catalog = check_catalog(&many, &profile::CLAUDE_CODE, 200_000);
    assert_eq!(
        catalog.len(),
        1,
        "one finding for the whole catalog: {catalog:?}"
    );
    assert!(
        catalog[0].message.contains("it shortens 60 description(s)"),
        "{}",
        catalog[0].message
    );
    out.push_str(&render(
        &Case {
            name: "catalog of 60 skills installed together",
            dir: "",
            files: vec![],
            profile: &profile::CLAUDE_CODE,
        },
        &catalog,
    ));
    // Codex at a 20k-token window: 400 approximate tokens, less than the names and paths alone.
    let codex = check_catalog(&many, &profile::CODEX, 20_000);
    assert!(
        codex[0].message.contains("leaves out"),
        "{}",
        codex[0].message
    );
    out.push_str(&render(
        &Case {
            name: "catalog of 60 skills in Codex at a 20k window",
            dir: "",
            files: vec![],
            profile: &profile::CODEX,
        },
        &codex,
    ));
    assert!(
        check_catalog(&many[..5], &profile::CLAUDE_CODE, 200_000).is_empty(),
        "five skills fit the budget"
    );
    assert!(
        check_catalog(&many, &profile::SPEC, 200_000).is_empty(),
        "the spec lists no skills"
    );
    fired.insert("listing-budget");
    // Two skills installed together under one name: every folder client keeps one; Claude
    // Code also folds case, spacing and compatibility forms (synced skills).
    let same = |dir: &str, name: &str| {
        analyze(&SkillBundle::new(
            dir,
            vec![BundleFile {
                path: "SKILL.md".into(),
                bytes: format!("---\nname: {name}\ndescription: Use when testing.\n---\n")
                    .into_bytes(),
            }],
        ))
    };
    let twins = [same("pdf", "pdf-tools"), same("pdf-tools", "pdf-tools")];
    let gemini = check_catalog(&twins, &profile::GEMINI_CLI, 200_000);
    let collisions: Vec<&Diagnostic> = gemini
        .iter()
        .filter(|d| d.rule == "name-collision")
        .collect();
    assert_eq!(collisions.len(), 1, "{gemini:?}");
    assert!(
        collisions[0].message.contains("are listed as `pdf-tools`"),
        "{}",
        collisions[0].message
    );
    // Claude Code lists each by its folder, so these two do not collide there; a full-width
    // capitalized folder name does.
    let folded = [same("pdf-tools", "pdf-tools"), same("ＰＤＦ–Tools", "x")];
    let cc: Vec<Diagnostic> = check_catalog(&folded, &profile::CLAUDE_CODE, 200_000)
        .into_iter()
        .filter(|d| d.rule == "name-collision")
        .collect();
    assert_eq!(cc.len(), 1, "{cc:?}");
    assert!(cc[0].message.contains("folded"), "{}", cc[0].message);
    assert!(
        check_catalog(&folded, &profile::GEMINI_CLI, 200_000)
            .iter()
            .all(|d| d.rule != "name-collision"),
        "only Claude Code folds"
    );
    assert!(
        check_catalog(&twins, &profile::SPEC, 200_000).is_empty(),
        "the spec installs nothing"
    );
    assert_eq!(
        skillpg_core::rules::folded_name("ＰＤＦ–Tools \u{200b}x"),
        "pdf-toolsx"
    );
    out.push_str(&render(
        &Case {
            name: "two skills named pdf-tools installed together in Gemini CLI",
            dir: "",
            files: vec![],
            profile: &profile::GEMINI_CLI,
        },
        &gemini,
    ));
    fired.insert("name-collision");
    // A skill found inside another skill's folder: not listed where the client does not look
    // inside skills, a note in Codex, which does.
    let nested = skillpg_core::ingest::discover(
        "pdf",
        vec![
            ("SKILL.md".to_owned(), OK.as_bytes().to_vec()),
            (
                "references/forms/SKILL.md".to_owned(),
                OK.as_bytes().to_vec(),
            ),
        ],
    );
    let inner = nested
        .skills
        .iter()
        .find(|b| b.inside.is_some())
        .expect("the inner skill knows it is inside another");
    for p in [&profile::GEMINI_CLI, &profile::CODEX] {
        let diags: Vec<Diagnostic> = check(&analyze(inner), p)
            .into_iter()
            .filter(|d| d.rule == "skill-nested")
            .collect();
        out.push_str(&render(
            &Case {
                name: "a skill inside another skill's folder",
                dir: "forms",
                files: vec![],
                profile: p,
            },
            &diags,
        ));
    }
    fired.insert("skill-nested");
    let ingest_rules: BTreeSet<&str> = skillpg_core::ingest::RULES.iter().map(|r| r.name).collect();
    let missing: Vec<&str> = skillpg_core::rules::all_rules()
        .iter()
        .map(|r| r.name)
        .filter(|n| !fired.contains(n) && !ingest_rules.contains(n))
        .collect();
    assert!(
        missing.is_empty(),
        "rules with no firing fixture: {missing:?}"
    );
    expect_test::expect_file!["fixtures/rules.snap"].assert_eq(&out);
}

/// The page's matrix runs only each client's gates (`check_gates`): on every fixture, under
/// every client, they give exactly the errors the whole check gives, in the same order.
#[test]
fn the_gates_alone_give_the_whole_checks_errors() {
    let mut errors_seen = 0;
    for case in cases() {
        let a = analyze(&bundle(&case));
        for p in profile::ALL.iter() {
            let errors: Vec<Diagnostic> = check(&a, p)
                .into_iter()
                .filter(|d| d.severity == skillpg_core::Severity::Error)
                .collect();
            errors_seen += errors.len();
            assert_eq!(
                skillpg_core::check_gates(&a, p),
                errors,
                "{} under {}",
                case.name,
                p.key
            );
        }
    }
    assert!(
        errors_seen > 100,
        "the fixtures hold errors to compare: {errors_seen}"
    );
}

#[test]
fn every_rule_of_a_skill_is_documented_in_its_file() {
    for r in skillpg_core::rules::all_rules() {
        if skillpg_core::ingest::RULES.iter().any(|i| i.name == r.name) {
            continue;
        }
        let doc = skillpg_core::rules::rule_doc(r.name)
            .unwrap_or_else(|| panic!("{} has no file doc", r.name));
        for section in [
            "## What it checks",
            "## Why it matters",
            "## Example",
            "## Fix",
            "## Source",
        ] {
            assert!(doc.contains(section), "{}: its doc lacks {section}", r.name);
        }
    }
}

#[test]
fn codes_are_unique_and_stable_in_form() {
    let rules = skillpg_core::rules::all_rules();
    let codes: BTreeSet<&str> = rules.iter().map(|r| r.code).collect();
    assert_eq!(codes.len(), rules.len());
    assert!(
        rules
            .iter()
            .all(|r| r.code.len() == 6 && r.code.starts_with("SPG"))
    );
}

#[test]
fn safe_fixes_make_the_finding_go_away() {
    for case in cases() {
        let a = analyze(&bundle(&case));
        let diags = check(&a, case.profile);
        let Some(doc) = &a.doc else { continue };
        let md_path = a.skill_md_path.clone().unwrap_or_default();
        let fixed = skillpg_core::fix::apply(&doc.text, &md_path, &diags, false);
        if fixed.applied.is_empty() {
            continue;
        }
        let mut files = case.files.clone();
        for f in &mut files {
            if f.0 == md_path {
                f.1 = fixed.text.clone().into_bytes();
            }
        }
        let again = check(
            &analyze(&SkillBundle::new(
                case.dir,
                files
                    .into_iter()
                    .map(|(p, b)| BundleFile {
                        path: p.into(),
                        bytes: b,
                    })
                    .collect(),
            )),
            case.profile,
        );
        for code in &fixed.applied {
            assert!(
                !again.iter().any(|d| d.code == *code && d.fix.is_some()),
                "{}: {code} still fires after its fix:\n{}",
                case.name,
                fixed.text
            );
        }
    }
}

/// Every span lies inside its file's decoded text, on character boundaries (the fuzzer found a
/// non-UTF-8 span that cut the replacement character in two).
#[test]
fn every_span_lies_on_char_boundaries() {
    let mut cases = cases();
    cases.push(md(
        "ok",
        "bad byte in SKILL.md",
        "---\nname: ok\n---\n\u{1}",
        &profile::SPEC,
    ));
    cases.last_mut().expect("case").files[0].1.push(0xE9);
    for case in cases {
        let a = analyze(&bundle(&case));
        for d in check(&a, case.profile) {
            let Some(span) = &d.span else { continue };
            let text = if Some(&d.file) == a.skill_md_path.as_ref() {
                a.doc.as_ref().map(|x| x.text.clone())
            } else {
                a.file(&d.file)
                    .and_then(|f| f.text.text().map(str::to_owned))
            };
            let Some(text) = text else { continue };
            assert!(
                span.end <= text.len()
                    && text.is_char_boundary(span.start)
                    && text.is_char_boundary(span.end),
                "{}: {d:?}",
                case.name
            );
        }
    }
}

/// Inputs the fuzzer (fuzz/fuzz_targets/frontmatter.rs) found that used to panic.
#[test]
fn fuzz_findings_stay_fixed() {
    // The third: the unknown-field fix inserted `metadata:` inside the unclosed frontmatter's
    // one line, which it also deleted; applying that one fix alone sliced backwards.
    let findings: [&[u8]; 3] = [
        b"---@\n---\n-\xff\xff\xffu\xff",
        b"-\n\xe9",
        b"---\r\nj\t!*===-==6===GIF8:----\r\n",
    ];
    for bytes in findings {
        let bundle = SkillBundle::new(
            "fuzz",
            vec![BundleFile {
                path: "SKILL.md".into(),
                bytes: bytes.to_vec(),
            }],
        );
        let a = analyze(&bundle);
        for p in profile::ALL {
            let diags = check(&a, p);
            if let Some(doc) = &a.doc {
                let _ = skillpg_core::fix::apply(&doc.text, "SKILL.md", &diags, true);
                for d in &diags {
                    let _ = skillpg_core::fix::apply(
                        &doc.text,
                        "SKILL.md",
                        std::slice::from_ref(d),
                        true,
                    );
                }
            }
        }
    }
}

/// A fix whose edits overlap each other is skipped, not applied out of order.
#[test]
fn a_fix_with_overlapping_edits_is_skipped() {
    use skillpg_core::{Applicability, Edit, Fix};
    let fix = Fix {
        title: "x".into(),
        edits: vec![
            Edit {
                range: 2..6,
                replacement: String::new(),
            },
            Edit {
                range: 4..4,
                replacement: "y".into(),
            },
        ],
        applicability: Applicability::Safe,
    };
    assert_eq!(skillpg_core::fix::apply_one("abcdefgh", &fix), "abcdefgh");
    let backwards = Fix {
        title: "x".into(),
        edits: vec![Edit {
            range: std::ops::Range { start: 5, end: 2 },
            replacement: String::new(),
        }],
        applicability: Applicability::Safe,
    };
    assert_eq!(
        skillpg_core::fix::apply_one("abcdefgh", &backwards),
        "abcdefgh"
    );
}

/// Moving fields under `metadata` takes a CRLF line whole.
#[test]
fn fields_move_under_metadata_in_crlf_files() {
    let text = "---\r\nname: ok\r\ndescription: Use when testing.\r\nfoo: bar\r\n---\r\nBody\r\n";
    let a = analyze(&SkillBundle::new(
        "ok",
        vec![BundleFile {
            path: "SKILL.md".into(),
            bytes: text.as_bytes().to_vec(),
        }],
    ));
    let diags: Vec<_> = check(&a, &profile::SPEC)
        .into_iter()
        .filter(|d| d.rule == "unknown-field")
        .collect();
    let doc = a.doc.as_ref().expect("frontmatter");
    let fixed = skillpg_core::fix::apply(&doc.text, "SKILL.md", &diags, true);
    assert_eq!(fixed.applied, vec![diags[0].code], "{diags:?}");
    assert!(
        !fixed.text.contains("\r\n\r\n") && !fixed.text.contains("\n\n"),
        "no blank line is left behind: {:?}",
        fixed.text
    );
    assert!(
        fixed.text.contains("metadata:\n  foo: bar\n"),
        "{:?}",
        fixed.text
    );
}

/// Only a profile's documented gates are errors: every fixture under every profile, and every
/// rule's severity, are checked against `Profile::gates`.
#[test]
fn only_documented_gates_are_errors() {
    let names: BTreeSet<&str> = skillpg_core::rules::all_rules()
        .iter()
        .map(|r| r.name)
        .collect();
    for p in profile::ALL {
        for g in p.gates {
            assert!(
                names.contains(g.rule),
                "{}: gate names no rule: {}",
                p.key,
                g.rule
            );
            assert!(
                !g.models.is_empty(),
                "{}: gate {} cites no documented check",
                p.key,
                g.rule
            );
        }
        for (rule, _) in p.severities {
            assert!(
                names.contains(rule),
                "{}: severity names no rule: {rule}",
                p.key
            );
        }
        for r in skillpg_core::rules::all_rules() {
            let is_error =
                p.severity(r.name, r.default_severity) == Some(skillpg_core::Severity::Error);
            assert_eq!(
                is_error,
                p.is_gate(r.name),
                "{}: {} is an error exactly when it is a gate",
                p.key,
                r.name
            );
        }
        for case in cases() {
            for d in check(&analyze(&bundle(&case)), p) {
                assert!(
                    d.severity != skillpg_core::Severity::Error || p.is_gate(d.rule),
                    "{}: {} raised an error on {:?} but is no gate",
                    p.key,
                    d.rule,
                    case.name
                );
            }
        }
    }
}

/// Advisory rules never make a skill fail: budgets, links, style and the contract view.
#[test]
fn advisory_rules_are_never_gates() {
    const ADVISORY: [&str; 16] = [
        "body-too-long",
        "reference-too-large",
        "references-too-large",
        "broken-link",
        "escape-hatch",
        "stale-count",
        "dynamic-context-injection",
        "allowed-tools-wildcard",
        "invisible-unicode",
        "description-no-trigger",
        "schema-block-invalid",
        "version-not-semver",
        "error-code-table",
        "listing-budget",
        "listing-cap",
        "dashes-in-frontmatter",
    ];
    for p in profile::ALL {
        for rule in ADVISORY {
            assert!(
                !p.is_gate(rule),
                "{}: advisory rule {rule} is a gate",
                p.key
            );
        }
    }
    // Claude Code documents every field as optional and loads a skill without frontmatter.
    assert!(!profile::CLAUDE_CODE.is_gate("frontmatter-missing"));
}

/// A safe fix never makes a skill fail a client that loaded it, and every value any fix writes
/// reads back as a string: each fix of every finding, applied alone (safe and unsafe; an unsafe
/// one may change what the skill says, a name say, and so a verdict), on skills that mix
/// the values YAML types or refuses plain (`null`, `yes`, `123` as folder names; names and tools
/// holding `: `, ` #`, quotes, leading `@` or `*`; quoted names; CRLF), re-checked under every
/// client. The hostile round found "Join the tools with spaces" writing `Bash(git: *)` unquoted
/// (a skill loading in all 24 clients then failed in 19) and the name fixes writing `null`.
#[test]
fn fixes_never_make_a_client_refuse_a_skill_it_loaded() {
    let dirs = ["null", "yes", "123", "1e3", "on", "my-skill"];
    let names = [
        "\"My Skill\"",
        "'It''s Mine'",
        "My_Skill",
        "\"Foo: Bar\"",
        "\"Note #1\"",
        "Yes",
        "\"@Scope\"",
    ];
    let tools = [
        "allowed-tools:\n  - \"Bash(git: *)\"\n  - Read\n",
        "allowed-tools:\n  - Read # the reader\n  - \"x #y\"\n",
        "allowed-tools:\n  - \"*\"\n  - '@mcp'\n",
        "allowed-tools: [Read, \"Bash(ls: *)\"]\n",
        "allowed-tools:\n  - 'yes'\n  - \"no\"\n",
        "",
    ];
    let mut n_fixes = 0;
    for (i, dir) in dirs.iter().enumerate() {
        for (j, name) in names.iter().enumerate() {
            let tool = tools[(i + j) % tools.len()];
            let name_line = if (i + j) % 5 == 4 {
                String::new()
            } else {
                format!("name: {name}\n")
            };
            let mut text = format!(
                "---\n{name_line}description: Formats tables. Use when the user pastes CSV.\n{tool}---\n# Body\n"
            );
            if (i + j) % 3 == 0 {
                text = text.replace('\n', "\r\n");
            }
            let bundle = |md: &str| {
                SkillBundle::new(
                    dir,
                    vec![BundleFile {
                        path: "SKILL.md".into(),
                        bytes: md.as_bytes().to_vec(),
                    }],
                )
            };
            let a = analyze(&bundle(&text));
            let loads_before: Vec<bool> = profile::ALL
                .iter()
                .map(|p| {
                    !check(&a, p)
                        .iter()
                        .any(|d| d.severity == skillpg_core::Severity::Error)
                })
                .collect();
            for p in profile::ALL {
                for d in check(&a, p).iter().filter(|d| d.fix.is_some()) {
                    let fixed =
                        skillpg_core::fix::apply(&text, "SKILL.md", std::slice::from_ref(d), true);
                    if fixed.applied.is_empty() {
                        continue;
                    }
                    n_fixes += 1;
                    let after = analyze(&bundle(&fixed.text));
                    for (q, loaded) in profile::ALL.iter().zip(&loads_before) {
                        let errors: Vec<_> = check(&after, q)
                            .into_iter()
                            .filter(|e| e.severity == skillpg_core::Severity::Error)
                            .collect();
                        let safe = d.fix.as_ref().is_some_and(|f| {
                            f.applicability == skillpg_core::diagnostic::Applicability::Safe
                        });
                        assert!(
                            !safe || !*loaded || errors.is_empty(),
                            "{dir}/{name}: {} ({}) under {} makes {} refuse it: {:?}\n{}",
                            d.code,
                            d.fix.as_ref().map_or("", |f| f.title.as_str()),
                            p.key,
                            q.key,
                            errors.iter().map(|e| &e.message).collect::<Vec<_>>(),
                            fixed.text
                        );
                        assert!(
                            !check(&after, q)
                                .iter()
                                .any(|e| e.rule == "invalid-yaml" || e.rule == "non-string-scalar")
                                || check(&a, q)
                                    .iter()
                                    .any(|e| e.rule == "invalid-yaml"
                                        || e.rule == "non-string-scalar"),
                            "{dir}/{name}: {} under {} writes a value {} does not read as a string:\n{}",
                            d.code,
                            p.key,
                            q.key,
                            fixed.text
                        );
                    }
                }
            }
        }
    }
    assert!(n_fixes > 100, "{n_fixes} fixes tried");
}
