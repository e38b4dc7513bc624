//! `skillpg github`: the GitHub Action's step. It finds the skills a pull request (or a push)
//! changes from the event payload (`GITHUB_EVENT_PATH`) and git, checks them under the
//! project's profiles, and writes what GitHub reads: workflow commands on stdout (annotations
//! on the lines), the job summary (`GITHUB_STEP_SUMMARY`), step outputs (`GITHUB_OUTPUT`),
//! and on request the pull-request comment's body and SARIF. The text itself is
//! `skillpg_report::github`'s.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::project::{
    analyze_inputs, check_in_project, chosen_profiles, load, loads_in_project, loads_of,
    project_config, project_paths, to_json,
};

/// What an event changed: the files (their paths now), and the skills it deleted or renamed.
#[derive(Debug, Default)]
struct Changes {
    files: Vec<PathBuf>,
    removed: Vec<skillpg_report::github::RemovedSkill>,
}

/// The folder of a `SKILL.md` path (`skills/pdf/SKILL.md` → `skills/pdf`), if it is one.
fn skill_folder_of(path: &str) -> Option<String> {
    let (folder, file) = path.rsplit_once('/').unwrap_or(("", path));
    file.eq_ignore_ascii_case("skill.md").then(|| {
        if folder.is_empty() {
            ".".to_owned()
        } else {
            folder.to_owned()
        }
    })
}

/// The changed files of the event in `GITHUB_EVENT_PATH`: a pull request's against its base
/// (three dots: since they parted, as GitHub's "Files changed" counts), a push's from `before`
/// to `after`; with renames found, so a renamed or deleted skill is said. `None` when there is
/// no event, or it names no commits to compare (a new branch, a manual run).
fn changed_files() -> Result<Option<Changes>, String> {
    let Ok(event_path) = std::env::var("GITHUB_EVENT_PATH") else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(&event_path).map_err(|e| format!("{event_path}: {e}"))?;
    let event: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{event_path}: {e}"))?;
    let range = if let Some(pr) = event.get("pull_request") {
        match (pr["base"]["sha"].as_str(), pr["head"]["sha"].as_str()) {
            (Some(base), Some(head)) => {
                format!("{}...{}", object_name(base)?, object_name(head)?)
            }
            _ => return Ok(None),
        }
    } else {
        match (event["before"].as_str(), event["after"].as_str()) {
            (Some(before), Some(after)) if !before.trim_matches('0').is_empty() => {
                format!("{}..{}", object_name(before)?, object_name(after)?)
            }
            _ => return Ok(None),
        }
    };
    // `--end-of-options`: whatever the range holds, git reads it as a revision, never an option.
    let out = std::process::Command::new("git")
        .args([
            "diff",
            "--name-status",
            "-M",
            "-z",
            "--end-of-options",
            &range,
        ])
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git diff {range}: {} (check out the history: actions/checkout with fetch-depth: 0)",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(Some(parse_name_status(&out.stdout)))
}

/// `git diff --name-status -M -z`'s output: `STATUS\0path\0`, or `Rnnn\0old\0new\0` for a
/// rename (`C` for a copy).
fn parse_name_status(out: &[u8]) -> Changes {
    let mut parts = out
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned());
    let mut changes = Changes::default();
    while let Some(status) = parts.next() {
        let Some(path) = parts.next() else { break };
        match status.chars().next() {
            Some('R' | 'C') => {
                let Some(new) = parts.next() else { break };
                if status.starts_with('R')
                    && let (Some(before), Some(after)) =
                        (skill_folder_of(&path), skill_folder_of(&new))
                    && before != after
                {
                    changes.removed.push(skillpg_report::github::RemovedSkill {
                        before,
                        after: Some(after),
                    });
                }
                changes.files.push(PathBuf::from(new));
            }
            Some('D') => {
                if let Some(before) = skill_folder_of(&path) {
                    changes.removed.push(skillpg_report::github::RemovedSkill {
                        before,
                        after: None,
                    });
                }
                changes.files.push(PathBuf::from(path));
            }
            _ => changes.files.push(PathBuf::from(path)),
        }
    }
    changes
}

/// A commit from the event payload, which anyone who can open a pull request shapes: only a
/// full SHA-1 or SHA-256 object name in hex is handed to git (`--output=PATH` would make git
/// write a file).
fn object_name(sha: &str) -> Result<&str, String> {
    let hex = sha.bytes().all(|b| b.is_ascii_hexdigit());
    if hex && (sha.len() == 40 || sha.len() == 64) {
        Ok(sha)
    } else {
        Err(format!(
            "the event's commit {sha:?} is not an object name (40 or 64 hex digits); nothing was checked"
        ))
    }
}

/// The inputs the paths given name: a path inside a skill is that skill's folder; a folder in
/// no skill is read as `check` reads it (every skill under it). A path that does not exist is a
/// usage error, and so is a set of paths that holds no skill at all (`require_some_skill`): an
/// explicit request that checks nothing must not pass.
fn skills_of_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = Vec::new();
    for p in paths {
        if !p.exists() {
            return Err(format!("{}: no such file or folder", p.display()));
        }
        let found = match skillpg_fs::skill_folders_holding(std::slice::from_ref(p)).pop() {
            Some(skill) => Some(skill),
            None if p.is_dir() => Some(p.clone()),
            None => None,
        };
        if let Some(found) = found.filter(|f| !out.contains(f)) {
            out.push(found);
        }
    }
    Ok(out)
}

/// Zero skills from paths a person named is an error that names them, not a green check.
fn require_some_skill(
    paths: &[PathBuf],
    inputs: &[(skillpg_core::ingest::Ingested, PathBuf)],
) -> Result<(), String> {
    // A folder with no SKILL.md under it reads as one skill that lacks it: that is not a skill.
    if inputs
        .iter()
        .any(|(i, _)| i.skills.iter().any(|s| s.skill_md().is_some()))
    {
        return Ok(());
    }
    Err(format!(
        "no skill (a folder with a SKILL.md) in or under {}: nothing was checked",
        paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// Appends `text` to the file an environment variable names (GitHub's summary and outputs).
fn append_to(var: &str, text: &str) -> Result<(), String> {
    let Ok(path) = std::env::var(var) else {
        return Ok(());
    };
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("{var} ({path}): {e}"))
}

/// What `skillpg github` is given.
#[derive(Debug, clap::Args)]
pub struct GithubArgs {
    /// A profile's key, or all; skillpg.toml's `profiles` when not given, else spec.
    #[arg(long)]
    pub profile: Option<String>,
    /// The project's settings; `skillpg.toml` in the working folder when it exists.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Write the pull-request comment's body (Markdown) here.
    #[arg(long, value_name = "FILE")]
    pub comment: Option<PathBuf>,
    /// Write SARIF here (one run per client when several are chosen).
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// The hosted page: the comment links each checked skill there.
    #[arg(long, value_name = "URL")]
    pub playground: Option<String>,
    /// Files or folders whose skills to check, instead of the event's changes.
    pub paths: Vec<PathBuf>,
}

/// Each client's listing for the budget table: of the whole installed catalog, not the skills
/// a change touched (with `roots` in skillpg.toml, every skill under them, as `listing` prices
/// them; else the skills checked), each client listing the skills that load under it in the
/// project.
fn budget_listings(
    inputs: &[(skillpg_core::ingest::Ingested, PathBuf)],
    checked: &crate::project::Checked,
    project: Option<&(skillpg_report::config::Config, PathBuf)>,
    context_window: Option<usize>,
) -> Result<Vec<skillpg_report::ListingJson>, String> {
    let settings = skillpg_core::catalog::ListingSettings::default();
    let listing = |inputs: &[(skillpg_core::ingest::Ingested, PathBuf)],
                   checked: &crate::project::Checked| {
        let loads = loads_in_project(inputs, checked, project, &settings);
        skillpg_report::listings_of_loaded(
            &checked.analyses,
            context_window,
            &settings,
            &loads_of(&loads),
        )
    };
    Ok(match project {
        Some((c, _)) if !c.roots.is_empty() => {
            let roots = load(&project_paths(Vec::new(), project)?)?;
            listing(&roots, &analyze_inputs(&roots))
        }
        _ => listing(inputs, checked),
    })
}

pub fn run(args: GithubArgs) -> Result<ExitCode, String> {
    let project = project_config(args.config.as_deref())?;
    let profiles = chosen_profiles(args.profile.as_deref(), project.as_ref())?;
    // The skills: those holding the paths given, else those the event changed, else the
    // project's roots.
    let mut removed = Vec::new();
    let skills = if !args.paths.is_empty() {
        skills_of_paths(&args.paths)?
    } else {
        match changed_files()? {
            Some(changes) => {
                removed = changes.removed;
                skillpg_fs::skill_folders_holding(&changes.files)
            }
            None => project_paths(Vec::new(), project.as_ref())?,
        }
    };
    let inputs = load(&skills)?;
    if !args.paths.is_empty() {
        require_some_skill(&args.paths, &inputs)?;
    }
    let checked = analyze_inputs(&inputs);
    let analyses = &checked.analyses;
    let mut reports = Vec::new();
    let mut checks = Vec::new();
    for p in &profiles {
        let (per_skill, _) =
            check_in_project(&inputs, &checked, p, project.as_ref(), &Default::default());
        reports.push(skillpg_report::check_json(p, analyses, &per_skill, &[]));
        checks.push((*p, per_skill));
    }
    print!("{}", skillpg_report::github::annotations(&reports));
    let clients = skillpg_report::client_verdicts(analyses, &checks);
    let levels: Vec<_> = analyses.iter().map(skillpg_report::levels_json).collect();
    let context_window = project
        .as_ref()
        .and_then(|(c, _)| c.context_window)
        .or(Some(skillpg_core::catalog::DEFAULT_CONTEXT_WINDOW));
    let listings = budget_listings(&inputs, &checked, project.as_ref(), context_window)?;
    let mut summary = skillpg_report::github::summary(&clients, &levels, &listings);
    summary.push_str(&skillpg_report::github::removed_section(&removed));
    append_to("GITHUB_STEP_SUMMARY", &summary)?;
    let valid = reports.iter().all(|r| r.skills.iter().all(|s| s.valid));
    let errors: usize = reports
        .iter()
        .flat_map(|r| &r.skills)
        .flat_map(|s| &s.diagnostics)
        .filter(|d| d.severity == "error")
        .count();
    let mut outputs = format!(
        "valid={valid}\nskills={}\nerrors={errors}\nremoved={}\n",
        analyses.len(),
        removed.len()
    );
    if let Some(path) = &args.comment {
        // A playground link per skill, each alone (a skill too large for a link says so).
        let links: Vec<(String, skillpg_report::github::PlaygroundLink)> = match &args.playground {
            None => Vec::new(),
            Some(base) => inputs
                .iter()
                .flat_map(|(ingested, _)| {
                    skillpg_share::SkillInput::from_ingested(ingested.clone())
                })
                .map(|skill| {
                    let name = skill.dir_name.clone();
                    let profile = profiles.first().map_or("spec", |p| p.key);
                    match skillpg_share::link(
                        base,
                        vec![skill],
                        profile,
                        skillpg_share::View::Check,
                    ) {
                        Ok(link) => (name, skillpg_report::github::PlaygroundLink::Made(link)),
                        Err(too_long) => (
                            name,
                            skillpg_report::github::PlaygroundLink::TooLong {
                                chars: too_long.chars,
                            },
                        ),
                    }
                })
                .collect(),
        };
        let body = skillpg_report::github::comment(&summary, &links);
        write(path, &body)?;
        outputs.push_str(&format!("comment-file={}\n", path.display()));
    }
    if let Some(path) = &args.sarif {
        let sarif = if reports.len() == 1 {
            skillpg_report::sarif(&reports[0])
        } else {
            skillpg_report::sarif_per_client(&reports)
        };
        write(path, &to_json(&sarif)?)?;
        outputs.push_str(&format!("sarif-file={}\n", path.display()));
    }
    append_to("GITHUB_OUTPUT", &outputs)?;
    Ok(if valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
