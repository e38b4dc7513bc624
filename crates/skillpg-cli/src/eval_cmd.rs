//! `skillpg eval`: the description lab from a terminal. skill-creator's trigger evals for one
//! skill, routed among the skills given (the embedding model, or a decoder's greedy answer),
//! split by a seed into train and validation, with precision, recall and accuracy per part and
//! the near misses; with `--draft`, a new description against the current one, paired on the
//! validation part only.

use std::fmt::Write;
use std::path::PathBuf;

use skillpg_routing::eval::{self, EvalQuery, EvalReport, EvalRun, PartJson, QueryRow, Split};
use skillpg_routing::outcome::{Arm, Descriptions};
use skillpg_routing::skills::RouteSkill;

use crate::route_cmd::{self, LoadedRouter, RouterArgs};

/// The command's arguments.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pub router: RouterArgs,
    /// The eval set: skill-creator's `[{"query", "should_trigger"}]`, the lab's lines (`+ query`
    /// should trigger, `- query` should not), or a lab report exported by the page or by
    /// `--format json`.
    #[arg(long)]
    pub evals: PathBuf,
    /// The skill evaluated, by name (the first skill found when left out).
    #[arg(long)]
    pub skill: Option<String>,
    /// The share of each class held out for validation (a lab report's own when left out,
    /// else 0.4).
    #[arg(long)]
    pub holdout: Option<f64>,
    /// The split's seed (a lab report's own when left out, else 42).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A draft description for the skill, compared with the current one on validation.
    #[arg(long)]
    pub draft: Option<String>,
    /// With a decoder: how many times each query runs (skill-creator runs each 3 times); a
    /// query triggers when at least half its runs choose the skill.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// With a decoder: the sampling temperature of repeated runs (0: greedy). Each run draws
    /// from the seed of its query and run, so the same `--seed` gives the same answers.
    #[arg(long, default_value_t = 0.0)]
    pub temperature: f32,
    /// Hold the validation queries' outcomes out of the report (their text and kind only, their
    /// totals kept), as the page's lab exports it before its final check.
    #[arg(long)]
    pub held_out: bool,
    /// Near misses: queries right by less than this margin are listed with the wrong ones.
    #[arg(long, default_value_t = 0.05)]
    pub near: f32,
    /// The skill, and the other skills installed with it (they compete for the queries).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// Runs the lab: the report as JSON (`{"current", "draft", "comparison"}` with `--draft`), or
/// as text.
pub fn run(args: &EvalArgs, json: bool) -> Result<String, String> {
    let skills = route_cmd::load_skills(&args.paths)?;
    let target = match &args.skill {
        Some(name) => skills
            .iter()
            .position(|s| &s.name == name)
            .ok_or_else(|| format!("no skill named {name} among the paths given"))?,
        None => 0,
    };
    let text = std::fs::read_to_string(&args.evals)
        .map_err(|e| format!("{}: {e}", args.evals.display()))?;
    let input = skillpg_routing::evalset::parse_eval_input(&text)
        .map_err(|e| format!("{}: {e}", args.evals.display()))?;
    let holdout = args
        .holdout
        .or(input.holdout)
        .unwrap_or(eval::DEFAULT_HOLDOUT);
    let seed = args.seed.or(input.seed).unwrap_or(eval::DEFAULT_SEED);
    let requests = eval::as_requests(&input.items, &skills[target].name);
    if args.held_out && args.draft.is_some() {
        return Err(
            "--held-out is for the report alone: a draft's comparison is judged on the validation queries"
                .to_owned(),
        );
    }
    let router = LoadedRouter::new(&args.router)?;
    let mut sets: Vec<(Vec<RouteSkill>, Descriptions)> =
        vec![(skills.clone(), Descriptions::AsWritten)];
    if let Some(draft) = &args.draft {
        let mut drafted = skills.clone();
        drafted[target].description = draft.clone();
        sets.push((drafted, Descriptions::Other));
    }
    let near = if router.is_decoder() { -1.0 } else { args.near };
    if args.runs > 1 || args.temperature > 0.0 {
        // A decoder's repeated runs: drafts are compared on one run of each description.
        if args.draft.is_some() {
            return Err(
                "--draft compares one run of each description: leave out --runs and --temperature"
                    .to_owned(),
            );
        }
        let (arm, (choices, answers)) =
            router.sampled_runs(&skills, &requests, args.runs.max(1), args.temperature, seed)?;
        let sampled = Some(eval::Sampled {
            runs: args.runs.max(1),
            temperature: args.temperature,
            choices: &choices,
            answers: &answers,
        });
        let run = EvalRun {
            model: &router.model,
            method: router.method(),
            holdout,
            seed,
            items: &input.items,
            arm: &arm,
            target,
            description: &skills[target].description,
            sampled,
        };
        let report = run.report();
        let report = if args.held_out {
            eval::held_out_report(&report)
        } else {
            report
        };
        return Ok(if json {
            eval::report_json(&report)
        } else {
            text_report(&report, None, near)
        });
    }
    let borrowed: Vec<(&[RouteSkill], Descriptions)> =
        sets.iter().map(|(s, d)| (s.as_slice(), *d)).collect();
    let arms = router.run_arms(&borrowed, &requests)?;
    let report = |arm: &Arm, description: &str| {
        EvalRun {
            model: &router.model,
            method: router.method(),
            holdout,
            seed,
            items: &input.items,
            arm,
            target,
            description,
            sampled: None,
        }
        .report()
    };
    let current = report(&arms[0], &skills[target].description);
    let Some(draft) = args.draft.as_deref() else {
        let current = if args.held_out {
            eval::held_out_report(&current)
        } else {
            current
        };
        return Ok(if json {
            eval::report_json(&current)
        } else {
            text_report(&current, None, near)
        });
    };
    let drafted = report(&arms[1], draft);
    let draft_on = DraftOn {
        args,
        items: &input.items,
        description: &skills[target].description,
        name: &skills[target].name,
        near,
    };
    draft_on.compare(&current, &drafted, draft, json)
}

/// What judging a draft needs besides the two reports.
struct DraftOn<'a> {
    args: &'a EvalArgs,
    items: &'a [EvalQuery],
    description: &'a str,
    name: &'a str,
    near: f32,
}

impl DraftOn<'_> {
    /// The draft against the current description: the paired comparison, keyword stuffing and
    /// why it is judged on one split only, as JSON or text.
    fn compare(
        &self,
        current: &EvalReport,
        drafted: &EvalReport,
        draft: &str,
        json: bool,
    ) -> Result<String, String> {
        let (args, near) = (self.args, self.near);
        let results = |r: &EvalReport| -> Vec<eval::QueryResult> {
            r.queries.iter().map(QueryRow::result).collect()
        };
        let splits: Vec<Split> = current.queries.iter().map(|q| q.split).collect();
        // The embedding router's changes within its close-call bound are too close to call; a
        // decoder's results carry no margin (`near` is negative for one).
        let close = (near >= 0.0).then(skillpg_routing::bench_report::close_call_bound);
        let cmp = eval::compare_variants_within(
            self.items,
            &splits,
            &results(current),
            &results(drafted),
            close,
        );
        let train_queries: Vec<&str> = self
            .items
            .iter()
            .zip(&splits)
            .filter(|(_, s)| **s == Split::Train)
            .map(|(q, _)| q.query.as_str())
            .collect();
        let stuffing = skillpg_routing::explain::stuffing(
            self.description,
            draft,
            &train_queries,
            &body_of(&args.paths, self.name),
        );
        let fitted = skillpg_routing::explain::fitted(
            self.items,
            &splits,
            &results(current),
            &results(drafted),
            self.description,
            draft,
            &body_of(&args.paths, self.name),
        );
        if json {
            let value = serde_json::json!({
                "current": current,
                "draft": drafted,
                "comparison": {
                    "both": cmp.paired.both, "only_current": cmp.paired.only_a, "only_draft": cmp.paired.only_b, "neither": cmp.paired.neither,
                    "p_value": cmp.p_value, "overfits": cmp.overfits(), "overfit": cmp.overfit,
                    "train_gain": cmp.train_gain, "validation_gain": cmp.validation_gain,
                    "train_won": cmp.train_paired.only_b, "train_lost": cmp.train_paired.only_a, "train_p_value": cmp.train_p_value,
                    "verdict": cmp.verdict_words(), "warning": cmp.verdict.is_warning(), "too_close": cmp.too_close,
                    "summary": cmp.summary_words(),
                    "train_loss": cmp.train_loss_words(),
                    "stuffing": stuffing,
                    "stuffing_words": stuffing.as_ref().map(skillpg_routing::explain::Stuffing::words),
                    "one_split": eval::ONE_SPLIT_ONLY,
                    "fitted_words": fitted.as_ref().map(|f| f.words.clone()),
                    "fitted": fitted.as_ref().map(skillpg_routing::explain::Fitted::words),
                    "overfit_silent": cmp.overfit_silence_words(),
                },
            });
            return Ok(serde_json::to_string_pretty(&value).map_err(|e| e.to_string())? + "\n");
        }
        let mut out = text_report(current, Some((drafted, &cmp)), near);
        if let Some(s) = &stuffing {
            let _ = writeln!(out, "warning: {}", s.words());
        }
        if let Some(f) = &fitted {
            let _ = writeln!(out, "warning: {}", f.words());
        }
        if let Some(why) = cmp.overfit_silence_words() {
            let _ = writeln!(out, "note: {why}");
        }
        let _ = writeln!(out, "{}", eval::ONE_SPLIT_ONLY);
        Ok(out)
    }
}

/// The body of the skill named `name` among `paths` (empty when it cannot be read): the
/// stuffing signal asks which words are the skill's own.
fn body_of(paths: &[PathBuf], name: &str) -> String {
    let Ok(inputs) = crate::project::load(paths) else {
        return String::new();
    };
    inputs
        .iter()
        .flat_map(|(i, _)| &i.skills)
        .map(skillpg_core::analyze)
        .find(|a| a.display_name() == name)
        .and_then(|a| a.doc.as_ref().map(|d| d.body().to_owned()))
        .unwrap_or_default()
}

fn part_line(out: &mut String, label: &str, p: &PartJson) {
    let pct = |v: Option<f64>, ci: [f64; 2]| match v {
        Some(v) => format!(
            "{:>5.1}% [{:.1}, {:.1}]",
            v * 100.0,
            ci[0] * 100.0,
            ci[1] * 100.0
        ),
        None => format!("{:>22}", "–"),
    };
    let _ = writeln!(
        out,
        "{label:<11} {:>3}  {:<22}  {:<22}  {:<22}",
        p.n,
        pct(p.precision, p.precision_ci),
        pct(p.recall, p.recall_ci),
        pct(p.accuracy, p.accuracy_ci)
    );
}

/// The lab's figures, its near misses and the draft's paired result, for a terminal.
fn text_report(
    r: &EvalReport,
    draft: Option<(&EvalReport, &eval::VariantComparison)>,
    near: f32,
) -> String {
    let mut out = String::new();
    let runs = if r.runs > 1 || r.temperature > 0.0 {
        format!(
            ", {} run(s) a query at temperature {}",
            r.runs, r.temperature
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "{}: {} queries (eval set {}), seed {}, {:.0}% held out for validation; {}{runs}",
        r.skill,
        r.queries.len(),
        r.version,
        r.seed,
        r.holdout * 100.0,
        r.model
    );
    let _ = writeln!(
        out,
        "{:<11} {:>3}  {:<22}  {:<22}  {:<22}",
        "", "n", "precision (95% CI)", "recall", "accuracy"
    );
    part_line(&mut out, "train", &r.train);
    part_line(&mut out, "validation", &r.validation);
    let items: Vec<EvalQuery> = r.queries.iter().map(QueryRow::item).collect();
    let results: Vec<eval::QueryResult> = r.queries.iter().map(QueryRow::result).collect();
    let misses = eval::near_misses(&items, &results, near);
    if !misses.is_empty() {
        let _ = if near < 0.0 {
            writeln!(
                out,
                "\nwrong (a decoder has no margin: the share of runs that chose the skill is shown):"
            )
        } else {
            writeln!(
                out,
                "\nwrong, or right by less than {near} (nearest the bar first):"
            )
        };
        for (i, m) in misses {
            let q = &r.queries[i];
            let mark = if q.triggered == q.should_trigger {
                "right"
            } else {
                "WRONG"
            };
            let want = if q.should_trigger {
                "should trigger"
            } else {
                "should not"
            };
            let how = if near < 0.0 {
                format!("rate {:.2}", q.trigger_rate)
            } else {
                format!("margin {m:+.3}")
            };
            let _ = writeln!(
                out,
                "  {mark} {:<12} {want:<14} {how}  chose {:<20} {:?}",
                format!("[{}]", split_name(q.split)),
                q.chosen,
                q.query
            );
        }
    }
    if let Some((d, cmp)) = draft {
        let _ = writeln!(out, "\ndraft: {:?}", d.description);
        part_line(&mut out, "train", &d.train);
        part_line(&mut out, "validation", &d.validation);
        let _ = writeln!(
            out,
            "on validation only: {} right under both, {} only under the current description, {} only under the draft, {} under neither; exact sign test p = {:.4}",
            cmp.paired.both, cmp.paired.only_a, cmp.paired.only_b, cmp.paired.neither, cmp.p_value
        );
        let _ = writeln!(
            out,
            "{}{}",
            if cmp.verdict.is_warning() {
                "warning: "
            } else {
                ""
            },
            cmp.summary_words()
        );
        if let Some(why) = cmp.train_loss_words() {
            let _ = writeln!(out, "warning: {why}");
        }
        if let Some(why) = cmp.overfit_words() {
            let _ = writeln!(out, "warning: {why}");
        }
    }
    let _ = writeln!(out, "\n({})", r.note);
    out
}

fn split_name(s: Split) -> &'static str {
    match s {
        Split::Train => "train",
        Split::Validation => "validation",
    }
}
