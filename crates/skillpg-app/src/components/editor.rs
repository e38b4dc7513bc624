//! The SKILL.md editor and the folder name beside it, with the findings of the chosen profile
//! shown under it as you type.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::ctx;

/// The editor of the selected skill.
#[component]
pub fn Editor() -> impl IntoView {
    let c = ctx();
    let text = move || c.state.with(|s| s.skills.get(s.selected).and_then(|k| k.skill_md_text()).unwrap_or_default());
    let dir = move || c.state.with(|s| s.skills.get(s.selected).map(|k| k.dir_name.clone()).unwrap_or_default());
    let has_skill = move || c.state.with(|s| !s.skills.is_empty());
    let area = NodeRef::<leptos::html::Textarea>::new();
    // What the textarea holds as typed: the state is written back into it only when it differs
    // (a fix, a sample, a load). Writing 5 MB back on every keystroke made the browser lay the
    // whole text out again, seconds per key.
    let typed = StoredValue::new(String::new());
    Effect::new(move |_| {
        let value = text();
        let Some(el) = area.get() else { return };
        // A textarea mounted anew (after "Clear all") is empty while `typed` remembers the old
        // text: its length tells (UTF-16 units, as the DOM counts).
        let stale = typed.with_value(|t| *t != value) || el.text_length() as usize != value.encode_utf16().count();
        if stale {
            el.set_value(&value);
            typed.set_value(value);
        }
    });

    let findings = move || {
        let computed = c.computed.get();
        let (selected, profile) = c.state.with(|s| (s.selected, s.profile.clone()));
        let Some((_, per_skill)) = computed.checks.iter().find(|(p, _)| p.key == profile) else { return Vec::new() };
        per_skill.get(selected).map(|d| d.iter().filter(|d| d.file == "SKILL.md" && d.location.is_some()).cloned().collect()).unwrap_or_default()
    };

    view! {
        <Show when=has_skill fallback=|| view! { <p>"No skill loaded: drop a folder, pick one, or choose a sample."</p> }>
            <div class="field">
                <label for="dir-name">"Folder name"</label>
                <input id="dir-name" data-testid="dir-name" prop:value=dir spellcheck="false"
                    on:input=move |ev| {
                        let value = event_target_value(&ev);
                        c.state.update(|s| if let Some(k) = s.skills.get_mut(s.selected) { k.dir_name = value; });
                    }/>
            </div>
            <label for="skill-md" class="visually-hidden">"SKILL.md text"</label>
            <textarea id="skill-md" data-testid="editor" node_ref=area spellcheck="false" rows="22"
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    typed.set_value(value.clone());
                    c.state.update(|s| if let Some(k) = s.skills.get_mut(s.selected) { k.set_skill_md(&value); });
                }></textarea>
            // Where the findings are in the text, as buttons that select it; their messages are
            // in the findings list (Check), once.
            <ul class="inline-findings" data-testid="inline-findings" aria-label="Jump to a finding in SKILL.md">
                {move || findings().into_iter().map(|d| {
                    let loc = d.location.unwrap_or_default();
                    let span = d.span.clone().unwrap_or(0..0);
                    let sev = d.severity.as_str();
                    view! {
                        <li class=format!("finding {sev}")>
                            <button class="goto" title=format!("{sev}: {}", d.message) on:click=move |_| {
                                if let Some(el) = area.get() {
                                    let el: web_sys::HtmlTextAreaElement = el.unchecked_into();
                                    let text = el.value();
                                    // The textarea counts UTF-16 units; spans are bytes.
                                    let to_utf16 = |b: usize| text.get(..b.min(text.len())).map(|t| t.encode_utf16().count() as u32).unwrap_or(0);
                                    let _ = el.focus();
                                    let _ = el.set_selection_range(to_utf16(span.start), to_utf16(span.end.max(span.start)));
                                }
                            }>{format!("{}:{} {}", loc.line, loc.column, d.code)}</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </Show>
    }
}
