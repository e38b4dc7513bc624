//! `skillpg lsp`: the engine in an editor, over the Language Server Protocol (stdio, JSON-RPC,
//! with rust-analyzer's `lsp-server` scaffold).
//!
//! The server indexes every skill under the workspace's roots at start (`workspace`), re-checks
//! one skill per edit from the bytes it holds, and answers from the checked skill
//! (`features`): diagnostics for SKILL.md and every file of its folder, code actions through
//! the engine's one fix applier, hovers with each client's level-1 line, completion of the
//! fields the chosen profiles read, document links and each level's tokens as inlay hints.
//!
//! It checks what `skillpg check` checks, under the profiles the workspace chooses: the
//! initialization options' `profiles`, else `skillpg.toml`'s at the first workspace folder,
//! else `spec`; `skillpg.toml`'s ignores and severities apply as they do in the CLI.

pub mod features;
pub mod position;
pub mod transport;
pub mod workspace;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    CompletionOptions, CompletionParams, CompletionResponse, DidChangeTextDocumentParams,
    DidChangeWatchedFilesParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, DocumentLinkOptions, DocumentLinkParams, HoverParams,
    HoverProviderCapability, InitializeParams, InlayHintParams, MessageType, OneOf,
    PublishDiagnosticsParams, SaveOptions, ServerCapabilities, ShowMessageParams,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url,
};
use serde::Deserialize;

use position::{Encoding, Lines};
use workspace::{Settings, Workspace};

/// What an editor may pass at initialization (`initializationOptions`).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Options {
    /// Profiles to check against (keys, or `all`); wins over `skillpg.toml`.
    #[serde(default)]
    profiles: Vec<String>,
}

/// How a session ended, for the process's exit status: the protocol asks 0 after `shutdown`
/// then `exit`, and 1 for an `exit` without `shutdown` (or an input that ended without either).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `shutdown`, then `exit`.
    Clean,
    /// `exit` without `shutdown`, or the input ended.
    Abrupt,
}

/// Serves one client over standard input and output until it exits; the reader is
/// [`transport`]'s, bounded and never fatal.
pub fn serve_stdio() -> Result<Ending, String> {
    let (connection, reader, writer) = transport::stdio();
    let ending = serve(&connection);
    drop(connection);
    // The reader may be blocked on standard input after `exit`; the process ends anyway.
    drop(reader);
    writer
        .join()
        .map_err(|_| "the writer thread panicked".to_owned())?;
    ending
}

/// The server's state between messages.
struct Server<'c> {
    connection: &'c Connection,
    enc: Encoding,
    workspace: Workspace,
    /// The first workspace folder (where `skillpg.toml` is read).
    root: Option<PathBuf>,
    options: Options,
    /// Files each skill's last publication named, so a file whose findings are gone is cleared.
    published: HashMap<PathBuf, HashSet<PathBuf>>,
    /// The folders of skills whose bytes changed since they were last checked (edits not yet
    /// checked): folders, not indices, since a skill closed unsaved leaves the list.
    pending: std::collections::BTreeSet<PathBuf>,
    /// How the client takes watchers: `None` when it does not take them dynamically.
    watching: Option<Watching>,
}

/// The client's file watching, as the server registers it.
#[derive(Debug)]
struct Watching {
    /// Whether watchers may be relative patterns (a base folder and a glob).
    relative: bool,
    /// The folders watched now (each skill's), and how many registrations were made.
    folders: Vec<PathBuf>,
    registrations: u64,
}

/// Serves one client on `connection` until it exits (or its input ends).
pub fn serve(connection: &Connection) -> Result<Ending, String> {
    // An input that ends (or exits) before initializing ends the session as `exit` would.
    let Ok((id, params)) = connection.initialize_start() else {
        return Ok(Ending::Abrupt);
    };
    let params: InitializeParams =
        serde_json::from_value(params).map_err(|e| format!("initialize: {e}"))?;
    let enc = Encoding::negotiate(
        params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref()),
    );
    let capabilities = capabilities(enc);
    connection
        .initialize_finish(
            id,
            serde_json::json!({
                "capabilities": capabilities,
                "serverInfo": {"name": "skillpg", "version": env!("CARGO_PKG_VERSION")},
            }),
        )
        .map_err(|e| e.to_string())?;
    let options: Options = params
        .initialization_options
        .clone()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    #[allow(deprecated)] // `root_uri` is what older clients send instead of folders.
    let folders: Vec<PathBuf> = match &params.workspace_folders {
        Some(f) if !f.is_empty() => f.iter().filter_map(|f| f.uri.to_file_path().ok()).collect(),
        _ => params
            .root_uri
            .as_ref()
            .and_then(|u| u.to_file_path().ok())
            .into_iter()
            .collect(),
    };
    let mut server = Server {
        connection,
        enc,
        workspace: Workspace::new(Settings::from_keys(&[], None).0),
        root: folders.first().cloned(),
        options,
        published: HashMap::new(),
        pending: std::collections::BTreeSet::new(),
        watching: Watching::offered(&params.capabilities),
    };
    server.load(&folders);
    server.watch();
    let mut shut_down = false;
    // Messages are taken as they come; whatever is already waiting is taken too before any
    // skill is checked again, so a burst of edits costs one check of the latest text, and a
    // request answers from the latest text (its skill checked first if an edit is pending).
    while let Ok(first) = connection.receiver.recv() {
        let mut next = Some(first);
        while let Some(msg) = next.take() {
            match msg {
                Message::Request(req) => {
                    if req.method == lsp_types::request::Shutdown::METHOD {
                        shut_down = true;
                        server.reply(Response::new_ok(req.id, serde_json::Value::Null));
                    } else if shut_down {
                        server.reply(Response::new_err(
                            req.id,
                            ErrorCode::InvalidRequest as i32,
                            "the server is shutting down".to_owned(),
                        ));
                    } else {
                        server.flush();
                        server.request(req);
                    }
                }
                Message::Notification(n) if n.method == lsp_types::notification::Exit::METHOD => {
                    return Ok(if shut_down {
                        Ending::Clean
                    } else {
                        Ending::Abrupt
                    });
                }
                Message::Notification(n) if !shut_down => server.notification(n),
                Message::Notification(_) | Message::Response(_) => {}
            }
            next = connection.receiver.try_recv().ok();
        }
        server.flush();
        server.watch();
    }
    Ok(Ending::Abrupt)
}

impl Watching {
    /// Watching as the client offers it: only a client that takes watchers dynamically gets
    /// them (Neovim and Helix send no watched-file event unasked; VS Code's extension no longer
    /// watches every file itself).
    fn offered(capabilities: &lsp_types::ClientCapabilities) -> Option<Watching> {
        let watched = capabilities
            .workspace
            .as_ref()?
            .did_change_watched_files
            .as_ref()?;
        watched
            .dynamic_registration
            .unwrap_or(false)
            .then(|| Watching {
                relative: watched.relative_pattern_support.unwrap_or(false),
                folders: Vec::new(),
                registrations: 0,
            })
    }

    /// The watchers for `folders`: a SKILL.md and a skillpg.toml anywhere, and every file of
    /// each skill folder (never node_modules or target as a whole).
    fn watchers(&self, folders: &[PathBuf]) -> Vec<lsp_types::FileSystemWatcher> {
        use lsp_types::{FileSystemWatcher, GlobPattern, RelativePattern};
        let mut out: Vec<FileSystemWatcher> = ["**/SKILL.md", "**/skill.md", "**/skillpg.toml"]
            .iter()
            .map(|g| FileSystemWatcher {
                glob_pattern: GlobPattern::String((*g).to_owned()),
                kind: None,
            })
            .collect();
        for dir in folders {
            let glob_pattern = match Url::from_directory_path(dir) {
                Ok(base) if self.relative => GlobPattern::Relative(RelativePattern {
                    base_uri: OneOf::Right(base),
                    pattern: "**/*".to_owned(),
                }),
                _ => GlobPattern::String(format!("{}/**/*", dir.display())),
            };
            out.push(FileSystemWatcher {
                glob_pattern,
                kind: None,
            });
        }
        out
    }
}

fn capabilities(enc: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(enc.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..Default::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".to_owned(), " ".to_owned()]),
            ..Default::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::SOURCE_FIX_ALL,
            ]),
            ..Default::default()
        })),
        document_link_provider: Some(DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        inlay_hint_provider: Some(OneOf::Left(true)),
        ..Default::default()
    }
}

impl Server<'_> {
    /// Reads the settings (options, then `skillpg.toml`) and indexes the roots: `skillpg.toml`'s
    /// `roots`, else the workspace folders.
    fn load(&mut self, folders: &[PathBuf]) {
        let mut config = None;
        let mut roots: Vec<PathBuf> = folders.to_vec();
        if let Some(root) = &self.root {
            let file = root.join(skillpg_report::config::FILE_NAME);
            if let Ok(text) = std::fs::read_to_string(&file) {
                match skillpg_report::config::Config::parse(&text) {
                    Ok(c) => {
                        if !c.roots.is_empty() {
                            roots = c.roots.iter().map(|r| root.join(r)).collect();
                        }
                        config = Some(c);
                    }
                    Err(e) => self.say(MessageType::ERROR, format!("{}: {e}", file.display())),
                }
            }
        }
        let keys = if self.options.profiles.is_empty() {
            config
                .as_ref()
                .map(|c| c.profiles.clone())
                .unwrap_or_default()
        } else {
            self.options.profiles.clone()
        };
        let (settings, unknown) = Settings::from_keys(&keys, config);
        if let Some(e) = unknown {
            self.say(
                MessageType::ERROR,
                format!("skillpg: {e}; checking under spec until it is mended"),
            );
        }
        let open = std::mem::take(&mut self.workspace.open);
        // Every skill is read and checked again below, open buffers laid over.
        self.pending.clear();
        self.workspace = Workspace::new(settings);
        self.workspace.open = open;
        for problem in self.workspace.index(&roots) {
            self.say(MessageType::WARNING, format!("skillpg: {problem}"));
        }
        for i in 0..self.workspace.skills.len() {
            self.publish(i);
        }
    }

    fn say(&self, typ: MessageType, message: String) {
        self.notify::<lsp_types::notification::ShowMessage>(ShowMessageParams { typ, message });
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let _ = self
            .connection
            .sender
            .send(Message::Notification(Notification::new(
                N::METHOD.to_owned(),
                params,
            )));
    }

    /// Publishes skill `i`'s diagnostics on every file that has some, and clears the files
    /// its last publication named that have none now.
    fn publish(&mut self, i: usize) {
        let skill = &self.workspace.skills[i];
        let now = features::diagnostics(skill, self.enc);
        let before = self.published.remove(&skill.dir).unwrap_or_default();
        let mut named = HashSet::new();
        for (path, diagnostics) in now {
            named.insert(path.clone());
            self.send_diagnostics(&path, diagnostics);
        }
        for path in before.difference(&named) {
            self.send_diagnostics(path, Vec::new());
        }
        self.published
            .insert(self.workspace.skills[i].dir.clone(), named);
    }

    fn send_diagnostics(&self, path: &Path, diagnostics: Vec<lsp_types::Diagnostic>) {
        if let Ok(uri) = Url::from_file_path(path) {
            self.notify::<lsp_types::notification::PublishDiagnostics>(PublishDiagnosticsParams {
                uri,
                diagnostics,
                version: None,
            });
        }
    }

    fn notification(&mut self, n: Notification) {
        use lsp_types::notification as N;
        match n.method.as_str() {
            N::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params)
                    && let Ok(path) = p.text_document.uri.to_file_path()
                {
                    self.edited(&path, Some(p.text_document.text));
                }
            }
            N::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params)
                    && let Ok(path) = p.text_document.uri.to_file_path()
                {
                    // Taken out, edited, and put back by `edited`: no copy of the text.
                    let mut text = self.workspace.open.remove(&path).unwrap_or_default();
                    for change in p.content_changes {
                        match change.range {
                            Some(r) => {
                                let lines = Lines::new(&text);
                                let start = lines.offset(&text, r.start, self.enc);
                                let end = lines.offset(&text, r.end, self.enc).max(start);
                                text.replace_range(start..end, &change.text);
                            }
                            None => text = change.text,
                        }
                    }
                    self.edited(&path, Some(text));
                }
            }
            N::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params)
                    && let Ok(path) = p.text_document.uri.to_file_path()
                {
                    self.edited(&path, None);
                }
            }
            N::DidSaveTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params)
                    && let Ok(path) = p.text_document.uri.to_file_path()
                {
                    self.disk_changed(&path);
                }
            }
            N::DidChangeWatchedFiles::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(n.params) {
                    for change in p.changes {
                        if let Ok(path) = change.uri.to_file_path() {
                            self.disk_changed(&path);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// An open buffer's text changed: its skill takes the bytes now and is checked once the
    /// messages waiting have been read ([`Server::flush`]).
    fn edited(&mut self, path: &Path, text: Option<String>) {
        let closed = text.is_none();
        let Some(i) = self.workspace.stage_text(path, text) else {
            return;
        };
        if closed && let Some(gone) = self.workspace.forget_if_gone(i) {
            // Nothing of it is left to check: its findings are cleared, not kept forever.
            self.pending.remove(&gone.dir);
            for file in self.published.remove(&gone.dir).unwrap_or_default() {
                self.send_diagnostics(&file, Vec::new());
            }
            return;
        }
        self.pending.insert(self.workspace.skills[i].dir.clone());
    }

    /// Checks every skill with edits pending, once, from its latest bytes, and publishes.
    fn flush(&mut self) {
        for dir in std::mem::take(&mut self.pending) {
            if let Some(i) = self.workspace.skills.iter().position(|s| s.dir == dir) {
                self.workspace.recheck(i);
                self.publish(i);
            }
        }
    }

    /// Registers the file watchers with the client when the skill folders changed (the first
    /// time, after a reload, when a skill appears), replacing the previous registration.
    fn watch(&mut self) {
        let Some(watching) = self.watching.as_mut() else {
            return;
        };
        // Runs after every batch of messages: compared in place, copied only when they changed.
        let skills = &self.workspace.skills;
        if watching.registrations > 0 && watching.folders.iter().eq(skills.iter().map(|s| &s.dir)) {
            return;
        }
        let folders: Vec<PathBuf> = skills.iter().map(|s| s.dir.clone()).collect();
        let method = "workspace/didChangeWatchedFiles".to_owned();
        let previous = watching.registrations;
        watching.registrations += 1;
        let id = format!("skillpg-watch-{}", watching.registrations);
        let options = lsp_types::DidChangeWatchedFilesRegistrationOptions {
            watchers: watching.watchers(&folders),
        };
        watching.folders = folders;
        if previous > 0 {
            let old = format!("skillpg-watch-{previous}");
            self.ask(
                "client/unregisterCapability",
                format!("unregister-{old}"),
                lsp_types::UnregistrationParams {
                    unregisterations: vec![lsp_types::Unregistration {
                        id: old,
                        method: method.clone(),
                    }],
                },
            );
        }
        self.ask(
            "client/registerCapability",
            format!("register-{id}"),
            lsp_types::RegistrationParams {
                registrations: vec![lsp_types::Registration {
                    id,
                    method,
                    register_options: serde_json::to_value(options).ok(),
                }],
            },
        );
    }

    /// Sends the client a request of the server's own (its answer is not waited for).
    fn ask(&self, method: &str, id: String, params: impl serde::Serialize) {
        let _ = self.connection.sender.send(Message::Request(Request::new(
            RequestId::from(id),
            method.to_owned(),
            params,
        )));
    }

    fn reply(&self, response: Response) {
        let _ = self.connection.sender.send(Message::Response(response));
    }

    /// A file changed on disk: `skillpg.toml` reloads everything; a file of a skill re-reads
    /// that skill's folder (a file may have been added or removed); a new SKILL.md adds its
    /// folder.
    fn disk_changed(&mut self, path: &Path) {
        if path.file_name().and_then(|n| n.to_str()) == Some(skillpg_report::config::FILE_NAME) {
            let folders: Vec<PathBuf> = self.root.iter().cloned().collect();
            self.load(&folders);
            return;
        }
        let dir = match self.workspace.skill_at(path) {
            Some(i) => self.workspace.skills[i].dir.clone(),
            None if path
                .file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case("skill.md")) =>
            {
                match path.parent() {
                    Some(d) => d.to_path_buf(),
                    None => return,
                }
            }
            None => return,
        };
        for i in self.workspace.reread(&dir) {
            self.publish(i);
        }
    }

    fn request(&mut self, req: Request) {
        use lsp_types::request as R;
        let id = req.id.clone();
        let method = req.method.clone();
        let result = match method.as_str() {
            R::HoverRequest::METHOD => self.handle::<HoverParams, _>(req, |s, p| {
                let pos = p.text_document_position_params;
                s.in_skill_md(&pos.text_document.uri, |skill, text, lines, enc| {
                    let offset = lines.offset(text, pos.position, enc);
                    features::hover(skill, offset, lines, enc)
                })
                .flatten()
            }),
            R::Completion::METHOD => self.handle::<CompletionParams, _>(req, |s, p| {
                let pos = p.text_document_position;
                s.in_skill_md(&pos.text_document.uri, |skill, text, lines, enc| {
                    let offset = lines.offset(text, pos.position, enc);
                    CompletionResponse::Array(features::completion(skill, text, offset))
                })
            }),
            R::CodeActionRequest::METHOD => self.handle::<CodeActionParams, _>(req, |s, p| {
                let path = p.text_document.uri.to_file_path().ok()?;
                let i = s.workspace.skill_at(&path)?;
                let skill = &s.workspace.skills[i];
                let rel = skill.relative(&path)?;
                let text = skill.text(&rel)?;
                let lines = Lines::new(text);
                let range = lines.offset(text, p.range.start, s.enc)
                    ..lines.offset(text, p.range.end, s.enc);
                Some(features::code_actions(
                    skill,
                    &rel,
                    &p.text_document.uri,
                    range,
                    s.enc,
                ))
            }),
            R::DocumentLinkRequest::METHOD => self.handle::<DocumentLinkParams, _>(req, |s, p| {
                s.in_skill_md(&p.text_document.uri, |skill, _, lines, enc| {
                    features::document_links(skill, lines, enc)
                })
            }),
            R::InlayHintRequest::METHOD => self.handle::<InlayHintParams, _>(req, |s, p| {
                s.in_skill_md(&p.text_document.uri, |skill, text, lines, enc| {
                    let range = lines.offset(text, p.range.start, enc)
                        ..lines.offset(text, p.range.end, enc);
                    features::inlay_hints(skill, lines, enc, range)
                })
            }),
            _ => Err(Response::new_err(
                id.clone(),
                ErrorCode::MethodNotFound as i32,
                format!("skillpg does not handle {method}"),
            )),
        };
        let response = result.unwrap_or_else(|e| e);
        let _ = self.connection.sender.send(Message::Response(response));
    }

    /// Reads a request's parameters and answers with `f`'s result (`null` when it has none).
    fn handle<P, T>(
        &self,
        req: Request,
        f: impl FnOnce(&Self, P) -> Option<T>,
    ) -> Result<Response, Response>
    where
        P: serde::de::DeserializeOwned,
        T: serde::Serialize,
    {
        let id: RequestId = req.id.clone();
        match serde_json::from_value::<P>(req.params) {
            Ok(p) => Ok(Response::new_ok(id, f(self, p))),
            Err(e) => Err(Response::new_err(
                id,
                ErrorCode::InvalidParams as i32,
                e.to_string(),
            )),
        }
    }

    /// `f` on the skill whose SKILL.md `uri` is, with its text and line table.
    fn in_skill_md<T>(
        &self,
        uri: &Url,
        f: impl FnOnce(&workspace::Skill, &str, &Lines, Encoding) -> T,
    ) -> Option<T> {
        let path = uri.to_file_path().ok()?;
        let skill = &self.workspace.skills[self.workspace.skill_at(&path)?];
        let rel = skill.relative(&path)?;
        if skill.analysis.skill_md_path.as_deref() != Some(rel.as_str()) {
            return None;
        }
        let text = skill.analysis.doc.as_ref()?.text.as_str();
        let lines = Lines::new(text);
        Some(f(skill, text, &lines, self.enc))
    }
}
