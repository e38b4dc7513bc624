//! Facts about one skill that do not depend on a profile: the parsed SKILL.md, every file's
//! text and token count, the three levels, the body's sections and its links.
//!
//! Computed once per skill; every profile's rules then read it.

use std::ops::Range;
use std::sync::OnceLock;

pub use crate::bundle::FileFacts;
use crate::bundle::{FileText, MAX_FILE_BYTES, SkillBundle};
use crate::frontmatter::SkillDoc;
use crate::links::{self, Link};

/// The three levels of the chapter's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Levels {
    /// Tokens of `- name: description\n`.
    pub level1: usize,
    /// Tokens of the body, everything after the closing `---` line, unstripped.
    pub level2: usize,
    /// Tokens of every other file, each counted on its own.
    pub level3: usize,
    /// How many files level 3 counts.
    pub files: usize,
}

impl std::ops::Add for Levels {
    type Output = Levels;
    fn add(self, rhs: Levels) -> Levels {
        Levels {
            level1: self.level1 + rhs.level1,
            level2: self.level2 + rhs.level2,
            level3: self.level3 + rhs.level3,
            files: self.files + rhs.files,
        }
    }
}

/// A `##` section of the body (the text before the first one is the preamble, with an empty
/// title).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading text, without `## `.
    pub title: String,
    /// Byte range in SKILL.md, heading included (its tokens: `Analysis::section_tokens`).
    pub range: Range<usize>,
}

/// Everything the rules and the views need to know about one skill.
///
/// Token counts are computed on first use and kept: `levels()`, `sections()` and
/// `body_tokens()` count; a check counts only what a rule cannot rule out by size.
///
/// Cheap to clone: the facts are shared by every clone, and so is what is computed on first
/// use (the page hands a thousand skills' analyses to each view on every keystroke, and
/// copying them all cost more than checking the one that changed). The facts are read through
/// it as if they were its own fields.
#[derive(Clone)]
pub struct Analysis(std::sync::Arc<AnalysisFacts>);

impl std::ops::Deref for Analysis {
    type Target = AnalysisFacts;

    fn deref(&self) -> &AnalysisFacts {
        &self.0
    }
}

impl std::fmt::Debug for Analysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// One skill's facts, as [`Analysis`] shares them.
#[derive(Debug)]
pub struct AnalysisFacts {
    /// The folder's name.
    pub dir_name: String,
    /// Where the folder was found.
    pub display_path: String,
    /// The skill folder this one was found inside, if any ([`crate::SkillBundle::inside`]).
    pub inside: Option<String>,
    /// Read without its folder ([`crate::SkillBundle::folder_unknown`]).
    pub folder_unknown: bool,
    /// Path of the skill file (`SKILL.md`, or `skill.md`), if any.
    pub skill_md_path: Option<String>,
    /// SKILL.md split and parsed as the specification's text says.
    pub doc: Option<SkillDoc>,
    /// SKILL.md as skills-ref splits it, when that differs (a `---` inside a value).
    pub skills_ref_doc: Option<SkillDoc>,
    /// SKILL.md as each client splits and reads it where that differs from `doc`: its own
    /// fences ([`SkillDoc::fenced_view`]) and a YAML library that reads more than YAML's
    /// grammar ([`SkillDoc::with_leniency`]); one per (split, leniency) the clients have.
    pub client_docs: Vec<(crate::profile::SplitRule, crate::yaml::Leniency, SkillDoc)>,
    /// Every file, SKILL.md included, sorted by path.
    pub files: Vec<FileFacts>,
    /// The level-1 line exactly as counted: `- name: description\n`.
    pub level1_line: String,
    /// Relative links and backticked paths of the body, with what they resolve to.
    pub links: Vec<Link>,
    levels: OnceLock<Levels>,
    body_tokens: OnceLock<usize>,
    sections: OnceLock<Vec<Section>>,
    /// What the costliest scans of the text found, before any profile weighs it: a check under
    /// twenty clients scans once (`check --profile all` spent most of its time scanning the same
    /// text twenty times).
    pub(crate) scans: Scans,
}

/// The profile-independent results of the rules that scan whole texts, made on first use
/// (never copied: every clone of an [`Analysis`] shares them).
#[derive(Debug, Default)]
pub(crate) struct Scans {
    /// `stale-count`: each disagreeing count's file, span and message.
    pub(crate) stale_counts: OnceLock<Vec<(String, std::ops::Range<usize>, String)>>,
    /// `invisible-unicode`: per part (`name`, `description`, `body`), the first hit's offset in
    /// SKILL.md, its character and how many there are.
    pub(crate) invisible: OnceLock<Vec<(&'static str, usize, char, usize)>>,
    /// SKILL.md's line starts, which every located finding and `body-too-long` read.
    pub(crate) md_lines: OnceLock<crate::diagnostic::LineIndex>,
    /// Each client's listing entry (`InstalledSkill::from_analysis`, by profile key): the
    /// clients that replay their own YAML reader parse the text again, and a page of a thousand
    /// skills asked for every client's entry of every skill on each keystroke.
    pub(crate) installed: PerProfile<crate::profile::InstalledSkill>,
}

/// Values made once per profile, kept with the analysis (shared by its clones).
#[derive(Debug)]
pub(crate) struct PerProfile<T>(std::sync::Mutex<Vec<(&'static str, T)>>);

impl<T> Default for PerProfile<T> {
    fn default() -> Self {
        PerProfile(std::sync::Mutex::new(Vec::new()))
    }
}

impl<T: Clone> PerProfile<T> {
    /// The value for `key`, made by `make` the first time.
    pub(crate) fn get_or_make(&self, key: &'static str, make: impl FnOnce() -> T) -> T {
        let found = self
            .0
            .lock()
            .ok()
            .and_then(|kept| kept.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()));
        if let Some(v) = found {
            return v;
        }
        let v = make();
        if let Ok(mut kept) = self.0.lock() {
            kept.push((key, v.clone()));
        }
        v
    }
}

impl Analysis {
    /// SKILL.md as `profile`'s client reads it: split by its rule (skills-ref's, Mistral
    /// Vibe's dash lines, the specification's text), read by its YAML library (where that
    /// reads more than YAML's grammar, its lenient view).
    pub fn doc_for(&self, profile: &crate::Profile) -> Option<&SkillDoc> {
        use crate::profile::SplitRule;
        if profile.split == SplitRule::SkillsRef {
            return self.skills_ref_doc.as_ref().or(self.doc.as_ref());
        }
        let leniency = profile.yaml.leniency();
        self.client_docs
            .iter()
            .find(|(split, l, _)| *split == profile.split && *l == leniency)
            .map(|(_, _, d)| d)
            .or(self.doc.as_ref())
    }

    /// The `name` as YAML parsed it (unstripped), if it is a string.
    pub fn name(&self) -> Option<&str> {
        self.doc.as_ref()?.field_str("name")
    }

    /// The `description` as YAML parsed it, if it is a string.
    pub fn description(&self) -> Option<&str> {
        self.doc.as_ref()?.field_str("description")
    }

    /// SKILL.md's line index, made once.
    pub(crate) fn md_line_index(&self) -> Option<&crate::diagnostic::LineIndex> {
        let doc = self.doc.as_ref()?;
        Some(
            self.scans
                .md_lines
                .get_or_init(|| crate::diagnostic::LineIndex::new(&doc.text)),
        )
    }

    /// The name to show: the frontmatter's, else the folder's.
    pub fn display_name(&self) -> &str {
        self.name()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .unwrap_or(&self.dir_name)
    }

    /// The file at `path`.
    pub fn file(&self, path: &str) -> Option<&FileFacts> {
        self.files.iter().find(|f| f.path == path)
    }

    /// The skill file's facts.
    pub fn skill_md(&self) -> Option<&FileFacts> {
        self.skill_md_path.as_deref().and_then(|p| self.file(p))
    }

    /// Tokens of the body (level 2).
    pub fn body_tokens(&self) -> usize {
        *self.body_tokens.get_or_init(|| {
            self.doc
                .as_ref()
                .map(|d| skillpg_tokens::count_cached(d.body()))
                .unwrap_or(0)
        })
    }

    /// Bytes of the body (a bound on its tokens: a token is at least one byte).
    pub fn body_bytes(&self) -> usize {
        self.doc.as_ref().map(|d| d.body().len()).unwrap_or(0)
    }

    /// The three levels, counted on first use.
    pub fn levels(&self) -> Levels {
        *self.levels.get_or_init(|| {
            let others = self
                .files
                .iter()
                .filter(|f| Some(&f.path) != self.skill_md_path.as_ref());
            let (level3, files) = others.fold((0, 0), |(t, n), f| (t + f.tokens(), n + 1));
            Levels {
                level1: if self.doc.is_some() {
                    skillpg_tokens::count(&self.level1_line)
                } else {
                    0
                },
                level2: self.body_tokens(),
                level3,
                files,
            }
        })
    }

    /// The levels, if they have been counted already.
    pub fn counted_levels(&self) -> Option<Levels> {
        self.levels.get().copied()
    }

    /// o200k_base tokens of `section` (one of [`Analysis::sections`]).
    pub fn section_tokens(&self, section: &Section) -> usize {
        self.doc
            .as_ref()
            .and_then(|d| d.text.get(section.range.clone()))
            .map(skillpg_tokens::count_cached)
            .unwrap_or(0)
    }

    /// The body's `##` sections.
    pub fn sections(&self) -> &[Section] {
        self.sections
            .get_or_init(|| self.doc.as_ref().map(sections).unwrap_or_default())
    }

    /// The tokens an agent pays to follow `link` (0 when it resolves to nothing).
    pub fn link_tokens(&self, link: &Link) -> usize {
        match &link.target {
            crate::links::Target::File { file } => {
                self.files.get(*file).map(FileFacts::tokens).unwrap_or(0)
            }
            crate::links::Target::Dir { .. } => {
                let prefix = format!("{}/", link.path.trim_end_matches('/'));
                self.files
                    .iter()
                    .filter(|f| f.path.starts_with(&prefix))
                    .map(FileFacts::tokens)
                    .sum()
            }
            crate::links::Target::Missing | crate::links::Target::OutsideFolder => 0,
        }
    }
}

/// Analyzes one skill folder. Never fails: whatever cannot be read is recorded as such. Counts
/// nothing yet: tokens are counted when asked for.
pub fn analyze(bundle: &SkillBundle) -> Analysis {
    let skill_md_path = bundle.skill_md().map(|f| f.path.clone());
    let mut files: Vec<FileFacts> = bundle
        .files
        .iter()
        .map(|f| {
            let too_large = f.bytes.len() > MAX_FILE_BYTES;
            // SKILL.md is counted by level (1 and 2), not as a whole file.
            let is_skill_md = Some(&f.path) == skill_md_path.as_ref();
            let text = if too_large {
                FileText::Binary
            } else if is_skill_md {
                // Loaders read it as text whatever bytes it holds; so do its rules.
                FileText::decode_text(&f.bytes)
            } else {
                FileText::decode(&f.bytes)
            };
            FileFacts::new(f.path.clone(), f.bytes.len(), text, too_large, !is_skill_md)
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));

    let doc = skill_md_path
        .as_ref()
        .and_then(|p| files.iter().find(|f| &f.path == p))
        .and_then(|f| f.text.text())
        .map(SkillDoc::parse);

    let name = doc.as_ref().and_then(|d| d.field_str("name")).unwrap_or("");
    let description = doc
        .as_ref()
        .and_then(|d| d.field_str("description"))
        .unwrap_or("");
    let level1_line = format!("- {name}: {description}\n");
    let links = doc
        .as_ref()
        .map(|d| links::extract(d, &files))
        .unwrap_or_default();
    Analysis(std::sync::Arc::new(AnalysisFacts {
        dir_name: bundle.dir_name.clone(),
        display_path: bundle.display_path.clone(),
        inside: bundle.inside.clone(),
        folder_unknown: bundle.folder_unknown,
        skill_md_path,
        skills_ref_doc: doc.as_ref().and_then(SkillDoc::skills_ref_view),
        client_docs: doc.as_ref().map(client_views).unwrap_or_default(),
        doc,
        files,
        level1_line,
        links,
        levels: OnceLock::new(),
        body_tokens: OnceLock::new(),
        sections: OnceLock::new(),
        scans: Scans::default(),
    }))
}

/// Splits the body at its `##` headings (outside fenced code).
/// `doc` as each client splits and reads it, where that differs: one view per (split,
/// leniency) of the profiles (skills-ref's split has its own view).
fn client_views(
    doc: &SkillDoc,
) -> Vec<(crate::profile::SplitRule, crate::yaml::Leniency, SkillDoc)> {
    use crate::frontmatter::Fence;
    use crate::profile::SplitRule;
    let mut views = Vec::new();
    let mut seen = Vec::new();
    for p in crate::profile::ALL {
        let key = (p.split, p.yaml.leniency());
        if p.split == SplitRule::SkillsRef || seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let (open, close, blank_lines_first) = match p.split {
            SplitRule::Fences {
                open,
                close,
                blank_lines_first,
            } => (open, close, blank_lines_first),
            _ => (Fence::Exact, Fence::Exact, false),
        };
        if let Some(view) = doc.fenced_view(open, close, blank_lines_first, key.1) {
            views.push((key.0, key.1, view));
        }
    }
    views
}

fn sections(doc: &SkillDoc) -> Vec<Section> {
    let body = doc.body_range();
    let mut starts: Vec<(usize, String)> = vec![(body.start, String::new())];
    let mut offset = body.start;
    let mut fence: Option<&str> = None;
    for line in doc.text[body.clone()].split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
        } else if trimmed.starts_with("```") {
            fence = Some("```");
        } else if trimmed.starts_with("~~~") {
            fence = Some("~~~");
        } else if let Some(title) = line.strip_prefix("## ") {
            starts.push((offset, title.trim().to_owned()));
        }
        offset += line.len();
    }
    let mut res = Vec::with_capacity(starts.len());
    for (idx, (start, title)) in starts.iter().enumerate() {
        let end = starts.get(idx + 1).map(|(s, _)| *s).unwrap_or(body.end);
        if idx == 0 && end == *start {
            continue;
        }
        res.push(Section {
            title: title.clone(),
            range: *start..end,
        });
    }
    res
}
