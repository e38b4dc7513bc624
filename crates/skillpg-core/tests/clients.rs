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
    let a = analyze(&SkillBundle::new(
        "ok",
        vec![BundleFile {
            path: "SKILL.md".into(),
            bytes: text.into_bytes(),
        }],
    ));
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
    // strict clients, Cursor and Gemini CLI refuse no length.
    let expected: [(&Profile, [bool; 7]); 8] = [
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
        (&profile::CURSOR, [true, true, true, true, true, true, true]),
        (
            &profile::GEMINI_CLI,
            [true, true, true, true, true, true, true],
        ),
    ];
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
