//! `skillpg doctor`: its arguments and what it does.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::doctor;
use crate::options::*;
use crate::project::*;

/// What `skillpg doctor` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct DoctorArgs {
    /// One client's key, or `all`.
    #[arg(long, default_value = "all")]
    pub(crate) client: String,
    /// Context window (tokens) for the listing budgets (200,000 when not given, as every
    /// edge assumes).
    #[arg(long, value_parser = context_window_arg)]
    pub(crate) context_window: Option<usize>,
    #[command(flatten)]
    pub(crate) listing_settings: ClaudeListingArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// The project's settings (ignored rules, severities), applied as `check` applies them;
    /// the folder's `skillpg.toml` when it has one.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// The home or project folder (`~`, or a repository's root).
    #[arg(default_value = ".")]
    pub(crate) dir: PathBuf,
}

/// Runs `skillpg doctor`.
pub(crate) fn run(args: DoctorArgs) -> Result<ExitCode, String> {
    let DoctorArgs {
        client,
        context_window,
        listing_settings,
        format,
        config,
        dir,
    } = args;
    let settings = listing_settings.settings()?;
    // The scanned folder's skillpg.toml, as `check` run there reads it: doctor never says
    // "loads" for a skill `check` fails.
    let in_dir = dir.join(skillpg_report::config::FILE_NAME);
    let config = config.or_else(|| in_dir.is_file().then_some(in_dir));
    let project = project_config(config.as_deref())?;
    let context_window = context_window
        .or(project.as_ref().and_then(|(c, _)| c.context_window))
        .or(Some(skillpg_core::catalog::DEFAULT_CONTEXT_WINDOW));
    let scans = doctor::scan(
        &dir,
        &profiles(&client)?,
        context_window,
        &settings,
        project.as_ref().map(|(c, _)| c),
    )?;
    match format {
        Format::Json => println!("{}", to_json(&scans)?),
        Format::Text => print!("{}", doctor::text(&scans)),
    }
    Ok(ExitCode::SUCCESS)
}
