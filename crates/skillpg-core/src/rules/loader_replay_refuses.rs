//! ## What it checks
//! Under a client whose loader is replayed whole ([`crate::replay`]: its own reading of the
//! frontmatter, then its own checks on that reading), whether that replay refuses the skill,
//! in the client's own words. Only such clients have it; their other findings are advice.
//! ## Why it matters
//! A loader that reads frontmatter its own way (Qwen Code falls back to a line parser when YAML
//! throws, and stringifies numbers and lists) loads skills YAML's reading would refuse and
//! refuses some it would load; only the replay gives its verdict.
//! ## Example
//! Under Qwen Code, `name: 'my-skill'` beside a repeated key: its line parser keeps the quotes,
//! and `'my-skill'` fails its name pattern.
//! ## Fix
//! Whatever the message asks; most often, YAML that parses without repeated keys.
//! ## Source
//! Each replayed client's own loader, cited on each finding (its profile's source and date):
//! QwenLM/qwen-code `packages/core/src/skills/skill-manager.ts` (`parseSkillContent`) and
//! `packages/core/src/utils/yaml-parser.ts`; OpenClaw's `local-loader.ts` and
//! `markdown-core/src/frontmatter.ts`; both run in `tests/client_oracles.rs`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG096",
    name: "loader-replay-refuses",
    summary: "The client's loader, replayed on its own reading of SKILL.md, refuses the skill.",
    default_severity: Severity::Error,
    source: sources::QWEN_CODE,
};

pub fn check(cx: &mut Cx) {
    let Some(replay) = cx.profile.replay else {
        return;
    };
    let Some(doc) = cx.a.doc.as_ref() else {
        return;
    };
    let Err(why) = replay(&doc.text, &cx.a.dir_name) else {
        return;
    };
    let message = format!("{} skips the skill: `{why}`", cx.profile.title);
    let end = doc.text.find('\n').unwrap_or(doc.text.len());
    // Each client's refusal cites that client's own loader, not the rule's first one.
    let cited = crate::diagnostic::SourceRef {
        title: cx.profile.as_of,
        url: cx.profile.source_url,
    };
    if let Some(d) = cx.report_md(&META, Some(0..end), message) {
        d.source = cited;
    }
}
