//! Getting skills in: a folder picker, a file picker (zip, .skill, SKILL.md), drag and drop of
//! folders and archives, a URL, the gallery; and the catalog of loaded skills.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use super::{ctx, n};
use crate::browser::{self, PickedFile};
use crate::github;
use crate::samples::SAMPLES;
use crate::state::SkillInput;
use skillpg_core::ingest::is_archive_name;

/// Turns picked or dropped files into skills (`c` is passed in: this runs in a task, outside
/// the component tree that provides the context) and adds them to the catalog (never over a
/// loaded skill: one of the same folder with other bytes is loaded beside it). Archives among
/// the files are opened; the whole load is held to the load budget.
fn add_files(c: super::Ctx, files: Vec<PickedFile>) {
    let mut inputs = Vec::new();
    let (archives, plain): (Vec<PickedFile>, Vec<PickedFile>) =
        files.into_iter().partition(|(p, _)| is_archive_name(p));
    for (name, bytes) in archives {
        inputs.push((
            name.clone(),
            skillpg_core::ingest::read_archive(&name, &bytes),
        ));
    }
    let mut skills = Vec::new();
    // A SKILL.md picked alone: its folder is not known, and none is made up for it (the checks
    // that need it say so, and the page offers to pick the folder).
    let lone = plain.len() == 1 && plain[0].0.eq_ignore_ascii_case("skill.md");
    let mut lone_note = None;
    if lone {
        if let Some((_, bytes)) = plain.into_iter().next() {
            let skill = SkillInput::lone_skill_md(bytes);
            lone_note = Some(format!(
                "{} was read without its folder: the checks that need the folder (its name, the files SKILL.md links to) say so. Pick the folder (\"Pick a folder\") to check them too.",
                skill.dir_name
            ));
            skills.push(skill);
        }
    } else if !plain.is_empty() {
        inputs.push((
            "dropped".to_owned(),
            skillpg_core::ingest::discover("dropped", plain),
        ));
    }
    let mut problems = Vec::new();
    for (name, ingested) in inputs {
        problems.extend(
            ingested
                .diagnostics
                .iter()
                .map(|d| format!("{name}: {}", d.message)),
        );
        // The input's own findings stay with its first skill and reach every client's verdict.
        skills.extend(SkillInput::from_ingested(ingested));
    }
    let n_found = skills.len();
    // Archives are counted as unpacked: several of them can pass each one's own bound.
    let total: u64 = skills
        .iter()
        .flat_map(|k| &k.files)
        .map(|(_, b)| b.len() as u64)
        .sum();
    if let Some(message) = skillpg_share::over_load_budget("This load", total)
        .or_else(|| c.state.with_untracked(|s| s.load_refusal(total)))
    {
        c.status.set(message);
        return;
    }
    let mut placed = Vec::new();
    c.state.update(|s| {
        // The person's own skills: an untouched sample makes way.
        if !skills.is_empty() {
            s.remove_untouched_samples();
        }
        for k in skills {
            placed.push(s.put_skill(k));
        }
    });
    let mut message = format!("Loaded {n_found} skill(s).");
    if let Some(note) = lone_note {
        message.push(' ');
        message.push_str(&note);
    }
    if let Some(note) = skillpg_share::beside_note(&placed) {
        message.push(' ');
        message.push_str(&note);
    }
    if !problems.is_empty() {
        message.push_str(&format!(
            " Problems with the input (shown with its first skill's findings): {}",
            problems.join("; ")
        ));
    }
    c.status.set(message);
}

/// The loading toolbar (a folder, files, an address, the samples); the whole window takes a
/// drop.
#[component]
pub fn Loaders() -> impl IntoView {
    let c = ctx();
    let busy = RwSignal::new(false);
    let dragging = RwSignal::new(false);
    let folder_input = NodeRef::<leptos::html::Input>::new();
    // `webkitdirectory` is not among the view macro's known attributes; set it on the element.
    Effect::new(move |_| {
        if let Some(el) = folder_input.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });

    let on_pick = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(files) = input.files() else { return };
        let total = files.length() as usize;
        busy.set(true);
        c.status.set(format!("Reading {} file(s)…", n(total)));
        spawn_local(async move {
            let res = browser::read_file_list(files, move |done| {
                if done % 25 == 0 {
                    c.status
                        .set(format!("Reading files: {} of {}…", n(done), n(total)));
                }
            })
            .await;
            match res {
                Ok(files) => add_files(c, files),
                Err(message) => c.status.set(message),
            }
            busy.set(false);
            input.set_value("");
        });
    };

    let on_drop = move |ev: leptos::ev::DragEvent| {
        dragging.set(false);
        let Some(dt) = ev.data_transfer() else { return };
        // Text dragged within the page (into the editor) is the browser's to drop.
        if !carries_files(&dt) {
            return;
        }
        ev.prevent_default();
        let items = dt.items();
        // Entries must be taken during the event; the items list empties afterwards.
        let roots: Vec<web_sys::FileSystemEntry> = (0..items.length())
            .filter_map(|i| items.get(i))
            .filter_map(|item| item.webkit_get_as_entry().ok().flatten())
            .collect();
        busy.set(true);
        c.status.set("Reading the dropped files…".to_owned());
        spawn_local(async move {
            match browser::read_entries(roots, move |done| {
                if done % 25 == 0 {
                    c.status.set(format!("Reading files: {}…", n(done)));
                }
            })
            .await
            {
                Ok(files) => add_files(c, files),
                Err(message) => c.status.set(message),
            }
            busy.set(false);
        });
    };
    // The whole window takes a drop: a folder let go anywhere on the page loads.
    let _ = window_event_listener(leptos::ev::dragover, move |ev| {
        if ev.data_transfer().is_some_and(|dt| carries_files(&dt)) {
            ev.prevent_default();
            dragging.set(true);
        }
    });
    let _ = window_event_listener(leptos::ev::dragleave, move |ev| {
        // Left the window (not one element for another).
        if ev.related_target().is_none() {
            dragging.set(false);
        }
    });
    let _ = window_event_listener(leptos::ev::drop, on_drop);

    view! {
        <div class="toolbar" role="toolbar" aria-label="Load skills" data-testid="dropzone"
            title="Drop skill folders, a folder of skills, or a .zip / .skill archive anywhere on the page">
            <label class="button" title="A skill's folder, or a folder of skills">
                "Pick a folder"
                <input type="file" class="visually-hidden" data-testid="folder-input" node_ref=folder_input multiple=true on:change=on_pick/>
            </label>
            <label class="button" title="A .zip or .skill archive, or SKILL.md files (a SKILL.md alone is checked as far as it can be without its folder)">
                "Pick files"
                <input type="file" class="visually-hidden" data-testid="file-input" accept=".zip,.skill,.md" multiple=true on:change=on_pick/>
            </label>
            <UrlLoader busy=busy/>
            <Gallery/>
            <Show when=move || busy.get()>
                <progress aria-label="Loading"></progress>
            </Show>
        </div>
        <Show when=move || dragging.get()>
            <div class="drop-overlay" aria-hidden="true" data-testid="drop-overlay">
                <p>"Drop skill folders, a folder of skills, or a .zip / .skill archive to load them"</p>
            </div>
        </Show>
    }
}

/// Whether a drag carries files (a folder or an archive from the desktop), not text.
fn carries_files(dt: &web_sys::DataTransfer) -> bool {
    let types = dt.types();
    (0..types.length()).any(|i| types.get(i).as_string().as_deref() == Some("Files"))
}

/// An address to load from (a GitHub folder or file, a raw file, a gist's raw file, a zip).
#[component]
fn UrlLoader(busy: RwSignal<bool>) -> impl IntoView {
    let c = ctx();
    let url = RwSignal::new(String::new());
    let load_url = move || {
        let address = url.get_untracked().trim().to_owned();
        // A Zed share link holds the skill itself: nothing to fetch.
        if let Some(read) = skillpg_share::interchange::from_zed_link(&address) {
            match read {
                Ok(skill) => {
                    let name = skill.dir_name.clone();
                    let placed = c.state.try_update(|s| {
                        s.remove_untouched_samples();
                        s.put_skill(skill)
                    });
                    let note = placed
                        .and_then(|p| skillpg_share::beside_note(std::slice::from_ref(&p)))
                        .map(|n| format!(" {n}"))
                        .unwrap_or_default();
                    c.status
                        .set(format!("Loaded {name} from a Zed share link.{note}"));
                }
                Err(message) => c
                    .status
                    .set(format!("The Zed link could not be read: {message}.")),
            }
            return;
        }
        // An empty or relative address would fetch the page itself.
        if !(address.starts_with("https://") || address.starts_with("http://")) {
            c.status.set("Type or paste an http(s) address of a skill folder on GitHub, a SKILL.md, a raw file or a zip first.".to_owned());
            return;
        }
        busy.set(true);
        if address
            .split(['?', '#'])
            .next()
            .unwrap_or("")
            .ends_with("/index.json")
        {
            spawn_local(async move {
                load_index(c, &address).await;
                busy.set(false);
            });
            return;
        }
        spawn_local(async move {
            match load_address(c, &address).await {
                Ok(files) => add_files(c, files),
                Err(message) => c.status.set(format!(
                    "{message}. You can also download the folder and drop it here."
                )),
            }
            busy.set(false);
        });
    };

    view! {
        <div class="url-load">
            <label for="url-input" class="visually-hidden">"Load from a URL (GitHub file or raw address, a gist's raw file, a zip, a /.well-known/agent-skills/index.json, a zed://skill link)"</label>
            <input id="url-input" type="url" placeholder="Load from a URL: GitHub, raw, zip, index.json, zed://"
                title="A GitHub folder or file, a raw file, a gist's raw file, a zip, a /.well-known/agent-skills/index.json, a zed://skill link"
                prop:value=move || url.get() on:input=move |ev| {
                    // An address is short: a pasted 20 MB link is refused by its length before
                    // it is copied anywhere (a Zed link past 1 MB would be refused anyway).
                    let len = ev.target()
                        .and_then(|t| js_sys::Reflect::get(&t, &"value".into()).ok())
                        .map(|v| v.unchecked_into::<js_sys::JsString>().length() as usize)
                        .unwrap_or(0);
                    if len > skillpg_share::interchange::MAX_ADDRESS_CHARS {
                        url.set(String::new());
                        if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            i.set_value("");
                        }
                        c.status.set(format!(
                            "That paste is {} characters; an address or a Zed link is at most {} (a Zed link holds a SKILL.md of up to 1 MB). Drop or pick the file instead.",
                            n(len), n(skillpg_share::interchange::MAX_ADDRESS_CHARS)
                        ));
                    } else {
                        url.set(event_target_value(&ev));
                    }
                }
                on:keydown=move |ev| if ev.key() == "Enter" { load_url() }/>
            <button data-testid="url-load" on:click=move |_| load_url()>"Load"</button>
        </div>
    }
}

/// The samples, a new empty skill, and "Clear all" (which asks, and can be undone).
#[component]
fn Gallery() -> impl IntoView {
    let c = ctx();
    let cleared = c.cleared;
    let clear_all = move |_| {
        let n = c.state.with_untracked(|s| s.skills.len());
        if n == 0 {
            return;
        }
        let question =
            format!("Remove all {n} loaded skill(s) from this page? You can undo it right after.");
        if !crate::browser::confirm(&question) {
            return;
        }
        cleared.set(Some(c.state.get_untracked()));
        c.state.update(|st| {
            st.replace_skills(Vec::new());
            st.selected = 0;
        });
        c.status.set(format!(
            "Removed {n} skill(s). \"Undo clear\" brings them back."
        ));
    };
    view! {
        <div class="gallery" aria-label="Samples">
            <span class="muted">"Samples:"</span>
            {SAMPLES.iter().map(|&sample| view! {
                <button title=sample.blurb data-testid=format!("sample-{}", sample.dir) on:click=move |_| {
                    let placed = c.state.try_update(|st| st.put_skill(sample.input()));
                    if let Some(note) = placed.and_then(|p| skillpg_share::beside_note(std::slice::from_ref(&p))) {
                        c.status.set(note);
                    }
                }>{sample.title}</button>
            }).collect_view()}
            <button data-testid="new-skill" on:click=move |_| c.state.update(|st| {
                // A new skill is one's own work: an untouched sample makes way, as for a load.
                st.remove_untouched_samples();
                // A new skill has no folder yet: it stands in one named after its `name`.
                st.put_skill(SkillInput::lone_skill_md(b"---\nname: new-skill\ndescription: What it does. Use when ...\n---\n\n# New skill\n".to_vec()));
            })>"New skill"</button>
            <button data-testid="clear" on:click=clear_all>"Clear all"</button>
        </div>
    }
}

/// Brings back what "Clear all" removed; whatever was loaded since stays, beside it.
pub(super) fn undo_clear(c: super::Ctx) {
    if let Some(mut before) = c.cleared.get_untracked() {
        let since = c.state.with_untracked(|s| s.skills.clone());
        before.documents = crate::state::Documents::renewed();
        before.add_beside(since);
        c.state.set(before);
        c.cleared.set(None);
        c.status.set("The cleared skills are back.".to_owned());
    }
}

/// Loads the skills an Agent Skills discovery index names (`.../.well-known/agent-skills/
/// index.json`): each file fetched beside the index and checked against its digest and the
/// skill's (`skillpg_share::interchange::verify`). A skill whose bytes do not match is refused
/// and named; the others load.
async fn load_index(c: super::Ctx, address: &str) {
    use skillpg_share::interchange;
    c.status.set(format!("Fetching {address}…"));
    let index = match browser::fetch_fresh_within(address, github::MAX_BYTES, INDEX_FETCH_MS)
        .await
        .map_err(String::from)
        .and_then(|b| {
            interchange::read_index(&String::from_utf8_lossy(&b)).map_err(|e| e.to_string())
        }) {
        Ok(index) => index,
        Err(message) => {
            c.status
                .set(format!("The index could not be read: {message}."));
            return;
        }
    };
    let mut loaded = Vec::new();
    let mut refused = Vec::new();
    let mut warnings = Vec::new();
    let n_files: usize = index.skills.iter().map(|s| s.files.len().max(1)).sum();
    if index.skills.len() > crate::state::MAX_LINK_SKILLS || n_files > crate::state::MAX_LINK_FILES
    {
        c.status.set(format!(
            "The index names {} skills and {n_files} files, more than the page loads at once ({} skills, {} files).",
            index.skills.len(),
            crate::state::MAX_LINK_SKILLS,
            crate::state::MAX_LINK_FILES
        ));
        return;
    }
    // One budget for the whole index: each file is fetched with at most what is left of it.
    let mut fetched_bytes: u64 = 0;
    for entry in &index.skills {
        let mut fetched = Vec::new();
        let mut failed = None;
        for (path, rel) in interchange::files_to_fetch(entry) {
            let url = interchange::fetch_address(address, &rel);
            let left = skillpg_share::MAX_LOAD_BYTES.saturating_sub(fetched_bytes);
            c.status.set(format!("Fetching {url}…"));
            match browser::fetch_fresh_within(&url, github::MAX_BYTES.min(left), INDEX_FETCH_MS)
                .await
            {
                Ok(bytes) => {
                    fetched_bytes += bytes.len() as u64;
                    fetched.push((path, bytes));
                }
                Err(e) => {
                    // Refused for its size with less than a file's cap of the budget left: the
                    // index as a whole is over the load budget, and nothing of it is loaded.
                    if left < github::MAX_BYTES
                        && matches!(e, browser::FetchError::TooLarge(_))
                        && let Some(m) = skillpg_share::over_load_budget(
                            "The index",
                            fetched_bytes.max(skillpg_share::MAX_LOAD_BYTES + 1),
                        )
                    {
                        c.status.set(m);
                        return;
                    }
                    failed = Some(format!("{}: {e}", entry.name));
                    break;
                }
            }
        }
        if let Some(f) = failed {
            refused.push(f);
            continue;
        }
        match interchange::verify(entry, fetched) {
            Ok((skill, warning)) => {
                warnings.extend(warning);
                loaded.push(skill);
            }
            Err(e) => refused.push(e.to_string()),
        }
    }
    let adding: u64 = loaded
        .iter()
        .flat_map(|k| &k.files)
        .map(|(_, b)| b.len() as u64)
        .sum();
    if let Some(message) = c.state.with_untracked(|s| s.load_refusal(adding)) {
        c.status.set(message);
        return;
    }
    let mut placed = Vec::new();
    c.state.update(|s| {
        if !loaded.is_empty() {
            s.remove_untouched_samples();
        }
        for k in loaded {
            placed.push(s.put_skill(k));
        }
    });
    c.status.set(interchange::index_summary(
        placed.len(),
        &warnings,
        &refused,
        skillpg_share::beside_note(&placed),
    ));
}

/// How long one file of an index may take to arrive before the load gives up on it.
const INDEX_FETCH_MS: u32 = 30_000;

/// The files at `address`: a GitHub folder (listed through the API, read from the raw host),
/// a GitHub file, or any other address of a SKILL.md or an archive. Paths keep the folder's
/// name, so the skill's `name` is compared with the folder it really has.
async fn load_address(c: super::Ctx, address: &str) -> Result<Vec<PickedFile>, String> {
    let ep = browser::github_endpoints();
    let one_file_max = github::MAX_BYTES;
    if let Some(gh) = github::parse(address) {
        if !gh.is_file {
            return load_github_folder(c, &gh, &ep).await;
        }
        let raw = gh.raw_url(&ep, &gh.path);
        c.status.set(format!("Fetching {raw}…"));
        let bytes = browser::fetch_bytes(&raw, one_file_max).await?;
        let file = gh.path.rsplit('/').next().unwrap_or("SKILL.md");
        return Ok(vec![(
            if is_archive_name(file) {
                file.to_owned()
            } else {
                format!("{}/{file}", gh.folder_name())
            },
            bytes,
        )]);
    }
    c.status.set(format!("Fetching {address}…"));
    let bytes = browser::fetch_bytes(address, one_file_max).await?;
    let path = address.split(['?', '#']).next().unwrap_or(address);
    let mut segments = path.rsplit('/');
    let file = segments
        .next()
        .filter(|f| !f.is_empty())
        .unwrap_or("SKILL.md")
        .to_owned();
    if is_archive_name(&file) {
        return Ok(vec![(file, bytes)]);
    }
    // A SKILL.md keeps the folder it sits in: `.../skills/pdf/SKILL.md` is `pdf`.
    let folder = segments
        .next()
        .filter(|f| !f.is_empty() && !f.contains(['.', ':']))
        .unwrap_or("my-skill");
    Ok(vec![(format!("{folder}/SKILL.md"), bytes)])
}

/// Lists a GitHub folder recursively through the contents API, then reads every file from the
/// raw host, saying how far it got; bounded in requests, files and bytes before anything is read.
async fn load_github_folder(
    c: super::Ctx,
    gh: &github::GithubPath,
    ep: &github::Endpoints,
) -> Result<Vec<PickedFile>, String> {
    let mut queue = vec![gh.path.clone()];
    let mut entries: Vec<github::Entry> = Vec::new();
    let mut n_listings = 0;
    while let Some(dir) = queue.pop() {
        n_listings += 1;
        if n_listings > github::MAX_LISTINGS {
            return Err(format!(
                "the folder holds more than {} folders; pick the skill's own folder",
                github::MAX_LISTINGS
            ));
        }
        c.status.set(format!(
            "Listing {}/{} on GitHub… ({} files so far)",
            gh.repo,
            dir,
            n(entries.len())
        ));
        let got = browser::fetch_full(&gh.contents_url(ep, &dir), github::MAX_BYTES).await?;
        if got.status != 200 {
            return Err(github::api_error(
                got.status,
                got.ratelimit_remaining.as_deref(),
                got.ratelimit_reset.as_deref(),
                browser::epoch_seconds(),
            ));
        }
        for entry in github::parse_listing(&got.bytes)? {
            match entry.kind.as_str() {
                "file" => entries.push(entry),
                "dir" => queue.push(entry.path),
                _ => {}
            }
        }
        if entries.len() > github::MAX_FILES {
            return Err(format!(
                "the folder holds more than {} files; pick the skill's own folder",
                n(github::MAX_FILES)
            ));
        }
    }
    let total: u64 = entries.iter().map(|e| e.size).sum();
    if total > github::MAX_BYTES {
        return Err(format!(
            "the folder's {} files hold {} MB, over the {} MB a skill may take here",
            n(entries.len()),
            total / 1_048_576,
            github::MAX_BYTES / 1_048_576
        ));
    }
    let folder = gh.folder_name();
    let prefix = if gh.path.is_empty() {
        String::new()
    } else {
        format!("{}/", gh.path)
    };
    let mut files = Vec::with_capacity(entries.len());
    let mut fetched = 0u64;
    for (idx, entry) in entries.iter().enumerate() {
        c.status.set(format!(
            "Fetching file {} of {} ({} of {} bytes)…",
            idx + 1,
            entries.len(),
            n(fetched as usize),
            n(total as usize)
        ));
        let bytes = browser::fetch_bytes(
            &gh.raw_url(ep, &entry.path),
            github::MAX_BYTES - fetched.min(github::MAX_BYTES),
        )
        .await?;
        fetched += bytes.len() as u64;
        let relative = entry.path.strip_prefix(&prefix).unwrap_or(&entry.path);
        files.push((format!("{folder}/{relative}"), bytes));
    }
    c.status.set(format!(
        "Loaded {} files ({} bytes) from {}/{}.",
        n(files.len()),
        n(fetched as usize),
        gh.owner,
        gh.repo
    ));
    Ok(files)
}

/// The height of a catalog row, in CSS pixels (set through the CSSOM, which the page's CSP
/// allows where it refuses `style` attributes): fixed, so that a catalog of a thousand skills
/// renders only the rows in sight (and a margin) and still scrolls as the whole list.
const CATALOG_ROW_PX: f64 = 48.0;
/// Rows rendered above and below the ones in sight: a short catalog is rendered whole.
const CATALOG_OVERSCAN: usize = 30;

/// The loaded skills side by side, as an agent sees them: one level-1 line each, with where
/// it loads (of every client) and the selected one marked. Virtualized: only the rows in sight
/// are in the page.
#[component]
pub fn Catalog() -> impl IntoView {
    let c = ctx();
    let list = NodeRef::<leptos::html::Div>::new();
    let scroll_top = RwSignal::new(0.0_f64);
    let height = RwSignal::new(600.0_f64);
    // The selected skill, notifying only when it changes: a keystroke changes the state, and
    // reading `scroll_top` on each one forced a layout of the whole page.
    let selected = Memo::new(move |_| c.state.with(|s| s.selected));
    // Per skill: its name, its level-1 line, and in how many clients it loads.
    let rows = Memo::new(move |_| {
        let computed = c.computed.get();
        // Counted from the checks as they are (a client's verdict is whether any error is
        // left): no matrix of cells is made for a thousand skills a keystroke.
        computed
            .analyses
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let loads = computed
                    .checks
                    .iter()
                    .filter(|(_, per_skill)| {
                        per_skill.get(i).is_some_and(|d| skillpg_core::is_valid(d))
                    })
                    .count();
                (
                    a.display_name().to_owned(),
                    a.level1_line.trim_end().to_owned(),
                    loads,
                    computed.checks.len(),
                )
            })
            .collect::<Vec<_>>()
    });
    let measure = move || {
        if let Some(el) = list.get_untracked() {
            scroll_top.set(el.scroll_top() as f64);
            height.set(el.client_height().max(1) as f64);
        }
    };
    // The selected skill (chosen in the matrix, or placed by a load) scrolls into sight.
    Effect::new(move |_| {
        let selected = selected.get() as f64;
        let Some(el) = list.get() else { return };
        let (top, h) = (el.scroll_top() as f64, el.client_height() as f64);
        let row_top = selected * CATALOG_ROW_PX;
        if row_top < top || row_top + CATALOG_ROW_PX > top + h {
            el.set_scroll_top((row_top - h / 2.0).max(0.0) as i32);
        }
    });
    let shown = move || {
        let first = ((scroll_top.get() / CATALOG_ROW_PX) as usize).saturating_sub(CATALOG_OVERSCAN);
        let count = (height.get() / CATALOG_ROW_PX).ceil() as usize + 2 * CATALOG_OVERSCAN;
        (first, count)
    };
    view! {
        // A list of skills, the chosen one marked current (a tab list may hold only tabs, and
        // each row also has its remove button).
        <div class="catalog" role="list" aria-label="Loaded skills" data-testid="catalog"
            data-count=move || rows.with(Vec::len) node_ref=list on:scroll=move |_| measure()>
            <div class="catalog-rows" style:height=move || format!("{}px", rows.with(Vec::len) as f64 * CATALOG_ROW_PX)>
                {move || {
                    let (first, count) = shown();
                    let selected = selected.get();
                    let total = rows.with(Vec::len);
                    rows.with(|rows| rows.iter().enumerate().skip(first).take(count).map(|(idx, (name, line, loads, of))| {
                        let (name, line, loads, of) = (name.clone(), line.clone(), *loads, *of);
                        let title = line.clone();
                        let bad = loads < of;
                        let summary = if bad { format!("✗ fails in {} of {of}", of - loads) } else { format!("✓ loads in all {of}") };
                        view! {
                            <div class="catalog-item" role="listitem" class:selected=move || selected == idx
                                aria-setsize=total.to_string() aria-posinset=(idx + 1).to_string()
                                style:top=format!("{}px", idx as f64 * CATALOG_ROW_PX)>
                                <button class="choose" aria-current=(selected == idx).then_some("true")
                                    title=title
                                    on:click=move |_| c.state.update(|s| { s.selected = idx; s.selected_file = "SKILL.md".into(); })>
                                    <span class="skill-name">{name.clone()}</span>
                                    <span class="badge" class:bad=bad data-testid="catalog-verdict">{summary}</span>
                                    <code class="level1">{line}</code>
                                </button>
                                <button class="remove" aria-label=format!("Remove {name}") on:click=move |_| c.state.update(|s| s.remove_skill(idx))>"×"</button>
                            </div>
                        }
                    }).collect_view())
                }}
            </div>
        </div>
    }
}
