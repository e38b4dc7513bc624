//! `skillpg prompt`: its arguments and what it does.

use skillpg_routing::skills::RouteSkill;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::route_cmd;

/// What `skillpg prompt` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct PromptArgs {
    /// The thinned descriptions (the chapter's arm B).
    #[arg(long)]
    pub(crate) thin: bool,
    /// Print, as JSON, the text the model is fed in the decoder's chat template: `prefix`
    /// (the system turn, up to the user turn's special token) and `requests` (each
    /// `--request`'s turn after the prefix), so that a peer runs the same text.
    #[arg(long)]
    pub(crate) chat: bool,
    /// A request whose turn `--chat` prints (repeat it for more).
    #[arg(long = "request", requires = "chat")]
    pub(crate) requests: Vec<String>,
    #[arg(required = true)]
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `skillpg prompt`.
pub(crate) fn run(args: PromptArgs) -> Result<ExitCode, String> {
    let PromptArgs {
        thin,
        chat,
        requests,
        paths,
    } = args;
    use skillpg_routing::prompt::{prompt_prefix, prompt_request, system_prompt};
    let mut skills = route_cmd::load_skills(&paths)?;
    if thin {
        skills = skills.iter().map(RouteSkill::thinned).collect();
    }
    let system = system_prompt(&skills);
    if chat {
        let turns: Vec<String> = requests.iter().map(|r| prompt_request(r)).collect();
        println!(
            "{}",
            serde_json::json!({ "prefix": prompt_prefix(&system), "requests": turns })
        );
    } else {
        print!("{system}");
    }
    Ok(ExitCode::SUCCESS)
}
