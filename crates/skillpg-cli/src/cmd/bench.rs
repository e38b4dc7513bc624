//! `skillpg bench-preview`: the routing benchmark (`skillpg-routing`'s `bench/`) run with the
//! embedding model, every candidate router compared in one run, and the report printed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use skillpg_routing::bench::{self, Suite};
use skillpg_routing::bench_report::{self, DescriptionSet, StoredScores, SuiteScores};
use skillpg_routing::decide::score_matrix;

use crate::route_cmd::{self, LoadedRouter, Router};

/// What `skillpg bench-preview` takes.
#[derive(clap::Args, Debug)]
pub(crate) struct BenchArgs {
    #[command(flatten)]
    pub(crate) router: route_cmd::RouterArgs,
    /// Write the embedding cosines here (the repository keeps them in
    /// `crates/skillpg-routing/bench/scores-minilm-i8.json`, which the page's constants are
    /// tested against).
    #[arg(long)]
    pub(crate) scores_out: Option<PathBuf>,
    /// Report from the stored scores instead of running the model.
    #[arg(long)]
    pub(crate) stored: bool,
}

/// Runs `skillpg bench-preview`.
pub(crate) fn run(args: BenchArgs) -> Result<ExitCode, String> {
    let (suites, split) = bench::builtin().map_err(|e| e.to_string())?;
    let stored = if args.stored {
        serde_json::from_str(bench_report::STORED_MINILM_I8).map_err(|e| e.to_string())?
    } else {
        let router = LoadedRouter::new(&args.router)?;
        let Router::Embedding { embedder, .. } = &router.router else {
            let label = format!("{} ({} protocol)", router.model, args.router.mode.as_str());
            return run_decoder(&router, &suites, &label);
        };
        let mut out = Vec::new();
        let mut prompts = 0usize;
        let started = Instant::now();
        for s in &suites {
            let requests: Vec<String> = s.tasks.iter().map(|t| t.prompt.clone()).collect();
            prompts += requests.len();
            let q = embedder.embed(&requests);
            let scores = |set| score_matrix(&q, &embedder.embed(&bench_report::documents(s, set)));
            out.push(SuiteScores {
                suite: s.suite.clone(),
                as_written: scores(DescriptionSet::AsWritten),
                thinned: scores(DescriptionSet::Thinned),
                authors_thin: has_authors_thin(s).then(|| scores(DescriptionSet::AuthorsThin)),
            });
        }
        eprintln!(
            "{} prompts and their suites' skills embedded in {:.0} ms on {} ({:.1} ms a prompt, three description sets each)",
            prompts,
            started.elapsed().as_secs_f64() * 1e3,
            router.backend,
            started.elapsed().as_secs_f64() * 1e3 / prompts.max(1) as f64
        );
        StoredScores {
            model: router.model.clone(),
            suites: out,
        }
    };
    if let Some(path) = &args.scores_out {
        let text = serde_json::to_string(&stored).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    print!("{}", bench_report::report(&suites, &split, &stored));
    println!(
        "\nThe confidence table, as Rust:\n{:?}",
        bench_report::fit_confidence(&suites, &stored)
    );
    Ok(ExitCode::SUCCESS)
}

fn has_authors_thin(s: &Suite) -> bool {
    s.skills.iter().any(|k| k.thin.is_some())
}

/// A decoder on the benchmark: every suite under each description set, its decisions tallied.
/// (Slow on a CPU: a prefill per task and set.)
fn run_decoder(router: &LoadedRouter, suites: &[Suite], label: &str) -> Result<ExitCode, String> {
    use skillpg_routing::outcome::{Descriptions, Evidence};
    use skillpg_routing::requests::Labelled;
    let started = Instant::now();
    let mut runs = Vec::new();
    let mut tasks = 0usize;
    for s in suites {
        let requests: Vec<Labelled> = s
            .tasks
            .iter()
            .map(|t| Labelled {
                query: t.prompt.clone(),
                expected: t
                    .skill
                    .clone()
                    .unwrap_or_else(|| skillpg_routing::NONE.to_owned()),
            })
            .collect();
        let mut sets = vec![DescriptionSet::AsWritten, DescriptionSet::Thinned];
        if has_authors_thin(s) {
            sets.push(DescriptionSet::AuthorsThin);
        }
        for set in sets {
            let skills = bench_report::route_skills(s, set);
            let arm = router
                .run_arms(&[(&skills, Descriptions::AsWritten)], &requests)?
                .remove(0);
            tasks += requests.len();
            runs.push(bench_report::DecoderRun {
                suite: s.suite.clone(),
                set,
                decisions: arm
                    .decisions
                    .iter()
                    .map(|d| {
                        let dist = match &d.evidence {
                            Evidence::Choice { distribution, .. } => Some(distribution.clone()),
                            _ => None,
                        };
                        (d.choice, dist)
                    })
                    .collect(),
            });
        }
    }
    eprintln!(
        "{tasks} decisions in {:.0} s on {} ({:.0} ms a task)",
        started.elapsed().as_secs_f64(),
        router.backend,
        started.elapsed().as_secs_f64() * 1e3 / tasks.max(1) as f64
    );
    print!("{}", bench_report::decoder_report(label, suites, &runs));
    Ok(ExitCode::SUCCESS)
}
