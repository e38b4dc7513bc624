//! The SKILL.md editor (CodeMirror, through `code_editor`) and the folder name beside it: the
//! chosen client's findings marked where they are, as you type.

use leptos::prelude::*;

use super::ctx;
use crate::code_editor::{self, CodeEditor};
use crate::state;

/// The editor of the selected skill: CodeMirror (`code_editor`), with the chosen client's
/// findings marked where they are, their quick fixes, the engine's hovers, token hints and
/// field completion (`skillpg-ide`, as the language server gives them).
#[component]
pub fn Editor() -> impl IntoView {
    let c = ctx();
    let has_skill = move || c.state.with(|s| !s.skills.is_empty());
    view! {
        <Show when=has_skill fallback=|| view! {
            <div class="empty-state" data-testid="empty-state">
                <p><strong>"No skill loaded."</strong></p>
                <p>"Drop a skill's folder (or a folder of skills, or a .zip) anywhere on this page, or use the buttons above: pick a folder, pick files, paste an address, or try a sample."</p>
                <p>"A SKILL.md alone is checked too, but the checks that need its folder (its name, the files it links to) wait for the folder."</p>
                <p>"Everything stays in this browser: nothing is uploaded."</p>
            </div>
        }>
            <SkillMdEditor/>
        </Show>
    }
}

/// The mounted editor, its findings' fixes and what it last reported.
#[derive(Clone, Copy)]
struct Mounted {
    editor: StoredValue<Option<CodeEditor>, LocalStorage>,
    /// What the editor holds as typed (see `write_back_when_changed`).
    typed: StoredValue<String>,
    /// The quick fixes of the marks now shown, by id, with the text they were made for.
    fixes: StoredValue<(String, Vec<skillpg_ide::Edit>)>,
}

#[component]
fn SkillMdEditor() -> impl IntoView {
    let c = ctx();
    // SKILL.md decoded as the engine reads it, and why it is read-only (not UTF-8), if it is.
    let shown = Memo::new(move |_| {
        c.state
            .with(|s| s.skills.get(s.selected).and_then(|k| k.skill_md_shown()))
    });
    let text = move || shown.with(|s| s.as_ref().map(|(t, _)| t.clone()).unwrap_or_default());
    // The document the editor shows: its undo history is its own (`PageState::document_key`).
    let key = Memo::new(move |_| c.state.with(state::PageState::document_key));
    let not_utf8 = move || shown.with(|s| s.as_ref().and_then(|(_, why)| *why));
    let m = Mounted {
        editor: StoredValue::new_local(None),
        typed: StoredValue::new(String::new()),
        fixes: StoredValue::new((String::new(), Vec::new())),
    };
    let host = NodeRef::<leptos::html::Div>::new();
    // The one way an edit reaches the state: refused past the editor's limit (the earlier text
    // comes back, in the state and in the editor, and the status says why), else stored as
    // SKILL.md.
    let accept = move |value: String| {
        let others = c.state.with_untracked(|s| {
            s.skills
                .get(s.selected)
                .map(|k| k.other_files_bytes())
                .unwrap_or(0)
        });
        if let Some(why) = state::editor_refusal(value.len(), others) {
            c.status.set(why);
            m.typed
                .with_value(|t| m.editor.with_value(|e| e.as_ref().map(|e| e.set_text(t))));
            return;
        }
        m.typed.set_value(value.clone());
        c.state.update(|s| {
            if let Some(k) = s.skills.get_mut(s.selected) {
                k.set_skill_md(&value);
            }
        });
    };
    // A quick fix is an edit like a keystroke: one change of this document's history, which
    // undo takes back and redo applies again.
    let apply_fix = move |id: u32| {
        let current = m.typed.get_value();
        let next = m.fixes.with_value(|(made_for, edits)| {
            let e = edits.get(id as usize).filter(|_| *made_for == current)?;
            let mut next = String::with_capacity(current.len() + e.new_text.len());
            next.push_str(&current[..e.range.start]);
            next.push_str(&e.new_text);
            next.push_str(&current[e.range.end..]);
            Some(next)
        });
        if let Some(next) = next {
            m.editor
                .with_value(|e| e.as_ref().map(|e| e.edit_to(&next)));
        }
    };
    Effect::new(move |_| {
        let Some(el) = host.get() else { return };
        if m.editor.with_value(Option::is_some) || c.editor_loaded.with(|l| l != &Some(Ok(()))) {
            return;
        }
        let initial = untrack(text);
        m.typed.set_value(initial.clone());
        let editor = code_editor::create(
            &el,
            &key.get_untracked(),
            &initial,
            untrack(not_utf8).is_some(),
            code_editor::Callbacks {
                on_change: Box::new(accept),
                on_fix: Box::new(apply_fix),
                on_hover: Box::new(move |pos| hover_at(c, m, pos)),
                on_complete: Box::new(move |pos| complete_at(c, m, pos)),
            },
        );
        m.editor.set_value(Some(editor));
    });
    on_cleanup(move || {
        m.editor.update_value(|e| {
            if let Some(e) = e.take() {
                e.destroy();
            }
        });
    });
    Effect::new(move |_| {
        let read_only = not_utf8().is_some();
        m.editor
            .with_value(|e| e.as_ref().map(|e| e.set_read_only(read_only)));
    });
    show_document_marks_and_hints(c, m, key, text, move || not_utf8().is_some());
    let convert = move |_| {
        if let Some((decoded, _)) = shown.get_untracked() {
            // The byte order mark goes with the encoding it marked.
            accept(decoded.trim_start_matches('\u{feff}').to_owned());
        }
    };

    view! {
        <FolderName/>
        {move || not_utf8().map(|why| view! {
            <p class="note" role="note" data-testid="editor-encoding">
                {format!("This SKILL.md is {why}: loaders read SKILL.md as UTF-8 and refuse it as it is, so it is shown decoded and read-only. ")}
                <button data-testid="editor-to-utf8" on:click=convert>"Save it as UTF-8"</button>
            </p>
        })}
        {move || c.editor_loaded.get().and_then(Result::err).map(|why| view! {
            <p class="note" role="alert" data-testid="editor-failed">{format!("The editor could not load ({why}). Reload the page to try again: your work is kept.")}</p>
        })}
        <div class="code-editor" node_ref=host data-testid="editor-host"></div>
        <p class="muted editor-keys" id="editor-keys" data-testid="editor-keys">"Tab moves on to the next control. Ctrl+M switches Tab to indenting and back; while it indents, Escape then Tab leaves the editor. Ctrl+Z undoes this file's own edits only."</p>
        <InlineFindings m=m/>
    }
}

/// The selected skill's analysis and the chosen client's findings on it.
struct Current {
    analyses: std::sync::Arc<Vec<skillpg_core::Analysis>>,
    selected: usize,
    findings: Vec<(
        &'static skillpg_core::Profile,
        Vec<skillpg_core::Diagnostic>,
    )>,
}

impl Current {
    fn analysis(&self) -> &skillpg_core::Analysis {
        &self.analyses[self.selected]
    }
}

/// The selected skill's analysis and the chosen client's findings on it, when the analysis is
/// of the text the editor holds (not one a keystroke has already overtaken).
fn current_findings(c: super::Ctx, m: Mounted) -> Option<Current> {
    let computed = c.computed.get();
    let (selected, profile) = c.state.with(|s| (s.selected, s.profile.clone()));
    let analysis = computed.analyses.get(selected)?;
    let text = analysis
        .doc
        .as_ref()
        .map(|d| d.text.as_str())
        .unwrap_or_default();
    if !m.typed.with_value(|t| t == text) {
        return None;
    }
    let findings = computed
        .checks
        .iter()
        .find(|(p, _)| p.key == profile)
        .and_then(|(p, per_skill)| Some((*p, per_skill.get(selected)?.clone())))
        .into_iter()
        .collect();
    Some(Current {
        analyses: computed.analyses.clone(),
        selected,
        findings,
    })
}

/// Shows the selected skill's SKILL.md (`text`, the document `key`) in the editor when it is
/// not what was typed there (a fix made in another view, a load, a sample, another skill
/// chosen), then the chosen client's located findings on it (marks, with their quick fixes)
/// and the token hints, each time the text, the document or the checks change. One effect, in
/// that order: the marks of a skill's first view are set on its text, never before a swap that
/// would drop them.
fn show_document_marks_and_hints(
    c: super::Ctx,
    m: Mounted,
    key: Memo<String>,
    text: impl Fn() -> String + 'static,
    read_only: impl Fn() -> bool + 'static,
) {
    Effect::new(move |_| {
        let value = text();
        let key = key.get();
        let shown_key = m
            .editor
            .with_value(|e| e.as_ref().and_then(CodeEditor::key));
        if m.typed.with_value(|t| *t != value) || shown_key.as_deref() != Some(key.as_str()) {
            let read_only = untrack(&read_only);
            m.editor
                .with_value(|e| e.as_ref().map(|e| e.set_document(&key, &value, read_only)));
            m.typed.set_value(value);
        }
        let Some(cur) = current_findings(c, m) else {
            return;
        };
        let (analysis, findings) = (cur.analysis(), &cur.findings);
        let text = m.typed.get_value();
        let file = analysis
            .skill_md_path
            .clone()
            .unwrap_or_else(|| "SKILL.md".to_owned());
        let map = skillpg_ide::EditorOffsets::new(&text);
        let at = |b: usize| map.to_editor(&text, b) as u32;
        let mut edits = Vec::new();
        let marks: Vec<code_editor::Mark> = skillpg_ide::marks(analysis, findings)
            .remove(&file)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|mark| {
                let d = mark.diagnostic;
                let span = d.span.clone()?;
                // The mark's own fix (several findings can share a span).
                let fixes = skillpg_ide::quick_fix(d, &text)
                    .into_iter()
                    .map(|f| {
                        edits.push(f.edit);
                        code_editor::MarkFix {
                            id: edits.len() as u32 - 1,
                            title: f.title,
                        }
                    })
                    .collect();
                Some(code_editor::Mark {
                    from: at(span.start),
                    to: at(span.end),
                    severity: match d.severity {
                        skillpg_core::Severity::Error => "error",
                        skillpg_core::Severity::Warning => "warning",
                        skillpg_core::Severity::Info => "info",
                    },
                    message: d.message.clone(),
                    code: d.code,
                    rule: d.rule,
                    rule_href: format!("#rule-{}", d.rule),
                    source: d.source.title,
                    source_href: d.source.url,
                    fixes,
                })
            })
            .collect();
        let hints: Vec<code_editor::Hint> = skillpg_ide::hints(analysis)
            .into_iter()
            .map(|h| code_editor::Hint {
                at: at(h.at),
                label: h.label,
            })
            .collect();
        m.fixes.set_value((text, edits));
        m.editor.with_value(|e| {
            if let Some(e) = e {
                e.set_marks(&marks);
                e.set_hints(&hints);
            }
        });
    });
}

/// The engine's hover at the editor's position `pos` (UTF-16), for the chosen client.
fn hover_at(c: super::Ctx, m: Mounted, pos: u32) -> Option<code_editor::HoverText> {
    let cur = untrack(|| current_findings(c, m))?;
    let text = m.typed.get_value();
    let map = skillpg_ide::EditorOffsets::new(&text);
    let profiles: Vec<_> = cur.findings.iter().map(|(p, _)| *p).collect();
    let h = skillpg_ide::hover(cur.analysis(), &profiles, map.to_byte(&text, pos as usize))?;
    Some(code_editor::HoverText {
        blocks: crate::markdown::blocks(&h.markdown),
        from: map.to_editor(&text, h.span.start) as u32,
        to: map.to_editor(&text, h.span.end) as u32,
    })
}

/// The engine's completions at the editor's position `pos` (UTF-16), for the chosen client:
/// they replace the word before the cursor.
fn complete_at(c: super::Ctx, m: Mounted, pos: u32) -> Option<code_editor::Completions> {
    let cur = untrack(|| current_findings(c, m))?;
    let text = m.typed.get_value();
    let map = skillpg_ide::EditorOffsets::new(&text);
    let offset = map.to_byte(&text, pos as usize);
    let profiles: Vec<_> = cur.findings.iter().map(|(p, _)| *p).collect();
    let options = skillpg_ide::completion(cur.analysis(), &profiles, &text, offset);
    if options.is_empty() {
        return None;
    }
    let word = text[..offset]
        .bytes()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_')
        .count();
    Some(code_editor::Completions {
        from: map.to_editor(&text, offset - word) as u32,
        options: options
            .into_iter()
            .map(|o| code_editor::CompletionOption {
                label: o.label,
                detail: o.detail,
                apply: o.insert,
                kind: match o.kind {
                    skillpg_ide::CompletionKind::Field => "property",
                    skillpg_ide::CompletionKind::Value => "constant",
                },
            })
            .collect(),
    })
}

/// Where the findings are in SKILL.md, as buttons that select them in the editor (for the
/// keyboard: the marks are where the mouse finds them); their messages are in the findings
/// list (Check), once.
#[component]
fn InlineFindings(m: Mounted) -> impl IntoView {
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
                            let text = m.typed.get_value();
                            let map = skillpg_ide::EditorOffsets::new(&text);
                            let (from, to) = (map.to_editor(&text, span.start), map.to_editor(&text, span.end.max(span.start)));
                            m.editor.with_value(|e| e.as_ref().map(|e| e.select(from as u32, to as u32)));
                        }>{format!("{}:{} {}", loc.line, loc.column, d.code)}</button>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
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
