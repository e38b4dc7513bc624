//! `skillpg stats`: its arguments and what it does.

use std::process::ExitCode;

use crate::options::*;

/// What `skillpg stats` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct StatsArgs {
    #[command(subcommand)]
    pub(crate) what: StatsCommand,
}

/// Runs `skillpg stats`.
pub(crate) fn run(args: StatsArgs) -> Result<ExitCode, String> {
    let StatsArgs { what } = args;
    match what {
        StatsCommand::Wilson { k, n } => {
            if k > n {
                return Err(format!("K ({k}) cannot exceed N ({n})"));
            }
            let ci = skillpg_stats::wilson(k, n, skillpg_stats::Z95);
            println!(
                "{k}/{n} = {}%  Wilson 95% [{}, {}]",
                skillpg_stats::percent(k as f64 / n.max(1) as f64),
                skillpg_stats::percent(ci.low),
                skillpg_stats::percent(ci.high)
            );
        }
        StatsCommand::SignTest { b, c } => println!(
            "{} two-sided sign test, {b} vs {c} discordant pairs: p = {:.4}",
            if skillpg_stats::sign_test_is_exact(b, c) {
                "exact"
            } else {
                "normal approximation of the"
            },
            skillpg_stats::sign_test(b, c)
        ),
    }
    Ok(ExitCode::SUCCESS)
}
