//! The routing experiment, in one place: what the CLI, the page and the workers share, so that
//! none of them holds a copy.
//!
//! - [`requests`]: the request files a person writes (one per line with `=> expected`, or JSON
//!   in skill-creator's or the multi-skill format), their one parser and their writers;
//! - [`skills`]: the `(name, description)` pairs a router sees, taken from an analysis, and
//!   [`thin`](skills::thin), the chapter's "thin" arm;
//! - [`decide`]: decisions from scores (τ, δ, one default), and calibration;
//! - [`answer`]: how the chapter reads a decoder's answer;
//! - [`prompt`]: the chapter's system prompt and its ChatML turns, as text;
//! - [`outcome`]: one result type for every router (cosines, chapter answers, constrained
//!   choices) and the A/B comparison of two arms;
//! - [`eval`]: the description lab: trigger evals (skill-creator's format, a seeded train /
//!   validation split), their metrics, occlusion, a draft against the current description;
//! - [`explain`]: explanations an author can act on (words and phrases weighed, missing words,
//!   where a lost query went);
//! - [`evalset`]: eval sets as people write them (skill-creator's JSON, the lab's `+`/`-`
//!   lines, a lab report), one reader and one writer each;
//! - [`export`]: the JSON and CSV schemas of a run, byte for byte the same from the CLI and the
//!   page;
//! - [`backend`]: where a model runs (the software-adapter rule, once);
//! - [`protocol`]: the typed messages between the page and its workers;
//! - [`sampling`]: seeded sampling for a decoder's repeated runs;
//!
//! Pure: no model, no I/O; it builds for `wasm32-unknown-unknown` and is tested natively.

pub mod answer;
pub mod backend;
pub mod bench;
pub mod bench_report;
pub mod decide;
pub mod eval;
pub mod evalset;
pub mod explain;
pub mod export;
pub mod lexical;
pub mod outcome;
pub mod prompt;
pub mod protocol;
pub mod requests;
pub mod sampling;
pub mod skill_creator;
pub mod skills;
pub mod stronger;

/// The answer when no skill fits: a label in request files, a decoder's answer, a choice.
pub const NONE: &str = "NONE";

/// The sentence every routing result carries: what it is not.
pub const PREVIEW_NOTE: &str = "a preview by a small model, not any product's router";
