//! Fuzzes the Agent Skills discovery index reader and its checks
//! (`skillpg_share::interchange`): an index from any site, the addresses it makes, and the
//! verification of fetched bytes against it (the bytes here are the input itself), and a Zed
//! link. A message or a skill, never a panic, and never an address outside the index's folder.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpg_share::interchange;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(index) = interchange::read_index(&text) {
        let base = "https://h.example/.well-known/agent-skills/index.json";
        for skill in &index.skills {
            for (path, rel) in interchange::files_to_fetch(skill) {
                let url = interchange::fetch_address(base, &rel);
                assert!(
                    url.starts_with("https://h.example/.well-known/agent-skills/"),
                    "{url}"
                );
                let fetched = vec![(path, data.to_vec())];
                let _ = interchange::verify(skill, fetched);
            }
        }
    }
    let _ = interchange::from_zed_link(&format!("zed://skill?data={text}"));
});
