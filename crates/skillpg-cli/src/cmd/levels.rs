//! `skillpg levels`: its arguments and what it does.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::options::*;
use crate::project::*;
use crate::render;

/// What `skillpg levels` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct LevelsArgs {
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    #[arg(required = true)]
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `skillpg levels`.
pub(crate) fn run(args: LevelsArgs) -> Result<ExitCode, String> {
    let LevelsArgs { format, paths } = args;
    let inputs = load(&paths)?;
    let analyses = analyze_all(&inputs)?;
    match format {
        Format::Json => println!(
            "{}",
            to_json(&skillpg_report::levels_report_json(&analyses))?
        ),
        Format::Text => print!("{}", render::levels_text(&analyses)),
    }
    Ok(ExitCode::SUCCESS)
}
