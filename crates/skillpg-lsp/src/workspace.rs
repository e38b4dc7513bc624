//! The server's picture of the skills: every skill under the workspace's roots, read from disk
//! once, with the editor's open buffers laid over the files they hold, analyzed and checked
//! under the chosen profiles.
//!
//! An edit re-reads nothing from disk: the skill's bundle keeps its bytes, the edited file's
//! bytes are replaced, and only that skill is analyzed and checked again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use skillpg_core::{Analysis, BundleFile, Diagnostic, Profile, SkillBundle, analyze};
use skillpg_report::config::Config;

/// What the workspace checks against: the profiles, and the project's ignores and severities.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The profiles (initialization options' `profiles`, else `skillpg.toml`'s, else `spec`).
    pub profiles: Vec<&'static Profile>,
    /// `skillpg.toml`, when the workspace has one.
    pub config: Option<Config>,
}

impl Settings {
    /// The profiles that `keys` name, resolved as every edge resolves them
    /// (`Profile::resolve`); an unknown key is the same error as the CLI's, returned for the
    /// server to show, and the workspace is then checked under `spec` until it is mended.
    pub fn from_keys(keys: &[String], config: Option<Config>) -> (Settings, Option<String>) {
        match Profile::resolve(keys) {
            Ok(profiles) => (Settings { profiles, config }, None),
            Err(e) => (
                Settings {
                    profiles: Profile::resolve::<&str>(&[]).unwrap_or_default(),
                    config,
                },
                Some(e),
            ),
        }
    }
}

/// One skill folder, as the editor sees it now.
#[derive(Debug)]
pub struct Skill {
    /// The folder on disk.
    pub dir: PathBuf,
    /// Its files: the disk's bytes, with the open buffers laid over.
    pub bundle: SkillBundle,
    /// The analysis of `bundle`.
    pub analysis: Analysis,
    /// Each profile's findings, the project's ignores and severities applied.
    pub findings: Vec<(&'static Profile, Vec<Diagnostic>)>,
}

impl Skill {
    fn new(dir: PathBuf, bundle: SkillBundle, settings: &Settings) -> Skill {
        let analysis = analyze(&bundle);
        let findings = findings(&analysis, settings);
        Skill {
            dir,
            bundle,
            analysis,
            findings,
        }
    }

    /// The path of `file` (a bundle path) inside the folder, `/`-separated.
    pub fn relative(&self, file: &Path) -> Option<String> {
        let rel = file.strip_prefix(&self.dir).ok()?;
        let parts: Vec<_> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        (!parts.is_empty()).then(|| parts.join("/"))
    }

    /// The decoded text of a file of the skill (SKILL.md as the engine read it).
    pub fn text(&self, rel: &str) -> Option<&str> {
        if self.analysis.skill_md_path.as_deref() == Some(rel) {
            return self.analysis.doc.as_ref().map(|d| d.text.as_str());
        }
        self.analysis.file(rel).and_then(|f| f.text.text())
    }
}

/// Every profile's findings for one analysis.
fn findings(a: &Analysis, settings: &Settings) -> Vec<(&'static Profile, Vec<Diagnostic>)> {
    settings
        .profiles
        .iter()
        .map(|p| {
            let project = skillpg_report::project::Project {
                config: settings.config.as_ref(),
                listing: &skillpg_core::catalog::ListingSettings::default(),
            };
            (*p, project.findings(p, a, &[]).0)
        })
        .collect()
}

/// Every skill the editor knows, and the open buffers.
#[derive(Debug)]
pub struct Workspace {
    /// What is checked against.
    pub settings: Settings,
    /// The skills, each a folder holding a SKILL.md.
    pub skills: Vec<Skill>,
    /// The editor's open buffers, by path: they win over the disk.
    pub open: HashMap<PathBuf, String>,
    /// The workspace's roots as indexed (canonical): the server reads folders within them
    /// only (a client's `file:///SKILL.md` would otherwise read `/`, and `/proc/self/SKILL.md`
    /// gigabytes).
    pub roots: Vec<PathBuf>,
}

impl Workspace {
    /// An empty workspace.
    pub fn new(settings: Settings) -> Workspace {
        Workspace {
            settings,
            skills: Vec::new(),
            open: HashMap::new(),
            roots: Vec::new(),
        }
    }

    /// Reads every skill under `roots` (in parallel) and checks it; returns what could not be
    /// read, each with its path.
    pub fn index(&mut self, roots: &[PathBuf]) -> Vec<String> {
        let mut problems = Vec::new();
        let mut found = Vec::new();
        self.roots.extend(
            roots
                .iter()
                .map(|r| r.canonicalize().unwrap_or_else(|_| r.clone())),
        );
        for root in roots {
            match read_skills(root) {
                Ok(skills) => found.extend(skills),
                Err(e) => problems.push(e),
            }
        }
        self.add(found);
        problems
    }

    /// Checks bundles read from disk (open buffers laid over) and keeps them, replacing any
    /// skill of the same folder.
    fn add(&mut self, found: Vec<(PathBuf, SkillBundle)>) -> Vec<usize> {
        let settings = &self.settings;
        let open = &self.open;
        let new: Vec<Skill> = found
            .into_par_iter()
            .map(|(dir, mut bundle)| {
                overlay(&dir, &mut bundle, open);
                Skill::new(dir, bundle, settings)
            })
            .collect();
        new.into_iter().map(|skill| self.keep(skill)).collect()
    }

    /// Keeps a checked skill in place of the one of its folder, or after the others; its index.
    fn keep(&mut self, skill: Skill) -> usize {
        match self.skills.iter().position(|s| s.dir == skill.dir) {
            Some(i) => {
                self.skills[i] = skill;
                i
            }
            None => {
                self.skills.push(skill);
                self.skills.len() - 1
            }
        }
    }

    /// The skill `path` belongs to: the deepest skill folder holding it.
    pub fn skill_at(&self, path: &Path) -> Option<usize> {
        self.skills
            .iter()
            .enumerate()
            .filter(|(_, s)| path.starts_with(&s.dir))
            .max_by_key(|(_, s)| s.dir.components().count())
            .map(|(i, _)| i)
    }

    /// Sets an open buffer's text (`None`: the buffer closed, the disk's bytes are back) and
    /// re-checks the skill it belongs to; a SKILL.md outside every known skill makes its
    /// folder a skill. Returns the skill re-checked.
    pub fn set_text(&mut self, path: &Path, text: Option<String>) -> Option<usize> {
        let i = self.stage_text(path, text)?;
        self.recheck(i);
        Some(i)
    }

    /// [`Workspace::set_text`] without the check: the skill's bundle holds the new bytes, and
    /// the caller checks it once whatever edits are waiting have been staged (a burst of edits
    /// to a large file costs one check). A skill newly read from disk is checked already.
    /// A SKILL.md buffer whose folder holds no skill on disk (a file not saved yet, in a folder
    /// that may not exist) is a skill of its own, made of the open buffers under its folder.
    pub fn stage_text(&mut self, path: &Path, text: Option<String>) -> Option<usize> {
        match text {
            Some(t) => {
                self.open.insert(path.to_path_buf(), t);
            }
            None => {
                self.open.remove(path);
            }
        }
        let Some(i) = self.skill_at(path) else {
            let is_skill_md = path
                .file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"));
            let dir = path.parent().filter(|_| is_skill_md)?;
            if self.may_read(dir)
                && let Some(i) = self.reread(dir).into_iter().next()
            {
                return Some(i);
            }
            return self.unsaved(dir);
        };
        let skill = &mut self.skills[i];
        let rel = skill.relative(path)?;
        let bytes = match self.open.get(path) {
            Some(t) => t.as_bytes().to_vec(),
            None => match skillpg_fs::read_bounded(
                path,
                skillpg_core::bundle::MAX_FILE_BYTES as u64 + 1,
            ) {
                Ok(b) => b,
                // Deleted, or never saved: the file leaves the bundle.
                Err(_) => {
                    skill.bundle.files.retain(|f| f.path != rel);
                    return Some(i);
                }
            },
        };
        match skill.bundle.files.iter_mut().find(|f| f.path == rel) {
            Some(f) => f.bytes = bytes,
            None => {
                skill.bundle.files.push(BundleFile { path: rel, bytes });
                skill.bundle.files.sort_by(|a, b| a.path.cmp(&b.path));
            }
        }
        Some(i)
    }

    /// Drops skill `i` when nothing of it is left: no SKILL.md among its open buffers and none
    /// on disk (a new skill's buffers, closed without being saved). Returns the skill dropped,
    /// whose published findings the caller clears; the later skills' indices move down by one.
    pub fn forget_if_gone(&mut self, i: usize) -> Option<Skill> {
        let skill = self.skills.get(i)?;
        let open_skill_md = self.open.keys().any(|p| {
            p.parent() == Some(skill.dir.as_path())
                && p.file_name()
                    .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"))
        });
        let on_disk = ["SKILL.md", "skill.md"]
            .iter()
            .any(|n| skill.dir.join(n).is_file());
        if open_skill_md || on_disk {
            return None;
        }
        Some(self.skills.remove(i))
    }

    /// Whether the folder `dir` of a SKILL.md the editor opened may be read from disk: within
    /// one of the workspace's roots; with none (a file opened alone), where that SKILL.md is on
    /// disk and the folder is not a file system's root. Elsewhere the open buffers alone are
    /// checked.
    fn may_read(&self, dir: &Path) -> bool {
        let Ok(dir) = dir.canonicalize() else {
            return false;
        };
        if self.roots.is_empty() {
            return dir.parent().is_some()
                && (dir.join("SKILL.md").is_file() || dir.join("skill.md").is_file());
        }
        self.roots.iter().any(|r| dir.starts_with(r))
    }

    /// A skill made of the open buffers under `dir` alone, for a SKILL.md that is not on disk:
    /// an editor checks a new file before its first save.
    fn unsaved(&mut self, dir: &Path) -> Option<usize> {
        let files: Vec<BundleFile> = self
            .open
            .iter()
            .filter_map(|(p, text)| {
                let rel = p.strip_prefix(dir).ok()?;
                Some(BundleFile {
                    path: rel.to_string_lossy().replace('\\', "/"),
                    bytes: text.as_bytes().to_vec(),
                })
            })
            .collect();
        if !files
            .iter()
            .any(|f| f.path.eq_ignore_ascii_case("skill.md"))
        {
            return None;
        }
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut bundle = SkillBundle::new(&name, files);
        bundle.display_path = dir.display().to_string();
        let skill = Skill::new(dir.to_path_buf(), bundle, &self.settings);
        Some(self.keep(skill))
    }

    /// Reads the skill folder(s) at `dir` from disk again (a file was created, saved or
    /// deleted outside the editor); returns the skills re-checked.
    pub fn reread(&mut self, dir: &Path) -> Vec<usize> {
        match read_skills(dir) {
            Ok(found) => self.add(found),
            Err(_) => Vec::new(),
        }
    }

    /// Analyzes and checks skill `i` again.
    pub fn recheck(&mut self, i: usize) {
        let skill = &mut self.skills[i];
        skill.analysis = analyze(&skill.bundle);
        skill.findings = findings(&skill.analysis, &self.settings);
    }

    /// Checks every skill again under new settings.
    pub fn reconfigure(&mut self, settings: Settings) {
        self.settings = settings;
        let settings = &self.settings;
        self.skills
            .par_iter_mut()
            .for_each(|s| s.findings = findings(&s.analysis, settings));
    }
}

/// Lays the open buffers under `dir` over the bundle's bytes.
fn overlay(dir: &Path, bundle: &mut SkillBundle, open: &HashMap<PathBuf, String>) {
    for f in &mut bundle.files {
        if let Some(text) = open.get(&dir.join(&f.path)) {
            f.bytes = text.as_bytes().to_vec();
        }
    }
}

/// The skills under `root`, each with its folder on disk.
fn read_skills(root: &Path) -> Result<Vec<(PathBuf, SkillBundle)>, String> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let ingested = skillpg_fs::read_path(&root)?;
    // A folder with no SKILL.md under it is read as one skill that lacks it; an editor's
    // workspace folder is not a skill, and a SKILL.md opened below it must find its own folder.
    Ok(ingested
        .skills
        .into_iter()
        .filter(|b| b.skill_md().is_some())
        .map(|b| (PathBuf::from(&b.display_path), b))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SKILL.md the editor opens outside the workspace's roots is checked from its buffer
    /// alone: its folder is not read (the hostile round's `file:///SKILL.md` read `/`). Inside
    /// the roots, its folder is read.
    #[test]
    fn folders_are_read_only_within_the_roots() {
        let base = std::env::temp_dir().join(format!("skillpg-lsp-roots-{}", std::process::id()));
        let inside = base.join("root/in-skill");
        let outside = base.join("elsewhere/out-skill");
        for dir in [&inside, &outside] {
            std::fs::create_dir_all(dir.join("references")).expect("a folder");
            std::fs::write(dir.join("references/notes.md"), "notes\n").expect("a file");
        }
        let md = "---\nname: x\ndescription: y\n---\nSee [n](references/notes.md).\n";
        for dir in [&inside, &outside] {
            std::fs::write(dir.join("SKILL.md"), md).expect("SKILL.md on disk");
        }
        let mut ws = Workspace::new(Settings::from_keys(&[], None).0);
        let _ = ws.index(&[base.join("root")]);
        let i = ws
            .set_text(&inside.join("SKILL.md"), Some(md.to_owned()))
            .expect("a skill");
        assert!(
            ws.skills[i]
                .bundle
                .files
                .iter()
                .any(|f| f.path == "references/notes.md")
        );
        let o = ws
            .set_text(&outside.join("SKILL.md"), Some(md.to_owned()))
            .expect("a skill of its buffer");
        let paths: Vec<&str> = ws.skills[o]
            .bundle
            .files
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        assert_eq!(
            paths,
            ["SKILL.md"],
            "the folder outside the roots was not read"
        );
        // With no roots at all, a folder with no SKILL.md on disk is not read either.
        let mut alone = Workspace::new(Settings::from_keys(&[], None).0);
        let a = alone
            .set_text(Path::new("/proc/self/SKILL.md"), Some(md.to_owned()))
            .expect("a skill of its buffer");
        assert_eq!(alone.skills[a].bundle.files.len(), 1);
        let _ = std::fs::remove_dir_all(&base);
    }

    /// A SKILL.md never saved, closed: its skill is forgotten (the hostile round found closed
    /// unsaved buffers kept, and checked, for the whole session). A skill on disk stays.
    #[test]
    fn a_closed_unsaved_skill_is_forgotten() {
        let base = std::env::temp_dir().join(format!("skillpg-lsp-closed-{}", std::process::id()));
        let on_disk = base.join("saved");
        std::fs::create_dir_all(&on_disk).expect("a folder");
        let md = "---\nname: saved\ndescription: y\n---\n";
        std::fs::write(on_disk.join("SKILL.md"), md).expect("SKILL.md on disk");
        let mut ws = Workspace::new(Settings::from_keys(&[], None).0);
        let _ = ws.index(std::slice::from_ref(&base));
        let new_md = base.join("never-saved/SKILL.md");
        let notes = base.join("never-saved/references/notes.md");
        let n = ws
            .set_text(&new_md, Some(md.to_owned()))
            .expect("its skill");
        assert_eq!(ws.set_text(&notes, Some("notes".to_owned())), Some(n));
        assert_eq!(ws.skills.len(), 2);
        // Its SKILL.md closed first, its other buffer still open: nothing is a skill there.
        let i = ws
            .set_text(&new_md, None)
            .expect("the skill it belonged to");
        assert!(ws.forget_if_gone(i).is_some(), "forgotten");
        assert_eq!(ws.skills.len(), 1);
        // The buffer left open is under no skill now, and closing it makes none.
        assert_eq!(ws.set_text(&notes, None), None);
        assert!(ws.open.is_empty());
        // Closing a file of a skill on disk keeps the skill.
        let s = ws
            .set_text(&on_disk.join("SKILL.md"), Some(md.to_owned()))
            .expect("the saved skill");
        let s = ws.set_text(&on_disk.join("SKILL.md"), None).unwrap_or(s);
        assert!(ws.forget_if_gone(s).is_none(), "on disk: kept");
        assert_eq!(ws.skills.len(), 1);
        let _ = std::fs::remove_dir_all(&base);
    }
}
