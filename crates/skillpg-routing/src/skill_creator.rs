//! skill-creator's eval format, `[{"query": ..., "should_trigger": true}, ...]`: its one type,
//! its bound, its reader and its writer. The lowest of the experiment's modules that read
//! requests: the request reader (`requests`), the eval sets (`evalset`) and the lab (`eval`)
//! all read this format through it.

use serde::{Deserialize, Serialize};

/// The most queries an eval set may hold (skill-creator's sets hold about 20).
pub const MAX_QUERIES: usize = 500;

/// What is wrong with an eval set a person brought, naming the line or entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalSetError {
    /// A lab line with neither mark (the character it starts with, as a message shows it).
    #[error("line {line}: start it with + (should trigger) or - (should not), not {shown}")]
    NoMark { line: usize, shown: String },
    /// A lab line with a mark and nothing after it.
    #[error("line {0}: the query is empty")]
    EmptyLine(usize),
    /// Lab lines past the bound (the first line over it).
    #[error("more than the {max} queries the lab takes (line {0})", max = MAX_QUERIES)]
    TooManyLines(usize),
    /// Not skill-creator's list (serde's message).
    #[error(
        "not an eval set: expected skill-creator's [{{\"query\", \"should_trigger\"}}] list ({0})"
    )]
    NotEvalSet(String),
    /// A list past the bound (its length).
    #[error("the eval set holds {0} queries, more than the {max} the lab takes", max = MAX_QUERIES)]
    TooMany(usize),
    /// An entry of the list with an empty query (its place, from 1).
    #[error("query {0} is empty")]
    EmptyQuery(usize),
    /// An object that is not a lab report (serde's message).
    #[error("not a lab report: {0}")]
    NotReport(String),
}

/// The message, for the edges whose errors are text.
impl From<EvalSetError> for String {
    fn from(e: EvalSetError) -> String {
        e.to_string()
    }
}

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
pub fn parse_evals(text: &str) -> Result<Vec<EvalQuery>, EvalSetError> {
    let items: Vec<EvalQuery> =
        serde_json::from_str(text).map_err(|e| EvalSetError::NotEvalSet(e.to_string()))?;
    if items.len() > MAX_QUERIES {
        return Err(EvalSetError::TooMany(items.len()));
    }
    if let Some(i) = items.iter().position(|q| q.query.trim().is_empty()) {
        return Err(EvalSetError::EmptyQuery(i + 1));
    }
    Ok(items)
}

/// The eval set in skill-creator's format (what [`parse_evals`] reads), pretty-printed.
pub fn evals_json(items: &[EvalQuery]) -> String {
    serde_json::to_string_pretty(items).unwrap_or_else(|_| "[]".to_owned())
}
