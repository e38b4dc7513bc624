//! Decisions from an embedding model's scores: the top skill by cosine, or NONE below a
//! threshold τ or within a margin δ of the second; the preview's router, which ranks by the
//! cosines fused with BM25 ([`fused_matrix`], [`decide_fused`]: chosen by the routing
//! benchmark); and calibration of τ and δ on labelled requests.

use serde::{Deserialize, Serialize};

/// Decision parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// The top score must reach τ.
    pub tau: f32,
    /// The top score must beat the second by δ.
    pub delta: f32,
}

impl Thresholds {
    /// τ = 0.20, δ = 0.0: the one default of the CLI and the page. For all-MiniLM-L6-v2
    /// unrelated sentences score around 0.0–0.2; calibrate on a labelled set for real use.
    pub const DEFAULT: Thresholds = Thresholds {
        tau: 0.20,
        delta: 0.0,
    };

    /// The same with τ in [-1, 1] and δ in [0, 1] (cosines live there); a value that is not a
    /// number takes the default's.
    pub fn clamped(self) -> Thresholds {
        let tau = if self.tau.is_finite() {
            self.tau.clamp(-1.0, 1.0)
        } else {
            Thresholds::DEFAULT.tau
        };
        let delta = if self.delta.is_finite() {
            self.delta.clamp(0.0, 1.0)
        } else {
            Thresholds::DEFAULT.delta
        };
        Thresholds { tau, delta }
    }
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds::DEFAULT
    }
}

/// Cosine similarity of two unit vectors (their dot product).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The score matrix `[request][skill]`.
pub fn score_matrix(requests: &[Vec<f32>], skills: &[Vec<f32>]) -> Vec<Vec<f32>> {
    requests
        .iter()
        .map(|r| skills.iter().map(|s| cosine(r, s)).collect())
        .collect()
}

/// The index of the chosen skill for one row of scores, or `None` for NONE.
pub fn decide(scores: &[f32], t: Thresholds) -> Option<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let top = *order.first()?;
    let second = order.get(1).map_or(f32::NEG_INFINITY, |&i| scores[i]);
    (scores[top] >= t.tau && scores[top] - second >= t.delta).then_some(top)
}

/// The weight of BM25 in the preview's fusion: equal weights, as the routing benchmark compared
/// it (nothing tuned).
pub const FUSION_WEIGHT: f32 = 0.5;

/// The preview's scores `[request][skill]`: each request's cosines and its BM25 scores over the
/// skills' texts (`documents`, what the embedding saw), each scaled to [0, 1] per request and
/// averaged ([`crate::lexical::fuse`]). The routing benchmark chose this over the cosines alone
/// on the suites it compared them on (`bench_report::CHOICE_LINE`).
pub fn fused_matrix(
    cosines: &[Vec<f32>],
    documents: &[String],
    requests: &[String],
) -> Vec<Vec<f32>> {
    let bm25 = crate::lexical::Bm25::new(documents);
    cosines
        .iter()
        .zip(requests)
        .map(|(row, request)| crate::lexical::fuse(row, &bm25.scores(request), FUSION_WEIGHT))
        .collect()
}

/// The preview's decision for one request: NONE where its best cosine is under τ (the fused
/// scores are scaled per request, so they cannot say that nothing fits), else the top skill by
/// the fused scores, or NONE within δ of the second.
pub fn decide_fused(cosines: &[f32], fused: &[f32], t: Thresholds) -> Option<usize> {
    let top_cosine = cosines.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if top_cosine < t.tau {
        return None;
    }
    // The ranking and δ as for cosines, with no τ left to clear.
    let rank_only = Thresholds {
        tau: f32::NEG_INFINITY,
        delta: t.delta,
    };
    decide(fused, rank_only)
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
/// correct decisions on `labels` (a skill's name or NONE per request; `names` names the
/// matrix's columns).
pub fn calibrate(matrix: &[Vec<f32>], names: &[String], labels: &[&str]) -> Calibration {
    calibrate_with(matrix.len(), names, labels, |i, t| decide(&matrix[i], t))
}

/// [`calibrate`] for any router whose decision on request `i` under `t` is `decide_row(i, t)`.
pub fn calibrate_with(
    n: usize,
    names: &[String],
    labels: &[&str],
    decide_row: impl Fn(usize, Thresholds) -> Option<usize>,
) -> Calibration {
    let mut best = Calibration {
        best: Thresholds::DEFAULT,
        correct: 0,
        n_tried: 0,
    };
    let mut first = true;
    for ti in 0..=40 {
        for di in 0..=10 {
            let t = Thresholds {
                tau: ti as f32 * 0.02,
                delta: di as f32 * 0.01,
            };
            let correct = (0..n)
                .zip(labels)
                .filter(|(i, l)| {
                    decide_row(*i, t).map_or(crate::NONE, |k| names[k].as_str()) == **l
                })
                .count();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_with_threshold_and_margin() {
        let t = Thresholds {
            tau: 0.5,
            delta: 0.1,
        };
        assert_eq!(decide(&[0.2, 0.7, 0.55], t), Some(1));
        assert_eq!(decide(&[0.2, 0.7, 0.65], t), None, "margin too small");
        assert_eq!(decide(&[0.2, 0.4], t), None, "below tau");
        assert_eq!(decide(&[], t), None);
    }

    #[test]
    fn the_fused_decision_ranks_by_the_fusion_and_says_none_by_the_cosine() {
        let t = Thresholds {
            tau: 0.3,
            delta: 0.0,
        };
        // The cosines put b first by a hair; the request shares a rare word with a.
        let cosines = vec![vec![0.50, 0.51, 0.10]];
        let docs = [
            "a: rotates signing secrets",
            "b: writes notes",
            "c: bakes bread",
        ]
        .map(String::from);
        let fused = fused_matrix(&cosines, &docs, &["rotate the signing secrets".to_owned()]);
        assert_eq!(decide(&cosines[0], t), Some(1));
        assert_eq!(decide_fused(&cosines[0], &fused[0], t), Some(0));
        // Nothing fits: the fused scores still have a top, the cosine says NONE.
        assert_eq!(decide_fused(&[0.1, 0.2, 0.05], &fused[0], t), None);
    }

    #[test]
    fn calibration_finds_a_perfect_split() {
        let m = vec![vec![0.9, 0.1], vec![0.2, 0.8], vec![0.25, 0.2]];
        let names = vec!["a".to_owned(), "b".to_owned()];
        let c = calibrate(&m, &names, &["a", "b", crate::NONE]);
        assert_eq!(c.correct, 3);
        assert_eq!(
            m.iter().map(|r| decide(r, c.best)).collect::<Vec<_>>(),
            [Some(0), Some(1), None]
        );
        assert_eq!(c.n_tried, 41 * 11);
    }

    #[test]
    fn thresholds_are_clamped_to_where_cosines_live() {
        assert_eq!(
            Thresholds {
                tau: 5.0,
                delta: -1.0
            }
            .clamped(),
            Thresholds {
                tau: 1.0,
                delta: 0.0
            }
        );
        assert_eq!(
            Thresholds {
                tau: f32::NAN,
                delta: f32::INFINITY
            }
            .clamped(),
            Thresholds::DEFAULT
        );
    }
}
