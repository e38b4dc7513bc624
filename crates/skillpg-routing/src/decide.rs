//! Decisions from an embedding model's scores: the top skill by cosine, or NONE below a
//! threshold τ or within a margin δ of the second; and calibration of τ and δ on labelled
//! requests.

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
            let correct = matrix
                .iter()
                .zip(labels)
                .filter(|(row, l)| decide(row, t).map_or(crate::NONE, |i| names[i].as_str()) == **l)
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
