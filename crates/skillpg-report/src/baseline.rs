//! A recorded baseline of errors (`skillpg baseline`), so that `skillpg check --baseline FILE`
//! fails only on errors that are not in it, as ruff and clippy users expect of a ratchet. A
//! finding is known by its profile, its skill's path, its code, its file and its message (not
//! its line: an edit above it must not make an old finding new).

use serde::{Deserialize, Serialize};

use crate::CheckJson;

/// The baseline file's shape (JSON), versioned.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// The shape's version: 1.
    pub version: u32,
    /// Every error recorded, sorted.
    pub findings: Vec<BaselineEntry>,
}

/// One recorded error.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields)]
pub struct BaselineEntry {
    pub profile: String,
    /// Where the skill was found, as `check` prints it.
    pub skill: String,
    pub code: String,
    pub file: String,
    pub message: String,
}

/// The one version this build reads and writes.
pub const VERSION: u32 = 1;

/// Every error of `reports`, as a baseline.
pub fn record(reports: &[CheckJson]) -> Baseline {
    let mut findings: Vec<BaselineEntry> = errors(reports).collect();
    findings.sort();
    findings.dedup();
    Baseline {
        version: VERSION,
        findings,
    }
}

/// The errors of `reports` that `baseline` does not hold.
pub fn new_errors(reports: &[CheckJson], baseline: &Baseline) -> Vec<BaselineEntry> {
    errors(reports)
        .filter(|e| baseline.findings.binary_search(e).is_err())
        .collect()
}

/// Reads a baseline file's text, or says why it is not one.
pub fn read(text: &str) -> Result<Baseline, String> {
    let mut b: Baseline = serde_json::from_str(text)
        .map_err(|e| format!("not a skillpg baseline (JSON with version and findings): {e}"))?;
    if b.version != VERSION {
        return Err(format!(
            "a baseline of version {}; this skillpg reads version {VERSION}: write it again with `skillpg baseline`",
            b.version
        ));
    }
    // Sorted for the lookup, whatever order a hand edit left.
    b.findings.sort();
    Ok(b)
}

fn errors(reports: &[CheckJson]) -> impl Iterator<Item = BaselineEntry> + '_ {
    reports.iter().flat_map(|r| {
        r.skills.iter().flat_map(move |s| {
            s.diagnostics
                .iter()
                .filter(|d| d.severity == "error")
                .map(move |d| BaselineEntry {
                    profile: r.profile.clone(),
                    skill: s.path.clone(),
                    code: d.code.clone(),
                    file: d.file.clone(),
                    message: d.message.clone(),
                })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DiagnosticJson, SkillCheckJson};

    fn report(errors: &[(&str, usize)]) -> CheckJson {
        CheckJson {
            profile: "spec".into(),
            skills: vec![SkillCheckJson {
                path: "skills/pdf".into(),
                name: "pdf".into(),
                valid: errors.is_empty(),
                diagnostics: errors
                    .iter()
                    .map(|(code, line)| DiagnosticJson {
                        code: (*code).into(),
                        rule: "r".into(),
                        severity: "error".into(),
                        message: format!("{code} happened"),
                        file: "SKILL.md".into(),
                        line: Some(*line),
                        column: Some(1),
                        span: None,
                        fix: None,
                        source: String::new(),
                        source_url: String::new(),
                    })
                    .collect(),
                levels: None,
            }],
            catalog: Vec::new(),
        }
    }

    #[test]
    fn only_errors_the_baseline_does_not_hold_are_new_and_a_moved_line_is_not_new() {
        let before = [report(&[("SPG001", 3)])];
        let baseline = record(&before);
        assert_eq!(baseline.findings.len(), 1);
        let text = serde_json::to_string(&baseline).expect("json");
        let read_back = read(&text).expect("reads");
        // The same error two lines lower, and one new one.
        let after = [report(&[("SPG001", 5), ("SPG002", 1)])];
        let new = new_errors(&after, &read_back);
        assert_eq!(new.len(), 1);
        assert_eq!(new[0].code, "SPG002");
        assert!(read("{\"version\": 9, \"findings\": []}").is_err());
        assert!(read("[]").is_err());
    }
}
