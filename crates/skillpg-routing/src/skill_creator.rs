//! skill-creator's eval format, `[{"query": ..., "should_trigger": true}, ...]`: its one type,
//! its bound, its reader and its writer. The lowest of the experiment's modules that read
//! requests: the request reader (`requests`), the eval sets (`evalset`) and the lab (`eval`)
//! all read this format through it.

use serde::{Deserialize, Serialize};

/// The most queries an eval set may hold (skill-creator's sets hold about 20).
pub const MAX_QUERIES: usize = 500;

/// One eval query, in skill-creator's format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvalQuery {
    /// What a person asks.
    pub query: String,
    /// Whether the skill should be used for it.
    pub should_trigger: bool,
}

/// Reads skill-creator's eval set, `[{"query": ..., "should_trigger": true}, ...]`, naming
/// the entry that is wrong.
pub fn parse_evals(text: &str) -> Result<Vec<EvalQuery>, String> {
    let items: Vec<EvalQuery> =
        serde_json::from_str(text).map_err(|e| format!("not an eval set: expected skill-creator's [{{\"query\", \"should_trigger\"}}] list ({e})"))?;
    if items.len() > MAX_QUERIES {
        return Err(format!(
            "the eval set holds {} queries, more than the {MAX_QUERIES} the lab takes",
            items.len()
        ));
    }
    if let Some(i) = items.iter().position(|q| q.query.trim().is_empty()) {
        return Err(format!("query {} is empty", i + 1));
    }
    Ok(items)
}

/// The eval set in skill-creator's format (what [`parse_evals`] reads), pretty-printed.
pub fn evals_json(items: &[EvalQuery]) -> String {
    serde_json::to_string_pretty(items).unwrap_or_else(|_| "[]".to_owned())
}
