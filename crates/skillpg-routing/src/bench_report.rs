//! The benchmark's results from stored scores: each router's tallies per suite and pooled,
//! the rich-against-thin comparison, and the embedding router's reliability table (the
//! chance its first pick is right, by its lead over the second), fitted on every suite and
//! checked on each repository by a table fitted on the others.
//!
//! The embedding model's cosines are computed once by `skillpg bench-preview` and kept in
//! `bench/scores-minilm-i8.json`; everything here is recomputed from them (and BM25 from the
//! text), so a test holds the page's constants ([`PREVIEW_CHANCE`], [`BENCHMARK_LINE`],
//! [`LESSON_LINE`]) to the stored scores.

use serde::{Deserialize, Serialize};
use skillpg_stats::{Paired, Z95, wilson};

use crate::bench::{Bm25, ChanceModel, Split, Suite, Tally, lead, rank_of, reliability};
use crate::decide::Thresholds;
use crate::skills::{RouteSkill, thin};

/// One suite's embedding cosines, `[task][skill]`, for each description set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteScores {
    pub suite: String,
    pub as_written: Vec<Vec<f32>>,
    /// Every description cut to its bare subject ([`thin`]).
    pub thinned: Vec<Vec<f32>>,
    /// The authors' own shorter descriptions, where the suite keeps them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authors_thin: Option<Vec<Vec<f32>>>,
}

/// The stored scores of one embedding model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredScores {
    pub model: String,
    pub suites: Vec<SuiteScores>,
}

/// The stored scores of the page's model (int8 weights, integer kernel).
pub const STORED_MINILM_I8: &str = include_str!("../bench/scores-minilm-i8.json");

/// The page's chance model: fitted by [`fit_confidence`] on every suite's stored scores (a
/// test recomputes it). The chance that the page's router's first pick is the intended
/// skill, by its lead in cosine over the second.
pub const PREVIEW_CHANCE: ChanceModel = ChanceModel {
    fit: skillpg_stats::Logistic {
        a: -1.8233512705278587,
        b: 5.62435374604895,
    },
};

/// The routing view's one line on how the preview did on the benchmark (a test recomputes it).
pub const BENCHMARK_LINE: &str = "On 357 public tasks from 7 skill suites, its first pick was the intended skill 66% of the time and one of its first three 86%; it said NONE for 27% of the prompts no skill should take.";

/// The chapter's lesson on the benchmark's real suites, in the routing view beside the sample's
/// own A/B reading (a test recomputes it).
pub const LESSON_LINE: &str = "On real suites: where the authors kept their first one-line descriptions, those put the intended skill first for 14 of 26 tasks and the descriptions they settled on for 24 (paired sign test p = 0.002). Cutting every description to its first clause, as \"Thin it\" does, changed 98 of 335 first picks on the benchmark: 88 were right only as written, 10 only thinned (p < 0.001). It cost most on ZhangHanDong/rust-skills (34 skills): 67 of 112 right as written, 22 thinned (p < 0.001).";

/// [`LESSON_LINE`] from the stored scores: the suites that keep their authors' first, short
/// descriptions against the ones they settled on, and the chapter's mechanical thinning on
/// every suite, for the page's router.
pub fn lesson_line(suites: &[Suite], stored: &StoredScores) -> String {
    let t = Thresholds::DEFAULT;
    let embedding =
        |s: &Suite, scores: &[Vec<f32>], set| per_task_right(s, scores, set, PAGE_ROUTER, t);
    let mut authors = Paired::default();
    let mut cut_all = Paired::default();
    // The suite where the first clause alone lost most: (its paired table, suite, skills).
    let mut worst: Option<(Paired, &Suite)> = None;
    for s in suites {
        let Some(sc) = stored.suites.iter().find(|x| x.suite == s.suite) else {
            continue;
        };
        let written = embedding(s, &sc.as_written, DescriptionSet::AsWritten);
        let cut = Paired::from_outcomes(
            &written,
            &embedding(s, &sc.thinned, DescriptionSet::Thinned),
        );
        cut_all.both += cut.both;
        cut_all.only_a += cut.only_a;
        cut_all.only_b += cut.only_b;
        cut_all.neither += cut.neither;
        let net = |p: &Paired| p.only_a as i64 - p.only_b as i64;
        if worst.is_none_or(|(w, _)| net(&cut) > net(&w)) {
            worst = Some((cut, s));
        }
        if let Some(a) = &sc.authors_thin {
            let p = Paired::from_outcomes(&written, &embedding(s, a, DescriptionSet::AuthorsThin));
            authors.both += p.both;
            authors.only_a += p.only_a;
            authors.only_b += p.only_b;
            authors.neither += p.neither;
        }
    }
    let worst = worst
        .filter(|(p, _)| p.only_a > p.only_b)
        .map(|(p, s)| {
            format!(
                " It cost most on {} ({} skills): {} of {} right as written, {} thinned ({}).",
                s.suite,
                s.skills.len(),
                p.both + p.only_a,
                p.both + p.only_a + p.only_b + p.neither,
                p.both + p.only_b,
                p_words(p.p_value())
            )
        })
        .unwrap_or_default();
    let a = authors;
    let c = cut_all;
    format!(
        "On real suites: where the authors kept their first one-line descriptions, those put the intended skill first for {} of {} tasks and the descriptions they settled on for {} (paired sign test {}). Cutting every description to its first clause, as \"Thin it\" does, changed {} of {} first picks on the benchmark: {} were right only as written, {} only thinned ({}).{worst}",
        a.both + a.only_b,
        a.both + a.only_a + a.only_b + a.neither,
        a.both + a.only_a,
        p_words(a.p_value()),
        c.only_a + c.only_b,
        c.both + c.only_a + c.only_b + c.neither,
        c.only_a,
        c.only_b,
        p_words(c.p_value()),
    )
}

/// A sign test's p as the lines print it: `p = 0.004`, or `p < 0.001` (never `p = 0.000`).
fn p_words(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_owned()
    } else {
        format!("p = {p:.3}")
    }
}

/// The routing view's line on the router the page runs and why, each side of the split (a test
/// recomputes it).
pub const CHOICE_LINE: &str = "It ranks skills by the embedding's cosines fused with BM25 (word overlap), chosen by the benchmark: first picks right 115 against 103 of 173 (p = 0.043) against the embedding alone on the suites the routers were compared on, 107 against 100 of 162 (p = 0.281, no evidence either way) on the repositories kept apart; against BM25 alone 115 against 118 of 173 (p = 0.678, no evidence either way) and 107 against 89 of 162 (p < 0.001).";

/// [`CHOICE_LINE`] from the stored scores: the page's router against each router alone, top-1
/// paired per task, on the suites the routers were compared on and on the repositories kept
/// apart.
pub fn choice_line(suites: &[Suite], split: &Split, stored: &StoredScores) -> String {
    let side = |names: &[String], other: Candidate| {
        let on = |s: &Suite| names.iter().any(|n| n == &s.suite);
        let p = Paired::from_outcomes(
            &first_right(suites, stored, PAGE_ROUTER, on),
            &first_right(suites, stored, other, on),
        );
        let n = p.both + p.only_a + p.only_b + p.neither;
        let verdict = if p.p_value() < 0.05 {
            ""
        } else {
            ", no evidence either way"
        };
        format!(
            "{} against {} of {n} ({}{verdict})",
            p.both + p.only_a,
            p.both + p.only_b,
            p_words(p.p_value())
        )
    };
    format!(
        "It ranks skills by the embedding's cosines fused with BM25 (word overlap), chosen by the benchmark: first picks right {} against the embedding alone on the suites the routers were compared on, {} on the repositories kept apart; against BM25 alone {} and {}.",
        side(&split.train, Candidate::Embedding),
        side(&split.test, Candidate::Embedding),
        side(&split.train, Candidate::Bm25),
        side(&split.test, Candidate::Bm25),
    )
}

/// The router the page runs, chosen by the benchmark on its train suites.
pub const PAGE_ROUTER: Candidate = Candidate::Fusion;

/// How many bins the reliability table is cut into before pooling.
pub const CONFIDENCE_BINS: usize = 5;

/// The groups the calibration on unseen repositories is judged in: deciles of the stated
/// chance (the target: within 5 points in every decile of at least 30 tasks).
pub const CALIBRATION_GROUPS: usize = 10;

/// The lead (or, in the lab, the margin from a decision) below which the page's router
/// cannot separate two outcomes: where its first pick is more likely wrong than right.
pub fn close_call_bound() -> f32 {
    PREVIEW_CHANCE.close_below()
}

/// Whether a first pick with this lead is a close call under `model`.
pub fn is_close_call(model: &ChanceModel, lead: f32) -> bool {
    lead < model.close_below()
}

/// A suite's skills as a router sees them under one description set.
pub fn route_skills(suite: &Suite, set: DescriptionSet) -> Vec<RouteSkill> {
    suite
        .skills
        .iter()
        .map(|s| RouteSkill {
            name: s.name.clone(),
            description: match set {
                DescriptionSet::AsWritten => s.description.clone(),
                DescriptionSet::Thinned => thin(&s.description),
                DescriptionSet::AuthorsThin => {
                    s.thin.clone().unwrap_or_else(|| s.description.clone())
                }
            },
        })
        .collect()
}

/// The texts a router sees for a suite's skills under one description set (what the page
/// embeds: [`RouteSkill::embedding_text`]).
pub fn documents(suite: &Suite, set: DescriptionSet) -> Vec<String> {
    route_skills(suite, set)
        .iter()
        .map(RouteSkill::embedding_text)
        .collect()
}

/// Which descriptions a router sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DescriptionSet {
    AsWritten,
    Thinned,
    AuthorsThin,
}

/// A router the benchmark compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Candidate {
    /// The embedding model's cosines, NONE below τ.
    Embedding,
    /// BM25 over `name: description`, NONE where no word is shared.
    Bm25,
    /// Both, each scaled to [0, 1] per request and averaged; NONE where the embedding says so.
    Fusion,
}

impl Candidate {
    pub const ALL: [Candidate; 3] = [Candidate::Embedding, Candidate::Bm25, Candidate::Fusion];

    pub fn label(self) -> &'static str {
        match self {
            Candidate::Embedding => "embedding alone (all-MiniLM-L6-v2, int8)",
            Candidate::Bm25 => "BM25 (name and description)",
            Candidate::Fusion => "fusion (embedding + BM25, equal weights): the page's router",
        }
    }
}

/// One task's scores under a candidate, and whether it said NONE.
pub fn candidate_scores(
    c: Candidate,
    cosines: &[f32],
    bm25: &[f32],
    t: Thresholds,
) -> (Vec<f32>, bool) {
    let top_cos = cosines.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    match c {
        Candidate::Embedding => (cosines.to_vec(), top_cos < t.tau),
        Candidate::Bm25 => (bm25.to_vec(), bm25.iter().all(|&s| s <= 0.0)),
        Candidate::Fusion => (
            crate::bench::fuse(cosines, bm25, crate::decide::FUSION_WEIGHT),
            top_cos < t.tau,
        ),
    }
}

/// Each task of a suite under a candidate: its intended skill, its scores and whether the
/// router said NONE. BM25 is built only for the candidates that read it.
fn task_scores<'a>(
    suite: &'a Suite,
    cosines: &'a [Vec<f32>],
    set: DescriptionSet,
    c: Candidate,
    t: Thresholds,
) -> impl Iterator<Item = (Option<usize>, Vec<f32>, bool)> + 'a {
    let bm = (c != Candidate::Embedding).then(|| Bm25::new(&documents(suite, set)));
    suite
        .tasks
        .iter()
        .zip(suite.targets())
        .zip(cosines)
        .map(move |((task, target), cos)| {
            let bm25 = bm
                .as_ref()
                .map(|b| b.scores(&task.prompt))
                .unwrap_or_default();
            let (scores, none) = candidate_scores(c, cos, &bm25, t);
            (target, scores, none)
        })
}

/// Tallies of one candidate on one suite under one description set, and the `(lead, right)`
/// pair of each labelled task's first pick where the router made one (not NONE).
pub fn tally(
    suite: &Suite,
    cosines: &[Vec<f32>],
    set: DescriptionSet,
    c: Candidate,
    t: Thresholds,
) -> (Tally, Vec<(f32, bool)>) {
    let mut tally = Tally::default();
    let mut pairs = Vec::new();
    for (target, scores, none) in task_scores(suite, cosines, set, c, t) {
        tally.add(&scores, target, none);
        // The page states a chance only for a pick it shows: a NONE answer has none.
        if let Some(target) = target
            && !none
        {
            pairs.push((lead(&scores), rank_of(&scores, target) == 0));
        }
    }
    (tally, pairs)
}

/// The page's router's `(lead, right)` pairs on the suites `keep` accepts, as written.
fn lead_pairs(
    suites: &[Suite],
    stored: &StoredScores,
    keep: impl Fn(&Suite) -> bool,
) -> Vec<(f32, bool)> {
    let mut pairs = Vec::new();
    for s in suites.iter().filter(|s| keep(s)) {
        if let Some(sc) = stored.suites.iter().find(|x| x.suite == s.suite) {
            let (_, p) = tally(
                s,
                &sc.as_written,
                DescriptionSet::AsWritten,
                PAGE_ROUTER,
                Thresholds::DEFAULT,
            );
            pairs.extend(p);
        }
    }
    pairs
}

/// The page's reliability table: fitted on every suite of the benchmark (the more suites, the
/// less one suite's ease decides it); [`held_out_calibration`] says how well a table fitted
/// this way states the chance on a repository it never saw.
pub fn fit_confidence(suites: &[Suite], stored: &StoredScores) -> Option<ChanceModel> {
    ChanceModel::fit(&lead_pairs(suites, stored, |_| true))
}

/// Calibration on unseen repositories: for each repository, the table fitted on all the others
/// states a chance for each of its tasks; the tasks of every repository, pooled and cut into
/// `CALIBRATION_GROUPS` groups by that stated chance, give each group's mean stated chance, its
/// observed rate and its size.
pub fn held_out_calibration(suites: &[Suite], stored: &StoredScores) -> Vec<(f64, f64, u64)> {
    let mut stated: Vec<(f64, bool)> = Vec::new();
    let mut repositories: Vec<&str> = suites.iter().map(Suite::repository).collect();
    repositories.sort_unstable();
    repositories.dedup();
    for r in repositories {
        let Some(model) = ChanceModel::fit(&lead_pairs(suites, stored, |s| s.repository() != r))
        else {
            continue;
        };
        for (lead, right) in lead_pairs(suites, stored, |s| s.repository() == r) {
            stated.push((model.chance(lead), right));
        }
    }
    stated.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = stated.len();
    (0..CALIBRATION_GROUPS)
        .filter_map(|k| {
            let part = &stated[k * n / CALIBRATION_GROUPS..(k + 1) * n / CALIBRATION_GROUPS];
            (!part.is_empty()).then(|| {
                let m = part.len() as f64;
                (
                    part.iter().map(|p| p.0).sum::<f64>() / m,
                    part.iter().filter(|p| p.1).count() as f64 / m,
                    part.len() as u64,
                )
            })
        })
        .collect()
}

/// A tally's three cells of a report row: top-1, top-3, NONE where none fits.
fn cells(t: &Tally) -> String {
    format!(
        "{} | {} | {}",
        pct(t.top1, t.labelled),
        pct(t.top3, t.labelled),
        pct(t.none_right, t.should_not)
    )
}

/// One rich-against-thin row: each side's right answers and the paired sign test.
fn paired_row(label: &str, suite: &str, how: &str, rich: &[bool], thin: &[bool]) -> String {
    let p = Paired::from_outcomes(rich, thin);
    let n = rich.len() as u64;
    format!(
        "| {label} | {suite} | {how} | {} | {} | {} | {} | {:.3} |\n",
        pct(p.both + p.only_a, n),
        pct(p.both + p.only_b, n),
        p.only_a,
        p.only_b,
        p.p_value()
    )
}

fn pct(k: u64, n: u64) -> String {
    if n == 0 {
        return "–".to_owned();
    }
    let w = wilson(k, n, Z95);
    format!(
        "{k}/{n} = {:.0}% [{:.0}, {:.0}]",
        100.0 * k as f64 / n as f64,
        100.0 * w.low,
        100.0 * w.high
    )
}

/// The pooled tally of the page's router on every suite, as written.
pub fn pooled_preview(suites: &[Suite], stored: &StoredScores) -> Tally {
    let mut all = Tally::default();
    for s in suites {
        if let Some(sc) = stored.suites.iter().find(|x| x.suite == s.suite) {
            let (t, _) = tally(
                s,
                &sc.as_written,
                DescriptionSet::AsWritten,
                PAGE_ROUTER,
                Thresholds::DEFAULT,
            );
            all.merge(&t);
        }
    }
    all
}

/// The line the routing view shows, from the pooled tally.
pub fn benchmark_line(suites: &[Suite], stored: &StoredScores) -> String {
    let t = pooled_preview(suites, stored);
    let tasks: usize = suites.iter().map(|s| s.tasks.len()).sum();
    format!(
        "On {tasks} public tasks from {} skill suites, its first pick was the intended skill {:.0}% of the time and one of its first three {:.0}%; it said NONE for {:.0}% of the prompts no skill should take.",
        suites.len(),
        100.0 * t.top1 as f64 / t.labelled.max(1) as f64,
        100.0 * t.top3 as f64 / t.labelled.max(1) as f64,
        100.0 * t.none_right as f64 / t.should_not.max(1) as f64,
    )
}

/// The whole report, as Markdown (BENCHMARKS.md keeps a copy).
pub fn report(suites: &[Suite], split: &Split, stored: &StoredScores) -> String {
    let t = Thresholds::DEFAULT;
    let mut out = format!("Scores: {}. τ = {:.2} for NONE.\n\n", stored.model, t.tau);
    out.push_str(&candidates_table(suites, split, stored));
    out.push_str(&split_table(suites, split, stored));
    out.push_str(&thin_table(suites, stored));
    out.push_str(&reliability_table(suites, stored));
    out.push_str(&format!("\n{}\n", benchmark_line(suites, stored)));
    out
}

/// Every candidate on every suite as written, and pooled.
fn candidates_table(suites: &[Suite], split: &Split, stored: &StoredScores) -> String {
    use std::fmt::Write;
    let t = Thresholds::DEFAULT;
    let side = |name: &str| {
        if split.test.iter().any(|s| s == name) {
            "test"
        } else {
            "train"
        }
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| router | suite | split | tasks | top-1 | top-3 | NONE where none fits |"
    );
    let _ = writeln!(out, "|---|---|---|---:|---|---|---|");
    for c in Candidate::ALL {
        let mut pooled = Tally::default();
        for s in suites {
            let Some(sc) = stored.suites.iter().find(|x| x.suite == s.suite) else {
                continue;
            };
            let (tl, _) = tally(s, &sc.as_written, DescriptionSet::AsWritten, c, t);
            pooled.merge(&tl);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                c.label(),
                s.suite,
                side(&s.suite),
                s.tasks.len(),
                cells(&tl)
            );
        }
        let _ = writeln!(
            out,
            "| {} | **pooled** | | {} | {} |",
            c.label(),
            pooled.labelled + pooled.should_not,
            cells(&pooled)
        );
    }
    out
}

/// Whether each labelled task of the suites `keep` accepts had the intended skill first under
/// candidate `c`, in one order (suite by suite, task by task) so two candidates pair up.
fn first_right(
    suites: &[Suite],
    stored: &StoredScores,
    c: Candidate,
    keep: impl Fn(&Suite) -> bool,
) -> Vec<bool> {
    suites
        .iter()
        .filter(|s| keep(s))
        .filter_map(|s| {
            let sc = stored.suites.iter().find(|x| x.suite == s.suite)?;
            // Right as the tallies count top-1: first, and not NONE.
            Some(per_task_right(
                s,
                &sc.as_written,
                DescriptionSet::AsWritten,
                c,
                Thresholds::DEFAULT,
            ))
        })
        .flatten()
        .collect()
}

/// Each side of the split: every candidate's top-1 counted per task (pooled) and per
/// repository (each repository's rate, averaged: one large suite does not decide it), and
/// each pair of candidates head to head, paired per task with the exact sign test.
fn split_table(suites: &[Suite], split: &Split, stored: &StoredScores) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nEach side of the split (top-1 on the labelled tasks; \"per repository\" averages each repository's rate):\n"
    );
    let _ = writeln!(
        out,
        "| side | router | pooled | per repository | worst repository |"
    );
    let _ = writeln!(out, "|---|---|---|---:|---:|");
    let sides: [(&str, &[String]); 2] = [("train", &split.train), ("test", &split.test)];
    for (side, names) in sides {
        let on_side = |s: &Suite| names.iter().any(|n| n == &s.suite);
        let mut repositories: Vec<&str> = suites
            .iter()
            .filter(|s| on_side(s))
            .map(Suite::repository)
            .collect();
        repositories.sort_unstable();
        repositories.dedup();
        for c in Candidate::ALL {
            let all = first_right(suites, stored, c, on_side);
            let rates: Vec<f64> = repositories
                .iter()
                .map(|r| {
                    let right =
                        first_right(suites, stored, c, |s| on_side(s) && s.repository() == *r);
                    right.iter().filter(|x| **x).count() as f64 / right.len().max(1) as f64
                })
                .collect();
            let mean = rates.iter().sum::<f64>() / rates.len().max(1) as f64;
            let worst = rates.iter().copied().fold(f64::INFINITY, f64::min);
            let _ = writeln!(
                out,
                "| {side} | {} | {} | {:.0}% | {:.0}% |",
                c.label(),
                pct(all.iter().filter(|x| **x).count() as u64, all.len() as u64),
                100.0 * mean,
                100.0 * worst
            );
        }
    }
    let _ = writeln!(
        out,
        "\nHead to head (top-1, paired per task; b = right only under the first, c = only under the second):\n"
    );
    let _ = writeln!(out, "| side | first | second | b | c | sign test p |");
    let _ = writeln!(out, "|---|---|---|---:|---:|---:|");
    for (side, names) in sides {
        let on_side = |s: &Suite| names.iter().any(|n| n == &s.suite);
        for (i, a) in Candidate::ALL.iter().enumerate() {
            for b in &Candidate::ALL[i + 1..] {
                let p = Paired::from_outcomes(
                    &first_right(suites, stored, *a, on_side),
                    &first_right(suites, stored, *b, on_side),
                );
                let _ = writeln!(
                    out,
                    "| {side} | {} | {} | {} | {} | {:.3} |",
                    a.label(),
                    b.label(),
                    p.only_a,
                    p.only_b,
                    p.p_value()
                );
            }
        }
    }
    out
}

/// Rich against thin, paired per task, for every candidate and suite.
fn thin_table(suites: &[Suite], stored: &StoredScores) -> String {
    use std::fmt::Write;
    let t = Thresholds::DEFAULT;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nRich against thin (top-1 on the labelled tasks, paired; b = right only as written, c = right only thinned):\n"
    );
    let _ = writeln!(
        out,
        "| router | suite | thinned by | as written | thinned | b | c | sign test p |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---:|---:|---:|");
    for c in Candidate::ALL {
        for s in suites {
            let Some(sc) = stored.suites.iter().find(|x| x.suite == s.suite) else {
                continue;
            };
            let mut sets = vec![("the chapter's rule", DescriptionSet::Thinned, &sc.thinned)];
            if let Some(a) = &sc.authors_thin {
                sets.push(("the authors' first version", DescriptionSet::AuthorsThin, a));
            }
            for (how, set, thin_scores) in sets {
                let rich = per_task_right(s, &sc.as_written, DescriptionSet::AsWritten, c, t);
                let thin = per_task_right(s, thin_scores, set, c, t);
                out.push_str(&paired_row(c.label(), &s.suite, how, &rich, &thin));
            }
        }
    }
    out
}

/// The page's reliability table, and its calibration on repositories it never saw.
fn reliability_table(suites: &[Suite], stored: &StoredScores) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let model = fit_confidence(suites, stored);
    let _ = writeln!(
        out,
        "\nThe page's chance model: the chance that the page's router's first pick is the intended skill, by its lead over the second, a logistic regression on the lead's square root fitted on every suite ({}). Read against the benchmark's picks, five groups by lead:\n",
        model.map_or_else(
            || "no fit".to_owned(),
            |m| format!(
                "a = {:.3}, b = {:.3}; a close call below a lead of {:.3}",
                m.fit.a,
                m.fit.b,
                m.close_below()
            )
        )
    );
    let _ = writeln!(
        out,
        "| lead below | stated chance (mean) | right / tasks | observed |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|");
    let mut pairs = lead_pairs(suites, stored, |_| true);
    pairs.retain(|p| p.0.is_finite());
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    // The table's bins are contiguous runs of the pairs in lead order.
    let mut start = 0usize;
    for b in reliability(&pairs, CONFIDENCE_BINS) {
        let bound = if b.below.is_finite() {
            format!("{:.3}", b.below)
        } else {
            "∞".to_owned()
        };
        let inside = &pairs[start..start + b.n as usize];
        start += b.n as usize;
        let stated = model.map_or_else(
            || "–".to_owned(),
            |m| {
                let sum: f64 = inside.iter().map(|p| m.chance(p.0)).sum();
                format!("{:.0}%", 100.0 * sum / inside.len().max(1) as f64)
            },
        );
        let _ = writeln!(
            out,
            "| {bound} | {stated} | {} / {} | {:.0}% |",
            b.right,
            b.n,
            100.0 * b.rate()
        );
    }
    let _ = writeln!(
        out,
        "\nIts calibration on repositories it never saw (each repository's tasks stated by the model fitted on the others; pooled, sorted by the stated chance and cut into deciles; the observed rate with its Wilson 95% interval):\n"
    );
    let _ = writeln!(
        out,
        "| tasks | stated chance (mean) | observed | gap | stated inside the interval |"
    );
    let _ = writeln!(out, "|---:|---:|---|---:|---|");
    for (stated, observed, n) in held_out_calibration(suites, stored) {
        let right = (observed * n as f64).round() as u64;
        let w = wilson(right, n, Z95);
        let _ = writeln!(
            out,
            "| {n} | {:.0}% | {} | {:+.0} points | {} |",
            100.0 * stated,
            pct(right, n),
            100.0 * (observed - stated),
            if (w.low..=w.high).contains(&stated) {
                "yes"
            } else {
                "no"
            }
        );
    }
    out
}

fn per_task_right(
    suite: &Suite,
    cosines: &[Vec<f32>],
    set: DescriptionSet,
    c: Candidate,
    t: Thresholds,
) -> Vec<bool> {
    task_scores(suite, cosines, set, c, t)
        .filter_map(|(target, scores, none)| {
            // Only labelled tasks count (a NONE answer must not short-circuit past the label).
            let target = target?;
            Some(!none && rank_of(&scores, target) == 0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored() -> StoredScores {
        serde_json::from_str(STORED_MINILM_I8).expect("the stored scores read")
    }

    #[test]
    fn the_page_constants_are_recomputed_from_the_stored_scores() {
        let (suites, _) = crate::bench::builtin().expect("as the test sets it up");
        let stored = stored();
        assert_eq!(
            stored.suites.len(),
            suites.len(),
            "every suite has stored scores"
        );
        for (s, sc) in suites.iter().zip(&stored.suites) {
            assert_eq!(s.suite, sc.suite);
            assert_eq!(sc.as_written.len(), s.tasks.len());
            assert!(sc.as_written.iter().all(|row| row.len() == s.skills.len()));
        }
        let fit = fit_confidence(&suites, &stored).expect("right and wrong picks");
        assert!(
            (fit.fit.a - PREVIEW_CHANCE.fit.a).abs() < 1e-9
                && (fit.fit.b - PREVIEW_CHANCE.fit.b).abs() < 1e-9,
            "PREVIEW_CHANCE is out of date: the stored scores fit {fit:?}"
        );
        assert_eq!(benchmark_line(&suites, &stored), BENCHMARK_LINE);
        assert_eq!(lesson_line(&suites, &stored), LESSON_LINE);
        let (_, split) = crate::bench::builtin().expect("as the test sets it up");
        assert_eq!(choice_line(&suites, &split, &stored), CHOICE_LINE);
    }

    #[test]
    fn a_close_call_is_a_first_pick_more_likely_wrong_than_right() {
        assert!(is_close_call(&PREVIEW_CHANCE, 0.005));
        assert!(PREVIEW_CHANCE.chance(0.005) < 0.5);
        assert!(!is_close_call(&PREVIEW_CHANCE, 0.2));
        assert!(PREVIEW_CHANCE.chance(0.2) > 0.5);
        assert!(PREVIEW_CHANCE.chance(0.01) < PREVIEW_CHANCE.chance(0.5));
    }

    #[test]
    fn on_unseen_repositories_the_stated_chance_is_inside_every_deciles_interval() {
        let (suites, _) = crate::bench::builtin().expect("as the test sets it up");
        let groups = held_out_calibration(&suites, &stored());
        assert_eq!(groups.len(), CALIBRATION_GROUPS);
        for (stated, observed, n) in groups {
            let right = (observed * n as f64).round() as u64;
            let w = wilson(right, n, Z95);
            assert!(
                n >= 30 && (w.low..=w.high).contains(&stated),
                "stated {stated:.3}, observed {right}/{n}"
            );
        }
    }
}

/// How sure the page's router is of one first pick, in the benchmark's terms.
#[derive(Debug, Clone, PartialEq)]
pub struct Sureness {
    /// The chance, on the benchmark, that a first pick with this lead is the intended skill.
    pub chance: f64,
    /// The first pick is more likely wrong than right.
    pub close: bool,
    /// The next skills, best first, with their cosines (two at most).
    pub runners_up: Vec<(String, f32)>,
    /// The sentence the page shows.
    pub words: String,
}

/// The sureness of the first pick among `cosines` (one per name); `None` with fewer than two
/// skills, where there is nothing to separate.
pub fn sureness(names: &[String], cosines: &[f32]) -> Option<Sureness> {
    if names.len() < 2 || names.len() != cosines.len() {
        return None;
    }
    let mut order: Vec<usize> = (0..cosines.len()).collect();
    order.sort_by(|&a, &b| cosines[b].total_cmp(&cosines[a]));
    let lead = cosines[order[0]] - cosines[order[1]];
    let chance = PREVIEW_CHANCE.chance(lead);
    let close = is_close_call(&PREVIEW_CHANCE, lead);
    let runners_up: Vec<(String, f32)> = order[1..]
        .iter()
        .take(2)
        .map(|&i| (names[i].clone(), cosines[i]))
        .collect();
    let pct = (100.0 * chance).round();
    let words = if close {
        format!(
            "A close call: {} leads {} by only {lead:.2}. On the benchmark, first picks this close were right {pct:.0}% of the time.",
            names[order[0]], runners_up[0].0
        )
    } else {
        format!(
            "Leads by {lead:.2}. On the benchmark, first picks with a lead like this were right {pct:.0}% of the time."
        )
    };
    Some(Sureness {
        chance,
        close,
        runners_up,
        words,
    })
}

#[cfg(test)]
mod sureness_tests {
    use super::*;

    #[test]
    fn a_close_call_names_its_runners_up_and_says_so() {
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let s = sureness(&names, &[0.44, 0.43, 0.1]).expect("as the test sets it up");
        assert!(
            s.close && s.words.starts_with("A close call: a leads b"),
            "{}",
            s.words
        );
        assert_eq!(s.runners_up[0].0, "b");
        let sure = sureness(&names, &[0.7, 0.3, 0.1]).expect("as the test sets it up");
        assert!(!sure.close && sure.chance > s.chance);
        assert_eq!(sureness(&names[..1], &[0.5]), None);
    }
}

/// A decoder's decisions on one suite under one description set, in the suite's task order:
/// its choice, and under constrained choice each candidate's probability (the names, then NONE).
#[derive(Debug, Clone, PartialEq)]
pub struct DecoderRun {
    pub suite: String,
    pub set: DescriptionSet,
    pub decisions: Vec<(Option<usize>, Option<Vec<f32>>)>,
}

/// One decoder run's tally: the choice is the first pick (NONE counts as no pick); top-3 from the
/// distribution where there is one, else the first pick alone.
pub fn decoder_tally(suite: &Suite, run: &DecoderRun) -> Tally {
    let mut t = Tally::default();
    let n = suite.skills.len();
    for ((choice, dist), target) in run.decisions.iter().zip(suite.targets()) {
        // Scores over the skills only: the distribution's names, or a one-hot of the choice.
        let scores: Vec<f32> = match dist {
            Some(d) => d.iter().take(n).copied().collect(),
            None => (0..n)
                .map(|i| if Some(i) == *choice { 1.0 } else { 0.0 })
                .collect(),
        };
        match target {
            Some(target) => {
                t.labelled += 1;
                if *choice == Some(target) {
                    t.top1 += 1;
                }
                if rank_of(&scores, target) < 3 && (dist.is_some() || *choice == Some(target)) {
                    t.top3 += 1;
                }
            }
            None => {
                t.should_not += 1;
                if choice.is_none() {
                    t.none_right += 1;
                }
            }
        }
    }
    t
}

/// The decoder's rows of the report: each suite and pooled as written, then rich against thin.
pub fn decoder_report(label: &str, suites: &[Suite], runs: &[DecoderRun]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| router | suite | tasks | top-1 | top-3 | NONE where none fits |"
    );
    let _ = writeln!(out, "|---|---|---:|---|---|---|");
    let mut pooled = Tally::default();
    for s in suites {
        let Some(run) = runs
            .iter()
            .find(|r| r.suite == s.suite && r.set == DescriptionSet::AsWritten)
        else {
            continue;
        };
        let t = decoder_tally(s, run);
        pooled.merge(&t);
        let _ = writeln!(
            out,
            "| {label} | {} | {} | {} |",
            s.suite,
            s.tasks.len(),
            cells(&t)
        );
    }
    let _ = writeln!(
        out,
        "| {label} | **pooled** | {} | {} |",
        pooled.labelled + pooled.should_not,
        cells(&pooled)
    );
    let _ = writeln!(
        out,
        "\n| router | suite | thinned by | as written | thinned | b | c | sign test p |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---:|---:|---:|");
    for s in suites {
        let Some(rich) = runs
            .iter()
            .find(|r| r.suite == s.suite && r.set == DescriptionSet::AsWritten)
        else {
            continue;
        };
        for (how, set) in [
            ("the chapter's rule", DescriptionSet::Thinned),
            ("the authors' first version", DescriptionSet::AuthorsThin),
        ] {
            let Some(thin) = runs.iter().find(|r| r.suite == s.suite && r.set == set) else {
                continue;
            };
            let right = |r: &DecoderRun| -> Vec<bool> {
                r.decisions
                    .iter()
                    .zip(s.targets())
                    .filter_map(|((c, _), t)| t.map(|t| *c == Some(t)))
                    .collect()
            };
            out.push_str(&paired_row(
                label,
                &s.suite,
                how,
                &right(rich),
                &right(thin),
            ));
        }
    }
    out
}
