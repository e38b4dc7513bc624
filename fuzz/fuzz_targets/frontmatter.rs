//! Fuzzes the frontmatter splitter, the YAML tree and every rule of every profile on arbitrary
//! SKILL.md bytes: none may panic, and every span must lie inside the text on char boundaries.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpg_core::{BundleFile, SkillBundle, analyze, check, profile};

fuzz_target!(|data: &[u8]| {
    let bundle = SkillBundle::new("fuzz", vec![BundleFile { path: "SKILL.md".into(), bytes: data.to_vec() }]);
    let a = analyze(&bundle);
    for p in profile::ALL {
        for d in check(&a, p) {
            if let (Some(span), Some(doc)) = (&d.span, &a.doc) {
                assert!(span.start <= span.end && span.end <= doc.text.len(), "{d:?}");
                assert!(doc.text.is_char_boundary(span.start) && doc.text.is_char_boundary(span.end), "{d:?}");
            }
            if let (Some(fix), Some(doc)) = (&d.fix, &a.doc) {
                let _ = skillpg_core::fix::apply(&doc.text, &d.file, std::slice::from_ref(&d), true);
                assert!(fix.edits.iter().all(|e| e.range.end <= doc.text.len()));
            }
        }
    }
});
