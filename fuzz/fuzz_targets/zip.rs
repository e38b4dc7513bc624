//! Fuzzes the archive reader on arbitrary bytes (a `.zip` or `.skill` a stranger dropped): it
//! must never panic, never allocate past its limits, and every skill it finds must pass the
//! engine's checks without panicking.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpg_core::{analyze, check, profile};

fuzz_target!(|data: &[u8]| {
    let ingested = skillpg_core::ingest::read_archive("fuzz.zip", data);
    let _ = ingested.why_no_skill();
    for p in profile::ALL {
        let _ = ingested.findings(p);
    }
    for bundle in ingested.checked_skills("fuzz.zip").iter() {
        for f in &bundle.files {
            assert!(skillpg_core::ingest::clean_path(&f.path).is_some(), "an unclean path left the reader: {:?}", f.path);
        }
        let _ = check(&analyze(bundle), profile::ALL[0]);
    }
});
