//! The serializable counterparts of the engine's types, converted by hand, so that the engine
//! stays free of serialization and the JSON schema changes only on purpose.
//!
//! `skillpg check --format json`, `skillpg levels --format json`, `skillpg cost --format json`
//! and the page's "export JSON" all print these shapes.

pub mod baseline;
pub mod budget_gate;
pub mod config;
pub mod github;
pub mod project;

use serde::{Deserialize, Serialize};
use skillpg_core::cost::CostReport;
use skillpg_core::{Analysis, Diagnostic, Profile};

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
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Hash)]
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
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Hash)]
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
        fix: d.fix.as_ref().map(|f| FixJson {
            title: f.title.clone(),
            safe: f.applicability == skillpg_core::Applicability::Safe,
        }),
        source: d.source.title.to_owned(),
        source_url: d.source.url.to_owned(),
    }
}

/// Converts one skill's check.
pub fn skill_check_json(
    a: &Analysis,
    diagnostics: &[Diagnostic],
    with_levels: bool,
) -> SkillCheckJson {
    SkillCheckJson {
        path: a.display_path.clone(),
        name: a.display_name().to_owned(),
        valid: skillpg_core::is_valid(diagnostics),
        diagnostics: diagnostics.iter().map(diagnostic_json).collect(),
        levels: with_levels.then(|| levels_json(a)),
    }
}

/// One profile's report: each skill's findings (`per_skill`, in the order of `analyses`) and
/// the catalog's own.
pub fn check_json(
    profile: &skillpg_core::Profile,
    analyses: &[Analysis],
    per_skill: &[Vec<Diagnostic>],
    catalog: &[Diagnostic],
) -> CheckJson {
    CheckJson {
        profile: profile.key.to_owned(),
        skills: analyses
            .iter()
            .zip(per_skill)
            .map(|(a, d)| skill_check_json(a, d, false))
            .collect(),
        catalog: catalog.iter().map(diagnostic_json).collect(),
    }
}

/// Converts one skill's levels.
pub fn levels_json(a: &Analysis) -> LevelsJson {
    let skill_md = a.skill_md_path.as_deref();
    let index = a
        .doc
        .as_ref()
        .map(|d| (skillpg_core::LineIndex::new(&d.text), d.text.as_str()));
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
            .map(|f| FileJson {
                path: f.path.clone(),
                tokens: f.tokens(),
                bytes: f.n_bytes,
                binary: f.is_binary(),
            })
            .collect(),
        sections: a
            .sections()
            .iter()
            .map(|s| SectionJson {
                title: s.title.clone(),
                tokens: a.section_tokens(s),
            })
            .collect(),
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
                line: index
                    .as_ref()
                    .map(|(i, t)| i.line_col(t, l.span.start).line)
                    .unwrap_or(0),
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
    LevelsReportJson {
        tokenizer: TOKENIZER_NOTE.to_owned(),
        skills,
        total,
    }
}

/// The caveat that goes with every count.
pub const TOKENIZER_NOTE: &str =
    "o200k_base (OpenAI); other vendors' tokenizers give different counts";

/// Converts a cost report.
pub fn cost_json(inputs: &skillpg_core::cost::CostInputs, r: &CostReport) -> CostJson {
    let line = |l: &skillpg_core::cost::CostLine| CostLineJson {
        tokens: l.tokens,
        usd: l.usd,
        usd_cached: l.usd_cached,
    };
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
    sarif_log(vec![sarif_run(check)])
}

/// A SARIF 2.1.0 log with one run per client (`skillpg check --profile all --format sarif`):
/// each run's `automationDetails.id` names the client, so a code-scanning tool keeps one
/// category of alerts per client.
pub fn sarif_per_client(checks: &[CheckJson]) -> serde_json::Value {
    sarif_log(
        checks
            .iter()
            .map(|c| {
                let mut run = sarif_run(c);
                run["automationDetails"] =
                    serde_json::json!({"id": format!("skillpg/{}/", c.profile)});
                run
            })
            .collect(),
    )
}

fn sarif_log(runs: Vec<serde_json::Value>) -> serde_json::Value {
    serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": runs,
    })
}

/// One SARIF run: the rules and the findings of one check.
fn sarif_run(check: &CheckJson) -> serde_json::Value {
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
        "tool": {"driver": {"name": "skillpg", "informationUri": "https://agentskills.io/specification", "rules": rules}},
        "results": results,
        "properties": {"profile": check.profile},
    })
}

/// One client's verdict on every loaded skill (`skillpg check --profile all --format json`, and
/// the page's "Where it loads" matrix, which renders the same rows).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ClientVerdictsJson {
    /// The profile's key (`codex`).
    pub client: String,
    /// Its title.
    pub title: String,
    /// The date and sources it was written from.
    pub as_of: String,
    /// Where the client documents what the profile encodes.
    pub source: String,
    /// One cell per skill, in the order loaded.
    pub skills: Vec<ClientCellJson>,
}

/// One skill under one client.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ClientCellJson {
    /// The skill's name.
    pub name: String,
    /// Where it was found.
    pub path: String,
    /// Whether the client loads it (no error under the profile).
    pub loads: bool,
    /// Its errors and warnings under the profile.
    pub errors: usize,
    pub warnings: usize,
    /// Why it does not load: the first error, in the client's words where the profile has
    /// them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reason: Option<DiagnosticJson>,
}

/// One skill under every chosen client, each finding written once with the clients that raise
/// it (`skillpg check --format jsonl`: one line a skill, written as soon as it is checked).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SkillAcrossJson {
    /// Where the skill was found.
    pub path: String,
    /// Its name (the frontmatter's, else the folder's).
    pub name: String,
    /// Whether each client loads it, in the order the clients were chosen.
    pub clients: Vec<ClientLoadsJson>,
    /// Every finding once, in the first client's order, then the next client's new ones.
    pub findings: Vec<SharedFindingJson>,
}

/// Whether one client loads a skill.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ClientLoadsJson {
    /// The profile's key.
    pub client: String,
    /// No error under it.
    pub loads: bool,
}

/// A finding and the clients it is found under, word for word (its severity and message are
/// part of it: a finding that is an error under one client and a warning under another is two).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SharedFindingJson {
    #[serde(flatten)]
    pub finding: DiagnosticJson,
    /// The profiles' keys.
    pub clients: Vec<String>,
}

/// One skill's findings under each client (`per_client`, in the chosen order), each finding once.
pub fn skill_across(
    a: &Analysis,
    per_client: &[(&skillpg_core::Profile, &[Diagnostic])],
) -> SkillAcrossJson {
    let mut findings: Vec<SharedFindingJson> = Vec::new();
    let mut seen: std::collections::HashMap<DiagnosticJson, usize> =
        std::collections::HashMap::new();
    for (p, diags) in per_client {
        for d in diags.iter() {
            let finding = diagnostic_json(d);
            match seen.get(&finding) {
                Some(&i) => {
                    // The same finding twice under one client stays one entry naming it once.
                    if findings[i].clients.last().map(String::as_str) != Some(p.key) {
                        findings[i].clients.push(p.key.to_owned());
                    }
                }
                None => {
                    seen.insert(finding.clone(), findings.len());
                    findings.push(SharedFindingJson {
                        finding,
                        clients: vec![p.key.to_owned()],
                    });
                }
            }
        }
    }
    SkillAcrossJson {
        path: a.display_path.clone(),
        name: a.display_name().to_owned(),
        clients: per_client
            .iter()
            .map(|(p, diags)| ClientLoadsJson {
                client: p.key.to_owned(),
                loads: skillpg_core::is_valid(diags),
            })
            .collect(),
        findings,
    }
}

/// One client's cell for one skill in the matrix of `client_verdicts`.
pub fn client_cell(a: &Analysis, diags: &[Diagnostic]) -> ClientCellJson {
    let count = |s: skillpg_core::Severity| diags.iter().filter(|d| d.severity == s).count();
    let errors = count(skillpg_core::Severity::Error);
    ClientCellJson {
        name: a.display_name().to_owned(),
        path: a.display_path.clone(),
        loads: errors == 0,
        errors,
        warnings: count(skillpg_core::Severity::Warning),
        reason: diags
            .iter()
            .find(|d| d.severity == skillpg_core::Severity::Error)
            .map(diagnostic_json),
    }
}

/// The matrix of `checks` (each profile with its per-skill findings) over `analyses`.
pub fn client_verdicts(
    analyses: &[Analysis],
    checks: &[(&skillpg_core::Profile, Vec<Vec<Diagnostic>>)],
) -> Vec<ClientVerdictsJson> {
    checks
        .iter()
        .map(|(p, per_skill)| ClientVerdictsJson {
            client: p.key.to_owned(),
            title: p.title.to_owned(),
            as_of: p.as_of.to_owned(),
            source: p.source_url.to_owned(),
            skills: analyses
                .iter()
                .zip(per_skill)
                .map(|(a, diags)| client_cell(a, diags))
                .collect(),
        })
        .collect()
}

/// Where to put the loaded skills for one client (`skillpg where --format json`, and the page's
/// "Where to put it"): its folders, depth and precedence, and each skill's place or the first
/// reason it would not be listed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WhereJson {
    /// The profile's key.
    pub client: String,
    /// Its title.
    pub title: String,
    /// Folders in a project, searched for `<skill>/SKILL.md`.
    pub project: Vec<String>,
    /// Folders in the home folder.
    pub user: Vec<String>,
    /// How deep it looks.
    pub depth: String,
    /// Which copy wins when a name is installed twice.
    pub wins: String,
    /// Where this was read.
    pub source: String,
    /// Each loaded skill, in order.
    pub skills: Vec<WhereSkillJson>,
}

/// One skill's place in one client.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WhereSkillJson {
    /// The skill's name.
    pub name: String,
    /// Its folder's name, the one the paths use.
    pub dir: String,
    /// Where it would sit, when the client would list it: each project path, then each home one
    /// (none for a skill found inside another's folder: it goes where that one goes).
    pub paths: Vec<String>,
    /// The skill folder it was found inside, if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub inside: Option<String>,
    /// Why the client would not list it: the first error under its profile.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub not_listed: Option<DiagnosticJson>,
    /// The other loaded skills with the same name, which the client's precedence decides
    /// between.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub same_name: Vec<String>,
}

impl WhereJson {
    /// Its project folders as a person types them (`.gemini/skills/, .agents/skills/`), or
    /// `none`: the one wording of the CLI's `where` and the page's panel.
    pub fn project_text(&self) -> String {
        folders_text(&self.project, "")
    }

    /// Its home folders the same way (`~/.gemini/skills/`).
    pub fn user_text(&self) -> String {
        folders_text(&self.user, "~/")
    }
}

impl WhereSkillJson {
    /// Where it goes, or why it is not listed, in a line (`pdf: .gemini/skills/pdf/SKILL.md or
    /// …`): the one wording of the CLI's `where` and the page's panel.
    pub fn place_text(&self) -> String {
        match (&self.not_listed, &self.inside) {
            (Some(d), _) => format!(
                "{}: not listed: {} {}: {}",
                self.name, d.code, d.rule, d.message
            ),
            (None, Some(outer)) => {
                format!(
                    "{}: listed, inside `{outer}`'s folder wherever that goes",
                    self.name
                )
            }
            (None, None) if self.paths.is_empty() => format!("{}: loads", self.name),
            (None, None) => format!("{}: {}", self.name, self.paths.join(" or ")),
        }
    }
}

fn folders_text(folders: &[String], prefix: &str) -> String {
    if folders.is_empty() {
        return "none".to_owned();
    }
    let shown: Vec<String> = folders.iter().map(|f| format!("{prefix}{f}/")).collect();
    shown.join(", ")
}

/// Where to put each of `analyses` for each client of `checks` (see [`WhereJson`]).
pub fn where_to_put(
    analyses: &[Analysis],
    checks: &[(&skillpg_core::Profile, Vec<Vec<Diagnostic>>)],
) -> Vec<WhereJson> {
    let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    // The skills of each name (ASCII case folded, as clients compare them), once: a thousand
    // skills compared pairwise were a million comparisons on every keystroke.
    let mut by_name: std::collections::HashMap<String, Vec<usize>> =
        std::collections::HashMap::new();
    for (i, a) in analyses.iter().enumerate() {
        by_name
            .entry(a.display_name().to_ascii_lowercase())
            .or_default()
            .push(i);
    }
    checks
        .iter()
        .filter_map(|(p, per_skill)| {
            let install = skillpg_core::install::install_for(p.key)?;
            let skills = analyses
                .iter()
                .enumerate()
                .zip(per_skill)
                .map(|((i, a), diags)| {
                    let not_listed = diags
                        .iter()
                        .find(|d| d.severity == skillpg_core::Severity::Error)
                        .map(diagnostic_json);
                    let same_name = by_name
                        .get(&a.display_name().to_ascii_lowercase())
                        .into_iter()
                        .flatten()
                        .filter(|&&o| o != i)
                        .map(|&o| analyses[o].display_path.clone())
                        .collect();
                    WhereSkillJson {
                        name: a.display_name().to_owned(),
                        dir: a.dir_name.clone(),
                        paths: if not_listed.is_none() && a.inside.is_none() {
                            install.paths(&a.dir_name)
                        } else {
                            Vec::new()
                        },
                        inside: a.inside.clone(),
                        not_listed,
                        same_name,
                    }
                })
                .collect();
            Some(WhereJson {
                client: p.key.to_owned(),
                title: p.title.to_owned(),
                project: owned(install.project),
                user: owned(install.user),
                depth: install.depth.to_owned(),
                wins: install.wins.to_owned(),
                source: install.source.to_owned(),
                skills,
            })
        })
        .collect()
}

/// One client's listing of the skills installed together (`skillpg listing --format json`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ListingJson {
    /// The profile's key.
    pub client: String,
    /// Its title.
    pub title: String,
    /// The context window it was computed for (tokens), when known.
    pub context_window: Option<usize>,
    /// The budget, when the client documents one.
    pub budget: Option<usize>,
    /// `characters` or `approximate tokens`.
    pub unit: String,
    /// What the listing costs with every description whole.
    pub whole: usize,
    /// What it costs as listed.
    pub used: usize,
    /// The skills, in the listing's order.
    pub skills: Vec<ListedSkillJson>,
}

/// One skill in a client's listing.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ListedSkillJson {
    pub name: String,
    /// Its description's length as listed whole, in characters.
    pub description_chars: usize,
    /// The characters the listing shows; `null` when the skill is left out.
    pub shown_chars: Option<usize>,
    /// The line the client lists (empty when left out).
    pub line: String,
    /// Its `skillOverrides` state where the person set one other than `on` (Claude Code):
    /// `name-only`, `user-invocable-only` or `off`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
}

impl ListingJson {
    /// How many descriptions the listing shortens.
    pub fn cut(&self) -> usize {
        let cut = |s: &&ListedSkillJson| s.shown_chars.is_some_and(|n| n < s.description_chars);
        self.skills.iter().filter(cut).count()
    }

    /// How many skills it leaves out for want of room (not those the person turned off).
    pub fn left_out(&self) -> usize {
        self.skills
            .iter()
            .filter(|s| s.shown_chars.is_none() && s.state.is_none())
            .count()
    }

    /// How many skills the person's `skillOverrides` keep out of the listing.
    pub fn turned_off(&self) -> usize {
        self.skills
            .iter()
            .filter(|s| s.shown_chars.is_none() && s.state.is_some())
            .count()
    }
}

/// Every client's listing of `analyses` installed together in a `context_window` (tokens;
/// `None` when unknown). A client with no documented budget is listed whole, in characters,
/// with no budget.
pub fn listings(analyses: &[Analysis], context_window: Option<usize>) -> Vec<ListingJson> {
    listings_with(analyses, context_window, &Default::default())
}

/// [`listings`] under a person's listing `settings` (for the clients whose listing has them).
pub fn listings_with(
    analyses: &[Analysis],
    context_window: Option<usize>,
    settings: &skillpg_core::catalog::ListingSettings,
) -> Vec<ListingJson> {
    listings_of_loaded(analyses, context_window, settings, &|_, _| true)
}

/// Every client's listing of the skills it loads: `loads(profile, i)` says whether
/// `analyses[i]` loads under it (`project::loads` of its findings, as every edge decides);
/// the others are not listed, so not priced.
pub fn listings_of_loaded(
    analyses: &[Analysis],
    context_window: Option<usize>,
    settings: &skillpg_core::catalog::ListingSettings,
    loads: &dyn Fn(&Profile, usize) -> bool,
) -> Vec<ListingJson> {
    use skillpg_core::catalog::{self, InstalledSkill};
    skillpg_core::profile::ALL
        .iter()
        .map(|p| {
            let installed: Vec<InstalledSkill> = analyses
                .iter()
                .enumerate()
                .filter(|(i, _)| loads(p, *i))
                .map(|(_, a)| InstalledSkill::from_analysis(a, p))
                .collect();
            match catalog::listing_with(p, &installed, context_window, settings) {
                Some(r) => ListingJson {
                    client: p.key.to_owned(),
                    title: p.title.to_owned(),
                    context_window: r.context_window,
                    budget: Some(r.budget.limit),
                    unit: r.budget.unit.noun().to_owned(),
                    whole: r.whole_cost,
                    used: r.used,
                    skills: r
                        .skills
                        .iter()
                        .map(|s| ListedSkillJson {
                            name: s.name.clone(),
                            description_chars: s.description_chars,
                            shown_chars: s.shown_chars,
                            line: s.line.clone(),
                            state: (s.state != catalog::SkillOverride::On)
                                .then(|| s.state.as_str().to_owned()),
                        })
                        .collect(),
                },
                None => {
                    let lines: Vec<(String, String, usize)> = installed
                        .iter()
                        .map(|s| {
                            (
                                s.name.clone(),
                                format!("- {}: {}", s.name, s.description),
                                s.description.chars().count(),
                            )
                        })
                        .collect();
                    let whole = lines.iter().map(|(_, l, _)| l.chars().count() + 1).sum();
                    ListingJson {
                        client: p.key.to_owned(),
                        title: p.title.to_owned(),
                        context_window: context_window.filter(|w| *w > 0),
                        budget: None,
                        unit: "characters".to_owned(),
                        whole,
                        used: whole,
                        skills: lines
                            .into_iter()
                            .map(|(name, line, n)| ListedSkillJson {
                                name,
                                description_chars: n,
                                shown_chars: Some(n),
                                line,
                                state: None,
                            })
                            .collect(),
                    }
                }
            }
        })
        .collect()
}
