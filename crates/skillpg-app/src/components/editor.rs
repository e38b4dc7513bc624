//! The SKILL.md editor and the folder name beside it, with the findings of the chosen profile
//! shown under it as you type.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::ctx;
use crate::state;

/// The editor of the selected skill.
#[component]
pub fn Editor() -> impl IntoView {
    let c = ctx();
    // SKILL.md decoded as the engine reads it, and why it is read-only (not UTF-8), if it is.
    let shown = Memo::new(move |_| {
        c.state
            .with(|s| s.skills.get(s.selected).and_then(|k| k.skill_md_shown()))
    });
    let text = move || shown.with(|s| s.as_ref().map(|(t, _)| t.clone()).unwrap_or_default());
    let not_utf8 = move || shown.with(|s| s.as_ref().and_then(|(_, why)| *why));
    let has_skill = move || c.state.with(|s| !s.skills.is_empty());
    let area = NodeRef::<leptos::html::Textarea>::new();
    // What the textarea holds as typed (see `write_back_when_changed`).
    let typed = StoredValue::new(String::new());
    write_back_when_changed(area, text, typed);
    // The one way an edit reaches the state: refused past the editor's limit (the earlier text
    // stays, in the state and in the textarea, and the status says why), else stored as SKILL.md.
    let refused = move |new_bytes: usize| -> bool {
        let others = c.state.with_untracked(|s| {
            s.skills
                .get(s.selected)
                .map(|k| k.other_files_bytes())
                .unwrap_or(0)
        });
        let why = state::editor_refusal(new_bytes, others);
        let refused = why.is_some();
        if let Some(why) = why {
            c.status.set(why);
        }
        refused
    };
    let store = move |value: String| {
        typed.set_value(value.clone());
        c.state.update(|s| {
            if let Some(k) = s.skills.get_mut(s.selected) {
                k.set_skill_md(&value);
            }
        });
    };
    let accept = move |value: String| -> bool {
        if refused(value.len()) {
            return false;
        }
        store(value);
        true
    };
    // A large or many-line insert (a paste, a drop, an input method's text) is spliced in here,
    // in one linear step, instead of by the browser's editing (see `state::editor_splices`).
    let splice = move |ev: &web_sys::Event, inserted: String| {
        let Some(el) = area.get() else { return };
        if !state::editor_splices(&inserted) || el.read_only() {
            return;
        }
        ev.prevent_default();
        let (start, end) = (
            el.selection_start().ok().flatten().unwrap_or(0),
            el.selection_end().ok().flatten().unwrap_or(0),
        );
        let (next, caret) = state::splice_selection(&el.value(), start, end, &inserted);
        // Checked before the textarea changes: a refused paste leaves it as it was.
        if refused(next.len()) {
            return;
        }
        // The value is assigned, not spliced with `setRangeText`: after `setRangeText` of 5 MB,
        // Chromium took minutes to select all (Ctrl+A); after an assignment, 2 s.
        el.set_value(&next);
        let _ = el.set_selection_range(caret, caret);
        store(next);
    };
    let convert = move |_| {
        if let Some((decoded, _)) = shown.get_untracked() {
            // The byte order mark goes with the encoding it marked.
            accept(decoded.trim_start_matches('\u{feff}').to_owned());
        }
    };

    view! {
        <Show when=has_skill fallback=|| view! {
            <div class="empty-state" data-testid="empty-state">
                <p><strong>"No skill loaded."</strong></p>
                <p>"Drop a skill's folder (or a folder of skills, or a .zip) anywhere on this page, or use the buttons above: pick a folder, pick files, paste an address, or try a sample."</p>
                <p>"A SKILL.md alone is checked too, but the checks that need its folder (its name, the files it links to) wait for the folder."</p>
                <p>"Everything stays in this browser: nothing is uploaded."</p>
            </div>
        }>
            <FolderName/>
            {move || not_utf8().map(|why| view! {
                <p class="note" role="note" data-testid="editor-encoding">
                    {format!("This SKILL.md is {why}: loaders read SKILL.md as UTF-8 and refuse it as it is, so it is shown decoded and read-only. ")}
                    <button data-testid="editor-to-utf8" on:click=convert>"Save it as UTF-8"</button>
                </p>
            })}
            <label for="skill-md" class="visually-hidden">"SKILL.md text"</label>
            <textarea id="skill-md" data-testid="editor" node_ref=area spellcheck="false" rows="22"
                prop:readOnly=move || not_utf8().is_some()
                on:paste=move |ev: web_sys::ClipboardEvent| {
                    if let Some(inserted) = ev.clipboard_data().and_then(|d| d.get_data("text/plain").ok()) {
                        splice(&ev, inserted);
                    }
                }
                on:beforeinput=move |ev: web_sys::InputEvent| {
                    let inserted = ev.data().or_else(|| ev.data_transfer().and_then(|d| d.get_data("text/plain").ok()));
                    if let Some(inserted) = inserted.filter(|_| ev.cancelable()) {
                        splice(&ev, inserted);
                    }
                }
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    if !accept(value) {
                        // Typed past the limit: the browser already changed the textarea.
                        if let Some(el) = area.get() {
                            typed.with_value(|t| el.set_value(t));
                        }
                    }
                }></textarea>
            <InlineFindings area=area/>
        </Show>
    }
}

/// Where the findings are in SKILL.md, as buttons that select them in `area`; their messages
/// are in the findings list (Check), once.
#[component]
fn InlineFindings(area: NodeRef<leptos::html::Textarea>) -> impl IntoView {
    let c = ctx();
    let findings = move || {
        let computed = c.computed.get();
        let (selected, profile) = c.state.with(|s| (s.selected, s.profile.clone()));
        let Some((_, per_skill)) = computed.checks.iter().find(|(p, _)| p.key == profile) else {
            return Vec::new();
        };
        per_skill
            .get(selected)
            .map(|d| {
                d.iter()
                    .filter(|d| d.file == "SKILL.md" && d.location.is_some())
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    view! {
        <ul class="inline-findings" data-testid="inline-findings" aria-label="Jump to a finding in SKILL.md">
            {move || findings().into_iter().map(|d: skillpg_core::Diagnostic| {
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
    }
}

/// Writes the state's text into the textarea only when it differs from what was typed
/// (`typed`): a fix, a sample, a load. Writing 5 MB back on every keystroke made the browser lay
/// the whole text out again, seconds per key.
fn write_back_when_changed(
    area: NodeRef<leptos::html::Textarea>,
    text: impl Fn() -> String + 'static,
    typed: StoredValue<String>,
) {
    Effect::new(move |_| {
        let value = text();
        let Some(el) = area.get() else { return };
        // A textarea mounted anew (after "Clear all") is empty while `typed` remembers the old
        // text: its length tells (UTF-16 units, as the DOM counts).
        let stale = typed.with_value(|t| *t != value)
            || el.text_length() as usize != value.encode_utf16().count();
        if stale {
            el.set_value(&value);
            typed.set_value(value);
        }
    });
}

/// The selected skill's folder name (loaders name a skill by it where its frontmatter has none).
#[component]
fn FolderName() -> impl IntoView {
    let c = ctx();
    let dir = move || {
        c.state.with(|s| {
            s.skills
                .get(s.selected)
                .map(|k| k.dir_name.clone())
                .unwrap_or_default()
        })
    };
    view! {
        <div class="field">
            <label for="dir-name">"Folder name"</label>
            <input id="dir-name" data-testid="dir-name" prop:value=dir spellcheck="false"
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    c.state.update(|s| if let Some(k) = s.skills.get_mut(s.selected) { k.dir_name = value; });
                }/>
        </div>
    }
}
