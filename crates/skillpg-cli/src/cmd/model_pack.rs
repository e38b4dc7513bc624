//! `skillpg model-pack`: its arguments and what it does.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::route_cmd;

/// What `skillpg model-pack` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct ModelPackArgs {
    #[arg(long)]
    pub(crate) safetensors: PathBuf,
    #[arg(long)]
    pub(crate) vocab: PathBuf,
    #[arg(long, default_value = route_cmd::DEFAULT_MODEL_DIR)]
    pub(crate) out: PathBuf,
}

/// Runs `skillpg model-pack`.
pub(crate) fn run(args: ModelPackArgs) -> Result<ExitCode, String> {
    let ModelPackArgs {
        safetensors,
        vocab,
        out,
    } = args;
    print!("{}", route_cmd::pack(&safetensors, &vocab, &out)?);
    Ok(ExitCode::SUCCESS)
}
