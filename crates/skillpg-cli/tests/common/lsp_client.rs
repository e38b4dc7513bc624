//! A language-server client for the CLI's tests: `skillpg lsp --stdio` spawned, messages framed
//! with `Content-Length`, and every publication kept per URI.

#![allow(
    clippy::unwrap_used,
    reason = "a test client: a malformed message from the server is the failure"
)]
#![allow(dead_code, reason = "each test uses the part of the client it needs")]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

pub struct Client {
    pub child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// The latest diagnostics published for each URI.
    pub published: std::collections::HashMap<String, Vec<Value>>,
}

impl Client {
    pub fn start(dir: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skillpg"))
            .args(["lsp", "--stdio"])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("skillpg lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a Content-Length header")];
                r.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            next_id: 0,
            published: Default::default(),
        }
    }

    pub fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message, keeping every publication on the way.
    pub fn next(&mut self) -> Value {
        let msg = self
            .incoming
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute");
        if msg["method"] == "textDocument/publishDiagnostics" {
            let uri = msg["params"]["uri"].as_str().unwrap().to_owned();
            let diags = msg["params"]["diagnostics"].as_array().unwrap().clone();
            self.published.insert(uri, diags);
        }
        msg
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.next();
            if msg["id"] == id {
                assert!(msg.get("error").is_none(), "{method}: {msg}");
                return msg["result"].clone();
            }
        }
    }

    /// Reads until diagnostics for `uri` are published, and returns them.
    pub fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let msg = self.next();
            if msg["method"] == "textDocument/publishDiagnostics" && msg["params"]["uri"] == uri {
                return self.published[uri].clone();
            }
        }
    }
}

impl Client {
    /// Starts the server in `root` and initializes it with `capabilities`.
    pub fn initialized(root: &Path, capabilities: Value) -> Client {
        let mut client = Client::start(root);
        client.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(root), "capabilities": capabilities}),
        );
        client.notify("initialized", json!({}));
        client
    }

    /// Shuts the server down as an editor does, and checks it exits cleanly.
    pub fn shut_down(mut self) {
        assert!(self.request("shutdown", Value::Null).is_null());
        self.notify("exit", Value::Null);
        assert!(self.child.wait().unwrap().success());
    }
}

/// The `file:` URI of `path`.
pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}
