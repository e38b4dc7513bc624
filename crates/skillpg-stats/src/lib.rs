//! The statistics that make two descriptions comparable honestly on a small labelled set:
//! Wilson score intervals for each arm's accuracy, the exact two-sided sign test on the
//! discordant pairs of a paired comparison, and the paired table itself.
//!
//! The chapter's figures are the tests: 18/24 gives [55.1, 88.0] %, 10/24 gives
//! [24.5, 61.2] %, and 9 against 1 discordant pairs gives p = 0.0215.

/// The z of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A Wilson score interval, as proportions in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// The Wilson score interval of `k` successes in `n` trials at `z` (use [`Z95`]).
/// With `n == 0` the interval is the whole of [0, 1].
pub fn wilson(k: u64, n: u64, z: f64) -> Interval {
    if n == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n_f = n as f64;
    let p = k.min(n) as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The exact two-sided sign test on discordant pairs: `b` pairs where only A was right, `c`
/// where only B was. Under the null hypothesis each discordant pair goes either way with
/// probability one half; the p-value is twice the smaller tail, capped at 1.
///
/// Past [`SIGN_TEST_EXACT_MAX`] pairs (and wherever `b + c` does not fit a `u64`) the binomial
/// tail is the normal approximation with continuity correction, whose error there is far below
/// the p-value's printed digits; the exact sum would take one term per pair (the hostile round
/// found `stats sign-test` with counts near 2⁶⁴ overflowing, or running for ever).
pub fn sign_test(b: u64, c: u64) -> f64 {
    let n = match b.checked_add(c) {
        Some(n) if n <= SIGN_TEST_EXACT_MAX => n,
        _ => return sign_test_normal(b as f64, c as f64),
    };
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    // P(X <= k) for X ~ Binomial(n, 1/2). Up to 1,000 pairs the terms are built by the exact
    // recurrence p(i+1) = p(i)·(n−i)/(i+1) from 2⁻ⁿ (exact for the chapter's 11/1024);
    // beyond, 2⁻ⁿ underflows and the sum is taken in log space.
    let tail: f64 = if n <= 1000 {
        let mut p = 0.5f64.powi(n as i32);
        let mut sum = 0.0;
        for i in 0..=k {
            sum += p;
            p = p * (n - i) as f64 / (i + 1) as f64;
        }
        sum
    } else {
        // Each term's logarithm from the one before (ln_choose per term would cost a factorial
        // each, quadratic in the pairs).
        let mut ln_p = -(n as f64) * std::f64::consts::LN_2;
        let mut sum = 0.0;
        for i in 0..=k {
            sum += ln_p.exp();
            ln_p += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
        }
        sum
    };
    (2.0 * tail).min(1.0)
}

/// The most discordant pairs [`sign_test`] sums exactly.
pub const SIGN_TEST_EXACT_MAX: u64 = 1_000_000;

/// Whether [`sign_test`] is exact for `b` and `c` (else the normal approximation).
pub fn sign_test_is_exact(b: u64, c: u64) -> bool {
    b.checked_add(c).is_some_and(|n| n <= SIGN_TEST_EXACT_MAX)
}

/// The two-sided sign test's normal approximation with continuity correction.
fn sign_test_normal(b: f64, c: f64) -> f64 {
    let n = b + c;
    let z = (((b - c).abs() - 1.0).max(0.0)) / n.sqrt();
    skillpg_math::erfc(z / std::f64::consts::SQRT_2).min(1.0)
}

/// The paired table of two arms on the same cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Paired {
    /// Both arms right.
    pub both: u64,
    /// Only A right.
    pub only_a: u64,
    /// Only B right.
    pub only_b: u64,
    /// Neither right.
    pub neither: u64,
}

impl Paired {
    /// Builds the table from per-case correctness of A and B (same length, same order).
    pub fn from_outcomes(a: &[bool], b: &[bool]) -> Paired {
        let mut res = Paired::default();
        for (&x, &y) in a.iter().zip(b) {
            match (x, y) {
                (true, true) => res.both += 1,
                (true, false) => res.only_a += 1,
                (false, true) => res.only_b += 1,
                (false, false) => res.neither += 1,
            }
        }
        res
    }

    /// The sign test's p-value on the discordant pairs.
    pub fn p_value(&self) -> f64 {
        sign_test(self.only_a, self.only_b)
    }
}

/// Recall and precision of one label among predictions (`None` when undefined: no such label
/// expected, or never predicted).
pub fn recall_precision(
    expected: &[&str],
    predicted: &[&str],
    label: &str,
) -> (Option<f64>, Option<f64>) {
    let tp = expected
        .iter()
        .zip(predicted)
        .filter(|(e, p)| **e == label && **p == label)
        .count() as f64;
    let n_expected = expected.iter().filter(|e| **e == label).count() as f64;
    let n_predicted = predicted.iter().filter(|p| **p == label).count() as f64;
    (
        (n_expected > 0.0).then(|| tp / n_expected),
        (n_predicted > 0.0).then(|| tp / n_predicted),
    )
}

/// One arm of an A/B comparison: how often it chose the expected label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArmSummary {
    /// Cases it got right.
    pub correct: u64,
    /// Cases in all.
    pub n: u64,
    /// Wilson 95% interval of `correct / n`.
    pub wilson: Interval,
    /// Cases it answered `none_label`.
    pub nones: u64,
}

impl ArmSummary {
    /// `correct / n` (0 when there are no cases).
    pub fn rate(&self) -> f64 {
        self.correct as f64 / self.n.max(1) as f64
    }

    /// `A: 18/24 correct = 75.0%, Wilson 95% [55.1, 88.0]; answered NONE 1 of 24`.
    pub fn line(&self, label: &str, none_label: &str) -> String {
        format!(
            "{label}: {}/{} correct = {}%, Wilson 95% [{}, {}]; answered {none_label} {} of {}",
            self.correct,
            self.n,
            percent(self.rate()),
            percent(self.wilson.low),
            percent(self.wilson.high),
            self.nones,
            self.n
        )
    }
}

/// An A/B comparison of two arms' choices against the expected labels, on the same cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub a: ArmSummary,
    pub b: ArmSummary,
    /// The paired table (its `p_value` is the exact sign test).
    pub paired: Paired,
}

/// Compares arms `a` and `b` (one choice per case) against `expected`; `none_label` is the
/// answer that means "no label" (NONE), counted apart. The one A/B arithmetic of the CLI and
/// the page.
pub fn compare(expected: &[&str], a: &[&str], b: &[&str], none_label: &str) -> Comparison {
    let right = |choices: &[&str]| -> Vec<bool> {
        choices.iter().zip(expected).map(|(c, e)| c == e).collect()
    };
    let (ra, rb) = (right(a), right(b));
    let n = expected.len() as u64;
    let summary = |r: &[bool], choices: &[&str]| {
        let correct = r.iter().filter(|x| **x).count() as u64;
        ArmSummary {
            correct,
            n,
            wilson: wilson(correct, n, Z95),
            nones: choices.iter().filter(|c| **c == none_label).count() as u64,
        }
    };
    Comparison {
        a: summary(&ra, a),
        b: summary(&rb, b),
        paired: Paired::from_outcomes(&ra, &rb),
    }
}

/// A proportion as a percentage with one decimal, as the chapter prints it.
pub fn percent(p: f64) -> String {
    format!("{:.1}", p * 100.0)
}

/// What a paired comparison on `n` cases can detect at `alpha` (two-sided): the fewest
/// discordant pairs, all one way, that the sign test calls significant (`None` when even `n`
/// of `n` would not: at 5% a set needs 6). Said before a draft is judged, so that "no
/// difference" on 8 validation queries reads as "this set could only have seen a draft that
/// turns 6 of them".
pub fn fewest_wins_to_show(n: u64, alpha: f64) -> Option<u64> {
    (1..=n).find(|&w| sign_test(w, 0) < alpha)
}

/// How many cases a paired comparison needs to show a change that turns `share` of them, all
/// one way, at `alpha`: the fewest wins that show ([`fewest_wins_to_show`] of a large set)
/// over the share, rounded up. `None` for a share outside (0, 1].
pub fn cases_to_show(share: f64, alpha: f64) -> Option<u64> {
    if !(share > 0.0 && share <= 1.0) {
        return None;
    }
    let wins = fewest_wins_to_show(u64::MAX >> 1, alpha)?;
    Some((wins as f64 / share).ceil() as u64)
}

/// One-sided Fisher exact test: the probability, with `a` of `n_a` cases of group A and `b` of
/// `n_b` of group B having an outcome and the margins fixed, that A has `a` or more of them
/// (the hypergeometric upper tail). Small when A's share is larger than chance would give: the
/// lab asks it whether a draft turns a larger share of train queries right than of validation
/// queries.
pub fn fisher_greater(a: u64, n_a: u64, b: u64, n_b: u64) -> f64 {
    let (a, b) = (a.min(n_a), b.min(n_b));
    let (n, k) = (n_a + n_b, a + b);
    let ln_choose = |n: u64, r: u64| -> f64 {
        let r = r.min(n - r);
        (0..r)
            .map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln())
            .sum()
    };
    let total = ln_choose(n, n_a);
    let top = k.min(n_a);
    let p: f64 = (a..=top)
        .filter(|&x| k - x <= n_b)
        .map(|x| (ln_choose(k, x) + ln_choose(n - k, n_a - x) - total).exp())
        .sum();
    p.min(1.0)
}

/// A logistic regression of one outcome on one number: `P(yes | x) = 1 / (1 + e^-(a + b·x))`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Logistic {
    pub a: f64,
    pub b: f64,
}

impl Logistic {
    /// The maximum-likelihood fit by Newton's method, with a tiny ridge on `b` so that data a
    /// threshold separates perfectly still gives a finite slope. `None` without both outcomes.
    pub fn fit(points: &[(f64, bool)]) -> Option<Logistic> {
        let yes = points.iter().filter(|p| p.1).count();
        if yes == 0 || yes == points.len() {
            return None;
        }
        const RIDGE: f64 = 1e-6;
        let (mut a, mut b) = (0.0f64, 0.0f64);
        for _ in 0..100 {
            let (mut g0, mut g1, mut h00, mut h01, mut h11) = (0.0, -RIDGE * b, 0.0, 0.0, RIDGE);
            for &(x, y) in points {
                let p = 1.0 / (1.0 + (-(a + b * x)).exp());
                let w = p * (1.0 - p);
                let r = f64::from(u8::from(y)) - p;
                g0 += r;
                g1 += r * x;
                h00 += w;
                h01 += w * x;
                h11 += w * x * x;
            }
            let det = h00 * h11 - h01 * h01;
            if det.abs() < f64::MIN_POSITIVE {
                break;
            }
            let (da, db) = ((h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det);
            a += da;
            b += db;
            if da.abs() < 1e-12 && db.abs() < 1e-12 {
                break;
            }
        }
        (a.is_finite() && b.is_finite()).then_some(Logistic { a, b })
    }

    /// `P(yes | x)`.
    pub fn probability(&self, x: f64) -> f64 {
        1.0 / (1.0 + (-(self.a + self.b * x)).exp())
    }

    /// The `x` at which `P(yes | x) = p` (`None` for a flat fit or `p` outside (0, 1)).
    pub fn x_at(&self, p: f64) -> Option<f64> {
        (p > 0.0 && p < 1.0 && self.b != 0.0).then(|| ((p / (1.0 - p)).ln() - self.a) / self.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fisher_exact_upper_tail() {
        // 5 of 5 against 0 of 5: C(5,5)C(5,0)/C(10,5) = 1/252.
        assert!((fisher_greater(5, 5, 0, 5) - 1.0 / 252.0).abs() < 1e-12);
        // Equal shares are no evidence.
        assert!(fisher_greater(2, 10, 2, 10) > 0.5);
        // 6 of 12 train against 0 of 8 validation: p ~ 0.02.
        let p = fisher_greater(6, 12, 0, 8);
        assert!(p < 0.05 && p > 0.01, "{p}");
        assert!((fisher_greater(0, 4, 3, 4) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn what_a_set_can_detect_is_said_in_wins() {
        // 2 × 2⁻⁶ = 0.031 < 0.05; 2 × 2⁻⁵ = 0.0625 is not.
        assert_eq!(fewest_wins_to_show(8, 0.05), Some(6));
        assert_eq!(
            fewest_wins_to_show(5, 0.05),
            None,
            "five cases cannot show anything"
        );
        assert_eq!(fewest_wins_to_show(20, 0.01), Some(8), "2 × 2⁻⁸ = 0.0078");
        // A draft that fixes one query in five needs about 30 to show at 5%.
        assert_eq!(cases_to_show(0.2, 0.05), Some(30));
        assert_eq!(cases_to_show(0.0, 0.05), None);
    }

    #[test]
    fn reproduces_the_chapter() {
        let rich = wilson(18, 24, Z95);
        assert_eq!(
            (percent(rich.low), percent(rich.high)),
            ("55.1".into(), "88.0".into())
        );
        let thin = wilson(10, 24, Z95);
        assert_eq!(
            (percent(thin.low), percent(thin.high)),
            ("24.5".into(), "61.2".into())
        );
        assert_eq!(format!("{:.4}", sign_test(9, 1)), "0.0215");
        assert_eq!(sign_test(9, 1), 2.0 * 11.0 / 1024.0);
    }

    #[test]
    fn edges() {
        assert_eq!(
            wilson(0, 0, Z95),
            Interval {
                low: 0.0,
                high: 1.0
            }
        );
        assert_eq!(wilson(0, 10, Z95).low, 0.0);
        assert!(wilson(10, 10, Z95).high >= 1.0 - 1e-12);
        assert_eq!(sign_test(0, 0), 1.0);
        assert_eq!(sign_test(3, 3), 1.0);
        assert!((sign_test(0, 10) - 2.0 / 1024.0).abs() < 1e-15);
        assert!(sign_test(500, 520) > 0.4 && sign_test(500, 520) < 1.0);
    }

    #[test]
    fn comparison_of_two_arms() {
        let c = compare(
            &["x", "y", "NONE", "x"],
            &["x", "y", "NONE", "y"],
            &["NONE", "y", "x", "NONE"],
            "NONE",
        );
        assert_eq!(
            (c.a.correct, c.b.correct, c.a.nones, c.b.nones),
            (3, 1, 1, 2)
        );
        assert_eq!(
            c.paired,
            Paired {
                both: 1,
                only_a: 2,
                only_b: 0,
                neither: 1
            }
        );
        assert_eq!(
            c.a.line("A", "NONE"),
            "A: 3/4 correct = 75.0%, Wilson 95% [30.1, 95.4]; answered NONE 1 of 4"
        );
    }

    #[test]
    fn paired_and_per_label() {
        let p = Paired::from_outcomes(&[true, true, false, false], &[true, false, true, false]);
        assert_eq!(
            p,
            Paired {
                both: 1,
                only_a: 1,
                only_b: 1,
                neither: 1
            }
        );
        let (r, pr) = recall_precision(&["x", "x", "y"], &["x", "y", "x"], "x");
        assert_eq!((r, pr), (Some(0.5), Some(0.5)));
        assert_eq!(recall_precision(&["y"], &["y"], "x"), (None, None));
    }

    /// Counts past what the exact sum takes, up to `u64::MAX` each, give a p-value at once and
    /// never panic; the approximation meets the exact sum where both run.
    #[test]
    fn huge_counts_give_a_p_value_at_once() {
        assert!(sign_test(u64::MAX, u64::MAX) > 0.99);
        assert!(sign_test(u64::MAX, 0) < 1e-12);
        assert!(!sign_test_is_exact(u64::MAX, 1));
        let (b, c) = (500_400, 499_600);
        let exact = sign_test(b, c);
        assert!(sign_test_is_exact(b, c));
        assert!(
            (sign_test_normal(b as f64, c as f64) - exact).abs() < 1e-3,
            "{exact}"
        );
    }

    #[test]
    fn a_logistic_fit_recovers_the_curve_it_was_drawn_from_and_needs_both_outcomes() {
        // Outcomes at x = 0..100 / 100, "yes" exactly where a fixed pseudo-random draw falls
        // under the true curve a = -2, b = 4.
        let truth = Logistic { a: -2.0, b: 4.0 };
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let points: Vec<(f64, bool)> = (0..20_000)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let x = (i % 101) as f64 / 100.0;
                let u = (state >> 11) as f64 / (1u64 << 53) as f64;
                (x, u < truth.probability(x))
            })
            .collect();
        let fit = Logistic::fit(&points).expect("both outcomes");
        assert!(
            (fit.a - truth.a).abs() < 0.15 && (fit.b - truth.b).abs() < 0.3,
            "{fit:?}"
        );
        assert!((fit.x_at(0.5).expect("a slope") - 0.5).abs() < 0.05);
        assert!(fit.probability(0.9) > fit.probability(0.1));
        assert_eq!(Logistic::fit(&[(0.1, true), (0.5, true)]), None);
        // Perfectly separated data: a finite, steep fit.
        let steep =
            Logistic::fit(&[(0.0, false), (0.1, false), (0.9, true), (1.0, true)]).expect("both");
        assert!(steep.b.is_finite() && steep.probability(1.0) > 0.99);
    }
}
