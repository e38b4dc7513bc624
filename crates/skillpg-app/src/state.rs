//! The page's state and its two serializations: the share link (`#v1=` + base64url of deflated
//! JSON, no server) and local storage. Pure: no DOM here, so it is tested natively.
//!
//! The link's wire form, the skills as the page holds them and the inputs it shares with
//! `skillpg share` are `skillpg_share`'s; this module adds the description lab's state and
//! clamps what a link brings to what the page's inputs allow.

use skillpg_routing::decide::Thresholds;

pub use skillpg_share::{
    CONTEXT_WINDOW_RANGE, CostState, DEFAULT_CONTEXT_WINDOW, InputFinding, ListingPrefs,
    MAX_LINK_BYTES, MAX_LINK_CHARS, MAX_LINK_FILES, MAX_LINK_SKILLS, MAX_TURNS, RoutingState,
    SkillInput, View,
};
use skillpg_share::{MAX_REQUEST_BYTES, ShareStateV1};

/// Everything a link or a reload restores.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PageState {
    /// The skills loaded, in order.
    pub skills: Vec<SkillInput>,
    /// Index of the skill shown.
    pub selected: usize,
    /// File shown in the token view.
    pub selected_file: String,
    /// Profile shown in the diagnostics list.
    pub profile: String,
    /// Cost inputs.
    pub cost: CostState,
    /// Routing inputs.
    pub routing: RoutingState,
    /// Whether the skills are installed together (the catalog rules run over them); `None`
    /// follows the default: together when more than one skill is loaded.
    pub installed_together: Option<bool>,
    /// The context window (tokens) the clients' listing budgets are computed for; `None`
    /// follows the default ([`DEFAULT_CONTEXT_WINDOW`]).
    pub context_window: Option<usize>,
    /// The description lab's eval set, split and drafts.
    pub lab: crate::lab_run::LabState,
    /// Claude Code's listing settings, as the person set them.
    pub listing: ListingPrefs,
    /// Which generation of documents the skills are: renewed by every change that is not an
    /// edit of a skill's text (a restore, a link, a sample that replaces the skills, a removal
    /// that moves the others), so the editor's undo history, kept per file under
    /// [`PageState::document_key`], never crosses into another skill's text.
    pub documents: Documents,
}

/// A generation of the loaded skills' documents (see [`PageState::documents`]). Each value is
/// new in this page's life; two states compare equal whatever their generations, since it is
/// no part of the work (a link or a saved copy holds none).
#[derive(Debug, Clone, Copy)]
pub struct Documents(u64);

impl Documents {
    /// A generation no state of this page had before.
    pub fn renewed() -> Documents {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Documents(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Default for Documents {
    fn default() -> Documents {
        Documents::renewed()
    }
}

impl PartialEq for Documents {
    fn eq(&self, _: &Documents) -> bool {
        true
    }
}

impl PageState {
    /// Every input but the skills (which stay out: a large folder is not copied for this).
    pub fn clone_without_skills(&self) -> PageState {
        PageState {
            skills: Vec::new(),
            selected: self.selected,
            selected_file: self.selected_file.clone(),
            profile: self.profile.clone(),
            cost: self.cost.clone(),
            routing: self.routing.clone(),
            installed_together: self.installed_together,
            context_window: self.context_window,
            lab: self.lab.clone(),
            listing: self.listing.clone(),
            documents: self.documents,
        }
    }

    /// The editor's name for the selected skill's SKILL.md: its undo history is kept under
    /// it, and a new generation of documents ([`PageState::documents`]) names every file anew.
    pub fn document_key(&self) -> String {
        format!("{}/{}/SKILL.md", self.documents.0, self.selected)
    }

    /// Replaces the loaded skills with `skills` (a sample set): a new generation of documents.
    pub fn replace_skills(&mut self, skills: Vec<SkillInput>) {
        self.skills = skills;
        self.documents = Documents::renewed();
    }

    /// Removes the skill at `idx` (the ones after it move up: a new generation of documents).
    pub fn remove_skill(&mut self, idx: usize) {
        if idx < self.skills.len() {
            self.skills.remove(idx);
            self.documents = Documents::renewed();
        }
        self.selected = self.selected.min(self.skills.len().saturating_sub(1));
    }

    /// The selected skill's eval set (its `+`/`-` lines), empty when it has none.
    pub fn lab_evals(&self) -> String {
        self.skills
            .get(self.selected)
            .and_then(|k| self.lab.sets.get(&k.dir_name))
            .cloned()
            .unwrap_or_default()
    }

    /// Sets the selected skill's eval set as typed into the lab's box, refused past the bound a
    /// link's eval sets are held to (1 MB), before anything parses it: the earlier text stays.
    pub fn type_lab_evals(&mut self, text: String) -> Result<(), String> {
        let others: usize = self
            .lab
            .sets
            .iter()
            .filter(|(dir, _)| {
                self.skills
                    .get(self.selected)
                    .is_none_or(|k| &k.dir_name != *dir)
            })
            .map(|(_, t)| t.len())
            .sum();
        if text.len() + others + self.lab.draft.len() > MAX_REQUEST_BYTES {
            return Err(format!(
                "The eval sets would be {:.1} MB; the lab takes up to 1 MB in all (what a link carries). The earlier text is kept.",
                (text.len() + others + self.lab.draft.len()) as f64 / 1_048_576.0
            ));
        }
        self.set_lab_evals(text);
        Ok(())
    }

    /// Sets the selected skill's eval set.
    pub fn set_lab_evals(&mut self, text: String) {
        if let Some(k) = self.skills.get(self.selected) {
            self.lab.sets.insert(k.dir_name.clone(), text);
        }
    }

    /// The bytes of every loaded skill's files.
    pub fn loaded_bytes(&self) -> u64 {
        self.skills
            .iter()
            .flat_map(|k| &k.files)
            .map(|(_, b)| b.len() as u64)
            .sum()
    }

    /// Why a load of `adding` bytes is refused beside what is loaded, if it is.
    pub fn load_refusal(&self, adding: u64) -> Option<String> {
        skillpg_share::over_workspace_budget(self.loaded_bytes(), adding)
    }

    /// The context window the listing budgets are computed for.
    pub fn window(&self) -> usize {
        self.context_window.unwrap_or(DEFAULT_CONTEXT_WINDOW)
    }

    /// Puts a loaded skill after the others, never over one (`skillpg_share::place_skill`),
    /// and selects its SKILL.md; where it went.
    pub fn put_skill(&mut self, input: SkillInput) -> skillpg_share::Placed {
        let placed = skillpg_share::place_skill(&mut self.skills, input);
        self.selected = placed.index();
        self.selected_file = "SKILL.md".into();
        placed
    }

    /// Puts `skills` after the loaded ones, each renamed where its folder name is taken (as a
    /// load does), leaving out any that is already loaded byte for byte: a link kept, or
    /// another tab's work taken over, lands beside one's own and drops nothing. Where each went.
    pub fn add_beside(&mut self, skills: Vec<SkillInput>) -> Vec<skillpg_share::Placed> {
        let mut placed = Vec::new();
        for k in skills {
            if !self.skills.contains(&k) {
                placed.push(self.put_skill(k));
            }
        }
        placed
    }

    /// Makes way for a person's own skills: every sample still as the gallery loads it is
    /// removed (an edited sample stays: it is the person's work now).
    pub fn remove_untouched_samples(&mut self) {
        let samples: Vec<SkillInput> = crate::samples::SAMPLES.iter().map(|s| s.input()).collect();
        let before = self.skills.len();
        self.skills.retain(|k| !samples.contains(k));
        if self.skills.len() != before {
            self.documents = Documents::renewed();
            self.selected = 0;
            self.selected_file = "SKILL.md".into();
        }
    }

    /// Whether the loaded skills are checked as one catalog.
    pub fn together(&self) -> bool {
        self.installed_together.unwrap_or(self.skills.len() > 1)
    }
}

/// Applies `fix` to the selected skill's `file`, as the Check view's "Apply the fix" does. A file
/// that is not UTF-8 (UTF-16, Latin-1) is refused with the reason: the fix's text is UTF-8, and
/// writing it back would re-encode the whole file (the hostile round found a UTF-16 SKILL.md
/// turned into mojibake).
pub fn apply_fix_to_file(
    state: &mut PageState,
    file: &str,
    fix: &skillpg_core::diagnostic::Fix,
) -> Result<(), String> {
    let selected = state.selected;
    let Some(f) = state
        .skills
        .get_mut(selected)
        .and_then(|k| k.files.iter_mut().find(|(p, _)| p == file))
    else {
        return Err(format!(
            "{file} is no longer in this skill: nothing was changed."
        ));
    };
    let Ok(text) = std::str::from_utf8(&f.1) else {
        return Err(format!(
            "{file} is not UTF-8, so a fix would re-encode all of it: nothing was changed. Save it as UTF-8 first (the button above the editor), then apply the fix."
        ));
    };
    f.1 = skillpg_core::fix::apply_one(text, fix).into_bytes();
    Ok(())
}

/// The most bytes the editor takes for SKILL.md: the engine reads and counts files up to this
/// size (claude.ai refuses larger ones), and a skill past it could not be restored.
pub const MAX_EDITOR_BYTES: usize = skillpg_core::bundle::MAX_FILE_BYTES;

/// Why the editor refuses a SKILL.md of `new_bytes` beside `other_bytes` of the skill's other
/// files, if it does. A refused edit changes nothing: the earlier text stays, and the state saved
/// for the next visit is never one that a link or a reload would refuse.
pub fn editor_refusal(new_bytes: usize, other_bytes: usize) -> Option<String> {
    let mb = |b: usize| b as f64 / 1_048_576.0;
    if new_bytes > MAX_EDITOR_BYTES {
        return Some(format!(
            "That would make SKILL.md {:.1} MB; the editor takes up to {:.0} MB (the engine reads files up to that size, and claude.ai refuses larger ones). The earlier text is kept.",
            mb(new_bytes),
            mb(MAX_EDITOR_BYTES)
        ));
    }
    if new_bytes + other_bytes > MAX_LINK_BYTES {
        return Some(format!(
            "That would make the skill's files {:.1} MB in all; the page keeps up to {:.0} MB a skill (what a link and the saved state carry). The earlier text is kept.",
            mb(new_bytes + other_bytes),
            mb(MAX_LINK_BYTES)
        ));
    }
    None
}

fn to_wire(state: &PageState) -> ShareStateV1<crate::lab_run::LabState> {
    ShareStateV1 {
        v: 1,
        skills: skillpg_share::skills_to_wire(&state.skills),
        selected: state.selected,
        file: state.selected_file.clone(),
        profile: state.profile.clone(),
        cost: state.cost.clone(),
        routing: state.routing.clone(),
        together: state.installed_together,
        window: state.context_window,
        listing: state.listing.clone(),
        lab: state.lab.clone(),
    }
}

fn from_wire(wire: ShareStateV1<crate::lab_run::LabState>) -> Result<PageState, String> {
    from_wire_within(wire, skillpg_share::WireLimits::LINK.bytes)
}

/// [`from_wire`] with at most `max_bytes` of files (a link's bound, or the load budget for
/// what this browser saved itself).
fn from_wire_within(
    wire: ShareStateV1<crate::lab_run::LabState>,
    max_bytes: usize,
) -> Result<PageState, String> {
    // The version and the counts were checked as the link was read (`decode_wire`).
    let skills = skillpg_share::skills_from_wire_within(wire.skills, max_bytes)?;
    let selected = wire.selected.min(skills.len().saturating_sub(1));
    // Every number and name is clamped to what the page's own inputs allow.
    let profile = if skillpg_core::Profile::by_key(&wire.profile).is_some() {
        wire.profile
    } else {
        "spec".to_owned()
    };
    let mut cost = wire.cost;
    cost.turns = cost.turns.clamp(1, MAX_TURNS);
    cost.activate_at = cost.activate_at.clamp(1, cost.turns);
    for price in [&mut cost.price, &mut cost.cached_price] {
        *price = if price.is_finite() {
            price.clamp(0.0, 1_000.0)
        } else {
            0.0
        };
    }
    cost.read.truncate(MAX_LINK_FILES);
    let mut routing = wire.routing;
    if routing.requests.len() > MAX_REQUEST_BYTES {
        return Err("the link's routing requests are over 1 MB; it was not opened".to_owned());
    }
    let t = Thresholds {
        tau: routing.tau,
        delta: routing.delta,
    }
    .clamped();
    (routing.tau, routing.delta) = (t.tau, t.delta);
    let context_window = wire
        .window
        .map(|w| w.clamp(*CONTEXT_WINDOW_RANGE.start(), *CONTEXT_WINDOW_RANGE.end()));
    let lab = lab_from_wire(wire.lab)?;
    Ok(PageState {
        skills,
        selected,
        selected_file: wire.file,
        profile,
        cost,
        routing,
        installed_together: wire.together,
        context_window,
        lab,
        listing: wire.listing.clamped(),
        documents: Documents::renewed(),
    })
}

/// A link's lab, every number clamped to what the page's own inputs allow and its history to
/// the page's bound.
fn lab_from_wire(mut lab: crate::lab_run::LabState) -> Result<crate::lab_run::LabState, String> {
    if lab.sets.values().map(String::len).sum::<usize>() + lab.draft.len() > MAX_REQUEST_BYTES {
        return Err("the link's eval set is over 1 MB; it was not opened".to_owned());
    }
    lab.holdout = if lab.holdout.is_finite() {
        lab.holdout.clamp(0.0, 0.9)
    } else {
        skillpg_routing::eval::DEFAULT_HOLDOUT
    };
    lab.runs = lab.runs.clamp(1, crate::lab_run::MAX_RUNS);
    lab.temperature = if lab.temperature.is_finite() {
        lab.temperature.clamp(0.0, 2.0)
    } else {
        0.7
    };
    let skills: std::collections::BTreeSet<String> =
        lab.history.iter().map(|v| v.skill.clone()).collect();
    for skill in skills {
        lab.cap_history(&skill);
    }
    Ok(lab)
}

/// Serializes the state for a link fragment or storage: base64url of deflated JSON.
pub fn encode(state: &PageState) -> String {
    skillpg_share::encode_wire(&to_wire(state))
}

/// What this browser keeps of a person's work, in two parts, so that no save serializes every
/// file at once and no part sits in a store with a few-megabyte quota:
///
/// - the index ([`SavedIndex`], written to local storage, synchronously): the whole state with
///   every file left out, and for each file either the key it is kept under or, when it was
///   not kept yet (a change made just before the page closed), its bytes;
/// - each file's bytes ([`saved_bytes`]), written to the Cache API store under a key of its
///   path and contents ([`file_key`]): a file is written again only when it changed, so an edit
///   to SKILL.md beside a 7 MB reference writes SKILL.md alone.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SavedIndex {
    /// [`SAVED_VERSION`].
    pub v: u32,
    /// The state with every file left out ([`encode`]'s form).
    pub state: String,
    /// Per skill, in order, its files in order.
    pub skills: Vec<Vec<SavedFile>>,
}

/// One saved file: its path, and where its bytes are.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SavedFile {
    pub p: String,
    #[serde(flatten)]
    pub at: SavedAt,
}

/// Where a saved file's bytes are.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SavedAt {
    /// In the Cache API store, under this key.
    Kept(String),
    /// Here, as [`saved_bytes`] writes them, in base64url.
    Inline(String),
}

/// The saved index's version (the first, `encode`'s whole state in local storage, is read too).
pub const SAVED_VERSION: u32 = 2;

/// The key a file is kept under: FNV-1a (64 bits) over its path and bytes with their lengths,
/// so equal files give one key and a change gives another.
pub fn file_key(path: &str, bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |part: &[u8]| {
        for &b in part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(&(path.len() as u64).to_le_bytes());
    eat(path.as_bytes());
    eat(&(bytes.len() as u64).to_le_bytes());
    eat(bytes);
    format!("{h:016x}-{}", bytes.len())
}

/// A file's bytes as kept: deflated.
pub fn saved_bytes(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = enc.write_all(bytes);
    enc.finish().unwrap_or_default()
}

fn bytes_from_saved(bytes: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::DeflateDecoder::new(bytes)
        .take(skillpg_share::MAX_LOAD_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("a saved file is damaged ({e})"))?;
    Ok(out)
}

/// The inline form of a file, for an index written when it is not kept yet.
pub fn inline_file(bytes: &[u8]) -> SavedAt {
    use base64::Engine;
    SavedAt::Inline(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(saved_bytes(bytes)))
}

/// The index for `state`, each file at `at(skill, file)`.
pub fn saved_index(state: &PageState, mut at: impl FnMut(usize, usize) -> SavedAt) -> String {
    let bare = PageState {
        skills: state
            .skills
            .iter()
            .map(|k| SkillInput {
                dir_name: k.dir_name.clone(),
                files: Vec::new(),
                findings: k.findings.clone(),
                inside: k.inside.clone(),
                folder_unknown: k.folder_unknown,
            })
            .collect(),
        ..state.clone_without_skills()
    };
    let skills = state
        .skills
        .iter()
        .enumerate()
        .map(|(i, k)| {
            k.files
                .iter()
                .enumerate()
                .map(|(j, (p, _))| SavedFile {
                    p: p.clone(),
                    at: at(i, j),
                })
                .collect()
        })
        .collect();
    serde_json::to_string(&SavedIndex {
        v: SAVED_VERSION,
        state: encode(&bare),
        skills,
    })
    .unwrap_or_default()
}

/// Reads a saved index: the keys whose bytes must be fetched from the store first.
pub fn saved_keys(index: &str) -> Option<Vec<String>> {
    let index: SavedIndex = serde_json::from_str(index).ok()?;
    (index.v == SAVED_VERSION).then(|| {
        index
            .skills
            .into_iter()
            .flatten()
            .filter_map(|f| match f.at {
                SavedAt::Kept(k) => Some(k),
                SavedAt::Inline(_) => None,
            })
            .collect()
    })
}

/// The state a saved index and its kept files make (`kept(key)` gives the bytes under a key),
/// checked as a link's state is, within the bound the page held its work to; an error when any
/// file is missing ([`restore_partial`] gives back the rest).
pub fn restore(index: &str, kept: impl Fn(&str) -> Option<Vec<u8>>) -> Result<PageState, String> {
    let restored = restore_partial(index, kept)?;
    match restored.missing.first() {
        None => Ok(restored.state),
        Some(first) => Err(format!("{first} was not found in this browser's storage")),
    }
}

/// What [`restore_partial`] could read of a saved index.
#[derive(Debug, Clone, PartialEq)]
pub struct Restored {
    /// The state, with every skill whose files were all found.
    pub state: PageState,
    /// The files not found (`skill/path`), whose skills were left out.
    pub missing: Vec<String>,
}

/// The state a saved index and its kept files make, leaving out a skill whose files are not all
/// found (the rest of the work comes back; the caller keeps the index aside for the others). An
/// error only where the index itself cannot be read.
pub fn restore_partial(
    index: &str,
    kept: impl Fn(&str) -> Option<Vec<u8>>,
) -> Result<Restored, String> {
    use base64::Engine;
    let index: SavedIndex =
        serde_json::from_str(index).map_err(|e| format!("the saved work is damaged ({e})"))?;
    let mut wire: ShareStateV1<crate::lab_run::LabState> =
        skillpg_share::decode_wire_within(&index.state, &skillpg_share::WireLimits::SAVED)?;
    if wire.skills.len() != index.skills.len() {
        return Err("the saved work is damaged (its skills do not match its index)".to_owned());
    }
    let mut missing = Vec::new();
    let mut complete = Vec::with_capacity(wire.skills.len());
    let selected_dir = wire.skills.get(wire.selected).map(|k| k.dir.clone());
    for (mut skill, files) in std::mem::take(&mut wire.skills)
        .into_iter()
        .zip(index.skills)
    {
        let mut input = SkillInput::new(skill.dir.clone(), Vec::new());
        let mut whole = true;
        for f in files {
            let deflated = match f.at {
                SavedAt::Kept(key) => kept(&key),
                SavedAt::Inline(b64) => Some(
                    base64::engine::general_purpose::URL_SAFE_NO_PAD
                        .decode(b64.as_bytes())
                        .map_err(|e| format!("the saved work is damaged ({e})"))?,
                ),
            };
            match deflated {
                Some(deflated) => input.files.push((f.p, bytes_from_saved(&deflated)?)),
                None => {
                    missing.push(format!("{}/{}", skill.dir, f.p));
                    whole = false;
                }
            }
        }
        if whole {
            skill.files = skillpg_share::skills_to_wire(&[input])
                .pop()
                .map(|s| s.files)
                .unwrap_or_default();
            complete.push(skill);
        }
    }
    wire.selected = selected_dir
        .and_then(|d| complete.iter().position(|k| k.dir == d))
        .unwrap_or(0);
    wire.skills = complete;
    let state = from_wire_within(wire, skillpg_share::WireLimits::SAVED.bytes)?;
    Ok(Restored { state, missing })
}

/// The fragment of a share link: `v1=...`: the state as [`for_a_link`] scopes it.
pub fn share_fragment(state: &PageState) -> String {
    format!("v1={}", encode(&for_a_link(state)))
}

/// The state a link and the address carry: the lab's eval sets, drafts, looks and sealed
/// queries of the loaded skills only (a workspace's earlier skills' sets and drafts stay in
/// this browser's saved work, never in a link), and no validation count of a split whose final
/// check was not made: a link is read by people who should not see held-out outcomes either.
pub fn for_a_link(state: &PageState) -> PageState {
    let mut scoped = state.clone();
    let lab = &mut scoped.lab;
    // A skill is known by its folder and by the name its SKILL.md gives (history rows and
    // revealed splits name it so).
    let mut loaded: std::collections::BTreeSet<String> =
        state.skills.iter().map(|k| k.dir_name.clone()).collect();
    loaded.extend(state.skills.iter().filter_map(|k| {
        let md = k.files.iter().find(|(p, _)| p == "SKILL.md")?;
        let doc = skillpg_core::frontmatter::SkillDoc::parse(std::str::from_utf8(&md.1).ok()?);
        doc.field_str("name").map(str::to_owned)
    }));
    lab.sets.retain(|dir, _| loaded.contains(dir));
    lab.history.retain(|v| loaded.contains(&v.skill));
    lab.revealed
        .retain(|key| loaded.iter().any(|n| key.starts_with(&format!("{n} · "))));
    for v in &mut lab.history {
        if !lab.revealed.contains(&v.key()) {
            v.validation = None;
        }
    }
    // Looks and sealed queries are kept by hashes: those of the loaded skills' queries stay.
    let items: Vec<(String, skillpg_routing::eval::EvalQuery)> = lab
        .sets
        .iter()
        .flat_map(|(dir, text)| {
            skillpg_routing::evalset::parse_lines(text)
                .unwrap_or_default()
                .into_iter()
                .map(move |q| (dir.clone(), q))
        })
        .collect();
    let sealed_ids: std::collections::BTreeSet<String> = items
        .iter()
        .map(|(_, q)| skillpg_routing::eval::sealed_id(&q.query))
        .collect();
    lab.sealed.retain(|id| sealed_ids.contains(id));
    let look_ids: std::collections::BTreeSet<String> = items
        .iter()
        .flat_map(|(_, q)| loaded.iter().map(move |n| crate::lab_run::query_id(n, q)))
        .collect();
    lab.looks.retain(|id, _| look_ids.contains(id));
    if lab
        .adopted
        .as_ref()
        .is_some_and(|a| !loaded.contains(&a.skill))
    {
        lab.adopted = None;
    }
    scoped
}

/// Reads what [`encode`] wrote; every failure is a message for a person.
pub fn decode(data: &str) -> Result<PageState, String> {
    from_wire(skillpg_share::decode_wire(data)?)
}

/// A fragment without its share state: the view and the turn it names (`view=present&turn=12`),
/// what the address keeps once a link's state has been read.
pub fn fragment_without_state(hash: &str) -> String {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    hash.split('&')
        .filter(|part| !part.is_empty() && !part.starts_with('v') || part.starts_with("view="))
        .collect::<Vec<_>>()
        .join("&")
}

/// The turn a fragment names (`turn=12`), for presenter mode's links.
pub fn turn_from_fragment(hash: &str) -> Option<u64> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    hash.split('&')
        .find_map(|part| part.strip_prefix("turn="))?
        .parse()
        .ok()
        .filter(|&t| t >= 1)
}

/// The most bytes of skills the address is asked to hold: past this, no compression brings a
/// skill's text under [`skillpg_share::MAX_LINK_CHARS`], and encoding it after every pause in
/// typing would slow the editor for nothing.
pub const ADDRESS_MAX_RAW_BYTES: usize = 1_000_000;

/// The address's fragment for `state` opened on `view` (`v1=...&view=...`, the view left out
/// for Check, where a link opens anyway), as a share link holds it: the page keeps its address
/// so, after a pause in editing, so that copying the address shares the work. `Err` says why
/// the state does not fit in an address (`base_len`: the characters before the `#`), and the
/// fragment to use instead (the view alone).
pub fn address_fragment(
    state: &PageState,
    view: View,
    base_len: usize,
) -> Result<String, (String, String)> {
    let view_part = match view {
        View::Check => String::new(),
        v => format!("view={}", v.key()),
    };
    let raw: usize = state
        .skills
        .iter()
        .flat_map(|k| k.files.iter())
        .map(|(p, b)| p.len() + b.len())
        .sum();
    if raw > ADDRESS_MAX_RAW_BYTES {
        return Err((
            format!(
                "The skills are {} bytes: too large for the address or a link (at most {} characters). Share the zip or a discovery index instead.",
                skillpg_core::diagnostic::thousands(raw as u64),
                skillpg_core::diagnostic::thousands(skillpg_share::MAX_LINK_CHARS as u64)
            ),
            view_part,
        ));
    }
    let mut fragment = share_fragment(state);
    if !view_part.is_empty() {
        fragment.push('&');
        fragment.push_str(&view_part);
    }
    match skillpg_share::too_long(base_len + 1 + fragment.len()) {
        Some(why) => Err((why, view_part)),
        None => Ok(fragment),
    }
}

/// A short fingerprint of an address's state (FNV-1a over the `v1=` part): the page remembers
/// the one it wrote last, so that a reload of its own address restores the saved work (the
/// same, or newer) instead of asking as it does for someone else's link.
pub fn address_fingerprint(hash: &str) -> Option<String> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    let state = hash.split('&').next().filter(|s| s.starts_with("v1="))?;
    Some(file_key("#", state.as_bytes()))
}

/// The most skill columns the client matrix shows at once: a thousand skills would make a
/// table of twenty thousand cells, so beyond this it shows a window around the selected skill
/// (the catalog lists them all).
pub const MATRIX_COLUMNS: usize = 8;

/// The skills (by index) whose columns the matrix shows: every one of a few, else
/// [`MATRIX_COLUMNS`] around `selected`, within `0..total`.
pub fn matrix_columns(selected: usize, total: usize) -> std::ops::Range<usize> {
    if total <= MATRIX_COLUMNS {
        return 0..total;
    }
    let start = selected
        .saturating_sub(MATRIX_COLUMNS / 2)
        .min(total - MATRIX_COLUMNS);
    start..start + MATRIX_COLUMNS
}

/// The fragment of a share link that opens on `view`: the state, then the view.
pub fn share_fragment_with_view(state: &PageState, view: View) -> String {
    format!("{}&view={}", share_fragment(state), view.key())
}

/// Reads a location hash (`#v1=...`, optionally `&view=...` after it); `None` when the hash
/// carries no share state at all (`#view=cost` alone, `#rule-...`).
pub fn decode_fragment(hash: &str) -> Option<Result<PageState, String>> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    // base64url has no `&`: the state is everything before the first one.
    let hash = hash.split('&').next().unwrap_or("");
    if hash.is_empty() || hash.starts_with("view=") {
        return None;
    }
    match hash.strip_prefix("v1=") {
        Some(data) => Some(decode(data)),
        None if hash.starts_with('v') && hash.contains('=') => Some(Err(
            "this share link has a format this version does not know".to_owned(),
        )),
        None => None,
    }
}

/// A `.zip` of one skill, laid out as claude.ai expects: one top-level folder.
pub fn skill_zip(skill: &SkillInput) -> Vec<u8> {
    skills_zip(std::slice::from_ref(skill))
}

/// A zip of `skills`, each in its own top-level folder (a folder name already taken, or that is
/// no folder name, is written as `skill-2`, `skill-3`…): what the page gives back of work it
/// could not restore whole.
pub fn skills_zip(skills: &[SkillInput]) -> Vec<u8> {
    let mut taken = std::collections::HashSet::new();
    let mut entries: Vec<(String, &[u8])> = Vec::new();
    for skill in skills {
        let mut dir = if skillpg_core::ingest::is_folder_name(&skill.dir_name) {
            skill.dir_name.clone()
        } else {
            "skill".to_owned()
        };
        let mut n = 1;
        while !taken.insert(dir.to_ascii_lowercase()) {
            n += 1;
            dir = format!("skill-{n}");
        }
        entries.extend(skill.files.iter().filter_map(|(path, bytes)| {
            let path = skillpg_core::ingest::clean_path(path).filter(|p| !p.is_empty())?;
            Some((format!("{dir}/{path}"), bytes.as_slice()))
        }));
    }
    skillpg_core::ingest::write_archive(&entries)
}

/// How many skills a saved index holds (`None` for the first form, the whole state encoded).
pub fn saved_skill_count(index: &str) -> Option<usize> {
    serde_json::from_str::<SavedIndex>(index)
        .ok()
        .map(|i| i.skills.len())
}

/// Saved work that could not be restored whole, kept aside in this browser: its index, and when
/// it was kept (seconds since the epoch; 0 for one kept by an earlier version of the page).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KeptAside {
    pub at: f64,
    pub index: String,
}

impl KeptAside {
    /// The list as local storage keeps it (none when it does not read).
    pub fn read_list(json: &str) -> Vec<KeptAside> {
        serde_json::from_str(json).unwrap_or_default()
    }

    /// The list as local storage keeps it.
    pub fn write_list(list: &[KeptAside]) -> String {
        serde_json::to_string(list).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use skillpg_share::{FileV1, SkillV1};
    use std::io::Write;

    type ShareStateV1 = skillpg_share::ShareStateV1<crate::lab_run::LabState>;

    #[test]
    fn the_view_and_the_state_are_separate_parts_of_the_fragment() {
        let state = PageState {
            profile: "claude-code".into(),
            ..PageState::default()
        };
        let fragment = share_fragment_with_view(&state, View::Cost);
        assert_eq!(
            View::from_fragment(&format!("#{fragment}")),
            Some(View::Cost)
        );
        let back = decode_fragment(&format!("#{fragment}"))
            .expect("a share link")
            .expect("decodes");
        assert_eq!(back.profile, "claude-code");
        assert_eq!(View::from_fragment("#view=routing"), Some(View::Routing));
        assert_eq!(View::from_fragment("#view=nope"), None);
        assert_eq!(View::from_fragment("#rule-broken_link"), None);
        for v in View::NAV.into_iter().chain([View::Present]) {
            assert_eq!(View::from_fragment(&format!("view={}", v.key())), Some(v));
        }
        assert_eq!(turn_from_fragment("#v1=abc&view=present&turn=12"), Some(12));
        assert_eq!(
            fragment_without_state("#v1=abc&view=present&turn=12"),
            "view=present&turn=12"
        );
        assert_eq!(fragment_without_state("#v1=abc"), "");
        assert_eq!(fragment_without_state("#v2=abc&view=cost"), "view=cost");
        assert_eq!(turn_from_fragment("#view=present&turn=0"), None);
        assert_eq!(turn_from_fragment("#view=present&turn=x"), None);
    }

    #[test]
    fn the_address_holds_the_state_and_its_view_or_says_why_not() {
        let state = sample();
        let check = address_fragment(&state, View::Check, 30).expect("fits");
        assert!(
            check.starts_with("v1=") && !check.contains("view="),
            "{check}"
        );
        let back = decode_fragment(&format!("#{check}"))
            .expect("a share state")
            .expect("it decodes");
        assert_eq!(back.skills[0].files, state.skills[0].files);
        let cost = address_fragment(&state, View::Cost, 30).expect("fits");
        assert!(cost.ends_with("&view=cost"), "{cost}");
        assert_eq!(View::from_fragment(&cost), Some(View::Cost));
        // Too large: the view alone, and why.
        let mut big = sample();
        big.skills[0].files.push((
            "references/big.md".into(),
            vec![b'x'; ADDRESS_MAX_RAW_BYTES + 1],
        ));
        let (why, rest) = address_fragment(&big, View::Tokens, 30).expect_err("too large");
        assert!(why.contains("too large"), "{why}");
        assert_eq!(rest, "view=tokens");
        // Incompressible bytes under the raw bound, over the link's.
        let mut noisy = sample();
        let mut x: u64 = 1;
        let bytes: Vec<u8> = (0..200_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect();
        noisy.skills[0]
            .files
            .push(("assets/noise.bin".into(), bytes));
        let (why, rest) = address_fragment(&noisy, View::Check, 30).expect_err("too long");
        assert!(why.contains("characters as a link"), "{why}");
        assert_eq!(rest, "");
        // The fingerprint is the state's, whatever the view.
        assert_eq!(
            address_fingerprint(&format!("#{check}")),
            address_fingerprint(&cost)
        );
        assert_ne!(address_fingerprint(&check), None);
        assert_eq!(address_fingerprint("#view=cost"), None);
    }

    #[test]
    fn the_matrix_shows_every_skill_of_a_few_and_a_window_around_the_selected_one_of_many() {
        assert_eq!(matrix_columns(0, 0), 0..0);
        assert_eq!(matrix_columns(3, 5), 0..5);
        assert_eq!(matrix_columns(0, 1051), 0..MATRIX_COLUMNS);
        assert_eq!(matrix_columns(500, 1051), 496..504);
        assert_eq!(matrix_columns(1050, 1051), 1043..1051);
        for selected in [0, 7, 8, 9, 500, 1050] {
            assert!(matrix_columns(selected, 1051).contains(&selected));
        }
    }

    fn sample() -> PageState {
        PageState {
            skills: vec![SkillInput {
                folder_unknown: false,
                inside: Some("outer".into()),
                dir_name: "my-skill".into(),
                files: vec![
                    ("SKILL.md".into(), b"---\nname: my-skill\n---\n".to_vec()),
                    ("assets/x.png".into(), vec![0x89, 0, 0xff]),
                ],
                findings: vec![InputFinding {
                    rule: "archive-layout".into(),
                    file: String::new(),
                    message: "the archive has 2 top-level entries".into(),
                }],
            }],
            selected: 0,
            selected_file: "SKILL.md".into(),
            profile: "claude-ai".into(),
            cost: CostState::default(),
            routing: RoutingState::default(),
            installed_together: Some(true),
            context_window: Some(128_000),
            documents: Documents::default(),
            listing: ListingPrefs {
                max_desc_chars: Some(300),
                budget_fraction: Some(0.02),
                overrides: [("my-skill".to_owned(), "name-only".to_owned())].into(),
            },
            lab: crate::lab_run::LabState {
                sets: [("my-skill".to_owned(), "+ merge these\n- hello\n".to_owned())].into(),
                seed: 7,
                holdout: 0.4,
                draft: "Merges PDFs.".into(),
                history: vec![crate::lab_run::Variant {
                    description: "Merges.".into(),
                    train: (1, 2),
                    validation: Some((0, 1)),
                    skill: "my-skill".into(),
                    seed: 7,
                    version: "0badc0de".into(),
                }],
                decoder: true,
                runs: 3,
                temperature: 0.7,
                looks: [(
                    crate::lab_run::query_id(
                        "my-skill",
                        &skillpg_routing::eval::EvalQuery {
                            query: "merge these".into(),
                            should_trigger: true,
                        },
                    ),
                    2,
                )]
                .into(),
                revealed: ["my-skill · eval set 0badc0de · seed 7".to_owned()].into(),
                sealed: [skillpg_routing::eval::sealed_id("hello")].into(),
                dropped: [("my-skill".to_owned(), 3)].into(),
                adopted: Some(crate::lab_run::Adopted {
                    skill: "my-skill".into(),
                    before: "Merges.".into(),
                    after: "Merges PDFs.".into(),
                }),
            },
        }
    }

    #[test]
    fn a_link_carries_the_loaded_skills_lab_alone_and_no_count_held_out() {
        let mut state = sample();
        let lab = &mut state.lab;
        lab.sets
            .insert("elsewhere".into(), "+ other repo's query\n".into());
        let mut theirs = lab.history[0].clone();
        theirs.skill = "elsewhere".into();
        lab.history.push(theirs);
        let mut unchecked = lab.history[0].clone();
        unchecked.seed = 8;
        lab.history.push(unchecked);
        lab.looks.insert("ffffffffffffffff".into(), 9);
        lab.sealed
            .insert(skillpg_routing::eval::sealed_id("other repo's query"));
        lab.revealed
            .insert("elsewhere · eval set 0badc0de · seed 7".into());
        let sent = decode(
            share_fragment(&state)
                .strip_prefix("v1=")
                .expect("a v1 link"),
        )
        .expect("reads");
        assert_eq!(sent.lab.sets.keys().collect::<Vec<_>>(), ["my-skill"]);
        assert!(sent.lab.history.iter().all(|v| v.skill == "my-skill"));
        assert_eq!(sent.lab.history.len(), 2);
        // The split whose final check was made keeps its count; the other does not.
        assert_eq!(sent.lab.history[0].validation, Some((0, 1)));
        assert_eq!(sent.lab.history[1].validation, None);
        assert_eq!(sent.lab.looks.len(), 1);
        assert_eq!(
            sent.lab.sealed,
            [skillpg_routing::eval::sealed_id("hello")].into()
        );
        assert!(
            sent.lab
                .revealed
                .iter()
                .all(|k| k.starts_with("my-skill · "))
        );
        // The saved work keeps everything.
        let saved = decode(&encode(&state)).expect("reads");
        assert_eq!(saved.lab.sets.len(), 2);
        assert_eq!(saved.lab.history.len(), 3);
    }

    #[test]
    fn share_links_round_trip() {
        let state = sample();
        let frag = share_fragment(&state);
        let back = decode_fragment(&format!("#{frag}"))
            .expect("a share link")
            .expect("decodes");
        assert_eq!(back, state);
    }

    #[test]
    fn damaged_links_get_a_message() {
        let frag = share_fragment(&sample());
        let cut = &frag[..frag.len() / 2];
        assert!(
            decode_fragment(&format!("#{cut}"))
                .expect("a share link")
                .is_err()
        );
        assert!(decode_fragment("#v1=!!!").expect("a share link").is_err());
        assert!(decode_fragment("#v9=abc").expect("a share link").is_err());
        assert!(decode_fragment("#section-2").is_none());
        assert!(decode_fragment("#view=cost").is_none());
        let evil = ShareStateV1 {
            v: 1,
            skills: vec![SkillV1 {
                dir: "x".into(),
                findings: vec![],
                inside: None,
                files: vec![FileV1 {
                    p: "../../etc/passwd".into(),
                    t: Some(String::new()),
                    b: None,
                }],
                loose: false,
            }],
            selected: 0,
            file: String::new(),
            profile: String::new(),
            cost: CostState::default(),
            routing: RoutingState::default(),
            together: None,
            window: None,
            lab: Default::default(),
            listing: Default::default(),
        };
        assert!(from_wire(evil).is_err());
    }

    fn wire_with(skills: Vec<SkillV1>) -> ShareStateV1 {
        ShareStateV1 {
            v: 1,
            skills,
            selected: 0,
            file: String::new(),
            profile: "spec".into(),
            cost: CostState::default(),
            routing: RoutingState::default(),
            together: None,
            window: None,
            lab: Default::default(),
            listing: Default::default(),
        }
    }

    fn link_of(wire: &ShareStateV1) -> String {
        let json = serde_json::to_vec(wire).expect("json");
        let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(&json).expect("deflate");
        URL_SAFE_NO_PAD.encode(enc.finish().expect("deflate"))
    }

    #[test]
    fn crafted_links_are_bounded_like_archives() {
        // Many skills, many files, a huge file: refused with a message, before any analysis.
        let many_skills: Vec<SkillV1> = (0..MAX_LINK_SKILLS + 1)
            .map(|i| SkillV1 {
                inside: None,
                dir: format!("s{i}"),
                findings: vec![],
                files: vec![],
                loose: false,
            })
            .collect();
        assert!(decode(&link_of(&wire_with(many_skills))).is_err_and(|e| e.contains("skills")));
        let many_files = vec![SkillV1 {
            inside: None,
            dir: "x".into(),
            findings: vec![],
            files: (0..MAX_LINK_FILES + 1)
                .map(|i| FileV1 {
                    p: format!("f{i}"),
                    t: Some(String::new()),
                    b: None,
                })
                .collect(),
            loose: false,
        }];
        assert!(decode(&link_of(&wire_with(many_files))).is_err_and(|e| e.contains("files")));
        let huge = vec![SkillV1 {
            inside: None,
            dir: "x".into(),
            findings: vec![],
            files: vec![FileV1 {
                p: "SKILL.md".into(),
                t: Some("a".repeat(MAX_LINK_BYTES + 1)),
                b: None,
            }],
            loose: false,
        }];
        let link = link_of(&wire_with(huge));
        assert!(link.len() < 20_000, "a small link: {}", link.len());
        assert!(decode(&link).is_err_and(|e| e.contains("MB")));
        // Absurd numbers are clamped and an unknown profile falls back to the spec's.
        let mut wire = wire_with(vec![SkillV1 {
            inside: None,
            dir: "x".into(),
            findings: vec![],
            files: vec![],
            loose: false,
        }]);
        wire.cost.turns = u64::MAX;
        wire.cost.activate_at = 0;
        wire.cost.price = 1e300;
        wire.profile = "<img src=x>".into();
        wire.routing.tau = 5.0;
        wire.window = Some(usize::MAX);
        let state = decode(&link_of(&wire)).expect("clamped");
        assert_eq!(state.window(), *CONTEXT_WINDOW_RANGE.end());
        assert_eq!(
            (state.cost.turns, state.cost.activate_at, state.cost.price),
            (MAX_TURNS, 1, 1_000.0)
        );
        assert_eq!(state.profile, "spec");
        assert_eq!(state.routing.tau, 1.0);
        // A link keeps an archive's own findings, and no made-up finding of another rule.
        let finding = |rule: &str| InputFinding {
            rule: rule.into(),
            file: String::new(),
            message: "m".into(),
        };
        let wire = wire_with(vec![SkillV1 {
            inside: None,
            dir: "x".into(),
            findings: vec![finding("archive-layout"), finding("name-format")],
            files: vec![],
            loose: false,
        }]);
        assert_eq!(
            decode(&link_of(&wire)).expect("a link").skills[0].findings,
            vec![finding("archive-layout")]
        );
    }

    #[test]
    fn an_archives_findings_go_with_its_first_skill_to_every_client() {
        let two = skillpg_core::ingest::write_archive(&[
            ("a/SKILL.md", &b"---\nname: a\ndescription: A.\n---\n"[..]),
            ("b/SKILL.md", &b"---\nname: b\ndescription: B.\n---\n"[..]),
        ]);
        let skills = SkillInput::from_ingested(skillpg_core::ingest::read_archive("two.ZIP", &two));
        assert_eq!(
            skills.iter().map(|k| k.findings.len()).collect::<Vec<_>>(),
            vec![1, 0],
            "on the first skill only"
        );
        // Claude Code chosen: its every finding; every other client its gates (errors) alone.
        let analyzed = crate::analyze_skills(&skills);
        let under = |chosen: &str| crate::compute(&analyzed, Default::default(), chosen);
        let computed = under("claude-code");
        let errors_of = |key: &str| {
            let (_, per_skill) = computed
                .checks
                .iter()
                .find(|(p, _)| p.key == key)
                .expect("a profile");
            per_skill[0]
                .iter()
                .filter(|d| d.rule == "archive-layout")
                .map(|d| d.severity)
                .collect::<Vec<_>>()
        };
        // claude.ai's upload gate refuses the archive; elsewhere it is a warning, as in the CLI.
        assert_eq!(errors_of("claude-ai"), vec![skillpg_core::Severity::Error]);
        assert_eq!(
            errors_of("claude-code"),
            vec![skillpg_core::Severity::Warning]
        );
        // Not chosen, Claude Code's verdict needs only its errors: the warning is not computed.
        let (_, per_skill) = under("spec")
            .checks
            .iter()
            .find(|(p, _)| p.key == "claude-code")
            .cloned()
            .expect("a profile");
        assert!(
            per_skill[0]
                .iter()
                .all(|d| d.severity == skillpg_core::Severity::Error)
        );
    }

    #[test]
    fn zip_export_has_one_top_level_folder() {
        let zip = skill_zip(&sample().skills[0]);
        let found = skillpg_core::ingest::read_archive("my-skill.zip", &zip);
        assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
        assert_eq!(found.skills[0].dir_name, "my-skill");
    }

    #[test]
    fn the_editor_refuses_past_its_limit_and_says_by_how_much() {
        assert_eq!(editor_refusal(5 * 1_048_576, 0), None, "5 MB is taken");
        let why = editor_refusal(MAX_EDITOR_BYTES + 1, 0).expect("refused");
        assert!(
            why.contains("8.0 MB")
                && why.contains("up to 8 MB")
                && why.contains("earlier text is kept"),
            "{why}"
        );
        let why =
            editor_refusal(7 * 1_048_576, 6 * 1_048_576).expect("refused with the other files");
        assert!(
            why.contains("13.0 MB in all") && why.contains("up to 12 MB"),
            "{why}"
        );
    }

    #[test]
    fn skill_md_is_shown_decoded_and_read_only_unless_utf8() {
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(
            "---\nname: x\n---\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        );
        let k = SkillInput::new("x", vec![("SKILL.md".into(), utf16)]);
        let (text, why) = k.skill_md_shown().expect("shown");
        assert!(!text.contains('\0') && text.contains("name: x"), "{text:?}");
        assert_eq!(why, Some("UTF-16 (little-endian)"));
        let k = SkillInput::new(
            "x",
            vec![
                ("SKILL.md".into(), b"---\nname: x\n".to_vec()),
                ("a.md".into(), vec![0; 10]),
            ],
        );
        assert_eq!(k.skill_md_shown().map(|(_, why)| why), Some(None));
        assert_eq!(k.other_files_bytes(), 10);
    }

    /// The lab's box refuses an eval set past a link's bound before parsing it, and keeps the
    /// earlier text.
    #[test]
    fn the_lab_refuses_an_eval_set_past_the_bound() {
        let mut state = PageState {
            skills: vec![SkillInput::new(
                "a".to_owned(),
                vec![("SKILL.md".into(), b"---\nname: a\n---\n".to_vec())],
            )],
            ..PageState::default()
        };
        state.type_lab_evals("+ one\n".to_owned()).expect("small");
        let huge = "+ q\n".repeat(300_000);
        assert!(state.type_lab_evals(huge).is_err());
        assert_eq!(state.lab_evals(), "+ one\n");
    }

    /// "Apply the fix" in the Check view writes UTF-8 text: a UTF-16 or Latin-1 file is refused,
    /// byte for byte as it was; a UTF-8 one is fixed.
    #[test]
    fn a_fix_never_re_encodes_a_file_that_is_not_utf8() {
        let fix = skillpg_core::diagnostic::Fix {
            title: "t".into(),
            edits: vec![skillpg_core::diagnostic::Edit {
                range: 0..1,
                replacement: "X".into(),
            }],
            applicability: skillpg_core::diagnostic::Applicability::Safe,
        };
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain("---\nname: a\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        for bytes in [utf16, b"---\nname: caf\xe9\n".to_vec()] {
            let mut state = PageState {
                skills: vec![SkillInput::new(
                    "a".to_owned(),
                    vec![("SKILL.md".into(), bytes.clone())],
                )],
                ..PageState::default()
            };
            let e = apply_fix_to_file(&mut state, "SKILL.md", &fix).expect_err("refused");
            assert!(e.contains("not UTF-8"), "{e}");
            assert_eq!(state.skills[0].files[0].1, bytes);
        }
        let mut state = PageState {
            skills: vec![SkillInput::new(
                "a".to_owned(),
                vec![("SKILL.md".into(), b"abc".to_vec())],
            )],
            ..PageState::default()
        };
        apply_fix_to_file(&mut state, "SKILL.md", &fix).expect("applied");
        assert_eq!(state.skills[0].files[0].1, b"Xbc");
    }

    /// A link kept, or another tab's work taken over, lands beside one's own: a skill already
    /// there byte for byte is not added twice, one whose name is taken is renamed, and none of
    /// one's own is touched.
    #[test]
    fn skills_added_beside_drop_nothing() {
        let skill = |dir: &str, body: &str| {
            SkillInput::new(
                dir.to_owned(),
                vec![(
                    "SKILL.md".to_owned(),
                    format!("---\nname: {dir}\ndescription: {body}\n---\n").into_bytes(),
                )],
            )
        };
        let mut mine = PageState {
            skills: vec![skill("a", "mine"), skill("b", "same")],
            ..PageState::default()
        };
        let before = mine.skills.clone();
        let placed = mine.add_beside(vec![
            skill("a", "theirs"),
            skill("b", "same"),
            skill("c", "new"),
        ]);
        assert_eq!(placed.len(), 2);
        assert_eq!(&mine.skills[..2], &before[..]);
        let dirs: Vec<&str> = mine.skills.iter().map(|k| k.dir_name.as_str()).collect();
        assert_eq!(dirs.len(), 4, "{dirs:?}");
        assert!(dirs[2].starts_with('a') && dirs[2] != "a", "{dirs:?}");
        assert_eq!(dirs[3], "c");
    }

    /// A saved index one of whose kept files is gone gives back every other skill, and names
    /// the missing file (the hostile round lost 1,051 skills over one missing part).
    #[test]
    fn a_missing_part_loses_only_its_own_skill() {
        let mut state = PageState::default();
        state.skills.clear();
        for i in 0..4 {
            let md = format!("---\nname: s{i}\ndescription: Does s{i}.\n---\n# s{i}\n");
            state.skills.push(SkillInput::new(
                format!("s{i}"),
                vec![("SKILL.md".to_owned(), md.into_bytes())],
            ));
        }
        state.selected = 3;
        let keys: Vec<String> = state
            .skills
            .iter()
            .map(|k| file_key(&k.files[0].0, &k.files[0].1))
            .collect();
        let index = saved_index(&state, |i, _| SavedAt::Kept(keys[i].clone()));
        let store: std::collections::HashMap<String, Vec<u8>> = state
            .skills
            .iter()
            .zip(&keys)
            .filter(|(k, _)| k.dir_name != "s1")
            .map(|(k, key)| (key.clone(), saved_bytes(&k.files[0].1)))
            .collect();
        let back = restore_partial(&index, |k| store.get(k).cloned()).expect("the index reads");
        assert_eq!(back.missing, ["s1/SKILL.md"]);
        let dirs: Vec<&str> = back
            .state
            .skills
            .iter()
            .map(|k| k.dir_name.as_str())
            .collect();
        assert_eq!(dirs, ["s0", "s2", "s3"]);
        assert_eq!(back.state.skills[back.state.selected].dir_name, "s3");
        assert!(restore(&index, |k| store.get(k).cloned()).is_err());
    }

    /// Work the page took is read back with the same bound: two loads just under the load bound
    /// (120 MB in all, over one load's 64 MB) restore, and a load past the page's total is
    /// refused before it is taken.
    #[test]
    fn saved_work_is_read_back_with_the_bound_it_was_taken_with() {
        let mut state = PageState::default();
        state.skills.clear();
        let big = 60 * 1024 * 1024;
        for i in 0..2u8 {
            assert_eq!(state.load_refusal(big as u64), None);
            state.skills.push(SkillInput::new(
                format!("big{i}"),
                vec![
                    (
                        "SKILL.md".to_owned(),
                        b"---\nname: x\ndescription: y\n---\n".to_vec(),
                    ),
                    ("references/big.md".to_owned(), vec![b'a' + i; big]),
                ],
            ));
        }
        assert!(
            state.load_refusal(big as u64).is_some(),
            "a third is past the page's total"
        );
        let index = saved_index(&state, |i, j| inline_file(&state.skills[i].files[j].1));
        let back = restore(&index, |_| None).expect("restores");
        assert_eq!(back.loaded_bytes(), state.loaded_bytes());
    }

    #[test]
    fn saved_work_round_trips_in_parts_past_a_links_bounds() {
        // 1,100 skills and 20 MB of files: more skills and bytes than a link may carry.
        let mut state = PageState {
            profile: "codex".into(),
            ..PageState::default()
        };
        state.skills.clear();
        for i in 0..1_100 {
            let md = format!("---\nname: s{i}\ndescription: Does s{i}.\n---\n# s{i}\n");
            let mut files = vec![("SKILL.md".to_owned(), md.into_bytes())];
            if i < 2 {
                files.push((
                    "references/big.md".into(),
                    vec![b'a' + i as u8; 10 * 1024 * 1024],
                ));
            }
            state.skills.push(SkillInput::new(format!("s{i}"), files));
        }
        state.selected = 1_050;
        state.set_lab_evals("+ a query typed just before closing\n".into());
        let key = |s: &PageState, i: usize, j: usize| {
            let (p, b) = &s.skills[i].files[j];
            file_key(p, b)
        };
        let mut store = std::collections::HashMap::new();
        for (i, k) in state.skills.iter().enumerate() {
            for (j, (_, b)) in k.files.iter().enumerate() {
                store.insert(key(&state, i, j), saved_bytes(b));
            }
        }
        assert_eq!(store.len(), 1_102, "distinct files, distinct keys");
        // The last skill's SKILL.md was changed just before the page closed: it travels inline,
        // and only it.
        let last = state.skills.len() - 1;
        state.skills[last].set_skill_md("---\nname: s1099\ndescription: Edited.\n---\n");
        let index = saved_index(&state, |i, j| {
            if i == last {
                inline_file(&state.skills[i].files[j].1)
            } else {
                SavedAt::Kept(key(&state, i, j))
            }
        });
        assert!(
            index.len() < 300_000,
            "the index is small: {} bytes",
            index.len()
        );
        assert_eq!(saved_keys(&index).map(|k| k.len()), Some(1_101));
        let back = restore(&index, |k| store.get(k).cloned()).expect("restores");
        assert_eq!(back, state);
        // A kept part that is gone is a message, not a panic or a silent loss.
        let e = restore(&index, |_| None).expect_err("a missing part");
        assert!(e.contains("was not found in this browser's storage"), "{e}");
    }

    #[test]
    fn an_untouched_sample_makes_way_for_own_skills_and_an_edited_one_stays() {
        let mut state = PageState {
            skills: crate::samples::SAMPLES
                .iter()
                .take(2)
                .map(|s| s.input())
                .collect(),
            ..PageState::default()
        };
        state.skills[1].set_skill_md("---\nname: edited\ndescription: Mine now.\n---\n");
        state.remove_untouched_samples();
        assert_eq!(state.skills.len(), 1);
        assert!(String::from_utf8_lossy(&state.skills[0].files[0].1).contains("Mine now"));
    }

    #[test]
    fn a_skill_of_the_same_folder_never_replaces_the_loaded_one() {
        let skill = |dir: &str, body: &str| {
            SkillInput::new(dir, vec![("SKILL.md".into(), body.as_bytes().to_vec())])
        };
        let mut state = PageState::default();
        state.put_skill(skill("a", "1"));
        state.put_skill(skill("b", "1"));
        state.selected_file = "scripts/x.py".into();
        // The same bytes again: nothing changes, the skill is selected.
        assert_eq!(
            state.put_skill(skill("a", "1")),
            skillpg_share::Placed::Unchanged(0)
        );
        assert_eq!(
            (
                state.skills.len(),
                state.selected,
                state.selected_file.as_str()
            ),
            (2, 0, "SKILL.md")
        );
        // Other bytes (an edit, or another skill of that folder): loaded beside, both kept.
        assert_eq!(
            state.put_skill(skill("a", "2")),
            skillpg_share::Placed::Beside {
                index: 2,
                dir: "a-2".into()
            }
        );
        assert_eq!(state.skills[0].files[0].1, b"1");
        assert_eq!(state.skills[2].files[0].1, b"2");
        assert_eq!(state.put_skill(skill("a", "3")).index(), 3);
        assert_eq!(state.skills[3].dir_name, "a-3");
        state.put_skill(skill("c", "1"));
        assert_eq!((state.skills.len(), state.selected), (5, 4));
    }

    #[test]
    fn listing_settings_from_a_link_are_clamped_to_what_the_inputs_allow() {
        let mut wire = wire_with(vec![]);
        wire.listing = ListingPrefs {
            max_desc_chars: Some(10_000_000),
            budget_fraction: Some(f64::NAN),
            overrides: [
                ("a".to_owned(), "off".to_owned()),
                ("b".to_owned(), "sometimes".to_owned()),
                ("c".to_owned(), "on".to_owned()),
            ]
            .into(),
        };
        let state = from_wire(wire).expect("opens");
        assert_eq!(
            state.listing,
            ListingPrefs {
                max_desc_chars: Some(ListingPrefs::MAX_DESC_CHARS),
                budget_fraction: None,
                // A state Claude Code does not have is dropped; `on` is the default.
                overrides: [("a".to_owned(), "off".to_owned())].into(),
            }
        );
        let settings = state.listing.settings();
        assert_eq!(
            settings.overrides,
            vec![("a".to_owned(), skillpg_core::catalog::SkillOverride::Off)]
        );
        let mut prefs = state.listing.clone();
        prefs.set_override("a", skillpg_core::catalog::SkillOverride::On);
        assert!(prefs.overrides.is_empty(), "on is the default, not stored");
    }
}
