//! Where each loaded skill loads, client by client, and the findings of the chosen one: grouped
//! by file, with the source line and its span marked, the rule's source, and one-click fixes
//! with a diff preview.

use leptos::prelude::*;
use skillpg_core::{Applicability, Diagnostic};

use super::ctx;

/// The matrix of clients by loaded skills: will each skill load, and be listed, there? A cell
/// shows the client's verdict; its reason (the first error, in the client's words) on hover or
/// focus, with a link to the rule; choosing it shows that skill's findings under that client.
#[component]
pub fn VerdictTable() -> impl IntoView {
    let c = ctx();
    let selected = c.slice(|s| s.selected);
    // The skills whose columns are shown: all of a few, else a window around the selected one.
    let columns = Memo::new(move |_| {
        let total = c.computed.with(|k| k.analyses.len());
        crate::state::matrix_columns(selected.get(), total)
    });
    let names = Memo::new(move |_| {
        let shown = columns.get();
        c.computed.with(|k| {
            k.analyses[shown.clone()]
                .iter()
                .zip(shown.clone())
                .map(|(a, i)| (i, a.display_name().to_owned()))
                .collect::<Vec<_>>()
        })
    });
    let caption = move || {
        let total = c.computed.with(|k| k.analyses.len());
        let shown = columns.get();
        let mut text = format!(
            "Each skill under {} clients' own rules; choose a cell for its findings",
            skillpg_core::profile::ALL.len()
        );
        if shown.len() < total {
            text.push_str(&format!(
                " (skills {}–{} of {}: choose another in the list)",
                shown.start + 1,
                shown.end,
                super::n(total)
            ));
        }
        text
    };
    view! {
        <div class="matrix-scroll" data-testid="verdicts">
            <table class="verdicts">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">"Client"</th>
                        {move || {
                            names.get().into_iter().map(|(i, name)| view! {
                                <th scope="col" class="skill-col" class:selected=move || i == selected.get()>{name}</th>
                            }).collect_view()
                        }}
                        <th scope="col" data-testid="listing-col">"Listing"</th>
                    </tr>
                </thead>
                <tbody>{move || rows(c, columns.get(), selected)}</tbody>
            </table>
        </div>
    }
}

/// The matrix's cells for the shown columns, a row per client in `profile::ALL`'s order.
fn shown_cells(
    computed: &crate::Computed,
    columns: &std::ops::Range<usize>,
) -> Vec<Vec<skillpg_report::ClientCellJson>> {
    let total = computed.analyses.len();
    let shown = columns.start.min(total)..columns.end.min(total);
    computed
        .checks
        .iter()
        .map(|(_, per_skill)| {
            computed.analyses[shown.clone()]
                .iter()
                .zip(&per_skill[shown.clone()])
                .map(|(a, diags)| skillpg_report::client_cell(a, diags))
                .collect()
        })
        .collect()
}

/// Where to put the loaded skills for the chosen client (its row in the matrix): the folders it
/// searches, how deep, which copy wins a name installed twice, and each skill's place or the
/// first reason it would not be listed. `skillpg where --client KEY` prints the same.
#[component]
pub fn WhereToPut() -> impl IntoView {
    let c = ctx();
    let place = move || {
        let key = c.state.with(|s| s.profile.clone());
        let computed = c.computed.get();
        // The chosen client's checks, in place (no copy of a thousand skills' findings).
        let at = computed.checks.iter().position(|(p, _)| p.key == key)?;
        skillpg_report::where_to_put(&computed.analyses, &computed.checks[at..=at])
            .into_iter()
            .next()
    };
    view! {
        <details class="where" data-testid="where-panel" open=true>
            {move || place().map(|w| view! {
                <summary>{format!("Where to put it for {}", w.title)}</summary>
                <dl>
                    <dt>"In the project"</dt><dd data-testid="where-project">{w.project_text()}</dd>
                    <dt>"In your home folder"</dt><dd data-testid="where-user">{w.user_text()}</dd>
                    <dt>"How deep it looks"</dt><dd>{w.depth.clone()}</dd>
                    <dt>"The same name twice"</dt><dd>{w.wins.clone()}</dd>
                </dl>
                // The skills of the matrix's columns: a list of a thousand places a keystroke
                // is more than a person reads, and cost most of one's time.
                {
                    let total = w.skills.len();
                    let shown = crate::state::matrix_columns(c.state.with(|s| s.selected), total);
                    let more = (shown.len() < total).then(|| view! {
                        <p class="note">{format!("Skills {}–{} of {} (those of the matrix): choose another in the list.", shown.start + 1, shown.end, super::n(total))}</p>
                    });
                    view! {
                        <ul>
                            {w.skills[shown.clone()].iter().zip(shown.clone()).map(|(s, i)| {
                                let text = s.place_text();
                                let twice = (!s.same_name.is_empty()).then(|| format!(" (the same name as {}: {})", s.same_name.join(", "), w.wins));
                                view! { <li data-testid=format!("where-skill-{i}")>{text}{twice}</li> }
                            }).collect_view()}
                        </ul>
                        {more}
                    }
                }
                <p class="note">{format!("Source: {}", w.source)}</p>
            })}
        </details>
    }
}

/// One row per client, under its group's heading (the spec; each vendor; editors; terminal
/// agents): its title (choosing it shows its findings) and a link to its source (dated in its
/// title), a cell per shown skill (`columns`), and what its listing of the skills installed
/// together costs.
/// The matrix's body for `columns`: made again only when the columns change. A keystroke
/// changes a few cells (the edited skill's, under each client); each cell follows its own memo,
/// so only those are made again (the whole table was, a fifth of a keystroke with a thousand
/// skills).
fn rows(c: super::Ctx, columns: std::ops::Range<usize>, selected: Memo<usize>) -> impl IntoView {
    use skillpg_core::profile::{ALL, GROUPS};
    let cells = {
        let columns = columns.clone();
        Memo::new(move |_| c.computed.with(|k| shown_cells(k, &columns)))
    };
    let current = c.slice(|s| s.profile.clone());
    let empty = Memo::new(move |_| c.computed.with(|k| k.analyses.is_empty()));
    let span = (columns.len().max(1) + 2).to_string();
    GROUPS
        .iter()
        .map(|(group, keys)| {
            let members = keys.iter().filter_map(|key| {
                let at = ALL.iter().position(|p| p.key == *key)?;
                let p = ALL[at];
                let key = p.key;
                let listing = move || c.catalog.with(|k| k.listings.iter().find(|l| l.client == key).map(listing_cell)).unwrap_or_else(|| "–".to_owned());
                // Nothing loaded, nothing to judge: no verdict rather than "loads".
                let nothing = move || empty.get().then(|| view! { <td class="cell selected"><span class="verdict">"no skill loaded"</span></td> });
                let cells = columns.clone().enumerate().map(|(j, i)| {
                    let cell = Memo::new(move |_| cells.with(|m| m.get(at).and_then(|row| row.get(j)).cloned()));
                    move || cell.get().map(|cell| view! { <Cell key=key index=i cell=cell selected=Signal::derive(move || i == selected.get())/> })
                }).collect_view();
                Some(view! {
                    <tr class:current=move || current.with(|k| k == key) data-testid=format!("verdict-{key}")>
                        <th scope="row">
                            <button class="client" title=p.title on:click=move |_| c.state.update(|s| s.profile = key.to_owned())>{p.short}</button>
                            <a class="source" href=p.source_url target="_blank" rel="noopener noreferrer" title=format!("{}: its source ({})", p.title, p.as_of)
                                aria-label=format!("{}'s source", p.title)>"↗"</a>
                        </th>
                        {nothing}{cells}
                        <td class="listing" data-testid=format!("listing-{key}")>{listing}</td>
                    </tr>
                })
            }).collect_view();
            view! {
                <tr class="group"><th scope="colgroup" colspan=span.clone()>{*group}</th></tr>
                {members}
            }
        })
        .collect_view()
}

/// "412 of 8,000 characters" with what the client cuts.
fn listing_cell(l: &skillpg_report::ListingJson) -> String {
    let (cut, left_out) = (l.cut(), l.left_out());
    let n = |v: usize| skillpg_core::diagnostic::thousands(v as u64);
    let text = match l.budget {
        None => format!("{} chars, no documented budget", n(l.whole)),
        Some(b) if l.whole <= b => format!("{} of {} {}", n(l.whole), n(b), l.unit),
        Some(b) => {
            let mut text = format!("{} of {} {}: over", n(l.whole), n(b), l.unit);
            if cut > 0 {
                text.push_str(&format!(", {cut} cut"));
            }
            if left_out > 0 {
                text.push_str(&format!(", {left_out} left out"));
            }
            text
        }
    };
    // Skills the person's skillOverrides keep out are not the budget's doing: said apart.
    match l.turned_off() {
        0 => text,
        n => format!("{text}; {n} turned off"),
    }
}

/// One skill under one client.
#[component]
fn Cell(
    key: &'static str,
    index: usize,
    cell: skillpg_report::ClientCellJson,
    #[prop(into)] selected: Signal<bool>,
) -> impl IntoView {
    let c = ctx();
    let id = format!("reason-{key}-{index}");
    let verdict = if cell.loads { "loads" } else { "fails" };
    let mark = if cell.loads { "✓" } else { "✗" };
    let label = format!("{}: {verdict} in {key}", cell.name);
    let reason = cell.reason.map(|d| {
        let href = format!("#rule-{}", d.rule);
        view! {
            <span class="reason" role="tooltip" id=id.clone()>
                <code>{d.code.clone()}</code>" "{d.message.clone()}" "<a href=href>"the rule"</a>
            </span>
        }
    });
    let described = (!cell.loads).then(|| id.clone());
    view! {
        <td class="cell" class:bad={!cell.loads} class:selected=move || selected.get() data-testid=format!("cell-{key}-{index}")>
            <button class="verdict-button" aria-label=label aria-describedby=described
                on:click=move |_| c.state.update(|s| { s.selected = index; s.profile = key.to_owned(); })>
                <span aria-hidden="true">{mark}" "</span><span class="verdict">{verdict}</span>
            </button>
            {reason}
        </td>
    }
}

/// The "installed together" switch, the context window the listing budgets assume, and what
/// the catalog rules say about the loaded skills as one catalog, once for the catalog.
#[component]
pub fn CatalogFindings() -> impl IntoView {
    let c = ctx();
    view! {
        <div class="catalog-findings" data-testid="catalog-findings">
            <label>
                <input type="checkbox" data-testid="installed-together"
                    prop:checked=c.slice(|s| s.together())
                    on:change=move |ev| { let on = event_target_checked(&ev); c.state.update(|s| s.installed_together = Some(on)); }/>
                " Installed together (check the loaded skills as one catalog)"
            </label>
            // The settings the catalog's findings follow, folded: the first screen says what the
            // page does, not every knob (a summary names the values in force).
            <details class="catalog-settings" data-testid="catalog-settings">
                <summary>{move || settings_summary(c)}</summary>
                <label>
                    "Context window "
                    <input type="number" data-testid="context-window" inputmode="numeric"
                        min=*crate::state::CONTEXT_WINDOW_RANGE.start() max=*crate::state::CONTEXT_WINDOW_RANGE.end() step="1000"
                        prop:value=c.slice(|s| s.window().to_string())
                        on:change=move |ev| {
                            if let Ok(w) = event_target_value(&ev).trim().parse::<usize>() {
                                let range = crate::state::CONTEXT_WINDOW_RANGE;
                                c.state.update(|s| s.context_window = Some(w.clamp(*range.start(), *range.end())));
                            }
                        }/>
                    " tokens"
                </label>
                " "
                <ClaudeListingSettings/>
            </details>
            <ul>
                {move || {
                    let catalog = c.catalog.with(|k| k.catalog.clone());
                    let profile = c.state.with(|s| s.profile.clone());
                    catalog.iter().filter(|(p, _)| p.key == profile).flat_map(|(_, d)| d.clone()).map(|d| view! {
                        <li class=format!("sev-{}", d.severity.as_str()) data-testid="catalog-finding"><code>{d.code}</code>" "{d.message}</li>
                    }).collect_view()
                }}
            </ul>
        </div>
    }
}

/// The catalog settings' summary line: the window, and whether Claude Code's listing settings
/// are its defaults.
fn settings_summary(c: crate::components::Ctx) -> String {
    c.state.with(|s| {
        let window = skillpg_core::diagnostic::thousands(s.window() as u64);
        let claude = if s.listing.max_desc_chars.is_none()
            && s.listing.budget_fraction.is_none()
            && s.listing.overrides.is_empty()
        {
            "Claude Code's defaults"
        } else {
            "Claude Code's listing set"
        };
        format!("Settings: a {window}-token window, {claude}")
    })
}

/// Claude Code's listing settings (`skillListingMaxDescChars`, `skillListingBudgetFraction` in
/// its `settings.json`), which its Listing cell and catalog finding follow; empty is the
/// client's default (1,536 characters, 1% of the window). `skillpg listing --max-desc-chars N
/// --budget-fraction F` takes the same.
#[component]
fn ClaudeListingSettings() -> impl IntoView {
    let c = ctx();
    let show = |v: Option<String>| v.unwrap_or_default();
    view! {
        <span class="listing-settings" data-testid="listing-settings">
            "Claude Code's listing: "
            <label>
                "description cap "
                <input type="number" data-testid="max-desc-chars" inputmode="numeric" min="1"
                    max=crate::state::ListingPrefs::MAX_DESC_CHARS placeholder="1536"
                    prop:value=move || show(c.state.with(|s| s.listing.max_desc_chars.map(|n| n.to_string())))
                    on:change=move |ev| {
                        let value = event_target_value(&ev).trim().parse::<usize>().ok();
                        c.state.update(|s| s.listing = crate::state::ListingPrefs { max_desc_chars: value, ..s.listing.clone() }.clamped());
                    }/>
                " characters"
            </label>
            ", "
            <label>
                "share of the window "
                <input type="number" data-testid="budget-percent" inputmode="decimal" min="0.1" max="100" step="0.1"
                    placeholder="1"
                    prop:value=move || show(c.state.with(|s| s.listing.budget_fraction.map(|f| format!("{}", (f * 1000.0).round() / 10.0))))
                    on:change=move |ev| {
                        let value = event_target_value(&ev).trim().parse::<f64>().ok().map(|p| p / 100.0);
                        c.state.update(|s| s.listing = crate::state::ListingPrefs { budget_fraction: value, ..s.listing.clone() }.clamped());
                    }/>
                " %"
            </label>
            <SkillOverrides/>
        </span>
    }
}

/// Claude Code's `skillOverrides`, one state per loaded skill (`on`, `name-only`,
/// `user-invocable-only`, `off`): what its Listing cell and catalog finding then count.
/// `skillpg listing --skill-override NAME=STATE` takes the same.
#[component]
fn SkillOverrides() -> impl IntoView {
    use skillpg_core::catalog::SkillOverride;
    let c = ctx();
    let dirs = move || {
        c.state.with(|s| {
            s.skills
                .iter()
                .map(|k| k.dir_name.clone())
                .collect::<Vec<_>>()
        })
    };
    view! {
        <details class="skill-overrides" data-testid="skill-overrides">
            <summary>"skillOverrides (per skill)"</summary>
            <ul>
                {move || dirs().into_iter().map(|dir| {
                    let for_select = dir.clone();
                    let for_value = dir.clone();
                    view! {
                        <li>
                            <label>
                                <code>{dir.clone()}</code>" "
                                <select data-testid=format!("skill-override-{dir}")
                                    prop:value=move || c.state.with(|s| s.listing.override_of(&for_value).as_str().to_owned())
                                    on:change=move |ev| {
                                        let state = SkillOverride::parse(&event_target_value(&ev)).unwrap_or_default();
                                        c.state.update(|s| s.listing.set_override(&for_select, state));
                                    }>
                                    {SkillOverride::ALL.into_iter().map(|o| view! { <option value=o.as_str()>{o.as_str()}</option> }).collect_view()}
                                </select>
                            </label>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </details>
    }
}

/// The text a diagnostic points into.
fn file_text(a: &skillpg_core::Analysis, file: &str) -> Option<String> {
    if Some(file) == a.skill_md_path.as_deref() {
        return a.doc.as_ref().map(|d| d.text.clone());
    }
    a.file(file).and_then(|f| f.text.text().map(str::to_owned))
}

/// The findings of the chosen profile.
#[component]
pub fn DiagnosticsPanel() -> impl IntoView {
    let c = ctx();
    let items = move || {
        let computed = c.computed.get();
        let (selected, profile) = c.state.with(|s| (s.selected, s.profile.clone()));
        let Some(a) = computed.analyses.get(selected).cloned() else {
            return Vec::new();
        };
        let diags = computed
            .checks
            .iter()
            .find(|(p, _)| p.key == profile)
            .and_then(|(_, d)| d.get(selected).cloned())
            .unwrap_or_default();
        let mut files: Vec<String> = diags.iter().map(|d| d.file.clone()).collect();
        files.dedup();
        let mut seen = Vec::new();
        files.retain(|f| {
            if seen.contains(f) {
                false
            } else {
                seen.push(f.clone());
                true
            }
        });
        files
            .into_iter()
            .map(|f| {
                let in_file: Vec<Diagnostic> =
                    diags.iter().filter(|d| d.file == f).cloned().collect();
                (f.clone(), file_text(&a, &f), in_file)
            })
            .collect::<Vec<_>>()
    };
    view! {
        <div class="diagnostics" data-testid="diagnostics" aria-live="polite">
            <p class="profile-line" data-testid="profile-line">{move || c.state.with(|s| format!("Findings under {}:", skillpg_core::profile::Profile::by_key(&s.profile).map_or(s.profile.as_str(), |p| p.title)))}</p>
            {move || {
                let groups = items();
                if groups.is_empty() {
                    return view! { <p class="clean" data-testid="no-findings">"No findings."</p> }.into_any();
                }
                groups.into_iter().map(|(file, text, diags)| {
                    let title = if file.is_empty() { "(the folder)".to_owned() } else { file.clone() };
                    view! {
                        <div class="file-group">
                            <h3>{title}</h3>
                            <ul>{diags.into_iter().map(|d| { let excerpt = text.as_deref().and_then(|t| excerpt(t, &d)); view! { <DiagnosticItem d=d excerpt=excerpt/> } }).collect_view()}</ul>
                        </div>
                    }
                }).collect_view().into_any()
            }}
        </div>
    }
}

/// A finding's source line, cut around its span: the line's number, the text before the span,
/// the span, and the text after. Found from the span outward (the line's two ends), so that a
/// file with thousands of findings costs each one its line, not the file: a line index and a
/// copy of the text for each finding made a 5 MB SKILL.md with many findings quadratic.
type Excerpt = (usize, String, String, String);

fn excerpt(text: &str, d: &Diagnostic) -> Option<Excerpt> {
    let (span, loc) = (d.span.as_ref()?, d.location?);
    let at = span.start.min(text.len());
    let before = text.get(..at)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line_end = if text[line_start..line_end].ends_with('\r') {
        line_end - 1
    } else {
        line_end
    };
    let start = at.clamp(line_start, line_end);
    let end = span.end.clamp(start, line_end);
    Some((
        loc.line,
        text.get(line_start..start)?.to_owned(),
        text.get(start..end)?.to_owned(),
        text.get(end..line_end)?.to_owned(),
    ))
}

/// One finding.
#[component]
fn DiagnosticItem(d: Diagnostic, excerpt: Option<Excerpt>) -> impl IntoView {
    let c = ctx();
    let sev = d.severity.as_str();
    let fix = d.fix.clone();
    let file = d.file.clone();
    let preview = RwSignal::new(false);
    let rule_anchor = skillpg_core::rules::all_rules()
        .iter()
        .find(|r| r.name == d.rule)
        .map(|r| r.summary.to_owned())
        .unwrap_or_default();
    view! {
        <li class=format!("diagnostic {sev}") data-testid="diagnostic" data-code=d.code>
            <p>
                <span class="sev" aria-label=format!("severity {sev}")>{sev}</span>
                " "
                <a class="code" href=format!("#rule-{}", d.rule) title=format!("{}: the rule in the reference", d.rule)><code>{d.code}</code></a>
                " "
                <span class="msg">{d.message.clone()}</span>
            </p>
            {excerpt.map(|(line, before, marked, after)| view! {
                <pre class="excerpt" data-testid="excerpt"><span class="ln">{format!("{line:>4} | ")}</span>{before}<mark>{if marked.is_empty() { " ".to_owned() } else { marked }}</mark>{after}</pre>
            })}
            <p class="source">
                "Rule " <code>{d.rule}</code> ". Source: "
                <a href=d.source.url target="_blank" rel="noopener noreferrer">{d.source.title}</a>
            </p>
            <details class="rule-doc" data-testid="rule-doc">
                <summary>{format!("Explain {} ({})", d.code, d.rule)}</summary>
                <RuleDoc markdown=skillpg_core::rules::rule_doc(d.rule).map(str::to_owned).unwrap_or(rule_anchor)/>
            </details>
            {fix.map(|fix| {
                let safe = fix.applicability == Applicability::Safe;
                let title = fix.title.clone();
                let fix_for_apply = fix.clone();
                let fix_for_preview = fix.clone();
                let file_for_preview = file.clone();
                view! {
                    <div class="fix">
                        <button data-testid="apply-fix" on:click=move |_| {
                            let fix = fix_for_apply.clone();
                            let done = c.state.try_update(|s| crate::state::apply_fix_to_file(s, &file, &fix));
                            c.status.set(match done {
                                Some(Err(why)) => why,
                                _ => format!("Applied: {}", fix_for_apply.title),
                            });
                        }>{if safe { format!("Apply the fix: {title}") } else { format!("Apply the fix: {title} (review: changes what the skill says)") }}</button>
                        <button class="link" aria-expanded=move || preview.get().to_string() on:click=move |_| preview.update(|p| *p = !*p)>"Preview the change"</button>
                        <Show when=move || preview.get()>
                            <pre class="diff" data-testid="fix-preview">{
                                let c = ctx();
                                let fix = fix_for_preview.clone();
                                let file = file_for_preview.clone();
                                move || {
                                    let before = c.state.with(|s| s.skills.get(s.selected).and_then(|k| k.files.iter().find(|(p, _)| *p == file)).map(|(_, b)| String::from_utf8_lossy(b).into_owned())).unwrap_or_default();
                                    skillpg_core::fix::unified_diff(&before, &skillpg_core::fix::apply_one(&before, &fix), &file)
                                }
                            }</pre>
                        </Show>
                    </div>
                }
            })}
        </li>
    }
}

/// Every rule with its code, default severity and documentation: the reference a teacher can
/// walk through.
#[component]
pub fn RulesReference() -> impl IntoView {
    let mut rules = skillpg_core::rules::all_rules();
    rules.sort_by_key(|r| r.code);
    let query = RwSignal::new(String::new());
    // A rule shows when every word of the query is in its code, name or summary.
    let matches = move |code: &str, name: &str, summary: &str| {
        let q = query.get().to_lowercase();
        let hay = format!("{code} {name} {} {summary}", name.replace('_', " ")).to_lowercase();
        q.split_whitespace().all(|w| hay.contains(w))
    };
    let total = rules.len();
    let shown = {
        let rules = rules.clone();
        move || {
            rules
                .iter()
                .filter(|r| matches(r.code, r.name, r.summary))
                .count()
        }
    };
    view! {
        <div class="rules-reference" data-testid="rules-reference">
            <label class="rule-search">"Search the rules "
                <input type="search" data-testid="rule-search" placeholder="code, name or words: SPG038, name, budget…" prop:value=move || query.get()
                    on:input=move |ev| query.set(event_target_value(&ev))/>
            </label>
            <p class="hint" aria-live="polite" data-testid="rule-count">{move || format!("{} of {total} rules", shown())}</p>
            {rules.into_iter().map(|r| {
                let (code, name, summary) = (r.code, r.name, r.summary);
                view! {
                    <details id=format!("rule-{}", r.name) data-testid="rule" hidden=move || !matches(code, name, summary)>
                        <summary><code>{r.code}</code>" "{r.name}" ("{r.default_severity.as_str()}"): "{r.summary}</summary>
                        <RuleDoc markdown=skillpg_core::rules::rule_doc(r.name).unwrap_or(r.summary).to_owned()/>
                        <p class="source">"Source: "<a href=r.source.url target="_blank" rel="noopener noreferrer">{r.source.title}</a></p>
                    </details>
                }
            }).collect_view()}
        </div>
    }
}

/// A rule's documentation as structured text: every string reaches the DOM as text.
#[component]
fn RuleDoc(markdown: String) -> impl IntoView {
    use crate::markdown::{Block, Inline, blocks};
    let inline = |runs: Vec<Inline>| {
        runs.into_iter()
            .map(|r| match r {
                Inline::Text(t) => view! { <span>{t}</span> }.into_any(),
                Inline::Code(c) => view! { <code>{c}</code> }.into_any(),
            })
            .collect_view()
    };
    view! {
        <div class="rule-doc-body" data-testid="rule-doc-body">
            {blocks(&markdown).into_iter().map(|b| match b {
                Block::Heading { runs } => view! { <h4>{inline(runs)}</h4> }.into_any(),
                Block::Paragraph { runs } => view! { <p>{inline(runs)}</p> }.into_any(),
                Block::List { items } => view! { <ul>{items.into_iter().map(|runs| view! { <li>{inline(runs)}</li> }).collect_view()}</ul> }.into_any(),
                Block::Code { code } => view! { <pre><code>{code}</code></pre> }.into_any(),
                Block::Table { head, rows } => view! {
                    <table>
                        <thead><tr>{head.into_iter().map(|cell| view! { <th>{inline(cell)}</th> }).collect_view()}</tr></thead>
                        <tbody>{rows.into_iter().map(|r| view! { <tr>{r.into_iter().map(|cell| view! { <td>{inline(cell)}</td> }).collect_view()}</tr> }).collect_view()}</tbody>
                    </table>
                }.into_any(),
            }).collect_view()}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_is_the_findings_line_cut_around_its_span() {
        let text = "---\r\nname: Bad Name\r\n---\nbody\n";
        let start = text.find("Bad").expect("in the text");
        let d = Diagnostic {
            code: "SPG036",
            rule: "name-not-lowercase",
            severity: skillpg_core::Severity::Error,
            message: String::new(),
            file: "SKILL.md".into(),
            span: Some(start..start + 8),
            location: Some(skillpg_core::diagnostic::LineCol { line: 2, column: 7 }),
            fix: None,
            source: skillpg_core::diagnostic::sources::SPEC,
        };
        assert_eq!(
            excerpt(text, &d),
            Some((2, "name: ".into(), "Bad Name".into(), String::new()))
        );
        // A span past the text's end, or not on a character boundary, gives no excerpt rather
        // than a panic.
        let mut past = d.clone();
        past.span = Some(text.len() + 5..text.len() + 9);
        assert!(excerpt(text, &past).is_some_and(|e| e.2.is_empty()));
        let mut split = d;
        split.span = Some(1..2);
        assert!(excerpt("é", &split).is_none());
    }
}
