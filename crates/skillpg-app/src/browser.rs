//! The browser edge: clock, storage, location, downloads, clipboard, and reading dropped or
//! picked files and folders. Natively (in tests) these are inert.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Local-storage key of the saved state.
const STORAGE_KEY: &str = "skill-playground.v1";

/// Milliseconds from a monotonic clock (0 outside a browser).
pub fn now_ms() -> f64 {
    // js-sys's imports panic outside wasm32: the native tests of `compute` run here too.
    if cfg!(target_arch = "wasm32") {
        web_sys::window()
            .and_then(|w| w.performance())
            .map(|p| p.now())
            .unwrap_or(0.0)
    } else {
        0.0
    }
}

/// Set once the app has panicked: nothing is saved after that, so the saved state stays the
/// last one that rendered, and a reload starts from it.
static PANICKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the module has trapped (`web/boot.js` sets `skillpgTrapped` on a
/// `WebAssembly.RuntimeError`): a state read after a trap is not to be trusted, so nothing
/// is saved.
fn trapped() -> bool {
    cfg!(target_arch = "wasm32")
        && js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("skillpgTrapped"))
            .map(|v| v.is_truthy())
            .unwrap_or(false)
}

/// Records that the app panicked: stops saving, and drops a share link's fragment from the
/// address so that a reload does not open the same state again.
pub fn mark_panicked() {
    PANICKED.store(true, std::sync::atomic::Ordering::SeqCst);
    clear_hash();
}

/// Saves the encoded state; returns false when storage refuses (full, or disabled). After a
/// panic it saves nothing (and says it did not need to).
pub fn save_state(encoded: &str) -> bool {
    if PANICKED.load(std::sync::atomic::Ordering::SeqCst) || trapped() {
        return true;
    }
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
        return false;
    };
    storage.set_item(STORAGE_KEY, encoded).is_ok()
}

/// Local-storage key of a saved index that could not be restored, kept aside so that the next
/// save does not write over it.
const UNRESTORED_KEY: &str = "skill-playground.v1.unrestored";
/// Local-storage key of the note that a save did not happen (the page closed with a change it
/// could not write), read and cleared on the next visit.
const UNSAVED_KEY: &str = "skill-playground.unsaved";

/// The Cache API store that keeps each skill's files of the saved work.
pub const SAVED_CACHE: &str = "skillpg-saved-work";

/// The address a saved skill's files are kept under in [`SAVED_CACHE`].
pub fn saved_key_url(key: &str) -> String {
    format!("./saved-work/{key}")
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Local-storage key of every index kept aside (`state::KeptAside`, a JSON list): one kept
/// aside is never written over by another.
const KEPT_ASIDE_KEY: &str = "skill-playground.kept-aside";

/// The saved work kept aside, oldest first (the first form's one index too).
pub fn kept_aside() -> Vec<crate::state::KeptAside> {
    let Some(s) = local_storage() else {
        return Vec::new();
    };
    let mut list = s
        .get_item(KEPT_ASIDE_KEY)
        .ok()
        .flatten()
        .map(|json| crate::state::KeptAside::read_list(&json))
        .unwrap_or_default();
    if let Some(index) = s.get_item(UNRESTORED_KEY).ok().flatten() {
        list.insert(0, crate::state::KeptAside { at: 0.0, index });
    }
    list
}

fn write_kept_aside(list: &[crate::state::KeptAside]) -> bool {
    let Some(s) = local_storage() else {
        return false;
    };
    let _ = s.remove_item(UNRESTORED_KEY);
    if list.is_empty() {
        return s.remove_item(KEPT_ASIDE_KEY).is_ok();
    }
    s.set_item(KEPT_ASIDE_KEY, &crate::state::KeptAside::write_list(list))
        .is_ok()
}

/// Keeps an index that could not be restored (whole) aside, beside any kept before: no save
/// writes over it, and the store keeps the files it names until the person drops it.
pub fn keep_unrestored(index: &str) {
    let mut list = kept_aside();
    if !list.iter().any(|k| k.index == index) {
        list.push(crate::state::KeptAside {
            at: epoch_seconds(),
            index: index.to_owned(),
        });
    }
    write_kept_aside(&list);
}

/// Drops the index kept aside at `at` (the person restored it, or chose to drop it).
pub fn drop_kept_aside(at: f64) {
    let mut list = kept_aside();
    list.retain(|k| k.at != at);
    write_kept_aside(&list);
}

/// Asks to be the one writer of the saved work in this browser (web/boot.js's
/// `skillpgWriter`): `granted(true)` once this tab holds the lock, `granted(false)` where the
/// browser has no Web Locks (every tab saves), `waiting()` when another tab still holds it
/// after a moment's asking, and `lost()` if another tab takes it later. `steal` takes it from
/// the tab that holds it; a waiting tab never takes it by itself.
pub fn claim_writer(
    steal: bool,
    granted: impl FnOnce(bool) + 'static,
    waiting: impl FnOnce() + 'static,
    lost: impl FnOnce() + 'static,
) {
    let writer = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("skillpgWriter"))
        .ok()
        .filter(|w| !w.is_undefined());
    let claim = writer.as_ref().and_then(|w| {
        js_sys::Reflect::get(w, &JsValue::from_str("claim"))
            .ok()?
            .dyn_into::<js_sys::Function>()
            .ok()
    });
    let (Some(writer), Some(claim)) = (writer, claim) else {
        granted(false);
        return;
    };
    let args = js_sys::Array::of4(
        &JsValue::from_bool(steal),
        &Closure::once_into_js(granted),
        &Closure::once_into_js(waiting),
        &Closure::once_into_js(lost),
    );
    let _ = claim.apply(&writer, &args);
}

/// Notes that a change could not be saved, for the next visit to say so.
pub fn note_unsaved(why: &str) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(UNSAVED_KEY, why);
    }
}

/// The note [`note_unsaved`] left, once (it is cleared).
pub fn take_unsaved_note() -> Option<String> {
    let s = local_storage()?;
    let note = s.get_item(UNSAVED_KEY).ok()??;
    let _ = s.remove_item(UNSAVED_KEY);
    Some(note)
}

/// Forgets `key` in the store `cache`.
pub async fn cache_delete(cache: &str, key: &str) {
    if let Some(c) = open_cache(cache).await {
        let _ = JsFuture::from(c.delete_with_str(key)).await;
    }
}

/// The saved encoded state, if any.
pub fn load_state() -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()??
        .get_item(STORAGE_KEY)
        .ok()?
}

/// The location's hash, `#...` or empty.
pub fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The page's address without the hash.
pub fn location_base() -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    let href = loc.href().unwrap_or_default();
    href.split('#').next().unwrap_or("").to_owned()
}

/// Offers `bytes` as a download named `name`.
pub fn download(name: &str, mime: &str, bytes: &[u8]) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(a) = document
        .create_element("a")
        .map(|e| e.unchecked_into::<web_sys::HtmlAnchorElement>())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Copies `text` to the clipboard; whether the browser accepted it.
pub async fn copy_text(text: &str) -> bool {
    let Some(w) = web_sys::window() else {
        return false;
    };
    JsFuture::from(w.navigator().clipboard().write_text(text))
        .await
        .is_ok()
}

/// Focuses and selects the text of the input `id`, for a person to copy it by hand.
pub fn select_input(id: &str) {
    let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    else {
        return;
    };
    if let Ok(input) = el.dyn_into::<web_sys::HtmlInputElement>() {
        let _ = input.focus();
        input.select();
    }
}

/// Local-storage key of the fingerprint of the address the page wrote last.
const OWN_ADDRESS_KEY: &str = "skill-playground.own-address";
/// Local-storage key of where the split between the panes was left.
const SPLIT_KEY: &str = "skill-playground.split";
/// Local-storage key of the chosen theme.
const THEME_KEY: &str = "skill-playground.theme";

/// Whether the page starts dark: the theme chosen here before, else the system's
/// `prefers-color-scheme`.
pub fn prefers_dark() -> bool {
    let Some(w) = web_sys::window() else {
        return false;
    };
    if let Some(saved) = w
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(THEME_KEY).ok().flatten())
    {
        return saved == "dark";
    }
    w.match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Remembers the theme a person chose.
pub fn save_theme(dark: bool) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(THEME_KEY, if dark { "dark" } else { "light" });
    }
}

/// The fingerprint of the address the page wrote last (`state::address_fingerprint`).
pub fn own_address() -> Option<String> {
    local_storage()?.get_item(OWN_ADDRESS_KEY).ok().flatten()
}

/// Remembers the fingerprint of the address the page wrote.
pub fn set_own_address(fingerprint: &str) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(OWN_ADDRESS_KEY, fingerprint);
    }
}

/// Where the page's split was left (the left pane's width in CSS pixels), if a person moved it.
pub fn saved_split() -> Option<f64> {
    local_storage()?
        .get_item(SPLIT_KEY)
        .ok()
        .flatten()?
        .parse()
        .ok()
        .filter(|w: &f64| w.is_finite())
}

/// Remembers where a person left the split.
pub fn save_split(width: f64) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(SPLIT_KEY, &format!("{width:.0}"));
    }
}

/// Removes the fragment from the address without adding a history entry.
pub fn clear_hash() {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&location_base()));
    }
}

/// Replaces the address's fragment (`view=cost`) without a history entry or a hashchange.
pub fn replace_hash(fragment: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(
            &JsValue::NULL,
            "",
            Some(&format!("{}#{fragment}", location_base())),
        );
    }
}

/// Scrolls the element with `id` to the top of the window (below the sticky navigation) and
/// gives it the focus, for keyboard and screen-reader users.
pub fn scroll_to(id: &str) {
    let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    else {
        return;
    };
    el.scroll_into_view();
    if let Some(html) = el.dyn_ref::<web_sys::HtmlElement>() {
        let _ = html.focus();
    }
}

/// Opens the `<details>` with `id` and scrolls to it.
pub fn open_details(id: &str) {
    let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    else {
        return;
    };
    let _ = el.set_attribute("open", "");
    el.scroll_into_view();
}

/// Replaces the page with a message (used by the panic hook; no markup from user content).
pub fn show_fatal(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // One banner: a panic can be followed by others while the app unwinds.
    if document
        .query_selector("[data-testid=fatal]")
        .ok()
        .flatten()
        .is_some()
    {
        return;
    }
    if let Ok(div) = document.create_element("div") {
        div.set_class_name("fatal");
        div.set_attribute("role", "alert").ok();
        div.set_attribute("data-testid", "fatal").ok();
        div.set_text_content(Some(message));
        if let Some(body) = document.body() {
            let _ = body.append_child(&div);
        }
    }
}

/// Registers the service worker that makes the page work offline after the first visit.
pub fn register_service_worker() {
    if let Some(w) = web_sys::window() {
        let sw = w.navigator().service_worker();
        let _ = sw.register("sw.js");
    }
}

/// A file read from a drop or a picker: its path relative to what was dropped, and bytes.
pub type PickedFile = (String, Vec<u8>);

/// The text (lossy UTF-8) of the first file picked in the file input that `ev` came from,
/// handed to `done` once read, or the browser's reason it could not be; nothing when no file
/// was picked. The one import of a text file (an eval set, a request list).
pub fn read_picked_text(ev: &web_sys::Event, done: impl FnOnce(Result<String, String>) + 'static) {
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return;
    };
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let text = file_bytes(&file)
            .await
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
        done(text);
    });
}

/// The bytes of a `File`.
pub async fn file_bytes(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buf = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("{} could not be read: {e:?}", file.name()))?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// Reads every file of a picker (`webkitdirectory` gives each its relative path).
pub async fn read_file_list(
    files: web_sys::FileList,
    progress: impl Fn(usize),
) -> Result<Vec<PickedFile>, String> {
    // The sizes are known before anything is read: a pick past the load budget reads nothing.
    let total: f64 = (0..files.length())
        .filter_map(|i| files.get(i))
        .map(|f| f.size())
        .sum();
    if let Some(message) = skillpg_share::over_load_budget("The files picked", total as u64) {
        return Err(message);
    }
    let mut res = Vec::new();
    for idx in 0..files.length() {
        let Some(file) = files.get(idx) else { continue };
        let rel = relative_path(&file).unwrap_or_default();
        let path = if rel.is_empty() { file.name() } else { rel };
        res.push((path, file_bytes(&file).await?));
        progress(res.len());
    }
    Ok(res)
}

/// Reads dropped entries, walking folders with `readEntries` until it returns nothing (it
/// gives at most 100 entries a call).
pub async fn read_entries(
    roots: Vec<web_sys::FileSystemEntry>,
    progress: impl Fn(usize),
) -> Result<Vec<PickedFile>, String> {
    let mut res = Vec::new();
    let mut loaded: u64 = 0;
    let mut stack: Vec<web_sys::FileSystemEntry> = roots;
    while let Some(entry) = stack.pop() {
        if entry.is_directory() {
            let dir: web_sys::FileSystemDirectoryEntry = entry.unchecked_into();
            let reader = dir.create_reader();
            loop {
                let promise = js_sys::Promise::new(&mut |resolve, reject| {
                    let _ = reader.read_entries_with_callback_and_callback(&resolve, &reject);
                });
                let batch: js_sys::Array = JsFuture::from(promise)
                    .await
                    .map_err(|e| format!("a folder could not be read: {e:?}"))?
                    .unchecked_into();
                if batch.length() == 0 {
                    break;
                }
                stack.extend(
                    batch
                        .iter()
                        .map(|v| v.unchecked_into::<web_sys::FileSystemEntry>()),
                );
            }
        } else if entry.is_file() {
            let path = entry.full_path().trim_start_matches('/').to_owned();
            let file_entry: web_sys::FileSystemFileEntry = entry.unchecked_into();
            let promise = js_sys::Promise::new(&mut |resolve, reject| {
                file_entry.file_with_callback_and_callback(&resolve, &reject);
            });
            let file: web_sys::File = JsFuture::from(promise)
                .await
                .map_err(|e| format!("{path} could not be read: {e:?}"))?
                .unchecked_into();
            // Counted before the file is read: a drop past the load budget stops here.
            loaded += file.size() as u64;
            if let Some(message) = skillpg_share::over_load_budget("The drop", loaded) {
                return Err(message);
            }
            res.push((path, file_bytes(&file).await?));
            progress(res.len());
        }
    }
    res.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(res)
}

/// A picked file's path inside the folder it was picked with (`webkitRelativePath`), if any.
pub fn relative_path(file: &web_sys::File) -> Option<String> {
    // `webkitRelativePath` is not in web-sys's stable bindings.
    js_sys::Reflect::get(file, &JsValue::from_str("webkitRelativePath"))
        .ok()
        .and_then(|v| v.as_string())
}

/// Fetches `url` (CORS permitting) and returns its bytes.
pub async fn fetch_bytes(url: &str, max_bytes: u64) -> Result<Vec<u8>, String> {
    let got = fetch_full(url, max_bytes).await?;
    if !(200..300).contains(&got.status) {
        return Err(format!("{url} answered HTTP {}", got.status));
    }
    Ok(got.bytes)
}

/// Fetches `url` past the browser's HTTP cache (`cache: "no-store"`), for bytes checked
/// against digests: a copy cached a second before the file changed must not pass for it.
pub async fn fetch_fresh(url: &str, max_bytes: u64) -> Result<Vec<u8>, String> {
    let init = web_sys::RequestInit::new();
    init.set_cache(web_sys::RequestCache::NoStore);
    let resp = start_fetch_with(url, max_bytes, Some(&init)).await?;
    if !resp.ok() {
        return Err(format!("{url} answered HTTP {}", resp.status()));
    }
    Ok(read_body(&resp, url, max_bytes).await?)
}

/// [`fetch_fresh`] that gives up after `timeout_ms` (the browser aborts the request), so one
/// slow file of an index cannot hold the load for ever. A body over `max_bytes` is
/// [`FetchError::TooLarge`], which the index loader tells apart from the other failures.
pub async fn fetch_fresh_within(
    url: &str,
    max_bytes: u64,
    timeout_ms: u32,
) -> Result<Vec<u8>, FetchError> {
    let init = web_sys::RequestInit::new();
    init.set_cache(web_sys::RequestCache::NoStore);
    init.set_signal(Some(&web_sys::AbortSignal::timeout_with_u32(timeout_ms)));
    let or_slow = |e: FetchError| match e {
        FetchError::Failed(m) => {
            FetchError::Failed(format!("{m} (or it took over {} s)", timeout_ms / 1000))
        }
        too_large => too_large,
    };
    let resp = start_fetch_with(url, max_bytes, Some(&init))
        .await
        .map_err(or_slow)?;
    if !resp.ok() {
        return Err(FetchError::Failed(format!(
            "{url} answered HTTP {}",
            resp.status()
        )));
    }
    read_body(&resp, url, max_bytes).await.map_err(or_slow)
}

/// Why a fetch gave nothing, with the message a person reads: a body over the bytes allowed
/// apart (callers act on it: an index over the load budget loads nothing), every other
/// failure (the network, CORS, a status, a timeout) as one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// The body is over the bytes allowed here (by its declared length, or its real one).
    TooLarge(String),
    /// Any other failure.
    Failed(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::TooLarge(m) | FetchError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for FetchError {}

impl From<FetchError> for String {
    fn from(e: FetchError) -> String {
        e.to_string()
    }
}

/// An answer: its status, GitHub's rate-limit headers (when the server exposes them) and body.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub status: u16,
    pub ratelimit_remaining: Option<String>,
    pub ratelimit_reset: Option<String>,
    pub bytes: Vec<u8>,
}

const MB: u64 = 1_048_576;

/// Starts fetching `url`: the response once its headers are in, refused when the length it
/// declares is over `max_bytes`.
async fn start_fetch(url: &str, max_bytes: u64) -> Result<web_sys::Response, FetchError> {
    start_fetch_with(url, max_bytes, None).await
}

/// [`start_fetch`] with the request's options.
async fn start_fetch_with(
    url: &str,
    max_bytes: u64,
    init: Option<&web_sys::RequestInit>,
) -> Result<web_sys::Response, FetchError> {
    let window = web_sys::window().ok_or_else(|| FetchError::Failed("no window".to_owned()))?;
    let promise = match init {
        Some(init) => window.fetch_with_str_and_init(url, init),
        None => window.fetch_with_str(url),
    };
    let resp: web_sys::Response = JsFuture::from(promise)
        .await
        .map_err(|_| FetchError::Failed(format!("the browser could not fetch {url}: the network or the site's CORS policy refused it")))?
        .unchecked_into();
    if let Some(n) = declared_length(&resp).filter(|&n| n > max_bytes) {
        return Err(FetchError::TooLarge(format!(
            "{url} is {} MB, over the {} MB allowed here",
            n / MB,
            max_bytes / MB
        )));
    }
    Ok(resp)
}

/// A response's body, refused past `max_bytes` by its real length.
async fn read_body(
    resp: &web_sys::Response,
    url: &str,
    max_bytes: u64,
) -> Result<Vec<u8>, FetchError> {
    let failed = |e: JsValue| FetchError::Failed(format!("{e:?}"));
    let buf = JsFuture::from(resp.array_buffer().map_err(failed)?)
        .await
        .map_err(failed)?;
    let array = js_sys::Uint8Array::new(&buf);
    if u64::from(array.length()) > max_bytes {
        return Err(FetchError::TooLarge(format!(
            "{url} is over the {} MB allowed here",
            max_bytes / MB
        )));
    }
    Ok(array.to_vec())
}

/// The body's length as the Content-Length header states it.
fn declared_length(resp: &web_sys::Response) -> Option<u64> {
    resp.headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|v| v.parse::<u64>().ok())
}

/// Fetches `url` whatever its status; refuses a body over `max_bytes` (by its declared length
/// before reading, and by its real length after).
pub async fn fetch_full(url: &str, max_bytes: u64) -> Result<Fetched, String> {
    let resp = start_fetch(url, max_bytes).await?;
    let header = |name: &str| resp.headers().get(name).ok().flatten();
    let (ratelimit_remaining, ratelimit_reset) =
        (header("x-ratelimit-remaining"), header("x-ratelimit-reset"));
    Ok(Fetched {
        status: resp.status(),
        ratelimit_remaining,
        ratelimit_reset,
        bytes: read_body(&resp, url, max_bytes).await?,
    })
}

/// Fetches `url` as a stream, calling `progress(loaded, total)` after each chunk (`total` from
/// the Content-Length header, when there is one), and stopping with a message past `max_bytes`.
pub async fn fetch_with_progress(
    url: &str,
    max_bytes: u64,
    progress: impl Fn(u64, Option<u64>),
) -> Result<Vec<u8>, String> {
    // Nothing stops it, so it fails only with the browser's or the server's words.
    fetch_cancellable(url, max_bytes, progress, || false)
        .await
        .map_err(|e| e.to_string())
}

/// Where [`fetch_kept`]'s bytes came from, and whether they are kept for the next visit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Read from the store: no request was made.
    FromStore,
    /// Downloaded, and now in the store.
    Stored,
    /// Downloaded, but the browser refused to store them (quota, private mode, no Cache API).
    Refused,
}

/// The bytes at `url`: from the store `cache` when it has them (no request at all), else from
/// the network with `progress`, then put in `cache`. The page keeps them itself rather than
/// leaving it to `sw.js`, which controls no page during a first visit and cannot say when the
/// browser refuses the storage.
pub async fn fetch_kept(
    cache: &str,
    url: &str,
    max_bytes: u64,
    progress: impl Fn(u64, Option<u64>),
) -> Result<(Vec<u8>, Kept), String> {
    if let Some(bytes) = cache_get(cache, url).await {
        let n = bytes.len() as u64;
        progress(n, Some(n));
        return Ok((bytes, Kept::FromStore));
    }
    let bytes = fetch_with_progress(url, max_bytes, progress).await?;
    let kept = if cache_put(cache, url, &bytes).await {
        Kept::Stored
    } else {
        Kept::Refused
    };
    Ok((bytes, kept))
}

/// Why a download the person can stop did not finish: they stopped it, or it failed (the
/// browser's or the server's words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DownloadError {
    Cancelled,
    Failed(String),
}

impl std::fmt::Display for DownloadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DownloadError::Cancelled => f.write_str("the download was cancelled"),
            DownloadError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for DownloadError {}

impl From<FetchError> for DownloadError {
    fn from(e: FetchError) -> DownloadError {
        DownloadError::Failed(e.to_string())
    }
}

impl From<String> for DownloadError {
    fn from(why: String) -> DownloadError {
        DownloadError::Failed(why)
    }
}

/// The size `url` declares (a HEAD request, redirects followed), before anything is downloaded.
pub async fn declared_size(url: &str) -> Result<Option<u64>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_method("HEAD");
    let resp: web_sys::Response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|_| format!("the browser could not reach {url}: the network or the site's CORS policy refused it"))?
        .unchecked_into();
    if !resp.ok() {
        return Err(format!("{url} answered HTTP {}", resp.status()));
    }
    Ok(declared_length(&resp))
}

/// As `fetch_with_progress`, and stops (with [`DownloadError::Cancelled`]) when `stop()` says so
/// between chunks.
pub async fn fetch_cancellable(
    url: &str,
    max_bytes: u64,
    progress: impl Fn(u64, Option<u64>),
    stop: impl Fn() -> bool,
) -> Result<Vec<u8>, DownloadError> {
    let resp = start_fetch(url, max_bytes).await?;
    if !resp.ok() {
        return Err(format!("{url} answered HTTP {}", resp.status()).into());
    }
    let total = declared_length(&resp);
    let Some(body) = resp.body() else {
        return Ok(Vec::new());
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut out = Vec::with_capacity(total.unwrap_or(0).min(max_bytes) as usize);
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("{url}: the download stopped ({e:?})"))?;
        let done = js_sys::Reflect::get(&chunk, &JsValue::from_str("done"))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        if let Ok(value) = js_sys::Reflect::get(&chunk, &JsValue::from_str("value")) {
            let bytes: js_sys::Uint8Array = value.unchecked_into();
            let start = out.len();
            out.resize(start + bytes.length() as usize, 0);
            bytes.copy_to(&mut out[start..]);
        }
        if out.len() as u64 > max_bytes {
            let _ = reader.cancel();
            return Err(format!("{url} is over the {} MB allowed here", max_bytes / MB).into());
        }
        if stop() {
            let _ = reader.cancel();
            return Err(DownloadError::Cancelled);
        }
        progress(out.len() as u64, total);
    }
    Ok(out)
}

/// The origin's Cache API store `cache`, when the browser has one (not on plain http pages
/// other than localhost).
async fn open_cache(cache: &str) -> Option<web_sys::Cache> {
    let caches = web_sys::window()?.caches().ok()?;
    JsFuture::from(caches.open(cache))
        .await
        .ok()
        .map(JsCast::unchecked_into)
}

/// Keeps `bytes` in the origin's Cache API store `cache` under `key` (a path of this origin),
/// so a later visit reads them without the network. Fails quietly: storage is a convenience.
pub async fn cache_put(cache: &str, key: &str, bytes: &[u8]) -> bool {
    let Some(c) = open_cache(cache).await else {
        return false;
    };
    let body = js_sys::Uint8Array::from(bytes);
    let init = web_sys::ResponseInit::new();
    let headers = web_sys::Headers::new().ok();
    if let Some(h) = &headers {
        let _ = h.set("content-length", &bytes.len().to_string());
        // When it was kept, as a server's Date would say: what a cached response carries.
        let _ = h.set("date", &String::from(js_sys::Date::new_0().to_utc_string()));
        init.set_headers(h);
    }
    let Ok(resp) = web_sys::Response::new_with_opt_buffer_source_and_init(Some(&body), &init)
    else {
        return false;
    };
    JsFuture::from(c.put_with_str(key, &resp)).await.is_ok()
}

/// The keys (paths) held in the store `cache`, with their sizes when known.
pub async fn cache_entries(cache: &str) -> Vec<(String, Option<u64>)> {
    let Some(c) = open_cache(cache).await else {
        return Vec::new();
    };
    let Ok(keys) = JsFuture::from(c.keys()).await else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for req in js_sys::Array::from(&keys).iter() {
        let req: web_sys::Request = req.unchecked_into();
        let url = req.url();
        let size = match JsFuture::from(c.match_with_str(&url)).await {
            Ok(r) if !r.is_undefined() => declared_length(&r.unchecked_into()),
            _ => None,
        };
        out.push((url, size));
    }
    out
}

/// The bytes held under `key` in the store `cache`.
pub async fn cache_get(cache: &str, key: &str) -> Option<Vec<u8>> {
    let c = open_cache(cache).await?;
    let resp = JsFuture::from(c.match_with_str(key))
        .await
        .ok()
        .filter(|r| !r.is_undefined())?;
    let resp: web_sys::Response = resp.unchecked_into();
    let buf = JsFuture::from(resp.array_buffer().ok()?).await.ok()?;
    Some(js_sys::Uint8Array::new(&buf).to_vec())
}

/// Forgets everything in the store `cache`.
pub async fn cache_clear(cache: &str) {
    if let Some(caches) = web_sys::window().and_then(|w| w.caches().ok()) {
        let _ = JsFuture::from(caches.delete(cache)).await;
    }
}

/// Seconds since the Unix epoch (0 outside a browser).
/// Whether the page lays its panes one under the other (narrower than the two-pane layout's
/// 1024 px, web/style.css).
pub fn is_narrow() -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w < 1024.0)
}

/// Moves the keyboard's focus to the element `id` (a view's section, `tabindex="-1"`).
pub fn focus(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// A time (seconds since the epoch) as this browser writes dates and times.
pub fn when(epoch_seconds: f64) -> String {
    js_sys::Date::new(&JsValue::from_f64(epoch_seconds * 1000.0))
        .to_locale_string("default", &JsValue::UNDEFINED)
        .as_string()
        .unwrap_or_default()
}

pub fn epoch_seconds() -> f64 {
    js_sys::Date::now() / 1000.0
}

/// Where GitHub folders are listed and read: the defaults, or the bases set in local storage
/// under `skillpg-github-api` and `skillpg-github-raw` (tests point them at a local server).
pub fn github_endpoints() -> crate::github::Endpoints {
    let mut ep = crate::github::Endpoints::default();
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        if let Ok(Some(api)) = storage.get_item("skillpg-github-api") {
            ep.api = api;
        }
        if let Ok(Some(raw)) = storage.get_item("skillpg-github-raw") {
            ep.raw = raw;
        }
    }
    ep
}

/// Whether local storage asks the routing model to run on WebGPU even on a software adapter
/// (`skillpg-routing-backend` = `webgpu`): how the browser tests exercise the WGSL kernels in
/// Chromium, whose only adapter there is SwiftShader.
/// Asks the person a yes-or-no question (the browser's own dialog); no when there is no window.
pub fn confirm(question: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.confirm_with_message(question).ok())
        .unwrap_or(false)
}

/// Where the measurements of both paths are kept (per adapter and model).
const MEASURED_KEY: &str = "skillpg-measured";

/// The measurements of both paths kept from earlier loads (none when storage is off or holds
/// something unreadable).
pub fn kept_measurements() -> Vec<skillpg_routing::backend::Measured> {
    let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten());
    storage
        .and_then(|s| s.get_item(MEASURED_KEY).ok().flatten())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Keeps a measurement (in place of an older one for the same adapter and model).
pub fn keep_measurement(m: skillpg_routing::backend::Measured) {
    let kept = skillpg_routing::backend::keep(&kept_measurements(), m);
    if let (Some(storage), Ok(text)) = (
        web_sys::window().and_then(|w| w.local_storage().ok().flatten()),
        serde_json::to_string(&kept),
    ) {
        let _ = storage.set_item(MEASURED_KEY, &text);
    }
}

pub fn force_webgpu() -> bool {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item("skillpg-routing-backend").ok().flatten())
        .is_some_and(|v| v == "webgpu")
}
