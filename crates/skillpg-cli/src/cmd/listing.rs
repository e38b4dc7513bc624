//! `skillpg listing`: its arguments and what it does.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::options::*;
use crate::project::*;
use crate::render;

/// What `skillpg listing` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct ListingArgs {
    /// Context window (tokens) for the clients' listing budgets (skillpg.toml's, else
    /// 200,000, as every edge assumes).
    #[arg(long, value_parser = context_window_arg)]
    pub(crate) context_window: Option<usize>,
    #[command(flatten)]
    pub(crate) listing_settings: ClaudeListingArgs,
    /// A budget gate for CI: exit 1 when a client's whole listing costs more than this, as
    /// a share of its budget (`90%`) or a cost in its unit (`12000`), for one client
    /// (`codex=90%`) or every client with a budget. `100%` fails when anything is cut.
    #[arg(long = "fail-over", value_name = "[CLIENT=]LIMIT")]
    pub(crate) fail_over: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// The skills installed together; skillpg.toml's `roots` when none are given.
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `skillpg listing`.
pub(crate) fn run(args: ListingArgs) -> Result<ExitCode, String> {
    let ListingArgs {
        context_window,
        listing_settings,
        fail_over,
        format,
        paths,
    } = args;
    let settings = listing_settings.settings()?;
    // skillpg.toml's gates, context window and roots, when none are given here.
    let project = project_config(None)?;
    let fail_over = match (fail_over.is_empty(), &project) {
        (true, Some((c, _))) => c.fail_over.clone(),
        _ => fail_over,
    };
    let gates = fail_over
        .iter()
        .map(|g| skillpg_report::budget_gate::BudgetGate::parse(g))
        .collect::<Result<Vec<_>, String>>()?;
    // One default window on every edge (the page, the Action, the hooks).
    let context_window = context_window
        .or(project.as_ref().and_then(|(c, _)| c.context_window))
        .or(Some(skillpg_core::catalog::DEFAULT_CONTEXT_WINDOW));
    // The budget hook runs with no paths: without skillpg.toml's roots, the catalog is
    // every skill under the working folder (the repository, as pre-commit runs it).
    let paths = match project_paths(paths, project.as_ref()) {
        Ok(paths) => paths,
        Err(_) => {
            eprintln!("no paths and no skillpg.toml roots: listing every skill under .");
            vec![PathBuf::from(".")]
        }
    };
    let inputs = load(&paths)?;
    require_skills(&inputs)?;
    // A client lists the skills that load under it, in the project (its ignores and
    // severities), as `check`, `where` and `doctor` decide.
    let checked = analyze_inputs(&inputs);
    let loads = loads_in_project(&inputs, &checked, project.as_ref(), &settings);
    let listings = skillpg_report::listings_of_loaded(
        &checked.analyses,
        context_window,
        &settings,
        &loads_of(&loads),
    );
    let over = skillpg_report::budget_gate::over(&listings, &gates)?;
    match format {
        Format::Json => println!("{}", to_json(&listings)?),
        Format::Text => print!("{}", render::listings_text(&listings)),
    }
    // The gate's verdict goes to stderr, so the listing on stdout stays what it was.
    for line in &over {
        eprintln!("over the budget gate: {line}");
    }
    Ok(if over.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
