//! Share and export: a link that carries the whole state in its fragment (no server), the
//! report as JSON (`skillpg check --format json` plus levels), the skill as a zip claude.ai
//! accepts, and a Markdown summary.

use leptos::prelude::*;

use super::{ctx, n};
use crate::{browser, state};

/// The report of the selected profile as `skillpg check --format json` prints it, with levels.
pub fn report_json(
    computed: &crate::Computed,
    catalog: &crate::CatalogComputed,
    profile: &str,
) -> String {
    let Some((p, per_skill)) = computed
        .checks
        .iter()
        .find(|(p, _)| p.key == profile)
        .or(computed.checks.first())
    else {
        return "{}".into();
    };
    let report = skillpg_report::CheckJson {
        profile: p.key.to_owned(),
        skills: computed
            .analyses
            .iter()
            .zip(per_skill)
            .map(|(a, d)| skillpg_report::skill_check_json(a, d, true))
            .collect(),
        catalog: catalog
            .catalog
            .iter()
            .filter(|(q, _)| q.key == p.key)
            .flat_map(|(_, d)| d.iter().map(skillpg_report::diagnostic_json))
            .collect(),
    };
    serde_json::to_string_pretty(&report).unwrap_or_default()
}

/// A Markdown summary of the selected profile's verdicts and the levels.
fn report_markdown(computed: &crate::Computed, profile: &str) -> String {
    let mut out = format!(
        "| skill | verdict ({profile}) | level 1 | level 2 | level 3 | files |\n|---|---|---|---|---|---|\n"
    );
    let per_skill = computed
        .checks
        .iter()
        .find(|(p, _)| p.key == profile)
        .map(|(_, d)| d.clone())
        .unwrap_or_default();
    for (a, d) in computed.analyses.iter().zip(per_skill) {
        let errors = d
            .iter()
            .filter(|d| d.severity == skillpg_core::Severity::Error)
            .count();
        let l = a.levels();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            a.display_name(),
            if errors == 0 {
                "valid".to_owned()
            } else {
                format!("{errors} error(s)")
            },
            n(l.level1),
            n(l.level2),
            n(l.level3),
            n(l.files)
        ));
    }
    out.push_str("\nTokens: o200k_base, an approximation for other vendors' tokenizers. Made with Skill Playground.\n");
    out
}

/// The share and export controls.
#[component]
pub fn SharePanel() -> impl IntoView {
    let c = ctx();
    let link = RwSignal::new(String::new());
    let too_large = RwSignal::new(false);
    let make_link = move |_| {
        // A link opens on the view its maker was reading, never on the export buttons: one made
        // here, in the Share view, opens on the verdicts.
        let view = c.link_view.get_untracked();
        let fragment = c.state.with(|s| state::share_fragment_with_view(s, view));
        let url = format!("{}#{fragment}", browser::location_base());
        // The limit and its message are `skillpg share`'s too.
        if let Some(why) = skillpg_share::too_long(url.len()) {
            too_large.set(true);
            link.set(String::new());
            c.status.set(why);
            return;
        }
        too_large.set(false);
        link.set(url.clone());
        leptos::task::spawn_local(async move {
            // "Copied" only when the browser says so; otherwise the link is selected for copying.
            if browser::copy_text(&url).await {
                c.status.set("Share link copied; it holds the skills, the chosen file, the profile and the cost inputs.".to_owned());
            } else {
                browser::select_input("share-link");
                c.status.set("The browser did not let the page copy the link: it is selected below, copy it with Ctrl+C (⌘C on a Mac).".to_owned());
            }
        });
    };
    view! {
        <p class="address-note" data-testid="address-note">{move || match c.address_note.get() {
            Some(why) => format!("The address bar does not hold this work: {why}"),
            None => "The address bar holds this work as you edit it (a moment after each pause): copy it to share, or make a link here.".to_owned(),
        }}</p>
        <div class="share">
            <button data-testid="share" on:click=make_link>"Make a share link"</button>
            <button data-testid="export-json" on:click=move |_| {
                let json = c.state.with_untracked(|s| report_json(&c.computed.get_untracked(), &c.catalog_now(), &s.profile));
                browser::download("skill-report.json", "application/json", json.as_bytes());
            }>"Export the report (JSON)"</button>
            <button data-testid="export-zip" on:click=move |_| {
                if let Some(skill) = c.state.with(|s| s.skills.get(s.selected).cloned()) {
                    browser::download(&format!("{}.zip", skill.dir_name), "application/zip", &state::skill_zip(&skill));
                }
            }>"Download the skill (.zip for claude.ai)"</button>
            <button data-testid="export-well-known" title="index.json with each file's SHA-256 digest, and the skills' files, laid out for a static site's root" on:click=move |_| {
                let files = c.state.with(|s| skillpg_share::interchange::well_known_files(&s.skills));
                match files {
                    Ok(files) => {
                        browser::download("agent-skills-well-known.zip", "application/zip", &skillpg_core::ingest::write_archive(&files));
                        c.status.set("Unpack the zip at your site's root: agents find the skills at /.well-known/agent-skills/index.json (Agent Skills discovery v0.2.0).".to_owned());
                    }
                    Err(why) => c.status.set(format!("No discovery index: {why}.")),
                }
            }>"Download a /.well-known/agent-skills/ folder (zip)"</button>
            {move || {
                // Made while the Share view is shown: percent-encoding SKILL.md on every keystroke
                // elsewhere would slow the editor for a button no one sees.
                if c.view.get() != crate::state::View::Share {
                    return None;
                }
                let md = c.state.with(|s| s.skills.get(s.selected).and_then(|k| k.skill_md_shown()).map(|(t, _)| t));
                md.filter(|t| t.len() <= skillpg_share::interchange::MAX_ZED_BYTES).map(|t| view! {
                    <a class="button" data-testid="open-in-zed" href=skillpg_share::interchange::zed_link(&t)
                        title="Opens Zed's Create Skill form with this SKILL.md (a zed://skill link; SKILL.md only, no other file)">"Open in Zed"</a>
                })
            }}
            <button data-testid="copy-markdown" on:click=move |_| {
                let md = c.state.with(|s| report_markdown(&c.computed.get_untracked(), &s.profile));
                leptos::task::spawn_local(async move {
                    let said = if browser::copy_text(&md).await { "Markdown summary copied." } else { "The browser did not let the page copy the summary; download the JSON report instead." };
                    c.status.set(said.to_owned());
                });
            }>"Copy a Markdown summary"</button>
            <Show when=move || !link.get().is_empty()>
                <label for="share-link">"Link"</label>
                <input id="share-link" data-testid="share-link" readonly=true prop:value=move || link.get()/>
            </Show>
            <Show when=move || too_large.get()>
                <p class="warning" data-testid="share-too-large">"Too large for a link: use the zip or the Markdown summary."</p>
            </Show>
        </div>
    }
}
