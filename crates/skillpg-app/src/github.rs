//! Loading a skill folder from a GitHub address: the addresses, the listing and the limits,
//! pure (the fetching is `browser.rs`'s). A folder address (`/tree/<ref>/<path>`) is listed
//! through GitHub's contents API and each file is read from the raw host; both answer CORS.
//! The two bases are settings, so tests can point them at a local server.

use serde::Deserialize;

/// At most this many folders are listed (one API request each; 60 an hour without sign-in).
pub const MAX_LISTINGS: usize = 40;
/// At most this many files are fetched.
pub const MAX_FILES: usize = 500;
/// At most this many bytes of files, from the sizes the listing declares, before any is read.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// Where the API and the raw files are served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoints {
    /// The REST API's base, `https://api.github.com`.
    pub api: String,
    /// The raw host's base, `https://raw.githubusercontent.com`.
    pub raw: String,
}

impl Default for Endpoints {
    fn default() -> Endpoints {
        Endpoints {
            api: "https://api.github.com".to_owned(),
            raw: "https://raw.githubusercontent.com".to_owned(),
        }
    }
}

/// What a github.com address names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GithubPath {
    pub owner: String,
    pub repo: String,
    /// A branch, tag or commit (`HEAD` for a repository's own address).
    pub git_ref: String,
    /// `/`-separated, no leading `/`; empty for the repository's root.
    pub path: String,
    /// `/blob/`: one file; `/tree/` or the repository: a folder.
    pub is_file: bool,
}

impl GithubPath {
    /// The folder's name: the last segment of the path, else the repository's.
    pub fn folder_name(&self) -> String {
        let dir = if self.is_file {
            self.path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
        } else {
            self.path.as_str()
        };
        dir.rsplit('/')
            .next()
            .filter(|s| !s.is_empty())
            .unwrap_or(&self.repo)
            .to_owned()
    }

    /// The contents API's listing of `path` (a folder of this repository).
    pub fn contents_url(&self, ep: &Endpoints, path: &str) -> String {
        format!(
            "{}/repos/{}/{}/contents/{}?ref={}",
            ep.api.trim_end_matches('/'),
            self.owner,
            self.repo,
            encode_path(path),
            encode_segment(&self.git_ref)
        )
    }

    /// The raw host's address of the file at `path`.
    pub fn raw_url(&self, ep: &Endpoints, path: &str) -> String {
        format!(
            "{}/{}/{}/{}/{}",
            ep.raw.trim_end_matches('/'),
            self.owner,
            self.repo,
            encode_segment(&self.git_ref),
            encode_path(path)
        )
    }
}

/// Reads `https://github.com/<owner>/<repo>[/tree|blob/<ref>/<path>]`; `None` for any other
/// address. A ref holding `/` cannot be told from the path and is read as its first segment.
pub fn parse(address: &str) -> Option<GithubPath> {
    let rest = address
        .trim()
        .strip_prefix("https://github.com/")
        .or_else(|| address.trim().strip_prefix("http://github.com/"))?;
    let rest = rest
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .trim_end_matches('/');
    let parts: Vec<&str> = rest.splitn(5, '/').collect();
    let ok = |s: &&str| !s.is_empty() && *s != "." && *s != "..";
    match parts.as_slice() {
        [owner, repo] if ok(owner) && ok(repo) => Some(GithubPath {
            owner: (*owner).to_owned(),
            repo: repo.trim_end_matches(".git").to_owned(),
            git_ref: "HEAD".to_owned(),
            path: String::new(),
            is_file: false,
        }),
        [owner, repo, kind @ ("tree" | "blob"), git_ref, tail @ ..]
            if ok(owner) && ok(repo) && ok(git_ref) =>
        {
            let path = tail.first().copied().unwrap_or("").to_owned();
            if path.split('/').any(|s| s == "..") {
                return None;
            }
            Some(GithubPath {
                owner: (*owner).to_owned(),
                repo: (*repo).to_owned(),
                git_ref: (*git_ref).to_owned(),
                path,
                is_file: *kind == "blob",
            })
        }
        _ => None,
    }
}

/// One entry of a contents listing.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Entry {
    /// Path from the repository's root.
    pub path: String,
    /// `file`, `dir`, `symlink` or `submodule`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Bytes (0 for folders).
    #[serde(default)]
    pub size: u64,
}

/// Reads a contents API answer for a folder: a JSON list of entries.
pub fn parse_listing(json: &[u8]) -> Result<Vec<Entry>, String> {
    serde_json::from_slice::<Vec<Entry>>(json)
        .map_err(|e| format!("GitHub's listing was not understood ({e}); is the address a folder?"))
}

/// The message for an API answer that is not a success, from its status and its rate-limit
/// headers.
pub fn api_error(
    status: u16,
    remaining: Option<&str>,
    reset_epoch: Option<&str>,
    now_epoch: f64,
) -> String {
    if (status == 403 || status == 429) && remaining.is_some_and(|r| r.trim() == "0") {
        let wait = reset_epoch
            .and_then(|r| r.trim().parse::<f64>().ok())
            .map(|reset| ((reset - now_epoch) / 60.0).ceil().max(1.0));
        let when = wait
            .map(|m| format!(" It resets in about {m:.0} minute(s)."))
            .unwrap_or_default();
        return format!(
            "GitHub's API rate limit is spent (60 requests an hour per address without sign-in).{when} Meanwhile, download the folder (or a zip of it) and drop it here"
        );
    }
    match status {
        404 => {
            "GitHub answered 404: no such folder (a wrong branch or path, or a private repository)"
                .to_owned()
        }
        403 | 429 => format!("GitHub refused the listing (HTTP {status})"),
        _ => format!("GitHub answered HTTP {status}"),
    }
}

/// `a b/c#d` → `a%20b/c%23d`: each segment percent-encoded, the slashes kept.
fn encode_path(path: &str) -> String {
    path.split('/')
        .map(encode_segment)
        .collect::<Vec<_>>()
        .join("/")
}

fn encode_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_file_and_repository_addresses() {
        let folder =
            parse("https://github.com/anthropics/skills/tree/main/skills/pdf").expect("folder");
        assert_eq!(
            (
                folder.owner.as_str(),
                folder.repo.as_str(),
                folder.git_ref.as_str(),
                folder.path.as_str(),
                folder.is_file
            ),
            ("anthropics", "skills", "main", "skills/pdf", false)
        );
        assert_eq!(folder.folder_name(), "pdf");
        let ep = Endpoints {
            api: "http://127.0.0.1:9/".into(),
            raw: "http://127.0.0.1:8".into(),
        };
        assert_eq!(
            folder.contents_url(&ep, "skills/pdf"),
            "http://127.0.0.1:9/repos/anthropics/skills/contents/skills/pdf?ref=main"
        );
        assert_eq!(
            folder.raw_url(&ep, "skills/pdf/my file.md"),
            "http://127.0.0.1:8/anthropics/skills/main/skills/pdf/my%20file.md"
        );
        let file = parse("https://github.com/o/r/blob/v1/skills/x/SKILL.md?plain=1").expect("file");
        assert!(file.is_file);
        assert_eq!(file.folder_name(), "x");
        let repo = parse("https://github.com/o/my-skill/").expect("repo");
        assert_eq!(
            (repo.git_ref.as_str(), repo.folder_name().as_str()),
            ("HEAD", "my-skill")
        );
        assert_eq!(parse("https://example.com/o/r"), None);
        assert_eq!(parse("https://github.com/o/r/tree/main/../../x"), None);
        assert_eq!(parse("https://github.com/o"), None);
    }

    #[test]
    fn listings_and_rate_limits_read_as_messages() {
        let list = parse_listing(br#"[{"path":"s/SKILL.md","type":"file","size":12},{"path":"s/references","type":"dir"}]"#).expect("list");
        assert_eq!(
            list[1],
            Entry {
                path: "s/references".into(),
                kind: "dir".into(),
                size: 0
            }
        );
        assert!(parse_listing(br#"{"type":"file"}"#).is_err());
        let limited = api_error(403, Some("0"), Some("1000600"), 1_000_000.0);
        assert!(
            limited.contains("rate limit") && limited.contains("10 minute"),
            "{limited}"
        );
        assert!(api_error(404, None, None, 0.0).contains("404"));
    }
}
