//! `skillpg check` over many skills under several clients, streamed: each input is read,
//! analyzed, checked under every chosen client and written before the next few are read, so
//! memory holds the inputs in flight (a few per core), never the sum of the skills. A registry of
//! thousands of skills is checked in the memory one large skill needs.
//!
//! `--format jsonl` writes one line a skill (`skillpg_report::SkillAcrossJson`, each finding
//! once with the clients that raise it) as soon as it is checked. The JSON of `--profile all`
//! is the same document the in-memory path printed, byte for byte: each client's skills go to a
//! scratch file as they are checked, and the document is put together from them at the end. The
//! text of `--profile all` keeps only what it prints: each client's verdict per skill and the
//! errors of the skills that fail.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::PathBuf;

use skillpg_core::{Analysis, Diagnostic, Profile, analyze};
use skillpg_report::project::Project;

use crate::project::parallel_map;

/// What a streamed check writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Sink {
    /// One JSON line a skill.
    Lines,
    /// `--profile all --format json`'s document.
    Json,
    /// `--profile all`'s text.
    Text,
}

/// What a streamed check found: whether every skill loads under every client, and how many
/// findings the project's `skillpg.toml` ignored.
pub(crate) struct Streamed {
    pub(crate) ok: bool,
    pub(crate) ignored: usize,
}

/// One skill, checked under every client.
struct Checked {
    analysis: Analysis,
    /// Findings per client, in the order chosen.
    findings: Vec<Vec<Diagnostic>>,
}

/// A scratch file of one client's part of the JSON document (its skills' checks, or its cells of
/// the matrix), and how many entries it holds; removed when dropped (also on an error).
struct Part {
    path: PathBuf,
    file: BufWriter<File>,
    written: usize,
}

impl Part {
    fn create(what: &str, i: usize, key: &str) -> Result<Part, String> {
        let path = std::env::temp_dir().join(format!(
            "skillpg-check-{}-{what}-{i}-{key}.json",
            std::process::id()
        ));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Part {
            path,
            file: BufWriter::new(file),
            written: 0,
        })
    }

    /// Adds one entry: `value` as pretty JSON, placed eight spaces in (both parts' entries sit
    /// four levels deep in the document).
    fn push(&mut self, value: &impl serde::Serialize) -> Result<(), String> {
        let value = serde_json::to_value(value).map_err(|e| e.to_string())?;
        let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
        let sep = if self.written == 0 { "" } else { ",\n" };
        write!(self.file, "{sep}        {}", indent(&text, 8)).map_err(|e| e.to_string())?;
        self.written += 1;
        Ok(())
    }

    /// Writes the entries as a JSON array's items (`[` and `]` included) at six spaces.
    fn copy_array(&mut self, out: &mut impl Write) -> Result<(), String> {
        let io = |e: std::io::Error| e.to_string();
        if self.written == 0 {
            return write!(out, "[]").map_err(io);
        }
        writeln!(out, "[").map_err(io)?;
        self.file.flush().map_err(io)?;
        let mut f = self.file.get_ref().try_clone().map_err(io)?;
        f.seek(SeekFrom::Start(0)).map_err(io)?;
        std::io::copy(&mut f, out).map_err(io)?;
        write!(out, "\n      ]").map_err(io)
    }
}

impl Drop for Part {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// What the text and the JSON keep while the skills stream by.
struct Kept {
    /// Text: each client's line, and every failing skill's errors.
    lines: Vec<crate::render::ClientLine>,
    failing: Vec<crate::render::FailingSkill>,
    /// JSON: each client's checks and matrix cells, in scratch files.
    checks: Vec<Part>,
    cells: Vec<Part>,
}

/// Checks `paths` under `profiles` in `project`, writing to standard output as `sink` says.
pub(crate) fn check_streamed(
    paths: &[PathBuf],
    profiles: &[&'static Profile],
    project: &Project<'_>,
    sink: Sink,
) -> Result<Streamed, String> {
    rayon::spawn(skillpg_tokens::warm_up);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut kept = Kept {
        lines: profiles
            .iter()
            .map(|p| crate::render::ClientLine::new(p))
            .collect(),
        failing: Vec::new(),
        checks: Vec::new(),
        cells: Vec::new(),
    };
    if sink == Sink::Json {
        for (i, p) in profiles.iter().enumerate() {
            kept.checks.push(Part::create("checks", i, p.key)?);
            kept.cells.push(Part::create("cells", i, p.key)?);
        }
    }
    let (mut ok, mut ignored) = (true, 0);
    // A folder of skills (a registry given as one folder) is read a skill folder at a time, in
    // the order reading it whole gives them: memory holds the skills in flight, not the folder.
    let paths: Vec<PathBuf> = paths
        .iter()
        .flat_map(|p| skillpg_fs::skill_folders_within(p).unwrap_or_else(|| vec![p.clone()]))
        .collect();
    let paths = &paths;
    // A few inputs per core at a time: enough to keep every core busy, few enough to bound
    // memory by the largest of them.
    let chunk = rayon::current_num_threads().max(1) * 4;
    for paths in paths.chunks(chunk) {
        let read = parallel_map(paths, |path| check_one(path, profiles, project));
        for (result, path) in read.into_iter().zip(paths) {
            // An input that cannot be read (missing, a device or a FIFO, unreadable) is said on
            // standard error and fails the run; every other input is still checked.
            let (skills, n_ignored) = match result {
                Ok(checked) => checked,
                Err(why) => {
                    eprintln!("{}: {why}; not checked", path.display());
                    ok = false;
                    continue;
                }
            };
            ignored += n_ignored;
            for skill in skills {
                ok &= skill.findings.iter().all(|f| skillpg_core::is_valid(f));
                write_skill(&skill, profiles, sink, &mut out, &mut kept)?;
            }
        }
    }
    match sink {
        Sink::Lines => {}
        Sink::Json => write_document(&mut out, profiles, &mut kept)?,
        Sink::Text => write!(
            out,
            "{}",
            crate::render::clients_text(&kept.lines, &kept.failing, &[])
        )
        .map_err(|e| e.to_string())?,
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(Streamed { ok, ignored })
}

/// Reads, analyzes and checks one input under every client: its skills, and how many findings
/// the project ignored.
fn check_one(
    path: &std::path::Path,
    profiles: &[&'static Profile],
    project: &Project<'_>,
) -> Result<(Vec<Checked>, usize), String> {
    let ingested = skillpg_fs::read_path(path).map_err(String::from)?;
    let mut ignored = 0;
    let skills = ingested
        .checked_skills(&path.display().to_string())
        .iter()
        .enumerate()
        .map(|(idx, bundle)| {
            let analysis = analyze(bundle);
            // The input's own findings belong to its first skill, as the in-memory path has it.
            let own: &[Diagnostic] = if idx == 0 { &ingested.diagnostics } else { &[] };
            let findings = profiles
                .iter()
                .map(|p| {
                    let (found, n) = project.findings(p, &analysis, own);
                    ignored += n;
                    found
                })
                .collect();
            Checked { analysis, findings }
        })
        .collect();
    Ok((skills, ignored))
}

/// Writes one checked skill where `sink` wants it.
fn write_skill(
    skill: &Checked,
    profiles: &[&'static Profile],
    sink: Sink,
    out: &mut impl Write,
    kept: &mut Kept,
) -> Result<(), String> {
    let a = &skill.analysis;
    match sink {
        Sink::Lines => {
            let per_client: Vec<(&Profile, &[Diagnostic])> = profiles
                .iter()
                .zip(&skill.findings)
                .map(|(p, f)| (*p, f.as_slice()))
                .collect();
            serde_json::to_writer(&mut *out, &skillpg_report::skill_across(a, &per_client))
                .map_err(|e| e.to_string())?;
            writeln!(out).map_err(|e| e.to_string())
        }
        Sink::Json => {
            for (i, found) in skill.findings.iter().enumerate() {
                kept.checks[i].push(&skillpg_report::skill_check_json(a, found, false))?;
                kept.cells[i].push(&skillpg_report::client_cell(a, found))?;
            }
            Ok(())
        }
        Sink::Text => {
            let mut checks = Vec::new();
            for (i, found) in skill.findings.iter().enumerate() {
                kept.lines[i].add(&skillpg_report::client_cell(a, found));
                if !skillpg_core::is_valid(found) {
                    checks.push((
                        profiles[i].key,
                        skillpg_report::skill_check_json(a, found, false),
                    ));
                }
            }
            if let Some(f) =
                crate::render::failing_skill(&a.display_path, checks.iter().map(|(k, c)| (*k, c)))
            {
                kept.failing.push(f);
            }
            Ok(())
        }
    }
}

/// `text`'s lines after the first, each `by` spaces further in (a pretty JSON value placed
/// inside a document; its strings hold no raw newline, so every line break is the printer's).
fn indent(text: &str, by: usize) -> String {
    text.replace('\n', &format!("\n{}", " ".repeat(by)))
}

/// `{"checks": [...], "clients": [...]}` as `serde_json::to_string_pretty` prints it (keys in
/// order), each client's skills and cells copied from its scratch files.
fn write_document(
    out: &mut impl Write,
    profiles: &[&'static Profile],
    kept: &mut Kept,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let quoted = |s: &str| serde_json::to_string(s).map_err(|e| e.to_string());
    write!(out, "{{\n  \"checks\": [").map_err(io)?;
    for (i, p) in profiles.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        write!(
            out,
            "{sep}\n    {{\n      \"catalog\": [],\n      \"profile\": {},\n      \"skills\": ",
            quoted(p.key)?
        )
        .map_err(io)?;
        kept.checks[i].copy_array(out)?;
        write!(out, "\n    }}").map_err(io)?;
    }
    write!(out, "\n  ],\n  \"clients\": [").map_err(io)?;
    for (i, p) in profiles.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        write!(
            out,
            "{sep}\n    {{\n      \"as_of\": {},\n      \"client\": {},\n      \"skills\": ",
            quoted(p.as_of)?,
            quoted(p.key)?
        )
        .map_err(io)?;
        kept.cells[i].copy_array(out)?;
        write!(
            out,
            ",\n      \"source\": {},\n      \"title\": {}\n    }}",
            quoted(p.source_url)?,
            quoted(p.title)?
        )
        .map_err(io)?;
    }
    let close = if profiles.is_empty() { "]" } else { "\n  ]" };
    writeln!(out, "{close}\n}}").map_err(io)
}
