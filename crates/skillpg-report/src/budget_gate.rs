//! The listing budget as a CI gate (`skillpg listing --fail-over`): a limit per client, as a
//! share of its budget (`90%`) or an absolute cost in its unit (`12000`), that the catalog's
//! whole listing must not pass. `100%` fails exactly when the client would cut a description
//! or leave a skill out. Pure: it reads the listings the CLI and the page already compute.

use crate::ListingJson;

/// How much of a client's budget the catalog may take.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// A share of the budget, in percent.
    Percent(f64),
    /// A cost in the budget's own unit (characters, approximate tokens, bytes).
    Absolute(usize),
}

/// One `--fail-over` value: a limit for one client (`codex=90%`) or for every client with a
/// budget (`90%`).
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetGate {
    /// The profile's key, or `None` for every client with a budget.
    pub client: Option<String>,
    pub limit: Limit,
}

impl BudgetGate {
    /// Reads `[CLIENT=]LIMIT`, LIMIT being `N%` (above 0) or a whole number.
    pub fn parse(text: &str) -> Result<BudgetGate, String> {
        let (client, limit) = match text.split_once('=') {
            Some((c, l)) => (Some(c.trim().to_owned()), l.trim()),
            None => (None, text.trim()),
        };
        let limit = match limit.strip_suffix('%') {
            Some(p) => match p.trim().parse::<f64>() {
                Ok(p) if p.is_finite() && p > 0.0 => Limit::Percent(p),
                _ => return Err(format!("--fail-over {text}: a share above 0%, like 90%")),
            },
            None => match limit.parse::<usize>() {
                Ok(n) => Limit::Absolute(n),
                Err(_) => {
                    return Err(format!(
                        "--fail-over {text}: write [CLIENT=]N% or [CLIENT=]N (a cost in the client's unit)"
                    ));
                }
            },
        };
        Ok(BudgetGate { client, limit })
    }

    /// The most `listing` may cost under this gate, when the gate applies to it.
    fn allowance(&self, listing: &ListingJson) -> Option<usize> {
        let budget = listing.budget?;
        if self.client.as_deref().is_some_and(|c| c != listing.client) {
            return None;
        }
        Some(match self.limit {
            Limit::Percent(p) => (budget as f64 * p / 100.0).floor() as usize,
            Limit::Absolute(n) => n,
        })
    }
}

/// Every listing over a gate, as a line that says by how much; an error when a gate names a
/// client that has no budget (or no profile).
pub fn over(listings: &[ListingJson], gates: &[BudgetGate]) -> Result<Vec<String>, String> {
    for g in gates {
        if let Some(c) = &g.client
            && !listings
                .iter()
                .any(|l| &l.client == c && l.budget.is_some())
        {
            let with: Vec<&str> = listings
                .iter()
                .filter(|l| l.budget.is_some())
                .map(|l| l.client.as_str())
                .collect();
            return Err(format!(
                "--fail-over {c}=…: {c} documents no listing budget; these do: {}",
                with.join(", ")
            ));
        }
    }
    let mut lines = Vec::new();
    for l in listings {
        // The strictest gate that applies to this client.
        let Some(allowed) = gates.iter().filter_map(|g| g.allowance(l)).min() else {
            continue;
        };
        if l.whole > allowed {
            let n = |v: usize| skillpg_core::diagnostic::thousands(v as u64);
            lines.push(format!(
                "{}: the listing takes {} {}, over the {} allowed ({} of a budget of {})",
                l.title,
                n(l.whole),
                l.unit,
                n(allowed),
                percent(allowed, l.budget.unwrap_or(0)),
                n(l.budget.unwrap_or(0)),
            ));
        }
    }
    Ok(lines)
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "all".to_owned();
    }
    format!("{:.0}%", part as f64 * 100.0 / whole as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(client: &str, budget: Option<usize>, whole: usize) -> ListingJson {
        ListingJson {
            client: client.into(),
            title: client.into(),
            context_window: Some(200_000),
            budget,
            unit: "characters".into(),
            whole,
            used: whole,
            skills: Vec::new(),
        }
    }

    #[test]
    fn a_gate_is_a_share_or_a_cost_for_one_client_or_all() {
        assert_eq!(
            BudgetGate::parse("codex=90%"),
            Ok(BudgetGate {
                client: Some("codex".into()),
                limit: Limit::Percent(90.0)
            })
        );
        assert_eq!(
            BudgetGate::parse("12000").map(|g| g.limit),
            Ok(Limit::Absolute(12_000))
        );
        for bad in ["0%", "-5%", "lots", "codex=", "nan%"] {
            assert!(BudgetGate::parse(bad).is_err(), "{bad}");
        }
    }

    fn gate(text: &str) -> BudgetGate {
        BudgetGate::parse(text).expect("a gate")
    }

    #[test]
    fn over_names_each_client_past_its_strictest_gate() {
        let ls = [
            listing("claude-code", Some(8000), 7000),
            listing("codex", Some(4000), 4100),
            listing("cursor", None, 99_999),
        ];
        let all_at_100 = [gate("100%")];
        let lines = over(&ls, &all_at_100).expect("gates that apply");
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("codex: the listing takes 4,100"),
            "{lines:?}"
        );
        // 80% of Claude Code's 8,000 is 6,400: over too; the cursor listing has no budget.
        let strict = [gate("100%"), gate("claude-code=80%")];
        assert_eq!(over(&ls, &strict).map(|l| l.len()), Ok(2));
        assert!(over(&ls, &[gate("cursor=90%")]).is_err());
        assert!(over(&ls, &[gate("nosuch=90%")]).is_err());
        assert_eq!(over(&ls, &[]), Ok(Vec::new()), "no gate, nothing fails");
    }
}
