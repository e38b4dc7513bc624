//! The SKILL.md editor's bindings: CodeMirror 6, bundled from web/editor.js into the page's
//! `editor.js` (boot.js starts loading it beside the app's module, as
//! `globalThis.skillpgEditorLoad`; once in, it sets `globalThis.skillpgEditor`).
//! What crosses is data: the text, the marks, the hints (JSON), and the page's callbacks for
//! an edit, a quick fix, a hover and a completion. Positions are UTF-16 offsets, as JavaScript
//! counts; the page converts the engine's byte offsets (`skillpg_ide::Utf16`).

use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// One mounted editor (web/editor.js's `create`).
    pub type CodeEditor;

    #[wasm_bindgen(js_namespace = skillpgEditor, js_name = create)]
    fn create_editor(parent: &web_sys::Element, options: &js_sys::Object) -> CodeEditor;

    #[wasm_bindgen(method, js_name = setText)]
    pub fn set_text(this: &CodeEditor, text: &str);

    /// Changes the text to `text` as a person's edit (one step of the document's history,
    /// reported back through `on_change`).
    #[wasm_bindgen(method, js_name = editTo)]
    pub fn edit_to(this: &CodeEditor, text: &str);

    /// Shows the document `key` holding `text` (web/editor.js: each document keeps its own
    /// undo history; the same key takes `text` as one edit).
    #[wasm_bindgen(method, js_name = setDocument)]
    pub fn set_document(this: &CodeEditor, key: &str, text: &str, read_only: bool);

    /// The key of the document shown.
    #[wasm_bindgen(method)]
    pub fn key(this: &CodeEditor) -> Option<String>;

    #[wasm_bindgen(method, js_name = setReadOnly)]
    pub fn set_read_only(this: &CodeEditor, yes: bool);

    #[wasm_bindgen(method, js_name = setMarks)]
    fn set_marks_json(this: &CodeEditor, marks: &JsValue);

    #[wasm_bindgen(method, js_name = setHints)]
    fn set_hints_json(this: &CodeEditor, hints: &JsValue);

    /// Selects `from..to`, scrolls it into view and focuses the editor.
    #[wasm_bindgen(method)]
    pub fn select(this: &CodeEditor, from: u32, to: u32);

    #[wasm_bindgen(method)]
    pub fn destroy(this: &CodeEditor);
}

/// A finding marked in the text.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Mark {
    pub from: u32,
    pub to: u32,
    /// CodeMirror's name for it: `error`, `warning` or `info`.
    pub severity: &'static str,
    pub message: String,
    pub code: &'static str,
    pub rule: &'static str,
    /// The rule in the page's rule reference.
    pub rule_href: String,
    /// The source the rule cites, and its address.
    pub source: &'static str,
    pub source_href: &'static str,
    pub fixes: Vec<MarkFix>,
}

/// A quick fix offered on a mark; `id` comes back through `Callbacks::on_fix`.
#[derive(Debug, Serialize)]
pub struct MarkFix {
    pub id: u32,
    pub title: String,
}

/// A token count shown after the UTF-16 offset `at`.
#[derive(Debug, Serialize)]
pub struct Hint {
    pub at: u32,
    pub label: String,
}

/// A hover's blocks (built as elements by web/editor.js's `renderHover`: text nodes only) and
/// the stretch it is about.
#[derive(Debug, Serialize)]
pub struct HoverText {
    pub blocks: Vec<crate::markdown::Block>,
    pub from: u32,
    pub to: u32,
}

/// The completions at a position, replacing `from..` the position.
#[derive(Debug, Serialize)]
pub struct Completions {
    pub from: u32,
    pub options: Vec<CompletionOption>,
}

/// One completion as CodeMirror takes it (`kind` is its `type`: its icon).
#[derive(Debug, Serialize)]
pub struct CompletionOption {
    pub label: String,
    pub detail: String,
    pub apply: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
}

/// What the editor asks of the page.
#[allow(missing_debug_implementations)]
pub struct Callbacks {
    /// A person's edit: the whole text.
    pub on_change: Box<dyn Fn(String)>,
    /// A mark's quick fix chosen, by id.
    pub on_fix: Box<dyn Fn(u32)>,
    /// The hover at a position, if any.
    pub on_hover: Box<dyn Fn(u32) -> Option<HoverText>>,
    /// The completions at a position, if any.
    pub on_complete: Box<dyn Fn(u32) -> Option<Completions>>,
}

/// Whether the editor's module is in, as a signal: `Some(Ok(()))` at once when it is, else
/// `None` until boot.js's import settles (`Some(Err(why))` if it failed). The app's first frame
/// does not wait for the editor's 140 KB.
pub fn loading() -> leptos::prelude::RwSignal<Option<Result<(), String>>> {
    use leptos::prelude::*;
    let has = |key: &str| {
        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(key))
            .is_ok_and(|v| !v.is_undefined())
    };
    if has("skillpgEditor") {
        return RwSignal::new(Some(Ok(())));
    }
    let loaded = RwSignal::new(None);
    let promise = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("skillpgEditorLoad"))
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    match promise {
        Some(promise) => leptos::task::spawn_local(async move {
            let done = wasm_bindgen_futures::JsFuture::from(promise).await;
            loaded.set(Some(match done {
                Ok(_) if has("skillpgEditor") => Ok(()),
                Ok(_) => Err("its module set no editor".to_owned()),
                Err(e) => Err(e
                    .as_string()
                    .or_else(|| js_sys::Error::from(e).message().as_string())
                    .unwrap_or_else(|| "its module did not load".to_owned())),
            }));
        }),
        None => loaded.set(Some(Err(
            "the page's boot script did not load it".to_owned()
        ))),
    }
    loaded
}

fn json<T: Serialize>(value: &T) -> JsValue {
    serde_json::to_string(value)
        .ok()
        .and_then(|s| js_sys::JSON::parse(&s).ok())
        .unwrap_or(JsValue::NULL)
}

fn set(options: &js_sys::Object, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(options, &JsValue::from_str(key), value);
}

/// Mounts an editor holding the document `key` with `text` in `parent`. The callbacks live as
/// long as the page's JavaScript holds the editor (they are handed to it).
pub fn create(
    parent: &web_sys::Element,
    key: &str,
    text: &str,
    read_only: bool,
    cb: Callbacks,
) -> CodeEditor {
    let options = js_sys::Object::new();
    set(&options, "text", &JsValue::from_str(text));
    set(&options, "key", &JsValue::from_str(key));
    set(&options, "readOnly", &JsValue::from_bool(read_only));
    let Callbacks {
        on_change,
        on_fix,
        on_hover,
        on_complete,
    } = cb;
    set(
        &options,
        "onChange",
        &Closure::<dyn Fn(String)>::new(on_change).into_js_value(),
    );
    set(
        &options,
        "onFix",
        &Closure::<dyn Fn(u32)>::new(on_fix).into_js_value(),
    );
    set(
        &options,
        "onHover",
        &Closure::<dyn Fn(u32) -> JsValue>::new(move |pos| {
            on_hover(pos).map_or(JsValue::NULL, |h| json(&h))
        })
        .into_js_value(),
    );
    set(
        &options,
        "onComplete",
        &Closure::<dyn Fn(u32) -> JsValue>::new(move |pos| {
            on_complete(pos).map_or(JsValue::NULL, |c| json(&c))
        })
        .into_js_value(),
    );
    create_editor(parent, &options)
}

impl CodeEditor {
    /// Marks `marks` (replacing the ones shown).
    pub fn set_marks(&self, marks: &[Mark]) {
        self.set_marks_json(&json(&marks));
    }

    /// Shows `hints` (replacing the ones shown).
    pub fn set_hints(&self, hints: &[Hint]) {
        self.set_hints_json(&json(&hints));
    }
}
