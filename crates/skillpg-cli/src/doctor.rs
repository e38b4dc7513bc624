//! `skillpg doctor DIR`: a home or project folder scanned as each client scans it. For every
//! client with folders of its own (`skillpg_core::install`), every `SKILL.md` under each of its
//! folders in `DIR` (`.claude/skills`, `.agents/skills`, `.codex/skills`, …) is found or not by
//! the client's depth rule, then loads or not under the client's profile; names installed twice
//! are said with the client's precedence, and the listing of what loads with its budget (at the
//! context window given, or the client's default). Each skill that would not be listed gets the
//! first reason, in the client's words.
//!
//! The file system is read here, at the edge; what a client finds, loads and lists is the
//! engine's (`install::Looks`, `check`, `catalog`), as in `check` and `where`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use skillpg_core::install::{Install, depth_of, install_for};
use skillpg_core::{Analysis, Profile, Severity, analyze};

/// The deepest a scan goes below a skills folder (Codex's walk goes to 6).
const MAX_SCAN_DEPTH: usize = 8;

/// What a client does with a `SKILL.md` it could meet (`loads`, `not found` or `not listed` in
/// the JSON and the text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Status {
    #[serde(rename = "loads")]
    Loads,
    #[serde(rename = "not found")]
    NotFound,
    #[serde(rename = "not listed")]
    NotListed,
    /// A folder doctor could not look into (unreadable, or a link it does not follow).
    #[serde(rename = "not checked")]
    NotChecked,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Loads => "loads",
            Status::NotFound => "not found",
            Status::NotListed => "not listed",
            Status::NotChecked => "not checked",
        }
    }
}

/// One `SKILL.md` a client could meet, and what it does with it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SeenSkill {
    /// The skill's folder, relative to `DIR` (`.claude/skills/pdf`).
    pub path: String,
    /// Its name as the client lists it, when it is found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub status: Status,
    /// Why it is not found or not listed, in the client's words; for a skill that loads, a
    /// name it shares with another copy, or a description its listing cuts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<String>,
}

/// One client's view of `DIR`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ClientScan {
    pub client: String,
    pub title: String,
    /// The folders of the client that exist in `DIR`.
    pub folders: Vec<String>,
    pub skills: Vec<SeenSkill>,
    /// What its listing of the skills it loads comes to, when it documents a budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listing: Option<String>,
}

/// What a scan of a skills folder met: every folder holding `SKILL.md`, and every folder it
/// could not look into, with why.
#[derive(Debug, Default)]
struct Found {
    /// Folders holding `SKILL.md`, relative to the root (`""` for the root itself).
    skills: Vec<String>,
    /// Folders not looked into: `(relative path, why)`. A symbolic link is not followed (the
    /// client may follow it; doctor cannot say what it finds there), and a folder the system
    /// would not list is named, never passed over in silence.
    skipped: Vec<(String, String)>,
}

/// Every folder under `root` holding `SKILL.md`, relative to `root` (`""` for `root` itself),
/// to [`MAX_SCAN_DEPTH`], skipping `.git` and `node_modules` and not following symbolic links;
/// and the folders it could not look into.
fn skill_dirs(root: &Path) -> Found {
    let mut found = Found::default();
    let mut stack = vec![(root.to_path_buf(), String::new(), 0usize)];
    while let Some((dir, rel, depth)) = stack.pop() {
        if dir.join("SKILL.md").is_file() {
            found.skills.push(rel.clone());
        }
        if depth == MAX_SCAN_DEPTH {
            continue;
        }
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                found
                    .skipped
                    .push((rel.clone(), format!("the folder could not be read ({e})")));
                continue;
            }
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let child = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if kind.is_symlink() && entry.path().is_dir() {
                found.skipped.push((
                    child,
                    "a symbolic link to a folder: doctor does not follow links, so it cannot say what the client finds there (check the folder it points to)".to_owned(),
                ));
            } else if kind.is_dir() && name != ".git" && name != "node_modules" {
                stack.push((entry.path(), child, depth + 1));
            }
        }
    }
    found.skills.sort();
    found.skipped.sort();
    found
}

/// How `install` reads a `SKILL.md` that it does not find, in words.
fn not_found(install: &Install, title: &str, rel: &str) -> String {
    format!(
        "{} folder(s) down; {title} looks {}",
        depth_of(rel),
        install.depth
    )
}

/// The skill in `dir` as the engine reads it, with the input's own findings under `profile`,
/// checked as `check` checks it (the person's listing settings, the project's ignores and
/// severities).
fn read_skill(
    dir: &Path,
    profile: &Profile,
    settings: &skillpg_core::catalog::ListingSettings,
    project: Option<&skillpg_report::config::Config>,
) -> Result<(Analysis, Vec<skillpg_core::Diagnostic>), String> {
    let ingested = skillpg_fs::read_path(dir)?;
    let bundle = ingested
        .skills
        .iter()
        .find(|b| b.inside.is_none())
        .ok_or_else(|| format!("{}: no skill", dir.display()))?;
    let analysis = analyze(bundle);
    let (diags, _) = skillpg_report::project::Project {
        config: project,
        listing: settings,
    }
    .findings(profile, &analysis, &ingested.diagnostics);
    Ok((analysis, diags))
}

/// Why `install`'s client never meets the SKILL.md in `rel` (relative to the skills `folder`,
/// among every skill folder `skills` found there), or `None` when it does. A walk that does not
/// go inside a skill's folder never meets a SKILL.md below another (pi stops at a folder that
/// holds one; `skill-nested`); a glob of fixed depths (Gemini CLI's `SKILL.md` and
/// `*/SKILL.md`) is decided by depth alone.
fn unfound(
    install: &skillpg_core::install::Install,
    profile: &Profile,
    folder: &str,
    skills: &[String],
    rel: &str,
) -> Option<String> {
    let walks = matches!(
        install.looks,
        skillpg_core::install::Looks::Recursive { .. }
    );
    let outer = skills
        .iter()
        .find(|o| o.as_str() != rel && (o.is_empty() || rel.starts_with(&format!("{o}/"))));
    if let Some(outer) = outer.filter(|_| walks && !profile.scans_inside_skills) {
        return Some(format!(
            "inside the skill folder `{}`: {} does not look inside a skill's folder",
            if outer.is_empty() {
                folder
            } else {
                outer.as_str()
            },
            profile.title
        ));
    }
    (!install.looks.finds(rel)).then(|| not_found(install, profile.title, rel))
}

/// `dir` scanned as each of `profiles` scans it, with listings at `context_window` under the
/// person's listing `settings`, and the `project`'s ignores and severities applied.
pub fn scan(
    dir: &Path,
    profiles: &[&'static Profile],
    context_window: Option<usize>,
    settings: &skillpg_core::catalog::ListingSettings,
    project: Option<&skillpg_report::config::Config>,
) -> Result<Vec<ClientScan>, String> {
    if !dir.is_dir() {
        return Err(format!("{}: not a folder", dir.display()));
    }
    let mut out = Vec::new();
    for profile in profiles {
        let Some(install) = install_for(profile.key) else {
            continue;
        };
        let mut folders: Vec<&str> = install
            .project
            .iter()
            .chain(install.user)
            .copied()
            .collect();
        folders.sort();
        folders.dedup();
        let mut scan = ClientScan {
            client: profile.key.to_owned(),
            title: profile.title.to_owned(),
            folders: Vec::new(),
            skills: Vec::new(),
            listing: None,
        };
        let mut loaded: Vec<(usize, Analysis)> = Vec::new();
        for folder in folders {
            let root: PathBuf = dir.join(folder);
            if !root.is_dir() {
                continue;
            }
            scan.folders.push(folder.to_owned());
            let found = skill_dirs(&root);
            if let Some(first) = install.shadowed_by(folder, |f| dir.join(f).is_dir()) {
                shadowed(&mut scan, install, folder, first, &found.skills);
                continue;
            }
            for (rel, why) in found.skipped {
                scan.skills.push(SeenSkill {
                    path: path_in(folder, &rel),
                    name: None,
                    status: Status::NotChecked,
                    why: vec![why],
                });
            }
            for rel in &found.skills {
                let rel = rel.clone();
                let path = path_in(folder, &rel);
                if let Some(why) = unfound(install, profile, folder, &found.skills, &rel) {
                    scan.skills.push(SeenSkill {
                        path,
                        name: None,
                        status: Status::NotFound,
                        why: vec![why],
                    });
                    continue;
                }
                match read_skill(&root.join(&rel), profile, settings, project) {
                    Ok((analysis, diags)) => {
                        let first_error = diags.iter().find(|d| d.severity == Severity::Error);
                        let (status, why) = match first_error {
                            Some(d) => (
                                Status::NotListed,
                                vec![format!("{} {}: {}", d.code, d.rule, d.message)],
                            ),
                            None => (Status::Loads, Vec::new()),
                        };
                        scan.skills.push(SeenSkill {
                            path,
                            name: Some(analysis.display_name().to_owned()),
                            status,
                            why,
                        });
                        if first_error.is_none() {
                            loaded.push((scan.skills.len() - 1, analysis));
                        }
                    }
                    Err(e) => scan.skills.push(SeenSkill {
                        path,
                        name: None,
                        status: Status::NotListed,
                        why: vec![e],
                    }),
                }
            }
        }
        mark_names_installed_twice(&mut scan, &loaded, install.wins);
        let analyses: Vec<Analysis> = loaded.into_iter().map(|(_, a)| a).collect();
        mark_listing(&mut scan, profile, &analyses, context_window, settings);
        out.push(scan);
    }
    Ok(out)
}

/// The text of a scan.
pub fn text(scans: &[ClientScan]) -> String {
    let mut out = String::new();
    for s in scans {
        out.push_str(&format!("{} ({})\n", s.title, s.client));
        if s.folders.is_empty() {
            out.push_str("  none of its folders is here\n\n");
            continue;
        }
        out.push_str(&format!("  folders here: {}\n", s.folders.join(", ")));
        for k in &s.skills {
            let name = k
                .name
                .as_deref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            out.push_str(&format!("  {}{name}: {}\n", k.path, k.status.as_str()));
            for why in &k.why {
                out.push_str(&format!("    {why}\n"));
            }
        }
        if let Some(l) = &s.listing {
            out.push_str(&format!("  listing: {l}\n"));
        }
        out.push('\n');
    }
    out
}

/// The path of a skill at `rel` in the skills `folder` (the folder itself where `rel` is empty).
fn path_in(folder: &str, rel: &str) -> String {
    if rel.is_empty() {
        folder.to_owned()
    } else {
        format!("{folder}/{rel}")
    }
}

/// Every skill in `folder`, which `install`'s client does not scan because `first`, an earlier
/// folder of the same group, exists (Kimi Code CLI's `find_first_existing_dir`).
fn shadowed(
    scan: &mut ClientScan,
    install: &Install,
    folder: &str,
    first: &str,
    skills: &[String],
) {
    let group = install
        .first_existing
        .iter()
        .find(|g| g.contains(&folder))
        .map(|g| {
            g.iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    for rel in skills {
        scan.skills.push(SeenSkill {
            path: path_in(folder, rel),
            name: None,
            status: Status::NotFound,
            why: vec![format!(
                "{} scans only the first of {group} that exists, and `{first}` does",
                scan.title
            )],
        });
    }
}

/// Marks each copy of a name installed twice (among the skills that load, at `loaded`'s
/// places in the scan): the client's precedence (`wins`) decides which it lists.
fn mark_names_installed_twice(scan: &mut ClientScan, loaded: &[(usize, Analysis)], wins: &str) {
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, a) in loaded {
        by_name
            .entry(a.display_name().to_lowercase())
            .or_default()
            .push(*i);
    }
    for copies in by_name.values().filter(|c| c.len() > 1) {
        let paths: Vec<String> = copies
            .iter()
            .map(|i| scan.skills[*i].path.clone())
            .collect();
        for i in copies {
            scan.skills[*i].why.push(format!(
                "the same name in {}: {}",
                paths.join(" and "),
                wins
            ));
        }
    }
}

/// The listing of what loads (`analyses`), where the client documents a budget: a skill left
/// out of it is not listed, a description cut is said, and the scan says the listing's total.
fn mark_listing(
    scan: &mut ClientScan,
    profile: &Profile,
    analyses: &[Analysis],
    context_window: Option<usize>,
    settings: &skillpg_core::catalog::ListingSettings,
) {
    if profile.listing.is_none() || analyses.is_empty() {
        return;
    }
    let Some(l) = skillpg_report::listings_with(analyses, context_window, settings)
        .into_iter()
        .find(|l| l.client == profile.key)
    else {
        return;
    };
    for listed in &l.skills {
        let Some(seen) = scan
            .skills
            .iter_mut()
            .find(|k| k.status == Status::Loads && k.name.as_deref() == Some(listed.name.as_str()))
        else {
            continue;
        };
        match listed.shown_chars {
            None => {
                seen.status = Status::NotListed;
                seen.why.push(format!(
                    "left out of {}'s listing: the skills loaded here are over its budget",
                    profile.title
                ));
            }
            Some(n) if n < listed.description_chars => seen.why.push(format!(
                "its description is cut to {n} of {} characters in the listing",
                listed.description_chars
            )),
            Some(_) => {}
        }
    }
    scan.listing = Some(crate::render::listing_summary(&l));
}
