//! What several subcommands do alike: read the paths given, analyze and check the skills
//! found, and read the project's settings.

use skillpg_core::ingest::Ingested;
use skillpg_core::{Analysis, Diagnostic, Profile, analyze};

/// Looks up whether skill `i` loads under `p` in what [`loads_in_project`] made.
pub(crate) fn loads_of<'a>(
    loads: &'a [(&'static str, Vec<bool>)],
) -> impl Fn(&Profile, usize) -> bool + 'a {
    move |p, i| {
        loads
            .iter()
            .find(|(k, _)| *k == p.key)
            .is_none_or(|(_, v)| v.get(i).copied().unwrap_or(true))
    }
}
use std::path::PathBuf;

/// Reads every path; a path that cannot be read is a usage error.
pub(crate) fn load(paths: &[PathBuf]) -> Result<Vec<(Ingested, PathBuf)>, String> {
    // Build the tokenizer while the files are read: most runs will count something.
    rayon::spawn(skillpg_tokens::warm_up);
    parallel_map(paths, |p| {
        skillpg_fs::read_path(p)
            .map(|i| (i, p.clone()))
            .map_err(String::from)
    })
    .into_iter()
    .collect()
}

/// [`load`] for a checker, which checks what it can: the inputs that could be read, and each
/// that could not (missing, a device, unreadable) said on standard error as `check`'s streamed
/// path says it. `false` when one could not be read: the run then fails (exit 1).
pub(crate) fn load_readable(paths: &[PathBuf]) -> (Vec<(Ingested, PathBuf)>, bool) {
    rayon::spawn(skillpg_tokens::warm_up);
    let mut all_read = true;
    let read = parallel_map(paths, |p| skillpg_fs::read_path(p).map_err(String::from))
        .into_iter()
        .zip(paths)
        .filter_map(|(result, path)| match result {
            Ok(ingested) => Some((ingested, path.clone())),
            Err(why) => {
                eprintln!("{}: {why}; not checked", path.display());
                all_read = false;
                None
            }
        })
        .collect();
    (read, all_read)
}

/// An input that holds no skill (an unreadable archive, a zip bomb), as an error that names it
/// and its findings: counting, fixing or routing it would do nothing, silently.
pub(crate) fn require_skills(inputs: &[(Ingested, PathBuf)]) -> Result<(), String> {
    match inputs
        .iter()
        .find_map(|(ingested, path)| ingested.why_no_skill().map(|why| (path, why)))
    {
        Some((path, why)) => Err(format!("{}: {why}", path.display())),
        None => Ok(()),
    }
}

/// Analyzes every skill found; an input that holds none is an error (`require_skills`).
pub(crate) fn analyze_all(inputs: &[(Ingested, PathBuf)]) -> Result<Vec<Analysis>, String> {
    require_skills(inputs)?;
    let bundles: Vec<&skillpg_core::SkillBundle> =
        inputs.iter().flat_map(|(i, _)| &i.skills).collect();
    Ok(parallel_map(&bundles, |b| analyze(b)))
}

/// The skills of every input, analyzed once for every profile. Each input's own findings (an
/// archive's layout, a bomb, a path that leaves the folder) go through the profile as a skill's
/// do and come first on the input's first skill; an input that held no skill is checked as one
/// empty skill at the input's path (`Ingested::checked_skills`), so its findings are never
/// dropped and its verdict is never "valid".
pub(crate) struct Checked {
    pub(crate) analyses: Vec<Analysis>,
    /// For each skill, the input whose own findings come first on it (its first skill).
    pub(crate) owner: Vec<Option<usize>>,
}

pub(crate) fn analyze_inputs(inputs: &[(Ingested, PathBuf)]) -> Checked {
    let checked: Vec<_> = inputs
        .iter()
        .map(|(ingested, path)| ingested.checked_skills(&path.display().to_string()))
        .collect();
    let mut bundles = Vec::new();
    let mut owner = Vec::new();
    for (input, skills) in checked.iter().enumerate() {
        for (idx, skill) in skills.iter().enumerate() {
            owner.push((idx == 0).then_some(input));
            bundles.push(skill);
        }
    }
    Checked {
        analyses: parallel_map(&bundles, |b| analyze(b)),
        owner,
    }
}

/// `f` over `items` on every core (rayon's pool, which each thread takes the next item from, so
/// one large skill does not hold up a fixed share of the others), results in order: skills are
/// independent, and tokenizing a large folder is the slow part of a check.
pub(crate) fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync + Send,
) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().map(f).collect()
}

pub(crate) fn profile(key: &str) -> Result<&'static Profile, String> {
    Profile::by_key(key).ok_or_else(|| {
        let keys: Vec<&str> = skillpg_core::profile::ALL.iter().map(|p| p.key).collect();
        format!(
            "unknown profile '{key}' (expected {}, or all)",
            keys.join(", ")
        )
    })
}

/// The project's settings: `--config FILE`, else `skillpg.toml` in the working folder when it
/// exists; with the folder its relative roots are read from.
pub(crate) fn project_config(
    given: Option<&std::path::Path>,
) -> Result<Option<(skillpg_report::config::Config, PathBuf)>, String> {
    let path = match given {
        Some(p) => p.to_path_buf(),
        None => {
            let here = PathBuf::from(skillpg_report::config::FILE_NAME);
            if !here.exists() {
                return Ok(None);
            }
            here
        }
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let config = skillpg_report::config::Config::parse(&text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    Ok(Some((config, dir)))
}

/// The profiles a command checks against: `--profile`, else skillpg.toml's `profiles`, else
/// spec, resolved as every edge resolves them (`Profile::resolve`: each once, an unknown key
/// an error).
pub(crate) fn chosen_profiles(
    key: Option<&str>,
    project: Option<&(skillpg_report::config::Config, PathBuf)>,
) -> Result<Vec<&'static Profile>, String> {
    match (key, project) {
        (Some(k), _) => Profile::resolve(&[k]),
        (None, Some((c, _))) => Profile::resolve(&c.profiles),
        (None, None) => Profile::resolve::<&str>(&[]),
    }
}

/// The paths given, else skillpg.toml's `roots` (relative to the file).
pub(crate) fn project_paths(
    paths: Vec<PathBuf>,
    project: Option<&(skillpg_report::config::Config, PathBuf)>,
) -> Result<Vec<PathBuf>, String> {
    match (paths.is_empty(), project) {
        (false, _) => Ok(paths),
        (true, Some((c, dir))) if !c.roots.is_empty() => {
            Ok(c.roots.iter().map(|r| dir.join(r)).collect())
        }
        _ => Err(
            "give the skills to check (folders, SKILL.md files, archives), or list `roots` in skillpg.toml"
                .to_owned(),
        ),
    }
}

/// Each skill's findings under `p` in the project (`skillpg_report::project`: the input's own
/// findings first, the project's ignores and severities applied before anything is printed or
/// judged); and how many were ignored.
pub(crate) fn check_in_project(
    inputs: &[(Ingested, PathBuf)],
    checked: &Checked,
    p: &Profile,
    project: Option<&(skillpg_report::config::Config, PathBuf)>,
    settings: &skillpg_core::catalog::ListingSettings,
) -> (Vec<Vec<Diagnostic>>, usize) {
    let project = skillpg_report::project::Project {
        config: project.map(|(c, _)| c),
        listing: settings,
    };
    let indices: Vec<usize> = (0..checked.analyses.len()).collect();
    let found = parallel_map(&indices, |&i| {
        let own = checked.owner[i]
            .map(|input| inputs[input].0.diagnostics.as_slice())
            .unwrap_or_default();
        project.findings(p, &checked.analyses[i], own)
    });
    let ignored = found.iter().map(|(_, n)| n).sum();
    (found.into_iter().map(|(d, _)| d).collect(), ignored)
}

/// Whether each skill loads under each of every client, in the project: what a client lists
/// (`skillpg_report::listings_of_loaded`).
pub(crate) fn loads_in_project(
    inputs: &[(Ingested, PathBuf)],
    checked: &Checked,
    project: Option<&(skillpg_report::config::Config, PathBuf)>,
    settings: &skillpg_core::catalog::ListingSettings,
) -> Vec<(&'static str, Vec<bool>)> {
    skillpg_core::profile::ALL
        .iter()
        .map(|p| {
            let (per_skill, _) = check_in_project(inputs, checked, p, project, settings);
            (
                p.key,
                per_skill
                    .iter()
                    .map(|d| skillpg_report::project::loads(d))
                    .collect(),
            )
        })
        .collect()
}

/// The profiles `key` names: one, or every client for `all`.
pub(crate) fn profiles(key: &str) -> Result<Vec<&'static Profile>, String> {
    Profile::resolve(&[key])
}

/// The SKILL.md file on disk for a skill found under `root`; archives cannot be written.
pub(crate) fn skill_md_on_disk(
    root: &std::path::Path,
    display_path: &str,
    md_path: &str,
) -> Result<PathBuf, String> {
    let dir = PathBuf::from(display_path);
    let candidate = dir.join(md_path);
    if root.is_dir() && candidate.is_file() {
        Ok(candidate)
    } else if root.is_file()
        && root
            .file_name()
            .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"))
    {
        Ok(root.to_path_buf())
    } else {
        Err(format!(
            "{}: cannot write fixes into an archive; extract it first",
            root.display()
        ))
    }
}

pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| e.to_string())
}
