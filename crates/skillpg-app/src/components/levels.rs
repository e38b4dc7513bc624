//! The chapter's table for every loaded skill, a log-scale chart of the three levels, the
//! selected skill's files and sections, and the level-1 text exactly as a host renders it.

use leptos::prelude::*;
use skillpg_core::Levels;

use super::{ctx, n};

/// HTML-escapes as Python's `html.escape` (skills-ref's `to-prompt`).
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

/// The `<available_skills>` block in skills-ref's multi-line form.
pub fn available_skills_xml(entries: &[(String, String, String)]) -> String {
    let mut out = String::from("<available_skills>\n");
    for (name, description, location) in entries {
        out.push_str(&format!(
            "<skill>\n<name>\n{}\n</name>\n<description>\n{}\n</description>\n<location>\n{}\n</location>\n</skill>\n",
            html_escape(name.trim()),
            html_escape(description.trim()),
            location
        ));
    }
    out.push_str("</available_skills>");
    out
}

/// The levels view.
#[component]
pub fn LevelsPanel() -> impl IntoView {
    let c = ctx();
    // With many skills, made while this view shows (`Ctx::builds`).
    let shown = Memo::new(move |_| c.builds(crate::state::View::Levels));
    let table = move || {
        let computed = c.computed.get();
        let mut total = Levels::default();
        let rows = computed
            .analyses
            .iter()
            .map(|a| {
                let l = a.levels();
                total = total + l;
                view! {
                    <tr>
                        <th scope="row">{a.display_name().to_owned()}</th>
                        <td data-testid="l1">{n(l.level1)}</td>
                        <td data-testid="l2">{n(l.level2)}</td>
                        <td data-testid="l3">{n(l.level3)}</td>
                        <td data-testid="files">{n(l.files)}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <table class="levels" data-testid="levels-table">
                <caption>"o200k_base tokens per level (an approximation for other vendors' tokenizers)"</caption>
                <thead><tr><th scope="col">"skill"</th><th scope="col">"level 1"</th><th scope="col">"level 2"</th><th scope="col">"level 3"</th><th scope="col">"files"</th></tr></thead>
                <tbody>{rows}</tbody>
                <tfoot><tr data-testid="levels-total"><th scope="row">"total"</th><td>{n(total.level1)}</td><td>{n(total.level2)}</td><td>{n(total.level3)}</td><td>{n(total.files)}</td></tr></tfoot>
            </table>
        }
    };
    view! {
        <div class="levels-panel">
            {move || shown.get().then(table)}
            <p class="explain">"Level 1 is the line "<code>"- name: description"</code>" plus a newline, in every conversation. Level 2 is the body after the closing "<code>"---"</code>" line, read when the skill is used. Level 3 is every other file, read only when the body sends the agent there."</p>
            {move || shown.get().then(|| view! { <LevelChart/><Level1Lines/> })}
            <FilesTable/>
        </div>
    }
}

/// Horizontal bars on a log scale, one group per skill.
#[component]
fn LevelChart() -> impl IntoView {
    let c = ctx();
    move || {
        let computed = c.computed.get();
        let rows: Vec<(String, Levels)> = computed
            .analyses
            .iter()
            .map(|a| (a.display_name().to_owned(), a.levels()))
            .collect();
        let max = rows
            .iter()
            .map(|(_, l)| l.level1.max(l.level2).max(l.level3))
            .max()
            .unwrap_or(1)
            .max(10) as f64;
        let scale = |v: usize| {
            if v == 0 {
                0.0
            } else {
                340.0 * (v as f64 + 1.0).log10() / (max + 1.0).log10()
            }
        };
        let height = rows.len() * 54 + 30;
        // A tick at every power of ten up to the largest level, so lengths can be read.
        let ticks: Vec<usize> = (0..)
            .map(|k| 10usize.pow(k))
            .take_while(|&v| v as f64 <= max)
            .collect();
        let axis = height - 12;
        view! {
            <figure class="chart">
                <svg viewBox=format!("0 0 640 {height}") role="img" aria-label="Tokens per level, logarithmic scale with a tick at every power of ten" data-testid="level-chart">
                    {ticks.into_iter().map(|v| {
                        let x = 170.0 + scale(v);
                        view! {
                            <line x1=format!("{x:.1}") x2=format!("{x:.1}") y1="4" y2=axis - 8 class="tick" data-testid="chart-tick"></line>
                            <text x=format!("{x:.1}") y=axis class="tick-label" text-anchor="middle">{n(v)}</text>
                        }
                    }).collect_view()}
                    {rows.iter().enumerate().map(|(i, (name, l))| {
                        let y = i * 54 + 8;
                        view! {
                            <g>
                                <text x="0" y=y + 12 class="chart-label">{name.clone()}</text>
                                {[(l.level1, "l1", "level 1"), (l.level2, "l2", "level 2"), (l.level3, "l3", "level 3")].into_iter().enumerate().map(|(k, (v, cls, label))| {
                                    let w = scale(v);
                                    let yy = y + 16 + k * 12;
                                    view! {
                                        <rect x="170" y=yy width=format!("{w:.1}") height="10" class=format!("bar {cls}")><title>{format!("{label}: {} tokens", n(v))}</title></rect>
                                        <text x=format!("{:.1}", 174.0 + w) y=yy + 9 class="chart-value">{format!("{label} {}", n(v))}</text>
                                    }
                                }).collect_view()}
                            </g>
                        }
                    }).collect_view()}
                </svg>
                <figcaption>"Logarithmic scale: each tick is ten times the one before, so a bar twice as long is far more than twice the tokens. The table above has the exact counts."</figcaption>
            </figure>
        }
    }
}

/// The level-1 text of the catalog, in both forms hosts use, with its tokens.
#[component]
fn Level1Lines() -> impl IntoView {
    let c = ctx();
    move || {
        let computed = c.computed.get();
        let lines: String = computed
            .analyses
            .iter()
            .map(|a| a.level1_line.clone())
            .collect();
        let entries: Vec<(String, String, String)> = computed
            .analyses
            .iter()
            .map(|a| {
                (
                    a.name().unwrap_or(&a.dir_name).to_owned(),
                    a.description().unwrap_or("").to_owned(),
                    format!("{}/SKILL.md", a.dir_name),
                )
            })
            .collect();
        let xml = available_skills_xml(&entries);
        let lines_tokens = skillpg_tokens::count(&lines);
        let xml_tokens = skillpg_tokens::count(&xml);
        view! {
            <div class="level1-lines">
                <h3>"What the agent sees before choosing"</h3>
                <p>{format!("As a list ({} tokens):", n(lines_tokens))}</p>
                <pre data-testid="level1-list">{lines}</pre>
                <details>
                    <summary>{format!("As skills-ref's <available_skills> XML ({} tokens)", n(xml_tokens))}</summary>
                    <pre data-testid="level1-xml">{xml}</pre>
                </details>
            </div>
        }
    }
}

/// The selected skill's files (level 3) and the body's sections (level 2), with tokens.
#[component]
fn FilesTable() -> impl IntoView {
    let c = ctx();
    move || {
        let computed = c.computed.get();
        let selected = c.state.with(|s| s.selected);
        let Some(a) = computed.analyses.get(selected).cloned() else {
            return view! { <p>"No skill."</p> }.into_any();
        };
        let md = a.skill_md_path.clone();
        let files: Vec<_> = a
            .files
            .iter()
            .filter(|f| Some(&f.path) != md.as_ref())
            .cloned()
            .collect();
        view! {
            <div class="two-col">
                <table class="files" data-testid="files-table">
                    <caption>{format!("{}: level 3, file by file", a.display_name())}</caption>
                    <thead><tr><th scope="col">"file"</th><th scope="col">"tokens"</th><th scope="col">"bytes"</th><th scope="col">"linked from SKILL.md"</th></tr></thead>
                    <tbody>
                        {files.into_iter().map(|f| {
                            let linked = a.links.iter().any(|l| l.path == f.path);
                            let path = f.path.clone();
                            view! {
                                <tr>
                                    <th scope="row"><button class="link" on:click=move |_| c.state.update(|s| s.selected_file = path.clone())>{f.path.clone()}</button></th>
                                    <td>{if f.is_binary() { "binary (0)".to_owned() } else if f.too_large { "too large".to_owned() } else { n(f.tokens()) }}</td>
                                    <td>{n(f.n_bytes)}</td>
                                    <td>{if linked { "yes" } else { "" }}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                <table class="sections" data-testid="sections-table">
                    <caption>"Level 2, section by section"</caption>
                    <thead><tr><th scope="col">"section"</th><th scope="col">"tokens"</th></tr></thead>
                    <tbody>
                        {a.sections().iter().map(|s| view! {
                            <tr><th scope="row">{if s.title.is_empty() { "(before the first ##)".to_owned() } else { s.title.clone() }}</th><td>{n(a.section_tokens(s))}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        }.into_any()
    }
}
