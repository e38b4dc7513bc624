//! Options several subcommands share: the output formats, the context window, Claude Code's
//! listing settings, and the statistics subcommands. Below `args` and `cmd`, which both use
//! them.

use clap::{Subcommand, ValueEnum};

#[derive(Subcommand, Debug)]
pub(crate) enum StatsCommand {
    /// Wilson 95% interval of K successes in N trials, in percent.
    Wilson { k: u64, n: u64 },
    /// Exact two-sided sign test on B and C discordant pairs.
    SignTest { b: u64, c: u64 },
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
pub(crate) enum CheckFormat {
    Text,
    Json,
    /// One JSON line a skill, written as it is checked (`skillpg_report::SkillAcrossJson`).
    Jsonl,
    Sarif,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
pub(crate) enum Format {
    Text,
    Json,
}

/// How `route` and `compare` write their results: JSON and CSV are `skillpg-routing`'s export
/// files, the page's byte for byte.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
pub(crate) enum RouteFormat {
    Text,
    Json,
    Csv,
}

/// `--context-window`: a number of tokens in the range the page allows
/// (`catalog::CONTEXT_WINDOW_RANGE`); anything else is a usage error, never a wrapped product.
pub(crate) fn context_window_arg(text: &str) -> Result<usize, String> {
    let window: usize = text
        .trim()
        .replace(['_', ','], "")
        .parse()
        .map_err(|_| format!("{text:?} is not a number of tokens"))?;
    skillpg_core::catalog::checked_context_window(window)
}

/// Claude Code's listing settings (`settings.json`), for the listing budgets.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ClaudeListingArgs {
    /// Claude Code's `skillListingMaxDescChars`: the most of one description its listing shows
    /// (1,536 by default).
    #[arg(long)]
    pub(crate) max_desc_chars: Option<usize>,
    /// Claude Code's `skillListingBudgetFraction`: the listing's share of the context window
    /// (0.01, 1%, by default).
    #[arg(long)]
    pub(crate) budget_fraction: Option<f64>,
    /// Claude Code's `skillOverrides` for one skill, by its name: `NAME=on`, `name-only`,
    /// `user-invocable-only` or `off` (repeat for each skill).
    #[arg(long = "skill-override", value_name = "NAME=STATE")]
    pub(crate) skill_override: Vec<String>,
}

impl ClaudeListingArgs {
    pub(crate) fn settings(self) -> Result<skillpg_core::catalog::ListingSettings, String> {
        if let Some(f) = self.budget_fraction
            && !(f.is_finite() && f > 0.0 && f <= 1.0)
        {
            return Err(format!(
                "--budget-fraction {f}: a share of the window, above 0 and at most 1"
            ));
        }
        use skillpg_core::catalog::{ListingSettings, SkillOverride};
        if let Some(n) = self
            .max_desc_chars
            .filter(|n| !(1..=ListingSettings::MAX_DESCRIPTION_CAP).contains(n))
        {
            return Err(format!(
                "--max-desc-chars {n}: give 1 to {} characters",
                ListingSettings::MAX_DESCRIPTION_CAP
            ));
        }
        let states = || SkillOverride::ALL.map(SkillOverride::as_str).join(", ");
        let overrides = self
            .skill_override
            .iter()
            .map(|o| {
                let (name, state) = o.split_once('=').ok_or_else(|| {
                    format!("--skill-override {o}: write NAME=STATE ({})", states())
                })?;
                let state = SkillOverride::parse(state.trim()).ok_or_else(|| {
                    format!("--skill-override {o}: the state is one of {}", states())
                })?;
                Ok((name.trim().to_owned(), state))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(ListingSettings {
            max_description_chars: self.max_desc_chars,
            budget_fraction: self.budget_fraction,
            overrides,
        })
    }
}
