//! The results of a run as files: JSON and CSV, for one arm (`skillpg route`, the page's
//! routing export) and for two (`skillpg compare`, the page's decoder export). The CLI and the
//! page call these functions and nothing else, so the same inputs give the same bytes.
//!
//! What ran the model (GPU, CPU path) is not in the file: it does not change what a result
//! means, and the file must not change with the machine. Scores are written as the shortest
//! decimal that reads back as the same `f32`.

use std::fmt::Write;

use serde::Serialize;

use crate::PREVIEW_NOTE;
use crate::outcome::{AbComparison, Arm, Descriptions, Evidence, Method, SkillRecall};
use crate::requests::Labelled;

/// The embedding model's name in an export, with its weights (`f32`, `f16`, `i8`).
pub fn embedding_model(weights: &str) -> String {
    format!("all-MiniLM-L6-v2, {weights} weights")
}

#[derive(Serialize)]
struct Header<'a> {
    model: &'a str,
    #[serde(flatten)]
    method: Method,
    note: &'static str,
}

#[derive(Serialize)]
struct Row<'a> {
    query: &'a str,
    expected: Option<&'a str>,
    choice: &'a str,
    /// Whether the choice is the label; `null` when unlabelled.
    correct: Option<bool>,
    #[serde(flatten)]
    evidence: FlatEvidence<'a>,
}

/// What a decision rests on, flat beside it: `kind`, then the fields of that kind.
#[derive(Serialize)]
struct FlatEvidence<'a> {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cosines: Option<&'a [f32]>,
    /// The preview's fused scores, which ranked the skills (cosines and BM25).
    #[serde(skip_serializing_if = "Option::is_none")]
    fused: Option<&'a [f32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verbatim: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recognised: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    distribution: Option<&'a [f32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    log_probs: Option<&'a [f32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prefill_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    generated_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    capped: Option<bool>,
}

impl<'a> FlatEvidence<'a> {
    fn of(evidence: &'a Evidence) -> FlatEvidence<'a> {
        let none = FlatEvidence {
            kind: "",
            cosines: None,
            fused: None,
            verbatim: None,
            recognised: None,
            distribution: None,
            log_probs: None,
            prefill_tokens: None,
            generated_tokens: None,
            capped: None,
        };
        match evidence {
            Evidence::Cosines { cosines, fused } => FlatEvidence {
                kind: "cosines",
                cosines: Some(cosines),
                fused: fused.as_deref(),
                ..none
            },
            Evidence::Answer {
                verbatim,
                recognised,
                prefill_tokens,
                generated_tokens,
                capped,
            } => FlatEvidence {
                kind: "answer",
                verbatim: Some(verbatim),
                recognised: Some(*recognised),
                prefill_tokens: Some(*prefill_tokens),
                generated_tokens: Some(*generated_tokens),
                capped: Some(*capped),
                ..none
            },
            Evidence::Choice {
                distribution,
                log_probs,
                prefill_tokens,
            } => FlatEvidence {
                kind: "choice",
                distribution: Some(distribution),
                log_probs: Some(log_probs),
                prefill_tokens: Some(*prefill_tokens),
                ..none
            },
        }
    }
}

#[derive(Serialize)]
struct ArmFile<'a> {
    descriptions: Descriptions,
    /// The names the scores follow (NONE last for constrained choice).
    candidates: Vec<&'a str>,
    requests: Vec<Row<'a>>,
}

#[derive(Serialize)]
struct RouteFile<'a> {
    #[serde(flatten)]
    header: Header<'a>,
    #[serde(flatten)]
    arm: ArmFile<'a>,
}

#[derive(Serialize)]
struct ArmStats {
    correct: u64,
    n: u64,
    wilson_95: [f64; 2],
    nones: u64,
}

#[derive(Serialize)]
struct PairedFile {
    both: u64,
    only_a: u64,
    only_b: u64,
    neither: u64,
}

#[derive(Serialize)]
struct ComparisonFile<'a> {
    a: ArmStats,
    b: ArmStats,
    paired: PairedFile,
    sign_test_p: f64,
    per_skill: &'a [SkillRecall],
}

#[derive(Serialize)]
struct CompareFile<'a> {
    #[serde(flatten)]
    header: Header<'a>,
    a: ArmFile<'a>,
    b: ArmFile<'a>,
    /// `null` when some request has no label.
    comparison: Option<ComparisonFile<'a>>,
}

fn arm_file<'a>(requests: &'a [Labelled], arm: &'a Arm) -> ArmFile<'a> {
    let rows = requests
        .iter()
        .zip(&arm.decisions)
        .map(|(r, d)| {
            let choice = arm.name_of(d);
            Row {
                query: &r.query,
                expected: r.label(),
                choice,
                correct: r.label().map(|e| e == choice),
                evidence: FlatEvidence::of(&d.evidence),
            }
        })
        .collect();
    ArmFile {
        descriptions: arm.descriptions,
        candidates: arm.candidates(),
        requests: rows,
    }
}

fn stats(s: &skillpg_stats::ArmSummary) -> ArmStats {
    ArmStats {
        correct: s.correct,
        n: s.n,
        wilson_95: [s.wilson.low, s.wilson.high],
        nones: s.nones,
    }
}

fn pretty<T: Serialize>(value: &T) -> String {
    // Plain structs of strings and numbers; a NaN score (which no model here gives) becomes null.
    let mut out = serde_json::to_string_pretty(value).unwrap_or_default();
    out.push('\n');
    out
}

/// One arm's results as JSON.
pub fn route_json(model: &str, method: Method, requests: &[Labelled], arm: &Arm) -> String {
    pretty(&RouteFile {
        header: Header {
            model,
            method,
            note: PREVIEW_NOTE,
        },
        arm: arm_file(requests, arm),
    })
}

/// Two arms' results as JSON, with their comparison when every request is labelled.
pub fn compare_json(
    model: &str,
    method: Method,
    requests: &[Labelled],
    a: &Arm,
    b: &Arm,
    comparison: Option<&AbComparison>,
) -> String {
    let comparison = comparison.map(|c| ComparisonFile {
        a: stats(&c.stats.a),
        b: stats(&c.stats.b),
        paired: {
            let p = c.stats.paired;
            PairedFile {
                both: p.both,
                only_a: p.only_a,
                only_b: p.only_b,
                neither: p.neither,
            }
        },
        sign_test_p: c.stats.paired.p_value(),
        per_skill: &c.per_skill,
    });
    pretty(&CompareFile {
        header: Header {
            model,
            method,
            note: PREVIEW_NOTE,
        },
        a: arm_file(requests, a),
        b: arm_file(requests, b),
        comparison,
    })
}

/// A CSV field: quoted, and a text that a spreadsheet would read as a formula (`=`, `+`, `-`,
/// `@`, a tab or a carriage return first) starts with `'`, so that opening a stranger's
/// request file runs nothing.
fn field(s: &str) -> String {
    let guard = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        "'"
    } else {
        ""
    };
    format!("\"{guard}{}\"", s.replace('"', "\"\""))
}

fn line(out: &mut String, fields: impl IntoIterator<Item = String>) {
    let fields: Vec<String> = fields.into_iter().collect();
    let _ = writeln!(out, "{}", fields.join(","));
}

/// One arm's results as CSV: `query,expected,choice,answer`, then one column a candidate (its
/// cosine or probability).
pub fn route_csv(requests: &[Labelled], arm: &Arm) -> String {
    let mut out = String::new();
    let head = ["query", "expected", "choice", "answer"].map(field);
    line(
        &mut out,
        head.into_iter()
            .chain(arm.candidates().into_iter().map(field)),
    );
    for (r, d) in requests.iter().zip(&arm.decisions) {
        let cells = [
            field(&r.query),
            field(&r.expected),
            field(arm.name_of(d)),
            field(d.answer().unwrap_or("")),
        ];
        line(
            &mut out,
            cells
                .into_iter()
                .chain(d.scores().iter().map(f32::to_string)),
        );
    }
    out
}

/// Two arms' results as CSV: `query,expected,a_choice,a_answer,b_choice,b_answer`.
pub fn compare_csv(requests: &[Labelled], a: &Arm, b: &Arm) -> String {
    let mut out = String::new();
    line(
        &mut out,
        [
            "query", "expected", "a_choice", "a_answer", "b_choice", "b_answer",
        ]
        .map(field),
    );
    for ((r, da), db) in requests.iter().zip(&a.decisions).zip(&b.decisions) {
        let answer = |d: &crate::outcome::Decision| field(d.answer().unwrap_or(""));
        line(
            &mut out,
            [
                field(&r.query),
                field(&r.expected),
                field(a.name_of(da)),
                answer(da),
                field(b.name_of(db)),
                answer(db),
            ],
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NONE;
    use crate::decide::Thresholds;
    use crate::outcome::{Decision, compare};

    fn two_requests() -> Vec<Labelled> {
        vec![
            Labelled {
                query: "=SUM(A1) please".into(),
                expected: "a".into(),
            },
            Labelled {
                query: "hello \"you\"".into(),
                expected: String::new(),
            },
        ]
    }

    #[test]
    fn one_arm_as_json_and_csv() {
        let arm = Arm::from_cosines(
            vec!["a".into(), "b".into()],
            Descriptions::AsWritten,
            vec![vec![0.5, 0.25], vec![0.125, -0.5]],
            Thresholds::DEFAULT,
        );
        let json = route_json(
            "all-MiniLM-L6-v2, int8 weights",
            Method::Embedding {
                thresholds: Thresholds::DEFAULT,
            },
            &two_requests(),
            &arm,
        );
        let v: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert_eq!(v["method"], "embedding");
        assert_eq!(
            v["thresholds"]["tau"].as_f64().map(|t| (t * 100.0).round()),
            Some(20.0)
        );
        assert_eq!(v["note"], PREVIEW_NOTE);
        assert_eq!(v["descriptions"], "as-written");
        assert_eq!(v["candidates"], serde_json::json!(["a", "b"]));
        assert_eq!(
            v["requests"][0],
            serde_json::json!({"query": "=SUM(A1) please", "expected": "a", "choice": "a", "correct": true, "kind": "cosines", "cosines": [0.5, 0.25]})
        );
        assert_eq!(v["requests"][1]["expected"], serde_json::Value::Null);
        assert_eq!(v["requests"][1]["choice"], NONE);
        assert_eq!(v["requests"][1]["correct"], serde_json::Value::Null);
        let csv = route_csv(&two_requests(), &arm);
        assert_eq!(
            csv,
            "\"query\",\"expected\",\"choice\",\"answer\",\"a\",\"b\"\n\"'=SUM(A1) please\",\"a\",\"a\",\"\",0.5,0.25\n\"hello \"\"you\"\"\",\"\",\"NONE\",\"\",0.125,-0.5\n"
        );
    }

    #[test]
    fn two_arms_with_their_comparison() {
        let names = vec!["a".to_owned()];
        let chapter = |verbatim: &str, choice| Decision {
            choice,
            evidence: Evidence::Answer {
                verbatim: verbatim.into(),
                recognised: choice.is_some() || verbatim == NONE,
                prefill_tokens: 5,
                generated_tokens: 1,
                capped: false,
            },
        };
        let a = Arm {
            names: names.clone(),
            descriptions: Descriptions::AsWritten,
            decisions: vec![chapter("a", Some(0)), chapter("NONE", None)],
        };
        let b = Arm {
            names,
            descriptions: Descriptions::Thinned,
            decisions: vec![chapter("I think a", None), chapter("a", Some(0))],
        };
        let requests = vec![
            Labelled {
                query: "q1".into(),
                expected: "a".into(),
            },
            Labelled {
                query: "q2".into(),
                expected: NONE.into(),
            },
        ];
        let cmp = compare(&requests, &a, &b).expect("labelled");
        let v: serde_json::Value = serde_json::from_str(&compare_json(
            "SmolLM2",
            Method::Chapter,
            &requests,
            &a,
            &b,
            Some(&cmp),
        ))
        .expect("json");
        assert_eq!(v["method"], "chapter");
        assert!(v.get("thresholds").is_none());
        assert_eq!(v["b"]["requests"][0]["verbatim"], "I think a");
        assert_eq!(v["b"]["requests"][0]["recognised"], false);
        assert_eq!(v["comparison"]["a"]["correct"], 2);
        assert_eq!(v["comparison"]["paired"]["only_a"], 2);
        assert_eq!(v["comparison"]["sign_test_p"], 0.5);
        let csv = compare_csv(&requests, &a, &b);
        assert_eq!(
            csv.lines().nth(1),
            Some("\"q1\",\"a\",\"a\",\"a\",\"NONE\",\"I think a\"")
        );
    }
}
