//! One result type for every router: a decision per request (a skill or NONE) and what it rests
//! on (an embedding model's cosines, a decoder's verbatim answer, or constrained choice's
//! probabilities); an arm is one description set's decisions; two arms on the same labelled
//! requests make the A/B comparison.

use serde::{Deserialize, Serialize};

use crate::NONE;
use crate::decide::{Thresholds, decide};
use crate::requests::Labelled;

/// What a decision rests on: one variant a kind of router. Externally tagged between the page
/// and its workers (`{"answer": {…}}`: read without buffering, which internally tagged enums
/// need and which cost the page's wasm 14 KB); the export files write it flat, `kind` first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Evidence {
    /// An embedding model: each skill's cosine with the request, in the arm's order, and, for
    /// the preview's router, the fused scores it ranked the skills by (cosines and BM25,
    /// `decide::fused_matrix`).
    Cosines {
        cosines: Vec<f32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fused: Option<Vec<f32>>,
    },
    /// A decoder under the chapter's protocol: what it wrote.
    Answer {
        /// The answer, verbatim (without the end-of-turn token).
        verbatim: String,
        /// Whether it was a name or NONE exactly; when not, it counts as NONE.
        recognised: bool,
        /// Tokens prefilled for the request (its own; the system turn is cached).
        prefill_tokens: u64,
        /// Tokens generated.
        generated_tokens: u64,
        /// Whether decoding stopped at the cap rather than at the end of the turn.
        capped: bool,
    },
    /// A decoder under constrained choice: each candidate's (the names, then NONE) probability
    /// and log-probability.
    Choice {
        distribution: Vec<f32>,
        log_probs: Vec<f32>,
        /// Tokens prefilled for the request and its candidates.
        prefill_tokens: u64,
    },
}

/// One request's decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// The skill chosen (an index into the arm's names), or `None` for NONE.
    pub choice: Option<usize>,
    pub evidence: Evidence,
}

impl Decision {
    /// The verbatim answer of a decoder under the chapter's protocol.
    pub fn answer(&self) -> Option<&str> {
        match &self.evidence {
            Evidence::Answer { verbatim, .. } => Some(verbatim),
            _ => None,
        }
    }

    /// Whether the answer was read as a name or NONE (always, but for a chapter answer that was
    /// neither).
    pub fn recognised(&self) -> bool {
        !matches!(
            self.evidence,
            Evidence::Answer {
                recognised: false,
                ..
            }
        )
    }

    /// The scores a candidate, those the router ranked by: the fused scores where the preview
    /// fused, else cosines a skill, or probabilities a candidate (NONE last).
    pub fn scores(&self) -> &[f32] {
        match &self.evidence {
            Evidence::Cosines {
                fused: Some(fused), ..
            } => fused,
            Evidence::Cosines { cosines, .. } => cosines,
            Evidence::Choice { distribution, .. } => distribution,
            Evidence::Answer { .. } => &[],
        }
    }

    /// Tokens prefilled for the request, for a decoder.
    pub fn prefill_tokens(&self) -> Option<u64> {
        match self.evidence {
            Evidence::Answer { prefill_tokens, .. } | Evidence::Choice { prefill_tokens, .. } => {
                Some(prefill_tokens)
            }
            Evidence::Cosines { .. } => None,
        }
    }
}

/// How a run decided, for the header of its results.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "kebab-case")]
pub enum Method {
    /// An embedding model: the top cosine, or NONE under the thresholds.
    Embedding { thresholds: Thresholds },
    /// A decoder, the chapter's protocol: its greedy answer, read as a name or NONE.
    Chapter,
    /// A decoder, constrained choice: the most probable of the names and NONE.
    Choice,
}

/// Which descriptions an arm routed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Descriptions {
    /// As the skills wrote them.
    AsWritten,
    /// Each cut to its bare subject (the chapter's thin arm).
    Thinned,
    /// Another set of skills (`skillpg compare --b`).
    Other,
}

impl Descriptions {
    /// In words, for a heading.
    pub fn label(self) -> &'static str {
        match self {
            Descriptions::AsWritten => "descriptions as written",
            Descriptions::Thinned => "descriptions thinned",
            Descriptions::Other => "the other skills",
        }
    }
}

/// One description set's decisions over the requests.
#[derive(Debug, Clone, PartialEq)]
pub struct Arm {
    /// The skills' names, in the order the evidence lists them.
    pub names: Vec<String>,
    /// Which descriptions they were.
    pub descriptions: Descriptions,
    /// One a request, in the requests' order.
    pub decisions: Vec<Decision>,
}

impl Arm {
    /// An embedding model's arm: the score matrix `[request][skill]`, decided under `t`.
    pub fn from_cosines(
        names: Vec<String>,
        descriptions: Descriptions,
        matrix: Vec<Vec<f32>>,
        t: Thresholds,
    ) -> Arm {
        let evidence = matrix.into_iter().map(|cosines| Evidence::Cosines {
            cosines,
            fused: None,
        });
        Arm::decided(names, descriptions, evidence, t)
    }

    /// The preview's arm: the cosine matrix `[request][skill]` and the fused scores of the same
    /// requests (`decide::fused_matrix`), decided under `t` (`decide::decide_fused`).
    pub fn from_fused(
        names: Vec<String>,
        descriptions: Descriptions,
        cosines: Vec<Vec<f32>>,
        fused: Vec<Vec<f32>>,
        t: Thresholds,
    ) -> Arm {
        let evidence = cosines
            .into_iter()
            .zip(fused)
            .map(|(cosines, fused)| Evidence::Cosines {
                cosines,
                fused: Some(fused),
            });
        Arm::decided(names, descriptions, evidence, t)
    }

    /// The page's router on embedded texts: the requests' and the skills' vectors, the skills'
    /// texts as embedded (`documents`) and the requests' (`requests`), for BM25; what the
    /// routing preview, the lab, `skillpg route` and `skillpg eval` all run.
    pub fn preview(
        names: Vec<String>,
        descriptions: Descriptions,
        request_vecs: &[Vec<f32>],
        skill_vecs: &[Vec<f32>],
        documents: &[String],
        requests: &[String],
        t: Thresholds,
    ) -> Arm {
        let cosines = crate::decide::score_matrix(request_vecs, skill_vecs);
        let fused = crate::decide::fused_matrix(&cosines, documents, requests);
        Arm::from_fused(names, descriptions, cosines, fused, t)
    }

    /// An embedding model's evidence, each decided under `t`.
    fn decided(
        names: Vec<String>,
        descriptions: Descriptions,
        evidence: impl Iterator<Item = Evidence>,
        t: Thresholds,
    ) -> Arm {
        let decisions = evidence
            .map(|evidence| Decision {
                choice: embedding_choice(&evidence, t).flatten(),
                evidence,
            })
            .collect();
        Arm {
            names,
            descriptions,
            decisions,
        }
    }

    /// The same scores decided again under `t` (decoders' decisions do not depend on it).
    pub fn decided_under(&self, t: Thresholds) -> Arm {
        let mut arm = self.clone();
        for d in &mut arm.decisions {
            if let Some(choice) = embedding_choice(&d.evidence, t) {
                d.choice = choice;
            }
        }
        arm
    }

    /// τ and δ that suit `labels` best, deciding as this arm decides (`decide::calibrate`'s
    /// grid).
    pub fn calibrate(&self, labels: &[&str]) -> crate::decide::Calibration {
        crate::decide::calibrate_with(self.decisions.len(), &self.names, labels, |i, t| {
            let d = &self.decisions[i];
            embedding_choice(&d.evidence, t).unwrap_or(d.choice)
        })
    }

    /// The cosine matrix, for calibration (empty rows for a decoder's decisions).
    pub fn cosines(&self) -> Vec<Vec<f32>> {
        self.decisions
            .iter()
            .map(|d| {
                if let Evidence::Cosines { cosines, .. } = &d.evidence {
                    cosines.clone()
                } else {
                    Vec::new()
                }
            })
            .collect()
    }

    /// The name a decision chose, or NONE.
    pub fn name_of(&self, d: &Decision) -> &str {
        d.choice
            .and_then(|i| self.names.get(i))
            .map_or(NONE, String::as_str)
    }

    /// The names chosen, one a request.
    pub fn choices(&self) -> Vec<&str> {
        self.decisions.iter().map(|d| self.name_of(d)).collect()
    }

    /// The candidates a score row lists: the names, then NONE where the evidence has it.
    pub fn candidates(&self) -> Vec<&str> {
        let with_none = self
            .decisions
            .iter()
            .any(|d| matches!(d.evidence, Evidence::Choice { .. }));
        self.names
            .iter()
            .map(String::as_str)
            .chain(with_none.then_some(NONE))
            .collect()
    }
}

/// What an embedding model's evidence decides under `t`: the fused router where the evidence
/// carries fused scores, else the cosines alone; `None` for a decoder's evidence, whose
/// decision does not depend on `t`.
fn embedding_choice(evidence: &Evidence, t: Thresholds) -> Option<Option<usize>> {
    match evidence {
        Evidence::Cosines {
            cosines,
            fused: Some(fused),
        } => Some(crate::decide::decide_fused(cosines, fused, t)),
        Evidence::Cosines { cosines, .. } => Some(decide(cosines, t)),
        _ => None,
    }
}

/// Recall and precision of one skill in both arms.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillRecall {
    pub skill: String,
    pub a_recall: Option<f64>,
    pub a_precision: Option<f64>,
    pub b_recall: Option<f64>,
    pub b_precision: Option<f64>,
}

/// Two arms on the same labelled requests.
#[derive(Debug, Clone, PartialEq)]
pub struct AbComparison {
    /// Accuracy, Wilson intervals, NONE rates, the paired table and its sign test.
    pub stats: skillpg_stats::Comparison,
    /// Per skill of arm A (B's of the same name), recall and precision.
    pub per_skill: Vec<SkillRecall>,
}

impl AbComparison {
    /// What an A/B of descriptions as written (A) against thinned (B) by the page's router
    /// shows, and what it does not: which router answered, what it measures, and, when the
    /// thinned descriptions did as well or better, why that need not contradict the chapter
    /// (whose decoder reads the whole listing and acts on "when to use" cues a cosine to the
    /// subject barely weighs). The routing view says it beside its A/B.
    pub fn thinning_reading(&self) -> String {
        let (a, b) = (self.stats.paired.only_a, self.stats.paired.only_b);
        let router = "Router: the embedding preview (all-MiniLM-L6-v2; the cosine between each request and each skill's `name: description`, fused with their word overlap), a preview, not any product's router. It measures how close a request is in topic and in words to each description.";
        let verdict = if b >= a {
            format!(
                " Here the thinned descriptions did as well or better ({b} request(s) right only thinned, {a} only as written): a bare subject keeps the words that carry most of that topical closeness, and the \"Use when\" clauses it drops add words about other things. That is not the chapter's finding, which measured an instruction model reading every skill's line and choosing: there the dropped clauses are what tells it when a skill applies. Run \"The chapter's experiment\" below on the same requests to see that mechanism, or write requests that only a \"when\" clause can place."
            )
        } else {
            format!(
                " Here the descriptions as written did better ({a} request(s) right only as written, {b} only thinned): what the thinned ones lost is words these requests needed. The chapter measured the same direction with an instruction model choosing from the listing."
            )
        };
        format!("{router}{verdict}")
    }
}

/// Compares two arms on `requests`, or says why it cannot: a request without a label, or arms
/// that do not answer every request.
pub fn compare(requests: &[Labelled], a: &Arm, b: &Arm) -> Result<AbComparison, String> {
    if let Some(why) = crate::requests::why_not_comparable(requests) {
        return Err(why);
    }
    if a.decisions.len() != requests.len() || b.decisions.len() != requests.len() {
        return Err(format!(
            "the arms decided {} and {} of {} requests",
            a.decisions.len(),
            b.decisions.len(),
            requests.len()
        ));
    }
    let expected: Vec<&str> = requests.iter().map(|r| r.expected.trim()).collect();
    let (ca, cb) = (a.choices(), b.choices());
    let stats = skillpg_stats::compare(&expected, &ca, &cb, NONE);
    let per_skill = a
        .names
        .iter()
        .map(|name| {
            let (a_recall, a_precision) = skillpg_stats::recall_precision(&expected, &ca, name);
            let (b_recall, b_precision) = skillpg_stats::recall_precision(&expected, &cb, name);
            SkillRecall {
                skill: name.clone(),
                a_recall,
                a_precision,
                b_recall,
                b_precision,
            }
        })
        .collect();
    Ok(AbComparison { stats, per_skill })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requests(labels: &[&str]) -> Vec<Labelled> {
        labels
            .iter()
            .enumerate()
            .map(|(i, l)| Labelled {
                query: format!("q{i}"),
                expected: (*l).to_owned(),
            })
            .collect()
    }

    #[test]
    fn an_embedding_arm_decides_again_under_new_thresholds() {
        let names = vec!["a".to_owned(), "b".to_owned()];
        let arm = Arm::from_cosines(
            names,
            Descriptions::AsWritten,
            vec![vec![0.9, 0.1], vec![0.15, 0.1]],
            Thresholds::DEFAULT,
        );
        assert_eq!(arm.choices(), ["a", NONE]);
        assert_eq!(
            arm.decided_under(Thresholds {
                tau: 0.1,
                delta: 0.0
            })
            .choices(),
            ["a", "a"]
        );
        assert_eq!(arm.candidates(), ["a", "b"]);
        assert_eq!(arm.cosines()[1], [0.15, 0.1]);
    }

    #[test]
    fn the_comparison_needs_labels_and_whole_arms() {
        let names = vec!["a".to_owned(), "b".to_owned()];
        let a = Arm::from_cosines(
            names.clone(),
            Descriptions::AsWritten,
            vec![vec![0.9, 0.1], vec![0.1, 0.9], vec![0.0, 0.0]],
            Thresholds::DEFAULT,
        );
        let b = Arm::from_cosines(
            names,
            Descriptions::Thinned,
            vec![vec![0.9, 0.1], vec![0.9, 0.1], vec![0.9, 0.0]],
            Thresholds::DEFAULT,
        );
        let cmp = compare(&requests(&["a", "b", NONE]), &a, &b).expect("labelled");
        assert_eq!((cmp.stats.a.correct, cmp.stats.b.correct), (3, 1));
        assert_eq!((cmp.stats.paired.only_a, cmp.stats.paired.only_b), (2, 0));
        assert_eq!(
            cmp.per_skill[1],
            SkillRecall {
                skill: "b".into(),
                a_recall: Some(1.0),
                a_precision: Some(1.0),
                b_recall: Some(0.0),
                b_precision: None
            }
        );
        // As written won: the reading names the router and agrees with the chapter's direction.
        let reading = cmp.thinning_reading();
        assert!(
            reading.starts_with("Router: the embedding preview"),
            "{reading}"
        );
        assert!(
            reading.contains("as written did better (2 request(s)"),
            "{reading}"
        );
        // Thinned as good or better: said plainly, with why the preview may disagree.
        let swapped = compare(&requests(&["a", "b", NONE]), &b, &a).expect("labelled");
        let reading = swapped.thinning_reading();
        assert!(
            reading.contains("thinned descriptions did as well or better"),
            "{reading}"
        );
        assert!(reading.contains("not the chapter's finding"), "{reading}");
        assert!(
            compare(&requests(&["a", "", NONE]), &a, &b)
                .expect_err("unlabelled")
                .contains("request 2")
        );
        assert!(
            compare(&requests(&["a", "b"]), &a, &b)
                .expect_err("short")
                .contains("3 and 3 of 2")
        );
    }

    #[test]
    fn decisions_say_what_they_rest_on() {
        let chapter = Decision {
            choice: None,
            evidence: Evidence::Answer {
                verbatim: "maybe".into(),
                recognised: false,
                prefill_tokens: 9,
                generated_tokens: 2,
                capped: false,
            },
        };
        assert_eq!(
            (
                chapter.answer(),
                chapter.recognised(),
                chapter.prefill_tokens()
            ),
            (Some("maybe"), false, Some(9))
        );
        let choice = Decision {
            choice: Some(0),
            evidence: Evidence::Choice {
                distribution: vec![0.7, 0.3],
                log_probs: vec![-0.36, -1.2],
                prefill_tokens: 12,
            },
        };
        assert_eq!(choice.scores(), [0.7, 0.3]);
        let arm = Arm {
            names: vec!["a".into()],
            descriptions: Descriptions::AsWritten,
            decisions: vec![choice],
        };
        assert_eq!(arm.candidates(), ["a", NONE]);
    }
}
