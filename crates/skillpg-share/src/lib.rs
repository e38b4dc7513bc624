//! A playground link's state, once for every edge that makes or reads one: the skills as the
//! page holds them (`SkillInput`), the cost, routing and listing inputs, the page's views, and
//! the versioned wire form (`#v1=` + base64url of deflated JSON) with its bounds.
//!
//! The page (`skillpg-app`) keeps its whole state in these types and adds the description
//! lab's; `skillpg share` builds the state the page holds once it has loaded the same skills,
//! so its link is the page's, byte for byte. Pure: it builds for wasm32 and is tested natively.

pub mod interchange;

use std::collections::BTreeMap;
use std::io::{Read, Write};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use skillpg_core::{BundleFile, SkillBundle};
use skillpg_routing::decide::Thresholds;

/// A share link longer than this is refused with a fallback (download the zip, copy markdown):
/// browsers accept longer fragments, but chat apps and mail clients cut them.
pub const MAX_LINK_CHARS: usize = 60_000;

/// The most a share link may expand to (a deflate bomb in a link is refused).
pub const MAX_EXPANDED: u64 = 16 * 1024 * 1024;
/// A link holds at most this many skills, files in all, and bytes of files in all: a state
/// from a link is as untrusted as an archive, and a 300-character link can expand to
/// megabytes.
pub const MAX_LINK_SKILLS: usize = 200;
/// See [`MAX_LINK_SKILLS`].
pub const MAX_LINK_FILES: usize = 5_000;
/// See [`MAX_LINK_SKILLS`].
pub const MAX_LINK_BYTES: usize = 12 * 1024 * 1024;
/// The most turns the cost view takes (its input clamps to the same).
pub const MAX_TURNS: u64 = 10_000;
/// The most bytes of routing requests a link may carry.
pub const MAX_REQUEST_BYTES: usize = 1024 * 1024;
/// One skill folder as the page holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillInput {
    /// The folder's name (editable beside the editor).
    pub dir_name: String,
    /// Its files, `/`-separated relative paths.
    pub files: Vec<(String, Vec<u8>)>,
    /// The findings of the input it came from (an archive's layout, a path that left the
    /// folder), kept with the first skill read from that input as the CLI keeps them, so each
    /// profile weighs them like the skill's own findings.
    pub findings: Vec<InputFinding>,
    /// The skill folder it was found inside, if any (`SkillBundle::inside`): only a client that
    /// scans inside skill folders lists it.
    pub inside: Option<String>,
    /// Read without its folder (`SkillBundle::folder_unknown`): a SKILL.md picked alone or
    /// pasted, whose `dir_name` is its own name, not a folder's.
    pub folder_unknown: bool,
}

/// The folder a SKILL.md read without its own stands in: its `name` when that can be a folder's
/// name, else `skill`.
fn lone_folder_name(skill_md: &str) -> String {
    skillpg_core::frontmatter::SkillDoc::parse(skill_md)
        .field_str("name")
        .map(str::trim)
        .filter(|n| skillpg_core::ingest::is_folder_name(n))
        .unwrap_or("skill")
        .to_owned()
}

/// An input's own finding as the page keeps it (and a link carries it): its rule's name, its
/// file and its message; [`SkillInput::input_diagnostics`] makes the engine's finding of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFinding {
    pub rule: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file: String,
    pub message: String,
}

/// The most input findings a skill from a link carries (a link is untrusted input).
pub const MAX_LINK_FINDINGS: usize = 100;

impl SkillInput {
    /// A skill folder with no input findings.
    pub fn new(dir_name: impl Into<String>, files: Vec<(String, Vec<u8>)>) -> SkillInput {
        SkillInput {
            dir_name: dir_name.into(),
            files,
            findings: Vec::new(),
            inside: None,
            folder_unknown: false,
        }
    }

    /// A SKILL.md read without its folder (a file picked alone, a paste): it stands in a
    /// folder named after its `name` (else `skill`), and the checks that need the real folder
    /// say so instead of failing. No folder name is invented for a finding or a fix.
    pub fn lone_skill_md(bytes: Vec<u8>) -> SkillInput {
        let name = lone_folder_name(&String::from_utf8_lossy(&bytes));
        SkillInput {
            folder_unknown: true,
            ..SkillInput::new(name, vec![("SKILL.md".to_owned(), bytes)])
        }
    }

    /// The skills an input held, as the page keeps them: the input's own findings go with its
    /// first skill, where the CLI reports them (`skillpg check`), so the two give the same
    /// verdicts. Empty when the input held no skill (its findings then say why).
    pub fn from_ingested(ingested: skillpg_core::ingest::Ingested) -> Vec<SkillInput> {
        let mut findings: Vec<InputFinding> = ingested
            .diagnostics
            .iter()
            .map(|d| InputFinding {
                rule: d.rule.to_owned(),
                file: d.file.clone(),
                message: d.message.clone(),
            })
            .collect();
        ingested
            .skills
            .into_iter()
            .map(|b| SkillInput {
                dir_name: b.dir_name,
                files: b.files.into_iter().map(|f| (f.path, f.bytes)).collect(),
                findings: std::mem::take(&mut findings),
                inside: b.inside,
                folder_unknown: b.folder_unknown,
            })
            .collect()
    }

    /// The input's findings as the engine's diagnostics, at their rules' default severity
    /// (`skillpg_core::ingest::findings_under` weighs them per profile).
    pub fn input_diagnostics(&self) -> Vec<skillpg_core::Diagnostic> {
        self.findings
            .iter()
            .filter_map(|f| {
                skillpg_core::ingest::input_finding(&f.rule, &f.file, f.message.clone())
            })
            .collect()
    }

    /// The engine's view of it.
    pub fn bundle(&self) -> SkillBundle {
        let mut bundle = SkillBundle::new(
            &self.dir_name,
            self.files
                .iter()
                .map(|(p, b)| BundleFile {
                    path: p.clone(),
                    bytes: b.clone(),
                })
                .collect(),
        );
        bundle.inside = self.inside.clone();
        bundle.folder_unknown = self.folder_unknown;
        bundle
    }

    /// SKILL.md as the editor shows it, decoded as the engine decodes it (UTF-16 too), and
    /// whether the editor may change it: only UTF-8 text is edited in place, since an edit
    /// writes UTF-8 and would silently re-encode a file that loaders refuse as it is.
    pub fn skill_md_shown(&self) -> Option<(String, Option<&'static str>)> {
        let (_, bytes) = self.files.iter().find(|(p, _)| p == "SKILL.md")?;
        Some(match skillpg_core::FileText::decode_text(bytes) {
            skillpg_core::FileText::Utf8 { text, .. } => (text, None),
            skillpg_core::FileText::Utf16 {
                text,
                big_endian: false,
            } => (text, Some("UTF-16 (little-endian)")),
            skillpg_core::FileText::Utf16 {
                text,
                big_endian: true,
            } => (text, Some("UTF-16 (big-endian)")),
            skillpg_core::FileText::Lossy { text, .. } => (text, Some("not valid UTF-8")),
            skillpg_core::FileText::Binary => {
                (String::from_utf8_lossy(bytes).into_owned(), Some("binary"))
            }
        })
    }

    /// The bytes of every file but SKILL.md.
    pub fn other_files_bytes(&self) -> usize {
        self.files
            .iter()
            .filter(|(p, _)| p != "SKILL.md")
            .map(|(_, b)| b.len())
            .sum()
    }

    /// Replaces SKILL.md's text (adding the file when absent). A skill read without its folder
    /// stands in a folder named after its `name`, so it follows the name as it is edited.
    pub fn set_skill_md(&mut self, text: &str) {
        match self.files.iter_mut().find(|(p, _)| p == "SKILL.md") {
            Some(f) => f.1 = text.as_bytes().to_vec(),
            None => self
                .files
                .insert(0, ("SKILL.md".to_owned(), text.as_bytes().to_vec())),
        }
        if self.folder_unknown {
            self.dir_name = lone_folder_name(text);
        }
    }
}

/// The inputs of the cost view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CostState {
    /// Turns in the conversation.
    pub turns: u64,
    /// Turn on which the skill is used.
    pub activate_at: u64,
    /// Bundled files read on use.
    pub read: Vec<String>,
    /// $ per million input tokens.
    pub price: f64,
    /// $ per million cached input tokens.
    pub cached_price: f64,
}

impl Default for CostState {
    fn default() -> CostState {
        CostState {
            turns: 40,
            activate_at: 12,
            read: Vec::new(),
            price: 2.0,
            cached_price: 0.2,
        }
    }
}

/// The inputs of the routing preview.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoutingState {
    /// Requests: one per line (`request => expected-skill` labels it), or a JSON list.
    pub requests: String,
    /// Threshold τ.
    pub tau: f32,
    /// Margin δ.
    pub delta: f32,
}

impl Default for RoutingState {
    fn default() -> RoutingState {
        RoutingState {
            requests: String::new(),
            tau: Thresholds::DEFAULT.tau,
            delta: Thresholds::DEFAULT.delta,
        }
    }
}

/// Claude Code's listing settings as a person sets them under "Where it loads"
/// (`skillListingMaxDescChars`, `skillListingBudgetFraction`); unset, the client's defaults.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListingPrefs {
    /// The most characters of one description the listing shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_desc_chars: Option<usize>,
    /// The listing's share of the context window (0.01 is 1%).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_fraction: Option<f64>,
    /// `skillOverrides`: a state other than `on` per skill folder (`name-only`,
    /// `user-invocable-only`, `off`, as Claude Code spells them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<String, String>,
}

impl ListingPrefs {
    /// The most characters a description cap may be set to (the CLI's bound too).
    pub const MAX_DESC_CHARS: usize = skillpg_core::catalog::ListingSettings::MAX_DESCRIPTION_CAP;

    /// The engine's settings (a state the engine does not know is dropped).
    pub fn settings(&self) -> skillpg_core::catalog::ListingSettings {
        skillpg_core::catalog::ListingSettings {
            max_description_chars: self.max_desc_chars,
            budget_fraction: self.budget_fraction,
            overrides: self
                .overrides
                .iter()
                .filter_map(|(dir, state)| {
                    skillpg_core::catalog::SkillOverride::parse(state).map(|s| (dir.clone(), s))
                })
                .collect(),
        }
    }

    /// The override of the skill in folder `dir` (`on` when none).
    pub fn override_of(&self, dir: &str) -> skillpg_core::catalog::SkillOverride {
        self.overrides
            .get(dir)
            .and_then(|s| skillpg_core::catalog::SkillOverride::parse(s))
            .unwrap_or_default()
    }

    /// Sets the override of the skill in folder `dir` (`on` removes it).
    pub fn set_override(&mut self, dir: &str, state: skillpg_core::catalog::SkillOverride) {
        if state == skillpg_core::catalog::SkillOverride::On {
            self.overrides.remove(dir);
        } else {
            self.overrides
                .insert(dir.to_owned(), state.as_str().to_owned());
        }
    }

    /// Within what the page's inputs allow: a cap of 1 to 100,000 characters, a share above 0
    /// and at most 1, overrides Claude Code knows; anything else unset.
    pub fn clamped(self) -> ListingPrefs {
        ListingPrefs {
            max_desc_chars: self
                .max_desc_chars
                .map(|c| c.clamp(1, Self::MAX_DESC_CHARS)),
            budget_fraction: self
                .budget_fraction
                .filter(|f| f.is_finite() && *f > 0.0)
                .map(|f| f.min(1.0)),
            // From a link, untrusted: only states Claude Code has, for at most as many skills
            // as a page holds, with folder-sized names.
            overrides: self
                .overrides
                .into_iter()
                .filter(|(dir, state)| {
                    dir.len() <= 255
                        && skillpg_core::catalog::SkillOverride::parse(state)
                            .is_some_and(|s| s != skillpg_core::catalog::SkillOverride::On)
                })
                .take(1_000)
                .collect(),
        }
    }
}

pub use skillpg_core::catalog::{CONTEXT_WINDOW_RANGE, DEFAULT_CONTEXT_WINDOW};

/// The page's views, each reachable by a fragment (`#view=levels`), alone or after a share
/// link's state (`#v1=...&view=levels`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// Verdicts and findings.
    #[default]
    Check,
    /// The chapter's levels table and chart.
    Levels,
    /// The per-token view.
    Tokens,
    /// Cost over a conversation, and the context window at turn k.
    Cost,
    /// The routing preview, and the chapter's experiment with an instruction model.
    Routing,
    /// The description lab: why a skill does or does not trigger, two descriptions compared.
    Lab,
    /// Share and export.
    Share,
    /// The rule reference.
    Rules,
    /// Presenter mode: the context window at turn k, full screen, for workshops.
    Present,
}

impl View {
    /// The views of the navigation, in order (presenter mode is entered from Cost).
    pub const NAV: [View; 8] = [
        View::Check,
        View::Levels,
        View::Tokens,
        View::Cost,
        View::Routing,
        View::Lab,
        View::Share,
        View::Rules,
    ];

    /// The fragment's name of the view.
    pub fn key(self) -> &'static str {
        match self {
            View::Check => "check",
            View::Levels => "levels",
            View::Tokens => "tokens",
            View::Cost => "cost",
            View::Routing => "routing",
            View::Lab => "lab",
            View::Share => "share",
            View::Rules => "rules",
            View::Present => "present",
        }
    }

    /// The navigation's label.
    pub fn title(self) -> &'static str {
        match self {
            View::Check => "Check",
            View::Levels => "Levels",
            View::Tokens => "Tokens",
            View::Cost => "Cost",
            View::Routing => "Routing",
            View::Lab => "Lab",
            View::Share => "Share",
            View::Rules => "Rules",
            View::Present => "Presenter mode",
        }
    }

    /// Every view, presenter mode last.
    pub const ALL: [View; 9] = [
        View::Check,
        View::Levels,
        View::Tokens,
        View::Cost,
        View::Routing,
        View::Lab,
        View::Share,
        View::Rules,
        View::Present,
    ];

    /// The view whose fragment name is `key`.
    pub fn from_key(key: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.key() == key)
    }

    /// The view a fragment names (`view=cost` among its `&`-separated parts), if any.
    pub fn from_fragment(hash: &str) -> Option<View> {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let key = hash
            .split('&')
            .find_map(|part| part.strip_prefix("view="))?;
        View::from_key(key)
    }
}

/// The versioned wire form of the page's state. `L` is the description lab's state, which
/// the page owns; an edge without a lab uses [`NoLab`], which a default lab never shows (a
/// default lab is left out of the JSON).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(bound(
    serialize = "L: Serialize + Default + PartialEq",
    deserialize = "L: Deserialize<'de> + Default"
))]
pub struct ShareStateV1<L> {
    pub v: u32,
    pub skills: Vec<SkillV1>,
    pub selected: usize,
    pub file: String,
    pub profile: String,
    pub cost: CostState,
    #[serde(default)]
    pub routing: RoutingState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub together: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<usize>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub lab: L,
    #[serde(default, skip_serializing_if = "is_default")]
    pub listing: ListingPrefs,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// No lab: what an edge without the description lab puts in a link (always the default, so
/// never written).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct NoLab {}

/// One skill in a link.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SkillV1 {
    pub dir: String,
    pub files: Vec<FileV1>,
    /// The input's own findings (an archive's layout), so a link keeps the verdict it showed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<InputFinding>,
    /// The skill folder it was found inside, so a link keeps its verdicts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inside: Option<String>,
    /// Read without its folder (a SKILL.md picked alone or pasted), so a link keeps saying
    /// which checks need the folder.
    #[serde(default, skip_serializing_if = "is_false")]
    pub loose: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A file: text when it is UTF-8, else base64.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileV1 {
    pub p: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub t: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub b: Option<String>,
}

/// The skills as a link carries them.
pub fn skills_to_wire(skills: &[SkillInput]) -> Vec<SkillV1> {
    skills
        .iter()
        .map(|s| SkillV1 {
            dir: s.dir_name.clone(),
            files: s
                .files
                .iter()
                .map(|(p, bytes)| match String::from_utf8(bytes.clone()) {
                    Ok(t) => FileV1 {
                        p: p.clone(),
                        t: Some(t),
                        b: None,
                    },
                    Err(_) => FileV1 {
                        p: p.clone(),
                        t: None,
                        b: Some(URL_SAFE_NO_PAD.encode(bytes)),
                    },
                })
                .collect(),
            findings: s.findings.clone(),
            inside: s.inside.clone(),
            loose: s.folder_unknown,
        })
        .collect()
}

/// A link's skills, each file's path cleaned as an archive's is, within the link's limits, and
/// only the input findings (bounded) that a link may carry.
pub fn skills_from_wire(wire: Vec<SkillV1>) -> Result<Vec<SkillInput>, String> {
    skills_from_wire_within(wire, MAX_LINK_BYTES)
}

/// [`skills_from_wire`] with at most `max_bytes` of files in all.
pub fn skills_from_wire_within(
    wire: Vec<SkillV1>,
    max_bytes: usize,
) -> Result<Vec<SkillInput>, String> {
    let mut skills = Vec::with_capacity(wire.len());
    let mut n_bytes = 0usize;
    for s in wire {
        // The folder is a path too: `..`, `` or `a/b/../../c` would put a download's files
        // outside the folder it is unpacked in.
        if !skillpg_core::ingest::is_folder_name(&s.dir) {
            let shown: String = s.dir.chars().take(80).collect();
            return Err(format!(
                "the link names a skill folder that is not a folder name: {shown:?}{}; it was not opened",
                if shown.len() < s.dir.len() { "…" } else { "" }
            ));
        }
        let mut files = Vec::with_capacity(s.files.len());
        for f in s.files {
            // Paths from a link are as untrusted as paths from an archive.
            let Some(path) = skillpg_core::ingest::clean_path(&f.p).filter(|p| !p.is_empty())
            else {
                return Err(format!(
                    "the link names a file outside its folder: {:?}",
                    f.p
                ));
            };
            let bytes = match (f.t, f.b) {
                (Some(t), _) => t.into_bytes(),
                (None, Some(b)) => URL_SAFE_NO_PAD
                    .decode(b.as_bytes())
                    .map_err(|e| format!("a file in the link is damaged ({path}): {e}"))?,
                (None, None) => Vec::new(),
            };
            n_bytes += bytes.len();
            if n_bytes > max_bytes {
                return Err(format!(
                    "the link's files hold more than {} MB, more than a link may carry; it was not opened",
                    max_bytes / (1024 * 1024)
                ));
            }
            files.push((path, bytes));
        }
        // Only input rules, and a bounded number of them: a link cannot make up other findings.
        let findings: Vec<InputFinding> = s
            .findings
            .into_iter()
            .filter(|f| skillpg_core::ingest::is_input_rule(&f.rule))
            .take(MAX_LINK_FINDINGS)
            .collect();
        skills.push(SkillInput {
            dir_name: s.dir,
            files,
            findings,
            // A relative folder path, bounded: a link cannot carry more.
            inside: s
                .inside
                .filter(|o| o.len() <= 4096 && skillpg_core::ingest::clean_path(o).is_some()),
            folder_unknown: s.loose,
        });
    }
    Ok(skills)
}

/// Writes a link's state: base64url of deflated JSON.
pub fn encode_wire<L: Serialize + Default + PartialEq>(wire: &ShareStateV1<L>) -> String {
    let json = serde_json::to_vec(wire).unwrap_or_default();
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = enc.write_all(&json);
    let deflated = enc.finish().unwrap_or_default();
    URL_SAFE_NO_PAD.encode(deflated)
}

/// Reads what [`encode_wire`] wrote, within the bounds a link may expand to and carry; every
/// failure is a message for a person. The values are not clamped yet: the page does that.
pub fn decode_wire<L: DeserializeOwned + Default>(data: &str) -> Result<ShareStateV1<L>, String> {
    decode_wire_within(data, &WireLimits::LINK)
}

/// How much a wire may hold: a link's bounds, or what this browser saved itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireLimits {
    /// What the deflated JSON may expand to.
    pub expanded: u64,
    /// How many skills, and files in all.
    pub skills: usize,
    pub files: usize,
    /// The files' bytes in all.
    pub bytes: usize,
}

impl WireLimits {
    /// A link's: what chat apps and mail carry.
    pub const LINK: WireLimits = WireLimits {
        expanded: MAX_EXPANDED,
        skills: MAX_LINK_SKILLS,
        files: MAX_LINK_FILES,
        bytes: MAX_LINK_BYTES,
    };
    /// What the page saved of its own work: anything the page holds, read back with the very
    /// bound the loads were held to ([`MAX_WORKSPACE_BYTES`]), so that work the page took is
    /// never refused on the way back.
    pub const SAVED: WireLimits = WireLimits {
        expanded: 2 * MAX_WORKSPACE_BYTES,
        skills: skillpg_core::ingest::MAX_ENTRIES,
        files: skillpg_core::ingest::MAX_ENTRIES,
        bytes: MAX_WORKSPACE_BYTES as usize,
    };
}

/// [`decode_wire`] within `limits`.
pub fn decode_wire_within<L: DeserializeOwned + Default>(
    data: &str,
    limits: &WireLimits,
) -> Result<ShareStateV1<L>, String> {
    let deflated = URL_SAFE_NO_PAD
        .decode(data.trim().as_bytes())
        .map_err(|e| format!("the link is damaged (not base64url: {e}); was it cut short?"))?;
    let mut json = Vec::new();
    flate2::read::DeflateDecoder::new(&deflated[..])
        .take(limits.expanded + 1)
        .read_to_end(&mut json)
        .map_err(|e| format!("the link is damaged (cannot inflate: {e}); was it cut short?"))?;
    if json.len() as u64 > limits.expanded {
        return Err(format!(
            "the link expands to more than {} MB; it was not opened",
            limits.expanded / (1024 * 1024)
        ));
    }
    let wire: ShareStateV1<L> = serde_json::from_slice(&json)
        .map_err(|e| format!("the link holds no playground state ({e})"))?;
    if wire.v != 1 {
        return Err(format!(
            "this link was made by a newer version of the playground (format v{})",
            wire.v
        ));
    }
    if wire.skills.len() > limits.skills {
        return Err(format!(
            "the link holds {} skills, more than the {} a link may carry; it was not opened",
            wire.skills.len(),
            limits.skills
        ));
    }
    let n_files: usize = wire.skills.iter().map(|s| s.files.len()).sum();
    if n_files > limits.files {
        return Err(format!(
            "the link holds {n_files} files, more than the {} a link may carry; it was not opened",
            limits.files
        ));
    }
    Ok(wire)
}

/// The most bytes one load may bring into the page, whatever it comes from (a drop, a picker,
/// an address, an archive as unpacked, a discovery index, a Zed link, a share link): each
/// per-file and per-count cap can hold while their product does not (an index of 60 files of
/// 15 MB took the page's memory to 3.7 GB), so one total bounds them all.
pub const MAX_LOAD_BYTES: u64 = 64 * 1024 * 1024;

/// The most bytes the page holds in all, load after load: each load is bounded, and so is
/// their sum (eighteen loads of 60 MB each trapped the page's wasm); what the page saved of its
/// work is read back within the same bound ([`WireLimits::SAVED`]).
pub const MAX_WORKSPACE_BYTES: u64 = 2 * MAX_LOAD_BYTES;

/// The message when a load of `adding` bytes beside the `held` bytes the page holds would pass
/// [`MAX_WORKSPACE_BYTES`]; `None` within it.
pub fn over_workspace_budget(held: u64, adding: u64) -> Option<String> {
    let mb = |b: u64| b.div_ceil(1024 * 1024);
    (held.saturating_add(adding) > MAX_WORKSPACE_BYTES).then(|| {
        format!(
            "This load ({} MB) beside the {} MB already loaded would pass the {} MB the page holds in all; nothing was loaded, and what was loaded before stays (remove skills you no longer need, or check large folders with skillpg check)",
            mb(adding),
            mb(held),
            mb(MAX_WORKSPACE_BYTES)
        )
    })
}

/// The message when `what` would bring `bytes` (so far) into the page, past
/// [`MAX_LOAD_BYTES`]; `None` within it.
pub fn over_load_budget(what: &str, bytes: u64) -> Option<String> {
    (bytes > MAX_LOAD_BYTES).then(|| {
        format!(
            "{what} holds more than {} MB ({} MB so far), more than one load may bring into the page; nothing was loaded, and what was loaded before stays",
            MAX_LOAD_BYTES / (1024 * 1024),
            bytes.div_ceil(1024 * 1024)
        )
    })
}

/// Where a loaded skill went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placed {
    /// After the others: no skill had its folder name.
    Added(usize),
    /// The same files as the skill already there: nothing changed.
    Unchanged(usize),
    /// Beside the skill of its folder name, which holds other bytes (a person's edits, or
    /// another skill of that name), under a new folder name: nothing is dropped.
    Beside { index: usize, dir: String },
}

impl Placed {
    /// The index it has now (which the page selects).
    pub fn index(&self) -> usize {
        match self {
            Placed::Added(i) | Placed::Unchanged(i) | Placed::Beside { index: i, .. } => *i,
        }
    }
}

/// Puts a loaded skill after the others, never over one: a skill of the same folder name
/// with the same files is left as it is, and one with other bytes (the person's edits, or
/// another skill of that name) stays, the new one loaded beside it as `{dir}-2` (`-3`, …).
pub fn place_skill(skills: &mut Vec<SkillInput>, input: SkillInput) -> Placed {
    match skills.iter().position(|k| k.dir_name == input.dir_name) {
        Some(idx) if skills[idx].files == input.files => Placed::Unchanged(idx),
        Some(_) => {
            let dir = (2..)
                .map(|n| format!("{}-{n}", input.dir_name))
                .find(|d| !skills.iter().any(|k| &k.dir_name == d))
                .unwrap_or_default();
            let mut input = input;
            input.dir_name = dir.clone();
            skills.push(input);
            Placed::Beside {
                index: skills.len() - 1,
                dir,
            }
        }
        None => {
            skills.push(input);
            Placed::Added(skills.len() - 1)
        }
    }
}

/// [`place_skill`], for a caller that needs only the index.
pub fn put_skill(skills: &mut Vec<SkillInput>, input: SkillInput) -> usize {
    place_skill(skills, input).index()
}

/// What a load says of the skills it placed beside others, or nothing.
pub fn beside_note(placed: &[Placed]) -> Option<String> {
    let beside: Vec<&str> = placed
        .iter()
        .filter_map(|p| match p {
            Placed::Beside { dir, .. } => Some(dir.as_str()),
            Placed::Added(_) | Placed::Unchanged(_) => None,
        })
        .collect();
    (!beside.is_empty()).then(|| {
        format!(
            "A skill of the same folder was loaded already, with other contents; nothing was replaced: the new one is beside it as {}.",
            beside.join(", ")
        )
    })
}

/// A link that would be longer than [`MAX_LINK_CHARS`]: a case a caller branches on (the
/// Action's comment says so beside the skill), with the page's words as its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkTooLong {
    /// How long the link would have been.
    pub chars: usize,
}

impl std::fmt::Display for LinkTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&too_long(self.chars).unwrap_or_default())
    }
}

impl std::error::Error for LinkTooLong {}

/// Why a link of `len` characters is not made (over [`MAX_LINK_CHARS`]), in the page's words.
pub fn too_long(len: usize) -> Option<String> {
    (len > MAX_LINK_CHARS).then(|| {
        format!(
            "The state is {} characters as a link, over the {} that chat apps and mail keep. Download the zip or copy the Markdown instead.",
            thousands(len),
            thousands(MAX_LINK_CHARS)
        )
    })
}

pub(crate) fn thousands(n: usize) -> String {
    skillpg_core::diagnostic::thousands(n as u64)
}

/// The link the page makes for `skills` once it has loaded them (after "Clear all"), under
/// `profile`, opening on `view`: the page's own state (the last skill loaded selected, its
/// SKILL.md shown, every other input at its default), at `base` (the page's address, without
/// a fragment). Refused with the page's message when it is too long for a link.
pub fn link(
    base: &str,
    skills: Vec<SkillInput>,
    profile: &str,
    view: View,
) -> Result<String, LinkTooLong> {
    let mut held = Vec::new();
    let mut selected = 0;
    for s in skills {
        selected = put_skill(&mut held, s);
    }
    let wire = ShareStateV1::<NoLab> {
        v: 1,
        skills: skills_to_wire(&held),
        selected,
        file: "SKILL.md".to_owned(),
        profile: profile.to_owned(),
        cost: CostState::default(),
        routing: RoutingState::default(),
        together: None,
        window: None,
        lab: NoLab {},
        listing: ListingPrefs::default(),
    };
    let url = format!(
        "{}#v1={}&view={}",
        base.split('#').next().unwrap_or(base),
        encode_wire(&wire),
        view.key()
    );
    if url.len() > MAX_LINK_CHARS {
        return Err(LinkTooLong { chars: url.len() });
    }
    Ok(url)
}

/// A Markdown badge that opens `link` ("Open in Skill Playground"), for a README or a
/// pull-request comment.
pub fn badge(link: &str) -> String {
    format!(
        "[![Open in Skill Playground](https://img.shields.io/badge/Skill_Playground-open-2b6cb0)]({link})"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wire_skill(dir: &str) -> SkillV1 {
        SkillV1 {
            dir: dir.to_owned(),
            files: vec![FileV1 {
                p: "SKILL.md".to_owned(),
                t: Some("---\nname: x\n---\n".to_owned()),
                b: None,
            }],
            findings: Vec::new(),
            inside: None,
            loose: false,
        }
    }

    /// Every profile's verdict on a SKILL.md read without its folder, and its folder findings.
    fn lone_verdicts(text: &[u8]) -> Vec<(&'static str, bool, Vec<skillpg_core::Diagnostic>)> {
        let skill = SkillInput::lone_skill_md(text.to_vec());
        let a = skillpg_core::analyze(&skill.bundle());
        skillpg_core::profile::ALL
            .iter()
            .map(|p| {
                let d = skillpg_core::check(&a, p);
                let loads = !d
                    .iter()
                    .any(|d| d.severity == skillpg_core::Severity::Error);
                (p.key, loads, d)
            })
            .collect()
    }

    #[test]
    fn a_skill_md_read_alone_needs_its_folder_instead_of_failing_on_one_made_up() {
        let text = b"---\nname: pdf-tools\ndescription: Fills PDF forms. Use when a PDF is given.\n---\n# PDF\n\nRead [forms](references/forms.md).\n";
        let skill = SkillInput::lone_skill_md(text.to_vec());
        assert_eq!(
            (skill.dir_name.as_str(), skill.folder_unknown),
            ("pdf-tools", true)
        );
        for (key, loads, d) in lone_verdicts(text) {
            assert!(loads, "{key}: {d:?}");
            assert!(!d.iter().any(|d| d.message.contains("my-skill")), "{key}");
            let folder: Vec<&skillpg_core::Diagnostic> = d
                .iter()
                .filter(|d| d.message.starts_with("needs the folder"))
                .collect();
            assert!(
                folder
                    .iter()
                    .all(|d| d.severity == skillpg_core::Severity::Info && d.fix.is_none()),
                "{key}: {folder:?}"
            );
        }
        // It follows its name as it is edited, and a link keeps that its folder is unknown.
        let mut skill = skill;
        skill.set_skill_md("---\nname: renamed\ndescription: x\n---\n");
        assert_eq!(skill.dir_name, "renamed");
        let back = skills_from_wire(skills_to_wire(&[skill])).expect("round trip");
        assert!(back[0].folder_unknown);
    }

    #[test]
    #[ignore = "slow tier, needs the shared corpus beside the repository: scripts/test runs it"]
    fn a_corpus_skill_md_read_alone_fails_in_no_client_on_its_folder() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpus/anthropics__skills/mcp-builder/SKILL.md");
        let text = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("the shared corpus is not at {}: {e}", path.display()));
        for (key, _, d) in lone_verdicts(&text) {
            let on_folder: Vec<&skillpg_core::Diagnostic> = d
                .iter()
                .filter(|d| {
                    (d.rule == "name-dir-mismatch" || d.rule == "broken-link")
                        && d.severity == skillpg_core::Severity::Error
                })
                .collect();
            assert!(on_folder.is_empty(), "{key}: {on_folder:?}");
        }
        // The page names the checks that need the folder.
        let (_, _, d) = &lone_verdicts(&text)[0];
        assert!(
            d.iter().any(|d| d.message.starts_with("needs the folder")),
            "{d:?}"
        );
    }

    #[test]
    fn a_link_whose_folder_is_not_a_folder_name_is_refused() {
        // Issue 36: each of these made "Download the skill (.zip)" write outside its folder.
        let long = "a".repeat(100_000);
        for dir in [
            "..",
            "",
            ".",
            "a/b/../../c",
            "/abs",
            "a\\..\\b",
            "c:evil",
            "x\u{0}y",
            &long,
        ] {
            let e = skills_from_wire(vec![wire_skill(dir)]).expect_err(dir);
            assert!(e.contains("not a folder name"), "{e}");
            assert!(e.len() < 300, "the message stays short: {}", e.len());
        }
        for dir in ["pdf", "my skill", "données", "a.b"] {
            assert_eq!(
                skills_from_wire(vec![wire_skill(dir)]).expect(dir)[0].dir_name,
                dir
            );
        }
    }
}
