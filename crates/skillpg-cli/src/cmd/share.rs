//! `skillpg share`: its arguments and what it does.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::project::*;

/// What `skillpg share` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct ShareArgs {
    /// The page's address: where it is hosted (`https://OWNER.github.io/REPO/`), or
    /// `scripts/serve`'s.
    #[arg(long, default_value = "http://127.0.0.1:8080/")]
    pub(crate) base: String,
    /// The view the link opens on: check, levels, tokens, cost, routing, share, rules or
    /// present.
    #[arg(long, default_value = "check")]
    pub(crate) view: String,
    /// The profile the page shows.
    #[arg(long, default_value = "spec")]
    pub(crate) profile: String,
    /// Print Zed's share link instead (`zed://skill?data=`: one skill's SKILL.md, which
    /// opens Zed's Create Skill form).
    #[arg(long, conflicts_with = "well_known")]
    pub(crate) zed: bool,
    /// Write the Agent Skills discovery folder here instead: `.well-known/agent-skills/
    /// index.json` (v0.2.0, with each file's SHA-256) and each skill's files beside it, for
    /// a static site's root.
    #[arg(long, value_name = "DIR")]
    pub(crate) well_known: Option<PathBuf>,
    /// Skill folders, folders of skills, SKILL.md files, .zip or .skill archives.
    #[arg(required = true)]
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `skillpg share`.
pub(crate) fn run(args: ShareArgs) -> Result<ExitCode, String> {
    let ShareArgs {
        base,
        view,
        profile: key,
        zed,
        well_known,
        paths,
    } = args;
    profile(&key)?;
    let view = skillpg_share::View::from_key(&view).ok_or_else(|| {
        format!(
            "unknown view '{view}' (expected {})",
            skillpg_share::View::ALL
                .iter()
                .map(|v| v.key())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    let inputs = load(&paths)?;
    require_skills(&inputs)?;
    let skills = inputs
        .into_iter()
        .flat_map(|(ingested, _)| skillpg_share::SkillInput::from_ingested(ingested))
        .collect();
    let skills: Vec<skillpg_share::SkillInput> = skills;
    if zed {
        let [skill] = skills.as_slice() else {
            return Err(format!(
                "a Zed link holds one skill; {} were given",
                skills.len()
            ));
        };
        // The page's bound, and a word on the files a Zed link cannot carry.
        let (link, note) = skillpg_share::interchange::zed_link_of(skill)?;
        println!("{link}");
        if let Some(note) = note {
            eprintln!("note: {note}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = well_known {
        for (path, bytes) in skillpg_share::interchange::well_known_files(&skills)? {
            let target = dir.join(&path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            std::fs::write(&target, bytes).map_err(|e| format!("{}: {e}", target.display()))?;
        }
        println!(
            "wrote {}",
            dir.join(".well-known/agent-skills/index.json").display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let link = skillpg_share::link(&base, skills, &key, view).map_err(|e| e.to_string())?;
    println!("{link}");
    println!("{}", skillpg_share::badge(&link));
    Ok(ExitCode::SUCCESS)
}
