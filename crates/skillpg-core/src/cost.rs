//! The chapter's arithmetic: a system prompt that holds everything against a skill, over n
//! turns.
//!
//! system prompt = n · (L1 + L2 + L3); skill = n · L1 + [used] · (L2 + Σ files read).
//! With caching, the first turn pays the standing prefix in full and the later turns pay the
//! cached price for it; what a skill loads on activation is paid once, at the full price.
//! The body is counted once, when it is loaded, as the chapter counts it; a host that re-sends
//! the conversation pays it again on later turns, at the cached price where caching is on.

/// What the arithmetic needs.
#[derive(Debug, Clone, PartialEq)]
pub struct CostInputs {
    /// Number of turns (requests) in the conversation.
    pub turns: u64,
    /// Level 1 tokens (the `- name: description` line).
    pub level1: u64,
    /// Level 2 tokens (the body).
    pub level2: u64,
    /// Level 3 tokens (every bundled file).
    pub level3: u64,
    /// Tokens of the bundled files actually read when the skill is used.
    pub read_tokens: u64,
    /// The turn (1-based) on which the skill is used, or `None` if it never is.
    pub activate_at: Option<u64>,
    /// Dollars per million input tokens.
    pub price_per_million: f64,
    /// Dollars per million cached input tokens.
    pub cached_price_per_million: f64,
}

impl CostInputs {
    /// The chapter's defaults for prices: $2.00 and $0.20 per million.
    pub const DEFAULT_PRICE: f64 = 2.00;
    /// See [`CostInputs::DEFAULT_PRICE`].
    pub const DEFAULT_CACHED_PRICE: f64 = 0.20;

    /// Why these inputs give no true totals, if they do not: a total past `u64::MAX` tokens (the
    /// arithmetic saturates rather than panic or wrap, and the edges refuse such inputs with
    /// this message instead of printing a capped total as if it were one).
    pub fn out_of_range(&self) -> Option<String> {
        let everything = self
            .level1
            .checked_add(self.level2)
            .and_then(|e| e.checked_add(self.level3));
        let used = self.level2.checked_add(self.read_tokens);
        let fits = everything
            .and_then(|e| e.checked_mul(self.turns.max(1)))
            .zip(used)
            .and_then(|(t, u)| t.checked_add(u))
            .is_some()
            && self.price_per_million.is_finite()
            && self.cached_price_per_million.is_finite();
        (!fits).then(|| {
            "these token counts and turns (or prices) total more than 18 quintillion tokens, which no count here can hold: nothing was computed".to_owned()
        })
    }
}

/// Tokens and dollars of one way of shipping the knowledge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostLine {
    /// Input tokens over the conversation.
    pub tokens: u64,
    /// Their price without caching.
    pub usd: f64,
    /// Their price when the standing prefix is cached after the first turn.
    pub usd_cached: f64,
}

/// The three lines of the chapter's table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostReport {
    /// Everything in the system prompt, every turn.
    pub system_prompt: CostLine,
    /// As a skill, used on `activate_at` (or on turn 1 when never set but asked for).
    pub skill_used: CostLine,
    /// As a skill that is never used.
    pub skill_unused: CostLine,
}

/// One turn of the cumulative series the page charts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostPoint {
    /// 1-based turn.
    pub turn: u64,
    /// Cumulative tokens, everything in the system prompt.
    pub system_prompt_tokens: u64,
    /// Cumulative dollars, system prompt, uncached.
    pub system_prompt_usd: f64,
    /// Cumulative dollars, system prompt, cached after turn 1.
    pub system_prompt_cached_usd: f64,
    /// Cumulative tokens, skill used on `activate_at`.
    pub skill_used_tokens: u64,
    /// Cumulative dollars, skill used.
    pub skill_used_usd: f64,
    /// Cumulative tokens, skill never used.
    pub skill_unused_tokens: u64,
    /// Cumulative dollars, skill never used.
    pub skill_unused_usd: f64,
}

fn usd(tokens: u64, per_million: f64) -> f64 {
    tokens as f64 * per_million / 1_000_000.0
}

/// A standing prefix of `per_turn` tokens over `turns`, plus `once` tokens loaded one time.
fn line(inputs: &CostInputs, per_turn: u64, once: u64) -> CostLine {
    let n = inputs.turns;
    let tokens = per_turn.saturating_mul(n).saturating_add(once);
    let cached = if n == 0 {
        0.0
    } else {
        usd(per_turn, inputs.price_per_million)
            + usd(
                per_turn.saturating_mul(n.saturating_sub(1)),
                inputs.cached_price_per_million,
            )
    };
    CostLine {
        tokens,
        usd: usd(tokens, inputs.price_per_million),
        usd_cached: cached + usd(once, inputs.price_per_million),
    }
}

/// The chapter's table for `inputs`.
pub fn cost(inputs: &CostInputs) -> CostReport {
    let everything = inputs
        .level1
        .saturating_add(inputs.level2)
        .saturating_add(inputs.level3);
    let used_once = inputs.level2.saturating_add(inputs.read_tokens);
    CostReport {
        system_prompt: line(inputs, everything, 0),
        skill_used: line(
            inputs,
            inputs.level1,
            if inputs.turns > 0 { used_once } else { 0 },
        ),
        skill_unused: line(inputs, inputs.level1, 0),
    }
}

/// The most turns [`series`] computes (a conversation of more turns is charted up to here).
pub const MAX_SERIES_TURNS: u64 = 100_000;

/// The cumulative series over turns 1..=n; the skill is loaded on `activate_at` (turn 1 when
/// `None`, for the "used" line).
pub fn series(inputs: &CostInputs) -> Vec<CostPoint> {
    let everything = inputs
        .level1
        .saturating_add(inputs.level2)
        .saturating_add(inputs.level3);
    let activate = inputs.activate_at.unwrap_or(1);
    let p = inputs.price_per_million;
    let c = inputs.cached_price_per_million;
    // A chart has at most MAX_SERIES_TURNS points: turns come from users and links.
    let mut res = Vec::with_capacity(inputs.turns.min(MAX_SERIES_TURNS) as usize);
    for turn in 1..=inputs.turns.min(MAX_SERIES_TURNS) {
        let loaded = if turn >= activate {
            inputs.level2.saturating_add(inputs.read_tokens)
        } else {
            0
        };
        let sp_cached = usd(everything, p) + usd(everything.saturating_mul(turn - 1), c);
        let l1 = inputs.level1.saturating_mul(turn);
        res.push(CostPoint {
            turn,
            system_prompt_tokens: everything.saturating_mul(turn),
            system_prompt_usd: usd(everything.saturating_mul(turn), p),
            system_prompt_cached_usd: sp_cached,
            skill_used_tokens: l1.saturating_add(loaded),
            skill_used_usd: usd(l1.saturating_add(loaded), p),
            skill_unused_tokens: l1,
            skill_unused_usd: usd(l1, p),
        });
    }
    res
}

/// Which level a part of the context window is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A skill's `- name: description` line, in every request.
    One,
    /// The used skill's body, from the turn it is activated.
    Two,
    /// A bundled file, from the turn the body sends the agent to it.
    Three,
}

/// One part of the context window at a turn, for the to-scale picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowPart {
    /// What it is: a skill's name, "body of x", a file's path.
    pub label: String,
    /// Its tokens.
    pub tokens: u64,
    /// Its level.
    pub level: Level,
    /// Whether it entered on this turn.
    pub new: bool,
}

/// What the skills put in the context window: every installed skill's level 1, and the used
/// skill's body and the files it reads from its activation turn on.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WindowInputs {
    /// Every installed skill's name and level-1 tokens, in catalog order.
    pub listing: Vec<(String, u64)>,
    /// The used skill's name and body tokens.
    pub used: (String, u64),
    /// The files read on use, with their tokens.
    pub reads: Vec<(String, u64)>,
    /// The turn the skill is used on (never when `None`).
    pub activate_at: Option<u64>,
}

/// The parts of the window at `turn` (1-based), in the order they enter it. The body and the
/// files stay once loaded: they are part of the conversation from then on (the arithmetic pays
/// them once, as the chapter does).
pub fn window_at(inputs: &WindowInputs, turn: u64) -> Vec<WindowPart> {
    let mut parts: Vec<WindowPart> = inputs
        .listing
        .iter()
        .map(|(name, t)| WindowPart {
            label: name.clone(),
            tokens: *t,
            level: Level::One,
            new: turn == 1,
        })
        .collect();
    if let Some(at) = inputs.activate_at.filter(|&at| turn >= at) {
        let new = turn == at;
        parts.push(WindowPart {
            label: format!("body of {}", inputs.used.0),
            tokens: inputs.used.1,
            level: Level::Two,
            new,
        });
        parts.extend(inputs.reads.iter().map(|(path, t)| WindowPart {
            label: path.clone(),
            tokens: *t,
            level: Level::Three,
            new,
        }));
    }
    parts
}

/// How a cost of `other` tokens compares with `reference` tokens, in words: `24.3× cheaper`,
/// `1.3× dearer`, or `about as cheap` where the two round to the same. One decimal: 1.33×
/// is never shown as "1× cheaper".
pub fn cheaper_phrase(reference: u64, other: u64) -> String {
    if other == 0 || reference == 0 {
        return if other == reference {
            "about as cheap".to_owned()
        } else if other == 0 {
            "free".to_owned()
        } else {
            "dearer without end".to_owned()
        };
    }
    let ratio = reference as f64 / other as f64;
    let (factor, word) = if ratio >= 1.0 {
        (ratio, "cheaper")
    } else {
        (1.0 / ratio, "dearer")
    };
    let shown = format!("{factor:.1}");
    if shown == "1.0" {
        "about as cheap".to_owned()
    } else {
        format!("{shown}× {word}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_holds_level_one_until_activation_then_the_body_and_the_files() {
        let inputs = WindowInputs {
            listing: vec![("release-notes".into(), 46), ("other".into(), 30)],
            used: ("release-notes".into(), 324),
            reads: vec![
                ("references/a.md".into(), 400),
                ("references/b.md".into(), 265),
            ],
            activate_at: Some(12),
        };
        let before = window_at(&inputs, 11);
        assert_eq!(before.iter().map(|p| p.tokens).sum::<u64>(), 76);
        assert!(before.iter().all(|p| p.level == Level::One && !p.new));
        let at = window_at(&inputs, 12);
        assert_eq!(at.iter().map(|p| p.tokens).sum::<u64>(), 76 + 324 + 665);
        assert_eq!(at.iter().filter(|p| p.new).count(), 3);
        assert_eq!(at[2].label, "body of release-notes");
        assert!(window_at(&inputs, 40).iter().all(|p| !p.new));
        assert!(
            window_at(&inputs, 1)
                .iter()
                .all(|p| p.new && p.level == Level::One)
        );
        let never = WindowInputs {
            activate_at: None,
            ..inputs
        };
        assert_eq!(window_at(&never, 40).len(), 2);
    }

    fn chapter() -> CostInputs {
        // A release-notes procedure: 1,716 tokens in all, L1 46, body 324, two files read (665).
        CostInputs {
            turns: 40,
            level1: 46,
            level2: 324,
            level3: 1716 - 46 - 324,
            read_tokens: 665,
            activate_at: Some(12),
            price_per_million: CostInputs::DEFAULT_PRICE,
            cached_price_per_million: CostInputs::DEFAULT_CACHED_PRICE,
        }
    }

    #[test]
    fn reproduces_the_chapter_table() {
        let r = cost(&chapter());
        assert_eq!(r.system_prompt.tokens, 68_640);
        assert_eq!(format!("{:.4}", r.system_prompt.usd), "0.1373");
        assert_eq!(format!("{:.4}", r.system_prompt.usd_cached), "0.0168");
        assert_eq!(r.skill_used.tokens, 2_829);
        assert_eq!(format!("{:.4}", r.skill_used.usd), "0.0057");
        assert_eq!(r.skill_unused.tokens, 1_840);
        assert_eq!(format!("{:.4}", r.skill_unused.usd), "0.0037");
    }

    #[test]
    fn series_ends_at_the_table() {
        let inputs = chapter();
        let s = series(&inputs);
        let last = s.last().copied().expect("40 points");
        let r = cost(&inputs);
        assert_eq!(last.system_prompt_tokens, r.system_prompt.tokens);
        assert_eq!(last.skill_used_tokens, r.skill_used.tokens);
        assert_eq!(
            s[10].skill_used_tokens,
            46 * 11,
            "not loaded before turn 12"
        );
        assert_eq!(s[11].skill_used_tokens, 46 * 12 + 324 + 665);
        assert!((last.system_prompt_cached_usd - r.system_prompt.usd_cached).abs() < 1e-12);
    }

    #[test]
    fn ratios_keep_one_decimal_and_say_which_way() {
        assert_eq!(cheaper_phrase(68_640, 2_829), "24.3× cheaper");
        assert_eq!(cheaper_phrase(400, 300), "1.3× cheaper", "1.33 is not 1×");
        assert_eq!(cheaper_phrase(300, 400), "1.3× dearer");
        assert_eq!(cheaper_phrase(1_000, 990), "about as cheap");
        assert_eq!(cheaper_phrase(0, 0), "about as cheap");
        assert_eq!(cheaper_phrase(10, 0), "free");
    }

    /// Counts near `u64::MAX` neither panic nor wrap: the inputs say they are out of range, and
    /// the arithmetic saturates.
    #[test]
    fn huge_counts_are_out_of_range_not_a_panic() {
        let inputs = CostInputs {
            turns: u64::MAX,
            level1: u64::MAX,
            level2: u64::MAX,
            level3: 1,
            read_tokens: u64::MAX,
            activate_at: Some(3),
            price_per_million: 2.0,
            cached_price_per_million: 0.2,
        };
        assert!(inputs.out_of_range().is_some());
        let report = cost(&inputs);
        assert_eq!(report.system_prompt.tokens, u64::MAX);
        assert_eq!(series(&CostInputs { turns: 3, ..inputs }).len(), 3);
        let fine = CostInputs {
            turns: 40,
            level1: 100,
            level2: 2_000,
            level3: 5_000,
            read_tokens: 300,
            ..inputs
        };
        assert_eq!(fine.out_of_range(), None);
    }
}
