//! `skillpg clients`: every profile with what its verdicts rest on: the client's own loader run
//! in the test suite (an oracle), or its source read at a dated commit, and where versions
//! people still run behave otherwise.

use std::process::ExitCode;

use crate::options::Format;

/// What `skillpg clients` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct ClientsArgs {
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

/// One profile as `--format json` prints it.
#[derive(serde::Serialize)]
struct ClientJson {
    key: &'static str,
    title: &'static str,
    /// The client's own package the test suite calls, `package version`; null where the
    /// profile rests on reading the source.
    oracle: Option<&'static str>,
    /// The source read, its commit or version, and the date.
    as_of: &'static str,
    source: &'static str,
    /// Versions that behave otherwise, and which one the profile models; null where none.
    other_versions: Option<&'static str>,
}

/// Runs `skillpg clients`.
pub(crate) fn run(args: ClientsArgs) -> Result<ExitCode, String> {
    let all: Vec<ClientJson> = skillpg_core::profile::ALL
        .iter()
        .map(|p| ClientJson {
            key: p.key,
            title: p.title,
            oracle: p.oracle,
            as_of: p.as_of,
            source: p.source_url,
            other_versions: (!p.other_versions.is_empty()).then_some(p.other_versions),
        })
        .collect();
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?
        ),
        _ => {
            for c in &all {
                println!("{} ({})", c.title, c.key);
                match c.oracle {
                    Some(o) => println!(
                        "  verified: {o}, run on every corpus skill and thousands of generated cases in the test suite"
                    ),
                    None => println!("  read, not run: its source as cited below"),
                }
                println!("  as of:  {}", c.as_of);
                println!("  source: {}", c.source);
                if let Some(v) = c.other_versions {
                    println!("  other versions: {v}");
                }
                println!();
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
