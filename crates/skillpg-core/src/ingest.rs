//! Turns what a person hands over (a folder's files, a folder of skill folders, a `.zip` or
//! `.skill` archive) into skill bundles, with bounds: nothing here trusts sizes, counts or
//! paths it is given.

use std::io::Read;

use crate::bundle::{BundleFile, MAX_FILE_BYTES, SkillBundle};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SourceRef};
use crate::profile::Profile;

/// An archive may expand to at most this many bytes in all (zip bombs expand to gigabytes; the
/// page holds every file several times over, in a 4 GB wasm memory).
pub const MAX_EXPANDED_BYTES: u64 = 64 * 1024 * 1024;
/// An archive or folder may hold at most this many files.
pub const MAX_ENTRIES: usize = 20_000;
/// An entry may not expand more than this many times its compressed size (and over 1 MiB).
pub const MAX_RATIO: u64 = 200;

const CLAUDE_AI_UPLOAD: SourceRef = SourceRef {
    title: "claude.ai skill upload (one top-level folder holding SKILL.md)",
    url: "https://support.claude.com/en/articles/12512180-using-skills-in-claude",
};

/// A path that leaves the folder.
pub static PATH_OUTSIDE: RuleMeta = RuleMeta {
    code: "SPG006",
    name: "path-outside-folder",
    summary: "An archive entry or file path that climbs out of the folder.",
    default_severity: Severity::Error,
    source: CLAUDE_AI_UPLOAD,
};
/// An archive too large to expand.
pub static ARCHIVE_TOO_LARGE: RuleMeta = RuleMeta {
    code: "SPG007",
    name: "archive-too-large",
    summary: "An archive whose expanded size, entry count or ratio is absurd (a zip bomb).",
    default_severity: Severity::Error,
    source: CLAUDE_AI_UPLOAD,
};
/// An archive laid out otherwise than claude.ai expects.
pub static ARCHIVE_LAYOUT: RuleMeta = RuleMeta {
    code: "SPG008",
    name: "archive-layout",
    summary: "An archive with no SKILL.md, several, or one not at the top level.",
    default_severity: Severity::Error,
    source: CLAUDE_AI_UPLOAD,
};
/// An archive that cannot be read at all.
pub static ARCHIVE_UNREADABLE: RuleMeta = RuleMeta {
    code: "SPG009",
    name: "archive-unreadable",
    summary: "A file that is not a readable zip archive.",
    default_severity: Severity::Error,
    source: CLAUDE_AI_UPLOAD,
};

/// A file of a folder that the file system would not give (permissions, a broken disk): the
/// skill is checked without it, and says so.
pub static FILE_UNREADABLE: RuleMeta = RuleMeta {
    code: "SPG090",
    name: "file-unreadable",
    summary: "A file in the folder that could not be read; the skill is checked without it.",
    default_severity: Severity::Warning,
    source: SourceRef {
        title: "the operating system's answer when the file was opened",
        url: "https://doc.rust-lang.org/std/fs/fn.read.html",
    },
};

/// The ingest rules, for the rule list.
pub static RULES: [&RuleMeta; 5] = [
    &PATH_OUTSIDE,
    &ARCHIVE_TOO_LARGE,
    &ARCHIVE_LAYOUT,
    &ARCHIVE_UNREADABLE,
    &FILE_UNREADABLE,
];

/// The finding for a file at `path` (relative to the input) that could not be read.
pub fn unreadable_file(path: &str, why: &str) -> Diagnostic {
    diag(
        &FILE_UNREADABLE,
        path,
        format!("could not be read ({why}); the skill was checked without it"),
    )
}

/// What ingesting produced: the skills, and what went wrong on the way (paths relative to the
/// input's root).
#[derive(Debug, Clone, Default)]
pub struct Ingested {
    /// The input's own name: a dropped folder's name, an archive's name without `.zip` or
    /// `.skill`.
    pub name: String,
    /// Every skill found, in path order.
    pub skills: Vec<SkillBundle>,
    /// Problems with the input itself, at their rules' default severity (see [`Self::findings`]).
    pub diagnostics: Vec<Diagnostic>,
}

impl Ingested {
    /// What a checker checks: every skill found (borrowed), or, when the input held none (an
    /// unreadable archive, a zip bomb refused before anything was inflated), one empty skill
    /// named after the input and shown at `display_path`, where the person put the input. That
    /// one fails `missing-skill-md`, a gate of every profile, so an input is never valid by
    /// holding nothing to check.
    pub fn checked_skills(&self, display_path: &str) -> std::borrow::Cow<'_, [SkillBundle]> {
        if self.skills.is_empty() {
            let mut empty = SkillBundle::new(&self.name, Vec::new());
            empty.display_path = display_path.to_owned();
            return std::borrow::Cow::Owned(vec![empty]);
        }
        std::borrow::Cow::Borrowed(&self.skills)
    }

    /// Why no skill could be read from this input, when none could: its findings' messages, or
    /// that it held no file. What an edge that counts, fixes or routes skills says instead of
    /// doing nothing (a checker checks the stand-in of [`Self::checked_skills`] instead).
    pub fn why_no_skill(&self) -> Option<String> {
        if !self.skills.is_empty() {
            return None;
        }
        let why: Vec<&str> = self
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        Some(if why.is_empty() {
            "no skill could be read: it holds no file".to_owned()
        } else {
            format!("no skill could be read: {}", why.join("; "))
        })
    }

    /// The input's own findings under `profile`: each at the severity the profile gives its
    /// rule (an error only where the rule is one of the profile's gates), the ones it turns off
    /// left out. The same path as a skill's findings, so an archive's problems are capped to a
    /// product's gates like any other.
    pub fn findings(&self, profile: &Profile) -> Vec<Diagnostic> {
        findings_under(&self.diagnostics, profile)
    }
}

/// An input's own findings (as [`Ingested::diagnostics`] holds them) under `profile`: each at
/// the severity the profile gives its rule, the ones it turns off left out. The one policy of
/// the CLI and the page, which keeps an archive's findings beside the skill it read.
pub fn findings_under(diagnostics: &[Diagnostic], profile: &Profile) -> Vec<Diagnostic> {
    diagnostics
        .iter()
        .filter_map(|d| {
            profile
                .severity(d.rule, d.severity)
                .map(|severity| Diagnostic {
                    severity,
                    ..d.clone()
                })
        })
        .collect()
}

/// An input's own finding rebuilt from what an edge keeps of it (the rule's name, the file and
/// the message, as the page keeps an archive's findings beside its skill and in a link), at
/// the rule's default severity; `None` when `rule` is not one of the input rules ([`RULES`]),
/// so a link cannot make up any other finding.
pub fn input_finding(rule: &str, file: &str, message: String) -> Option<Diagnostic> {
    RULES
        .iter()
        .find(|meta| meta.name == rule)
        .map(|meta| diag(meta, file, message))
}

/// Whether `rule` is one of the input rules ([`RULES`]): what a link may carry.
pub fn is_input_rule(rule: &str) -> bool {
    RULES.iter().any(|meta| meta.name == rule)
}

/// Whether a file is an archive by its name: `.zip` or `.skill`, in any case (`SKILL.ZIP`
/// too). The one test of every edge: the CLI, the file edge, the page's pickers, drops and
/// addresses.
pub fn is_archive_name(name: &str) -> bool {
    archive_stem(name).len() < name.len()
}

/// `name` without its archive extension (`.zip` or `.skill`, any case), or whole.
fn archive_stem(name: &str) -> &str {
    for ext in [".zip", ".skill"] {
        if let Some(at) = name.len().checked_sub(ext.len())
            && name.is_char_boundary(at)
            && name[at..].eq_ignore_ascii_case(ext)
        {
            return &name[..at];
        }
    }
    name
}

fn diag(meta: &'static RuleMeta, file: &str, message: String) -> Diagnostic {
    Diagnostic {
        code: meta.code,
        rule: meta.name,
        severity: meta.default_severity,
        message,
        file: file.to_owned(),
        span: None,
        location: None,
        fix: None,
        source: meta.source,
    }
}

/// Normalizes a path from an archive or a drop: `\` becomes `/`, `.` parts go; `None` when it
/// is absolute or climbs out with `..`.
pub fn clean_path(raw: &str) -> Option<String> {
    let raw = raw.replace('\\', "/");
    if raw.starts_with('/') || raw.chars().nth(1) == Some(':') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in raw.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The longest folder name taken from an untrusted source (a link, an index): the name limit
/// of common file systems (255 bytes), so no folder name costs more than a path part does.
pub const MAX_FOLDER_NAME_BYTES: usize = 255;

/// Whether `name` can be a skill folder's name where it comes from outside (a link's `dir`, an
/// index's skill): one path part, neither `.` nor `..`, no `/` or `\\`, no control character, a
/// drive letter or a colon, at most [`MAX_FOLDER_NAME_BYTES`]; otherwise a folder written from it
/// (a zip's top-level folder) would land outside where it is unpacked.
pub fn is_folder_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_FOLDER_NAME_BYTES
        && name != "."
        && name != ".."
        && !name
            .chars()
            .any(|c| c == '/' || c == '\\' || c == ':' || c.is_control())
}

/// Finds every skill in a tree of files: each folder holding a `SKILL.md` (or `skill.md`) is a
/// skill with every file below it; `.git` and `node_modules` are skipped. `root_name` is the
/// name of the folder the paths are relative to (a dropped folder's name).
pub fn discover(root_name: &str, files: Vec<(String, Vec<u8>)>) -> Ingested {
    let mut res = Ingested {
        name: root_name.to_owned(),
        ..Ingested::default()
    };
    let mut clean: Vec<(String, Vec<u8>)> = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        match clean_path(&path) {
            Some(p) if !p.is_empty() => {
                if p.split('/')
                    .any(|part| part == ".git" || part == "node_modules")
                {
                    continue;
                }
                clean.push((p, bytes));
            }
            // No file of the skill: the path was never read, so the finding is the input's
            // (a location joined onto the path would repeat its folder: `trav/trav/../..`).
            _ => res.diagnostics.push(diag(
                &PATH_OUTSIDE,
                "",
                format!(
                    "`{path}` climbs out of the folder (path traversal): it was not read, and the input is refused"
                ),
            )),
        }
    }
    if clean.len() > MAX_ENTRIES {
        res.diagnostics.push(diag(
            &ARCHIVE_TOO_LARGE,
            "",
            format!(
                "{} files, over the limit of {MAX_ENTRIES}; nothing was read",
                clean.len()
            ),
        ));
        return res;
    }
    let mut roots: Vec<String> = clean
        .iter()
        .filter_map(|(p, _)| {
            let (dir, file) = p.rsplit_once('/').unwrap_or(("", p));
            (file == "SKILL.md" || file == "skill.md").then(|| dir.to_owned())
        })
        .collect();
    roots.sort();
    roots.dedup();
    // A folder holding SKILL.md and skill.md is one skill.
    for root in &roots {
        let prefix = if root.is_empty() {
            String::new()
        } else {
            format!("{root}/")
        };
        // Files of a nested skill belong to the nested skill only.
        let nested: Vec<String> = roots
            .iter()
            .filter(|r| *r != root && r.starts_with(&prefix))
            .map(|r| format!("{r}/"))
            .collect();
        let files: Vec<BundleFile> = clean
            .iter()
            .filter(|(p, _)| p.starts_with(&prefix) && !nested.iter().any(|n| p.starts_with(n)))
            .map(|(p, b)| BundleFile {
                path: p[prefix.len()..].to_owned(),
                bytes: b.clone(),
            })
            .collect();
        let dir_name = if root.is_empty() {
            root_name.to_owned()
        } else {
            root.rsplit('/').next().unwrap_or(root).to_owned()
        };
        let mut bundle = SkillBundle::new(&dir_name, files);
        // The nearest skill folder above this one, if any (the root itself when it holds one).
        bundle.inside = roots
            .iter()
            .filter(|r| *r != root && (r.is_empty() || root.starts_with(&format!("{r}/"))))
            .max_by_key(|r| r.len())
            .map(|r| {
                if r.is_empty() {
                    root_name.to_owned()
                } else {
                    r.clone()
                }
            });
        bundle.display_path = if root.is_empty() {
            root_name.to_owned()
        } else if root_name.is_empty() {
            root.clone()
        } else {
            format!("{root_name}/{root}")
        };
        res.skills.push(bundle);
    }
    if roots.is_empty() {
        let mut bundle = SkillBundle::new(
            root_name,
            clean
                .into_iter()
                .map(|(path, bytes)| BundleFile { path, bytes })
                .collect(),
        );
        bundle.display_path = root_name.to_owned();
        res.skills.push(bundle);
    }
    res
}

/// A deflated zip of `entries` (path, bytes), in order: the inverse of [`read_archive`], for
/// the page's claude.ai zip and the tests. An entry the writer refuses is left out.
pub fn write_archive<P: AsRef<str>, B: AsRef<[u8]>>(entries: &[(P, B)]) -> Vec<u8> {
    use std::io::Write;
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut w = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (path, bytes) in entries {
            if w.start_file(path.as_ref(), opts).is_ok() {
                let _ = w.write_all(bytes.as_ref());
            }
        }
        let _ = w.finish();
    }
    buf.into_inner()
}

/// Why an archive is refused before anything is inflated, if it is: too many entries, or the
/// sizes it declares (in all, and against its own size: many small entries that each pass the
/// per-entry ratio still make a bomb together).
fn refused_before_inflating(
    archive: &mut zip::ZipArchive<std::io::Cursor<&[u8]>>,
    archive_bytes: usize,
) -> Option<Diagnostic> {
    if archive.len() > MAX_ENTRIES {
        return Some(diag(
            &ARCHIVE_TOO_LARGE,
            "",
            format!(
                "{} entries, over the limit of {MAX_ENTRIES}; nothing was read",
                archive.len()
            ),
        ));
    }
    // Before inflating anything: the sizes the archive declares, in all and against its own
    // size. Many small entries that each pass the per-entry ratio still make a bomb together.
    let declared_total: u64 = (0..archive.len())
        .filter_map(|i| archive.by_index_raw(i).ok().map(|e| e.size()))
        .fold(0u64, u64::saturating_add);
    if declared_total > MAX_EXPANDED_BYTES {
        return Some(diag(
            &ARCHIVE_TOO_LARGE,
            "",
            format!(
                "the archive declares {} MB of files, over the limit of {} MB; nothing was read",
                declared_total / 1_048_576,
                MAX_EXPANDED_BYTES / 1_048_576
            ),
        ));
    }
    let whole_ratio = declared_total / (archive_bytes as u64).max(1);
    if declared_total > 1024 * 1024 && whole_ratio > MAX_RATIO {
        return Some(diag(
            &ARCHIVE_TOO_LARGE,
            "",
            format!(
                "the archive expands {whole_ratio}× in all ({declared_total} bytes): a zip bomb; nothing was read"
            ),
        ));
    }
    None
}

/// The layout claude.ai expects of an upload: one top-level folder holding one SKILL.md.
fn layout_findings(files: &[(String, Vec<u8>)]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let skill_mds: Vec<&String> = files
        .iter()
        .map(|(p, _)| p)
        .filter(|p| p.rsplit('/').next() == Some("SKILL.md"))
        .collect();
    let top_dirs: std::collections::BTreeSet<&str> = files
        .iter()
        .map(|(p, _)| p.split('/').next().unwrap_or(""))
        .collect();
    match skill_mds.len() {
        0 => out.push(diag(&ARCHIVE_LAYOUT, "", "the archive holds no SKILL.md".to_owned())),
        1 => {
            let depth = skill_mds[0].matches('/').count();
            if depth != 1 {
                let where_ = if depth == 0 { "at the archive's root, not inside a folder" } else { "nested below the top-level folder" };
                out.push(diag(
                    &ARCHIVE_LAYOUT,
                    skill_mds[0],
                    format!("SKILL.md not at the top level: `{}` is {where_}; claude.ai expects one top-level folder holding SKILL.md", skill_mds[0]),
                ));
            } else if top_dirs.len() > 1 {
                out.push(diag(&ARCHIVE_LAYOUT, "", format!("the archive has {} top-level entries; claude.ai expects one folder", top_dirs.len())));
            }
        }
        n => out.push(diag(&ARCHIVE_LAYOUT, "", format!("more than one SKILL.md: the archive holds {n}; claude.ai takes one skill per upload"))),
    }
    out
}

/// Reads a `.zip` or `.skill` archive as claude.ai does: one top-level folder holding
/// SKILL.md. Bounded against zip bombs and path traversal; never panics.
pub fn read_archive(archive_name: &str, bytes: &[u8]) -> Ingested {
    let stem = archive_name.rsplit('/').next().unwrap_or(archive_name);
    let stem = archive_stem(stem);
    let mut res = Ingested {
        name: stem.to_owned(),
        ..Ingested::default()
    };
    let mut archive = match zip::ZipArchive::new(std::io::Cursor::new(bytes)) {
        Ok(a) => a,
        Err(err) => {
            res.diagnostics.push(diag(
                &ARCHIVE_UNREADABLE,
                "",
                format!("{archive_name} is not a readable zip archive: {err}"),
            ));
            return res;
        }
    };
    if let Some(refused) = refused_before_inflating(&mut archive, bytes.len()) {
        res.diagnostics.push(refused);
        return res;
    }
    let mut files = Vec::new();
    let mut expanded: u64 = 0;
    for idx in 0..archive.len() {
        let mut entry = match archive.by_index(idx) {
            Ok(e) => e,
            Err(err) => {
                res.diagnostics.push(diag(
                    &ARCHIVE_UNREADABLE,
                    "",
                    format!("entry {idx} cannot be read: {err}"),
                ));
                continue;
            }
        };
        if entry.is_dir() {
            continue;
        }
        let raw_name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let Some(path) = clean_path(&raw_name).filter(|p| !p.is_empty()) else {
            res.diagnostics.push(diag(
                &PATH_OUTSIDE,
                "",
                format!(
                    "archive entry `{raw_name}` climbs out of the folder (zip-slip): it was not extracted, and the archive is refused"
                ),
            ));
            continue;
        };
        if path.starts_with("__MACOSX/") || path.ends_with(".DS_Store") {
            continue;
        }
        let declared = entry.size();
        let compressed = entry.compressed_size().max(1);
        if declared > 1024 * 1024 && declared / compressed > MAX_RATIO {
            res.diagnostics.push(diag(
                &ARCHIVE_TOO_LARGE,
                &path,
                format!(
                    "`{path}` expands {}× ({declared} bytes): a zip bomb; it was skipped",
                    declared / compressed
                ),
            ));
            continue;
        }
        // Read at most one byte past the limit, whatever the header claims.
        let limit = (MAX_FILE_BYTES as u64 + 1)
            .min(MAX_EXPANDED_BYTES - expanded.min(MAX_EXPANDED_BYTES) + 1);
        let mut data = Vec::new();
        if let Err(err) = (&mut entry).take(limit).read_to_end(&mut data) {
            res.diagnostics.push(diag(
                &ARCHIVE_UNREADABLE,
                &path,
                format!("`{path}` cannot be decompressed: {err}"),
            ));
            continue;
        }
        expanded += data.len() as u64;
        if expanded > MAX_EXPANDED_BYTES {
            res.diagnostics.push(diag(
                &ARCHIVE_TOO_LARGE,
                "",
                format!(
                    "the archive expands past {} MB; the rest was not read",
                    MAX_EXPANDED_BYTES / 1_048_576
                ),
            ));
            break;
        }
        if data.len() > MAX_FILE_BYTES {
            // Keep a marker of the right size class without holding the content.
            data.truncate(MAX_FILE_BYTES + 1);
        }
        files.push((path, data));
    }
    res.diagnostics.extend(layout_findings(&files));
    let found = discover(stem, files);
    res.skills = found.skills;
    res.diagnostics.extend(found.diagnostics);
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        write_archive(entries)
    }

    #[test]
    fn an_archive_is_known_by_its_extension_in_any_case() {
        for name in ["a.zip", "SKILL.ZIP", "x.Skill", "dir/My.SKILL", "é.zip"] {
            assert!(is_archive_name(name), "{name}");
        }
        for name in ["SKILL.md", "zip", "a.zip.md", "skill", "ä", "notes.zi"] {
            assert!(!is_archive_name(name), "{name}");
        }
        let read = read_archive(
            "Upload.SKILL.ZIP",
            &zip_of(&[("my-skill/SKILL.md", b"---\nname: my-skill\n---\n")]),
        );
        assert_eq!(
            read.name, "Upload.SKILL",
            "the stem loses its extension whatever its case"
        );
    }

    #[test]
    fn an_input_finding_is_rebuilt_only_for_input_rules() {
        let d =
            input_finding("archive-layout", "", "two folders".to_owned()).expect("an input rule");
        assert_eq!(
            (d.code, d.severity, d.message.as_str()),
            ("SPG008", Severity::Error, "two folders")
        );
        assert!(
            input_finding("name-format", "SKILL.md", "made up".to_owned()).is_none(),
            "a skill's rule is not an input's"
        );
    }

    #[test]
    fn finds_every_skill_folder_and_skips_git() {
        let found = discover(
            "repo",
            vec![
                ("skills/a/SKILL.md".into(), b"---\n".to_vec()),
                ("skills/a/references/x.md".into(), b"x".to_vec()),
                ("skills/b/SKILL.md".into(), b"---\n".to_vec()),
                (".git/config".into(), b"x".to_vec()),
                ("../evil".into(), b"x".to_vec()),
            ],
        );
        let names: Vec<(&str, usize)> = found
            .skills
            .iter()
            .map(|s| (s.dir_name.as_str(), s.files.len()))
            .collect();
        assert_eq!(names, vec![("a", 2), ("b", 1)]);
        assert_eq!(found.diagnostics.len(), 1);
        assert_eq!(found.diagnostics[0].rule, "path-outside-folder");
    }

    #[test]
    fn archive_with_one_top_level_folder() {
        let zip = zip_of(&[
            ("my-skill/SKILL.md", b"---\nname: my-skill\n---\n"),
            ("my-skill/scripts/a.py", b"print(1)"),
        ]);
        let found = read_archive("my-skill.zip", &zip);
        assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
        assert_eq!(found.skills.len(), 1);
        assert_eq!(found.skills[0].dir_name, "my-skill");
    }

    #[test]
    fn archive_layout_errors_use_the_products_words() {
        let two = zip_of(&[("a/SKILL.md", b"-"), ("b/SKILL.md", b"-")]);
        assert!(
            read_archive("x.zip", &two).diagnostics[0]
                .message
                .starts_with("more than one SKILL.md")
        );
        let flat = zip_of(&[("SKILL.md", b"-")]);
        assert!(
            read_archive("x.zip", &flat).diagnostics[0]
                .message
                .starts_with("SKILL.md not at the top level")
        );
        assert_eq!(
            read_archive("x.zip", b"not a zip").diagnostics[0].rule,
            "archive-unreadable"
        );
    }

    #[test]
    fn traversal_and_bombs_are_refused() {
        let evil = zip_of(&[("../../etc/passwd", b"x"), ("ok/SKILL.md", b"-")]);
        let found = read_archive("x.zip", &evil);
        assert!(
            found
                .diagnostics
                .iter()
                .any(|d| d.rule == "path-outside-folder")
        );
        let bomb = zip_of(&[
            ("b/SKILL.md", b"-"),
            ("b/zeros.txt", &vec![0u8; 16 * 1024 * 1024]),
        ]);
        let found = read_archive("bomb.zip", &bomb);
        assert!(
            found
                .diagnostics
                .iter()
                .any(|d| d.rule == "archive-too-large"),
            "{:?}",
            found.diagnostics
        );
        // Many entries, each under the per-entry check (under 1 MiB), together a bomb.
        let entries: Vec<(String, Vec<u8>)> = (0..200)
            .map(|i| (format!("b/f{i}.txt"), vec![b'a'; 1024 * 1024 - 1]))
            .collect();
        let mut refs: Vec<(&str, &[u8])> = entries
            .iter()
            .map(|(p, b)| (p.as_str(), b.as_slice()))
            .collect();
        refs.push(("b/SKILL.md", b"-"));
        let many = zip_of(&refs);
        let found = read_archive("many.zip", &many);
        assert!(found.skills.is_empty(), "nothing is inflated");
        assert!(
            found
                .diagnostics
                .iter()
                .any(|d| d.rule == "archive-too-large" && d.message.contains("nothing was read")),
            "{:?}",
            found.diagnostics
        );
    }

    #[test]
    fn input_findings_take_each_profiles_severity() {
        let unreadable = read_archive("dir/x.zip", b"not a zip");
        assert!(unreadable.skills.is_empty());
        let checked = unreadable.checked_skills("dir/x.zip");
        assert_eq!(
            (
                checked.len(),
                checked[0].dir_name.as_str(),
                checked[0].files.len()
            ),
            (1, "x", 0),
            "checked as one empty skill named after it"
        );
        assert_eq!(
            checked[0].display_path, "dir/x.zip",
            "shown where the input is"
        );
        for p in crate::profile::ALL {
            assert_eq!(
                unreadable.findings(p)[0].severity,
                Severity::Error,
                "{}",
                p.key
            );
            assert!(
                crate::check(&crate::analyze(&checked[0]), p)
                    .iter()
                    .any(|d| d.rule == "missing-skill-md" && d.severity == Severity::Error)
            );
        }
        assert_eq!(
            unreadable.why_no_skill().as_deref(),
            Some(unreadable.diagnostics[0].message.as_str())
                .map(|m| format!("no skill could be read: {m}"))
                .as_deref()
        );
        // The upload's layout is claude.ai's gate only; elsewhere it is advice.
        let two = read_archive(
            "two.zip",
            &zip_of(&[("a/SKILL.md", b"-"), ("b/SKILL.md", b"-")]),
        );
        assert_eq!(two.skills.len(), 2);
        assert!(
            matches!(two.checked_skills("two.zip"), std::borrow::Cow::Borrowed(s) if s.len() == 2),
            "the skills found, not a copy"
        );
        assert_eq!(two.why_no_skill(), None);
        let layout = |p: &Profile| {
            two.findings(p)
                .iter()
                .find(|d| d.rule == "archive-layout")
                .map(|d| d.severity)
        };
        assert_eq!(layout(&crate::profile::CLAUDE_AI), Some(Severity::Error));
        assert_eq!(layout(&crate::profile::SPEC), Some(Severity::Warning));
        assert_eq!(
            layout(&crate::profile::CLAUDE_CODE),
            Some(Severity::Warning)
        );
    }
}
