//! Routing decisions from embeddings: the top skill by cosine, or NONE below a threshold τ or
//! a margin δ between the top two; calibration of τ and δ on a labelled set; and the labelled
//! formats (skill-creator's per-skill `[{"query", "should_trigger"}]` and the multi-skill
//! `[{"query", "expected"}]`).

/// The answer when no skill fits.
pub const NONE: &str = "NONE";

/// Decision parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// The top score must reach τ.
    pub tau: f32,
    /// The top score must beat the second by δ.
    pub delta: f32,
}

impl Default for Thresholds {
    /// τ = 0.30, δ = 0.0: a starting point for all-MiniLM-L6-v2, where unrelated sentences score
    /// around 0.0–0.2; calibrate on a labelled set for real use.
    fn default() -> Thresholds {
        Thresholds { tau: 0.30, delta: 0.0 }
    }
}

/// Cosine similarity of two unit vectors (their dot product).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The index of the chosen skill for one row of scores, or `None` for NONE.
pub fn decide(scores: &[f32], t: Thresholds) -> Option<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let top = *order.first()?;
    let second = order.get(1).map(|&i| scores[i]).unwrap_or(f32::NEG_INFINITY);
    (scores[top] >= t.tau && scores[top] - second >= t.delta).then_some(top)
}

/// The score matrix `[request][skill]`.
pub fn score_matrix(requests: &[Vec<f32>], skills: &[Vec<f32>]) -> Vec<Vec<f32>> {
    requests.iter().map(|r| skills.iter().map(|s| cosine(r, s)).collect()).collect()
}

/// One labelled request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labelled {
    /// The request as a person would phrase it.
    pub query: String,
    /// The skill's name, or [`NONE`].
    pub expected: String,
}

/// Reads either labelled format. skill-creator's per-skill format needs the skill's name:
/// `should_trigger: true` expects that skill, `false` expects NONE (as far as that skill goes).
pub fn parse_labelled(json: &str, skill_for_per_skill_format: Option<&str>) -> Result<Vec<Labelled>, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    let items = value.as_array().ok_or("expected a JSON list of requests")?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let query = item["query"].as_str().ok_or_else(|| format!("item {i} has no \"query\" string"))?.to_owned();
            if let Some(expected) = item["expected"].as_str() {
                return Ok(Labelled { query, expected: expected.to_owned() });
            }
            match (item["should_trigger"].as_bool(), skill_for_per_skill_format) {
                (Some(true), Some(skill)) => Ok(Labelled { query, expected: skill.to_owned() }),
                (Some(false), _) => Ok(Labelled { query, expected: NONE.to_owned() }),
                (Some(true), None) => Err(format!("item {i} uses skill-creator's should_trigger format; say which skill it is for")),
                (None, _) => Err(format!("item {i} has neither \"expected\" nor \"should_trigger\"")),
            }
        })
        .collect()
}

/// Reads a list of requests as a person writes it: a JSON list in either labelled format, or
/// one request per line with an optional `=> expected-skill` (or `=> NONE`). The one parser of
/// the CLI and the page.
pub fn parse_requests(text: &str, skill_for_per_skill_format: Option<&str>) -> Result<Vec<Labelled>, String> {
    if text.trim_start().starts_with('[') {
        return parse_labelled(text, skill_for_per_skill_format);
    }
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| match l.rsplit_once("=>") {
            Some((q, e)) => Labelled { query: q.trim().to_owned(), expected: e.trim().to_owned() },
            None => Labelled { query: l.to_owned(), expected: String::new() },
        })
        .collect())
}

/// The requests without a label (an empty `expected`), by 1-based position.
pub fn unlabelled(requests: &[Labelled]) -> Vec<usize> {
    requests.iter().enumerate().filter(|(_, r)| r.expected.trim().is_empty()).map(|(i, _)| i + 1).collect()
}

/// skill-creator's per-skill evaluation format, `[{"query", "should_trigger"}]`, for `skill`:
/// a request labelled with that skill should trigger it, every other labelled one should not.
/// Unlabelled requests are left out (they say nothing about triggering).
pub fn to_skill_creator_json(items: &[Labelled], skill: &str) -> String {
    let v: Vec<serde_json::Value> =
        items.iter().filter(|l| !l.expected.trim().is_empty()).map(|l| serde_json::json!({"query": l.query, "should_trigger": l.expected.trim() == skill})).collect();
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// Writes the multi-skill format.
pub fn to_labelled_json(items: &[Labelled]) -> String {
    let v: Vec<serde_json::Value> = items.iter().map(|l| serde_json::json!({"query": l.query, "expected": l.expected})).collect();
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// The names chosen for each request under `t` (`NONE` included).
pub fn choices<'a>(matrix: &[Vec<f32>], names: &'a [String], t: Thresholds) -> Vec<&'a str> {
    matrix.iter().map(|row| decide(row, t).map(|i| names[i].as_str()).unwrap_or(NONE)).collect()
}

/// The result of a calibration grid search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// The best thresholds found (the smallest τ, then δ, among ties).
    pub best: Thresholds,
    /// Their number of correct decisions.
    pub correct: usize,
    /// How many (τ, δ) pairs were tried.
    pub n_tried: usize,
}

/// Grid search of τ in 0.00..=0.80 (step 0.02) and δ in 0.00..=0.10 (step 0.01), maximizing
/// correct decisions on `labels`.
pub fn calibrate(matrix: &[Vec<f32>], names: &[String], labels: &[&str]) -> Calibration {
    let mut best = Calibration { best: Thresholds::default(), correct: 0, n_tried: 0 };
    let mut first = true;
    for ti in 0..=40 {
        for di in 0..=10 {
            let t = Thresholds { tau: ti as f32 * 0.02, delta: di as f32 * 0.01 };
            let correct = choices(matrix, names, t).iter().zip(labels).filter(|(c, l)| c == l).count();
            best.n_tried += 1;
            if first || correct > best.correct {
                best.best = t;
                best.correct = correct;
                first = false;
            }
        }
    }
    best
}

/// Cuts a description to its bare subject, as the chapter's "thin" arm: the first clause,
/// before the first `.`, `;`, ` - `, `:` or " Use".
pub fn thin(description: &str) -> String {
    let d = description.trim();
    let mut cut = d.len();
    for pat in [". ", ".\n", ";", " - ", ": ", " Use ", " use when"] {
        if let Some(i) = d.find(pat) {
            cut = cut.min(i);
        }
    }
    let mut res = d[..cut].trim_end_matches('.').trim().to_owned();
    res.push('.');
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_with_threshold_and_margin() {
        let t = Thresholds { tau: 0.5, delta: 0.1 };
        assert_eq!(decide(&[0.2, 0.7, 0.55], t), Some(1));
        assert_eq!(decide(&[0.2, 0.7, 0.65], t), None, "margin too small");
        assert_eq!(decide(&[0.2, 0.4], t), None, "below tau");
        assert_eq!(decide(&[], t), None);
    }

    #[test]
    fn both_labelled_formats() {
        let multi = parse_labelled(r#"[{"query": "a", "expected": "x"}, {"query": "b", "expected": "NONE"}]"#, None).expect("multi");
        assert_eq!(multi[1].expected, NONE);
        let per = parse_labelled(r#"[{"query": "a", "should_trigger": true}, {"query": "b", "should_trigger": false}]"#, Some("sql-review")).expect("per");
        assert_eq!((per[0].expected.as_str(), per[1].expected.as_str()), ("sql-review", NONE));
        assert!(parse_labelled(r#"[{"query": "a", "should_trigger": true}]"#, None).is_err());
        assert_eq!(parse_labelled(&to_labelled_json(&multi), None).expect("round trip"), multi);
    }

    #[test]
    fn calibration_finds_a_perfect_split() {
        let names = vec!["a".to_owned(), "b".to_owned()];
        let m = vec![vec![0.9, 0.1], vec![0.2, 0.8], vec![0.25, 0.2]];
        let c = calibrate(&m, &names, &["a", "b", NONE]);
        assert_eq!(c.correct, 3);
        assert_eq!(choices(&m, &names, c.best), vec!["a", "b", NONE]);
    }

    #[test]
    fn thin_keeps_the_subject() {
        assert_eq!(thin("Review a SQL migration for locks. Use when someone adds a migration."), "Review a SQL migration for locks.");
        assert_eq!(thin("Helps with SQL."), "Helps with SQL.");
    }
}

#[cfg(test)]
mod request_tests {
    use super::*;

    #[test]
    fn one_parser_for_lines_and_json() {
        let lines = parse_requests("format this CSV => csv-tables\n\nhello => NONE\nno label\n", None).expect("lines");
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], Labelled { query: "format this CSV".into(), expected: "csv-tables".into() });
        assert_eq!(unlabelled(&lines), vec![3]);
        let json = parse_requests(r#"[{"query": "q", "should_trigger": true}, {"query": "r", "should_trigger": false}]"#, Some("pdf")).expect("json");
        assert_eq!(json[0].expected, "pdf");
        assert_eq!(json[1].expected, NONE);
        let back = to_skill_creator_json(&json, "pdf");
        assert_eq!(parse_requests(&back, Some("pdf")).expect("round trip"), json);
    }
}
