//! The token view: any file's text cut into its o200k_base tokens, as alternating segments that
//! never split a grapheme, with the ids on hover and on keyboard focus.

use leptos::prelude::*;

use super::{ctx, n};

/// The most segments drawn at once; past it the view says how many more there are.
const MAX_SEGMENTS: usize = 6_000;
/// Only this much of a file (cut at a piece boundary) is split into segments: enough for
/// `MAX_SEGMENTS` of ordinary text.
const PREFIX_BYTES: usize = 48 * 1024;

/// Makes whitespace visible: `·` for spaces, `→` for tabs, `↵` before line breaks.
fn show_whitespace(text: &str) -> String {
    text.replace(' ', "·")
        .replace('\t', "→")
        .replace('\n', "↵\n")
}

/// Keyboard inside the token view: the view is one tab stop (a roving tabindex), and the arrow
/// keys, Home and End move between tokens.
fn move_between_tokens(ev: leptos::ev::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let Some(current) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let Some(parent) = current.parent_element() else {
        return;
    };
    let next = match ev.key().as_str() {
        "ArrowRight" | "ArrowDown" => current.next_element_sibling(),
        "ArrowLeft" | "ArrowUp" => current.previous_element_sibling(),
        "Home" => parent.first_element_child(),
        "End" => parent.last_element_child(),
        _ => return,
    };
    ev.prevent_default();
    let Some(next) = next else { return };
    let _ = current.set_attribute("tabindex", "-1");
    let _ = next.set_attribute("tabindex", "0");
    if let Ok(el) = next.dyn_into::<web_sys::HtmlElement>() {
        let _ = el.focus();
    }
}

/// The token view of the selected file.
#[component]
pub fn TokenView() -> impl IntoView {
    let c = ctx();
    let whitespace = RwSignal::new(false);
    let file_names = move || {
        c.state.with(|s| {
            s.skills
                .get(s.selected)
                .map(|k| k.files.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    };
    let current = move || c.state.with(|s| s.selected_file.clone());
    let text = move || {
        c.state.with(|s| {
            let skill = s.skills.get(s.selected)?;
            let (_, bytes) = skill.files.iter().find(|(p, _)| *p == s.selected_file)?;
            // SKILL.md is text whatever it holds, as the engine and every loader read it.
            let decoded = if s.selected_file.eq_ignore_ascii_case("SKILL.md") {
                skillpg_core::FileText::decode_text(bytes)
            } else {
                skillpg_core::FileText::decode(bytes)
            };
            match decoded {
                skillpg_core::FileText::Binary => None,
                other => other.text().map(str::to_owned),
            }
        })
    };
    // What the view draws, recomputed only when it changes: the total comes from the cached
    // count, and only a prefix cut at a piece boundary is split into segments, so typing in a
    // long file does not re-tokenize it all or rebuild the spans.
    // Only while the Tokens view is shown: hidden, it keeps what it last drew and reads nothing,
    // so a keystroke elsewhere does not decode, count and draw the file's tokens again.
    let shown = Memo::new(move |last: Option<&Option<(String, usize, usize)>>| {
        if c.view.get() != crate::state::View::Tokens {
            return last.cloned().flatten();
        }
        text().map(|t| {
            let total = skillpg_tokens::count_cached(&t);
            let n_chars = t.chars().count();
            (
                skillpg_tokens::prefix_at_piece_boundary(&t, PREFIX_BYTES).to_owned(),
                total,
                n_chars,
            )
        })
    });
    view! {
        <div class="token-view">
            <div class="controls">
                <label for="token-file">"File"</label>
                <select id="token-file" data-testid="token-file" on:change=move |ev| { let v = event_target_value(&ev); c.state.update(|s| s.selected_file = v); }>
                    {move || file_names().into_iter().map(|f| { let selected = f == current(); view! { <option value=f.clone() selected=selected>{f.clone()}</option> } }).collect_view()}
                </select>
                <label><input type="checkbox" data-testid="whitespace-toggle" prop:checked=move || whitespace.get() on:change=move |_| whitespace.update(|w| *w = !*w)/>" Show whitespace"</label>
            </div>
            {move || match shown.get() {
                None => view! { <p data-testid="token-binary">"Binary file (or none selected): counted as 0 tokens."</p> }.into_any(),
                Some((text, n_tokens, n_chars)) => {
                    let segments = skillpg_tokens::segments(&text);
                    let n_prefix_tokens: usize = segments.iter().map(|s| s.ids.len()).sum();
                    let shown = segments.len().min(MAX_SEGMENTS);
                    let cut = shown < segments.len() || n_prefix_tokens < n_tokens;
                    let ws = whitespace.get();
                    view! {
                        <p data-testid="token-count">{format!("{} tokens, {} characters (o200k_base).", n(n_tokens), n(n_chars))}
                            {cut.then(|| format!(" Showing the first {} segments.", n(shown)))}</p>
                        <div class="tokens" data-testid="tokens" role="list" aria-label="Tokens: arrow keys move from token to token" on:keydown=move_between_tokens>
                            {segments.into_iter().take(shown).enumerate().map(|(i, seg)| {
                                let piece = &text[seg.start..seg.end];
                                let ids = seg.ids.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
                                let shown_text = if ws { show_whitespace(piece) } else { piece.to_owned() };
                                view! {
                                    <span class=if i % 2 == 0 { "tok even" } else { "tok odd" } role="listitem" tabindex=if i == 0 { "0" } else { "-1" }
                                        title=format!("token {}: id {ids}", i + 1) aria-label=format!("token {}: {piece:?}, id {ids}", i + 1)
                                        data-ids=ids.clone()>{shown_text}</span>
                                }
                            }).collect_view()}
                        </div>
                    }.into_any()
                }
            }}
        </div>
    }
}
