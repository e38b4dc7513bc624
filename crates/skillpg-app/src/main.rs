//! The page's entry point: a panic hook that keeps the user's input, then the app.

fn main() {
    skillpg_app::install_panic_hook();
    leptos::mount::mount_to_body(skillpg_app::App);
}
