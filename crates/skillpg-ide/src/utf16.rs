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

#[cfg(test)]
mod tests {
    use super::*;

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
