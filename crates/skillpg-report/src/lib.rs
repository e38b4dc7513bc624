//! The serializable counterparts of the engine's types, converted by hand, so that the engine
//! stays free of serialization and the JSON schema changes only on purpose.
//!
//! `skillpg check --format json`, `skillpg levels --format json`, `skillpg cost --format json`
//! and the page's "export JSON" all print these shapes.

use serde::{Deserialize, Serialize};
use skillpg_core::cost::CostReport;
use skillpg_core::{Analysis, Diagnostic};

/// `skillpg check --format json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CheckJson {
    /// The profile checked against.
    pub profile: String,
    /// One entry per skill.
    pub skills: Vec<SkillCheckJson>,
    /// Findings about the skills installed together (the listing budget), when the caller
    /// declared them a catalog; about no single skill, so they never change a skill's verdict.
    #[serde(default)]
    pub catalog: Vec<DiagnosticJson>,
}

/// One skill's verdict.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SkillCheckJson {
    /// Where the skill was found.
    pub path: String,
    /// Its name (the frontmatter's, else the folder's).
    pub name: String,
    /// No error under the profile.
    pub valid: bool,
    /// The findings, in rule order.
    pub diagnostics: Vec<DiagnosticJson>,
    /// The levels, when the caller asks for them (the page's export does).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub levels: Option<LevelsJson>,
}

/// One finding.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DiagnosticJson {
    /// Stable code.
    pub code: String,
    /// Rule name.
    pub rule: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// The message.
    pub message: String,
    /// File relative to the skill folder.
    pub file: String,
    /// 1-based line, when located.
    pub line: Option<usize>,
    /// 1-based column in characters, when located.
    pub column: Option<usize>,
    /// Byte span `[start, end)` in the file's text.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub span: Option<[usize; 2]>,
    /// The fix's title and whether it is safe.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fix: Option<FixJson>,
    /// Where the rule comes from.
    pub source: String,
    /// The source's address.
    pub source_url: String,
}

/// A fix, described.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FixJson {
    /// What it does.
    pub title: String,
    /// Safe to apply without review.
    pub safe: bool,
}

/// `skillpg levels --format json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LevelsReportJson {
    /// The tokenizer, stated with every count.
    pub tokenizer: String,
    /// One entry per skill.
    pub skills: Vec<LevelsJson>,
    /// Sums over the skills.
    pub total: TotalJson,
}

/// One skill's levels.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LevelsJson {
    /// Where the skill was found.
    pub path: String,
    /// Its name.
    pub name: String,
    /// Tokens of `- name: description\n`.
    pub level1: usize,
    /// Tokens of the body.
    pub level2: usize,
    /// Tokens of every other file.
    pub level3: usize,
    /// Number of other files.
    pub files: usize,
    /// Per file.
    pub files_detail: Vec<FileJson>,
    /// Per `##` section of the body.
    pub sections: Vec<SectionJson>,
    /// The paths out of SKILL.md with their cost.
    pub links: Vec<LinkJson>,
}

/// Sums.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TotalJson {
    /// Level 1.
    pub level1: usize,
    /// Level 2.
    pub level2: usize,
    /// Level 3.
    pub level3: usize,
    /// Files.
    pub files: usize,
}

/// One file of level 3.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FileJson {
    /// Path relative to the skill folder.
    pub path: String,
    /// o200k_base tokens.
    pub tokens: usize,
    /// Size.
    pub bytes: usize,
    /// Binary (counted 0).
    pub binary: bool,
}

/// One section of the body.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SectionJson {
    /// Heading text (empty for the preamble).
    pub title: String,
    /// Tokens.
    pub tokens: usize,
}

/// One path out of SKILL.md.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LinkJson {
    /// The path.
    pub path: String,
    /// Tokens an agent pays to follow it.
    pub tokens: usize,
    /// `file`, `dir`, `missing` or `outside`.
    pub target: String,
    /// 1-based line in SKILL.md.
    pub line: usize,
}

/// `skillpg cost --format json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CostJson {
    /// The inputs.
    pub inputs: CostInputsJson,
    /// Everything in the system prompt.
    pub system_prompt: CostLineJson,
    /// As a skill, used once.
    pub skill_used: CostLineJson,
    /// As a skill, never used.
    pub skill_unused: CostLineJson,
}

/// The inputs of the arithmetic.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CostInputsJson {
    /// Turns.
    pub turns: u64,
    /// Level 1.
    pub level1: u64,
    /// Level 2.
    pub level2: u64,
    /// Level 3.
    pub level3: u64,
    /// Tokens of the files read on use.
    pub read_tokens: u64,
    /// Turn of use.
    pub activate_at: Option<u64>,
    /// $ per million input tokens.
    pub price: f64,
    /// $ per million cached input tokens.
    pub cached_price: f64,
}

/// One line of the cost table.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CostLineJson {
    /// Tokens.
    pub tokens: u64,
    /// Dollars.
    pub usd: f64,
    /// Dollars with caching.
    pub usd_cached: f64,
}

/// Converts a diagnostic.
pub fn diagnostic_json(d: &Diagnostic) -> DiagnosticJson {
    DiagnosticJson {
        code: d.code.to_owned(),
        rule: d.rule.to_owned(),
        severity: d.severity.as_str().to_owned(),
        message: d.message.clone(),
        file: d.file.clone(),
        line: d.location.map(|l| l.line),
        column: d.location.map(|l| l.column),
        span: d.span.as_ref().map(|s| [s.start, s.end]),
        fix: d.fix.as_ref().map(|f| FixJson { title: f.title.clone(), safe: f.applicability == skillpg_core::Applicability::Safe }),
        source: d.source.title.to_owned(),
        source_url: d.source.url.to_owned(),
    }
}

/// Converts one skill's check.
pub fn skill_check_json(a: &Analysis, diagnostics: &[Diagnostic], with_levels: bool) -> SkillCheckJson {
    SkillCheckJson {
        path: a.display_path.clone(),
        name: a.display_name().to_owned(),
        valid: skillpg_core::is_valid(diagnostics),
        diagnostics: diagnostics.iter().map(diagnostic_json).collect(),
        levels: with_levels.then(|| levels_json(a)),
    }
}

/// Converts one skill's levels.
pub fn levels_json(a: &Analysis) -> LevelsJson {
    let skill_md = a.skill_md_path.as_deref();
    let index = a.doc.as_ref().map(|d| (skillpg_core::LineIndex::new(&d.text), d.text.as_str()));
    LevelsJson {
        path: a.display_path.clone(),
        name: a.display_name().to_owned(),
        level1: a.levels().level1,
        level2: a.levels().level2,
        level3: a.levels().level3,
        files: a.levels().files,
        files_detail: a
            .files
            .iter()
            .filter(|f| Some(f.path.as_str()) != skill_md)
            .map(|f| FileJson { path: f.path.clone(), tokens: f.tokens(), bytes: f.n_bytes, binary: f.is_binary() })
            .collect(),
        sections: a.sections().iter().map(|s| SectionJson { title: s.title.clone(), tokens: a.section_tokens(s) }).collect(),
        links: a
            .links
            .iter()
            .map(|l| LinkJson {
                path: l.path.clone(),
                tokens: a.link_tokens(l),
                target: match l.target {
                    skillpg_core::links::Target::File { .. } => "file",
                    skillpg_core::links::Target::Dir { .. } => "dir",
                    skillpg_core::links::Target::Missing => "missing",
                    skillpg_core::links::Target::OutsideFolder => "outside",
                }
                .to_owned(),
                line: index.as_ref().map(|(i, t)| i.line_col(t, l.span.start).line).unwrap_or(0),
            })
            .collect(),
    }
}

/// Converts a levels report over several skills.
pub fn levels_report_json(analyses: &[Analysis]) -> LevelsReportJson {
    let skills: Vec<LevelsJson> = analyses.iter().map(levels_json).collect();
    let total = TotalJson {
        level1: skills.iter().map(|s| s.level1).sum(),
        level2: skills.iter().map(|s| s.level2).sum(),
        level3: skills.iter().map(|s| s.level3).sum(),
        files: skills.iter().map(|s| s.files).sum(),
    };
    LevelsReportJson { tokenizer: TOKENIZER_NOTE.to_owned(), skills, total }
}

/// The caveat that goes with every count.
pub const TOKENIZER_NOTE: &str = "o200k_base (OpenAI); other vendors' tokenizers give different counts";

/// Converts a cost report.
pub fn cost_json(inputs: &skillpg_core::cost::CostInputs, r: &CostReport) -> CostJson {
    let line = |l: &skillpg_core::cost::CostLine| CostLineJson { tokens: l.tokens, usd: l.usd, usd_cached: l.usd_cached };
    CostJson {
        inputs: CostInputsJson {
            turns: inputs.turns,
            level1: inputs.level1,
            level2: inputs.level2,
            level3: inputs.level3,
            read_tokens: inputs.read_tokens,
            activate_at: inputs.activate_at,
            price: inputs.price_per_million,
            cached_price: inputs.cached_price_per_million,
        },
        system_prompt: line(&r.system_prompt),
        skill_used: line(&r.skill_used),
        skill_unused: line(&r.skill_unused),
    }
}

/// A SARIF 2.1.0 log of a check, for code-scanning tools.
pub fn sarif(check: &CheckJson) -> serde_json::Value {
    let rules: Vec<serde_json::Value> = skillpg_core::rules::all_rules()
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.code,
                "name": r.name,
                "shortDescription": {"text": r.summary},
                "helpUri": r.source.url,
            })
        })
        .collect();
    let results: Vec<serde_json::Value> = check
        .skills
        .iter()
        .flat_map(|s| {
            s.diagnostics.iter().map(move |d| {
                let uri = if d.file.is_empty() { s.path.clone() } else { format!("{}/{}", s.path, d.file) };
                let mut location = serde_json::json!({"physicalLocation": {"artifactLocation": {"uri": uri}}});
                if let (Some(line), Some(column)) = (d.line, d.column) {
                    location["physicalLocation"]["region"] = serde_json::json!({"startLine": line, "startColumn": column});
                }
                serde_json::json!({
                    "ruleId": d.code,
                    "level": match d.severity.as_str() { "error" => "error", "warning" => "warning", _ => "note" },
                    "message": {"text": d.message},
                    "locations": [location],
                })
            })
        })
        .chain(check.catalog.iter().map(|d| {
            serde_json::json!({
                "ruleId": d.code,
                "level": match d.severity.as_str() { "error" => "error", "warning" => "warning", _ => "note" },
                "message": {"text": d.message},
            })
        }))
        .collect();
    serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "skillpg", "informationUri": "https://agentskills.io/specification", "rules": rules}},
            "results": results,
        }],
    })
}
