//! The description lab: why doesn't my skill trigger? An eval set for the selected skill
//! (skill-creator's should / should-not queries), split by a seed into train and validation,
//! run through the routing model's worker among the loaded skills; the figures of each part
//! with Wilson intervals, the near misses, the words that carry a query's score (occlusion), a
//! draft description paired with the current one on validation, the drafts tried, and the
//! skills that capture the queries. A preview by a small model, not any product's router.

use leptos::prelude::*;
use leptos::task::spawn_local;
use skillpg_routing::eval::{self, QueryResult, Split, VariantComparison};
use skillpg_routing::evalset;
use skillpg_routing::explain::Unit;
use skillpg_routing::protocol::DecoderMode;
use skillpg_routing::sampling::{Sampling, run_seed};
use skillpg_routing::skills::RouteSkill;

use super::ctx;
use super::work::Work;
use crate::lab_run::{self, LabRun};
use crate::{browser, samples};

/// A draft's run.
#[derive(Debug, Clone, PartialEq)]
struct DraftRun {
    description: String,
    results: Vec<QueryResult>,
    cmp: VariantComparison,
    /// Words the draft takes from the train queries and from nowhere in the skill's own text.
    stuffing: Option<skillpg_routing::explain::Stuffing>,
    /// Words the draft adds that the lab suggests from the train queries it lost.
    fitted: Option<skillpg_routing::explain::Fitted>,
    /// The train queries whose outcome the draft changes: (query, should trigger, right as
    /// written).
    changed: Vec<(String, bool, bool)>,
    /// Whether the split's held-out queries were revealed by its final check before this draft
    /// was judged: its verdict is then no longer a test.
    after_final_check: bool,
}

/// The query explained, each word's and phrase's weight, and how long the occlusion took (ms).
type Explained = (usize, Vec<(Unit, f32)>, f64);

/// A description adopted from a draft: the diff shown first, SKILL.md before (for the one undo)
/// and after, and whether it was written.
#[derive(Debug, Clone, PartialEq)]
struct Adoption {
    diff: String,
    before: String,
    after: String,
    applied: bool,
}

/// The lab's signals and actions. `Copy`, so every handler takes it whole.
#[derive(Clone, Copy)]
struct Lab {
    c: super::Ctx,
    ui: super::models::ModelUi,
    run: RwSignal<Option<LabRun>>,
    draft: RwSignal<Option<DraftRun>>,
    explained: RwSignal<Option<Explained>>,
    /// Across the loaded skills with an eval set: who captures whose queries, both ways.
    captures: RwSignal<Option<(Vec<lab_run::Capture>, Vec<lab_run::WrongCapture>)>>,
    /// Words the description lacks, each with what appending it does on train.
    suggestions: RwSignal<Option<Vec<(String, usize, usize)>>>,
    /// The draft being adopted into SKILL.md.
    adoption: RwSignal<Option<Adoption>>,
    /// An eval run in hand (one at a time; what it says goes to the status line).
    work: Work,
}

impl Lab {
    fn new() -> Lab {
        let c = ctx();
        Lab {
            c,
            ui: c.models.ui,
            run: RwSignal::new(None),
            draft: RwSignal::new(None),
            explained: RwSignal::new(None),
            captures: RwSignal::new(None),
            suggestions: RwSignal::new(None),
            adoption: RwSignal::new(None),
            work: Work::new(c.status),
        }
    }

    /// Loads the six-skill routing set, selects sql-review and its eval set; asks first when
    /// that would replace skills the person loaded or edited.
    fn load_sample(self) {
        let lost = self
            .c
            .state
            .with_untracked(|s| samples::would_replace(&s.skills, &samples::routing_inputs()));
        if !lost.is_empty() && !browser::confirm(&samples::replace_question(&lost)) {
            return self
                .c
                .status
                .set("The sample was not loaded: your skills are as they were.".to_owned());
        }
        let items = evalset::parse_evals(samples::SQL_REVIEW_EVALS).unwrap_or_default();
        self.c.state.update(|s| {
            s.replace_skills(samples::routing_inputs());
            s.selected = s
                .skills
                .iter()
                .position(|k| k.dir_name == "sql-review")
                .unwrap_or(0);
            s.selected_file = "SKILL.md".into();
            s.set_lab_evals(evalset::to_lines(&items));
            s.lab.draft.clear();
            s.lab.history.clear();
        });
        self.clear();
    }

    fn clear(self) {
        self.run.set(None);
        self.draft.set(None);
        self.explained.set(None);
        self.suggestions.set(None);
    }

    /// Runs the eval set, unless a run is in hand already.
    fn start(self) {
        if !self.work.begin("Running the eval set…".to_owned()) {
            return;
        }
        spawn_local(async move {
            self.run_eval().await;
            self.work.finish();
        });
    }

    /// Embeds the loaded skills and the eval queries (or runs them on the decoder), and keeps
    /// the run; what goes wrong is said on the status line.
    async fn run_eval(self) {
        let c = self.c;
        let computed = c.computed.get_untracked();
        let (text, target, seed, holdout, t) = c.state.with_untracked(|s| {
            (
                s.lab_evals(),
                s.selected,
                s.lab.seed,
                s.lab.holdout,
                skillpg_routing::decide::Thresholds {
                    tau: s.routing.tau,
                    delta: s.routing.delta,
                },
            )
        });
        let items = match evalset::parse_lines(&text) {
            Ok(items) if !items.is_empty() => items,
            Ok(_) => return c.status.set("Write some queries first: `+ query` should trigger the skill, `- query` should not.".to_owned()),
            Err(e) => return c.status.set(format!("The eval set could not be read: {e}")),
        };
        let skills: Vec<RouteSkill> = computed
            .analyses
            .iter()
            .map(RouteSkill::from_analysis)
            .collect();
        if target >= skills.len() {
            return c.status.set("Load a skill first.".to_owned());
        }
        if c.state.with_untracked(|s| s.lab.decoder) {
            return self
                .start_decoder(skills, target, items, holdout, seed)
                .await;
        }
        let Some(worker) = c.models.embedder(c.status).await else {
            return;
        };
        let start = browser::now_ms();
        let [skill_texts, query_texts] = lab_run::texts_to_embed(&skills, &items);
        c.status.set(format!(
            "Embedding {} skills and {} queries…",
            skill_texts.len(),
            query_texts.len()
        ));
        let res = async {
            Ok::<_, String>([
                worker.embed(&skill_texts).await?.0,
                worker.embed(&query_texts).await?.0,
            ])
        }
        .await;
        match res {
            Ok(vectors) => {
                let sealed = c.state.with_untracked(|s| s.lab.sealed.clone());
                let run = LabRun::new(
                    skills,
                    target,
                    items,
                    holdout,
                    seed,
                    &sealed,
                    t,
                    vectors,
                    browser::now_ms() - start,
                );
                c.status.set(format!(
                    "Ran {} queries for {} among {} skills in {:.0} ms.",
                    run.items.len(),
                    run.skills[target].name,
                    run.skills.len(),
                    run.ms
                ));
                // The run's validation totals are a look at each held-out query, and a query
                // held out once stays held out.
                c.state.update(|s| {
                    if s.lab.draft.trim().is_empty() {
                        s.lab.draft = run.skills[target].description.clone();
                    }
                    s.lab
                        .look(&run.skills[target].name, run.validation_queries());
                    s.lab.seal(run.validation_queries());
                });
                self.clear();
                self.run.set(Some(run));
                c.models.measure_after_result(worker);
            }
            Err(e) => {
                c.models.drop_embedder();
                c.status.set(format!(
                    "The eval run failed: {e}. Run again to restart the model."
                ));
            }
        }
    }

    /// Runs every query `runs` times on the decoder loaded below (the chapter's protocol), each
    /// run drawn at the temperature from the seed of its query and run, as `skillpg eval --runs
    /// --temperature --seed` draws it.
    async fn start_decoder(
        self,
        skills: Vec<RouteSkill>,
        target: usize,
        items: Vec<eval::EvalQuery>,
        holdout: f64,
        seed: u64,
    ) {
        let c = self.c;
        let Some((worker, model)) = c.models.loaded_decoder() else {
            return c.status.set("Load a decoder in the chapter's experiment below first: the lab runs the queries on it.".to_owned());
        };
        let (runs, temperature) = c
            .state
            .with_untracked(|s| (s.lab.runs.clamp(1, lab_run::MAX_RUNS), s.lab.temperature));
        let start = browser::now_ms();
        let mut first = Vec::with_capacity(items.len());
        let (mut choices, mut answers) = (
            Vec::with_capacity(items.len()),
            Vec::with_capacity(items.len()),
        );
        for (q, item) in items.iter().enumerate() {
            let (mut chose, mut said) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
            for run in 0..runs {
                c.status.set(format!(
                    "The decoder: query {} of {}, run {} of {runs}…",
                    q + 1,
                    items.len(),
                    run + 1
                ));
                let sampling = Sampling {
                    temperature,
                    seed: run_seed(seed, q, run),
                };
                match worker
                    .route_one(&skills, &item.query, DecoderMode::Chapter, Some(sampling))
                    .await
                {
                    Ok((decision, _, _)) => {
                        chose.push(decision.choice);
                        said.push(decision.answer().unwrap_or_default().to_owned());
                        if run == 0 {
                            first.push(decision);
                        }
                    }
                    Err(e) => return c.status.set(format!("The decoder run failed: {e}")),
                }
            }
            choices.push(chose);
            answers.push(said);
        }
        let decoder = lab_run::DecoderRuns {
            model,
            runs,
            temperature,
            choices,
            answers,
        };
        let sealed = c.state.with_untracked(|s| s.lab.sealed.clone());
        let run = LabRun::from_decoder(
            skills,
            target,
            items,
            holdout,
            seed,
            &sealed,
            first,
            decoder,
            browser::now_ms() - start,
        );
        c.status.set(format!(
            "Ran {} queries {runs} time(s) each on the decoder in {:.1} s.",
            run.items.len(),
            run.ms / 1000.0
        ));
        c.state.update(|s| s.lab.seal(run.validation_queries()));
        self.clear();
        self.run.set(Some(run));
    }

    /// Each word's weight in query `index`'s score: the description re-embedded without it.
    fn explain(self, index: usize) {
        let Some(run) = self.run.get_untracked() else {
            return;
        };
        spawn_local(async move {
            let Some(worker) = self.c.models.embedder(self.c.status).await else {
                return;
            };
            let start = browser::now_ms();
            match worker
                .embed(&lab_run::occlusion_texts(&run.skills[run.target]))
                .await
            {
                Ok((vectors, _)) => self.explained.set(Some((
                    index,
                    run.explain(index, &vectors),
                    browser::now_ms() - start,
                ))),
                Err(e) => self.c.status.set(format!("The explanation failed: {e}")),
            }
        });
    }

    /// Runs the draft description, pairs it with the current one on validation, and keeps both
    /// in the history.
    fn try_draft(self) {
        let Some(run) = self.run.get_untracked() else {
            return self
                .c
                .status
                .set("Run the eval set first: the draft is compared on its split.".to_owned());
        };
        if run.decoder.is_some() {
            return self.c.status.set("Drafts are compared with the embedding model: turn off \"On the decoder\" and run the eval set again.".to_owned());
        }
        let description = self
            .c
            .state
            .with_untracked(|s| s.lab.draft.trim().to_owned());
        if description.is_empty() {
            return self
                .c
                .status
                .set("Write a draft description first.".to_owned());
        }
        spawn_local(async move {
            let Some(worker) = self.c.models.embedder(self.c.status).await else {
                return;
            };
            let skill = RouteSkill {
                name: run.skills[run.target].name.clone(),
                description: description.clone(),
            };
            match worker.embed(&[skill.embedding_text()]).await {
                Ok((vectors, _)) => {
                    let Some(draft_vec) = vectors.first() else {
                        return self
                            .c
                            .status
                            .set("The worker embedded no text for the draft.".to_owned());
                    };
                    let results = run.draft_results(draft_vec, &description);
                    let cmp = run.compare(&results);
                    let stuffing = self.stuffing_of(&run, &description);
                    let fitted = skillpg_routing::explain::fitted(
                        &run.items,
                        &run.splits,
                        &run.results,
                        &results,
                        &run.skills[run.target].description,
                        &description,
                        &self.body_of(&run),
                    );
                    let changed = run
                        .items
                        .iter()
                        .zip(&run.splits)
                        .zip(run.results.iter().zip(&results))
                        .filter(|((_, s), _)| **s == Split::Train)
                        .filter_map(|((q, _), (a, b))| {
                            let (was, now) = (
                                q.should_trigger == a.triggered(),
                                q.should_trigger == b.triggered(),
                            );
                            (was != now).then(|| (q.query.clone(), q.should_trigger, was))
                        })
                        .collect();
                    let after_final_check = self
                        .c
                        .state
                        .with_untracked(|s| s.lab.revealed.contains(&run.key()));
                    // Pairing on validation is a look at each held-out query; the history keeps
                    // each draft once.
                    self.c.state.update(|s| {
                        s.lab.record(
                            run.as_variant(&run.skills[run.target].description, &run.results),
                        );
                        s.lab.record(run.as_variant(&description, &results));
                        s.lab
                            .look(&run.skills[run.target].name, run.validation_queries());
                    });
                    self.adoption.set(None);
                    self.draft.set(Some(DraftRun {
                        description,
                        results,
                        cmp,
                        stuffing,
                        fitted,
                        changed,
                        after_final_check,
                    }));
                }
                Err(e) => self
                    .c
                    .status
                    .set(format!("The draft could not be run: {e}")),
            }
        });
    }

    /// Keyword stuffing in `draft`: the words it takes from `run`'s train queries and from
    /// nowhere in the skill's description and body.
    fn stuffing_of(self, run: &LabRun, draft: &str) -> Option<skillpg_routing::explain::Stuffing> {
        let body = self.body_of(run);
        let train: Vec<&str> = run
            .items
            .iter()
            .zip(&run.splits)
            .filter(|(_, s)| **s == Split::Train)
            .map(|(q, _)| q.query.as_str())
            .collect();
        skillpg_routing::explain::stuffing(
            &run.skills[run.target].description,
            draft,
            &train,
            &body,
        )
    }

    /// The body of the run's skill (the skill's own words, which a draft may use freely).
    fn body_of(self, run: &LabRun) -> String {
        self.c.computed.with_untracked(|k| {
            k.analyses
                .iter()
                .find(|a| a.display_name() == run.skills[run.target].name)
                .and_then(|a| a.doc.as_ref().map(|d| d.body().to_owned()))
                .unwrap_or_default()
        })
    }

    /// Decides every loaded skill's should-trigger queries among all the loaded skills (each
    /// skill with an eval set), and keeps who captured whose.
    fn collisions(self) {
        let c = self.c;
        spawn_local(async move {
            let computed = c.computed.get_untracked();
            let skills: Vec<RouteSkill> = computed
                .analyses
                .iter()
                .map(RouteSkill::from_analysis)
                .collect();
            let read = c.state.with_untracked(|s| {
                let mut owned: Vec<(usize, eval::EvalQuery)> = Vec::new();
                for (i, k) in s.skills.iter().enumerate() {
                    let Some(text) = s.lab.sets.get(&k.dir_name) else {
                        continue;
                    };
                    // A set that does not read is named, not taken as empty.
                    let items = evalset::parse_lines(text).map_err(|e| {
                        format!("The eval set of {} could not be read: {e}", k.dir_name)
                    })?;
                    // Where a held-out query went is its outcome: each skill's validation part
                    // stays out until that split's final check.
                    let name = skills
                        .get(i)
                        .map_or(k.dir_name.as_str(), |r| r.name.as_str());
                    let key = lab_run::split_key(name, &eval::version(&items), s.lab.seed);
                    let revealed = s.lab.revealed.contains(&key);
                    let splits = s.lab.split(&items);
                    owned.extend(
                        items
                            .into_iter()
                            .zip(splits)
                            .filter(|(_, part)| revealed || *part == Split::Train)
                            .map(|(q, _)| (i, q)),
                    );
                }
                Ok::<_, String>((
                    owned,
                    skillpg_routing::decide::Thresholds {
                        tau: s.routing.tau,
                        delta: s.routing.delta,
                    },
                ))
            });
            let (owned, t) = match read {
                Ok(read) => read,
                Err(e) => return c.status.set(e),
            };
            if owned.is_empty() {
                return c
                    .status
                    .set("Write an eval set for at least one loaded skill first.".to_owned());
            }
            let Some(worker) = c.models.embedder(c.status).await else {
                return;
            };
            let queries: Vec<String> = owned.iter().map(|(_, q)| q.query.clone()).collect();
            let texts: Vec<String> = skills.iter().map(RouteSkill::embedding_text).collect();
            let res = async {
                Ok::<_, String>((
                    worker.embed(&texts).await?.0,
                    worker.embed(&queries).await?.0,
                ))
            }
            .await;
            match res {
                Ok((skill_vecs, query_vecs)) => {
                    let items: Vec<eval::EvalQuery> =
                        owned.iter().map(|(_, q)| q.clone()).collect();
                    let arm = lab_run::preview_arm(&skills, &items, &query_vecs, &skill_vecs, t);
                    self.captures.set(Some((
                        lab_run::captures(&skills, &owned, &arm),
                        lab_run::wrong_captures(&skills, &owned, &arm, t),
                    )));
                }
                Err(e) => c.status.set(format!("The collision run failed: {e}")),
            }
        });
    }

    /// The final check: reveals the validation queries of this run's split (a look at it).
    fn final_check(self) {
        let Some(run) = self.run.get_untracked() else {
            return;
        };
        self.c.state.update(|s| {
            s.lab.revealed.insert(run.key());
            s.lab
                .look(&run.skills[run.target].name, run.validation_queries());
        });
    }

    /// Appends each word the lost train queries use and the description lacks, and says what
    /// each does on train (validation is not consulted).
    fn suggest(self) {
        let Some(run) = self.run.get_untracked() else {
            return;
        };
        let (terms, texts) = run.suggestion_texts(12);
        if terms.is_empty() {
            return self.suggestions.set(Some(Vec::new()));
        }
        spawn_local(async move {
            let Some(worker) = self.c.models.embedder(self.c.status).await else {
                return;
            };
            match worker.embed(&texts).await {
                Ok((vectors, _)) => self
                    .suggestions
                    .set(Some(run.rank_suggestions(&terms, &vectors))),
                Err(e) => self
                    .c
                    .status
                    .set(format!("The suggestions could not be run: {e}")),
            }
        });
    }

    /// Prepares the draft for SKILL.md: the fix that sets `description` (YAML quoting checked),
    /// shown as a diff before it is written.
    fn adopt(self) {
        let Some(d) = self.draft.get_untracked() else {
            return;
        };
        let before = self.c.state.with_untracked(|s| {
            s.skills
                .get(s.selected)
                .and_then(|k| k.skill_md_shown())
                .filter(|(_, ro)| ro.is_none())
                .map(|(t, _)| t)
        });
        let Some(before) = before else {
            return self.c.status.set(
                "SKILL.md is not UTF-8 text here: the draft cannot be written into it.".to_owned(),
            );
        };
        let Some(fix) = skillpg_core::fix::set_field(&before, "description", &d.description) else {
            return self.c.status.set(
                "SKILL.md has no frontmatter to write the description into: add one first."
                    .to_owned(),
            );
        };
        let after = skillpg_core::fix::apply_one(&before, &fix);
        let diff = skillpg_core::fix::unified_diff(&before, &after, "SKILL.md");
        self.adoption.set(Some(Adoption {
            diff,
            before,
            after,
            applied: false,
        }));
    }

    /// The adoption kept in the state (after a reload): the undo, when the selected skill's
    /// SKILL.md still holds the description written.
    fn restored_adoption(self) -> Option<Adoption> {
        self.c.state.with(|s| {
            let adopted = s.lab.adopted.as_ref()?;
            let k = s
                .skills
                .get(s.selected)
                .filter(|k| k.dir_name == adopted.skill)?;
            let (now, _) = k.skill_md_shown().filter(|(_, ro)| ro.is_none())?;
            let doc = skillpg_core::frontmatter::SkillDoc::parse(&now);
            (doc.field_str("description") == Some(adopted.after.as_str())).then_some(())?;
            let fix = skillpg_core::fix::set_field(&now, "description", &adopted.before)?;
            let before = skillpg_core::fix::apply_one(&now, &fix);
            Some(Adoption {
                diff: skillpg_core::fix::unified_diff(&before, &now, "SKILL.md"),
                before,
                after: now,
                applied: true,
            })
        })
    }

    /// Writes (or, with `undo`, takes back) the adopted description; the eval set is run again
    /// with it.
    fn write_adoption(self, undo: bool) {
        let Some(a) = self
            .adoption
            .get_untracked()
            .or_else(|| self.restored_adoption())
        else {
            return;
        };
        let text = if undo {
            a.before.clone()
        } else {
            a.after.clone()
        };
        let described = |t: &str| {
            skillpg_core::frontmatter::SkillDoc::parse(t)
                .field_str("description")
                .unwrap_or_default()
                .to_owned()
        };
        let (was, now) = (described(&a.before), described(&a.after));
        self.c.state.update(|s| {
            if let Some(k) = s.skills.get_mut(s.selected)
                && let Some((_, bytes)) = k.files.iter_mut().find(|(p, _)| p == "SKILL.md")
            {
                *bytes = text.into_bytes();
                // Kept in the state, so the undo is still offered after a reload.
                s.lab.adopted = (!undo).then(|| lab_run::Adopted {
                    skill: k.dir_name.clone(),
                    before: was,
                    after: now,
                });
            }
        });
        self.adoption.set(Some(Adoption {
            applied: !undo,
            ..a
        }));
        self.c.status.set(if undo {
            "The description as it was is back in SKILL.md.".to_owned()
        } else {
            "The draft is now the description in SKILL.md; running the eval set with it.".to_owned()
        });
        self.start();
    }

    /// Reads a brought eval set: skill-creator's list, or a lab report (with its seed and split).
    fn import(self, text: &str) {
        match evalset::parse_eval_input(text) {
            Ok(input) => {
                self.c.state.update(|s| {
                    s.set_lab_evals(evalset::to_lines(&input.items));
                    s.lab.seed = input.seed.unwrap_or(s.lab.seed);
                    s.lab.holdout = input.holdout.unwrap_or(s.lab.holdout);
                });
                self.clear();
            }
            Err(e) => self
                .c
                .status
                .set(format!("The eval set could not be read: {e}")),
        }
    }
}

/// The lab's view.
#[component]
pub fn LabPanel() -> impl IntoView {
    let lab = Lab::new();
    let c = lab.c;
    let import = move |ev: leptos::ev::Event| {
        browser::read_picked_text(&ev, move |text| match text {
            Ok(text) => lab.import(&text),
            Err(e) => c.status.set(e),
        });
    };
    let export_evals = move |_| match c
        .state
        .with_untracked(|s| evalset::parse_lines(&s.lab_evals()))
    {
        Ok(items) => browser::download(
            "evals.json",
            "application/json",
            evalset::evals_json(&items).as_bytes(),
        ),
        Err(e) => c.status.set(format!("The eval set could not be read: {e}")),
    };
    let selected_name = move || {
        c.computed.with(|k| {
            k.analyses
                .get(c.state.with(|s| s.selected))
                .map(|a| a.display_name().to_owned())
                .unwrap_or_default()
        })
    };
    view! {
        <div class="lab" data-testid="lab">
            <p class="note">"Write queries that should and should not use the selected skill (skill-creator's trigger evals: about 20, 8–10 each way). They are split once, by the seed, into a train part to look at while you edit and a validation part to judge a change on. A query triggers the skill when the routing model chooses it among the loaded skills at τ and δ: τ is the least similarity (cosine) the best skill must reach, δ how far ahead of the second it must be (set both under Routing). A preview by a small embedding model, not any product's router."</p>
            <div class="controls">
                <button data-testid="lab-sample" on:click=move |_| lab.load_sample()>"Load sql-review and its eval set"</button>
                <label class="button">"Import an eval set (skill-creator JSON, or a lab report)"
                    <input type="file" class="visually-hidden" accept=".json" data-testid="lab-import" on:change=import/>
                </label>
                <button data-testid="lab-export-evals" on:click=export_evals>"Export the eval set (skill-creator JSON)"</button>
            </div>
            <label for="lab-evals">{move || format!("Eval set for {}: one query a line, `+ query` should trigger it, `- query` should not", selected_name())}</label>
            <textarea id="lab-evals" data-testid="lab-evals" rows="8" prop:value=c.slice(|s| s.lab_evals())
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    if let Some(Err(why)) = c.state.try_update(|s| s.type_lab_evals(v)) {
                        c.status.set(why);
                        // The box shows the text kept.
                        if let Some(area) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlTextAreaElement>(t).ok()) {
                            area.set_value(&c.state.with_untracked(|s| s.lab_evals()));
                        }
                    }
                }></textarea>
            <EvalSetErrors lab=lab/>
            <div class="controls">
                <label>"Seed " <input type="number" min="0" step="1" data-testid="lab-seed" prop:value=c.slice(|s| s.lab.seed.to_string())
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() { c.state.update(|s| s.lab.seed = v); lab.clear(); } }/></label>
                <span>{move || c.state.with(|s| format!("{:.0}% of each kind held out for validation", s.lab.holdout * 100.0))}</span>
                <span class="note" data-testid="lab-sealed" data-sealed=move || c.state.with(|s| s.lab.sealed.len().to_string())>{move || c.state.with(|s| match s.lab.sealed.len() {
                    0 => "A query held out once stays held out, for every seed and every skill's set: a new seed cannot show it.".to_owned(),
                    n => format!("{n} quer{} held out so far, and held out for good: a new seed or a neighbour's set cannot show {}.", if n == 1 { "y is" } else { "ies are" }, if n == 1 { "it" } else { "them" }),
                })}</span>
                <label><input type="checkbox" data-testid="lab-decoder" prop:checked=c.slice(|s| s.lab.decoder)
                    on:change=move |ev| { let on = event_target_checked(&ev); c.state.update(|s| s.lab.decoder = on); lab.clear(); }/>
                    " On the decoder loaded below"</label>
                <Show when=move || c.state.with(|s| s.lab.decoder)>
                    <label>"Runs " <input type="number" min="1" max=lab_run::MAX_RUNS step="1" data-testid="lab-runs" prop:value=c.slice(|s| s.lab.runs.to_string())
                        on:change=move |ev| { if let Ok(v) = event_target_value(&ev).trim().parse::<usize>() { c.state.update(|s| s.lab.runs = v.clamp(1, lab_run::MAX_RUNS)); } }/></label>
                    <label>"Temperature " <input type="number" min="0" max="2" step="0.1" data-testid="lab-temperature" prop:value=c.slice(|s| format!("{:.1}", s.lab.temperature))
                        on:change=move |ev| { if let Ok(v) = event_target_value(&ev).trim().parse::<f32>() { c.state.update(|s| s.lab.temperature = if v.is_finite() { v.clamp(0.0, 2.0) } else { 0.7 }); } }/></label>
                </Show>
                <button data-testid="lab-run" on:click=move |_| lab.start() disabled=move || lab.ui.loading.get() || lab.work.is_working()>{move || if lab.work.is_working() { "Running…" } else { "Run the eval set" }}</button>
                <Show when=move || lab.ui.loading.get()>
                    <super::progress::DownloadProgress download=lab.ui.download test_id="lab-model-progress" idle_label="Loading the model"/>
                </Show>
            </div>
            {move || lab.run.get().map(|run| view! { <LabResults lab=lab run=run/> })}
            <Draft lab=lab/>
            <Collisions lab=lab/>
        </div>
    }
}

/// Every line of the eval box that does not read, beside it (not only the first, and not in
/// the status line far above), and a note when the figures below are of another eval set than
/// the box holds now.
#[component]
fn EvalSetErrors(lab: Lab) -> impl IntoView {
    let c = lab.c;
    let text = Memo::new(move |_| c.state.with(|s| s.lab_evals()));
    let errors = Memo::new(move |_| {
        text.with(|t| {
            evalset::line_errors(t)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        })
    });
    let stale = move || {
        let run = lab.run.get()?;
        let now = text.with(|t| {
            evalset::parse_lines(t)
                .ok()
                .map(|items| eval::version(&items))
        });
        (now.as_deref() != Some(run.version.as_str())).then(|| {
            format!(
                "The figures below are of eval set {}, not of the set in the box now: run it again to see this one's.",
                run.version
            )
        })
    };
    view! {
        <Show when=move || errors.with(|e| !e.is_empty())>
            <ul class="eval-errors" data-testid="lab-eval-errors" role="alert">
                {move || errors.get().into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
            </ul>
        </Show>
        {move || stale().map(|why| view! { <p class="note" data-testid="lab-stale">{why}</p> })}
    }
}

/// A run's figures, queries, captors, explanation and the draft.
#[component]
fn LabResults(lab: Lab, run: LabRun) -> impl IntoView {
    let c = lab.c;
    let key = run.key();
    let revealed = Signal::derive(move || c.state.with(|s| s.lab.revealed.contains(&key)));
    // Before the final check the report holds the validation queries out (their text and kind
    // only), as `skillpg eval --held-out` prints it; after, the whole report.
    let for_export = run.clone();
    let export = move |_| {
        let report = for_export.report_json_for(revealed.get_untracked());
        browser::download("lab-report.json", "application/json", report.as_bytes());
    };
    let for_captured = run.clone();
    let captured = move || for_captured.captured_by(revealed.get());
    view! {
        <Figures lab=lab run=run.clone()/>
        <div class="controls">
            <button data-testid="lab-export-report" on:click=export>{move || if revealed.get() { "Export the report (skillpg eval's JSON)" } else { "Export the report (skillpg eval --held-out's JSON: validation held out)" }}</button>
            {run.decoder.is_none().then(|| view! { <button data-testid="lab-suggest" on:click=move |_| lab.suggest()>"Suggest missing words"</button> })}
        </div>
        {move || {
            let captured = captured();
            (!captured.is_empty()).then(|| view! {
                <p data-testid="lab-captured">{move || if revealed.get() { "Should-trigger queries captured by another skill: " } else { "Should-trigger train queries captured by another skill (validation held out): " }}
                    {captured.iter().map(|(name, n)| format!("{name} ({n})")).collect::<Vec<_>>().join(", ")}</p>
            })
        }}
        {move || lab.suggestions.get().map(|list| view! { <Suggestions list=list/> })}
        <Queries lab=lab run=run.clone()/>
        {move || lab.explained.get().map(|(index, weights, ms)| view! { <Explanation run=run.clone() index=index weights=weights ms=ms/> })}
    }
}

/// "83.3% [43.6, 97.0]", or a dash when the part has no such queries.
fn rate(v: Option<f64>, ci: skillpg_stats::Interval) -> String {
    v.map_or_else(
        || "–".to_owned(),
        |v| {
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                v * 100.0,
                ci.low * 100.0,
                ci.high * 100.0
            )
        },
    )
}

/// Train and validation: precision, recall and accuracy with their Wilson intervals, the
/// split's version, seed and counts, and how many times validation has been consulted.
#[component]
fn Figures(lab: Lab, run: LabRun) -> impl IntoView {
    let c = lab.c;
    let row = |label: &'static str, part: Split, run: &LabRun| {
        let m = run.metrics(part);
        let key = if part == Split::Train {
            "train"
        } else {
            "validation"
        };
        view! {
            <tr data-testid=format!("lab-{key}")>
                <th scope="row">{label}</th>
                <td>{m.n}</td>
                <td data-testid=format!("lab-{key}-precision")>{rate(m.precision(), m.precision_interval())}</td>
                <td data-testid=format!("lab-{key}-recall")>{rate(m.recall(), m.recall_interval())}</td>
                <td data-testid=format!("lab-{key}-accuracy")>{rate(m.accuracy(), m.accuracy_interval())}</td>
            </tr>
        }
    };
    let [(t_should, t_not), (v_should, v_not)] = run.counts();
    let skill = run.skills[run.target].name.clone();
    let held: Vec<eval::EvalQuery> = run.validation_queries().cloned().collect();
    // Looks are counted per held-out query: adding a query to the set does not forget them.
    let per_query = Memo::new(move |_| c.state.with(|s| s.lab.looks_at(&skill, &held)));
    let looks = Signal::derive(move || per_query.with(|l| l.iter().copied().max().unwrap_or(0)));
    let seen_often = Signal::derive(move || {
        per_query.with(|l| (l.iter().filter(|&&n| n >= 3).count(), l.len()))
    });
    let split_line = format!(
        "Eval set {} · seed {}: train {} ({t_should} should trigger, {t_not} should not), validation {} ({v_should} and {v_not}), held out at {:.0}% of each kind.",
        run.version,
        run.seed,
        t_should + t_not,
        v_should + v_not,
        run.holdout * 100.0
    );
    view! {
        <p data-testid="lab-split" data-version=run.version.clone() data-seed=run.seed.to_string()>{split_line}</p>
        <div class="table-scroll">
            <table data-testid="lab-figures">
                <caption>"Trigger evals, 95% Wilson intervals (small sets have wide ones); validation as totals only"</caption>
                <thead><tr><th scope="col">"Part"</th><th scope="col">"Queries"</th><th scope="col">"Precision"</th><th scope="col">"Recall"</th><th scope="col">"Accuracy"</th></tr></thead>
                <tbody>{row("train", Split::Train, &run)}{row("validation", Split::Validation, &run)}</tbody>
            </table>
        </div>
        <p data-testid="lab-looks" data-looks=move || looks.get().to_string()>{move || {
            let n = looks.get();
            let times = if n == 1 { "once".to_owned() } else { format!("{n} times") };
            let (often, of) = seen_often.get();
            format!("Validation seen {times} on this split (each held-out query is counted on its own, so adding queries does not forget the looks: {often} of these {of} have been consulted 3 or more times).")
        }}</p>
        {
            move || {
                let (often, of) = seen_often.get();
                (often * 2 > of).then(|| view! {
                    <p class="warning" data-testid="lab-many-looks">{format!(
                        "A held-out query of this split has been consulted up to {} times (counted over every seed and version of the set), and most of the validation set ({often} of {of} queries) has been seen 3 or more times. Each look is a chance for luck to pass for progress: the more drafts you judge on the same held-out queries, the more the best of them will look better than it is (multiple comparisons). Rank drafts by train, consult validation once for the one you would keep, or add fresh queries before judging again.",
                        looks.get()
                    )}</p>
                })
            }
        }
    }
}

/// Words the description lacks, with what appending each does on train.
#[component]
fn Suggestions(list: Vec<(String, usize, usize)>) -> impl IntoView {
    if list.is_empty() {
        return view! { <p data-testid="lab-suggestions">"No word to suggest: no should-trigger train query was lost, or the lost ones use only words the description has."</p> }.into_any();
    }
    view! {
        <div data-testid="lab-suggestions">
            <p>"Words the lost should-trigger train queries use and the description lacks, each appended and judged on train only (validation is not consulted):"</p>
            <ul>{list.into_iter().map(|(term, fixed, broken)| view! {
                <li data-testid="lab-suggestion" data-term=term.clone()>{format!("“{term}”: {fixed} train quer{} turned right, {broken} turned wrong", if fixed == 1 { "y" } else { "ies" })}</li>
            }).collect_view()}</ul>
        </div>
    }
    .into_any()
}

/// The train queries (and the validation ones after the final check), the wrong ones first:
/// whether each went right, the skill chosen, the margin to the bar, why a lost one went where it
/// did, and a button that explains its score.
#[component]
fn Queries(lab: Lab, run: LabRun) -> impl IntoView {
    let c = lab.c;
    let key = run.key();
    let revealed = Signal::derive(move || c.state.with(|s| s.lab.revealed.contains(&key)));
    let held: usize = run
        .splits
        .iter()
        .filter(|s| **s == Split::Validation)
        .count();
    let rows = move || {
        let show_validation = revealed.get();
        let mut order: Vec<usize> = eval::near_misses(&run.items, &run.results, f32::INFINITY)
            .into_iter()
            .map(|(i, _)| i)
            .filter(|&i| show_validation || run.splits[i] == Split::Train)
            .collect();
        order.sort_by_key(|&i| run.items[i].should_trigger == run.results[i].triggered());
        let chosen = run.chosen();
        // Word weights need the embedding model's vectors; a decoder's run has none.
        let embedded = run.decoder.is_none();
        let rates = run.decoder.as_ref().map(|d| d.runs);
        order
            .into_iter()
            .map(|i| {
                let (q, r) = (&run.items[i], run.results[i]);
                let right = q.should_trigger == r.triggered();
                let split = if run.splits[i] == Split::Train { "train" } else { "validation" };
                let who = chosen[i].map_or(skillpg_routing::NONE.to_owned(), |k| run.skills[k].name.clone());
                let why = run.why_lost(i);
                view! {
                    <tr data-testid="lab-query" data-split=split data-right=right.to_string() class:bad=!right>
                        <td>{split}</td>
                        <td>{if right { "✓ right" } else { "✗ wrong" }}</td>
                        <td>{if q.should_trigger { "should trigger" } else { "should not" }}</td>
                        <td>{who}</td>
                        <td class="num">{match rates { Some(n) => format!("{:.0} of {n} runs", r.trigger_rate * n as f64), None => format!("{:+.3}", r.margin) }}</td>
                        <td class="query">{q.query.clone()}{why.map(|w| view! { <span class="why" data-testid="lab-why">{format!(" — {w}")}</span> })}</td>
                        <td>{embedded.then(|| view! { <button data-testid="lab-explain" on:click=move |_| lab.explain(i)>"Which words?"</button> })}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <div class="table-scroll">
            <table data-testid="lab-queries">
                <caption>"Queries, wrong ones first, then by how near the bar they are (margin: the skill's score less what it had to beat)"</caption>
                <thead><tr><th scope="col">"Part"</th><th scope="col">"Result"</th><th scope="col">"Expected"</th><th scope="col">"Chosen"</th><th scope="col">"Margin"</th><th scope="col">"Query"</th><th scope="col"></th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {move || (!revealed.get() && held > 0).then(|| view! {
            <p class="controls" data-testid="lab-held-out">
                {format!("{held} validation queries are held out: edit against the train queries above, and judge a draft on validation's totals. ")}
                <button data-testid="lab-final-check" on:click=move |_| lab.final_check()>"Final check: show the validation queries"</button>
            </p>
        })}
    }
}

/// The description drawn with each word's weight in one query's score, and its phrases.
#[component]
fn Explanation(run: LabRun, index: usize, weights: Vec<(Unit, f32)>, ms: f64) -> impl IntoView {
    let description = run.skills[run.target].description.clone();
    let max = weights.iter().map(|(_, w)| w.abs()).fold(1e-6f32, f32::max);
    let colour = move |w: f32| {
        let alpha = (w.abs() / max * 0.6).min(0.6);
        if w >= 0.0 {
            format!("rgba(30, 150, 60, {alpha:.2})")
        } else {
            format!("rgba(200, 40, 40, {alpha:.2})")
        }
    };
    let mut at = 0;
    let mut parts = Vec::new();
    for (unit, w) in weights.iter().filter(|(u, _)| u.words == 1) {
        parts
            .push(view! { <span>{description[at..unit.range.start].to_owned()}</span> }.into_any());
        parts.push(
            view! {
                <span class="lab-word" data-testid="lab-word" data-weight=format!("{w:.4}") style:background-color=colour(*w) title=format!("“{}” {w:+.4} to the score", unit.text)>
                    {description[unit.range.clone()].to_owned()}
                </span>
            }
            .into_any(),
        );
        at = unit.range.end;
    }
    parts.push(view! { <span>{description[at..].to_owned()}</span> }.into_any());
    let mut phrases: Vec<(Unit, f32)> = weights
        .iter()
        .filter(|(u, _)| u.words > 1)
        .cloned()
        .collect();
    phrases.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
    let top: Vec<String> = {
        let mut sorted = weights.clone();
        sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
        sorted
            .iter()
            .take(3)
            .filter(|(_, w)| *w > 0.0)
            .map(|(u, w)| format!("“{}” {w:+.3}", u.text))
            .collect()
    };
    view! {
        <div class="lab-explanation" data-testid="lab-explanation">
            <p>{format!("Which words carry “{}”: each content word and each run of two or three dropped in turn and the description re-embedded ({} embeddings, {ms:.0} ms; words like “the” and “for” are skipped). Green pulls the query in, red pushes it away.", run.items[index].query, weights.len())}</p>
            <p class="lab-description">{parts}</p>
            <ul class="lab-phrases">{phrases.into_iter().take(5).map(|(u, w)| view! {
                <li data-testid="lab-phrase" data-weight=format!("{w:.4}")>{format!("“{}” {w:+.3}", u.text)}</li>
            }).collect_view()}</ul>
            <p>{if top.is_empty() { "No word pulls this query in.".to_owned() } else { format!("Strongest: {}", top.join(", ")) }}</p>
        </div>
    }
}

/// What the validation part can detect, said before a draft is judged: the fewest queries a
/// draft must turn (and none the other way) for the sign test to show it at 5%, and the size
/// of set that would show a draft fixing one query in five.
fn detectable_words(n: u64) -> String {
    let wanted = skillpg_stats::cases_to_show(0.2, 0.05).unwrap_or(0);
    match skillpg_stats::fewest_wins_to_show(n, 0.05) {
        Some(w) => format!(
            "With {n} validation queries, a draft must turn at least {w} of them right (and none wrong) to show a difference at 5%; a draft that fixes one query in five needs about {wanted} validation queries to show."
        ),
        None => format!(
            "With {n} validation queries no draft can show a difference at 5% (it takes 6 turned, none the other way): a draft that fixes one query in five needs about {wanted}; add queries."
        ),
    }
}

/// The draft beside the current description, its paired result on validation with the verdict
/// in words, the overfitting warning, adopting it into SKILL.md, and the history of drafts.
#[component]
fn Draft(lab: Lab) -> impl IntoView {
    let c = lab.c;
    let current = move || {
        c.computed.with(|k| {
            k.analyses
                .get(c.state.with(|s| s.selected))
                .and_then(|a| a.description().map(str::to_owned))
                .unwrap_or_default()
        })
    };
    // One skill's rows: another skill's drafts and any count held out are not this export's.
    let export_history = move |_| {
        let name = c.computed.with_untracked(|k| {
            k.analyses
                .get(c.state.with_untracked(|s| s.selected))
                .map(|a| a.display_name().to_owned())
                .unwrap_or_default()
        });
        let json = c.state.with_untracked(|s| {
            serde_json::to_string_pretty(&s.lab.history_of(&name)).unwrap_or_default()
        });
        browser::download(
            &format!("lab-history-{name}.json"),
            "application/json",
            json.as_bytes(),
        );
    };
    view! {
        <div class="two-col">
            <div><h4>"Description as written"</h4><p class="lab-description">{current}</p></div>
            <div>
                <label for="lab-draft"><h4>"Draft"</h4></label>
                <textarea id="lab-draft" data-testid="lab-draft" rows="5" prop:value=c.slice(|s| s.lab.draft.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); c.state.update(|s| s.lab.draft = v); }></textarea>
                <button data-testid="lab-try-draft" on:click=move |_| lab.try_draft()>"Try the draft"</button>
            </div>
        </div>
        {move || lab.run.get().map(|run| {
            let [_, (v_should, v_not)] = run.counts();
            view! { <p class="note" data-testid="lab-detectable">{detectable_words((v_should + v_not) as u64)}</p> }
        })}
        {move || lab.draft.get().map(|d| {
            let p = d.cmp.paired;
            let paired = format!(
                "On the validation part only: {} right under both, {} only as written, {} only with the draft, {} under neither; exact sign test p = {:.4}. ",
                p.both, p.only_a, p.only_b, p.neither, d.cmp.p_value,
            );
            let warn = d.cmp.verdict.is_warning();
            view! {
                <p data-testid="lab-draft-result" class:warning=warn role=if warn { "alert" } else { "status" }>{paired}<strong data-testid="lab-verdict">{d.cmp.verdict_words()}</strong></p>
                <p data-testid="lab-summary">{d.cmp.summary_words()}</p>
                {d.cmp.train_loss_words().map(|why| view! { <p class="warning" data-testid="lab-train-loss">{format!("Train: {why}.")}</p> })}
                {d.cmp.overfit_words().map(|why| view! { <p class="warning" role="alert" data-testid="lab-overfit">{format!("Overfitting: {why}.")}</p> })}
                {d.stuffing.as_ref().map(|st| view! { <p class="warning" data-testid="lab-stuffing">{format!("Keyword stuffing: {}.", st.words())}</p> })}
                {d.fitted.as_ref().map(|f| view! { <p class="warning" data-testid="lab-fitted">{format!("Fitted to the train queries: {}.", f.words())}</p> })}
                {d.cmp.overfit_silence_words().map(|why| view! { <p class="note" data-testid="lab-overfit-silent">{format!("Overfitting: {why}.")}</p> })}
                {d.after_final_check.then(|| view! { <p class="warning" data-testid="lab-after-final-check">"Judged on revealed queries: this split's final check was made before this draft, so its validation verdict is no longer a test. Add fresh queries (or start a new eval set) to test it."</p> })}
                {(!d.changed.is_empty()).then(|| view! {
                    <table data-testid="lab-changed">
                        <caption>"Train queries the draft changes, beside the description as written"</caption>
                        <thead><tr><th scope="col">"Query"</th><th scope="col">"Should trigger"</th><th scope="col">"As written"</th><th scope="col">"Draft"</th></tr></thead>
                        <tbody>{d.changed.iter().map(|(q, should, was)| view! {
                            <tr data-testid="lab-changed-row" class:bad=*was>
                                <td class="query">{q.clone()}</td><td>{if *should { "yes" } else { "no" }}</td>
                                <td>{if *was { "right" } else { "wrong" }}</td><td>{if *was { "wrong" } else { "right" }}</td>
                            </tr>
                        }).collect_view()}</tbody>
                    </table>
                })}
                <p class="note" data-testid="lab-one-split">{eval::ONE_SPLIT_ONLY}</p>
                <p class="note">{format!("Draft “{}” over {} queries.", d.description, d.results.len())}</p>
                <button data-testid="lab-adopt" on:click=move |_| lab.adopt()>"Use this description"</button>
            }
        })}
        {move || lab.adoption.get().or_else(|| lab.restored_adoption()).map(|a| view! {
            <div data-testid="lab-adoption">
                <pre class="diff" data-testid="lab-adopt-diff">{a.diff.clone()}</pre>
                {if a.applied {
                    view! { <button data-testid="lab-adopt-undo" on:click=move |_| lab.write_adoption(true)>"Undo: put the description back"</button> }.into_any()
                } else {
                    view! { <button data-testid="lab-adopt-apply" on:click=move |_| lab.write_adoption(false)>"Write it into SKILL.md"</button> }.into_any()
                }}
            </div>
        })}
        <History lab=lab on_export=export_history/>
    }
}

/// The descriptions tried: those of the current split ranked by train (with validation shown
/// only after the final check), then those of other splits, marked and not compared.
#[component]
fn History(lab: Lab, on_export: impl Fn(leptos::ev::MouseEvent) + 'static) -> impl IntoView {
    let c = lab.c;
    // The selected skill, and the split its eval set and seed make now: known from the state
    // alone, so a reload shows the same rows as before it, before any run.
    let current = move || {
        let (name, description) = c.computed.with(|k| {
            k.analyses
                .get(c.state.with(|s| s.selected))
                .map(|a| {
                    (
                        a.display_name().to_owned(),
                        a.description().unwrap_or_default().to_owned(),
                    )
                })
                .unwrap_or_default()
        });
        let key = c.state.with(|s| {
            let version = evalset::parse_lines(&s.lab_evals())
                .map(|items| eval::version(&items))
                .unwrap_or_default();
            lab_run::split_key(&name, &version, s.lab.seed)
        });
        (name, description, key)
    };
    view! {
        <div class="table-scroll">
            <table data-testid="lab-history">
                <caption>{move || {
                    let (name, _, key) = current();
                    let checked = c.state.with(|s| s.lab.revealed.contains(&key));
                    let dropped = c.state.with(|s| s.lab.dropped.get(&name).copied().unwrap_or(0));
                    format!(
                        "Descriptions tried for {name}, best on train first (kept in the link){}{} ",
                        if checked { "; the final check was made on this split" } else { "" },
                        if dropped > 0 { format!("; its {dropped} oldest past {} were dropped", lab_run::MAX_HISTORY) } else { String::new() }
                    )
                }} <button on:click=on_export data-testid="lab-export-history">"Export"</button></caption>
                <thead><tr><th scope="col">"Description"</th><th scope="col">"Seed"</th><th scope="col">"Eval set"</th><th scope="col">"Train right"</th><th scope="col">"Validation right"</th></tr></thead>
                <tbody>
                    {move || {
                        let (name, description, key) = current();
                        c.state.with(|s| {
                            let revealed = s.lab.revealed.contains(&key);
                            s.lab.ranked(&key).into_iter().filter(|(v, _)| v.skill == name).map(|(v, same)| {
                                let validation = if !same {
                                    "another split: not compared".to_owned()
                                } else if let (true, Some((right, n))) = (revealed, v.validation) {
                                    format!("{right} of {n}")
                                } else {
                                    "held out until the final check".to_owned()
                                };
                                let as_written = v.description == description;
                                view! {
                                    <tr data-testid="lab-history-row" data-seed=v.seed.to_string() data-version=v.version.clone() data-current=as_written.to_string() class:other=!same>
                                        <td class="query">{v.description.clone()}{as_written.then(|| view! { <strong>" (as written now)"</strong> })}</td><td>{v.seed}</td><td>{v.version.clone()}</td>
                                        <td>{format!("{} of {}", v.train.0, v.train.1)}</td><td>{validation}</td>
                                    </tr>
                                }
                            }).collect_view()
                        })
                    }}
                </tbody>
            </table>
        </div>
    }
}

/// Across the loaded skills that have an eval set: each skill's should-trigger queries that
/// another skill captured, pair by pair, and the should-not queries each skill took itself.
#[component]
fn Collisions(lab: Lab) -> impl IntoView {
    let c = lab.c;
    let with_sets = move || {
        c.state.with(|s| {
            s.skills
                .iter()
                .filter(|k| {
                    s.lab
                        .sets
                        .get(&k.dir_name)
                        .is_some_and(|t| !t.trim().is_empty())
                })
                .count()
        })
    };
    view! {
        <div class="controls">
            <button data-testid="lab-collisions" on:click=move |_| lab.collisions()>"Which skill captures whose queries?"</button>
            <span>{move || format!("{} loaded skill(s) have an eval set; select a skill to write its own.", with_sets())}</span>
        </div>
        {move || lab.captures.get().map(|(captures, wrong)| view! {
            {if captures.is_empty() {
                view! { <p data-testid="lab-no-collisions">"No skill captures another's should-trigger queries."</p> }.into_any()
            } else {
                let rows = captures.into_iter().map(|k| view! {
                    <tr data-testid="lab-collision" title=k.queries.join("\n")>
                        <td>{k.owner}</td><td>{k.captor}</td><td>{format!("{} of {}", k.count, k.of)}</td><td class="query">{k.queries.join(" · ")}</td>
                    </tr>
                }).collect_view();
                view! {
                    <div class="table-scroll">
                        <table data-testid="lab-collisions-table">
                            <caption>"Should-trigger queries that went to another skill"</caption>
                            <thead><tr><th scope="col">"Skill"</th><th scope="col">"Captured by"</th><th scope="col">"Queries"</th><th scope="col">"Which"</th></tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                }.into_any()
            }}
            {if wrong.is_empty() {
                view! { <p data-testid="lab-no-wrong-captures">"No skill takes a query its own eval set says it should not."</p> }.into_any()
            } else {
                let rows = wrong.into_iter().map(|w| view! {
                    <tr data-testid="lab-wrong-capture"><td>{w.captor}</td><td class="query">{w.query}</td><td>{w.should_go_to}</td></tr>
                }).collect_view();
                view! {
                    <div class="table-scroll">
                        <table data-testid="lab-wrong-captures">
                            <caption>"Should-not queries a skill took itself (false positives), and where each should have gone"</caption>
                            <thead><tr><th scope="col">"Taken by"</th><th scope="col">"Query"</th><th scope="col">"Should have gone to"</th></tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                }.into_any()
            }}
        })}
    }
}

#[cfg(test)]
mod tests {
    use super::detectable_words;

    #[test]
    fn the_lab_says_what_its_validation_part_can_detect() {
        assert!(
            detectable_words(8).starts_with(
                "With 8 validation queries, a draft must turn at least 6 of them right"
            ),
            "{}",
            detectable_words(8)
        );
        assert!(detectable_words(8).ends_with("needs about 30 validation queries to show."));
        assert!(detectable_words(4).contains("no draft can show a difference"));
    }
}
