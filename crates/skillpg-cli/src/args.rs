//! The command line's shape: every subcommand and its help, the output formats, and the
//! arguments several subcommands share.

use crate::cmd;
use crate::github_cmd;
use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "skillpg",
    version,
    about = "Check, count, price and fix Agent Skills (o200k_base token counts)"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Validate skills against a product profile.
    Check(cmd::check::CheckArgs),
    /// Record today's errors as a baseline (JSON on stdout), so that `check --baseline FILE`
    /// fails only on new ones.
    Baseline(cmd::baseline::BaselineArgs),
    /// How each client lists the skills installed together: its budget at a context window,
    /// which descriptions it shortens and which skills it leaves out.
    Listing(cmd::listing::ListingArgs),
    /// Where to put each skill for each client: the folders it searches, how deep, which copy
    /// wins a name installed twice, and for a skill a client would not list, the first reason.
    Where(cmd::where_cmd::WhereArgs),
    /// Scan a home or project folder as each client scans it (`.claude/skills`, `.agents/skills`,
    /// `.codex/skills`, ...): every skill each client would list, and why each other one would
    /// not (its depth, a gate, a name installed twice, the listing's budget).
    Doctor(cmd::doctor::DoctorArgs),
    /// Count the three levels in o200k_base tokens.
    Levels(cmd::levels::LevelsArgs),
    /// Price a skill against a system prompt over n turns.
    Cost(cmd::cost::CostArgs),
    /// Apply the safe fixes and print the diff.
    Fix(cmd::fix::FixArgs),
    /// List every rule with its code and source, or explain one (`skillpg rules SPG038`).
    Rules(cmd::rules::RulesArgs),
    /// Every client profile with what its verdicts rest on: the client's own loader run in the
    /// test suite, or its source read at a dated commit, and versions that behave otherwise.
    Clients(cmd::clients::ClientsArgs),
    /// Route requests to skills with a small model (a preview, not a product's router).
    Route(cmd::route::RouteArgs),
    /// The decoder router's system prompt for these skills, as the model sees it (the page shows
    /// it under "The system prompt the model sees").
    Prompt(cmd::prompt::PromptArgs),
    /// The description lab: skill-creator's trigger evals for one skill, split into train and
    /// validation by a seed, with precision, recall and accuracy per part and the near misses;
    /// `--draft` compares a new description on validation (a preview by a small model).
    Eval(cmd::eval::EvalCommandArgs),
    /// The routing benchmark: public labelled suites, every candidate router compared, the
    /// preview's reliability table (a preview, not a product's router).
    BenchPreview(cmd::bench::BenchArgs),
    /// Compare two description sets on labelled requests: accuracy, Wilson intervals, sign test.
    Compare(cmd::compare::CompareArgs),
    /// The statistics of the comparison.
    Stats(cmd::stats::StatsArgs),
    /// Pack the model's weights for the page and the CLI.
    ModelPack(cmd::model_pack::ModelPackArgs),
    /// The playground link the page makes for these skills (`#v1=...`), and a Markdown badge
    /// that opens it.
    Share(cmd::share::ShareArgs),
    /// The GitHub Action's step: check the skills a pull request or push changes (from
    /// GITHUB_EVENT_PATH and git), annotate their lines, write the job summary and outputs.
    Github(github_cmd::GithubArgs),
    /// Serve the checks, counts and fixes to an editor (Language Server Protocol over stdio).
    ///
    /// Profiles: the editor's `initializationOptions.profiles`, else skillpg.toml's at the
    /// workspace folder, else spec.
    Lsp(cmd::lsp::LspArgs),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// clap's own checks of every subcommand (a repeated argument or group name, a default a
    /// parser refuses): a malformed one panics only when its help is first asked for.
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
