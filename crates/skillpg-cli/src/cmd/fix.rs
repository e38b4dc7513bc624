//! `skillpg fix`: its arguments and what it does.

use skillpg_core::analyze;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::project::*;

/// What `skillpg fix` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct FixArgs {
    /// Also apply fixes that change meaning.
    #[arg(long = "unsafe")]
    pub(crate) include_unsafe: bool,
    /// Write the result back (the default only prints the diff).
    #[arg(long)]
    pub(crate) write: bool,
    #[arg(long, default_value = "spec")]
    pub(crate) profile: String,
    /// The project's settings (ignored rules, severities); `skillpg.toml` in the working folder
    /// when it exists. A finding the project ignores is not fixed, as `check` does not report
    /// it.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    #[arg(required = true)]
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `skillpg fix`.
pub(crate) fn run(args: FixArgs) -> Result<ExitCode, String> {
    let FixArgs {
        include_unsafe,
        write,
        profile: key,
        config,
        paths,
    } = args;
    let profile = profile(&key)?;
    let config = project_config(config.as_deref())?;
    let settings = skillpg_core::catalog::ListingSettings::default();
    // The findings `check` reports in this project: its ignores and severities apply.
    let project = skillpg_report::project::Project {
        config: config.as_ref().map(|(c, _)| c),
        listing: &settings,
    };
    let inputs = load(&paths)?;
    require_skills(&inputs)?;
    let mut any_left = false;
    for (ingested, root) in &inputs {
        for skill in &ingested.skills {
            let a = analyze(skill);
            let (diags, _) = project.findings(profile, &a, &[]);
            let (Some(doc), Some(md_path)) = (&a.doc, &a.skill_md_path) else {
                continue;
            };
            let fixed = skillpg_core::fix::apply(&doc.text, md_path, &diags, include_unsafe);
            if fixed.applied.is_empty() {
                continue;
            }
            let display = format!("{}/{}", skill.display_path, md_path);
            print!(
                "{}",
                skillpg_core::fix::unified_diff(&doc.text, &fixed.text, &display)
            );
            println!("# applied: {}", fixed.applied.join(", "));
            any_left |= fixed.n_skipped > 0;
            if write {
                let target = skill_md_on_disk(root, &skill.display_path, md_path)?;
                std::fs::write(&target, fixed.text.as_bytes())
                    .map_err(|e| format!("{}: {e}", target.display()))?;
                println!("# wrote {}", target.display());
            }
        }
    }
    if any_left {
        println!("# some fixes overlapped; run again to apply the rest");
    }
    Ok(ExitCode::SUCCESS)
}
