//! Byte offsets (the engine's) to and from UTF-16 offsets (a browser's strings, CodeMirror's
//! positions).

/// A text's byte offsets and UTF-16 offsets, one against the other. An ASCII text needs no
/// table (the offsets are equal); otherwise a checkpoint every 4 KiB keeps a look-up short and
/// the table small for an 8 MB SKILL.md.
#[derive(Debug, Clone)]
pub struct Utf16 {
    /// Per checkpoint (every `STEP` bytes, on a character boundary at or before it): its byte
    /// offset and its UTF-16 offset. Empty for an ASCII text.
    checkpoints: Vec<(usize, usize)>,
}

const STEP: usize = 4096;

impl Utf16 {
    pub fn new(text: &str) -> Utf16 {
        if text.is_ascii() {
            return Utf16 {
                checkpoints: Vec::new(),
            };
        }
        let mut checkpoints = vec![(0, 0)];
        let (mut byte, mut unit) = (0, 0);
        let mut next = STEP;
        for c in text.chars() {
            if byte >= next {
                checkpoints.push((byte, unit));
                next = byte + STEP;
            }
            byte += c.len_utf8();
            unit += c.len_utf16();
        }
        Utf16 { checkpoints }
    }

    /// The UTF-16 offset of byte `offset` of `text` (the text this was made from); an offset
    /// inside a character counts to its start, one past the end to the end.
    pub fn to_utf16(&self, text: &str, offset: usize) -> usize {
        let offset = offset.min(text.len());
        if self.checkpoints.is_empty() {
            return offset;
        }
        let i = self.checkpoints.partition_point(|&(b, _)| b <= offset) - 1;
        let (mut byte, mut unit) = self.checkpoints[i];
        for c in text[byte..].chars() {
            if byte + c.len_utf8() > offset {
                break;
            }
            byte += c.len_utf8();
            unit += c.len_utf16();
        }
        unit
    }

    /// The byte offset of UTF-16 offset `unit`; one inside a surrogate pair counts to the
    /// pair's character's start.
    pub fn to_byte(&self, text: &str, unit: usize) -> usize {
        if self.checkpoints.is_empty() {
            return unit.min(text.len());
        }
        let i = self.checkpoints.partition_point(|&(_, u)| u <= unit) - 1;
        let (mut byte, mut at) = self.checkpoints[i];
        for c in text[byte..].chars() {
            if at + c.len_utf16() > unit {
                break;
            }
            byte += c.len_utf8();
            at += c.len_utf16();
        }
        byte
    }
}

/// A text's byte offsets against an editor's positions: UTF-16 units, with a CRLF line break
/// one position (CodeMirror keeps a CRLF file's line endings when its line separator is
/// `\r\n`, and counts each break as one position, as it counts `\n`). A text without CRLF maps
/// as [`Utf16`] does.
#[derive(Debug, Clone)]
pub struct EditorOffsets {
    utf16: Utf16,
    /// The UTF-16 offset of each CRLF's `\r`, in order.
    crlf: Vec<usize>,
}

impl EditorOffsets {
    pub fn new(text: &str) -> EditorOffsets {
        let utf16 = Utf16::new(text);
        let crlf = text
            .match_indices("\r\n")
            .map(|(b, _)| utf16.to_utf16(text, b))
            .collect();
        EditorOffsets { utf16, crlf }
    }

    /// The editor's position of byte `offset` of `text`.
    pub fn to_editor(&self, text: &str, offset: usize) -> usize {
        let unit = self.utf16.to_utf16(text, offset);
        unit - self.crlf.partition_point(|&c| c < unit)
    }

    /// The byte offset of the editor's position `pos`.
    pub fn to_byte(&self, text: &str, pos: usize) -> usize {
        // The `i`-th CRLF stands at position `crlf[i] - i` in the editor, which grows with `i`:
        // a binary search finds how many stand before `pos`.
        let (mut lo, mut hi) = (0, self.crlf.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.crlf[mid] - mid < pos {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        self.utf16.to_byte(text, pos + lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CRLF text's offsets map to the positions of the same text with `\n` breaks (what the
    /// editor counts), both ways, for every character's start.
    #[test]
    fn crlf_breaks_are_one_position() {
        let text = "---\r\nname: é😀\r\ndescription: x\r\n---\r\nbody\nlone\r\n";
        let lf = text.replace("\r\n", "\n");
        let map = EditorOffsets::new(text);
        let mut lf_chars = lf.char_indices();
        for (b, c) in text.char_indices() {
            if c == '\n' && text[..b].ends_with('\r') {
                continue;
            }
            let (lf_b, _) = lf_chars.next().expect("as many characters");
            let want = lf[..lf_b].encode_utf16().count();
            assert_eq!(map.to_editor(text, b), want, "byte {b}");
            assert_eq!(map.to_byte(text, want), b, "position {want}");
        }
    }

    #[test]
    fn offsets_agree_with_a_count_of_every_prefix() {
        let text = "name: é😀x\n".repeat(2000);
        let map = Utf16::new(&text);
        for (b, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let units = text[..b].encode_utf16().count();
            assert_eq!(map.to_utf16(&text, b), units, "byte {b}");
            assert_eq!(map.to_byte(&text, units), b, "unit {units}");
        }
        // Inside a character: its start.
        let e = text.find('é').expect("an é");
        assert_eq!(map.to_utf16(&text, e + 1), map.to_utf16(&text, e));
        let smile = text.find('😀').expect("a smile");
        let u = map.to_utf16(&text, smile);
        assert_eq!(map.to_byte(&text, u + 1), smile, "inside a surrogate pair");
        // ASCII: the same offsets, clamped.
        let plain = Utf16::new("abc");
        assert_eq!((plain.to_utf16("abc", 9), plain.to_byte("abc", 2)), (3, 2));
    }
}
