//! The A/B block both routers show: each arm's accuracy with its Wilson interval and NONE rate,
//! the paired table, and the exact sign test on the discordant pairs.

use leptos::prelude::*;
use skillpg_routing::NONE;

/// An A/B comparison on the same requests (`skillpg_stats::compare`'s result).
#[component]
pub fn PairedOutcomes(
    cmp: skillpg_stats::Comparison,
    /// The sign test line's test id.
    sign_test_id: &'static str,
    /// A sentence after the sign test's line.
    note: &'static str,
) -> impl IntoView {
    let p = cmp.paired;
    view! {
        <p>{cmp.a.line("A", NONE)}</p>
        <p>{cmp.b.line("B", NONE)}</p>
        <table class="paired"><caption>"Paired outcomes on the same requests"</caption>
            <tbody>
                <tr><th scope="row">"both right"</th><td>{p.both}</td><th scope="row">"only A right"</th><td>{p.only_a}</td></tr>
                <tr><th scope="row">"only B right"</th><td>{p.only_b}</td><th scope="row">"neither"</th><td>{p.neither}</td></tr>
            </tbody>
        </table>
        <p data-testid=sign_test_id>{format!("Exact two-sided sign test on the {} discordant pairs: p = {:.4}.{}", p.only_a + p.only_b, p.p_value(), note)}</p>
    }
}
