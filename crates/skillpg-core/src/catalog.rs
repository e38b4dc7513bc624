//! The skill listing a client builds from the level 1 of every installed skill, priced against
//! the client's budget: which descriptions are shortened, where, and which skills are left out.
//!
//! Only clients that document a budget have one ([`Profile::listing`]); the others list every
//! skill whole, as far as their documentation says. The arithmetic is each client's documented
//! one (its share of the context window and how it counts); the order and the way descriptions
//! are shortened are a model of the documented behaviour ("descriptions are shortened first, then
//! skills are left out"), not a replay of the client's code.

use crate::profile::{
    Listing, ListingCost, ListingEntry, ListingFill, Profile, collapse_whitespace,
};

/// What the listing is shortened with.
pub const CUT_MARK: &str = "...";

/// One installed skill, as the listing reads it (defined beside the profiles, below both this
/// module and the analysis, whose per-client cache holds it).
pub use crate::profile::InstalledSkill;

impl InstalledSkill {
    /// The skill of `analysis`, as `profile`'s listing reads it.
    pub fn from_analysis(analysis: &crate::Analysis, profile: &Profile) -> InstalledSkill {
        analysis
            .scans
            .installed
            .get_or_make(profile.key, || Self::read(analysis, profile))
    }

    fn read(analysis: &crate::Analysis, profile: &Profile) -> InstalledSkill {
        let listing = profile.listing;
        let from_body = listing.is_some_and(|l| l.description_from_body);
        let (client_name, client_description) = client_reading(analysis, profile);
        // A client's own reading is listed as it reads, blank or not.
        let mut description = match client_description
            .as_deref()
            .or_else(|| analysis.description().filter(|d| !d.trim().is_empty()))
        {
            Some(d) => d.to_owned(),
            // Claude Code: "description falls back to the first paragraph" of the body.
            None if from_body => analysis
                .doc
                .as_ref()
                .map(|d| first_paragraph(d.body()))
                .unwrap_or_default(),
            None => String::new(),
        };
        if profile.listing_cap_chars.is_some() {
            let when = analysis
                .doc
                .as_ref()
                .and_then(|d| d.field_str("when_to_use"))
                .unwrap_or_default();
            if !when.is_empty() {
                description = format!("{description} {when}");
            }
        }
        // Claude Code's command name for personal and project skills is the folder's.
        let name = if listing.is_some_and(|l| l.names_by_folder) && !analysis.dir_name.is_empty() {
            analysis.dir_name.clone()
        } else {
            client_name.unwrap_or_else(|| analysis.display_name().to_owned())
        };
        InstalledSkill {
            name,
            description,
            dir: analysis.dir_name.clone(),
        }
    }
}

/// The name and the description `profile`'s loader reads where they differ from YAML's plain
/// reading (`None` each where they do not): a line-by-line fallback's raw values when the YAML
/// fails or gives no string name and description (Gemini CLI's `parseSimpleFrontmatter`), the
/// characters a client turns into `-` in a name, and the folder's name for an empty one where
/// the name is optional (`frontmatter.name || parentDirName`: `name: 0`, `name: ~`).
fn client_reading(
    analysis: &crate::Analysis,
    profile: &Profile,
) -> (Option<String>, Option<String>) {
    if let Some(replay) = profile.replay {
        return match analysis
            .doc
            .as_ref()
            .map(|d| replay(&d.text, &analysis.dir_name))
        {
            Some(Ok(read)) => (Some(read.name), Some(read.description)),
            _ => (None, None),
        };
    }
    // As the client's YAML library reads it (a tab after `key:`, a NUL: its lenient view).
    let Some(doc) = analysis.doc_for(profile) else {
        return (None, None);
    };
    let scalar = |key: &str| {
        doc.root()
            .and_then(|r| r.get(key))
            .and_then(|n| n.as_scalar())
    };
    let string = |key: &str| {
        scalar(key)
            .filter(|s| profile.yaml.reads_string(s))
            .map(|s| s.value.clone())
    };
    let (mut name, mut description) = (None, None);
    if profile.line_fallback {
        // js-yaml throws on a duplicate key as on a syntax error: both fall back.
        let parsed = doc.yaml.as_ref().is_some_and(|y| {
            y.error.is_none()
                && !y
                    .issues
                    .iter()
                    .any(|i| i.kind == crate::yaml::YamlIssueKind::DuplicateKey)
        });
        match (string("name"), string("description")) {
            (Some(n), Some(d)) if parsed => (name, description) = (Some(n), Some(d)),
            _ => {
                if let Some((n, d)) = doc
                    .yaml_range()
                    .and_then(|r| crate::frontmatter::line_fallback_reading(&doc.text[r]))
                {
                    (name, description) = (Some(n), Some(d));
                }
            }
        }
    } else if !profile.name_required && scalar("name").is_some_and(|s| profile.yaml.reads_falsy(s))
    {
        name = Some(analysis.dir_name.clone());
    }
    // Read by a lenient library where YAML's grammar reads nothing: its fields are the client's.
    if !std::ptr::eq(doc, analysis.doc.as_ref().unwrap_or(doc)) || analysis.doc.is_none() {
        name = name.or_else(|| string("name"));
        description = description.or_else(|| string("description"));
    }
    // A loader that does not trim lists a blank description as it is.
    if !profile.description_trimmed {
        description = description.or_else(|| string("description"));
    }
    if !profile.name_sanitized.is_empty() {
        name = name
            .or_else(|| Some(analysis.display_name().to_owned()))
            .map(|n| n.replace(|c| profile.name_sanitized.contains(c), "-"));
    }
    (name, description)
}

/// The first paragraph of a Markdown body: its first run of non-blank lines that is not a
/// heading, joined with spaces.
fn first_paragraph(body: &str) -> String {
    body.split("\n\n")
        .map(str::trim)
        .find(|p| !p.is_empty() && !p.starts_with('#'))
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Claude Code's `skillOverrides` state of one skill (docs v2.1.240): whether the model sees it
/// in the listing, with or without its description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SkillOverride {
    /// Listed with its description (the default).
    #[default]
    On,
    /// Listed by name only: no description in the listing.
    NameOnly,
    /// Not listed to the model; a person can still call it.
    UserInvocableOnly,
    /// Not listed, not callable.
    Off,
}

impl SkillOverride {
    /// Every state, in the docs' order.
    pub const ALL: [SkillOverride; 4] = [
        SkillOverride::On,
        SkillOverride::NameOnly,
        SkillOverride::UserInvocableOnly,
        SkillOverride::Off,
    ];

    /// The setting's value as Claude Code spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            SkillOverride::On => "on",
            SkillOverride::NameOnly => "name-only",
            SkillOverride::UserInvocableOnly => "user-invocable-only",
            SkillOverride::Off => "off",
        }
    }

    /// The state spelled `text`.
    pub fn parse(text: &str) -> Option<SkillOverride> {
        SkillOverride::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// Whether the model sees the skill in the listing.
    pub fn listed(self) -> bool {
        matches!(self, SkillOverride::On | SkillOverride::NameOnly)
    }
}

/// The budget a listing is priced against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The most the listing may cost.
    pub limit: usize,
    /// What the cost counts.
    pub unit: BudgetUnit,
}

/// What a listing's cost counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetUnit {
    /// Characters (code points).
    Characters,
    /// Approximate tokens: UTF-8 bytes / 4, rounded up.
    ApproxTokens,
    /// UTF-8 bytes.
    Bytes,
}

impl BudgetUnit {
    /// The cost of `text` in this unit.
    pub fn cost(self, text: &str) -> usize {
        match self {
            BudgetUnit::Characters => text.chars().count(),
            BudgetUnit::ApproxTokens => text.len().div_ceil(4),
            BudgetUnit::Bytes => text.len(),
        }
    }

    /// The unit's name in a sentence.
    pub fn noun(self) -> &'static str {
        match self {
            BudgetUnit::Characters => "characters",
            BudgetUnit::ApproxTokens => "approximate tokens",
            BudgetUnit::Bytes => "bytes",
        }
    }
}

/// One skill in the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSkill {
    /// The skill's name.
    pub name: String,
    /// Its description's length as the client would list it whole, in characters.
    pub description_chars: usize,
    /// How many of those characters the listing shows (before the cut mark); `None` when the
    /// skill is left out of the listing.
    pub shown_chars: Option<usize>,
    /// The listing's line for it (empty when left out).
    pub line: String,
    /// What the line costs against the budget.
    pub cost: usize,
    /// Its `skillOverrides` state where the client has them (`on` elsewhere): `off` and
    /// `user-invocable-only` are left out by the person's choice, not by the budget.
    pub state: SkillOverride,
}

impl ListedSkill {
    /// Whether the listing shortens its description.
    pub fn is_cut(&self) -> bool {
        self.shown_chars.is_some_and(|n| n < self.description_chars)
    }

    /// Whether the listing leaves it out for want of room (not by the person's choice).
    pub fn is_omitted(&self) -> bool {
        self.shown_chars.is_none() && self.state.listed()
    }
}

/// A client's listing of the installed skills.
#[derive(Debug, Clone)]
pub struct ListingReport {
    /// The budget, from the context window (or the client's fallback).
    pub budget: Budget,
    /// The context window it was computed for, when known.
    pub context_window: Option<usize>,
    /// What the listing would cost with every description whole.
    pub whole_cost: usize,
    /// What it costs as listed.
    pub used: usize,
    /// The skills, in the listing's order (by name).
    pub skills: Vec<ListedSkill>,
}

impl ListingReport {
    /// Whether the listing is shown whole.
    pub fn fits(&self) -> bool {
        self.whole_cost <= self.budget.limit
    }

    /// How many descriptions are shortened.
    pub fn cut(&self) -> usize {
        self.skills.iter().filter(|s| s.is_cut()).count()
    }

    /// How many skills are left out.
    pub fn omitted(&self) -> usize {
        self.skills.iter().filter(|s| s.is_omitted()).count()
    }
}

/// The context window the listing budgets assume until a person sets one: Claude's 200k. One
/// default for every edge (the page, the CLI, the Action, the language server).
pub const DEFAULT_CONTEXT_WINDOW: usize = 200_000;

/// The context windows a person may set, in tokens: the page's field clamps to it, and the CLI
/// and `skillpg.toml` refuse a window outside it.
pub const CONTEXT_WINDOW_RANGE: std::ops::RangeInclusive<usize> = 1_000..=10_000_000;

/// A context window a person gave, checked against [`CONTEXT_WINDOW_RANGE`]: the message names
/// the range.
pub fn checked_context_window(window: usize) -> Result<usize, String> {
    if CONTEXT_WINDOW_RANGE.contains(&window) {
        Ok(window)
    } else {
        Err(format!(
            "a context window of {} tokens: give {} to {} tokens",
            crate::diagnostic::thousands(window as u64),
            crate::diagnostic::thousands(*CONTEXT_WINDOW_RANGE.start() as u64),
            crate::diagnostic::thousands(*CONTEXT_WINDOW_RANGE.end() as u64)
        ))
    }
}

/// The budget of `listing` for a `context_window` (tokens; `None` when unknown).
pub fn budget(listing: &Listing, context_window: Option<usize>) -> Option<Budget> {
    match (context_window.filter(|w| *w > 0), listing.cost) {
        (_, ListingCost::FixedBytes(limit)) => Some(Budget {
            limit,
            unit: BudgetUnit::Bytes,
        }),
        (_, ListingCost::FixedChars(limit)) => Some(Budget {
            limit,
            unit: BudgetUnit::Characters,
        }),
        (Some(window), ListingCost::CharsAtFourPerToken) => Some(Budget {
            // Saturating: a window past the range a person may set never wraps into a verdict.
            limit: (window / 100)
                .saturating_mul(listing.percent_of_window)
                .saturating_mul(4),
            unit: BudgetUnit::Characters,
        }),
        (Some(window), ListingCost::BytesOverFour) => Some(Budget {
            limit: (window.saturating_mul(listing.percent_of_window) / 100).max(1),
            unit: BudgetUnit::ApproxTokens,
        }),
        (None, _) => listing.unknown_window_chars.map(|limit| Budget {
            limit,
            unit: BudgetUnit::Characters,
        }),
    }
}

/// A person's settings of a client's listing, where the client has them
/// ([`crate::profile::Listing::settable`]): Claude Code's `skillListingMaxDescChars` (the most
/// of one entry's description it shows) and `skillListingBudgetFraction` (the listing's share
/// of the context window). Unset, the client's defaults (1,536 characters, 1%).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListingSettings {
    /// The most characters of one description the listing shows.
    pub max_description_chars: Option<usize>,
    /// The listing's share of the context window (0.01 is 1%).
    pub budget_fraction: Option<f64>,
    /// `skillOverrides`: a state per skill, by its listed name (or folder); unlisted skills
    /// are `on`.
    pub overrides: Vec<(String, SkillOverride)>,
}

impl ListingSettings {
    /// The largest description cap a person may set (the CLI's `--max-desc-chars` and the
    /// page's field both hold to it).
    pub const MAX_DESCRIPTION_CAP: usize = 100_000;

    /// The most characters of one description `profile`'s listing shows under these settings:
    /// the person's where the listing is settable, else the client's own cap. The one answer of
    /// the listing and of the `listing-cap` rule.
    pub fn description_cap(&self, profile: &Profile) -> Option<usize> {
        let listing = profile.listing?;
        match self.max_description_chars {
            Some(cap) if listing.settable => Some(cap),
            _ => listing.description_cap,
        }
    }

    /// The state of `skill` (by its listed name, else its folder): `on` unless set.
    pub fn override_of(&self, skill: &InstalledSkill) -> SkillOverride {
        self.overrides
            .iter()
            .rev()
            .find(|(n, _)| *n == skill.name || *n == skill.dir)
            .map_or(SkillOverride::On, |(_, s)| *s)
    }
}

/// `profile`'s listing of `skills` in a `context_window` (tokens; `None` when unknown), or
/// `None` when the client documents no budget (or none for an unknown window).
pub fn listing(
    profile: &Profile,
    skills: &[InstalledSkill],
    context_window: Option<usize>,
) -> Option<ListingReport> {
    listing_with(profile, skills, context_window, &ListingSettings::default())
}

/// [`listing`] under a person's `settings` (used where the client's listing is settable).
pub fn listing_with(
    profile: &Profile,
    skills: &[InstalledSkill],
    context_window: Option<usize>,
    settings: &ListingSettings,
) -> Option<ListingReport> {
    let mut listing = profile.listing?;
    let mut budget = budget(&listing, context_window)?;
    if listing.settable {
        listing.description_cap = settings.description_cap(profile);
        // The share is of the window's tokens, at the listing's four characters a token.
        if let (Some(f), Some(window), ListingCost::CharsAtFourPerToken) = (
            settings
                .budget_fraction
                .filter(|f| f.is_finite() && *f > 0.0),
            context_window.filter(|w| *w > 0),
            listing.cost,
        ) {
            budget.limit = (window as f64 * f * 4.0).floor() as usize;
        }
    }
    let mut order: Vec<&InstalledSkill> = skills.iter().collect();
    order.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.dir.cmp(&b.dir)));
    // skillOverrides: `off` and `user-invocable-only` skills are not listed at all, `name-only`
    // ones without their description; only the listed ones are priced.
    let states: Vec<SkillOverride> = order
        .iter()
        .map(|s| {
            if listing.settable {
                settings.override_of(s)
            } else {
                SkillOverride::On
            }
        })
        .collect();
    let listed: Vec<usize> = (0..order.len()).filter(|&i| states[i].listed()).collect();
    let entries: Vec<Entry> = listed
        .iter()
        .map(|&i| {
            let mut e = Entry::new(&listing, order[i], budget.unit);
            if states[i] == SkillOverride::NameOnly {
                e.whole.clear();
            }
            e
        })
        .collect();
    let whole_cost: usize = entries
        .iter()
        .map(|e| e.cost(e.whole.chars().count()))
        .sum();
    let mut shown: Vec<Option<usize>> = entries
        .iter()
        .map(|e| Some(e.whole.chars().count()))
        .collect();
    if whole_cost > budget.limit {
        match listing.fill {
            ListingFill::ShortenDescriptions => {
                shorten(&entries, &mut shown, budget.limit, listing.omits_skills)
            }
            ListingFill::WholeInOrder => fill_in_order(&entries, &mut shown, budget.limit),
        }
    }
    let mut priced = entries.iter().zip(&shown);
    let skills: Vec<ListedSkill> = order
        .iter()
        .zip(&states)
        .map(|(skill, &state)| {
            let left_out = ListedSkill {
                name: skill.name.clone(),
                description_chars: collapse_whitespace(&skill.description).chars().count(),
                shown_chars: None,
                line: String::new(),
                cost: 0,
                state,
            };
            if !state.listed() {
                return left_out;
            }
            // One entry for every listed skill, in the same order.
            let Some((e, shown)) = priced.next() else {
                return left_out;
            };
            let (line, cost) = match shown {
                Some(n) => (e.line(*n), e.cost(*n)),
                None => (String::new(), 0),
            };
            ListedSkill {
                name: e.name.clone(),
                description_chars: e.whole.chars().count(),
                shown_chars: *shown,
                line,
                cost,
                state,
            }
        })
        .collect();
    let used = skills.iter().map(|s| s.cost).sum();
    Some(ListingReport {
        budget,
        context_window: context_window.filter(|w| *w > 0),
        whole_cost,
        used,
        skills,
    })
}

/// A skill's listing line, cut at any number of its description's characters.
struct Entry {
    name: String,
    /// The description as the client lists it whole (collapsed, capped).
    whole: String,
    /// The path a Codex-style entry names.
    path: Option<String>,
    unit: BudgetUnit,
}

impl Entry {
    fn new(listing: &Listing, skill: &InstalledSkill, unit: BudgetUnit) -> Entry {
        let mut whole = collapse_whitespace(&skill.description);
        if let Some(cap) = listing.description_cap {
            whole = cut(&whole, cap);
        }
        // Codex names the absolute path of the SKILL.md; a user's install is assumed.
        let path = (listing.entry == ListingEntry::NameDescriptionPath)
            .then(|| format!("/home/user/.codex/skills/{}/SKILL.md", skill.dir));
        Entry {
            name: skill.name.clone(),
            whole,
            path,
            unit,
        }
    }

    /// The line with the first `shown` characters of the description (and the cut mark when
    /// that is not all of it).
    fn line(&self, shown: usize) -> String {
        let description = cut(&self.whole, shown);
        match &self.path {
            Some(path) => format!("- {}: {description} (file: {path})", self.name),
            None => format!("- {}: {description}", self.name),
        }
    }

    /// What the line costs, its line break included.
    fn cost(&self, shown: usize) -> usize {
        self.unit.cost(&self.line(shown)) + 1
    }
}

/// The first `n` characters of `text`, with the cut mark in place of the rest when there is a
/// rest.
fn cut(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        return text.to_owned();
    }
    let kept: String = text.chars().take(n).collect();
    format!("{}{CUT_MARK}", kept.trim_end())
}

/// Shortens the descriptions (each to an equal share of what the names and paths leave, the
/// short ones kept whole), and, when even names alone are over and the client leaves skills
/// out, leaves out the last ones in order.
fn shorten(entries: &[Entry], shown: &mut [Option<usize>], limit: usize, omits_skills: bool) {
    let bare: Vec<usize> = entries.iter().map(|e| e.cost(0)).collect();
    let mut kept = entries.len();
    if omits_skills {
        while kept > 0 && bare[..kept].iter().sum::<usize>() > limit {
            kept -= 1;
        }
        for s in &mut shown[kept..] {
            *s = None;
        }
    }
    let fixed: usize = bare[..kept].iter().sum();
    let mut left = limit.saturating_sub(fixed);
    // Water-filling: every description gets an equal share of what is left; one that needs less
    // keeps its whole text and gives the rest back to the others.
    let mut open: Vec<usize> = (0..kept).collect();
    loop {
        if open.is_empty() {
            return;
        }
        let share = left / open.len();
        let (fits, over): (Vec<usize>, Vec<usize>) = open
            .iter()
            .partition(|&&i| entries[i].cost(entries[i].whole.chars().count()) - bare[i] <= share);
        if fits.is_empty() {
            for i in over {
                shown[i] = Some(longest_within(&entries[i], bare[i] + share));
            }
            return;
        }
        for i in fits {
            left -= entries[i].cost(entries[i].whole.chars().count()) - bare[i];
        }
        open = over;
    }
}

/// Whole entries in order until the next one does not fit; it and every later one are left
/// out (Zed's 50 KB, the Copilot CLI's 15,000 characters: a hard stop, nothing shortened).
fn fill_in_order(entries: &[Entry], shown: &mut [Option<usize>], limit: usize) {
    let mut used = 0;
    let mut stopped = false;
    for (e, s) in entries.iter().zip(shown.iter_mut()) {
        let cost = e.cost(e.whole.chars().count());
        if !stopped && used + cost <= limit {
            used += cost;
        } else {
            stopped = true;
            *s = None;
        }
    }
}

/// The most characters of `entry`'s description whose line costs at most `cost`.
fn longest_within(entry: &Entry, cost: usize) -> usize {
    let (mut lo, mut hi) = (0, entry.whole.chars().count());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if entry.cost(mid) <= cost {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{CLAUDE_CODE, CODEX, SPEC};

    fn skill(name: &str, description: &str) -> InstalledSkill {
        InstalledSkill {
            name: name.into(),
            description: description.into(),
            dir: name.into(),
        }
    }

    #[test]
    fn a_persons_listing_settings_apply_where_the_client_has_them() {
        // Claude Code's skillListingMaxDescChars and skillListingBudgetFraction (docs v2.1.240).
        let skill = InstalledSkill {
            name: "long".to_owned(),
            description: "x".repeat(2000),
            dir: "long".to_owned(),
        };
        let shown = |p: &Profile, settings: &ListingSettings| {
            let r = listing_with(p, std::slice::from_ref(&skill), Some(200_000), settings)
                .expect("a listing");
            (r.budget.limit, r.whole_cost)
        };
        let default = ListingSettings::default();
        let set = ListingSettings {
            max_description_chars: Some(100),
            budget_fraction: Some(0.02),
            overrides: Vec::new(),
        };
        // 1% of 200k tokens at 4 characters a token, then 2%; the description cut at 1,536
        // characters, then at 100 (the entry's other characters are the same).
        let (budget, whole) = shown(&crate::profile::CLAUDE_CODE, &default);
        let (budget_set, whole_set) = shown(&crate::profile::CLAUDE_CODE, &set);
        assert_eq!((budget, budget_set), (8000, 16_000));
        assert_eq!(whole - whole_set, 1536 - 100);
        // Codex has no such settings: the same listing either way.
        assert_eq!(shown(&CODEX, &default), shown(&CODEX, &set));
    }

    #[test]
    fn zed_and_the_copilot_cli_list_whole_entries_in_order_and_stop_at_the_first_that_does_not_fit()
    {
        // Zed: 50 KB of names and descriptions whatever the window; the Copilot CLI: 15,000
        // characters. Ten skills of 6,000 characters: Zed keeps eight (8 x ~6 KB <= 51,200), the
        // CLI two; nothing is shortened, and a short skill after the stop is dropped too.
        let mut skills: Vec<InstalledSkill> = (0..10)
            .map(|i| skill(&format!("s{i:02}"), &"x".repeat(6000)))
            .collect();
        skills.push(skill("zz-short", "tiny"));
        for (p, window) in [
            (&crate::profile::ZED, None),
            (&crate::profile::ZED, Some(1_000_000)),
        ] {
            let r = listing(p, &skills, window).expect("a fixed budget has a listing");
            assert_eq!(
                r.budget,
                Budget {
                    limit: 51_200,
                    unit: BudgetUnit::Bytes
                }
            );
            assert_eq!((r.omitted(), r.cut()), (3, 0), "{:?}", r.used);
            assert!(r.skills.last().is_some_and(ListedSkill::is_omitted));
            assert!(r.used <= r.budget.limit);
        }
        let r = listing(&crate::profile::COPILOT_CLI, &skills, Some(200_000)).expect("a listing");
        assert_eq!(r.budget.limit, 15_000);
        assert_eq!((r.skills.len() - r.omitted(), r.cut()), (2, 0));
        // Under budget, every entry is whole.
        let r = listing(&crate::profile::ZED, &skills[..2], None).expect("a listing");
        assert!(r.fits() && r.omitted() == 0);
    }

    #[test]
    fn skill_overrides_keep_skills_out_or_their_descriptions_and_only_where_the_client_has_them() {
        // Claude Code docs v2.1.240: `skillOverrides` per skill: on, name-only,
        // user-invocable-only, off.
        let skills = [
            skill("alpha", &"a".repeat(3000)),
            skill("beta", &"b".repeat(3000)),
            skill("gamma", &"c".repeat(3000)),
            skill("delta", "short"),
        ];
        let settings = ListingSettings {
            overrides: vec![
                ("alpha".into(), SkillOverride::Off),
                ("beta".into(), SkillOverride::NameOnly),
                ("gamma".into(), SkillOverride::UserInvocableOnly),
            ],
            ..ListingSettings::default()
        };
        let r = listing_with(&CLAUDE_CODE, &skills, Some(200_000), &settings).expect("a listing");
        let by_name = |n: &str| {
            r.skills
                .iter()
                .find(|s| s.name == n)
                .expect("listed")
                .clone()
        };
        for off in ["alpha", "gamma"] {
            let s = by_name(off);
            assert!(s.shown_chars.is_none() && s.cost == 0, "{off}: not listed");
            assert!(
                !s.is_omitted(),
                "{off}: kept out by the person, not by the budget"
            );
        }
        assert_eq!(by_name("beta").line, "- beta: ");
        assert_eq!(by_name("delta").line, "- delta: short");
        // Only the listed ones are priced: 4 x 3,000 characters would be over 8,000.
        assert!(r.fits(), "{} of {}", r.whole_cost, r.budget.limit);
        assert_eq!(r.omitted(), 0);
        // Codex has no such setting: every skill is listed as written.
        let codex = listing_with(&CODEX, &skills, Some(200_000), &settings).expect("a listing");
        assert!(codex.skills.iter().all(|s| s.state == SkillOverride::On));
        assert_eq!(
            SkillOverride::parse("user-invocable-only"),
            Some(SkillOverride::UserInvocableOnly)
        );
        assert_eq!(SkillOverride::parse("maybe"), None);
    }

    #[test]
    fn budgets_follow_each_clients_arithmetic() {
        let codex = CODEX.listing.expect("a listing");
        // Codex's own test: 2% of a 200k window is 4,000 tokens; unknown: 8,000 characters.
        assert_eq!(
            budget(&codex, Some(200_000)),
            Some(Budget {
                limit: 4000,
                unit: BudgetUnit::ApproxTokens
            })
        );
        assert_eq!(
            budget(&codex, Some(99)),
            Some(Budget {
                limit: 1,
                unit: BudgetUnit::ApproxTokens
            })
        );
        assert_eq!(
            budget(&codex, None),
            Some(Budget {
                limit: 8000,
                unit: BudgetUnit::Characters
            })
        );
        let cc = CLAUDE_CODE.listing.expect("a listing");
        assert_eq!(
            budget(&cc, Some(200_000)),
            Some(Budget {
                limit: 8000,
                unit: BudgetUnit::Characters
            })
        );
        assert_eq!(budget(&cc, None), None);
        assert!(
            listing(&SPEC, &[skill("a", "b")], Some(200_000)).is_none(),
            "the spec documents no listing"
        );
    }

    #[test]
    fn a_listing_within_budget_is_whole() {
        let r = listing(
            &CODEX,
            &[skill("b", "Does B."), skill("a", "Does   A.\nUse when A.")],
            None,
        )
        .expect("a listing");
        assert!(r.fits());
        assert_eq!(
            r.skills[0].line,
            "- a: Does A. Use when A. (file: /home/user/.codex/skills/a/SKILL.md)"
        );
        assert_eq!(r.used, r.whole_cost);
        assert_eq!((r.cut(), r.omitted()), (0, 0));
    }

    #[test]
    fn over_budget_long_descriptions_are_cut_to_an_equal_share_and_short_ones_stay() {
        let long = "word ".repeat(400);
        let skills = [skill("a", &long), skill("b", "Short."), skill("c", &long)];
        // 1% of 50k tokens at 4 characters a token: 2,000 characters.
        let r = listing(&CLAUDE_CODE, &skills, Some(50_000)).expect("a listing");
        assert!(!r.fits());
        assert!(
            r.used <= r.budget.limit,
            "{} over {}",
            r.used,
            r.budget.limit
        );
        assert_eq!(r.skills[1].shown_chars, Some(6), "the short one is whole");
        assert!(r.skills[0].is_cut() && r.skills[2].is_cut());
        assert_eq!(
            r.skills[0].shown_chars, r.skills[2].shown_chars,
            "an equal share"
        );
        assert!(r.skills[0].line.ends_with(CUT_MARK));
        assert!(
            r.budget.limit - r.used < 10,
            "the share is used: {} of {}",
            r.used,
            r.budget.limit
        );
    }

    #[test]
    fn codex_leaves_skills_out_when_names_alone_are_over_and_claude_code_keeps_every_name() {
        let skills: Vec<InstalledSkill> = (0..40)
            .map(|i| skill(&format!("skill-{i:02}"), "Does things. Use when asked."))
            .collect();
        // 2% of 20k tokens: 400 approximate tokens; a bare Codex line is about 16.
        let r = listing(&CODEX, &skills, Some(20_000)).expect("a listing");
        assert!(r.omitted() > 0 && r.omitted() < 40);
        assert!(
            r.skills.last().expect("a listing").is_omitted(),
            "the last in order go first"
        );
        assert!(r.used <= r.budget.limit);
        let r = listing(&CLAUDE_CODE, &skills, Some(10_000)).expect("a listing");
        assert_eq!(r.omitted(), 0, "Claude Code keeps every name");
        assert!(r.skills.iter().all(|s| s.shown_chars == Some(0)));
    }

    #[test]
    fn codex_caps_a_description_at_1024_characters_and_collapses_whitespace() {
        let r = listing(
            &CODEX,
            &[skill("a", &format!("x\n\n{}", "y".repeat(2000)))],
            Some(1_000_000),
        )
        .expect("a listing");
        assert_eq!(r.skills[0].description_chars, 1024 + CUT_MARK.len());
        assert!(r.skills[0].line.starts_with("- a: x yyy"));
    }

    #[test]
    fn approximate_tokens_count_utf8_bytes() {
        assert_eq!(BudgetUnit::ApproxTokens.cost("abcd"), 1);
        assert_eq!(BudgetUnit::ApproxTokens.cost("abcde"), 2);
        assert_eq!(BudgetUnit::ApproxTokens.cost("日本"), 2, "6 bytes");
        assert_eq!(BudgetUnit::Characters.cost("日本"), 2);
    }

    /// One cap: the listing and the `listing-cap` rule follow the person's setting alike.
    #[test]
    fn the_rule_and_the_listing_share_the_persons_description_cap() {
        use crate::profile::{CLAUDE_CODE, CODEX};
        let long = "x".repeat(2_000);
        let text = format!("---\nname: s\ndescription: {long}\n---\nbody\n");
        let bundle = crate::SkillBundle::new(
            "s",
            vec![crate::BundleFile {
                path: "SKILL.md".into(),
                bytes: text.into_bytes(),
            }],
        );
        let a = crate::analyze(&bundle);
        let capped = |settings: &ListingSettings| {
            crate::check_with(&a, &CLAUDE_CODE, settings)
                .into_iter()
                .filter(|d| d.rule == "listing-cap")
                .count()
        };
        let default = ListingSettings::default();
        assert_eq!(default.description_cap(&CLAUDE_CODE), Some(1536));
        assert_eq!(capped(&default), 1);
        let wide = ListingSettings {
            max_description_chars: Some(3_000),
            ..Default::default()
        };
        assert_eq!(wide.description_cap(&CLAUDE_CODE), Some(3_000));
        assert_eq!(capped(&wide), 0, "3,000 characters hold the 2,000");
        // A client whose listing is not settable keeps its own cap.
        assert_eq!(
            wide.description_cap(&CODEX),
            default.description_cap(&CODEX)
        );
    }
}
