//! The routing benchmark: public suites of skills and the prompts their own authors labelled
//! with the skill that should take each one (or none), kept in `bench/` with their source,
//! commit and licence, and the routers the preview could use, measured on them.
//!
//! Invariants the reader holds (a suite that breaks one is refused, never read in part):
//! - every task names a skill of its own suite, or none;
//! - a suite's skill names are unique;
//! - the split is by repository: a suite is in train or in test, never in both, and every
//!   suite is in one of them (a router must be judged on suites it never saw).
//!
//! The `UiPath/skills` repository is held out for acceptance by the project's maintainers:
//! it is never a suite here, and the reader refuses it by name.
//!
//! Pure: the suites are read from text; scoring them with the embedding model is the CLI's.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The repository held out for acceptance: never read as a suite.
pub const HELD_OUT: &str = "UiPath/skills";

/// A skill of a suite, its description as its authors wrote it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchSkill {
    pub name: String,
    pub description: String,
    /// The authors' own shorter description where the source keeps one (an earlier version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thin: Option<String>,
}

/// A prompt and the skill its authors say should take it (`None`: no skill should).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchTask {
    pub id: String,
    pub prompt: String,
    pub skill: Option<String>,
}

/// One suite: one repository's skills and its labelled prompts, with where they came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// `owner/name` of the repository.
    pub suite: String,
    pub source: String,
    pub commit: String,
    pub licence: String,
    /// The copyright line the licence asks to keep.
    pub notice: String,
    /// Which files of the repository each field was taken from.
    pub paths: Vec<String>,
    pub skills: Vec<BenchSkill>,
    pub tasks: Vec<BenchTask>,
}

impl Suite {
    /// The repository the suite comes from: its name up to an `@commit` (one repository can
    /// give two suites, its skills as they were at two commits).
    pub fn repository(&self) -> &str {
        self.suite.split('@').next().unwrap_or(&self.suite)
    }

    /// The index of each task's skill (`None` for a should-not prompt).
    pub fn targets(&self) -> Vec<Option<usize>> {
        self.tasks
            .iter()
            .map(|t| {
                t.skill
                    .as_ref()
                    .and_then(|s| self.skills.iter().position(|k| &k.name == s))
            })
            .collect()
    }
}

/// Which suites a router may be tuned or calibrated on, and which it is judged on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Split {
    pub train: Vec<String>,
    pub test: Vec<String>,
}

/// Why a suite or a split was refused.
#[derive(Debug, Error, PartialEq)]
pub enum BenchError {
    #[error("{file}: not a suite: {message}")]
    Json { file: String, message: String },
    #[error("{suite}: task {task} names {skill}, which is not a skill of this suite")]
    UnknownSkill {
        suite: String,
        task: String,
        skill: String,
    },
    #[error("{suite}: two skills are named {skill}")]
    DuplicateSkill { suite: String, skill: String },
    #[error("{suite}: no tasks")]
    NoTasks { suite: String },
    #[error("{suite} is held out for acceptance and is never part of the benchmark")]
    HeldOut { suite: String },
    #[error("{suite} is in both train and test: the split is by repository")]
    SplitAcross { suite: String },
    #[error("{repository} has suites in both train and test: the split is by repository")]
    RepositoryAcross { repository: String },
    #[error("{suite} is in neither train nor test")]
    NotInSplit { suite: String },
    #[error("the split names {suite}, which is not a suite of the benchmark")]
    UnknownSuite { suite: String },
}

/// Reads one suite, refusing it whole where an invariant fails.
pub fn read_suite(file: &str, text: &str) -> Result<Suite, BenchError> {
    let suite: Suite = serde_json::from_str(text).map_err(|e| BenchError::Json {
        file: file.to_owned(),
        message: e.to_string(),
    })?;
    if suite.repository().eq_ignore_ascii_case(HELD_OUT) {
        return Err(BenchError::HeldOut { suite: suite.suite });
    }
    let mut names = BTreeSet::new();
    for s in &suite.skills {
        if !names.insert(s.name.as_str()) {
            return Err(BenchError::DuplicateSkill {
                suite: suite.suite.clone(),
                skill: s.name.clone(),
            });
        }
    }
    if suite.tasks.is_empty() {
        return Err(BenchError::NoTasks { suite: suite.suite });
    }
    for t in &suite.tasks {
        if let Some(skill) = &t.skill
            && !names.contains(skill.as_str())
        {
            return Err(BenchError::UnknownSkill {
                suite: suite.suite.clone(),
                task: t.id.clone(),
                skill: skill.clone(),
            });
        }
    }
    Ok(suite)
}

/// Reads the split and holds it to the suites: each suite in exactly one side.
pub fn read_split(text: &str, suites: &[Suite]) -> Result<Split, BenchError> {
    let split: Split = serde_json::from_str(text).map_err(|e| BenchError::Json {
        file: "split.json".to_owned(),
        message: e.to_string(),
    })?;
    for name in split.train.iter().chain(&split.test) {
        if !suites.iter().any(|s| &s.suite == name) {
            return Err(BenchError::UnknownSuite {
                suite: name.clone(),
            });
        }
    }
    for s in suites {
        let train = split.train.contains(&s.suite);
        let test = split.test.contains(&s.suite);
        match (train, test) {
            (true, true) => {
                return Err(BenchError::SplitAcross {
                    suite: s.suite.clone(),
                });
            }
            (false, false) => {
                return Err(BenchError::NotInSplit {
                    suite: s.suite.clone(),
                });
            }
            _ => {}
        }
    }
    for a in suites {
        for b in suites {
            if a.repository() == b.repository()
                && split.train.contains(&a.suite)
                && split.test.contains(&b.suite)
            {
                return Err(BenchError::RepositoryAcross {
                    repository: a.repository().to_owned(),
                });
            }
        }
    }
    Ok(split)
}

/// The suites kept in the repository (`bench/`), by file name.
pub const SUITE_FILES: &[(&str, &str)] = &[
    (
        "dotnet-marketplace.json",
        include_str!("../bench/dotnet-marketplace.json"),
    ),
    (
        "dotnet-marketplace-130.json",
        include_str!("../bench/dotnet-marketplace-130.json"),
    ),
    (
        "skill-routing-eval.json",
        include_str!("../bench/skill-routing-eval.json"),
    ),
    (
        "superpowers.json",
        include_str!("../bench/superpowers.json"),
    ),
    (
        "superpowers-ruby.json",
        include_str!("../bench/superpowers-ruby.json"),
    ),
    (
        "data-engineering-skills.json",
        include_str!("../bench/data-engineering-skills.json"),
    ),
    (
        "rust-skills.json",
        include_str!("../bench/rust-skills.json"),
    ),
];

/// The split kept beside them.
pub const SPLIT_FILE: &str = include_str!("../bench/split.json");

/// The benchmark as kept: every suite and the split, each held to its invariants.
pub fn builtin() -> Result<(Vec<Suite>, Split), BenchError> {
    let suites = SUITE_FILES
        .iter()
        .map(|(file, text)| read_suite(file, text))
        .collect::<Result<Vec<_>, _>>()?;
    let split = read_split(SPLIT_FILE, &suites)?;
    Ok((suites, split))
}

pub use crate::lexical::{Bm25, fuse, words};

/// The rank of `target` among `scores` (0 = first). Ties go against the target: a skill tied
/// with the intended one is counted ahead of it, so a router that scores every skill alike is
/// never right by luck.
pub fn rank_of(scores: &[f32], target: usize) -> usize {
    let t = scores[target];
    scores
        .iter()
        .enumerate()
        .filter(|&(i, &s)| i != target && s >= t)
        .count()
}

/// The first score's lead over the second (0 with fewer than two skills).
pub fn lead(scores: &[f32]) -> f32 {
    let mut best = f32::NEG_INFINITY;
    let mut second = f32::NEG_INFINITY;
    for &s in scores {
        if s > best {
            second = best;
            best = s;
        } else if s > second {
            second = s;
        }
    }
    if second.is_finite() {
        best - second
    } else {
        0.0
    }
}

/// Counts over a set of tasks: first pick right, in the first three, and NONE said where no
/// skill should take the prompt.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub top1: u64,
    pub top3: u64,
    /// Tasks with an intended skill.
    pub labelled: u64,
    /// Should-not prompts answered NONE.
    pub none_right: u64,
    /// Should-not prompts.
    pub should_not: u64,
}

impl Tally {
    /// Adds one task: its scores, its intended skill, and whether the router said NONE.
    pub fn add(&mut self, scores: &[f32], target: Option<usize>, said_none: bool) {
        match target {
            Some(t) => {
                self.labelled += 1;
                let r = rank_of(scores, t);
                if r == 0 && !said_none {
                    self.top1 += 1;
                }
                if r < 3 {
                    self.top3 += 1;
                }
            }
            None => {
                self.should_not += 1;
                if said_none {
                    self.none_right += 1;
                }
            }
        }
    }

    pub fn merge(&mut self, o: &Tally) {
        self.top1 += o.top1;
        self.top3 += o.top3;
        self.labelled += o.labelled;
        self.none_right += o.none_right;
        self.should_not += o.should_not;
    }
}

/// One bin of a reliability table: first picks whose lead was below `below` (and at least the
/// previous bin's), and how many of them were right.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceBin {
    pub below: f32,
    pub right: u64,
    pub n: u64,
}

impl ConfidenceBin {
    /// The share of the bin's first picks that were right.
    pub fn rate(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.right as f64 / self.n as f64
        }
    }

    /// The chance the page states for a pick in this bin: Laplace's rule of succession,
    /// `(right + 1) / (n + 2)`, so that 31 right of 31 is said as 97%, never as certain.
    pub fn stated(&self) -> f64 {
        (self.right as f64 + 1.0) / (self.n as f64 + 2.0)
    }
}

/// The reliability of first picks by their lead: `(lead, right)` pairs sorted by lead, cut
/// into `bins` bins of (nearly) equal count, then adjacent bins pooled until the rate never
/// falls as the lead grows (pool-adjacent-violators: a larger lead never states a smaller
/// chance). The last bin's bound is infinite.
pub fn reliability(pairs: &[(f32, bool)], bins: usize) -> Vec<ConfidenceBin> {
    let mut sorted: Vec<(f32, bool)> = pairs.iter().copied().filter(|p| p.0.is_finite()).collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let bins = bins.max(1).min(sorted.len().max(1));
    let mut out: Vec<ConfidenceBin> = Vec::new();
    let n = sorted.len();
    let mut start = 0;
    for k in 0..bins {
        let mut end = ((k + 1) * n) / bins;
        // Equal leads stay in one bin.
        while end < n && end > 0 && sorted[end].0 == sorted[end - 1].0 {
            end += 1;
        }
        if end <= start {
            continue;
        }
        let slice = &sorted[start..end];
        out.push(ConfidenceBin {
            below: if end < n {
                sorted[end].0
            } else {
                f32::INFINITY
            },
            right: slice.iter().filter(|p| p.1).count() as u64,
            n: slice.len() as u64,
        });
        start = end;
        if start >= n {
            break;
        }
    }
    // Pool adjacent violators.
    let mut pooled: Vec<ConfidenceBin> = Vec::new();
    for b in out {
        pooled.push(b);
        while pooled.len() > 1 {
            let last = pooled[pooled.len() - 1];
            let prev = pooled[pooled.len() - 2];
            if prev.rate() <= last.rate() {
                break;
            }
            pooled.pop();
            let merged = ConfidenceBin {
                below: last.below,
                right: prev.right + last.right,
                n: prev.n + last.n,
            };
            *pooled.last_mut().expect("two bins") = merged;
        }
    }
    pooled
}

/// The stated chance that a first pick with this lead is right, from a reliability table
/// ([`ConfidenceBin::stated`]).
pub fn chance(table: &[ConfidenceBin], lead: f32) -> Option<f64> {
    table
        .iter()
        .find(|b| lead < b.below)
        .map(ConfidenceBin::stated)
}

/// The chance that a first pick is the intended skill, as a smooth function of its lead: a
/// logistic regression on the square root of the lead (leads bunch up near zero, where the
/// chance moves fastest). A step table of five bins stated the same chance for a whole bin,
/// and its steps were where calibration on unseen repositories was worst.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChanceModel {
    pub fit: skillpg_stats::Logistic,
}

impl ChanceModel {
    /// The fit on `(lead, right)` pairs; `None` unless some picks were right and some wrong.
    pub fn fit(pairs: &[(f32, bool)]) -> Option<ChanceModel> {
        let points: Vec<(f64, bool)> = pairs
            .iter()
            .filter(|p| p.0.is_finite())
            .map(|&(lead, right)| (Self::x(lead), right))
            .collect();
        skillpg_stats::Logistic::fit(&points).map(|fit| ChanceModel { fit })
    }

    fn x(lead: f32) -> f64 {
        f64::from(lead.max(0.0)).sqrt()
    }

    /// The stated chance that a first pick with this lead is right.
    pub fn chance(&self, lead: f32) -> f64 {
        self.fit.probability(Self::x(lead))
    }

    /// The lead below which a first pick is more likely wrong than right: a close call.
    pub fn close_below(&self) -> f32 {
        self.fit
            .x_at(0.5)
            .map_or(0.0, |x| (x.max(0.0) * x.max(0.0)) as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite_json(tasks: &str) -> String {
        format!(
            r#"{{"suite":"o/r","source":"s","commit":"c","licence":"MIT","notice":"n","paths":[],
            "skills":[{{"name":"a","description":"alpha"}},{{"name":"b","description":"beta"}}],
            "tasks":{tasks}}}"#
        )
    }

    #[test]
    fn the_kept_benchmark_holds_its_invariants() {
        let (suites, split) = builtin().expect("the kept suites read");
        assert!(suites.len() >= 3);
        assert!(!split.test.is_empty() && !split.train.is_empty());
        for s in &suites {
            assert!(!s.licence.is_empty() && !s.commit.is_empty(), "{}", s.suite);
            assert!(
                s.targets()
                    .iter()
                    .zip(&s.tasks)
                    .all(|(t, k)| t.is_some() == k.skill.is_some())
            );
        }
    }

    #[test]
    fn a_task_whose_skill_is_not_in_its_suite_is_refused() {
        let text = suite_json(r#"[{"id":"1","prompt":"p","skill":"c"}]"#);
        assert_eq!(
            read_suite("x.json", &text),
            Err(BenchError::UnknownSkill {
                suite: "o/r".into(),
                task: "1".into(),
                skill: "c".into()
            })
        );
        let ok = suite_json(
            r#"[{"id":"1","prompt":"p","skill":"b"},{"id":"2","prompt":"q","skill":null}]"#,
        );
        assert_eq!(
            read_suite("x.json", &ok)
                .expect("as the test sets it up")
                .targets(),
            vec![Some(1), None]
        );
    }

    #[test]
    fn a_suite_split_across_train_and_test_is_refused() {
        let s = read_suite(
            "x.json",
            &suite_json(r#"[{"id":"1","prompt":"p","skill":"a"}]"#),
        )
        .expect("as the test sets it up");
        let suites = vec![s];
        assert_eq!(
            read_split(r#"{"train":["o/r"],"test":["o/r"]}"#, &suites),
            Err(BenchError::SplitAcross {
                suite: "o/r".into()
            })
        );
        assert_eq!(
            read_split(r#"{"train":[],"test":[]}"#, &suites),
            Err(BenchError::NotInSplit {
                suite: "o/r".into()
            })
        );
        assert_eq!(
            read_split(r#"{"train":["o/q"],"test":["o/r"]}"#, &suites),
            Err(BenchError::UnknownSuite {
                suite: "o/q".into()
            })
        );
        assert!(read_split(r#"{"train":[],"test":["o/r"]}"#, &suites).is_ok());
        // Two suites of one repository (its skills at two commits) stay on one side.
        let mut older = suites[0].clone();
        older.suite = "o/r@abc123".to_owned();
        let both = vec![suites[0].clone(), older];
        assert_eq!(
            read_split(r#"{"train":["o/r@abc123"],"test":["o/r"]}"#, &both),
            Err(BenchError::RepositoryAcross {
                repository: "o/r".into()
            })
        );
        assert!(read_split(r#"{"train":[],"test":["o/r","o/r@abc123"]}"#, &both).is_ok());
    }

    #[test]
    fn the_held_out_suite_is_refused_by_name() {
        for name in ["UiPath/skills", "uipath/skills@0123abc"] {
            let text = suite_json(r#"[{"id":"1","prompt":"p","skill":"a"}]"#).replace("o/r", name);
            assert!(
                matches!(read_suite("x.json", &text), Err(BenchError::HeldOut { .. })),
                "{name}"
            );
        }
    }

    #[test]
    fn bm25_ranks_the_document_that_shares_the_rare_word() {
        let bm = Bm25::new(&[
            "pdf: extract text from pdf files".to_owned(),
            "excel: edit spreadsheets and files".to_owned(),
        ]);
        let s = bm.scores("pull the text out of this PDF");
        assert!(s[0] > s[1] && s[1] == 0.0, "{s:?}");
        assert_eq!(bm.scores("the and of"), vec![0.0, 0.0]);
    }

    #[test]
    fn ties_count_against_the_target_and_lead_is_first_minus_second() {
        assert_eq!(rank_of(&[0.5, 0.5, 0.1], 0), 1);
        assert_eq!(rank_of(&[0.6, 0.5, 0.1], 0), 0);
        assert_eq!(rank_of(&[0.1, 0.5, 0.6], 0), 2);
        assert!((lead(&[0.2, 0.7, 0.5]) - 0.2).abs() < 1e-6);
        assert_eq!(lead(&[0.3]), 0.0);
        assert_eq!(fuse(&[0.0, 1.0], &[2.0, 0.0], 0.5), vec![0.5, 0.5]);
    }

    #[test]
    fn reliability_never_states_a_smaller_chance_for_a_larger_lead() {
        let pairs: Vec<(f32, bool)> = (0..100)
            .map(|i| (i as f32 / 100.0, (i * 7919) % 10 < (i / 10).max(3)))
            .collect();
        let table = reliability(&pairs, 10);
        assert_eq!(table.iter().map(|b| b.n).sum::<u64>(), 100);
        for w in table.windows(2) {
            assert!(w[0].rate() <= w[1].rate(), "{table:?}");
            assert!(w[0].below <= w[1].below);
        }
        assert_eq!(
            table.last().expect("as the test sets it up").below,
            f32::INFINITY
        );
        assert_eq!(
            chance(&table, 5.0),
            Some(table.last().expect("as the test sets it up").stated())
        );
    }
}
