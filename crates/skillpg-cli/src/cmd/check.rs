//! `skillpg check`: its arguments and what it does.

use skillpg_core::check_catalog_with;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::options::*;
use crate::project::*;
use crate::render;

/// What `skillpg check` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct CheckArgs {
    /// A profile's key (an unknown one gets the list of keys), or all (one verdict per
    /// client); skillpg.toml's `profiles` when not given, else spec.
    #[arg(long)]
    pub(crate) profile: Option<String>,
    /// Fail only on errors this baseline (`skillpg baseline`) does not hold; the others are
    /// still printed.
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<PathBuf>,
    /// The project's settings (profiles, ignored rules, severities, roots); `skillpg.toml`
    /// in the working folder when it exists.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub(crate) format: CheckFormat,
    /// Context window (tokens) for the clients' listing budgets (skillpg.toml's, else
    /// 200,000).
    #[arg(long, value_parser = context_window_arg)]
    pub(crate) context_window: Option<usize>,
    /// The skills given are installed together: also check the catalog as a whole (each
    /// client's listing budget), reported once.
    #[arg(long)]
    pub(crate) catalog: bool,
    #[command(flatten)]
    pub(crate) listing_settings: ClaudeListingArgs,
    /// The paths are files of skills, as pre-commit passes them: check each skill folder
    /// holding one (the nearest with a SKILL.md), once; a file in no skill is passed over.
    #[arg(long)]
    pub(crate) skills_of: bool,
    /// Also the paths listed in this file, one a line (`-`: standard input): a registry's
    /// thousands of skill folders, past the command line's length limit.
    #[arg(long, value_name = "FILE")]
    pub(crate) paths_from: Option<PathBuf>,
    /// Skill folders, folders of skills, SKILL.md files, .zip or .skill archives;
    /// skillpg.toml's `roots` when none are given.
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `skillpg check`.
pub(crate) fn run(args: CheckArgs) -> Result<ExitCode, String> {
    let CheckArgs {
        profile: key,
        baseline,
        config,
        format,
        context_window,
        catalog,
        listing_settings,
        skills_of,
        paths_from,
        mut paths,
    } = args;
    if let Some(list) = paths_from {
        paths.extend(paths_listed(&list)?);
    }
    let settings = listing_settings.settings()?;
    let project = project_config(config.as_deref())?;
    if skills_of {
        let skills = skillpg_fs::skill_folders_holding(&paths);
        if skills.is_empty() {
            eprintln!("no skill holds the {} file(s) given", paths.len());
            return Ok(ExitCode::SUCCESS);
        }
        paths = skills;
    }
    let profiles = chosen_profiles(key.as_deref(), project.as_ref())?;
    let context_window = context_window
        .or(project.as_ref().and_then(|(c, _)| c.context_window))
        .unwrap_or(skillpg_core::catalog::DEFAULT_CONTEXT_WINDOW);
    let paths = project_paths(paths, project.as_ref())?;
    // Many skills under several clients, or one line a skill: streamed, in bounded memory.
    if let Some(sink) = stream_sink(format, profiles.len(), catalog || baseline.is_some())? {
        let in_project = skillpg_report::project::Project {
            config: project.as_ref().map(|(c, _)| c),
            listing: &settings,
        };
        let done = crate::stream::check_streamed(&paths, &profiles, &in_project, sink)?;
        if done.ignored > 0 {
            eprintln!(
                "skillpg.toml: {} finding(s) ignored, each with its reason",
                done.ignored
            );
        }
        return Ok(exit(done.ok));
    }
    // One input that cannot be read fails the run, and the others are still checked.
    let (inputs, all_read) = load_readable(&paths);
    if inputs.is_empty() && !all_read {
        return Err("no path given could be read".to_owned());
    }
    let checked = analyze_inputs(&inputs);
    let analyses = &checked.analyses;
    // Each profile's findings per skill (the clients' matrix), and its catalog findings.
    let mut checks = Vec::new();
    let mut catalogs = Vec::new();
    let mut reports = Vec::new();
    let mut ignored = 0;
    for p in &profiles {
        let (per_skill, p_ignored) =
            check_in_project(&inputs, &checked, p, project.as_ref(), &settings);
        ignored += p_ignored;
        let mut catalog_diags = if catalog {
            check_catalog_with(analyses, p, context_window, &settings)
        } else {
            Vec::new()
        };
        if let Some((c, _)) = &project {
            c.apply_catalog(&mut catalog_diags);
        }
        reports.push(skillpg_report::check_json(
            p,
            analyses,
            &per_skill,
            &catalog_diags,
        ));
        checks.push((*p, per_skill));
        catalogs.push(catalog_diags);
    }
    if ignored > 0 {
        eprintln!("skillpg.toml: {ignored} finding(s) ignored, each with its reason");
    }
    let all = profiles.len() > 1;
    match (format, all) {
        (CheckFormat::Json | CheckFormat::Jsonl, false) => {
            println!("{}", to_json(&reports[0])?)
        }
        (CheckFormat::Sarif, false) => {
            println!("{}", to_json(&skillpg_report::sarif(&reports[0]))?)
        }
        (CheckFormat::Text, false) => print!(
            "{}",
            render::check_text(checks[0].0, analyses, &checks[0].1, &catalogs[0])
        ),
        (CheckFormat::Json | CheckFormat::Jsonl, true) => {
            let clients = skillpg_report::client_verdicts(analyses, &checks);
            println!(
                "{}",
                to_json(&serde_json::json!({"clients": clients, "checks": reports}))?
            )
        }
        (CheckFormat::Sarif, true) => {
            println!("{}", to_json(&skillpg_report::sarif_per_client(&reports))?)
        }
        (CheckFormat::Text, true) => print!(
            "{}",
            clients_text(analyses, &checks, &reports, &catalogs.concat())
        ),
    }
    let ok = match &baseline {
        None => reports.iter().all(|r| r.skills.iter().all(|s| s.valid)),
        Some(file) => within_baseline(file, &reports)?,
    };
    Ok(exit(ok && all_read))
}

/// Whether every error of `reports` is one the baseline `file` holds (saying how many are new).
fn within_baseline(
    file: &std::path::Path,
    reports: &[skillpg_report::CheckJson],
) -> Result<bool, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let known =
        skillpg_report::baseline::read(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let new = skillpg_report::baseline::new_errors(reports, &known);
    let all_errors = skillpg_report::baseline::record(reports).findings.len();
    eprintln!(
        "baseline {}: {} error(s) recorded there not counted, {} new",
        file.display(),
        all_errors - new.len(),
        new.len()
    );
    Ok(new.is_empty())
}

/// 0 when every skill loads (or every error is in the baseline), else 1.
fn exit(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The paths listed in `list`, one a line (`-`: standard input).
fn paths_listed(list: &std::path::Path) -> Result<Vec<PathBuf>, String> {
    // A list is read with a bound (`/dev/zero` given as one would never end).
    const MAX_LIST_BYTES: u64 = 64 * 1024 * 1024;
    let over = |what: String| {
        format!(
            "{what}: a list of paths over {} MB; give fewer paths at a time",
            MAX_LIST_BYTES / 1_048_576
        )
    };
    let bytes = if list.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(std::io::stdin(), MAX_LIST_BYTES + 1),
            &mut bytes,
        )
        .map_err(|e| format!("standard input: {e}"))?;
        bytes
    } else {
        skillpg_fs::read_bounded(list, MAX_LIST_BYTES + 1)
            .map_err(|e| format!("{}: {e}", list.display()))?
    };
    if bytes.len() as u64 > MAX_LIST_BYTES {
        return Err(over(list.display().to_string()));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: the list of paths is not UTF-8 text", list.display()))?;
    Ok(text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .map(PathBuf::from)
        .collect())
}

/// Whether the check streams, and how: one JSON line a skill always; the report of several
/// clients when nothing needs every skill first (`--catalog`, `--baseline`).
fn stream_sink(
    format: CheckFormat,
    n_profiles: usize,
    needs_all: bool,
) -> Result<Option<crate::stream::Sink>, String> {
    use crate::stream::Sink;
    Ok(match format {
        CheckFormat::Jsonl if needs_all => {
            return Err(
                "--format jsonl writes each skill as it is checked: --catalog and --baseline need them all first; use --format json".to_owned(),
            );
        }
        CheckFormat::Jsonl => Some(Sink::Lines),
        CheckFormat::Json if n_profiles > 1 && !needs_all => Some(Sink::Json),
        CheckFormat::Text if n_profiles > 1 && !needs_all => Some(Sink::Text),
        _ => None,
    })
}

/// `--profile all`'s text from the whole report (the streamed path keeps the same as it goes).
fn clients_text(
    analyses: &[skillpg_core::Analysis],
    checks: &[(&skillpg_core::Profile, Vec<Vec<skillpg_core::Diagnostic>>)],
    reports: &[skillpg_report::CheckJson],
    catalog: &[skillpg_core::Diagnostic],
) -> String {
    let lines: Vec<render::ClientLine> = skillpg_report::client_verdicts(analyses, checks)
        .iter()
        .zip(checks)
        .map(|(row, (p, _))| {
            let mut line = render::ClientLine::new(p);
            row.skills.iter().for_each(|cell| line.add(cell));
            line
        })
        .collect();
    let failing: Vec<render::FailingSkill> = (0..analyses.len())
        .filter_map(|i| {
            render::failing_skill(
                &reports[0].skills[i].path,
                reports.iter().map(|r| (r.profile.as_str(), &r.skills[i])),
            )
        })
        .collect();
    render::clients_text(&lines, &failing, catalog)
}
