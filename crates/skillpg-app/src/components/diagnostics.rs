//! The verdicts of the four profiles side by side, and the findings of the chosen one: grouped
//! by file, with the source line and its span marked, the rule's source, and one-click fixes
//! with a diff preview.

use leptos::prelude::*;
use skillpg_core::{Applicability, Diagnostic, LineIndex, Severity};

use super::ctx;

/// One row per profile: will the skill load there?
#[component]
pub fn VerdictTable() -> impl IntoView {
    let c = ctx();
    view! {
        <table class="verdicts" data-testid="verdicts">
            <caption>"The selected skill under each product's rules"</caption>
            <thead><tr><th scope="col">"Profile"</th><th scope="col">"Verdict"</th><th scope="col">"Errors"</th><th scope="col">"Warnings"</th><th scope="col" class="as-of">"As of"</th></tr></thead>
            <tbody>
                {move || {
                    let computed = c.computed.get();
                    let (selected, current) = c.state.with(|s| (s.selected, s.profile.clone()));
                    computed.checks.iter().map(|(p, per_skill)| {
                        // Nothing loaded, nothing to judge: no verdict rather than "loads".
                        let diags = per_skill.get(selected).cloned();
                        let errors = diags.as_ref().map(|d| d.iter().filter(|d| d.severity == Severity::Error).count());
                        let warnings = diags.as_ref().map(|d| d.iter().filter(|d| d.severity == Severity::Warning).count());
                        let verdict = match errors {
                            None => "no skill loaded",
                            Some(0) => "loads",
                            Some(_) => "fails",
                        };
                        let show = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_else(|| "–".to_owned());
                        let key = p.key;
                        view! {
                            <tr class:current={current == key} data-testid=format!("verdict-{key}")>
                                <th scope="row"><button on:click=move |_| c.state.update(|s| s.profile = key.to_owned())>{p.title}</button></th>
                                <td class:bad={errors.is_some_and(|e| e > 0)}>{verdict}</td>
                                <td>{show(errors)}</td>
                                <td>{show(warnings)}</td>
                                <td class="as-of">{p.as_of}</td>
                            </tr>
                        }
                    }).collect_view()
                }}
            </tbody>
        </table>
        <CatalogFindings/>
    }
}

/// The "installed together" switch and what the catalog rules say about the loaded skills as
/// one catalog (Claude Code's listing budget), once for the catalog.
#[component]
fn CatalogFindings() -> impl IntoView {
    let c = ctx();
    view! {
        <div class="catalog-findings" data-testid="catalog-findings">
            <label>
                <input type="checkbox" data-testid="installed-together"
                    prop:checked=move || c.state.with(|s| s.together())
                    on:change=move |ev| { let on = event_target_checked(&ev); c.state.update(|s| s.installed_together = Some(on)); }/>
                " Installed together (check the loaded skills as one catalog)"
            </label>
            <ul>
                {move || {
                    let computed = c.computed.get();
                    let profile = c.state.with(|s| s.profile.clone());
                    computed.catalog.iter().filter(|(p, _)| p.key == profile).flat_map(|(_, d)| d.clone()).map(|d| view! {
                        <li class=format!("sev-{}", d.severity.as_str()) data-testid="catalog-finding"><code>{d.code}</code>" "{d.message}</li>
                    }).collect_view()
                }}
            </ul>
        </div>
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
        let Some(a) = computed.analyses.get(selected).cloned() else { return Vec::new() };
        let diags = computed.checks.iter().find(|(p, _)| p.key == profile).and_then(|(_, d)| d.get(selected).cloned()).unwrap_or_default();
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
                let in_file: Vec<Diagnostic> = diags.iter().filter(|d| d.file == f).cloned().collect();
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
                            <ul>{diags.into_iter().map(|d| view! { <DiagnosticItem d=d text=text.clone()/> }).collect_view()}</ul>
                        </div>
                    }
                }).collect_view().into_any()
            }}
        </div>
    }
}

/// One finding.
#[component]
fn DiagnosticItem(d: Diagnostic, text: Option<String>) -> impl IntoView {
    let c = ctx();
    let sev = d.severity.as_str();
    let excerpt = match (&text, &d.span, d.location) {
        (Some(text), Some(span), Some(loc)) => {
            let index = LineIndex::new(text);
            let range = index.line_range(text, loc.line);
            let start = span.start.clamp(range.start, range.end);
            let end = span.end.clamp(start, range.end);
            Some((loc.line, text[range.start..start].to_owned(), text[start..end].to_owned(), text[end..range.end].to_owned()))
        }
        _ => None,
    };
    let fix = d.fix.clone();
    let file = d.file.clone();
    let preview = RwSignal::new(false);
    let rule_anchor = skillpg_core::rules::all_rules().iter().find(|r| r.name == d.rule).map(|r| r.summary.to_owned()).unwrap_or_default();
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
                            c.state.update(|s| {
                                let selected = s.selected;
                                if let Some(skill) = s.skills.get_mut(selected)
                                    && let Some(f) = skill.files.iter_mut().find(|(p, _)| *p == file) {
                                        let text = String::from_utf8_lossy(&f.1).into_owned();
                                        let fixed = skillpg_core::fix::apply_one(&text, &fix);
                                        f.1 = fixed.into_bytes();
                                    }
                            });
                            c.status.set(format!("Applied: {}", fix_for_apply.title));
                        }>{format!("{} fix: {title}", if safe { "Apply safe" } else { "Apply unsafe" })}</button>
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
        move || rules.iter().filter(|r| matches(r.code, r.name, r.summary)).count()
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
                Block::Heading(runs) => view! { <h4>{inline(runs)}</h4> }.into_any(),
                Block::Paragraph(runs) => view! { <p>{inline(runs)}</p> }.into_any(),
                Block::List(items) => view! { <ul>{items.into_iter().map(|runs| view! { <li>{inline(runs)}</li> }).collect_view()}</ul> }.into_any(),
                Block::Code(code) => view! { <pre><code>{code}</code></pre> }.into_any(),
            }).collect_view()}
        </div>
    }
}
