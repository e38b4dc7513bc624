//! What the CLI's end-to-end tests share: git in a scratch repository.

use std::path::Path;
use std::process::Command;

/// Runs git in `repo` with a throwaway identity; its stdout, trimmed. A failure fails the test.
pub fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}
