//! `skillpg rules`: its arguments and what it does.

use std::process::ExitCode;

use crate::render;

/// What `skillpg rules` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct RulesArgs {
    /// A code (SPG038) or a rule name (name-dir-mismatch).
    pub(crate) rule: Option<String>,
}

/// Runs `skillpg rules`.
pub(crate) fn run(args: RulesArgs) -> Result<ExitCode, String> {
    match args {
        RulesArgs { rule: None } => {
            print!("{}", render::rules_text());
            Ok(ExitCode::SUCCESS)
        }
        RulesArgs { rule: Some(key) } => {
            let rules = skillpg_core::rules::all_rules();
            let r = rules
                .iter()
                .find(|r| r.code.eq_ignore_ascii_case(&key) || r.name == key)
                .ok_or_else(|| format!("no rule {key}; `skillpg rules` lists them"))?;
            println!(
                "{} {} ({} by default)\n",
                r.code,
                r.name,
                r.default_severity.as_str()
            );
            println!(
                "{}",
                skillpg_core::rules::rule_doc(r.name).unwrap_or(r.summary)
            );
            println!("\nSource: {} <{}>", r.source.title, r.source.url);
            Ok(ExitCode::SUCCESS)
        }
    }
}
