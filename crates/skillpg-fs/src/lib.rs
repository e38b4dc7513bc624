//! The native edge of the engine: reads a path on disk (a skill folder, a folder of skills, a
//! `.zip` or `.skill` archive) into [`Ingested`] bundles.
//!
//! The engine takes bytes: the edges read them. This crate reads skill folders and archives for
//! the CLI, the language server (`skillpg-lsp`, which also reads `skillpg.toml` and the buffers an
//! editor sends) and the tests; the pure crates never touch the file system (the tidy test's
//! `pure_core` rule).

use std::path::{Path, PathBuf};

use skillpg_core::bundle::MAX_FILE_BYTES;
use skillpg_core::ingest::{self, Ingested, MAX_ENTRIES};

/// Where the shared corpus of real skills lives, relative to the workspace root.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// Why a path could not be read as skills: its message names the path.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The path (or the folder itself) could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A file that is neither an archive nor a SKILL.md.
    #[error("{}: not a folder, a SKILL.md, a .zip or a .skill archive", .0.display())]
    NotSkills(PathBuf),
}

impl ReadError {
    /// Whether the path does not exist (an edge may then say so, or look elsewhere).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// The message, for the edges whose errors are text.
impl From<ReadError> for String {
    fn from(e: ReadError) -> String {
        e.to_string()
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ReadError + '_ {
    move |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads `path`: an archive by its extension, else a folder walked recursively (skipping
/// `.git` and `node_modules`, not following symbolic links). An I/O error names the path.
pub fn read_path(path: &Path) -> Result<Ingested, ReadError> {
    let meta = std::fs::metadata(path).map_err(io(path))?;
    let name = path
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| path.display().to_string());
    if meta.is_file() {
        if ingest::is_archive_name(&name) {
            // An archive past what one load may expand to is refused unread; below it, it is
            // read with that bound (a file that grows meanwhile included).
            let max = ingest::MAX_EXPANDED_BYTES;
            if meta.len() > max {
                return Err(ReadError::Io {
                    path: path.to_path_buf(),
                    source: std::io::Error::other(format!(
                        "it is {} MB, over the {} MB an archive may be; it was not read",
                        meta.len().div_ceil(1_048_576),
                        max / 1_048_576
                    )),
                });
            }
            let bytes = read_bounded(path, max + 1).map_err(io(path))?;
            let mut res = ingest::read_archive(&name, &bytes);
            located(&mut res, path);
            return Ok(res);
        }
        // A lone SKILL.md: its folder is the skill.
        if let Some(parent) = path
            .parent()
            .filter(|_| name.eq_ignore_ascii_case("skill.md"))
        {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            return read_path(parent);
        }
        return Err(ReadError::NotSkills(path.to_path_buf()));
    }
    if !meta.is_dir() {
        return Err(ReadError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(
                "neither a file nor a folder (a device, a FIFO or a socket); it was not read",
            ),
        });
    }
    // The folder itself must be readable; below it, a file or folder that is not is a finding
    // on the skill (`file-unreadable`), and every other skill is still read and checked.
    std::fs::read_dir(path).map_err(io(path))?;
    let mut files = Vec::new();
    let mut unreadable = Vec::new();
    walk(path, Path::new(""), &mut files, &mut unreadable);
    let mut res = ingest::discover(&name, files);
    for (rel, why) in unreadable {
        res.diagnostics.push(ingest::unreadable_file(&rel, &why));
    }
    located(&mut res, path);
    Ok(res)
}

/// Rewrites each skill's display path, which the engine makes relative to the input's name
/// (`res.name`), onto the path the person gave (`skills/a` under `repo` becomes
/// `path/skills/a`; a skill inside an archive reads `my.zip/my-skill`), so every finding names a
/// place they can find.
fn located(res: &mut Ingested, path: &Path) {
    let root_name = res.name.as_str();
    for skill in &mut res.skills {
        skill.display_path = Path::new(&path.display().to_string())
            .join(
                skill
                    .display_path
                    .strip_prefix(root_name)
                    .unwrap_or(&skill.display_path)
                    .trim_start_matches('/'),
            )
            .display()
            .to_string()
            .trim_end_matches('/')
            .to_owned();
    }
}

/// Reads every file under `root/rel` into `out`; what cannot be read goes to `unreadable` as
/// `(path relative to root, the system's reason)`.
fn walk(
    root: &Path,
    rel: &Path,
    out: &mut Vec<(String, Vec<u8>)>,
    unreadable: &mut Vec<(String, String)>,
) {
    let dir = root.join(rel);
    let shown = |p: &Path| p.to_string_lossy().replace('\\', "/");
    let mut entries: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries.filter_map(Result::ok).collect(),
        Err(e) => {
            unreadable.push((shown(rel), e.to_string()));
            return;
        }
    };
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == ".git" || name == "node_modules" {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let rel_path = rel.join(&name);
        if kind.is_dir() {
            walk(root, &rel_path, out, unreadable);
        } else if kind.is_file() {
            if out.len() > MAX_ENTRIES {
                return;
            }
            // One byte past the engine's limit is enough to know a file is too large: a 2 GB
            // file is never held to be refused.
            match read_bounded(&entry.path(), MAX_FILE_BYTES as u64 + 1) {
                Ok(bytes) => out.push((shown(&rel_path), bytes)),
                Err(e) => unreadable.push((shown(&rel_path), e.to_string())),
            }
        }
    }
}

/// The skill folders a folder of skills holds (a registry given as one folder), found without
/// reading a file: each folder with a `SKILL.md` (or `skill.md`) is one, and is not looked into
/// further; `.git` and `node_modules` are passed over, as [`read_path`] does. `None` where
/// `path` is no folder, is a skill itself, or holds no skill folder: it is read as it is. Read
/// one by one, in this order (the discovery's: by relative path), these give the skills
/// [`read_path`] gives for the whole folder, so a streamed check holds one skill at a time.
pub fn skill_folders_within(path: &Path) -> Option<Vec<PathBuf>> {
    let is_skill = |dir: &Path| dir.join("SKILL.md").is_file() || dir.join("skill.md").is_file();
    if !path.is_dir() || is_skill(path) {
        return None;
    }
    let mut found: Vec<String> = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(path.join(&rel)) else {
            // An unreadable folder is a finding of the whole input's reading: read it whole.
            return None;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == ".git" || name == "node_modules" {
                continue;
            }
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let sub = rel.join(&name);
            if is_skill(&path.join(&sub)) {
                found.push(sub.to_string_lossy().replace('\\', "/"));
            } else {
                stack.push(sub);
            }
        }
    }
    if found.is_empty() {
        return None;
    }
    found.sort();
    Some(found.into_iter().map(|rel| path.join(rel)).collect())
}

/// At most `limit` bytes of the file at `path`, read before anything of its size is allocated
/// (a special file such as `/dev/zero` ends there too).
pub fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The skill folders holding `paths` (files as a commit or a pull request names them, which
/// may be deleted): for each, the nearest folder at or above it with a `SKILL.md` (or
/// `skill.md`), each once, in the order first met. A path in no skill gives none.
pub fn skill_folders_holding(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for p in paths {
        let found = p.ancestors().find(|d| {
            let d = if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            };
            d.join("SKILL.md").is_file() || d.join("skill.md").is_file()
        });
        if let Some(d) = found {
            let d = if d.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                d.to_path_buf()
            };
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file far past the engine's limit is read one byte past it, never whole (the hostile
    /// round's 2 GB file took 4.2 GB of memory to be told it "was not read"); the finding says it
    /// is over the limit. The file is sparse: it takes no disk.
    #[test]
    fn a_huge_file_is_read_one_byte_past_the_limit() {
        let dir = std::env::temp_dir().join(format!("skillpg-fs-huge-{}", std::process::id()));
        let skill = dir.join("huge-skill");
        std::fs::create_dir_all(skill.join("assets")).expect("a temporary folder");
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: huge-skill\ndescription: Has a huge asset. Use when testing.\n---\n# Body\n",
        )
        .expect("SKILL.md");
        let big = std::fs::File::create(skill.join("assets/big.bin")).expect("a file");
        big.set_len(3 << 30).expect("a sparse 3 GB file");
        let read = read_path(&skill).expect("the folder reads");
        let bundle = &read.skills[0];
        let file = bundle
            .files
            .iter()
            .find(|f| f.path == "assets/big.bin")
            .expect("the big file is listed");
        assert_eq!(file.bytes.len(), MAX_FILE_BYTES + 1);
        let a = skillpg_core::analyze(bundle);
        let found = skillpg_core::check(&a, &skillpg_core::profile::CLAUDE_AI);
        let too_large = found
            .iter()
            .find(|d| d.rule == "file-too-large")
            .expect("the file is too large");
        assert!(
            too_large.message.contains("is over the 8 MB upload limit"),
            "{}",
            too_large.message
        );
        // A special file ends at the bound as well.
        assert_eq!(
            read_bounded(Path::new("/dev/zero"), 1000)
                .expect("reads")
                .len(),
            1000
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
