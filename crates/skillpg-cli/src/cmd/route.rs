//! `skillpg route`: its arguments and what it does.

use skillpg_routing::export;
use skillpg_routing::outcome::Descriptions;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::options::*;
use crate::route_cmd;

/// What `skillpg route` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct RouteArgs {
    #[command(flatten)]
    pub(crate) router: route_cmd::RouterArgs,
    #[arg(long, value_enum, default_value_t = RouteFormat::Text)]
    pub(crate) format: RouteFormat,
    /// Requests: a labelled JSON list (`[{"query","expected"}]` or skill-creator's
    /// `[{"query","should_trigger"}]`) or one request per line (`request => skill` labels it).
    #[arg(long)]
    pub(crate) requests: PathBuf,
    /// Find the best threshold and margin on the labelled requests first.
    #[arg(long)]
    pub(crate) calibrate: bool,
    #[arg(required = true)]
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `skillpg route`.
pub(crate) fn run(args: RouteArgs) -> Result<ExitCode, String> {
    let RouteArgs {
        router,
        format,
        requests,
        calibrate,
        paths,
    } = args;
    let skills = route_cmd::load_skills(&paths)?;
    let reqs = route_cmd::load_requests(
        &requests,
        (skills.len() == 1).then(|| skills[0].name.as_str()),
    )?;
    let mut router = route_cmd::LoadedRouter::new(&router)?;
    let mut arm = router
        .run_arms(&[(&skills, Descriptions::AsWritten)], &reqs)?
        .remove(0);
    if calibrate {
        router.calibrate(&mut arm, &reqs)?;
    }
    match format {
        RouteFormat::Json => print!(
            "{}",
            export::route_json(&router.model, router.method(), &reqs, &arm)
        ),
        RouteFormat::Csv => print!("{}", export::route_csv(&reqs, &arm)),
        RouteFormat::Text => print!("{}", route_cmd::route_text(&router, &reqs, &arm)),
    }
    Ok(ExitCode::SUCCESS)
}
