//! The description lab: skill-creator's trigger evals, scored here.
//!
//! An eval set is skill-creator's `[{"query", "should_trigger"}]` for one skill. It is split
//! once, by a seed, into a train part (to look at while editing) and a validation part (to
//! judge a change on), 60/40 by default as agentskills.io and skill-creator's `run_loop`
//! recommend, each class split on its own so both parts hold queries of both kinds. A query
//! *triggers* the skill when the share of runs that choose it reaches 0.5 (skill-creator's
//! `run_eval` threshold); the embedding router runs once, so its rate is 0 or 1.
//!
//! The lab also explains a query's score by occlusion (each word of the description dropped in
//! turn, the description re-embedded), compares a draft description with the current one on
//! the validation part only (paired, with the exact sign test), and counts, over the loaded
//! skills, which skill captures another's should-trigger queries.
//!
//! Pure: scores come in from whichever router ran; nothing here embeds.

use std::ops::Range;

use serde::{Deserialize, Serialize};
use skillpg_stats::{Interval, Paired, Z95, wilson};

use crate::NONE;
use crate::PREVIEW_NOTE;
use crate::decide::Thresholds;
use crate::outcome::{Arm, Evidence, Method};
use crate::requests::Labelled;
use crate::sampling::SplitMix64;

/// The share of validation queries held out, as skill-creator's `run_loop` does by default.
pub const DEFAULT_HOLDOUT: f64 = 0.4;

/// The split's seed until a person sets one.
pub const DEFAULT_SEED: u64 = 42;

/// A query triggers the skill when at least this share of its runs choose it
/// (skill-creator's `run_eval`).
pub const TRIGGER_THRESHOLD: f64 = 0.5;

pub use crate::skill_creator::{EvalQuery, MAX_QUERIES};

/// Which part of the eval set a query is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    Train,
    Validation,
}

/// A query as the split and the version read it: lowercase, runs of whitespace as one space,
/// trimmed. Two queries that differ only in case or spacing are one query to them.
pub fn normalized(query: &str) -> String {
    query
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// FNV-1a, 64 bits: a stable hash of bytes (the same on every machine and in wasm).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A query's place in its kind's draw under `seed`: a function of its own normalized text, its
/// kind and the seed alone, so adding, removing, editing or reordering other queries never
/// changes it.
fn draw(q: &EvalQuery, seed: u64) -> u64 {
    let mut rng = SplitMix64(
        seed ^ fnv1a(normalized(&q.query).as_bytes())
            ^ u64::from(q.should_trigger).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    rng.next_u64()
}

/// How many of `n` distinct queries of one kind are held out at `holdout`: the share, rounded,
/// and at least one in each part when the kind has two or more (a validation recall over one
/// query is 0% or 100%, and a train part with none of a kind cannot be tuned on it).
pub fn held_out_count(n: usize, holdout: f64) -> usize {
    if n < 2 || holdout <= 0.0 {
        return 0;
    }
    ((holdout * n as f64).round() as usize).clamp(1, n - 1)
}

/// The split of `items` under `holdout` and `seed`: exactly [`held_out_count`] of each kind's
/// distinct queries are held out for validation, those that come first in the seed's draw
/// ([`draw`]). A query's part moves only when an edit of its own kind crosses it at the
/// boundary of the draw: an edit elsewhere, a reorder, or a change of case or spacing (two
/// queries that differ only so are one query, in one part) moves nothing.
pub fn split(items: &[EvalQuery], holdout: f64, seed: u64) -> Vec<Split> {
    split_sealed(items, holdout, seed, &|_: &str| false)
}

/// A query's sealed id: a hash of its normalized text alone (not its kind, not its skill), so
/// that a query held out once, for any skill, is known again wherever it appears.
pub fn sealed_id(query: &str) -> String {
    format!("{:016x}", fnv1a(normalized(query).as_bytes()))
}

/// [`split`] where every query `sealed` accepts (by its [`sealed_id`]) is held out whatever the
/// seed: a query once held out stays held out, on every seed and version and in every skill's
/// set, so changing the seed cannot move one into the train part to be looked at. Sealed
/// queries count toward each kind's share; the draw fills the rest of it, and a kind with more
/// sealed queries than its share holds them all out.
pub fn split_sealed(
    items: &[EvalQuery],
    holdout: f64,
    seed: u64,
    sealed: &dyn Fn(&str) -> bool,
) -> Vec<Split> {
    let holdout = if holdout.is_finite() {
        holdout.clamp(0.0, 0.9)
    } else {
        DEFAULT_HOLDOUT
    };
    let mut held = std::collections::HashSet::new();
    for kind in [true, false] {
        let mut distinct: Vec<(u64, String)> = items
            .iter()
            .filter(|q| q.should_trigger == kind)
            .map(|q| (draw(q, seed), normalized(&q.query)))
            .collect();
        distinct.sort();
        distinct.dedup_by(|a, b| a.1 == b.1);
        let k = held_out_count(distinct.len(), holdout);
        let (kept, open): (Vec<_>, Vec<_>) = distinct
            .into_iter()
            .partition(|(_, text)| sealed(&sealed_id(text)));
        let fill = k.saturating_sub(kept.len());
        held.extend(
            kept.into_iter()
                .chain(open.into_iter().take(fill))
                .map(|(_, text)| (kind, text)),
        );
    }
    items
        .iter()
        .map(|q| {
            if held.contains(&(q.should_trigger, normalized(&q.query))) {
                Split::Validation
            } else {
                Split::Train
            }
        })
        .collect()
}

/// An eval set's version: a hash of its queries (normalized) and their kinds, in any order. It
/// changes when a query is added, removed or edited, and names the set a draft was judged on.
pub fn version(items: &[EvalQuery]) -> String {
    let mut lines: Vec<String> = items
        .iter()
        .map(|q| format!("{}\t{}", u8::from(q.should_trigger), normalized(&q.query)))
        .collect();
    lines.sort();
    lines.dedup();
    format!("{:08x}", fnv1a(lines.join("\n").as_bytes()) >> 32)
}

/// How far a query's scores are from choosing skill `target` under `t`: the target's score
/// less the bar it must clear (τ, and the best other skill's score plus δ). The router chooses
/// the target exactly when the margin is not negative.
pub fn margin(scores: &[f32], target: usize, t: Thresholds) -> f32 {
    let Some(&own) = scores.get(target) else {
        return f32::NEG_INFINITY;
    };
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != target)
        .map(|(_, &s)| s)
        .fold(f32::NEG_INFINITY, f32::max);
    (own - t.tau).min(own - best_other - t.delta)
}

/// [`margin`] under the preview's fused router: the smaller of the two bars the target must
/// clear, its best cosine over τ (the fused scores cannot say NONE) and its fused score over
/// the best other's plus δ.
pub fn margin_fused(cosines: &[f32], fused: &[f32], target: usize, t: Thresholds) -> f32 {
    // The fused lead over the best other skill, δ taken off: `margin` with no τ to clear.
    let lead = margin(
        fused,
        target,
        Thresholds {
            tau: f32::NEG_INFINITY,
            delta: t.delta,
        },
    );
    let top_cosine = cosines.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    (top_cosine - t.tau).min(lead)
}

/// One query's result: its trigger rate over the runs, and the margin of the (last) run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QueryResult {
    /// The share of runs that chose the skill.
    pub trigger_rate: f64,
    /// How far the scores were from choosing it (embedding router; 0 for a decoder).
    pub margin: f32,
}

impl QueryResult {
    /// Whether the query triggers the skill (skill-creator's threshold).
    pub fn triggered(&self) -> bool {
        self.trigger_rate >= TRIGGER_THRESHOLD
    }
}

/// A part's confusion counts and the three rates with their Wilson intervals.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub n: u64,
    /// Should trigger, and did.
    pub true_positives: u64,
    /// Should not, and did.
    pub false_positives: u64,
    /// Should not, and did not.
    pub true_negatives: u64,
    /// Should trigger, and did not.
    pub false_negatives: u64,
}

impl Metrics {
    /// Precision, when anything triggered.
    pub fn precision(&self) -> Option<f64> {
        let d = self.true_positives + self.false_positives;
        (d > 0).then(|| self.true_positives as f64 / d as f64)
    }

    /// Recall, when anything should have triggered.
    pub fn recall(&self) -> Option<f64> {
        let d = self.true_positives + self.false_negatives;
        (d > 0).then(|| self.true_positives as f64 / d as f64)
    }

    /// Accuracy, when the part holds queries.
    pub fn accuracy(&self) -> Option<f64> {
        (self.n > 0).then(|| self.correct() as f64 / self.n as f64)
    }

    /// The queries decided right.
    pub fn correct(&self) -> u64 {
        self.true_positives + self.true_negatives
    }

    pub fn precision_interval(&self) -> Interval {
        wilson(
            self.true_positives,
            self.true_positives + self.false_positives,
            Z95,
        )
    }

    pub fn recall_interval(&self) -> Interval {
        wilson(
            self.true_positives,
            self.true_positives + self.false_negatives,
            Z95,
        )
    }

    pub fn accuracy_interval(&self) -> Interval {
        wilson(self.correct(), self.n, Z95)
    }
}

/// The metrics of the queries in `part`.
pub fn metrics(
    items: &[EvalQuery],
    results: &[QueryResult],
    splits: &[Split],
    part: Split,
) -> Metrics {
    let mut m = Metrics {
        n: 0,
        true_positives: 0,
        false_positives: 0,
        true_negatives: 0,
        false_negatives: 0,
    };
    for ((q, r), s) in items.iter().zip(results).zip(splits) {
        if *s != part {
            continue;
        }
        m.n += 1;
        match (q.should_trigger, r.triggered()) {
            (true, true) => m.true_positives += 1,
            (true, false) => m.false_negatives += 1,
            (false, true) => m.false_positives += 1,
            (false, false) => m.true_negatives += 1,
        }
    }
    m
}

/// The queries decided wrong, or right by a hair, nearest the bar first: what to look at.
/// Each is `(index, margin)`; a query is listed when it is wrong, or right within `near`.
pub fn near_misses(items: &[EvalQuery], results: &[QueryResult], near: f32) -> Vec<(usize, f32)> {
    let mut out: Vec<(usize, f32)> = items
        .iter()
        .zip(results)
        .enumerate()
        .filter(|(_, (q, r))| q.should_trigger != r.triggered() || r.margin.abs() <= near)
        .map(|(i, (_, r))| (i, r.margin))
        .collect();
    out.sort_by(|a, b| a.1.abs().total_cmp(&b.1.abs()));
    out
}

/// Why a draft looks fitted to the train part rather than the task: evidence under a test, not
/// any gain on train. An honest rewrite that turns two train queries and no validation query is
/// not flagged (two of twelve is within chance); a keyword list that turns six train queries and
/// none held out is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Overfit {
    /// Better on train by the sign test on train's pairs (p < 0.05), and no better on
    /// validation.
    TrainOnly { train_p: f64 },
    /// It turns a larger share of train queries right than of validation queries, by a
    /// one-sided Fisher exact test (p < 0.05), even where validation rose.
    GainGap { p: f64 },
}

/// What the paired validation queries say of a draft, in words an author can act on: one case
/// a sentence ([`Verdict::words`]), so that no two cases share a sentence and none says more
/// than its numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Right and wrong on the same validation queries.
    Same,
    /// Better on some, worse on as many: no evidence either way.
    Tie { each: u64 },
    /// Worse on more than it is better on; `significant` when the sign test says so (p < 0.05).
    /// Only then is it a warning: one query lost at p = 1.0 is no evidence of harm.
    Worse {
        lost: u64,
        won: u64,
        significant: bool,
    },
    /// Better on more than it is worse on; `significant` when the sign test says so (p < 0.05).
    Better {
        won: u64,
        lost: u64,
        significant: bool,
    },
}

impl Verdict {
    /// The verdict of a paired table (A: the description as written, B: the draft).
    pub fn of(paired: &Paired) -> Verdict {
        let (won, lost) = (paired.only_b, paired.only_a);
        let significant = paired.p_value() < 0.05;
        match (won, lost) {
            (0, 0) => Verdict::Same,
            (w, l) if w == l => Verdict::Tie { each: w },
            (w, l) if l > w => Verdict::Worse {
                lost: l,
                won: w,
                significant,
            },
            (w, l) => Verdict::Better {
                won: w,
                lost: l,
                significant,
            },
        }
    }

    /// Whether the author should be warned off the draft: the held-out queries show it hurting.
    pub fn is_warning(self) -> bool {
        matches!(
            self,
            Verdict::Worse {
                significant: true,
                ..
            }
        )
    }

    /// The verdict in words, over `n` validation queries with the sign test's `p`.
    pub fn words(self, n: u64, p: f64) -> String {
        match self {
            Verdict::Same => {
                format!("the same on all {n} validation queries: the draft changes no decision")
            }
            Verdict::Tie { each } => format!(
                "a draw: better on {each} and worse on {each} of {n} (p = {p:.4}), no evidence either way"
            ),
            Verdict::Worse {
                lost,
                won,
                significant: true,
            } => format!(
                "worse on {lost} of {n}, better on {won} (p = {p:.4}): evidence the draft hurts; keep the description you have"
            ),
            Verdict::Worse {
                lost,
                won: 0,
                significant: false,
            } => format!(
                "worse on {lost} of {n}, better on none (p = {p:.4}): too few to show harm, and nothing in the draft's favour"
            ),
            Verdict::Worse {
                lost,
                won,
                significant: false,
            } => format!(
                "worse on {lost} of {n}, better on {won} (p = {p:.4}): it leans worse, not yet evidence"
            ),
            Verdict::Better {
                won,
                lost,
                significant: true,
            } => format!(
                "better on {won} of {n}, worse on {lost} (p = {p:.4}): evidence the draft helps"
            ),
            Verdict::Better {
                won,
                lost,
                significant: false,
            } => format!(
                "better on {won} of {n}, worse on {lost} (p = {p:.4}): it leans better, not yet evidence; add validation queries to be sure"
            ),
        }
    }
}

/// A draft description against the current one, on the same split.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VariantComparison {
    pub train_current: Metrics,
    pub train_draft: Metrics,
    pub validation_current: Metrics,
    pub validation_draft: Metrics,
    /// The paired table on validation queries (A = current, B = draft).
    pub paired: Paired,
    /// The exact sign test's p-value on the discordant validation pairs.
    pub p_value: f64,
    /// The paired table on train queries, and its sign test's p-value.
    pub train_paired: Paired,
    pub train_p_value: f64,
    /// Why the draft looks fitted to the queries looked at, when it does.
    pub overfit: Option<Overfit>,
    /// What the validation pairs say.
    pub verdict: Verdict,
    /// The draft's gain in accuracy on each part, as a share of the part's queries.
    pub train_gain: f64,
    pub validation_gain: f64,
    /// Validation queries the draft changes from right to wrong or back by less than the router
    /// can separate (a margin within the close-call bound, on either side): counted neither as
    /// a win nor as a loss, and said.
    pub too_close: u64,
}

impl VariantComparison {
    /// Whether the draft is flagged as overfitting.
    pub fn overfits(&self) -> bool {
        self.overfit.is_some()
    }

    /// The verdict on validation, in words.
    pub fn verdict_words(&self) -> String {
        let words = self.verdict.words(
            self.paired.both + self.paired.only_a + self.paired.only_b + self.paired.neither,
            self.p_value,
        );
        match self.too_close {
            0 => words,
            n => format!(
                "{words}; {n} more change{} by less than the router can separate, too close to call either way",
                if n == 1 { "s" } else { "" }
            ),
        }
    }

    /// Train and validation in one sentence: what the draft does to the queries looked at,
    /// then what the held-out ones say.
    pub fn summary_words(&self) -> String {
        let t = &self.train_paired;
        let n = t.both + t.only_a + t.only_b + t.neither;
        format!(
            "On train, {} of {n} right as written and {} with the draft (it turns {} right and {} wrong). On validation, {}.",
            self.train_current.correct(),
            self.train_draft.correct(),
            t.only_b,
            t.only_a,
            self.verdict_words()
        )
    }

    /// Train queries the draft gets wrong that the description as written gets right.
    pub fn train_losses(&self) -> u64 {
        self.train_paired.only_a
    }

    /// A warning when the draft loses train queries, in words.
    pub fn train_loss_words(&self) -> Option<String> {
        let lost = self.train_losses();
        (lost > 0).then(|| {
            format!(
                "the draft gets {lost} train quer{} wrong that the description as written gets right: look at {} before you adopt it",
                if lost == 1 { "y" } else { "ies" },
                if lost == 1 { "it" } else { "them" }
            )
        })
    }

    /// Where the overfit flag would be when it is silent because it could not have spoken:
    /// with this few train queries no train gain reaches the sign test's 5%, and no gap between
    /// the parts reaches Fisher's. Its silence then says nothing, and the page says so.
    pub fn overfit_silence_words(&self) -> Option<String> {
        if self.overfit.is_some() {
            return None;
        }
        let (train, validation) = (self.train_current.n, self.validation_current.n);
        let sign_can = skillpg_stats::fewest_wins_to_show(train, 0.05).is_some();
        let gap_can = skillpg_stats::fisher_greater(train, train, 0, validation) < 0.05;
        (!sign_can && !gap_can).then(|| {
            format!(
                "no overfitting flag, but with {train} train and {validation} validation queries none could have been raised: even a draft that turned every train query right and no validation query would pass both tests, so this silence says nothing"
            )
        })
    }

    /// Why the draft is flagged, in words, when it is.
    pub fn overfit_words(&self) -> Option<String> {
        Some(match self.overfit? {
            Overfit::TrainOnly { train_p } => format!(
                "the draft is better on train beyond chance (it turns {} right and {} wrong, sign test p = {train_p:.4}) and no better on validation: it fits the queries you looked at, not the task",
                self.train_paired.only_b, self.train_paired.only_a
            ),
            Overfit::GainGap { p } => format!(
                "the draft gains {:+.0} points on train and {:+.0} on validation, a larger share of train queries turned right than of validation queries beyond chance (one-sided Fisher exact p = {p:.4}): how fitting the queries you looked at looks, not a better description",
                self.train_gain * 100.0,
                self.validation_gain * 100.0
            ),
        })
    }
}

/// Compares `draft` with `current` results (same queries, same order): the paired change on
/// each part, the verdict on the validation part only, and whether the draft overfits the train
/// part, under a test ([`Overfit`]).
pub fn compare_variants(
    items: &[EvalQuery],
    splits: &[Split],
    current: &[QueryResult],
    draft: &[QueryResult],
) -> VariantComparison {
    compare_variants_within(items, splits, current, draft, None)
}

/// [`compare_variants`], with the embedding router's close-call bound: a validation query whose
/// outcome the draft changes, where either margin is within `close` of the decision, is too
/// close to call and counts neither as a win nor as a loss ([`VariantComparison::too_close`]).
/// `None` (a decoder, whose results carry no margin) counts every change.
pub fn compare_variants_within(
    items: &[EvalQuery],
    splits: &[Split],
    current: &[QueryResult],
    draft: &[QueryResult],
    close: Option<f32>,
) -> VariantComparison {
    let right = |r: &[QueryResult], part: Split| -> Vec<bool> {
        items
            .iter()
            .zip(r)
            .zip(splits)
            .filter(|(_, s)| **s == part)
            .map(|((q, r), _)| q.should_trigger == r.triggered())
            .collect()
    };
    // The validation pairs the router can separate; the others are set aside and counted.
    let mut too_close = 0u64;
    let (mut sure_a, mut sure_b) = (Vec::new(), Vec::new());
    for (((q, a), b), s) in items.iter().zip(current).zip(draft).zip(splits) {
        if *s != Split::Validation {
            continue;
        }
        let (ra, rb) = (
            q.should_trigger == a.triggered(),
            q.should_trigger == b.triggered(),
        );
        let unsure = close.is_some_and(|c| a.margin.abs() < c || b.margin.abs() < c);
        if ra != rb && unsure {
            too_close += 1;
            continue;
        }
        sure_a.push(ra);
        sure_b.push(rb);
    }
    let paired = Paired::from_outcomes(&sure_a, &sure_b);
    let train_paired =
        Paired::from_outcomes(&right(current, Split::Train), &right(draft, Split::Train));
    let train_current = metrics(items, current, splits, Split::Train);
    let train_draft = metrics(items, draft, splits, Split::Train);
    let validation_current = metrics(items, current, splits, Split::Validation);
    let validation_draft = metrics(items, draft, splits, Split::Validation);
    let gain = |before: &Metrics, after: &Metrics| {
        if after.n == 0 {
            0.0
        } else {
            (after.correct() as f64 - before.correct() as f64) / after.n as f64
        }
    };
    let (train_gain, validation_gain) = (
        gain(&train_current, &train_draft),
        gain(&validation_current, &validation_draft),
    );
    let train_p_value = train_paired.p_value();
    let gap_p = skillpg_stats::fisher_greater(
        train_paired.only_b,
        train_current.n,
        paired.only_b,
        validation_current.n,
    );
    let overfit = if train_paired.only_b > train_paired.only_a
        && train_p_value < 0.05
        && paired.only_b <= paired.only_a
    {
        Some(Overfit::TrainOnly {
            train_p: train_p_value,
        })
    } else if train_gain > validation_gain && gap_p < 0.05 {
        Some(Overfit::GainGap { p: gap_p })
    } else {
        None
    };
    VariantComparison {
        train_current,
        train_draft,
        validation_current,
        validation_draft,
        paired,
        p_value: paired.p_value(),
        train_paired,
        train_p_value,
        overfit,
        verdict: Verdict::of(&paired),
        train_gain,
        validation_gain,
        too_close,
    }
}

/// Why a draft is judged on one split only. Judging it again on other seeds' held-out parts
/// (as an earlier round did, "better on 9 of 10 splits") judged it on queries it was tuned on:
/// every query outside this split's held-out part was in the train part the author looked at
/// while drafting. The page and `skillpg eval --draft` say this instead.
pub const ONE_SPLIT_ONLY: &str = "Judged on this split's held-out queries only: every other query was in the train part you looked at while drafting, so another split would judge the draft on queries it was tuned on. Add held-out queries (new ones, unseen) to be surer.";

/// The words of `description`: byte ranges of its whitespace-separated runs.
pub fn words(description: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in description.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(s..description.len());
    }
    out
}

/// `description` without the word at `range` (and one space next to it).
pub fn without(description: &str, range: &Range<usize>) -> String {
    let before = description[..range.start].trim_end();
    let after = description[range.end..].trim_start();
    match (before.is_empty(), after.is_empty()) {
        (true, _) => after.to_owned(),
        (_, true) => before.to_owned(),
        _ => format!("{before} {after}"),
    }
}

/// Each word's contribution to a query's score: the full description's score less the score
/// without the word (positive: the word pulls the query in).
pub fn contributions(full: f32, without_each: &[f32]) -> Vec<f32> {
    without_each.iter().map(|w| full - w).collect()
}

/// For the loaded skills, how many of each skill's should-trigger queries another skill
/// captures: `(owner, captor, count)` for every pair with a count, largest first. `chosen` is
/// each query's decision (the skill index or `None`), `owner` the skill whose set it is in.
pub fn collisions(
    owner: &[usize],
    should_trigger: &[bool],
    chosen: &[Option<usize>],
) -> Vec<(usize, usize, usize)> {
    let mut counts: std::collections::BTreeMap<(usize, usize), usize> =
        std::collections::BTreeMap::new();
    for ((&o, &should), c) in owner.iter().zip(should_trigger).zip(chosen) {
        if let (true, Some(c)) = (should, c)
            && *c != o
        {
            *counts.entry((o, *c)).or_default() += 1;
        }
    }
    let mut out: Vec<(usize, usize, usize)> =
        counts.into_iter().map(|((o, c), n)| (o, c, n)).collect();
    out.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    out
}

/// Each query's result under `arm` for the skill at `target`: chosen or not (a single run, so a
/// rate of 0 or 1), with the margin where the arm holds cosines (0 for a decoder's answer).
pub fn results_from_arm(arm: &Arm, target: usize, t: Thresholds) -> Vec<QueryResult> {
    arm.decisions
        .iter()
        .map(|d| {
            let chosen = d.choice == Some(target);
            let margin = match &d.evidence {
                Evidence::Cosines {
                    cosines,
                    fused: Some(fused),
                } => margin_fused(cosines, fused, target, t),
                Evidence::Cosines { cosines, .. } => margin(cosines, target, t),
                _ => 0.0,
            };
            QueryResult {
                trigger_rate: if chosen { 1.0 } else { 0.0 },
                margin,
            }
        })
        .collect()
}

/// An eval set as the routers read requests: a should-trigger query expects the skill, the
/// others expect NONE.
pub fn as_requests(items: &[EvalQuery], skill: &str) -> Vec<Labelled> {
    items
        .iter()
        .map(|q| Labelled {
            query: q.query.clone(),
            expected: if q.should_trigger {
                skill.to_owned()
            } else {
                NONE.to_owned()
            },
        })
        .collect()
}

/// One part's figures in a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartJson {
    pub n: u64,
    pub true_positives: u64,
    pub false_positives: u64,
    pub true_negatives: u64,
    pub false_negatives: u64,
    pub precision: Option<f64>,
    /// Wilson 95% interval, `[low, high]`.
    pub precision_ci: [f64; 2],
    pub recall: Option<f64>,
    pub recall_ci: [f64; 2],
    pub accuracy: Option<f64>,
    pub accuracy_ci: [f64; 2],
}

impl From<Metrics> for PartJson {
    fn from(m: Metrics) -> PartJson {
        let ci = |i: Interval| [i.low, i.high];
        PartJson {
            n: m.n,
            true_positives: m.true_positives,
            false_positives: m.false_positives,
            true_negatives: m.true_negatives,
            false_negatives: m.false_negatives,
            precision: m.precision(),
            precision_ci: ci(m.precision_interval()),
            recall: m.recall(),
            recall_ci: ci(m.recall_interval()),
            accuracy: m.accuracy(),
            accuracy_ci: ci(m.accuracy_interval()),
        }
    }
}

impl QueryRow {
    /// The query as an eval set holds it.
    pub fn item(&self) -> EvalQuery {
        EvalQuery {
            query: self.query.clone(),
            should_trigger: self.should_trigger,
        }
    }

    /// Its result, as the metrics read it.
    pub fn result(&self) -> QueryResult {
        QueryResult {
            trigger_rate: self.trigger_rate,
            margin: self.margin,
        }
    }
}

fn one() -> usize {
    1
}

/// One query in a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryRow {
    pub query: String,
    pub should_trigger: bool,
    pub split: Split,
    pub trigger_rate: f64,
    pub triggered: bool,
    /// The skill the router chose (or NONE); the first run's, with repeated runs.
    pub chosen: String,
    pub margin: f32,
    /// Every run's choice, with repeated runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<String>,
    /// Every run's answer, verbatim, with repeated runs: the same seed gives the same ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<String>,
}

/// `skillpg eval --format json`, and the page's lab export: the same bytes for the same inputs.
/// The page imports it back (its queries, seed and holdout).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalReport {
    pub skill: String,
    pub description: String,
    pub model: String,
    #[serde(flatten)]
    pub method: Method,
    pub holdout: f64,
    pub seed: u64,
    /// The eval set's [`version`]: which set the split and the figures are of.
    #[serde(default)]
    pub version: String,
    /// How many times each query ran (1: the embedding model, or a decoder's greedy answer).
    #[serde(default = "one")]
    pub runs: usize,
    /// The decoder's sampling temperature (0: greedy).
    #[serde(default)]
    pub temperature: f32,
    /// The other skills loaded, which compete for the queries.
    pub catalog: Vec<String>,
    pub queries: Vec<QueryRow>,
    /// The validation queries of a report that holds them out ([`held_out_report`]): their
    /// text and kind only, so the set imports back whole; absent from a full report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_out: Vec<EvalQuery>,
    pub train: PartJson,
    pub validation: PartJson,
    pub note: String,
}

/// Everything that describes one eval run.
#[derive(Debug)]
pub struct EvalRun<'a> {
    pub model: &'a str,
    pub method: Method,
    pub holdout: f64,
    pub seed: u64,
    pub items: &'a [EvalQuery],
    pub arm: &'a Arm,
    /// The skill evaluated, an index into the arm's names.
    pub target: usize,
    pub description: &'a str,
    /// A decoder's repeated runs, when the queries were run more than once or at a
    /// temperature: every run's answer for each query (the arm holds the first run's).
    pub sampled: Option<Sampled<'a>>,
}

/// A decoder's repeated, seeded runs.
#[derive(Debug, Clone, Copy)]
pub struct Sampled<'a> {
    pub runs: usize,
    pub temperature: f32,
    /// For each query, the skill each run chose (`None`: NONE).
    pub choices: &'a [Vec<Option<usize>>],
    /// For each query, each run's answer, verbatim.
    pub answers: &'a [Vec<String>],
}

/// Each query's share of runs that chose `target`.
pub fn sampled_results(choices: &[Vec<Option<usize>>], target: usize) -> Vec<QueryResult> {
    choices
        .iter()
        .map(|runs| {
            let hits = runs.iter().filter(|c| **c == Some(target)).count();
            QueryResult {
                trigger_rate: if runs.is_empty() {
                    0.0
                } else {
                    hits as f64 / runs.len() as f64
                },
                margin: 0.0,
            }
        })
        .collect()
}

impl EvalRun<'_> {
    /// The thresholds the arm was decided under (the default for a decoder).
    fn thresholds(&self) -> Thresholds {
        match self.method {
            Method::Embedding { thresholds } => thresholds,
            _ => Thresholds::DEFAULT,
        }
    }

    /// The report of the run.
    pub fn report(&self) -> EvalReport {
        let splits = split(self.items, self.holdout, self.seed);
        let results = match &self.sampled {
            Some(s) => sampled_results(s.choices, self.target),
            None => results_from_arm(self.arm, self.target, self.thresholds()),
        };
        let queries = self
            .items
            .iter()
            .zip(&splits)
            .zip(&results)
            .zip(&self.arm.decisions)
            .enumerate()
            .map(|(i, (((q, s), r), d))| QueryRow {
                query: q.query.clone(),
                should_trigger: q.should_trigger,
                split: *s,
                trigger_rate: r.trigger_rate,
                triggered: r.triggered(),
                chosen: self.arm.name_of(d).to_owned(),
                margin: r.margin,
                runs: self
                    .sampled
                    .map(|smp| {
                        smp.choices[i]
                            .iter()
                            .map(|c| {
                                c.and_then(|k| self.arm.names.get(k))
                                    .map_or(NONE, String::as_str)
                                    .to_owned()
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                answers: self
                    .sampled
                    .and_then(|smp| smp.answers.get(i).cloned())
                    .unwrap_or_default(),
            })
            .collect();
        let name = self.arm.names.get(self.target).cloned().unwrap_or_default();
        EvalReport {
            catalog: self
                .arm
                .names
                .iter()
                .filter(|n| **n != name)
                .cloned()
                .collect(),
            skill: name,
            description: self.description.to_owned(),
            model: self.model.to_owned(),
            method: self.method,
            holdout: self.holdout,
            seed: self.seed,
            version: version(self.items),
            runs: self.sampled.map_or(1, |smp| smp.runs),
            temperature: self.sampled.map_or(0.0, |smp| smp.temperature),
            queries,
            held_out: Vec::new(),
            train: metrics(self.items, &results, &splits, Split::Train).into(),
            validation: metrics(self.items, &results, &splits, Split::Validation).into(),
            note: PREVIEW_NOTE.to_owned(),
        }
    }
}

/// The report as the file the CLI prints and the page downloads.
pub fn report_json(report: &EvalReport) -> String {
    serde_json::to_string_pretty(report).unwrap_or_default() + "\n"
}

/// The report with the validation part held out: its queries' rows left out (their outcomes
/// are what an author must not see before the final check), its totals kept (the figures every
/// run shows, each showing counted as a look), and the note saying so. What the lab exports
/// before its final check, and `skillpg eval --held-out` prints.
pub fn held_out_report(report: &EvalReport) -> EvalReport {
    let held = report
        .queries
        .iter()
        .filter(|q| q.split == Split::Validation)
        .count();
    EvalReport {
        queries: report
            .queries
            .iter()
            .filter(|q| q.split == Split::Train)
            .cloned()
            .collect(),
        held_out: report
            .queries
            .iter()
            .filter(|q| q.split == Split::Validation)
            .map(QueryRow::item)
            .collect(),
        note: format!(
            "{} The {held} validation queries are held out of this report until the final check; their totals are above.",
            report.note
        ),
        ..report.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_out_report_shows_no_validation_outcome_and_imports_back_whole() {
        let items: Vec<EvalQuery> = (0..10)
            .map(|i| q(&format!("query {i}"), i % 2 == 0))
            .collect();
        let splits = split(&items, DEFAULT_HOLDOUT, 3);
        let rows: Vec<QueryRow> = items
            .iter()
            .zip(&splits)
            .map(|(q, s)| QueryRow {
                query: q.query.clone(),
                should_trigger: q.should_trigger,
                split: *s,
                trigger_rate: 1.0,
                triggered: true,
                chosen: "a".to_owned(),
                margin: 0.1,
                runs: Vec::new(),
                answers: Vec::new(),
            })
            .collect();
        let full = EvalReport {
            skill: "a".to_owned(),
            description: "d".to_owned(),
            model: "m".to_owned(),
            method: Method::Embedding {
                thresholds: Thresholds::DEFAULT,
            },
            holdout: DEFAULT_HOLDOUT,
            seed: 3,
            version: version(&items),
            runs: 1,
            temperature: 0.0,
            catalog: vec!["b".to_owned()],
            queries: rows,
            held_out: Vec::new(),
            train: metrics(&items, &[], &splits, Split::Train).into(),
            validation: metrics(&items, &[], &splits, Split::Validation).into(),
            note: "n".to_owned(),
        };
        let held = held_out_report(&full);
        let json = report_json(&held);
        for (q, s) in items.iter().zip(&splits) {
            if *s == Split::Validation {
                let row = held.queries.iter().find(|r| r.query == q.query);
                assert!(row.is_none(), "{} has no outcome in the report", q.query);
            }
        }
        assert_eq!(held.held_out.len(), 4);
        assert!(!report_json(&full).contains("held_out"));
        let back = crate::evalset::parse_eval_input(&json).expect("imports");
        assert_eq!(back.items.len(), items.len(), "the set comes back whole");
    }

    fn q(query: &str, should: bool) -> EvalQuery {
        EvalQuery {
            query: query.into(),
            should_trigger: should,
        }
    }

    /// `n` queries' parts, train and validation in turn.
    fn alternating(n: usize) -> Vec<Split> {
        (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    Split::Train
                } else {
                    Split::Validation
                }
            })
            .collect()
    }

    fn set(n_pos: usize, n_neg: usize) -> Vec<EvalQuery> {
        (0..n_pos)
            .map(|i| q(&format!("p{i}"), true))
            .chain((0..n_neg).map(|i| q(&format!("n{i}"), false)))
            .collect()
    }

    #[test]
    fn the_split_is_seeded_and_a_query_keeps_its_part_whatever_else_changes() {
        let items = set(10, 10);
        let a = split(&items, DEFAULT_HOLDOUT, 7);
        assert_eq!(
            a,
            split(&items, DEFAULT_HOLDOUT, 7),
            "the same seed, the same split"
        );
        assert_ne!(
            a,
            split(&items, DEFAULT_HOLDOUT, 8),
            "another seed, another split"
        );
        // Case and spacing do not move a query: two spellings of one query are one, in one part.
        let spelled = [
            q("Check  THIS migration", true),
            q("check this migration", true),
            q("write a query", true),
        ];
        let parts = split(&spelled, 0.4, 3);
        assert_eq!(parts[0], parts[1]);
        assert_eq!(
            split(&items, 0.0, 1),
            vec![Split::Train; 20],
            "nothing held out at 0"
        );
    }

    /// The properties the lab promises an author: each kind's held-out share is exactly
    /// [`held_out_count`] of its distinct queries, on every set; an edit of one kind (k queries
    /// removed, k added, the rest reordered) moves no query of the other kind, and at most
    /// 2k + 1 of its own (those crossed at the boundary of the draw).
    #[test]
    fn each_kind_holds_out_exactly_its_share_and_an_edit_moves_only_its_boundary() {
        let mut rng = SplitMix64(2026);
        let count = |items: &[EvalQuery], parts: &[Split], kind: bool| {
            items
                .iter()
                .zip(parts)
                .filter(|(q, p)| q.should_trigger == kind && **p == Split::Validation)
                .count()
        };
        for case in 0..300 {
            let n = 2 + (rng.next_u64() % 40) as usize;
            let items: Vec<EvalQuery> = (0..n)
                .map(|i| {
                    q(
                        &format!("query {case}-{i}"),
                        rng.next_u64().is_multiple_of(2),
                    )
                })
                .collect();
            let seed = rng.next_u64();
            let holdout = [0.2, 0.3, DEFAULT_HOLDOUT, 0.5][(rng.next_u64() % 4) as usize];
            let before = split(&items, holdout, seed);
            for kind in [true, false] {
                let of_kind = items.iter().filter(|q| q.should_trigger == kind).count();
                assert_eq!(
                    count(&items, &before, kind),
                    held_out_count(of_kind, holdout),
                    "case {case}: {of_kind} of kind {kind} at {holdout}"
                );
            }
            // Remove k of one kind, add k new ones of it, reverse the order.
            let kind = rng.next_u64().is_multiple_of(2);
            let k = (rng.next_u64() % 4) as usize;
            let mut removed = 0;
            let kept: Vec<usize> = (0..n)
                .filter(|&i| {
                    let drop = items[i].should_trigger == kind
                        && removed < k
                        && rng.next_u64().is_multiple_of(3);
                    removed += usize::from(drop);
                    !drop
                })
                .collect();
            let mut edited: Vec<EvalQuery> = kept.iter().map(|&i| items[i].clone()).collect();
            edited.extend((0..k).map(|j| q(&format!("new query {j} of case {case}"), kind)));
            edited.reverse();
            let after = split(&edited, holdout, seed);
            let mut moved = [0usize, 0usize];
            for (&i, part) in kept.iter().zip(after.iter().rev()) {
                if before[i] != *part {
                    moved[usize::from(items[i].should_trigger)] += 1;
                }
            }
            assert_eq!(
                moved[usize::from(!kind)],
                0,
                "case {case}: the other kind moved"
            );
            assert!(
                moved[usize::from(kind)] <= 2 * (removed + k) + 1,
                "case {case}: {} moved after {removed} removed and {k} added",
                moved[usize::from(kind)]
            );
        }
        // The counts the issue found drifting (1 to 7 of 10 held out over seeds): now 4 of 10.
        let ten = set(10, 10);
        for seed in 1..=40 {
            let parts = split(&ten, DEFAULT_HOLDOUT, seed);
            assert_eq!(
                (count(&ten, &parts, true), count(&ten, &parts, false)),
                (4, 4),
                "seed {seed}"
            );
        }
        assert_eq!(held_out_count(1, 0.4), 0, "one query cannot be split");
        assert_eq!(
            held_out_count(2, 0.1),
            1,
            "at least one of each kind held out"
        );
        assert_eq!(held_out_count(3, 0.9), 2, "at least one of each kind kept");
    }

    #[test]
    fn the_version_names_the_set_in_any_order() {
        let items = set(3, 3);
        let mut shuffled = items.clone();
        shuffled.reverse();
        assert_eq!(version(&items), version(&shuffled));
        assert_ne!(version(&items), version(&set(3, 4)));
        assert_eq!(version(&items).len(), 8);
    }

    #[test]
    fn the_margin_says_whether_and_by_how_much_the_router_chooses_the_skill() {
        let t = Thresholds {
            tau: 0.3,
            delta: 0.05,
        };
        assert!(
            (margin(&[0.6, 0.4], 0, t) - 0.15).abs() < 1e-6,
            "beats the other by 0.2, δ 0.05"
        );
        assert!(
            (margin(&[0.35, 0.1], 0, t) - 0.05).abs() < 1e-6,
            "τ is the bar"
        );
        assert!(margin(&[0.4, 0.6], 0, t) < 0.0);
        for row in [
            [0.6f32, 0.4],
            [0.35, 0.1],
            [0.4, 0.6],
            [0.2, 0.1],
            [0.5, 0.47],
        ] {
            assert_eq!(
                margin(&row, 0, t) >= 0.0,
                crate::decide::decide(&row, t) == Some(0),
                "{row:?}"
            );
        }
    }

    #[test]
    fn metrics_count_each_part_with_wilson_intervals() {
        let items = set(3, 2);
        let splits = vec![Split::Train; 5];
        let r = |x: f64| QueryResult {
            trigger_rate: x,
            margin: 0.0,
        };
        // Two of three positives trigger (one at exactly 0.5: it counts), one negative does.
        let results = [r(1.0), r(0.5), r(0.0), r(0.67), r(0.0)];
        let m = metrics(&items, &results, &splits, Split::Train);
        assert_eq!(
            (
                m.true_positives,
                m.false_negatives,
                m.false_positives,
                m.true_negatives
            ),
            (2, 1, 1, 1)
        );
        assert_eq!(m.precision(), Some(2.0 / 3.0));
        assert_eq!(m.recall(), Some(2.0 / 3.0));
        assert_eq!(m.accuracy(), Some(3.0 / 5.0));
        let ci = m.accuracy_interval();
        assert!(ci.low < 0.6 && ci.high > 0.6);
        assert_eq!(
            metrics(&items, &results, &splits, Split::Validation).accuracy(),
            None
        );
    }

    #[test]
    fn a_change_the_router_cannot_separate_is_neither_a_win_nor_a_loss() {
        let items = set(2, 0);
        let splits = vec![Split::Validation, Split::Validation];
        let r = |triggered: bool, margin: f32| QueryResult {
            trigger_rate: if triggered { 1.0 } else { 0.0 },
            margin,
        };
        // Both queries turn right with the draft: one by a wide margin, one by a hair.
        let current = vec![r(false, -0.3), r(false, -0.01)];
        let draft = vec![r(true, 0.2), r(true, 0.005)];
        let c = compare_variants_within(&items, &splits, &current, &draft, Some(0.04));
        assert_eq!((c.paired.only_b, c.paired.only_a, c.too_close), (1, 0, 1));
        assert!(
            c.verdict_words().ends_with(
                "1 more changes by less than the router can separate, too close to call either way"
            ),
            "{}",
            c.verdict_words()
        );
        // Without a bound (a decoder), both count.
        let all = compare_variants(&items, &splits, &current, &draft);
        assert_eq!((all.paired.only_b, all.too_close), (2, 0));
    }

    #[test]
    fn a_draft_that_helps_train_only_is_flagged_and_validation_is_paired() {
        let items = set(4, 4);
        let splits = vec![
            Split::Train,
            Split::Train,
            Split::Validation,
            Split::Validation,
            Split::Train,
            Split::Train,
            Split::Validation,
            Split::Validation,
        ];
        let r = |t: bool| QueryResult {
            trigger_rate: if t { 1.0 } else { 0.0 },
            margin: 0.0,
        };
        let current = [
            r(false),
            r(false),
            r(true),
            r(true),
            r(false),
            r(false),
            r(false),
            r(false),
        ];
        // The draft fixes both train positives and breaks a validation one.
        let draft = [
            r(true),
            r(true),
            r(true),
            r(false),
            r(false),
            r(false),
            r(false),
            r(false),
        ];
        let c = compare_variants(&items, &splits, &current, &draft);
        // Two train queries turned are within chance (sign test p = 0.5): not overfitting, but
        // the sentence says both parts; one validation query lost at p = 1.0 is no evidence of
        // harm, and the sentence says so rather than warning.
        assert_eq!(c.overfit, None);
        assert_eq!((c.train_paired.only_b, c.train_paired.only_a), (2, 0));
        assert!(
            c.summary_words().starts_with("On train, ")
                && c.summary_words()
                    .contains("(it turns 2 right and 0 wrong). On validation, worse on 1 of 4"),
            "{}",
            c.summary_words()
        );
        assert_eq!(c.train_loss_words(), None);
        assert_eq!((c.paired.only_a, c.paired.only_b, c.paired.both), (1, 0, 3));
        assert_eq!(c.p_value, 1.0);
        assert_eq!(
            c.verdict,
            Verdict::Worse {
                lost: 1,
                won: 0,
                significant: false
            }
        );
        assert!(!c.verdict.is_warning());
        assert_eq!(
            c.verdict.words(4, c.p_value),
            "worse on 1 of 4, better on none (p = 1.0000): too few to show harm, and nothing in the draft's favour"
        );
        let honest = compare_variants(&items, &splits, &current, &current);
        assert!(!honest.overfits());
        assert_eq!(honest.verdict, Verdict::Same);
    }

    #[test]
    fn a_gain_on_train_far_above_the_gain_on_validation_is_flagged_even_when_validation_rose() {
        // 20 train queries and 20 validation ones, half of each wrong as written: the draft
        // fixes 9 train queries and 1 validation one.
        let items = set(20, 20);
        let splits = alternating(40);
        let r = |t: bool| QueryResult {
            trigger_rate: if t { 1.0 } else { 0.0 },
            margin: 0.0,
        };
        // Wrong as written: the should-trigger queries (0..20) are missed.
        let current: Vec<QueryResult> = (0..40).map(|_| r(false)).collect();
        let fixed_train = [0, 2, 4, 6, 8, 10, 12, 14, 16];
        let draft: Vec<QueryResult> = (0..40)
            .map(|i| r(fixed_train.contains(&i) || i == 1))
            .collect();
        let c = compare_variants(&items, &splits, &current, &draft);
        assert!(
            c.validation_draft.correct() > c.validation_current.correct(),
            "validation rose"
        );
        assert!(
            matches!(c.overfit, Some(Overfit::GainGap { p }) if p < 0.05),
            "train +45 points, validation +5: {:?}",
            c.overfit
        );
        assert!(c.overfit_words().is_some_and(|w| w.contains("Fisher")));
        // The same gain on both parts is no evidence of fitting.
        let even: Vec<QueryResult> = (0..40).map(|i| r(i < 6)).collect();
        assert_eq!(
            compare_variants(&items, &splits, &current, &even).overfit,
            None
        );
        // Significant on train and nothing on validation: fits the train part.
        let train_only: Vec<QueryResult> = (0..40).map(|i| r(fixed_train.contains(&i))).collect();
        let c = compare_variants(&items, &splits, &current, &train_only);
        assert!(matches!(c.overfit, Some(Overfit::TrainOnly { train_p }) if train_p < 0.01));
        // Ties are ties; one regression in a sea of gains is not a warning.
        let tie = Paired {
            both: 5,
            only_a: 2,
            only_b: 2,
            neither: 1,
        };
        assert_eq!(Verdict::of(&tie), Verdict::Tie { each: 2 });
        assert!(
            Verdict::of(&tie)
                .words(10, 1.0)
                .contains("no evidence either way")
        );
        assert!(
            !Verdict::of(&Paired {
                both: 1,
                only_a: 1,
                only_b: 4,
                neither: 0
            })
            .is_warning()
        );
    }

    /// Every verdict sentence, over random paired tables: it names the numbers it rests on,
    /// says "helps" or "hurts" only when the sign test shows that direction, never the other
    /// way round, and each case has a sentence of its own.
    #[test]
    fn every_verdict_sentence_matches_the_signs_and_the_test_of_its_numbers() {
        let mut rng = crate::sampling::SplitMix64(7);
        let mut kinds = std::collections::BTreeMap::new();
        for _ in 0..20_000 {
            let pick = |rng: &mut crate::sampling::SplitMix64, max: u64| rng.next_u64() % (max + 1);
            let p = Paired {
                both: pick(&mut rng, 12),
                only_a: pick(&mut rng, 9),
                only_b: pick(&mut rng, 9),
                neither: pick(&mut rng, 6),
            };
            let n = p.both + p.only_a + p.only_b + p.neither;
            let v = Verdict::of(&p);
            let words = v.words(n, p.p_value());
            let (won, lost) = (p.only_b, p.only_a);
            let shown = p.p_value() < 0.05;
            assert_eq!(
                words.contains("helps"),
                won > lost && shown,
                "{p:?}: {words}"
            );
            assert_eq!(
                words.contains("hurts"),
                lost > won && shown,
                "{p:?}: {words}"
            );
            assert_eq!(v.is_warning(), lost > won && shown, "{p:?}: {words}");
            assert_eq!(
                words.contains("leans better"),
                won > lost && !shown,
                "{p:?}: {words}"
            );
            assert_eq!(
                words.contains("leans worse") || words.contains("too few to show harm"),
                lost > won && !shown,
                "{p:?}: {words}"
            );
            assert_eq!(
                words.contains("a draw"),
                won == lost && won > 0,
                "{p:?}: {words}"
            );
            assert_eq!(words.contains("changes no decision"), won == 0 && lost == 0);
            if won + lost > 0 {
                assert!(words.contains(&format!(" of {n}")), "{p:?}: {words}");
            }
            // One sentence a case: the words after the numbers are the case's own.
            let case = match v {
                Verdict::Same => "same",
                Verdict::Tie { .. } => "tie",
                Verdict::Worse {
                    significant: true, ..
                } => "worse, shown",
                Verdict::Worse { won: 0, .. } => "worse only, not shown",
                Verdict::Worse { .. } => "leaning worse",
                Verdict::Better {
                    significant: true, ..
                } => "better, shown",
                Verdict::Better { .. } => "leaning better",
            };
            let tail: String = words
                .chars()
                .filter(|c| c.is_alphabetic() || *c == ' ')
                .collect();
            let tail = tail
                .split_whitespace()
                .skip(3)
                .collect::<Vec<_>>()
                .join(" ");
            kinds
                .entry(tail)
                .or_insert_with(std::collections::BTreeSet::new)
                .insert(case);
        }
        for (tail, cases) in &kinds {
            assert_eq!(cases.len(), 1, "{tail:?} is said for {cases:?}");
        }
        assert_eq!(
            kinds
                .values()
                .flatten()
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            7,
            "every case was drawn"
        );
    }

    #[test]
    fn a_query_held_out_once_stays_held_out_on_every_seed_and_in_every_set() {
        let items = set(12, 8);
        let first = split(&items, DEFAULT_HOLDOUT, 42);
        let sealed: std::collections::BTreeSet<String> = items
            .iter()
            .zip(&first)
            .filter(|(_, s)| **s == Split::Validation)
            .map(|(q, _)| sealed_id(&q.query))
            .collect();
        let is_sealed = |id: &str| sealed.contains(id);
        for seed in 0..200 {
            assert_eq!(
                split_sealed(&items, DEFAULT_HOLDOUT, seed, &is_sealed),
                first,
                "seed {seed} moved a held-out query"
            );
        }
        // A neighbour's set that holds one of them (in another case, as the other kind) holds
        // it out too, whatever its own draw.
        let held = items
            .iter()
            .zip(&first)
            .find(|(_, s)| **s == Split::Validation)
            .map(|(q, _)| q.query.to_uppercase())
            .expect("one held out");
        let mut neighbour = set(3, 3);
        neighbour.push(EvalQuery {
            query: held,
            should_trigger: false,
        });
        for seed in 0..50 {
            let parts = split_sealed(&neighbour, DEFAULT_HOLDOUT, seed, &is_sealed);
            assert_eq!(parts.last(), Some(&Split::Validation), "seed {seed}");
        }
    }

    #[test]
    fn a_set_too_small_for_the_overfit_tests_says_its_silence_means_nothing() {
        let small = set(3, 2);
        let splits = [
            Split::Train,
            Split::Train,
            Split::Validation,
            Split::Train,
            Split::Validation,
        ];
        let r = |t: bool| QueryResult {
            trigger_rate: if t { 1.0 } else { 0.0 },
            margin: 0.0,
        };
        let same: Vec<QueryResult> = (0..5).map(|i| r(i < 3)).collect();
        let c = compare_variants(&small, &splits, &same, &same);
        assert!(c.overfit.is_none());
        assert!(
            c.overfit_silence_words()
                .is_some_and(|w| w.contains("this silence says nothing")),
            "{:?}",
            c.overfit_silence_words()
        );
        let large = set(20, 20);
        let splits = alternating(40);
        let same: Vec<QueryResult> = (0..40).map(|i| r(i < 20)).collect();
        assert_eq!(
            compare_variants(&large, &splits, &same, &same).overfit_silence_words(),
            None
        );
    }

    #[test]
    fn occlusion_drops_each_word_once() {
        let d = "Merges PDF files.  Use when asked";
        assert_eq!(words(d).len(), 6);
        let w = words(d);
        assert_eq!(without(d, &w[0]), "PDF files.  Use when asked");
        assert_eq!(without(d, &w[2]), "Merges PDF Use when asked");
        assert_eq!(without(d, &w[5]), "Merges PDF files.  Use when");
        assert_eq!(
            contributions(0.5, &[0.4, 0.55]),
            vec![0.5 - 0.4, 0.5 - 0.55]
        );
    }

    #[test]
    fn collisions_count_captured_queries_per_pair() {
        let owner = [0, 0, 0, 1, 1];
        let should = [true, true, false, true, true];
        let chosen = [Some(1), Some(0), Some(1), Some(0), None];
        assert_eq!(
            collisions(&owner, &should, &chosen),
            vec![(0, 1, 1), (1, 0, 1)]
        );
    }

    #[test]
    fn a_report_has_both_parts_and_reads_back_as_an_eval_set() {
        let items = set(5, 5);
        let t = Thresholds::DEFAULT;
        // Skill 0 is the one evaluated; positives score high on it, negatives on skill 1.
        let matrix: Vec<Vec<f32>> = items
            .iter()
            .enumerate()
            .map(|(i, q)| {
                if q.should_trigger {
                    vec![0.6, 0.1 + i as f32 * 0.01]
                } else {
                    vec![0.1, 0.5]
                }
            })
            .collect();
        let arm = Arm::from_cosines(
            vec!["pdf".into(), "other".into()],
            crate::outcome::Descriptions::AsWritten,
            matrix,
            t,
        );
        let run = EvalRun {
            model: "m",
            method: Method::Embedding { thresholds: t },
            holdout: DEFAULT_HOLDOUT,
            seed: 3,
            items: &items,
            arm: &arm,
            target: 0,
            description: "Merges PDFs.",
            sampled: None,
        };
        let r = run.report();
        let held = split(&items, DEFAULT_HOLDOUT, 3)
            .iter()
            .filter(|s| **s == Split::Validation)
            .count() as u64;
        assert_eq!((r.train.n + r.validation.n, r.validation.n), (10, held));
        assert_eq!(r.version, version(&items));
        assert_eq!(r.train.accuracy, Some(1.0));
        assert_eq!(r.catalog, vec!["other".to_owned()]);
        assert!(r.queries.iter().all(|q| q.triggered == q.should_trigger));
        let json = report_json(&r);
        let back = crate::evalset::parse_eval_input(&json).expect("a report reads back");
        assert_eq!(
            back,
            crate::evalset::EvalInput {
                items: items.clone(),
                seed: Some(3),
                holdout: Some(DEFAULT_HOLDOUT)
            }
        );
    }

    #[test]
    fn repeated_runs_trigger_at_half_or_more() {
        let choices = vec![
            vec![Some(0), Some(0), None],
            vec![Some(1), None, Some(0)],
            vec![],
        ];
        let r = sampled_results(&choices, 0);
        assert_eq!(
            r.iter().map(|q| q.triggered()).collect::<Vec<_>>(),
            vec![true, false, false]
        );
        assert!((r[0].trigger_rate - 2.0 / 3.0).abs() < 1e-12);
    }
}
