//! `skillpg.toml`, a project's settings for checking its skills, read by every edge that checks
//! them in a repository (the CLI today): which profiles, which rules are ignored (each with its
//! reason), per-rule severities, the budget gate, and where the skills are. Its JSON schema is
//! `schemas/skillpg.schema.json`, which a test holds to these types.
//!
//! ```toml
//! profiles = ["claude-code", "codex"]
//! roots = ["skills"]
//! context_window = 200000
//! fail_over = ["90%", "codex=3000"]
//!
//! [severity]
//! description-no-trigger = "off"
//! unknown-field = "error"
//!
//! [[ignore]]
//! rule = "name-dir-mismatch"
//! skill = "vercel-composition-patterns"
//! reason = "published under this name; the folder keeps the old one"
//! ```

use serde::{Deserialize, Serialize};

use skillpg_core::{Diagnostic, Severity};

/// The file's name, looked for in the working folder.
pub const FILE_NAME: &str = "skillpg.toml";

/// A project's settings.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Profiles to check against (keys, or `all`); the CLI's `--profile` wins.
    #[serde(default)]
    pub profiles: Vec<String>,
    /// Where the skills are, when `check` is given no paths.
    #[serde(default)]
    pub roots: Vec<String>,
    /// The context window (tokens) the listing budgets are priced at.
    #[serde(default)]
    pub context_window: Option<usize>,
    /// Budget gates (`skillpg listing --fail-over`): `90%`, `codex=3000`.
    #[serde(default)]
    pub fail_over: Vec<String>,
    /// A severity per rule: `error`, `warning`, `info` or `off`.
    #[serde(default)]
    pub severity: std::collections::BTreeMap<String, String>,
    /// Findings the project accepts, each with its reason.
    #[serde(default)]
    pub ignore: Vec<Ignore>,
}

/// One ignored rule, everywhere or for one skill.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Ignore {
    /// The rule's name (`name-dir-mismatch`) or code (`SPG038`).
    pub rule: String,
    /// The skill's name or folder, when only that skill's findings are ignored.
    #[serde(default)]
    pub skill: Option<String>,
    /// Why: required, so that an ignored finding is a decision someone can read.
    pub reason: String,
}

const SEVERITIES: [&str; 4] = ["error", "warning", "info", "off"];

/// What is wrong with a `skillpg.toml`, worded for the person who wrote it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The TOML's own message: a syntax error, an unknown key, a value of the wrong type.
    #[error("{0}")]
    Toml(String),
    /// A context window out of bounds.
    #[error("context_window = {window}: {why}")]
    ContextWindow { window: usize, why: String },
    /// A root that leaves the project.
    #[error("roots: \"{0}\" leaves the project: give a folder below skillpg.toml's, without `..`")]
    RootLeaves(String),
    /// A severity for a rule that does not exist.
    #[error("[severity] {0}: no such rule (`skillpg rules` lists them)")]
    UnknownSeverityRule(String),
    /// A severity that is not one.
    #[error("[severity] {rule} = \"{severity}\": one of {}", SEVERITIES.join(", "))]
    BadSeverity { rule: String, severity: String },
    /// An ignore of a rule that does not exist.
    #[error("[[ignore]] rule = \"{0}\": no such rule")]
    UnknownIgnoredRule(String),
    /// An ignore without its reason.
    #[error("[[ignore]] rule = \"{0}\": give a reason, so the next reader knows why")]
    NoReason(String),
}

/// The message, for the edges whose errors are text.
impl From<ConfigError> for String {
    fn from(e: ConfigError) -> String {
        e.to_string()
    }
}

impl Config {
    /// Reads `skillpg.toml`'s text, or says what is wrong with it (the TOML's own message, an
    /// unknown key, an ignore without a reason, a severity that is not one, a rule that does
    /// not exist).
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        let mut config: Config =
            toml::from_str(text).map_err(|e| ConfigError::Toml(e.to_string()))?;
        if let Some(window) = config.context_window {
            skillpg_core::catalog::checked_context_window(window)
                .map_err(|why| ConfigError::ContextWindow { window, why })?;
        }
        // A root is a folder of this project: relative, and never above the file's folder (a
        // shared settings file must not send a check to `../../../../etc`). Each is read once.
        let mut roots: Vec<String> = Vec::new();
        for root in &config.roots {
            let path = std::path::Path::new(root);
            let leaves = path.is_absolute()
                || root.starts_with('/')
                || root.starts_with('\\')
                || path.components().any(|c| {
                    matches!(
                        c,
                        std::path::Component::ParentDir | std::path::Component::Prefix(_)
                    )
                });
            if leaves {
                return Err(ConfigError::RootLeaves(root.clone()));
            }
            let normal: std::path::PathBuf = path
                .components()
                .filter(|c| !matches!(c, std::path::Component::CurDir))
                .collect();
            let normal = normal.to_string_lossy().replace('\\', "/");
            let normal = if normal.is_empty() {
                ".".to_owned()
            } else {
                normal
            };
            if !roots.contains(&normal) {
                roots.push(normal);
            }
        }
        config.roots = roots;
        let known = |rule: &str| {
            skillpg_core::rules::all_rules()
                .iter()
                .any(|r| r.name == rule || r.code == rule)
        };
        for (rule, severity) in &config.severity {
            if !known(rule) {
                return Err(ConfigError::UnknownSeverityRule(rule.clone()));
            }
            if !SEVERITIES.contains(&severity.as_str()) {
                return Err(ConfigError::BadSeverity {
                    rule: rule.clone(),
                    severity: severity.clone(),
                });
            }
        }
        for i in &config.ignore {
            if !known(&i.rule) {
                return Err(ConfigError::UnknownIgnoredRule(i.rule.clone()));
            }
            if i.reason.trim().is_empty() {
                return Err(ConfigError::NoReason(i.rule.clone()));
            }
        }
        Ok(config)
    }

    /// Applies the ignores and severities to one skill's findings (`name` and `dir`, its
    /// name and folder): ignored findings and rules set `off` are dropped, the others take
    /// their set severity. The verdict is then read from what is left, as always. Returns how
    /// many findings were ignored.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>, name: &str, dir: &str) -> usize {
        let before = diagnostics.len();
        diagnostics.retain(|d| !self.ignores(d, name, dir));
        let ignored = before - diagnostics.len();
        diagnostics.retain_mut(|d| self.set_severity(d));
        ignored
    }

    /// Applies the severities to findings about skills installed together.
    pub fn apply_catalog(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain_mut(|d| self.set_severity(d));
    }

    fn ignores(&self, d: &Diagnostic, name: &str, dir: &str) -> bool {
        self.ignore.iter().any(|i| {
            (i.rule == d.rule || i.rule == d.code)
                && i.skill.as_deref().is_none_or(|s| s == name || s == dir)
        })
    }

    /// Sets `d`'s severity from the table; `false` when the rule is `off`.
    fn set_severity(&self, d: &mut Diagnostic) -> bool {
        let set = self
            .severity
            .get(d.rule)
            .or_else(|| self.severity.get(d.code));
        match set.map(String::as_str) {
            Some("off") => false,
            Some("error") => {
                d.severity = Severity::Error;
                true
            }
            Some("warning") => {
                d.severity = Severity::Warning;
                true
            }
            Some("info") => {
                d.severity = Severity::Info;
                true
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(rule: &'static str, code: &'static str, severity: Severity) -> Diagnostic {
        Diagnostic {
            code,
            rule,
            severity,
            message: String::new(),
            file: "SKILL.md".into(),
            span: None,
            location: None,
            fix: None,
            source: skillpg_core::diagnostic::sources::SPEC,
        }
    }

    #[test]
    fn the_example_in_the_docs_reads_and_mistakes_are_named() {
        let doc = include_str!("config.rs");
        let example: String = doc
            .lines()
            .skip_while(|l| !l.starts_with("//! ```toml"))
            .skip(1)
            .take_while(|l| !l.starts_with("//! ```"))
            .map(|l| l.trim_start_matches("//!").trim_start().to_owned() + "\n")
            .collect();
        let c = Config::parse(&example).expect("the documented example reads");
        assert_eq!(c.profiles, ["claude-code", "codex"]);
        assert_eq!(c.ignore.len(), 1);
        for (bad, says) in [
            ("colour = 1", "unknown field"),
            ("[severity]\nno-such-rule = \"off\"", "no such rule"),
            ("[severity]\nunknown-field = \"loud\"", "one of error"),
            (
                "[[ignore]]\nrule = \"unknown-field\"\nreason = \" \"",
                "give a reason",
            ),
            (
                "[[ignore]]\nrule = \"unknown-field\"",
                "missing field `reason`",
            ),
        ] {
            let e = Config::parse(bad).expect_err(bad).to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn ignores_and_severities_change_the_findings_and_the_verdict_follows() {
        let mut diags = vec![
            finding("name-dir-mismatch", "SPG038", Severity::Error),
            finding("unknown-field", "SPG030", Severity::Warning),
            finding("description-no-trigger", "SPG060", Severity::Warning),
        ];
        let config = Config::parse(
            "[severity]\ndescription-no-trigger = \"off\"\nSPG030 = \"info\"\n\n[[ignore]]\nrule = \"SPG038\"\nskill = \"pdf\"\nreason = \"renamed upstream\"\n",
        )
        .expect("reads");
        // Another skill keeps its error: the ignore names one skill.
        let mut other = diags.clone();
        assert_eq!(config.apply(&mut other, "docx", "docx"), 0);
        assert!(!skillpg_core::is_valid(&other));
        assert_eq!(config.apply(&mut diags, "pdf", "pdf"), 1);
        assert!(skillpg_core::is_valid(&diags), "the one error was ignored");
        assert_eq!(diags.len(), 1);
        assert_eq!(
            (diags[0].rule, diags[0].severity),
            ("unknown-field", Severity::Info)
        );
    }

    #[test]
    fn roots_stay_in_the_project_once_each_and_the_window_in_its_range() {
        let c = Config::parse("roots = [\"skills\", \"./skills\", \"skills/\", \".\", \"a/./b\"]")
            .expect("parses");
        assert_eq!(c.roots, ["skills", ".", "a/b"]);
        for leaving in ["../x", "skills/../../etc", "/etc", "../../../../etc"] {
            let e = Config::parse(&format!("roots = [\"{leaving}\"]")).expect_err(leaving);
            assert_eq!(e, ConfigError::RootLeaves(leaving.to_owned()));
            assert!(e.to_string().contains("leaves the project"), "{e}");
        }
        let many = format!("roots = [{}]", vec!["\"skills\""; 50_000].join(", "));
        assert_eq!(Config::parse(&many).expect("parses").roots, ["skills"]);
        // TOML's integers are i64: this one is refused by the reader itself.
        assert!(Config::parse("context_window = 18446744073709551615").is_err());
        for bad in ["0", "999", "9223372036854775807", "10000001"] {
            let e = Config::parse(&format!("context_window = {bad}")).expect_err(bad);
            assert!(matches!(e, ConfigError::ContextWindow { .. }), "{e}");
            assert!(e.to_string().contains("1,000 to 10,000,000"), "{e}");
        }
        assert_eq!(
            Config::parse("context_window = 1000000")
                .expect("parses")
                .context_window,
            Some(1_000_000)
        );
    }

    #[test]
    fn the_schema_documents_every_key_and_no_other() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../../schemas/skillpg.schema.json"))
                .expect("the schema is JSON");
        let keys = |v: &serde_json::Value| -> Vec<String> {
            let mut k: Vec<String> = v["properties"]
                .as_object()
                .expect("properties")
                .keys()
                .cloned()
                .collect();
            k.sort();
            k
        };
        assert_eq!(
            keys(&schema),
            [
                "context_window",
                "fail_over",
                "ignore",
                "profiles",
                "roots",
                "severity"
            ]
        );
        assert_eq!(
            keys(&schema["properties"]["ignore"]["items"]),
            ["reason", "rule", "skill"]
        );
        assert_eq!(schema["additionalProperties"], false);
    }
}
