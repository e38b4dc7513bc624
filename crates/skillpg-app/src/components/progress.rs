//! A model's download in bytes, as both routers show it: a bar with its total when the server
//! states one, without it otherwise, and an indeterminate bar once the bytes are in.

use leptos::prelude::*;

/// The progress of a download (`(loaded, total)`), or `None` while the work after it runs.
#[component]
pub fn DownloadProgress(
    #[prop(into)] download: Signal<Option<(u64, Option<u64>)>>,
    /// The bar's test id while bytes arrive.
    test_id: &'static str,
    /// The bar's accessible name once they are in.
    idle_label: &'static str,
) -> impl IntoView {
    move || {
        match download.get() {
        Some((loaded, Some(total))) => view! {
            <progress data-testid=test_id aria-label="Downloading the model" max=total.to_string() value=loaded.to_string()></progress>
            <span>{format!("{} of {} bytes", super::n(loaded as usize), super::n(total as usize))}</span>
        }
        .into_any(),
        Some((loaded, None)) => {
            view! { <progress data-testid=test_id aria-label="Downloading the model"></progress><span>{format!("{} bytes", super::n(loaded as usize))}</span> }.into_any()
        }
        None => view! { <progress aria-label=idle_label></progress> }.into_any(),
    }
    }
}
