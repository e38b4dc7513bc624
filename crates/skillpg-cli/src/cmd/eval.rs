//! `skillpg eval`: its arguments and what it does.

use std::process::ExitCode;

use crate::eval_cmd;
use crate::options::*;

/// What `skillpg eval` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct EvalCommandArgs {
    #[command(flatten)]
    pub(crate) args: eval_cmd::EvalArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

/// Runs `skillpg eval`.
pub(crate) fn run(args: EvalCommandArgs) -> Result<ExitCode, String> {
    let EvalCommandArgs { args, format } = args;
    print!("{}", eval_cmd::run(&args, matches!(format, Format::Json))?);
    Ok(ExitCode::SUCCESS)
}
