//! The wire: LSP's base protocol (a `Content-Length` header, a blank line, a JSON body) read
//! from an untrusted peer, bounded, and never fatal.
//!
//! `lsp-server`'s own reader sizes its buffer from the header before reading (a
//! `Content-Length` of 10^14 aborts the process, of 1.5 GB holds that much with no body sent)
//! and ends the session on a misspelt header, a non-numeric length, invalid JSON or invalid
//! UTF-8. Here a header line is at most [`MAX_HEADER_LINE`] bytes, a body at most
//! [`MAX_MESSAGE_BYTES`] (skipped without being held when it is larger), the body's buffer
//! grows only as bytes arrive, and each of those problems is answered as JSON-RPC says: a parse
//! error (-32700, id `null`) or an invalid request (-32600), after which the server keeps
//! reading. Only the end of the input ends the session.

use std::io::{self, BufRead, Read, Write};

use lsp_server::Message;

/// The largest message body read: an 8 MB SKILL.md (the most the engine reads) sent whole,
/// with JSON's escapes, fits several times over.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// The longest header line read (`Content-Length: …` is under 40 bytes).
pub const MAX_HEADER_LINE: usize = 8 * 1024;

/// How many messages the reader may parse ahead of the server.
pub const QUEUED_MESSAGES: usize = 256;

/// JSON-RPC's code for a body that is not JSON.
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's code for JSON that is not a request, a response or a notification.
pub const INVALID_REQUEST: i32 = -32600;

/// One thing read from the wire.
#[derive(Debug)]
pub enum Frame {
    /// A well-formed message.
    Message(Message),
    /// Something that is not one, with the error reply JSON-RPC asks for.
    Invalid {
        /// The request's id when the body had one, else `null`.
        id: serde_json::Value,
        /// [`PARSE_ERROR`] or [`INVALID_REQUEST`].
        code: i32,
        /// What was wrong, for the person reading the editor's log.
        message: String,
    },
}

impl Frame {
    fn parse_error(message: String) -> Frame {
        Frame::Invalid {
            id: serde_json::Value::Null,
            code: PARSE_ERROR,
            message,
        }
    }

    /// The reply to an invalid frame, as JSON text (`None` for a message).
    pub fn reply(&self) -> Option<String> {
        match self {
            Frame::Message(_) => None,
            Frame::Invalid { id, code, message } => Some(
                serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": {"code": code, "message": message},
                })
                .to_string(),
            ),
        }
    }
}

/// Reads one line of at most [`MAX_HEADER_LINE`] bytes (the rest of a longer line is read and
/// dropped); `None` at the end of the input.
fn header_line(r: &mut impl BufRead) -> io::Result<Option<(String, bool)>> {
    let mut line = Vec::new();
    let n = r
        .by_ref()
        .take(MAX_HEADER_LINE as u64)
        .read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    let mut too_long = false;
    if !line.ends_with(b"\n") && n == MAX_HEADER_LINE {
        too_long = true;
        // Drop the rest of the line, a chunk at a time.
        loop {
            let mut rest = Vec::new();
            let m = r
                .by_ref()
                .take(MAX_HEADER_LINE as u64)
                .read_until(b'\n', &mut rest)?;
            if m == 0 || rest.ends_with(b"\n") {
                break;
            }
        }
    }
    Ok(Some((
        String::from_utf8_lossy(&line).into_owned(),
        too_long,
    )))
}

/// What a `Content-Length` header said.
enum Length {
    /// A length within the limit.
    Bytes(usize),
    /// A length over [`MAX_MESSAGE_BYTES`].
    TooLarge(u64),
    /// Not a number.
    Bad(String),
}

/// Reads the next frame; `None` at the end of the input (a clean end, or one inside a
/// message: nothing more can be answered either way).
pub fn read_frame(r: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length: Option<Length> = None;
    let mut problem: Option<String> = None;
    let mut saw_header = false;
    loop {
        let Some((line, too_long)) = header_line(r)? else {
            return Ok(None);
        };
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            if saw_header || problem.is_some() {
                break;
            }
            // Blank lines between messages are tolerated.
            continue;
        }
        saw_header = true;
        if too_long {
            problem.get_or_insert_with(|| format!("a header line over {MAX_HEADER_LINE} bytes"));
            continue;
        }
        let Some((name, value)) = trimmed.split_once(':') else {
            problem.get_or_insert_with(|| format!("a header line without a colon: {trimmed:?}"));
            continue;
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            length = Some(match value.parse::<u64>() {
                Ok(n) if n <= MAX_MESSAGE_BYTES as u64 => Length::Bytes(n as usize),
                Ok(n) => Length::TooLarge(n),
                Err(_) => Length::Bad(format!("Content-Length {value:?} is not a number of bytes")),
            });
        }
    }
    match length {
        Some(Length::Bytes(n)) => {
            let mut body = Vec::new();
            // Grows as bytes arrive: a header that promises more than is sent holds nothing.
            r.by_ref().take(n as u64).read_to_end(&mut body)?;
            if body.len() < n {
                return Ok(None);
            }
            if let Some(p) = problem {
                return Ok(Some(Frame::parse_error(p)));
            }
            Ok(Some(parse_body(&body)))
        }
        Some(Length::TooLarge(n)) => {
            // A length over the limit is still a length: skip that many bytes, held nowhere.
            // The reply is owed even when the input ends before the promised bytes.
            io::copy(&mut r.by_ref().take(n), &mut io::sink())?;
            Ok(Some(Frame::parse_error(format!(
                "a message of {n} bytes, over the {MAX_MESSAGE_BYTES}-byte limit; skipped"
            ))))
        }
        Some(Length::Bad(e)) => Ok(Some(Frame::parse_error(e))),
        None => Ok(Some(Frame::parse_error(problem.unwrap_or_else(|| {
            "a message without a Content-Length header".to_owned()
        })))),
    }
}

/// A body: JSON (else a parse error), then a message (else an invalid request with its id).
fn parse_body(body: &[u8]) -> Frame {
    let value: serde_json::Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return Frame::parse_error(format!("the body is not JSON: {e}")),
    };
    let id = match value.get("id") {
        Some(id @ (serde_json::Value::Number(_) | serde_json::Value::String(_))) => id.clone(),
        _ => serde_json::Value::Null,
    };
    match serde_json::from_value::<Message>(value) {
        Ok(m) => Frame::Message(m),
        Err(e) => Frame::Invalid {
            id,
            code: INVALID_REQUEST,
            message: format!("not a request, response or notification: {e}"),
        },
    }
}

/// Writes one body with its header.
pub fn write_body(w: &mut impl Write, body: &str) -> io::Result<()> {
    write!(w, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    w.flush()
}

/// A connection over standard input and output with this module's reader: the reader thread
/// answers invalid frames itself and sends messages on; the writer thread writes what the
/// server sends. Join the handles after dropping the connection.
pub fn stdio() -> (
    lsp_server::Connection,
    std::thread::JoinHandle<()>,
    std::thread::JoinHandle<()>,
) {
    // The reader parses ahead of the server: while a check runs, the edits that arrive queue
    // up, and the server takes them all before it checks again (a burst of 200 edits costs a
    // few checks, not 200). Bounded, so a flood waits on the pipe instead of in memory.
    let (to_server, receiver) = crossbeam_channel::bounded::<Message>(QUEUED_MESSAGES);
    let (sender, from_server) = crossbeam_channel::unbounded::<Message>();
    let writer = std::thread::spawn(move || {
        for message in from_server {
            let mut out = io::stdout().lock();
            if message.write(&mut out).is_err() {
                break;
            }
        }
    });
    let reader = std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        loop {
            match read_frame(&mut input) {
                Ok(Some(Frame::Message(m))) => {
                    if to_server.send(m).is_err() {
                        break;
                    }
                }
                Ok(Some(invalid)) => {
                    if let Some(reply) = invalid.reply() {
                        let mut out = io::stdout().lock();
                        if write_body(&mut out, &reply).is_err() {
                            break;
                        }
                    }
                }
                Ok(None) | Err(_) => break,
            }
        }
    });
    (lsp_server::Connection { sender, receiver }, reader, writer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut r = io::BufReader::new(input);
        let mut out = Vec::new();
        while let Some(f) = read_frame(&mut r).expect("reads") {
            out.push(f);
        }
        out
    }

    fn message(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn code(f: &Frame) -> Option<i32> {
        match f {
            Frame::Invalid { code, .. } => Some(*code),
            Frame::Message(_) => None,
        }
    }

    #[test]
    fn hostile_headers_are_answered_and_reading_goes_on() {
        let good = message(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        // A length past the limit is skipped (here the rest of the input, the good message
        // included), held nowhere, and answered.
        for huge in ["99999999999999", "18446744073709551615", "67108865"] {
            let mut input = format!("Content-Length: {huge}\r\n\r\n{{}}").into_bytes();
            input.extend_from_slice(&good);
            let got = frames(&input);
            assert_eq!(got.len(), 1, "{huge}: {got:?}");
            assert_eq!(code(&got[0]), Some(PARSE_ERROR));
        }
        for bad in [
            b"Content-Length: 99999999999999999999999\r\n\r\n".to_vec(),
            b"Content-Lenght: 2\r\n\r\n".to_vec(),
            b"Content-Length: two\r\n\r\n".to_vec(),
            message("{not json"),
            b"Content-Length: 3\r\n\r\n\xff\xfe\x00".to_vec(),
            message("{}"),
            message("[1,2]"),
        ] {
            let mut input = bad.clone();
            input.extend_from_slice(&good);
            let got = frames(&input);
            let last = got.last().expect("the good message is read");
            assert!(
                matches!(last, Frame::Message(Message::Notification(_))),
                "{:?}: {got:?}",
                String::from_utf8_lossy(&bad)
            );
            assert!(
                got.iter().any(|f| code(f).is_some()),
                "{:?} gets an error reply: {got:?}",
                String::from_utf8_lossy(&bad)
            );
        }
    }

    #[test]
    fn a_promised_body_that_never_comes_holds_nothing_and_ends_cleanly() {
        // 1.5 GB promised, nothing sent: the end of the input, with no allocation of that size
        // (the test would abort or take gigabytes otherwise).
        let got = frames(b"Content-Length: 1500000000\r\n\r\n");
        assert_eq!(got.len(), 1);
        assert_eq!(code(&got[0]), Some(PARSE_ERROR));
        assert!(frames(b"Content-Length: 60000000\r\n\r\n{").is_empty());
    }

    #[test]
    fn parse_errors_have_a_null_id_and_invalid_requests_keep_theirs() {
        let got = frames(&message("{oops"));
        let reply: serde_json::Value =
            serde_json::from_str(&got[0].reply().expect("a reply")).expect("json");
        assert_eq!(reply["id"], serde_json::Value::Null);
        assert_eq!(reply["error"]["code"], PARSE_ERROR);
        let got = frames(&message(r#"{"jsonrpc":"2.0","id":7,"params":1}"#));
        let reply: serde_json::Value =
            serde_json::from_str(&got[0].reply().expect("a reply")).expect("json");
        assert_eq!(reply["id"], 7);
        assert_eq!(reply["error"]["code"], INVALID_REQUEST);
    }

    #[test]
    fn an_overlong_header_line_is_dropped_not_held() {
        let mut input = b"X-Junk: ".to_vec();
        input.extend(std::iter::repeat_n(b'a', 3 * MAX_HEADER_LINE));
        input.extend_from_slice(b"\r\nContent-Length: 2\r\n\r\n{}");
        let got = frames(&input);
        assert_eq!(got.len(), 1);
        assert_eq!(code(&got[0]), Some(PARSE_ERROR));
    }
}
