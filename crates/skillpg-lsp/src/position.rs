//! Byte offsets (the engine's spans) to and from the protocol's positions.
//!
//! A position's character is counted in the encoding the client and server agreed on at
//! initialization: UTF-16 code units unless the client offers UTF-8 or UTF-32 (LSP 3.17's
//! `general.positionEncodings`), which the server then prefers because they need no
//! transcoding.

use std::ops::Range;

use lsp_types::{Position, PositionEncodingKind};

/// How a position's `character` is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units (the protocol's default).
    Utf16,
    /// Code points (the CLI's columns).
    Utf32,
}

impl Encoding {
    /// The encoding to use given what the client offers, best first: UTF-8, then UTF-32, else
    /// the default UTF-16.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        let offered = offered.unwrap_or_default();
        if offered.contains(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else if offered.contains(&PositionEncodingKind::UTF32) {
            Encoding::Utf32
        } else {
            Encoding::Utf16
        }
    }

    /// The protocol's name for it.
    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    fn width(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        }
    }
}

/// Where each line of a text starts (after `\n`; a `\r` before it belongs to the line, as the
/// protocol's line ends `\r\n` and `\n` both end at the `\n`).
#[derive(Debug, Clone)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// The line table of `text`.
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(memchr_newlines(text).map(|i| i + 1));
        Lines { starts }
    }

    /// The position of byte `offset` (clamped to the text, and back to a character boundary).
    pub fn position(&self, text: &str, offset: usize, enc: Encoding) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character = text[start..offset]
            .chars()
            .map(|c| enc.width(c))
            .sum::<usize>();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of `pos`: a line past the end is the text's end, a character past its
    /// line's end the line's end (as the protocol asks), one inside a character its start.
    pub fn offset(&self, text: &str, pos: Position, enc: Encoding) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(text.len(), |&next| next - 1);
        let line = &text[start..end];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut counted = 0;
        for (i, c) in line.char_indices() {
            let w = enc.width(c);
            if counted + w > pos.character as usize {
                return start + i;
            }
            counted += w;
        }
        start + line.len()
    }

    /// The protocol's range of a byte range.
    pub fn range(&self, text: &str, range: Range<usize>, enc: Encoding) -> lsp_types::Range {
        lsp_types::Range::new(
            self.position(text, range.start, enc),
            self.position(text, range.end.max(range.start), enc),
        )
    }

    /// The byte range of line `line` (its line break excluded).
    pub fn line_range(&self, text: &str, line: usize) -> Range<usize> {
        let start = self.starts.get(line).copied().unwrap_or(text.len());
        let end = self
            .starts
            .get(line + 1)
            .map_or(text.len(), |&next| next - 1);
        let end = if text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        start..end
    }
}

fn memchr_newlines(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_encoding_counts_its_units() {
        // "é" is 2 UTF-8 bytes and 1 UTF-16 unit; "😀" is 4 bytes, 2 units, 1 code point.
        let text = "ab\né😀x\r\nlast";
        let lines = Lines::new(text);
        let x = text.find('x').expect("an x");
        assert_eq!(lines.position(text, x, Encoding::Utf8), Position::new(1, 6));
        assert_eq!(
            lines.position(text, x, Encoding::Utf16),
            Position::new(1, 3)
        );
        assert_eq!(
            lines.position(text, x, Encoding::Utf32),
            Position::new(1, 2)
        );
        for enc in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let p = lines.position(text, x, enc);
            assert_eq!(lines.offset(text, p, enc), x, "{enc:?}");
        }
    }

    #[test]
    fn positions_past_the_end_are_clamped() {
        let text = "ab\r\ncd";
        let lines = Lines::new(text);
        // Past the line's end: the end of the line, before its `\r`.
        assert_eq!(lines.offset(text, Position::new(0, 99), Encoding::Utf16), 2);
        assert_eq!(
            lines.offset(text, Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
        // Inside a surrogate pair: the character's start.
        let text = "😀z";
        let lines = Lines::new(text);
        assert_eq!(lines.offset(text, Position::new(0, 1), Encoding::Utf16), 0);
        // A byte offset off a character boundary goes back to one.
        assert_eq!(lines.position(text, 2, Encoding::Utf8), Position::new(0, 0));
        let crlf = Lines::new("ab\r\ncd");
        assert_eq!(crlf.line_range("ab\r\ncd", 0), 0..2);
        assert_eq!(crlf.line_range("ab\r\ncd", 1), 4..6);
    }

    #[test]
    fn negotiation_prefers_what_needs_no_transcoding() {
        use PositionEncodingKind as K;
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF16, K::UTF32])),
            Encoding::Utf32
        );
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF16, K::UTF8])),
            Encoding::Utf8
        );
    }
}
