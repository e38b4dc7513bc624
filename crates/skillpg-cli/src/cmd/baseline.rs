//! `skillpg baseline`: its arguments and what it does.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::project::*;

/// What `skillpg baseline` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct BaselineArgs {
    /// A profile's key, or all; skillpg.toml's `profiles` when not given, else spec (as
    /// `check` chooses).
    #[arg(long)]
    pub(crate) profile: Option<String>,
    /// The project's settings, as `check` reads them.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// The skills; skillpg.toml's `roots` when none are given.
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `skillpg baseline`.
pub(crate) fn run(args: BaselineArgs) -> Result<ExitCode, String> {
    let BaselineArgs {
        profile: key,
        config,
        paths,
    } = args;
    // Chosen and checked as `check` chooses and checks, skillpg.toml's ignores and
    // severities included: a baseline recorded without them would miss an error the
    // project raised, which `check --baseline` would then call new.
    let project = project_config(config.as_deref())?;
    let profiles = chosen_profiles(key.as_deref(), project.as_ref())?;
    let inputs = load(&project_paths(paths, project.as_ref())?)?;
    let checked = analyze_inputs(&inputs);
    let reports: Vec<skillpg_report::CheckJson> = profiles
        .iter()
        .map(|p| {
            let per_skill =
                check_in_project(&inputs, &checked, p, project.as_ref(), &Default::default()).0;
            skillpg_report::check_json(p, &checked.analyses, &per_skill, &[])
        })
        .collect();
    println!("{}", to_json(&skillpg_report::baseline::record(&reports))?);
    Ok(ExitCode::SUCCESS)
}
