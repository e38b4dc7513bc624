//! `skillpg lsp`: its arguments and what it does.

use std::process::ExitCode;

/// What `skillpg lsp` takes (its help is the variant's, in `args.rs`).
#[derive(clap::Args, Debug)]
pub(crate) struct LspArgs {
    /// Accepted for editors that pass it (VS Code's language client does); stdio is the
    /// only transport.
    #[arg(long, hide = true)]
    pub(crate) stdio: bool,
}

/// Runs `skillpg lsp`.
pub(crate) fn run(args: LspArgs) -> Result<ExitCode, String> {
    let LspArgs { stdio: _ } = args;
    // The protocol's exit status: 0 after shutdown and exit, 1 otherwise.
    Ok(match skillpg_lsp::serve_stdio()? {
        skillpg_lsp::Ending::Clean => ExitCode::SUCCESS,
        skillpg_lsp::Ending::Abrupt => ExitCode::from(1),
    })
}
