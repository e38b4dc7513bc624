//! `skillpg cost`: its arguments and what it does.

use skillpg_core::cost::{CostInputs, cost};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::options::*;
use crate::project::*;
use crate::render;

/// What `skillpg cost` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct CostArgs {
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    #[arg(long, default_value_t = 40)]
    pub(crate) turns: u64,
    /// The turn on which the skill is used.
    #[arg(long)]
    pub(crate) activate_at: Option<u64>,
    /// A bundled file read when the skill is used (repeatable).
    #[arg(long = "read")]
    pub(crate) read: Vec<String>,
    /// $ per million input tokens.
    #[arg(long, default_value_t = CostInputs::DEFAULT_PRICE)]
    pub(crate) price: f64,
    /// $ per million cached input tokens.
    #[arg(long, default_value_t = CostInputs::DEFAULT_CACHED_PRICE)]
    pub(crate) cached_price: f64,
    #[arg(long, requires_all = ["l2", "l3"], conflicts_with = "path")]
    pub(crate) l1: Option<u64>,
    #[arg(long, requires = "l1")]
    pub(crate) l2: Option<u64>,
    #[arg(long, requires = "l1")]
    pub(crate) l3: Option<u64>,
    /// Tokens of the files read on use (with --l1).
    #[arg(long, requires = "l1", conflicts_with = "read")]
    pub(crate) read_tokens: Option<u64>,
    /// The skill to price (or give --l1 --l2 --l3).
    #[arg(required_unless_present = "l1")]
    pub(crate) path: Option<PathBuf>,
}

/// Runs `skillpg cost`.
pub(crate) fn run(args: CostArgs) -> Result<ExitCode, String> {
    let CostArgs {
        format,
        turns,
        activate_at,
        read,
        price,
        cached_price,
        l1,
        l2,
        l3,
        read_tokens,
        path,
    } = args;
    let inputs = match (l1, path) {
        (Some(l1), _) => CostInputs {
            turns,
            level1: l1,
            level2: l2.unwrap_or(0),
            level3: l3.unwrap_or(0),
            read_tokens: read_tokens.unwrap_or(0),
            activate_at,
            price_per_million: price,
            cached_price_per_million: cached_price,
        },
        (None, Some(path)) => {
            let loaded = load(std::slice::from_ref(&path))?;
            let analyses = analyze_all(&loaded)?;
            let [a] = analyses.as_slice() else {
                return Err(format!(
                    "{}: cost takes one skill, found {}",
                    path.display(),
                    analyses.len()
                ));
            };
            let mut read_total = 0u64;
            for file in &read {
                let f = a
                    .file(file.trim_start_matches("./"))
                    .ok_or_else(|| format!("--read {file}: no such file in {}", a.display_path))?;
                read_total = read_total.saturating_add(f.tokens() as u64);
            }
            CostInputs {
                turns,
                level1: a.levels().level1 as u64,
                level2: a.levels().level2 as u64,
                level3: a.levels().level3 as u64,
                read_tokens: read_total,
                activate_at,
                price_per_million: price,
                cached_price_per_million: cached_price,
            }
        }
        (None, None) => return Err("give a PATH or --l1 --l2 --l3".to_owned()),
    };
    if activate_at.is_some_and(|k| k == 0 || k > turns) {
        return Err(format!(
            "--activate-at must be between 1 and --turns ({turns})"
        ));
    }
    if let Some(why) = inputs.out_of_range() {
        return Err(why);
    }
    let report = cost(&inputs);
    match format {
        Format::Json => {
            println!("{}", to_json(&skillpg_report::cost_json(&inputs, &report))?)
        }
        Format::Text => print!("{}", render::cost_text(&inputs, &report)),
    }
    Ok(ExitCode::SUCCESS)
}
