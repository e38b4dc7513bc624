//! The description lab's state, plain Rust: an eval set for the selected skill (written in the
//! page one query a line, `+` for should trigger and `-` for should not), one run of the
//! embedding model over it and the loaded skills, and what the view derives from the run (the
//! figures of each part, the near misses, a word's weight in a query's score, a draft's paired
//! result, the skills that capture the queries). The arithmetic is `skillpg_routing::eval`'s.

use serde::{Deserialize, Serialize};
use skillpg_routing::decide::{self, Thresholds};
use skillpg_routing::eval::{
    self, EvalQuery, EvalRun, Metrics, QueryResult, Split, VariantComparison,
};
use skillpg_routing::explain::{self, Unit};
use skillpg_routing::export;
use skillpg_routing::outcome::{Arm, Descriptions, Method};
use skillpg_routing::skills::RouteSkill;

use crate::routing_run::WEIGHTS;

/// The lab's inputs, kept in the link.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabState {
    /// Each skill's eval set (by folder name), one query a line: `+ query` should trigger,
    /// `- query` should not.
    pub sets: std::collections::BTreeMap<String, String>,
    /// The split's seed.
    pub seed: u64,
    /// The share of each class held out for validation.
    pub holdout: f64,
    /// The draft description.
    pub draft: String,
    /// Drafts tried, with their figures.
    pub history: Vec<Variant>,
    /// Run the queries on the decoder loaded in the chapter's experiment rather than the
    /// embedding model.
    #[serde(default)]
    pub decoder: bool,
    /// With the decoder: runs a query (skill-creator runs each 3 times).
    #[serde(default = "default_runs")]
    pub runs: usize,
    /// With the decoder: the sampling temperature (0: greedy).
    #[serde(default = "default_temperature")]
    pub temperature: f32,
    /// How many times each held-out query was consulted (a run's totals, a draft's paired
    /// result, repeated splits, the final check), by [`query_id`]: a query seen 25 times stays
    /// seen when another query is added to the set (which makes a new split).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub looks: std::collections::BTreeMap<String, u32>,
    /// The splits whose validation queries the final check revealed.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub revealed: std::collections::BTreeSet<String>,
    /// Every query ever held out, for any skill, by [`eval::sealed_id`]: held out again on every
    /// seed and version and in every skill's set ([`eval::split_sealed`]), so that no change of
    /// seed moves one into a train table.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub sealed: std::collections::BTreeSet<String>,
    /// How many of each skill's oldest history rows went past [`MAX_HISTORY`].
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub dropped: std::collections::BTreeMap<String, u64>,
    /// The last draft written into a SKILL.md, so that its undo survives a reload: the skill's
    /// folder, the description it replaced and the one written (descriptions only: the link
    /// carries no second copy of the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adopted: Option<Adopted>,
}

/// A draft written into a skill's SKILL.md, and what it replaced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Adopted {
    pub skill: String,
    pub before: String,
    pub after: String,
}

/// What a held-out query's looks are counted under: its skill, its kind and its normalized
/// text (as the split draws it), hashed short to keep the link small.
pub fn query_id(skill: &str, q: &EvalQuery) -> String {
    let text = format!(
        "{skill}\u{1f}{}\u{1f}{}",
        if q.should_trigger { '+' } else { '-' },
        eval::normalized(&q.query)
    );
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl LabState {
    /// The split of `items` under this lab's seed, share and sealed queries.
    pub fn split(&self, items: &[EvalQuery]) -> Vec<eval::Split> {
        eval::split_sealed(items, self.holdout, self.seed, &|id: &str| {
            self.sealed.contains(id)
        })
    }

    /// Seals the queries a run held out: they stay held out from now on.
    pub fn seal<'a>(&mut self, held_out: impl IntoIterator<Item = &'a EvalQuery>) {
        self.sealed
            .extend(held_out.into_iter().map(|q| eval::sealed_id(&q.query)));
    }

    /// Counts a look at each of `queries` (the held-out ones consulted) of `skill`.
    pub fn look<'a>(&mut self, skill: &str, queries: impl IntoIterator<Item = &'a EvalQuery>) {
        for q in queries {
            *self.looks.entry(query_id(skill, q)).or_default() += 1;
        }
    }

    /// How many times each of `queries` of `skill` was consulted.
    pub fn looks_at<'a>(
        &self,
        skill: &str,
        queries: impl IntoIterator<Item = &'a EvalQuery>,
    ) -> Vec<u32> {
        queries
            .into_iter()
            .map(|q| self.looks.get(&query_id(skill, q)).copied().unwrap_or(0))
            .collect()
    }

    /// Keeps a description tried: a description already tried on the same split is not kept
    /// twice (its figures are the same); past [`MAX_HISTORY`] rows of one skill, that skill's
    /// oldest go, and are counted ([`LabState::dropped`]): drafts on one skill never push out
    /// another's rows.
    pub fn record(&mut self, v: Variant) {
        if self.history.iter().any(|h| {
            h.description == v.description
                && h.seed == v.seed
                && h.version == v.version
                && h.skill == v.skill
        }) {
            return;
        }
        let skill = v.skill.clone();
        self.history.push(v);
        self.cap_history(&skill);
    }

    /// Drops `skill`'s oldest rows past [`MAX_HISTORY`], counting them.
    pub fn cap_history(&mut self, skill: &str) {
        let mine = self.history.iter().filter(|h| h.skill == skill).count();
        let mut over = mine.saturating_sub(MAX_HISTORY);
        if over == 0 {
            return;
        }
        *self.dropped.entry(skill.to_owned()).or_default() += over as u64;
        self.history.retain(|h| {
            if over > 0 && h.skill == skill {
                over -= 1;
                false
            } else {
                true
            }
        });
    }

    /// `skill`'s rows as an export carries them: its own only, and no validation count of a
    /// split whose final check was not made.
    pub fn history_of(&self, skill: &str) -> Vec<Variant> {
        self.history
            .iter()
            .filter(|v| v.skill == skill)
            .map(|v| {
                let mut v = v.clone();
                if !self.revealed.contains(&v.key()) {
                    v.validation = None;
                }
                v
            })
            .collect()
    }

    /// The descriptions tried on `key`'s split, best on train first (validation is not how
    /// drafts are ranked), then the others, marked as another split's.
    pub fn ranked(&self, key: &str) -> Vec<(&Variant, bool)> {
        let mut same: Vec<&Variant> = self.history.iter().filter(|v| v.key() == key).collect();
        same.sort_by(|a, b| (b.train.0 * a.train.1.max(1)).cmp(&(a.train.0 * b.train.1.max(1))));
        let others = self.history.iter().filter(|v| v.key() != key);
        same.into_iter()
            .map(|v| (v, true))
            .chain(others.map(|v| (v, false)))
            .collect()
    }
}

fn default_runs() -> usize {
    3
}

fn default_temperature() -> f32 {
    0.7
}

/// The most runs a query may have in the page.
pub const MAX_RUNS: usize = 10;

impl Default for LabState {
    fn default() -> LabState {
        LabState {
            sets: std::collections::BTreeMap::new(),
            seed: eval::DEFAULT_SEED,
            holdout: eval::DEFAULT_HOLDOUT,
            draft: String::new(),
            history: Vec::new(),
            decoder: false,
            runs: default_runs(),
            temperature: default_temperature(),
            looks: std::collections::BTreeMap::new(),
            revealed: std::collections::BTreeSet::new(),
            sealed: std::collections::BTreeSet::new(),
            dropped: std::collections::BTreeMap::new(),
            adopted: None,
        }
    }
}

/// A decoder's repeated runs of every query.
#[derive(Debug, Clone, PartialEq)]
pub struct DecoderRuns {
    /// What the decoder is (the report's `model`).
    pub model: String,
    pub runs: usize,
    pub temperature: f32,
    /// For each query, each run's choice and answer.
    pub choices: Vec<Vec<Option<usize>>>,
    pub answers: Vec<Vec<String>>,
}

/// A description tried, how it did, and on which split.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    pub description: String,
    /// Right on train, of how many.
    pub train: (u64, u64),
    /// Right on validation, of how many; `None` in a link or an export made before that
    /// split's final check (`state::for_a_link`, [`LabState::history_of`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<(u64, u64)>,
    /// The skill, the split's seed and the eval set's version it was judged on: figures of
    /// another split are not comparable.
    #[serde(default)]
    pub skill: String,
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub version: String,
}

impl Variant {
    /// The split it was judged on ([`LabRun::key`]).
    pub fn key(&self) -> String {
        split_key(&self.skill, &self.version, self.seed)
    }
}

/// What names a split: the skill, the eval set's version and the seed.
pub fn split_key(skill: &str, version: &str, seed: u64) -> String {
    format!("{skill} · eval set {version} · seed {seed}")
}

/// The most drafts the history keeps of one skill (its oldest go first, and are counted).
pub const MAX_HISTORY: usize = 20;

/// The texts a lab run embeds: the loaded skills (as the router sees them), then the queries.
pub fn texts_to_embed(skills: &[RouteSkill], items: &[EvalQuery]) -> [Vec<String>; 2] {
    [
        skills.iter().map(RouteSkill::embedding_text).collect(),
        items.iter().map(|q| q.query.clone()).collect(),
    ]
}

/// The texts that explain one query: the target skill with each word and phrase of its
/// description (`skillpg_routing::explain::units`) dropped in turn.
pub fn occlusion_texts(skill: &RouteSkill) -> Vec<String> {
    explain::occlusions(&skill.description)
        .into_iter()
        .map(|d| {
            RouteSkill {
                name: skill.name.clone(),
                description: d,
            }
            .embedding_text()
        })
        .collect()
}

/// One lab run.
#[derive(Debug, Clone, PartialEq)]
pub struct LabRun {
    pub skills: Vec<RouteSkill>,
    /// The skill evaluated.
    pub target: usize,
    pub items: Vec<EvalQuery>,
    pub splits: Vec<Split>,
    pub holdout: f64,
    pub seed: u64,
    pub thresholds: Thresholds,
    /// Embeddings of the skills (as written) and of the queries.
    pub skill_vecs: Vec<Vec<f32>>,
    pub query_vecs: Vec<Vec<f32>>,
    /// The arm of the skills as written.
    pub arm: Arm,
    pub results: Vec<QueryResult>,
    pub ms: f64,
    /// A decoder's runs, when the decoder ran the queries (no embeddings then: no word weights
    /// and no draft).
    pub decoder: Option<DecoderRuns>,
    /// The eval set's version.
    pub version: String,
}

impl LabRun {
    /// The run from the embeddings of [`texts_to_embed`].
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        skills: Vec<RouteSkill>,
        target: usize,
        items: Vec<EvalQuery>,
        holdout: f64,
        seed: u64,
        sealed: &std::collections::BTreeSet<String>,
        t: Thresholds,
        [skill_vecs, query_vecs]: [Vec<Vec<f32>>; 2],
        ms: f64,
    ) -> LabRun {
        let splits = eval::split_sealed(&items, holdout, seed, &|id: &str| sealed.contains(id));
        let arm = preview_arm(&skills, &items, &query_vecs, &skill_vecs, t);
        let results = eval::results_from_arm(&arm, target, t);
        let version = eval::version(&items);
        LabRun {
            skills,
            target,
            items,
            splits,
            holdout,
            seed,
            thresholds: t,
            skill_vecs,
            query_vecs,
            arm,
            results,
            ms,
            decoder: None,
            version,
        }
    }

    /// The run of a decoder's repeated runs: `first` holds each query's first decision.
    #[allow(clippy::too_many_arguments)]
    pub fn from_decoder(
        skills: Vec<RouteSkill>,
        target: usize,
        items: Vec<EvalQuery>,
        holdout: f64,
        seed: u64,
        sealed: &std::collections::BTreeSet<String>,
        first: Vec<skillpg_routing::outcome::Decision>,
        runs: DecoderRuns,
        ms: f64,
    ) -> LabRun {
        let splits = eval::split_sealed(&items, holdout, seed, &|id: &str| sealed.contains(id));
        let arm = Arm {
            names: skillpg_routing::skills::names(&skills),
            descriptions: Descriptions::AsWritten,
            decisions: first,
        };
        let results = eval::sampled_results(&runs.choices, target);
        let version = eval::version(&items);
        LabRun {
            version,
            skills,
            target,
            items,
            splits,
            holdout,
            seed,
            thresholds: Thresholds::DEFAULT,
            skill_vecs: Vec::new(),
            query_vecs: Vec::new(),
            arm,
            results,
            ms,
            decoder: Some(runs),
        }
    }

    /// The figures of one part.
    pub fn metrics(&self, part: Split) -> Metrics {
        eval::metrics(&self.items, &self.results, &self.splits, part)
    }

    /// The skill each query went to (`None`: no skill).
    pub fn chosen(&self) -> Vec<Option<usize>> {
        self.arm.decisions.iter().map(|d| d.choice).collect()
    }

    /// The results with the target's description replaced by `draft`, whose embedding is
    /// `draft_vec` (the router's word overlap reads the draft's words too).
    pub fn draft_results(&self, draft_vec: &[f32], draft: &str) -> Vec<QueryResult> {
        let mut skill_vecs = self.skill_vecs.clone();
        skill_vecs[self.target] = draft_vec.to_vec();
        let mut skills = self.skills.clone();
        skills[self.target].description = draft.to_owned();
        let arm = preview_arm(
            &skills,
            &self.items,
            &self.query_vecs,
            &skill_vecs,
            self.thresholds,
        );
        eval::results_from_arm(&arm, self.target, self.thresholds)
    }

    /// The draft against the description as written, paired on validation.
    pub fn compare(&self, draft: &[QueryResult]) -> VariantComparison {
        // The lab runs the page's router: a change it cannot separate is too close to call.
        eval::compare_variants_within(
            &self.items,
            &self.splits,
            &self.results,
            draft,
            Some(skillpg_routing::bench_report::close_call_bound()),
        )
    }

    /// Each word and phrase of the target's description (`explain::units`) and its weight in
    /// query `index`'s score: the score with the whole description less the score without it
    /// (`occluded` holds the embeddings of [`occlusion_texts`]).
    pub fn explain(&self, index: usize, occluded: &[Vec<f32>]) -> Vec<(Unit, f32)> {
        let query = &self.query_vecs[index];
        let full = decide::cosine(query, &self.skill_vecs[self.target]);
        let without: Vec<f32> = occluded.iter().map(|v| decide::cosine(query, v)).collect();
        explain::units(&self.skills[self.target].description)
            .into_iter()
            .zip(eval::contributions(full, &without))
            .collect()
    }

    /// What names this run's split ([`split_key`]).
    pub fn key(&self) -> String {
        split_key(&self.skills[self.target].name, &self.version, self.seed)
    }

    /// The queries held out for validation on this split.
    pub fn validation_queries(&self) -> impl Iterator<Item = &EvalQuery> {
        self.items
            .iter()
            .zip(&self.splits)
            .filter(|(_, s)| **s == Split::Validation)
            .map(|(q, _)| q)
    }

    /// How many queries of each kind each part holds: `[train, validation]` of `(should, should
    /// not)`.
    pub fn counts(&self) -> [(usize, usize); 2] {
        let count = |part: Split, should: bool| {
            self.items
                .iter()
                .zip(&self.splits)
                .filter(|(q, s)| **s == part && q.should_trigger == should)
                .count()
        };
        [
            (count(Split::Train, true), count(Split::Train, false)),
            (
                count(Split::Validation, true),
                count(Split::Validation, false),
            ),
        ]
    }

    /// Why should-trigger query `index` did not choose the skill, when it did not (a sentence),
    /// from the embedding model's scores.
    pub fn why_lost(&self, index: usize) -> Option<String> {
        let (q, r) = (self.items.get(index)?, self.results.get(index)?);
        if !q.should_trigger || r.triggered() || self.decoder.is_some() {
            return None;
        }
        let d = self.arm.decisions.get(index)?;
        let descriptions: Vec<String> = self.skills.iter().map(|k| k.description.clone()).collect();
        Some(explain::why_lost(
            &q.query,
            &self.arm.names,
            &descriptions,
            d.scores(),
            self.target,
            d.choice,
            self.thresholds.tau,
        ))
    }

    /// Words the description lacks that its lost should-trigger train queries use, at most
    /// `max`, and the skill's texts to embed with each appended.
    pub fn suggestion_texts(&self, max: usize) -> (Vec<String>, Vec<String>) {
        let lost: Vec<&str> = self
            .items
            .iter()
            .zip(&self.results)
            .zip(&self.splits)
            .filter(|((q, r), s)| q.should_trigger && !r.triggered() && **s == Split::Train)
            .map(|((q, _), _)| q.query.as_str())
            .collect();
        let skill = &self.skills[self.target];
        let terms = explain::candidate_terms(&skill.description, &lost, max);
        let texts = terms
            .iter()
            .map(|t| {
                RouteSkill {
                    name: skill.name.clone(),
                    description: explain::appended(&skill.description, t),
                }
                .embedding_text()
            })
            .collect();
        (terms, texts)
    }

    /// Each suggested term with what appending it does on train (fixed, broken), the best
    /// first; `embedded` holds the embeddings of [`Self::suggestion_texts`]'s texts.
    pub fn rank_suggestions(
        &self,
        terms: &[String],
        embedded: &[Vec<f32>],
    ) -> Vec<(String, usize, usize)> {
        let description = &self.skills[self.target].description;
        let mut out: Vec<(String, usize, usize)> = terms
            .iter()
            .zip(embedded)
            .map(|(t, v)| {
                let (fixed, broken) = explain::train_change(
                    &self.items,
                    &self.splits,
                    &self.results,
                    &self.draft_results(v, &explain::appended(description, t)),
                );
                (t.clone(), fixed, broken)
            })
            .collect();
        out.sort_by_key(|t| std::cmp::Reverse(t.1 as i64 - t.2 as i64));
        out
    }

    /// For each other skill, how many should-trigger queries it captured.
    pub fn captured_by(&self, with_validation: bool) -> Vec<(String, usize)> {
        // Held-out queries count only after the final check: where they went is their outcome.
        let kept: Vec<usize> = (0..self.items.len())
            .filter(|&i| with_validation || self.splits[i] == Split::Train)
            .collect();
        let owner = vec![self.target; kept.len()];
        let should: Vec<bool> = kept.iter().map(|&i| self.items[i].should_trigger).collect();
        let chosen = self.chosen();
        let chosen: Vec<_> = kept.iter().map(|&i| chosen[i]).collect();
        eval::collisions(&owner, &should, &chosen)
            .into_iter()
            .map(|(_, captor, n)| (self.skills[captor].name.clone(), n))
            .collect()
    }

    /// The lab's report, as `skillpg eval --weights i8 --kernel integer --format json` writes
    /// it for the same skills, eval set, seed and thresholds; before the final check `revealed`
    /// is false and the validation queries' outcomes are held out of it
    /// (`eval::held_out_report`, as `skillpg eval --held-out` prints).
    pub fn report_json_for(&self, revealed: bool) -> String {
        let report = self.report();
        if revealed {
            eval::report_json(&report)
        } else {
            eval::report_json(&eval::held_out_report(&report))
        }
    }

    /// The whole report as JSON, validation included.
    pub fn report_json(&self) -> String {
        eval::report_json(&self.report())
    }

    /// The whole report, validation included.
    pub fn report(&self) -> eval::EvalReport {
        let model = self
            .decoder
            .as_ref()
            .map_or_else(|| export::embedding_model(WEIGHTS), |d| d.model.clone());
        let sampled = self.decoder.as_ref().map(|d| eval::Sampled {
            runs: d.runs,
            temperature: d.temperature,
            choices: &d.choices,
            answers: &d.answers,
        });
        let run = EvalRun {
            model: &model,
            method: if self.decoder.is_some() {
                Method::Chapter
            } else {
                Method::Embedding {
                    thresholds: self.thresholds,
                }
            },
            holdout: self.holdout,
            seed: self.seed,
            items: &self.items,
            arm: &self.arm,
            target: self.target,
            description: &self.skills[self.target].description,
            sampled,
        };
        run.report()
    }

    /// A description tried on this run's split, as the history keeps it.
    pub fn as_variant(&self, description: &str, results: &[QueryResult]) -> Variant {
        let m = |part| eval::metrics(&self.items, results, &self.splits, part);
        let (train, validation) = (m(Split::Train), m(Split::Validation));
        Variant {
            description: description.to_owned(),
            train: (train.correct(), train.n),
            validation: Some((validation.correct(), validation.n)),
            skill: self.skills[self.target].name.clone(),
            seed: self.seed,
            version: self.version.clone(),
        }
    }
}

/// One skill's should-trigger queries that another skill captured.
#[derive(Debug, Clone, PartialEq)]
pub struct Capture {
    pub owner: String,
    pub captor: String,
    /// How many of the owner's should-trigger queries went to the captor, of how many.
    pub count: usize,
    pub of: usize,
    /// The queries, for the cell's title.
    pub queries: Vec<String>,
}

/// The preview's arm for `items` among `skills` (as the router sees them): their cosines
/// fused with BM25 over the same texts (`Arm::preview`), decided under `t`.
pub fn preview_arm(
    skills: &[RouteSkill],
    items: &[EvalQuery],
    query_vecs: &[Vec<f32>],
    skill_vecs: &[Vec<f32>],
    t: Thresholds,
) -> Arm {
    let documents: Vec<String> = skills.iter().map(RouteSkill::embedding_text).collect();
    let queries: Vec<String> = items.iter().map(|q| q.query.clone()).collect();
    Arm::preview(
        skillpg_routing::skills::names(skills),
        Descriptions::AsWritten,
        query_vecs,
        skill_vecs,
        &documents,
        &queries,
        t,
    )
}

/// Across the loaded skills, each skill's should-trigger queries (`owned`: owner index and
/// query) decided among all of them: which other skill captured which, per pair, most first.
pub fn captures(skills: &[RouteSkill], owned: &[(usize, EvalQuery)], arm: &Arm) -> Vec<Capture> {
    let owner: Vec<usize> = owned.iter().map(|(o, _)| *o).collect();
    let should: Vec<bool> = owned.iter().map(|(_, q)| q.should_trigger).collect();
    let chosen: Vec<Option<usize>> = arm.decisions.iter().map(|d| d.choice).collect();
    eval::collisions(&owner, &should, &chosen)
        .into_iter()
        .map(|(o, c, n)| Capture {
            owner: skills[o].name.clone(),
            captor: skills[c].name.clone(),
            count: n,
            of: owned
                .iter()
                .filter(|(w, q)| *w == o && q.should_trigger)
                .count(),
            queries: owned
                .iter()
                .zip(&chosen)
                .filter(|((w, q), ch)| *w == o && q.should_trigger && **ch == Some(c))
                .map(|((_, q), _)| q.query.clone())
                .collect(),
        })
        .collect()
}

/// A should-not query a skill took: the skill that took it, the query, and where it should
/// have gone: the skill whose eval set says it should trigger it; else the loaded skill the
/// router ranks next, when it reaches τ (a neighbour whose description covers the query); NONE
/// only when no other loaded skill does.
#[derive(Debug, Clone, PartialEq)]
pub struct WrongCapture {
    pub captor: String,
    pub query: String,
    pub should_go_to: String,
}

/// The other side of the collisions: each skill's should-not queries that it took itself, with
/// where each should have gone.
pub fn wrong_captures(
    skills: &[RouteSkill],
    owned: &[(usize, EvalQuery)],
    arm: &Arm,
    t: Thresholds,
) -> Vec<WrongCapture> {
    let norm = |q: &str| eval::normalized(q);
    owned
        .iter()
        .zip(&arm.decisions)
        .filter(|((owner, q), d)| !q.should_trigger && d.choice == Some(*owner))
        .map(|((owner, q), d)| {
            // The router's next choice: the best other skill by the scores it ranks by, where
            // that skill's cosine reaches τ.
            let cosines = match &d.evidence {
                skillpg_routing::outcome::Evidence::Cosines { cosines, .. } => cosines.as_slice(),
                _ => &[],
            };
            let row = d.scores();
            let next = || {
                row.iter()
                    .enumerate()
                    .filter(|(k, _)| k != owner && cosines.get(*k).is_some_and(|c| *c >= t.tau))
                    .max_by(|a, b| a.1.total_cmp(b.1))
                    .map(|(k, score)| {
                        format!("{} (the router's next choice, {score:.2})", skills[k].name)
                    })
            };
            let home = owned
                .iter()
                .find(|(o, other)| {
                    o != owner && other.should_trigger && norm(&other.query) == norm(&q.query)
                })
                .map(|(o, _)| skills[*o].name.clone())
                .or_else(next);
            WrongCapture {
                captor: skills[*owner].name.clone(),
                query: q.query.clone(),
                should_go_to: home.unwrap_or_else(|| skillpg_routing::NONE.to_owned()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str, description: &str) -> RouteSkill {
        RouteSkill {
            name: name.into(),
            description: description.into(),
        }
    }

    fn run() -> LabRun {
        let skills = vec![
            skill("sql", "Reviews migrations. Use when asked."),
            skill("notes", "Writes notes."),
        ];
        let items = skillpg_routing::evalset::parse_lines("+ a\n+ b\n- c\n- d\n").expect("parses");
        // Unit vectors: queries a, b near sql; c near notes; d nowhere.
        let skill_vecs = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        let query_vecs = vec![
            vec![0.9, 0.1],
            vec![0.2, 0.8],
            vec![0.0, 1.0],
            vec![0.1, 0.1],
        ];
        LabRun::new(
            skills,
            0,
            items,
            0.5,
            1,
            &Default::default(),
            Thresholds::DEFAULT,
            [skill_vecs, query_vecs],
            5.0,
        )
    }

    #[test]
    fn a_run_scores_each_part_and_names_the_captor() {
        let r = run();
        assert_eq!(
            r.results
                .iter()
                .map(QueryResult::triggered)
                .collect::<Vec<_>>(),
            vec![true, false, false, false]
        );
        assert_eq!(
            r.metrics(Split::Train).n + r.metrics(Split::Validation).n,
            4
        );
        assert_eq!(
            r.captured_by(true),
            vec![("notes".to_owned(), 1)],
            "query b went to notes"
        );
        if r.splits[1] == Split::Validation {
            assert!(
                r.captured_by(false).is_empty(),
                "held out until the final check"
            );
        }
        let json = r.report_json();
        assert!(json.contains("\"skill\": \"sql\"") && json.contains("\"seed\": 1"));
    }

    #[test]
    fn a_draft_moves_the_target_and_is_paired_on_validation() {
        let r = run();
        // A draft pointing between a and b catches both.
        let draft = r.draft_results(&[0.3, 0.95], "Reviews migrations and notes.");
        assert!(draft[0].triggered() && draft[1].triggered());
        let cmp = r.compare(&draft);
        assert_eq!(
            cmp.paired.both + cmp.paired.only_a + cmp.paired.only_b + cmp.paired.neither,
            r.metrics(Split::Validation).n
        );
    }

    #[test]
    fn a_word_weighs_what_its_absence_costs() {
        let r = run();
        let texts = occlusion_texts(&r.skills[0]);
        // "Reviews", "migrations", "asked" ("Use" and "when" are stop words), and the phrase
        // "Reviews migrations".
        assert_eq!(
            texts.len(),
            4,
            "one text without each content word and phrase"
        );
        assert_eq!(texts[0], "sql: migrations. Use when asked.");
        // Dropping word 0 leaves the vector; dropping word 1 moves it towards notes.
        let occluded = vec![
            vec![1.0, 0.0],
            vec![0.0, 1.0],
            vec![1.0, 0.0],
            vec![1.0, 0.0],
        ];
        let w = r.explain(0, &occluded);
        assert_eq!(w[1].0.text, "migrations", "punctuation taken off");
        assert!(w[1].1 > 0.5 && w[0].1.abs() < 1e-6);
        assert_eq!(w[3].0.words, 2);
    }

    #[test]
    fn the_history_keeps_each_split_apart_ranks_by_train_and_drops_repeats() {
        let r = run();
        let mut lab = LabState::default();
        let a = Variant {
            train: (1, 2),
            ..r.as_variant("A.", &r.results)
        };
        let b = Variant {
            train: (2, 2),
            ..r.as_variant("B.", &r.results)
        };
        lab.record(a.clone());
        lab.record(b.clone());
        lab.record(b.clone());
        assert_eq!(lab.history.len(), 2, "a draft tried again is kept once");
        let other = Variant {
            seed: 99,
            ..a.clone()
        };
        lab.record(other.clone());
        let ranked = lab.ranked(&r.key());
        assert_eq!(
            ranked
                .iter()
                .map(|(v, same)| (v.description.as_str(), *same))
                .collect::<Vec<_>>(),
            vec![("B.", true), ("A.", true), ("A.", false)]
        );
        let skill = &r.skills[r.target].name;
        lab.look(skill, r.validation_queries());
        lab.look(skill, r.validation_queries());
        assert!(
            lab.looks_at(skill, r.validation_queries())
                .iter()
                .all(|&n| n == 2)
        );
        // A query added to the set makes a new split; the queries already seen stay seen.
        let mut more = r.items.clone();
        more.push(EvalQuery {
            query: "a query never seen".to_owned(),
            should_trigger: true,
        });
        let seen = lab.looks_at(skill, &more);
        assert_eq!(seen.last(), Some(&0));
        assert_eq!(
            seen.iter().filter(|&&n| n == 2).count(),
            r.validation_queries().count()
        );
        assert!(r.key().contains(&r.version) && r.key().contains("seed 1"));
    }

    #[test]
    fn a_lost_query_says_where_it_went_and_suggestions_come_from_lost_train_queries() {
        let r = run();
        // Query b should trigger sql and went to notes.
        let why = r.why_lost(1).expect("b was lost");
        assert!(why.starts_with("went to notes by "), "{why}");
        assert_eq!(r.why_lost(0), None, "a was right");
        let (terms, texts) = r.suggestion_texts(5);
        assert_eq!(terms.len(), texts.len());
    }

    #[test]
    fn captures_name_each_pair_and_its_queries() {
        let skills = vec![skill("sql", "S."), skill("notes", "N.")];
        let owned = vec![
            (
                0,
                EvalQuery {
                    query: "a".into(),
                    should_trigger: true,
                },
            ),
            (
                0,
                EvalQuery {
                    query: "b".into(),
                    should_trigger: true,
                },
            ),
            (
                1,
                EvalQuery {
                    query: "c".into(),
                    should_trigger: true,
                },
            ),
        ];
        let scores = vec![vec![0.9, 0.1], vec![0.1, 0.9], vec![0.9, 0.1]];
        let arm = |scores: Vec<Vec<f32>>| {
            Arm::from_cosines(
                skillpg_routing::skills::names(&skills),
                Descriptions::AsWritten,
                scores,
                Thresholds::DEFAULT,
            )
        };
        let c = captures(&skills, &owned, &arm(scores));
        assert_eq!(c.len(), 2);
        // The other way: a should-not query of notes that notes took, which sql should have had.
        let owned_not = vec![
            (
                1,
                EvalQuery {
                    query: "a".into(),
                    should_trigger: false,
                },
            ),
            (
                0,
                EvalQuery {
                    query: "A".into(),
                    should_trigger: true,
                },
            ),
        ];
        let wrong = wrong_captures(
            &skills,
            &owned_not,
            &arm(vec![vec![0.1, 0.9], vec![0.9, 0.1]]),
            Thresholds::DEFAULT,
        );
        assert_eq!(
            wrong,
            vec![WrongCapture {
                captor: "notes".into(),
                query: "a".into(),
                should_go_to: "sql".into()
            }]
        );
        // No eval set claims it: the neighbour the router ranks next, when it reaches τ; NONE
        // when no other skill does.
        let alone = vec![(
            1,
            EvalQuery {
                query: "b".into(),
                should_trigger: false,
            },
        )];
        let next = wrong_captures(
            &skills,
            &alone,
            &arm(vec![vec![0.6, 0.9]]),
            Thresholds::DEFAULT,
        );
        assert_eq!(next[0].should_go_to, "sql (the router's next choice, 0.60)");
        let none = wrong_captures(
            &skills,
            &alone,
            &arm(vec![vec![0.1, 0.9]]),
            Thresholds::DEFAULT,
        );
        assert_eq!(none[0].should_go_to, skillpg_routing::NONE);
        assert_eq!(
            (
                c[0].owner.as_str(),
                c[0].captor.as_str(),
                c[0].count,
                c[0].of
            ),
            ("sql", "notes", 1, 2)
        );
        assert_eq!(c[0].queries, vec!["b".to_owned()]);
    }
}
