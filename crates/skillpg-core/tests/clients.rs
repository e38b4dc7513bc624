//! Each client's length limits, at the boundary, in the unit the client counts: the same
//! description is 1,024 code points, 2,048 UTF-16 units and 4,096 UTF-8 bytes when it is
//! emoji, and a description with runs of spaces is shorter once Codex collapses them.

use skillpg_core::profile::{self, Profile};
use skillpg_core::{BundleFile, SkillBundle, analyze, check, is_valid};

/// Whether a skill with `description` (written as a YAML double-quoted scalar) loads under
/// `profile`, and the rule that refuses it otherwise.
fn verdict(profile: &Profile, description: &str) -> Result<(), String> {
    let quoted = description.replace('\\', "\\\\").replace('"', "\\\"");
    let text = format!("---\nname: ok\ndescription: \"{quoted}\"\n---\n# Body\n");
    let a = skill_md("ok", text.into_bytes());
    let diags = check(&a, profile);
    if is_valid(&diags) {
        Ok(())
    } else {
        Err(diags
            .iter()
            .filter(|d| d.severity == skillpg_core::Severity::Error)
            .map(|d| d.rule)
            .collect::<Vec<_>>()
            .join(","))
    }
}

#[test]
fn each_client_counts_a_description_in_its_own_unit() {
    let cjk_1024 = "語".repeat(1024); // 1,024 code points, 1,024 UTF-16 units, 3,072 bytes
    let cjk_1025 = "語".repeat(1025);
    let emoji_1024 = "\u{1F4A1}".repeat(1024); // 1,024 code points, 2,048 UTF-16 units
    let emoji_512 = "\u{1F4A1}".repeat(512); // 1,024 UTF-16 units
    let combining_1024 = "e\u{301}".repeat(512); // 512 graphemes, 1,024 code points
    let combining_1026 = "e\u{301}".repeat(513);
    let spaced = format!("x{}", "  x".repeat(343)); // 1,030 code points, 687 once collapsed
    let cases: [(&str, &str); 7] = [
        ("cjk-1024", &cjk_1024),
        ("cjk-1025", &cjk_1025),
        ("emoji-1024", &emoji_1024),
        ("emoji-512", &emoji_512),
        ("combining-1024", &combining_1024),
        ("combining-1026", &combining_1026),
        ("spaced-1030", &spaced),
    ];
    // What each client does with each: `true` loads. Written from each client's source before
    // the run: skills-ref and Anthropic count code points (Python `len`); Codex counts code
    // points after collapsing whitespace; VS Code counts UTF-16 units (TypeScript); Claude Code,
    // strict clients, Cursor and Gemini CLI refuse no length. Roo and Kilo Code count the
    // trimmed description in UTF-16 units (`.length`); Crush counts UTF-8 bytes (Go `len`), so
    // none of these (all over 1,024 bytes) loads there; Zed counts bytes too but only warns
    // (zed#58356); Cline, pi and Goose refuse no length; Augment's docs count characters; the
    // Copilot CLI follows Copilot's rules.
    let expected: [(&Profile, [bool; 7]); 24] = [
        (
            &profile::SPEC,
            [true, false, true, true, true, false, false],
        ),
        (
            &profile::CLAUDE_AI,
            [true, false, true, true, true, false, false],
        ),
        (
            &profile::CLAUDE_CODE,
            [true, true, true, true, true, true, true],
        ),
        (
            &profile::STRICT_YAML,
            [true, true, true, true, true, true, true],
        ),
        (
            &profile::CODEX,
            [true, false, true, true, true, false, true],
        ),
        (
            &profile::COPILOT,
            [true, false, false, true, true, false, false],
        ),
        // VS Code's code cuts instead of refusing.
        (&profile::COPILOT_CODE, [true; 7]),
        (&profile::CURSOR, [true, true, true, true, true, true, true]),
        (
            &profile::GEMINI_CLI,
            [true, true, true, true, true, true, true],
        ),
        (
            &profile::ROO_CODE,
            [true, false, false, true, true, false, false],
        ),
        (
            &profile::KILO_CODE,
            [true, false, false, true, true, false, false],
        ),
        (&profile::CLINE, [true; 7]),
        (&profile::ZED, [true; 7]),
        (&profile::CRUSH, [false; 7]),
        (&profile::PI, [true; 7]),
        (&profile::GOOSE, [true; 7]),
        // OpenCode checks no length.
        (&profile::OPENCODE, [true; 7]),
        // Letta Code refuses no skill it finds.
        (&profile::LETTA_CODE, [true; 7]),
        (
            &profile::AUGMENT,
            [true, false, true, true, true, false, false],
        ),
        (
            &profile::COPILOT_CLI,
            [true, false, false, true, true, false, false],
        ),
        // Mistral Vibe: pydantic's `max_length=1024` on the untrimmed `str`, in code points.
        (
            &profile::MISTRAL_VIBE,
            [true, false, true, true, true, false, false],
        ),
        // Kimi Code CLI, Qwen Code and OpenClaw check no length.
        (&profile::KIMI_CLI, [true; 7]),
        (&profile::QWEN_CODE, [true; 7]),
        (&profile::OPENCLAW, [true; 7]),
    ];
    // Every profile has its row.
    assert_eq!(expected.len(), profile::ALL.len());
    let mut wrong = Vec::new();
    for (p, loads) in expected {
        for ((label, description), want) in cases.iter().zip(loads) {
            let got = verdict(p, description);
            if got.is_ok() != want {
                wrong.push(format!(
                    "{} {label}: expected {}, got {got:?}",
                    p.key,
                    if want { "loads" } else { "fails" }
                ));
            }
            if let Err(rules) = &got {
                assert_eq!(
                    rules, "description-too-long",
                    "{} {label}: only the length refuses it",
                    p.key
                );
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_profile_cites_a_source_and_a_date() {
    for p in profile::ALL {
        assert!(
            p.source_url.starts_with("https://"),
            "{}: {}",
            p.key,
            p.source_url
        );
        assert!(p.as_of.contains("20"), "{} has a date: {}", p.key, p.as_of);
        for g in p.gates {
            assert!(
                !g.models.is_empty(),
                "{} {}: the gate says what it models",
                p.key,
                g.rule
            );
            assert!(
                skillpg_core::rules::all_rules()
                    .iter()
                    .any(|r| r.name == g.rule),
                "{}: {} is a rule",
                p.key,
                g.rule
            );
        }
    }
}

#[test]
fn a_name_is_counted_in_the_clients_unit_too() {
    // 33 emoji: 33 code points, 66 UTF-16 units; VS Code refuses, Codex does not.
    let name = "\u{1F4A1}".repeat(33);
    let text = format!("---\nname: {name}\ndescription: Use when testing.\n---\n");
    let a = analyze(&SkillBundle::new(
        &name,
        vec![BundleFile {
            path: "SKILL.md".into(),
            bytes: text.into_bytes(),
        }],
    ));
    let too_long = |p: &Profile| check(&a, p).iter().any(|d| d.rule == "name-too-long");
    assert!(too_long(&profile::COPILOT));
    assert!(!too_long(&profile::CODEX));
    assert!(!too_long(&profile::SPEC));
}

/// A skill folder `dir` holding only SKILL.md, whose bytes are `bytes`, analyzed.
fn skill_md(dir: &str, bytes: Vec<u8>) -> skillpg_core::Analysis {
    analyze(&SkillBundle::new(
        dir,
        vec![BundleFile {
            path: "SKILL.md".into(),
            bytes,
        }],
    ))
}

/// Whether SKILL.md `text`, in folder `dir`, loads under `profile` (the rules that refuse it
/// otherwise).
fn loads(profile: &Profile, dir: &str, text: &str) -> Result<(), String> {
    let a = skill_md(dir, text.as_bytes().to_vec());
    let diags = check(&a, profile);
    if is_valid(&diags) {
        return Ok(());
    }
    let refused: Vec<&str> = diags
        .iter()
        .filter(|d| d.severity == skillpg_core::Severity::Error)
        .map(|d| d.rule)
        .collect();
    Err(refused.join(","))
}

#[test]
fn where_codex_and_gemini_clis_loaders_part_ways_from_the_gates_they_had() {
    // Issue 28: verdicts written from each loader's code before the profiles were changed.
    // Codex: openai/codex codex-rs/core-skills/src/loader.rs at c9d127cf. `SkillFrontmatter`
    // has `name: Option<String>` and falls back to the folder (`default_skill_name`);
    // `metadata` deserializes into a struct, so a string is `invalid YAML: invalid type`;
    // serde's derive refuses a repeated known field and ignores a repeated unknown key;
    // `extract_frontmatter` compares the first line trimmed with `---`.
    // Gemini CLI: google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts at
    // 5411f113. `FRONTMATTER_REGEX` opens with `^---\r?\n`, so `--- ` is no frontmatter; when
    // js-yaml fails or gives a `name` or `description` that is not a string,
    // `parseSimpleFrontmatter` reads `name:` and `description:` lines as text (the last one
    // wins), and the skill loads when both lines exist.
    let body = "description: Does a thing when someone asks for it.\n";
    let cases: [(&str, &str, String, bool, bool); 6] = [
        (
            "trail",
            "opening `--- `",
            format!("--- \nname: trail\n{body}---\n# Body\n"),
            true,
            false,
        ),
        (
            "num",
            "`name: 123`",
            format!("---\nname: 123\n{body}---\n# Body\n"),
            true,
            true,
        ),
        (
            "nameless",
            "no `name`",
            format!("---\n{body}---\n# Body\n"),
            true,
            false,
        ),
        (
            "metastr",
            "`metadata` a string",
            format!("---\nname: metastr\n{body}metadata: v2\n---\n# Body\n"),
            false,
            true,
        ),
        (
            "dupunk",
            "an unknown key twice",
            format!("---\nname: dupunk\n{body}foo: 1\nfoo: 2\n---\n# Body\n"),
            true,
            true,
        ),
        (
            "dupname",
            "`name` twice",
            format!("---\nname: other\nname: dupname\n{body}---\n# Body\n"),
            false,
            true,
        ),
    ];
    let mut wrong = Vec::new();
    for (dir, what, text, codex, gemini) in &cases {
        for (profile, expected) in [(&profile::CODEX, codex), (&profile::GEMINI_CLI, gemini)] {
            let got = loads(profile, dir, text);
            if got.is_ok() != *expected {
                wrong.push(format!(
                    "{what}: {} expected {}, got {got:?}",
                    profile.key,
                    if *expected { "loads" } else { "refused" }
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_verdict_never_contradicts_its_own_finding_that_loaders_see_no_frontmatter() {
    // Issue 28: a UTF-16 SKILL.md was shown as loading in Copilot, Cursor and Gemini CLI, whose
    // loaders require frontmatter, while the same cell's finding said loaders see none. A
    // client that refuses a SKILL.md without frontmatter refuses one it cannot read as UTF-8.
    let text =
        "---\nname: utf16\ndescription: Does a thing when someone asks for it.\n---\n# Body\n";
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let a = skill_md("utf16", utf16);
    for p in profile::ALL {
        let diags = check(&a, p);
        // A client that decodes by the byte order mark (Mistral Vibe's `read_safe`, whose own
        // loader loads this file in tests/client_oracles.rs) reads the frontmatter.
        let decodes = p.utf8 == skillpg_core::profile::Utf8Reading::Sniffs;
        // A client that needs no frontmatter still refuses bytes it cannot decode strictly
        // (Kimi Code CLI's `read_text(encoding="utf-8")`).
        let strict_refuses = p.utf8 == skillpg_core::profile::Utf8Reading::Strict
            && p.is_gate("non-utf8-text")
            && !p.needs_frontmatter();
        let finding = diags.iter().find(|d| {
            d.rule == "non-utf8-text"
                && d.message.contains(if decodes {
                    "reads the frontmatter"
                } else if strict_refuses {
                    "strict UTF-8"
                } else {
                    "no frontmatter"
                })
        });
        let finding = finding.unwrap_or_else(|| panic!("{}: the finding is there", p.key));
        // Issue 36: its words are the verdict's (Claude Code loads it anyway, and says so).
        assert_eq!(
            finding.message.contains("still loads it"),
            !decodes && !strict_refuses && !p.needs_frontmatter(),
            "{}: {}",
            p.key,
            finding.message
        );
        assert_eq!(
            is_valid(&diags),
            decodes || (!strict_refuses && !p.needs_frontmatter()),
            "{}: a client that needs frontmatter refuses a file whose frontmatter it cannot see",
            p.key
        );
    }
}

#[test]
fn a_client_that_loads_an_over_long_description_is_not_said_to_allow_less() {
    // Issue 28: at 1,025 characters Gemini CLI loads the skill, and its warning said "Gemini
    // CLI allows 1,024". Where the length is no gate, the finding says the client loads it.
    let long = "a".repeat(1025);
    for p in profile::ALL {
        let text = format!("---\nname: ok\ndescription: {long}\n---\n# Body\n");
        let a = skill_md("ok", text.into_bytes());
        let diags = check(&a, p);
        for d in diags.iter().filter(|d| d.rule == "description-too-long") {
            if is_valid(&diags) {
                assert!(
                    !d.message.contains(&format!("{} allows", p.title)),
                    "{}: {}",
                    p.key,
                    d.message
                );
            }
        }
    }
}

#[test]
fn copilot_knows_the_user_invokable_spelling_vs_code_reads() {
    // Issue 28: VS Code's code reads `user-invokable` (its docs spell it `user-invocable`), so
    // the Copilot column does not call it unknown.
    let text = "---\nname: ok\ndescription: Does a thing when asked.\nuser-invokable: false\n---\n# Body\n";
    let a = skill_md("ok", text.as_bytes().to_vec());
    let unknown: Vec<String> = check(&a, &profile::COPILOT)
        .iter()
        .filter(|d| d.rule == "unknown-field")
        .map(|d| d.message.clone())
        .collect();
    assert!(unknown.is_empty(), "{unknown:?}");
}

#[test]
fn a_skill_inside_another_skills_folder_is_listed_only_where_the_client_looks_inside() {
    // Issue 28: `pdf/references/forms/SKILL.md` was counted as a skill in every client. Codex
    // walks every folder below a skills root (loader.rs, depth 6) and lists it; Gemini CLI globs
    // `SKILL.md` and `*/SKILL.md`; VS Code's `findAgentSkillsInFolder` takes `*/SKILL.md`;
    // Claude Code and Cursor document one folder a skill.
    let ok = |name: &str| {
        format!("---\nname: {name}\ndescription: Does a thing when asked.\n---\n# Body\n")
    };
    let input = skillpg_core::ingest::discover(
        "pdf",
        vec![
            ("SKILL.md".to_owned(), ok("pdf").into_bytes()),
            (
                "references/forms/SKILL.md".to_owned(),
                ok("forms").into_bytes(),
            ),
        ],
    );
    assert_eq!(input.skills.len(), 2);
    let listed = |p: &Profile| {
        input
            .skills
            .iter()
            .filter(|b| is_valid(&check(&analyze(b), p)))
            .count()
    };
    let expected = [
        (&profile::CODEX, 2),
        (&profile::GEMINI_CLI, 1),
        (&profile::COPILOT, 1),
        (&profile::CLAUDE_CODE, 1),
        (&profile::CURSOR, 1),
    ];
    for (p, n) in expected {
        assert_eq!(listed(p), n, "{}: skills listed", p.key);
    }
}

#[test]
fn the_fixtures_where_clients_part_ways_get_each_clients_verdict() {
    // The table of ../shared/reference/clients.md, for the clients whose loader was read, each
    // verdict written from the source before the run:
    // - spec: skills-ref 0.1.1 (`validate_metadata`: lowercase name equal to its folder;
    //   strictyaml refuses an unquoted `key: a: b`; `content.split("---", 2)` cuts at the first
    //   `---`, leaving a description that still parses; names counted in code points);
    // - codex: loader.rs at c9d127cf (serde_yaml refuses the unquoted colon; no character set,
    //   no folder match; lines compared with `---`; 1,024 code points after collapsing);
    // - gemini-cli: skillLoader.ts at 5411f113 (js-yaml fails on the colon, and the key-value
    //   fallback loads it; no name rule; no length rule);
    // - roo-code, kilo-code: SkillsManager.ts (342 UTF-16 units; the name regex refuses
    //   `MySkill`; js-yaml refuses the colon);
    // - cline: skills.ts (no length; `name !== folder` skips `MySkill`; the colon fails js-yaml,
    //   reported as a missing name);
    // - zed: agent_skills.rs (1,026 bytes only warns; `MySkill` fails `validate_name`; serde
    //   refuses the colon; a closing `---` must be a line of its own);
    // - crush: skills.go (1,026 bytes > 1,024 refuses; `[a-zA-Z0-9]` and `EqualFold` take
    //   `MySkill`; yaml.v3 refuses the colon);
    // - pi: skills.ts (everything but a missing description is a warning; the colon fails);
    // - goose: no name or length rule; the frontmatter ends at the first `---`, and
    //   `a ` still parses; serde_yaml refuses the colon;
    // - opencode: index.ts and markdown.ts (no length, name or folder rule; js-yaml fails on
    //   the colon, and `fallbackSanitization` turns `description: Use when: …` into a block
    //   scalar that parses, so it loads);
    // - letta-code: skills.ts and frontmatter.ts (a line reader that refuses nothing; the
    //   folded description is listed as `>`, a warning, not a refusal);
    // - augment: its docs (characters; lowercase name equal to its folder);
    // - copilot-cli: Copilot's documented rules (UTF-16 units, lowercase, folder).
    let fixture = |dir: &str, description: &str, name: &str| {
        (
            dir.to_owned(),
            format!("---\nname: {name}\ndescription: {description}\n---\n# Body\n"),
        )
    };
    let cjk = "語".repeat(342);
    // (folder, SKILL.md), [spec, codex, gemini-cli, roo-code, kilo-code, cline, zed, crush, pi,
    // goose, opencode, letta-code, augment, copilot-cli]
    let t = true;
    let f = false;
    let rows: Vec<((String, String), [bool; 14])> = vec![
        (
            fixture("cjk", &cjk, "cjk"),
            [t, t, t, t, t, t, t, f, t, t, t, t, t, t],
        ),
        (
            fixture("myskill", "Does a thing when asked.", "MySkill"),
            [f, t, t, f, f, f, f, t, t, t, t, t, f, f],
        ),
        (
            fixture("colon", "Use when: the user asks", "colon"),
            [f, f, t, f, f, f, f, f, f, f, t, t, f, f],
        ),
        (
            fixture("folded", ">\n  Does a thing\n  when asked.", "folded"),
            [t; 14],
        ),
        (fixture("dashes", "a --- b when asked", "dashes"), [t; 14]),
    ];
    let clients = [
        &profile::SPEC,
        &profile::CODEX,
        &profile::GEMINI_CLI,
        &profile::ROO_CODE,
        &profile::KILO_CODE,
        &profile::CLINE,
        &profile::ZED,
        &profile::CRUSH,
        &profile::PI,
        &profile::GOOSE,
        &profile::OPENCODE,
        &profile::LETTA_CODE,
        &profile::AUGMENT,
        &profile::COPILOT_CLI,
    ];
    let mut wrong = Vec::new();
    for ((dir, text), expected) in &rows {
        for (p, want) in clients.iter().zip(expected) {
            let got = loads(p, dir, text);
            if got.is_ok() != *want {
                wrong.push(format!(
                    "{dir} under {}: expected {want}, got {got:?}",
                    p.key
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn opencode_reads_an_unquoted_colon_only_through_its_fallback_and_only_when_that_parses() {
    // markdown.ts `fallbackSanitization`: only top-level `key: value` lines of letters, digits
    // and `_` are rewritten; so `allowed-tools: a: b` stays broken, and a duplicate key stays
    // refused after the rewrite.
    let opencode = &profile::OPENCODE;
    let colon = "---\nname: c\ndescription: Use when: asked\n---\n";
    assert_eq!(loads(opencode, "c", colon), Ok(()));
    let a = skill_md("c", colon.as_bytes().to_vec());
    let finding = check(&a, opencode)
        .into_iter()
        .find(|d| d.rule == "invalid-yaml")
        .expect("the YAML error is still reported");
    assert_eq!(finding.severity, skillpg_core::Severity::Warning);
    assert!(
        finding.message.contains("block scalar"),
        "{}",
        finding.message
    );
    // Stricter clients refuse the same file.
    assert!(loads(&profile::SPEC, "c", colon).is_err());
    let hyphen_key = "---\nname: c\ndescription: ok\nallowed-tools: Bash: git\n---\n";
    assert_eq!(
        loads(opencode, "c", hyphen_key),
        Err("invalid-yaml".to_owned())
    );
    let twice = "---\nname: c\nname: c\ndescription: Use when: asked\n---\n";
    assert!(loads(opencode, "c", twice).is_err());
    assert_eq!(
        skillpg_core::rules::opencode_requote(
            "name: x\ndescription: a: b\n  more: c\n# k: v\nq: \"a: b\""
        ),
        "name: x\ndescription: |-\n  a: b\n  more: c\n# k: v\nq: \"a: b\""
    );
}

#[test]
fn letta_code_lists_what_its_line_reader_reads_and_says_when_yaml_reads_otherwise() {
    use skillpg_core::rules::letta_description;
    // frontmatter.ts: each `key: value` line as it stands; skills.ts strips surrounding quotes
    // and falls back to the body's first paragraph.
    let one_line = "---\nname: x\ndescription: \"Use when: asked\"\n---\n# Body\n";
    assert_eq!(letta_description(one_line).description, "Use when: asked");
    let folded = "---\nname: x\ndescription: >\n  Does a thing\n  when asked.\n---\nFirst.\n";
    assert_eq!(letta_description(folded).description, ">");
    // CRLF: its pattern wants `---\n`, so no frontmatter; the first paragraph is the whole
    // frontmatter block.
    let crlf = "---\r\nname: x\r\ndescription: y\r\n---\r\n\r\nBody.\r\n";
    assert!(!letta_description(crlf).sees_frontmatter);
    // No body after the closing line: no frontmatter either.
    let bare = "---\nname: x\ndescription: y\n---\n";
    let r = letta_description(bare);
    assert!(!r.sees_frontmatter);
    assert!(r.description.starts_with("---\nname: x"), "{r:?}");
    // The rule: a warning under Letta Code only, with what it lists; the skill still loads.
    for (text, listed) in [(folded, "`>`"), (bare, "sees no frontmatter")] {
        let a = skill_md("x", text.as_bytes().to_vec());
        let under_letta = check(&a, &profile::LETTA_CODE);
        let d = under_letta
            .iter()
            .find(|d| d.rule == "line-read-description")
            .expect("a finding under Letta Code");
        assert_eq!(d.severity, skillpg_core::Severity::Warning);
        assert!(d.message.contains(listed), "{}", d.message);
        assert!(is_valid(&under_letta));
        assert!(
            !check(&a, &profile::SPEC)
                .iter()
                .any(|d| d.rule == "line-read-description"),
            "other clients read YAML"
        );
    }
    let a = skill_md("x", one_line.as_bytes().to_vec());
    assert!(
        !check(&a, &profile::LETTA_CODE)
            .iter()
            .any(|d| d.rule == "line-read-description"),
        "the same description either way: nothing to say"
    );
}

#[test]
fn claude_codes_listing_names_a_skill_by_its_folder_and_falls_back_to_the_first_paragraph() {
    use skillpg_core::catalog::InstalledSkill;
    // Claude Code docs v2.1.240: for personal and project skills the command name comes from
    // the folder (the frontmatter `name` is a display label); `description` falls back to the
    // first paragraph. Codex lists the frontmatter's name and no fallback.
    let a = skill_md(
        "release-notes",
        b"---\nname: Release Notes Writer\n---\n# Release notes\n\nWrite release notes\nfrom merged PRs.\n\nMore.\n".to_vec(),
    );
    let cc = InstalledSkill::from_analysis(&a, &profile::CLAUDE_CODE);
    assert_eq!(cc.name, "release-notes");
    assert_eq!(cc.description, "Write release notes from merged PRs.");
    let codex = InstalledSkill::from_analysis(&a, &profile::CODEX);
    assert_eq!(codex.name, "Release Notes Writer");
    assert_eq!(codex.description, "");
}

#[test]
fn profile_keys_resolve_once_each_and_an_unknown_key_is_an_error_everywhere() {
    use skillpg_core::Profile;
    let keys = |ps: Vec<&'static Profile>| ps.iter().map(|p| p.key).collect::<Vec<_>>();
    // Issue 37: `["claude-code", "all"]` checked Claude Code twice in the CLI.
    let all = Profile::resolve(&["claude-code", "all"]).expect("resolves");
    assert_eq!(all.len(), profile::ALL.len());
    assert_eq!(all[0].key, "claude-code");
    assert_eq!(
        keys(Profile::resolve(&["codex", "spec", "codex"]).expect("resolves")),
        ["codex", "spec"]
    );
    assert_eq!(
        keys(Profile::resolve::<&str>(&[]).expect("resolves")),
        ["spec"]
    );
    let e = Profile::resolve(&["codex", "no-such", "nor-this"]).expect_err("unknown");
    assert!(
        e.contains("'no-such', 'nor-this'") && e.contains("expected spec"),
        "{e}"
    );
}

/// Every client is in exactly one group of the page's "Where it loads", and the groups keep
/// the clients' order: no client can be added without a place on the page.
#[test]
fn every_client_is_in_exactly_one_group_in_order() {
    use skillpg_core::profile::{ALL, GROUPS, group_of};
    let grouped: Vec<&str> = GROUPS
        .iter()
        .flat_map(|(_, keys)| keys.iter().copied())
        .collect();
    assert_eq!(grouped.len(), ALL.len(), "{grouped:?}");
    for p in ALL.iter() {
        assert_eq!(
            grouped.iter().filter(|k| **k == p.key).count(),
            1,
            "{}",
            p.key
        );
        assert!(group_of(p.key).is_some());
    }
    for (title, keys) in GROUPS.iter() {
        let at: Vec<usize> = keys
            .iter()
            .map(|k| ALL.iter().position(|p| p.key == *k).expect("a client"))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{title}: {keys:?}");
    }
    assert_eq!(group_of("no-such-client"), None);
}

#[test]
fn goose_and_zed_load_as_their_serde_structs_read() {
    // Written from the clients' code before the run:
    // - goose: crates/goose/src/skills/mod.rs at 013ab848: `SkillFrontmatter { name:
    //   Option<String>, description: String, metadata: HashMap<String, Value> }` through
    //   serde_yaml; `parse_skill_content` skips a missing or empty name and a name with `/`; a
    //   `metadata` that is not a map fails the parse and the skill is skipped; serde reads a
    //   plain scalar such as `123` into a `String`.
    // - zed: agent_skills.rs: `SkillMetadata { name: String, description: String, .. }`
    //   through serde_yaml_ng (the same plain scalars); a SKILL.md over 100 KiB is refused
    //   before it is read; lengths in characters since PR #63766, an over-long description
    //   only warns.
    let md = |name: &str, extra: &str| {
        format!("---\nname: {name}\ndescription: Does a thing when asked.\n{extra}---\n# Body\n")
    };
    let g = &profile::GOOSE;
    assert_eq!(
        loads(g, "ok", &md("team/ok", "")),
        Err("name-invalid-chars".into())
    );
    assert_eq!(
        loads(g, "ok", &md("ok", "metadata:\n  - a\n")),
        Err("metadata-not-mapping".into())
    );
    assert_eq!(
        loads(g, "ok", &md("ok", "metadata: v2\n")),
        Err("metadata-not-mapping".into())
    );
    assert_eq!(
        loads(g, "ok", &md("ok", "metadata:\n  version: 2\n")),
        Ok(())
    );
    assert_eq!(loads(g, "123", &md("123", "")), Ok(()));
    assert_eq!(
        loads(g, "ok", &md("My_Skill", "")),
        Ok(()),
        "no other name rule"
    );
    assert!(
        loads(g, "ok", &md("", "")).is_err(),
        "an empty name is skipped"
    );
    let z = &profile::ZED;
    assert_eq!(loads(z, "123", &md("123", "")), Ok(()));
    assert!(
        loads(z, "ok", &md("~", "")).is_err(),
        "a null name is not a string"
    );
    // Words, not one long run: a run of 100,000 letters is one pre-token, slow to count.
    let body = |bytes: usize| {
        let head = md("ok", "");
        let fill = bytes - head.len();
        format!("{head}{}{}", "word ".repeat(fill / 5), "x".repeat(fill % 5))
    };
    assert_eq!(loads(z, "ok", &body(100 * 1024)), Ok(()));
    assert_eq!(
        loads(z, "ok", &body(100 * 1024 + 1)),
        Err("skill-md-too-large".into())
    );
    let long = format!("---\nname: ok\ndescription: {}\n---\n", "é".repeat(1_000));
    assert_eq!(
        loads(z, "ok", &long),
        Ok(()),
        "1,000 characters (2,000 bytes) is under 1,024"
    );
}

#[test]
fn pi_and_cline_refuse_what_their_frontmatter_readers_refuse() {
    // Written from the clients' code before the run:
    // - pi: src/utils/frontmatter.ts at 5c3131cc parses with `yaml`'s `parse`, whose
    //   `uniqueKeys` default throws on a repeated key; skills.ts `loadSkillFromFile` catches it
    //   and skips the skill. Without frontmatter there is no description: skipped, though the
    //   name would fall back to the folder.
    // - cline: frontmatter.ts at 2aa69905 matches `^---\r?\n`: an opening `--- ` is no
    //   frontmatter, so no name, and the skill is skipped; a plain `---` loads.
    let ok = "---\nname: ok\ndescription: Does a thing when asked.\n---\n# Body\n";
    let twice = "---\nname: ok\ndescription: One.\ndescription: Does a thing when asked.\n---\n";
    assert_eq!(loads(&profile::PI, "ok", ok), Ok(()));
    assert_eq!(
        loads(&profile::PI, "ok", twice),
        Err("duplicate-key".into())
    );
    let bare = skill_md("ok", b"# Just a body\n".to_vec());
    let d = check(&bare, &profile::PI);
    let missing = d
        .iter()
        .find(|d| d.rule == "frontmatter-missing")
        .expect("no frontmatter");
    assert_eq!(missing.severity, skillpg_core::Severity::Error);
    assert!(
        missing
            .message
            .contains("finds no description and skips it"),
        "{}",
        missing.message
    );
    let spaced = "--- \nname: ok\ndescription: Does a thing when asked.\n---\n# Body\n";
    assert_eq!(loads(&profile::CLINE, "ok", ok), Ok(()));
    assert_eq!(
        loads(&profile::CLINE, "ok", spaced),
        Err("frontmatter-opening-space".into())
    );
}

#[test]
fn opencode_takes_an_empty_description_and_refuses_one_that_is_not_a_string() {
    // Written from OpenCode's index.ts at 048f74f4 before the run: zod's
    // `description: z.string()` passes `""` and whitespace, and refuses null, a number, a
    // list and a map; js-yaml reads `description:` as null and `42` as a number.
    let md = |value: &str| format!("---\nname: ok\ndescription:{value}\n---\n# Body\n");
    let o = &profile::OPENCODE;
    assert_eq!(loads(o, "ok", &md(" \"\"")), Ok(()));
    assert_eq!(loads(o, "ok", &md(" \"   \"")), Ok(()));
    assert_eq!(
        loads(o, "ok", &md("")),
        Err("description-not-string".into())
    );
    assert_eq!(
        loads(o, "ok", &md(" 42")),
        Err("description-not-string".into())
    );
    assert_eq!(
        loads(o, "ok", &md("\n  - a")),
        Err("description-not-string".into())
    );
    // Elsewhere the empty description stays refused, by description-empty alone.
    let spec = check(&skill_md("ok", md(" \"\"").into_bytes()), &profile::SPEC);
    assert!(spec.iter().any(|d| d.rule == "description-empty"));
    assert!(!spec.iter().any(|d| d.rule == "description-not-string"));
}

#[test]
fn kimi_code_cli_refuses_almost_nothing_and_describes_a_skill_by_its_first_line() {
    use skillpg_core::catalog::InstalledSkill;
    // Written from kimi-cli 1.52.0's skill/__init__.py (`parse_skill_text`) and
    // utils/frontmatter.py (`parse_frontmatter`) before its first run; its own loader now runs
    // in tests/client_oracles.rs (Python 3.12), and its profile replays it whole, so each
    // refusal is the replay's (`loader-replay-refuses`), in Kimi's own words.
    let kimi = &profile::KIMI_CLI;
    let body = "# Title\n\nFirst real line.\n";
    let with = |fm: &str| format!("---\n{fm}\n---\n{body}");
    // No frontmatter, an unclosed one, no name or description: still a skill.
    assert_eq!(loads(kimi, "notes", body), Ok(()));
    assert_eq!(
        loads(kimi, "notes", "---\nname: notes\n# never closed\n"),
        Ok(())
    );
    assert_eq!(loads(kimi, "notes", &with("license: MIT")), Ok(()));
    // No name rule, no length, no folder match.
    assert_eq!(
        loads(kimi, "x", &with("name: a/B_c\ndescription: Does it.")),
        Ok(())
    );
    let long = format!("name: x\ndescription: {}", "word ".repeat(500));
    assert_eq!(loads(kimi, "x", &with(&long)), Ok(()));
    // A falsy name or description gives way (YAML 1.1's `no` is false); a truthy one that is
    // not a string fails pydantic's `str`.
    assert_eq!(loads(kimi, "x", &with("name: no\ndescription: 0")), Ok(()));
    assert_eq!(
        loads(kimi, "x", &with("name: 123\ndescription: Does it.")),
        Err("loader-replay-refuses".into())
    );
    assert_eq!(
        loads(kimi, "x", &with("name: x\ndescription: 42")),
        Err("loader-replay-refuses".into())
    );
    // `type` is `standard` or `flow` (or falsy); 14 corpus skills say `type: technique`.
    assert_eq!(
        loads(kimi, "x", &with("name: x\ndescription: D.\ntype: flow")),
        Ok(())
    );
    assert_eq!(
        loads(
            kimi,
            "x",
            &with("name: x\ndescription: D.\ntype: technique")
        ),
        Err("loader-replay-refuses".into())
    );
    assert_eq!(
        loads(kimi, "x", &with("name: x\ndescription: D.\ntype: ~")),
        Ok(())
    );
    // Elsewhere `type` is only an unknown field.
    assert_eq!(
        loads(
            &profile::CODEX,
            "x",
            &with("name: x\ndescription: D.\ntype: technique")
        ),
        Ok(())
    );
    // YAML that does not parse, or is not a mapping, keeps the skill out.
    assert_eq!(
        loads(kimi, "x", &with("name: [x")),
        Err("loader-replay-refuses".into())
    );
    // Listed by the folder's name and the body's first line, cut at 240 characters with `…`.
    let a = skill_md("notes", body.as_bytes().to_vec());
    let listed = InstalledSkill::from_analysis(&a, kimi);
    assert_eq!(
        (listed.name.as_str(), listed.description.as_str()),
        ("notes", "# Title")
    );
    let a = skill_md(
        "x",
        with("name: x\ndescription: ''")
            .replace("# Title", &"y".repeat(300))
            .into_bytes(),
    );
    let listed = InstalledSkill::from_analysis(&a, kimi);
    assert_eq!(listed.description, format!("{}\u{2026}", "y".repeat(239)));
    let a = skill_md("x", b"---\nname: x\n---\n".to_vec());
    assert_eq!(
        InstalledSkill::from_analysis(&a, kimi).description,
        "No description provided."
    );
}

/// Issue 48: every profile names what it models: a release (`1.52.0`), a commit (`18348889`),
/// or says that its source names none.
#[test]
fn every_profile_names_the_version_or_commit_it_models() {
    let names_one = |s: &str| {
        let release = s
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .any(|w| {
                w.split('.').filter(|p| !p.is_empty()).count() >= 2
                    && w.split('.').all(|p| p.chars().all(|c| c.is_ascii_digit()))
            });
        let commit = s.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
            w.len() >= 7
                && w.chars().all(|c| c.is_ascii_hexdigit())
                && w.chars().any(|c| c.is_ascii_digit())
        });
        release || commit || s.contains("name no") || s.contains("naming no")
    };
    for p in profile::ALL {
        assert!(
            names_one(p.as_of),
            "{}'s as_of names no release or commit: {}",
            p.key,
            p.as_of
        );
    }
}
