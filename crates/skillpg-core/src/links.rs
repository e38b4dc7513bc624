//! The paths out of SKILL.md: relative Markdown links and backticked paths into the folder.
//!
//! These are how level 2 sends an agent to level 3, so each gets its target's token count.

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag};

use crate::bundle::FileFacts;
use crate::frontmatter::SkillDoc;

/// How the body refers to the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `[text](path)` or `![alt](path)`.
    Markdown,
    /// `` `path` `` in inline code.
    CodePath,
}

/// What a link points at (its tokens: `Analysis::link_tokens`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A file of the folder: its index in `Analysis::files`.
    File { file: usize },
    /// A folder of the folder, holding `n_files` files.
    Dir { n_files: usize },
    /// Nothing in the folder.
    Missing,
    /// A path that climbs out of the skill folder.
    OutsideFolder,
}

/// One path out of SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// As written.
    pub written: String,
    /// Normalized path relative to the skill folder.
    pub path: String,
    /// Byte range in SKILL.md.
    pub span: Range<usize>,
    /// Markdown link or backticked path.
    pub kind: LinkKind,
    /// What it resolves to.
    pub target: Target,
    /// Whether the body sends the agent to read it: a Markdown link, or a path under
    /// `scripts/`, `references/` or `assets/` (unless the skill's paths are relative to a plugin
    /// root). Any other path may be the user's project, the repository's or an output.
    pub sent: bool,
    /// Whether its line tells the agent to write the file (`Save the report to ./report.md`):
    /// an output, not a reference.
    pub output: bool,
}

/// Finds the links of the body of `doc` and resolves them against `files`.
pub fn extract(doc: &SkillDoc, files: &[FileFacts]) -> Vec<Link> {
    let body = doc.body_range();
    let text = &doc.text[body.clone()];
    let mut res = Vec::new();
    let plugin_relative = mentions_plugin_root(text);
    let mut in_code_block = false;
    for (event, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        let span = body.start + range.start..body.start + range.end;
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(pulldown_cmark::TagEnd::CodeBlock) => in_code_block = false,
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                if let Some(path) = relative_path(&dest_url) {
                    let (path, target) = resolve(&path, files);
                    let output = on_output_line(text, range.start);
                    res.push(Link {
                        written: dest_url.to_string(),
                        path,
                        span,
                        kind: LinkKind::Markdown,
                        target,
                        sent: true,
                        output,
                    });
                }
            }
            Event::Code(code) if !in_code_block => {
                if let Some(path) =
                    code_path(&code, files).filter(|_| !on_example_line(text, range.start))
                {
                    let (path, target) = resolve(&path, files);
                    let sent = !plugin_relative && CONVENTIONAL.iter().any(|c| path.starts_with(c));
                    let output = on_output_line(text, range.start);
                    res.push(Link {
                        written: code.to_string(),
                        path,
                        span,
                        kind: LinkKind::CodePath,
                        target,
                        sent,
                        output,
                    });
                }
            }
            _ => {}
        }
    }
    res
}

/// Strips the placeholders skills use for their own folder: `${CLAUDE_SKILL_DIR}/` (Claude
/// Code) and `{baseDir}/` (trailofbits' convention).
fn strip_root_placeholder(path: &str) -> &str {
    ["${CLAUDE_SKILL_DIR}/", "{baseDir}/", "$CLAUDE_SKILL_DIR/"]
        .iter()
        .find_map(|p| path.strip_prefix(p))
        .unwrap_or(path)
}

/// The folder-relative path of a Markdown link target, or `None` for URLs and anchors.
fn relative_path(url: &str) -> Option<String> {
    let url = url.trim();
    if url.is_empty()
        || url.starts_with('#')
        || url.starts_with('/')
        || url.contains("://")
        || url.contains(':') && !url.starts_with("${") && !url.starts_with('{')
    {
        return None;
    }
    let url = url.split(['#', '?']).next().unwrap_or("");
    let url = strip_root_placeholder(url);
    if url.is_empty() || url.starts_with("path/to/") {
        return None;
    }
    Some(percent_decode(url))
}

/// The folders the specification names for bundled files.
const CONVENTIONAL: [&str; 3] = ["scripts/", "references/", "assets/"];

/// Whether the body names a plugin's root (`${CLAUDE_PLUGIN_ROOT}`, `${X_PLUGIN_ROOT}`): such
/// skills write paths relative to the plugin, whose files are not in the skill folder.
fn mentions_plugin_root(body: &str) -> bool {
    body.contains("PLUGIN_ROOT")
}

/// The line of `text` around byte `offset`, lower-cased.
fn line_around(text: &str, offset: usize) -> String {
    let start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let end = text[offset..]
        .find('\n')
        .map(|i| offset + i)
        .unwrap_or(text.len());
    text[start..end].to_lowercase()
}

/// Whether the line around `offset` tells the agent to produce the file (`Write the plan to
/// `plan.md``), so the path names an output.
fn on_output_line(text: &str, offset: usize) -> bool {
    let line = line_around(text, offset);
    let words: Vec<&str> = line
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    const VERBS: [&str; 16] = [
        "write",
        "writes",
        "written",
        "create",
        "creates",
        "save",
        "saves",
        "saved",
        "generate",
        "generates",
        "output",
        "outputs",
        "produce",
        "produces",
        "emit",
        "emits",
    ];
    words.iter().any(|w| VERBS.contains(w))
}

/// The path of a backticked string when it refers into the folder: it starts with `./`, names a
/// file of the folder, or starts with a top-level folder of the skill (or a conventional one).
fn code_path(code: &str, files: &[FileFacts]) -> Option<String> {
    let code = strip_root_placeholder(code.trim());
    if code.is_empty()
        || code.contains(char::is_whitespace)
        || code.contains("://")
        || code.contains(['*', '<', '>', '{', '}', '|', '$', '(', ')'])
    {
        return None;
    }
    let explicit = code.starts_with("./");
    let path = code.trim_start_matches("./");
    if path.is_empty()
        || path.starts_with('/')
        || path.starts_with('~')
        || path.starts_with('-')
        || path.starts_with("path/to/")
    {
        return None;
    }
    let names_a_file = files.iter().any(|f| f.path == path);
    let first = path.split('/').next().unwrap_or("");
    // A conventional folder counts even when absent (`scripts/run.py` promises a file), but a
    // bare `assets/` is as likely to describe the user's project as the skill.
    let names_file_in_conventional =
        CONVENTIONAL.iter().any(|c| path.starts_with(c)) && !path.ends_with('/');
    let in_known_dir = path.contains('/')
        && (names_file_in_conventional
            || files
                .iter()
                .any(|f| f.path.starts_with(&format!("{first}/"))));
    let looks_like_path = path.contains('/') || path.contains('.');
    (names_a_file || in_known_dir || explicit && looks_like_path).then(|| path.to_owned())
}

/// Whether the line around `offset` presents its paths as examples ("e.g. `references/x.md`"),
/// as skill-writing guides do; such paths are not promises that the file exists.
fn on_example_line(text: &str, offset: usize) -> bool {
    let line = line_around(text, offset);
    // "would be helpful to store in the skill": a file the reader might write, not one that is.
    [
        "e.g.",
        "example",
        "for instance",
        "such as",
        "i.e.",
        "would be",
        "could be",
        "might be",
    ]
    .iter()
    .any(|w| line.contains(w))
}

/// Resolves `path` (which may hold `.` and `..`) against the folder's files; returns the
/// normalized path with the target.
fn resolve(path: &str, files: &[FileFacts]) -> (String, Target) {
    let target = resolve_target(path, files);
    let normalized = normalize(path).unwrap_or_else(|| path.to_owned());
    (normalized, target)
}

/// `a/./b/../c` becomes `a/c`; `None` when it climbs out.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let mut res = parts.join("/");
    if path.ends_with('/') && !res.is_empty() {
        res.push('/');
    }
    Some(res)
}

fn resolve_target(path: &str, files: &[FileFacts]) -> Target {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Target::OutsideFolder;
                }
            }
            other => parts.push(other),
        }
    }
    let normalized = parts.join("/");
    if let Some(file) = files.iter().position(|f| f.path == normalized) {
        return Target::File { file };
    }
    let prefix = format!("{normalized}/");
    let below: Vec<&FileFacts> = files
        .iter()
        .filter(|f| f.path.starts_with(&prefix))
        .collect();
    if below.is_empty() || normalized.is_empty() {
        Target::Missing
    } else {
        Target::Dir {
            n_files: below.len(),
        }
    }
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut idx = 0;
    while idx < bytes.len() {
        if bytes[idx] == b'%'
            && idx + 2 < bytes.len()
            && text.is_char_boundary(idx + 3)
            && let Ok(v) = u8::from_str_radix(&text[idx + 1..idx + 3], 16)
        {
            out.push(v);
            idx += 3;
            continue;
        }
        out.push(bytes[idx]);
        idx += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::FileText;

    fn file(path: &str, tokens: usize) -> FileFacts {
        FileFacts::with_tokens(
            path,
            FileText::Utf8 {
                text: String::new(),
                has_bom: false,
            },
            tokens,
        )
    }

    #[test]
    fn finds_links_and_code_paths_but_not_urls_or_code_blocks() {
        let doc = SkillDoc::parse(
            "---\nname: a\n---\nSee [guide](references/guide.md#top), [web](https://x.y), `scripts/run.py`,\n`next.config.js`, `references/gone.md`, [up](../x.md) and [sp](a%20b.md).\n\n```\nscripts/run.py\n```\n",
        );
        let files = vec![
            file("references/guide.md", 10),
            file("scripts/run.py", 5),
            file("a b.md", 2),
        ];
        let links = extract(&doc, &files);
        let got: Vec<(&str, &Target)> =
            links.iter().map(|l| (l.path.as_str(), &l.target)).collect();
        assert_eq!(
            got,
            vec![
                ("references/guide.md", &Target::File { file: 0 }),
                ("scripts/run.py", &Target::File { file: 1 }),
                ("references/gone.md", &Target::Missing),
                ("../x.md", &Target::OutsideFolder),
                ("a b.md", &Target::File { file: 2 }),
            ]
        );
    }

    #[test]
    fn a_folder_link_sums_its_files() {
        let doc = SkillDoc::parse("---\nname: a\n---\nAll in [refs](references/).\n");
        let files = vec![file("references/a.md", 3), file("references/b.md", 4)];
        assert_eq!(extract(&doc, &files)[0].target, Target::Dir { n_files: 2 });
    }
}
