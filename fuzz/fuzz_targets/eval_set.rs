//! Fuzzes the eval-set readers (skill-creator's JSON, the lab's `+`/`-` lines, a lab report) on
//! arbitrary text: an eval set is typed or imported by a person, autosaved, and read again on
//! every reload, so it must give queries or a message, never a panic. What reads must write
//! back to the same queries.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpg_routing::evalset::{parse_eval_input, parse_lines, to_lines};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_eval_input(text);
    if let Ok(items) = parse_lines(text) {
        assert_eq!(parse_lines(&to_lines(&items)).ok(), Some(items));
    }
});
