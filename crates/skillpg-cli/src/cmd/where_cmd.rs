//! `skillpg where`: its arguments and what it does.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::options::*;
use crate::project::*;
use crate::render;

/// What `skillpg where` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct WhereArgs {
    /// One client's key (`gemini-cli`), or `all`.
    #[arg(long, default_value = "all")]
    pub(crate) client: String,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// The project's settings (ignored rules, severities, roots); `skillpg.toml` in the
    /// working folder when it exists.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Skill folders, folders of skills, SKILL.md files, .zip or .skill archives;
    /// skillpg.toml's `roots` when none are given.
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `skillpg where`.
pub(crate) fn run(args: WhereArgs) -> Result<ExitCode, String> {
    let WhereArgs {
        client,
        format,
        config,
        paths,
    } = args;
    let profiles = profiles(&client)?;
    // skillpg.toml's ignores and severities, as `check` applies them: `where` never
    // says "loads" for a skill `check` fails; its roots when no path is given, as `check`.
    let project = project_config(config.as_deref())?;
    let paths = project_paths(paths, project.as_ref())?;
    let inputs = load(&paths)?;
    let checked = analyze_inputs(&inputs);
    let checks: Vec<_> = profiles
        .iter()
        .map(|p| {
            (
                *p,
                check_in_project(&inputs, &checked, p, project.as_ref(), &Default::default()).0,
            )
        })
        .collect();
    let places = skillpg_report::where_to_put(&checked.analyses, &checks);
    match format {
        Format::Json => println!("{}", to_json(&places)?),
        Format::Text => print!("{}", render::where_text(&places)),
    }
    Ok(ExitCode::SUCCESS)
}
