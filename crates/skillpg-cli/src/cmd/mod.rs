//! One file per subcommand, each with its arguments and its `run`; `main.rs` parses and
//! dispatches.

pub(crate) mod baseline;
pub(crate) mod bench;
pub(crate) mod check;
pub(crate) mod clients;
pub(crate) mod compare;
pub(crate) mod cost;
pub(crate) mod doctor;
pub(crate) mod eval;
pub(crate) mod fix;
pub(crate) mod levels;
pub(crate) mod listing;
pub(crate) mod lsp;
pub(crate) mod model_pack;
pub(crate) mod prompt;
pub(crate) mod route;
pub(crate) mod rules;
pub(crate) mod share;
pub(crate) mod stats;
pub(crate) mod where_cmd;
