//! `skillpg compare`: its arguments and what it does.

use skillpg_routing::export;
use skillpg_routing::outcome::Descriptions;
use skillpg_routing::skills::RouteSkill;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::options::*;
use crate::route_cmd;

/// What `skillpg compare` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct CompareArgs {
    #[command(flatten)]
    pub(crate) router: route_cmd::RouterArgs,
    #[arg(long, value_enum, default_value_t = RouteFormat::Text)]
    pub(crate) format: RouteFormat,
    #[arg(long)]
    pub(crate) requests: PathBuf,
    /// Skills of arm A.
    #[arg(long, num_args = 1.., required = true)]
    pub(crate) a: Vec<PathBuf>,
    /// Skills of arm B (or --thin-b: A's descriptions cut to their bare subject).
    #[arg(long, num_args = 1..)]
    pub(crate) b: Vec<PathBuf>,
    #[arg(long)]
    pub(crate) thin_b: bool,
}

/// Runs `skillpg compare`.
pub(crate) fn run(args: CompareArgs) -> Result<ExitCode, String> {
    let CompareArgs {
        router,
        format,
        requests,
        a,
        b,
        thin_b,
    } = args;
    let skills_a = route_cmd::load_skills(&a)?;
    let (skills_b, b_are) = match (thin_b, b.is_empty()) {
        (true, true) => (
            skills_a.iter().map(RouteSkill::thinned).collect(),
            Descriptions::Thinned,
        ),
        (false, false) => (route_cmd::load_skills(&b)?, Descriptions::Other),
        (true, false) => return Err("give --b PATH... or --thin-b, not both".into()),
        (false, true) => return Err("give --b PATH... or --thin-b".into()),
    };
    let reqs = route_cmd::load_requests(&requests, None)?;
    if let Some(why) = skillpg_routing::requests::why_not_comparable(&reqs) {
        return Err(format!("compare: {why}"));
    }
    let router = route_cmd::LoadedRouter::new(&router)?;
    let [arm_a, arm_b]: [_; 2] = router
        .run_arms(
            &[(&skills_a, Descriptions::AsWritten), (&skills_b, b_are)],
            &reqs,
        )?
        .try_into()
        .map_err(|_| "two arms")?;
    let cmp = skillpg_routing::outcome::compare(&reqs, &arm_a, &arm_b)?;
    match format {
        RouteFormat::Json => print!(
            "{}",
            export::compare_json(
                &router.model,
                router.method(),
                &reqs,
                &arm_a,
                &arm_b,
                Some(&cmp)
            )
        ),
        RouteFormat::Csv => print!("{}", export::compare_csv(&reqs, &arm_a, &arm_b)),
        RouteFormat::Text => print!(
            "{}",
            route_cmd::compare_text(&router, &reqs, &arm_a, &arm_b, &cmp)
        ),
    }
    Ok(ExitCode::SUCCESS)
}
