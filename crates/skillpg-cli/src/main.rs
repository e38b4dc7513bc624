//! `skillpg`: the engine on the command line.
//!
//! Exit codes: 0 when every skill passes, 1 when any has an error under the profile, 2 on a
//! usage error (bad flags, a path that does not exist).

#![allow(
    clippy::print_stdout,
    reason = "a command-line program prints its results"
)]

mod args;
mod cmd;
mod doctor;
mod eval_cmd;
mod github_cmd;
mod options;
mod project;
mod render;
mod route_cmd;
mod stream;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};

fn main() -> ExitCode {
    // `skillpg check | head` closes the pipe early: that ends the output, not in a panic's
    // backtrace (Rust ignores SIGPIPE, so printing fails instead; unsafe code that would restore
    // the signal is forbidden here).
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default_hook(info);
    }));
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Runs the subcommand given.
fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Check(args) => cmd::check::run(args),
        Command::Baseline(args) => cmd::baseline::run(args),
        Command::Listing(args) => cmd::listing::run(args),
        Command::Where(args) => cmd::where_cmd::run(args),
        Command::Doctor(args) => cmd::doctor::run(args),
        Command::Levels(args) => cmd::levels::run(args),
        Command::Cost(args) => cmd::cost::run(args),
        Command::Fix(args) => cmd::fix::run(args),
        Command::Rules(args) => cmd::rules::run(args),
        Command::Clients(args) => cmd::clients::run(args),
        Command::Route(args) => cmd::route::run(args),
        Command::Prompt(args) => cmd::prompt::run(args),
        Command::Eval(args) => cmd::eval::run(args),
        Command::BenchPreview(args) => cmd::bench::run(args),
        Command::Compare(args) => cmd::compare::run(args),
        Command::Stats(args) => cmd::stats::run(args),
        Command::ModelPack(args) => cmd::model_pack::run(args),
        Command::Share(args) => cmd::share::run(args),
        Command::Github(args) => github_cmd::run(args),
        Command::Lsp(args) => cmd::lsp::run(args),
    }
}
