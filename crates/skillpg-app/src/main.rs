//! The page's entry point: a panic hook that keeps the user's input, then the app.

fn main() {
    skillpg_app::install_panic_hook();
    // The editor counts the same files again on every edit: remember their parts' counts.
    skillpg_tokens::enable_count_cache();
    leptos::mount::mount_to_body(skillpg_app::App);
}
