//! Links and files other tools read, both ways:
//!
//! - Zed's share link, `zed://skill?data=<base64url of SKILL.md>` (UTF-8, unpadded; Zed's
//!   Settings → AI → Skills → Copy Share Link), which opens Zed's Create Skill form. It holds
//!   one SKILL.md and nothing else.
//! - The Agent Skills discovery index, `/.well-known/agent-skills/index.json`, as Cloudflare's
//!   draft v0.2.0 defines it in the revision of 2026-02-13 (cloudflare/agent-skills-discovery-rfc
//!   at 366ad374): a `files` array of `{path, digest}` objects and a skill-level `digest` over
//!   the sorted `{path}\0{hex}\n` manifest. An earlier v0.2 text and some publishers give one
//!   `url` and `digest` per skill (its SKILL.md) instead; those entries are read as a SKILL.md
//!   alone, verified against that digest.
//!
//! Pure: the page fetches, this reads and checks. A digest that does not match is an error
//! naming the file, never a silent load.

use base64::Engine;
use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::SkillInput;

/// The most bytes of SKILL.md a Zed link is made from or read into (Zed embeds the file whole;
/// a link past this is not one chat apps keep).
pub const MAX_ZED_BYTES: usize = 1024 * 1024;

/// The longest text the page's address field takes: a Zed link of [`MAX_ZED_BYTES`] with room
/// for its prefix; an address is far shorter.
pub const MAX_ADDRESS_CHARS: usize = MAX_ZED_BYTES * 4 / 3 + 64;

/// Zed's share link for a SKILL.md's text.
pub fn zed_link(skill_md: &str) -> String {
    format!(
        "zed://skill?data={}",
        URL_SAFE_NO_PAD.encode(skill_md.as_bytes())
    )
}

/// Zed's share link for `skill`, as the page reads one: its SKILL.md of at most
/// [`MAX_ZED_BYTES`] (a larger one makes a link the page refuses), with a note naming the
/// other files a Zed link cannot carry.
pub fn zed_link_of(skill: &SkillInput) -> Result<(String, Option<String>), String> {
    let (_, bytes) = skill
        .files
        .iter()
        .find(|(p, _)| p == "SKILL.md")
        .ok_or_else(|| format!("{}: no SKILL.md", skill.dir_name))?;
    if bytes.len() > MAX_ZED_BYTES {
        return Err(format!(
            "{}: SKILL.md is {} bytes; a Zed link carries at most {} (1 MB), which is also what the playground opens",
            skill.dir_name,
            crate::thousands(bytes.len()),
            crate::thousands(MAX_ZED_BYTES)
        ));
    }
    let (text, _) = skill
        .skill_md_shown()
        .ok_or_else(|| format!("{}: no SKILL.md", skill.dir_name))?;
    let others: Vec<&str> = skill
        .files
        .iter()
        .filter(|(p, _)| p != "SKILL.md")
        .map(|(p, _)| p.as_str())
        .collect();
    let note = (!others.is_empty()).then(|| {
        format!(
            "a Zed link holds SKILL.md alone: {} other file(s) of {} are not in it ({})",
            others.len(),
            skill.dir_name,
            others
                .iter()
                .take(5)
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
                + if others.len() > 5 { ", …" } else { "" }
        )
    });
    Ok((zed_link(&text), note))
}

/// The skill a Zed share link holds: its SKILL.md, in a folder named after its `name` (else
/// `my-skill`). `None` when the text is not a Zed skill link; an error says what is wrong
/// with one that is.
pub fn from_zed_link(link: &str) -> Option<Result<SkillInput, String>> {
    let query = link.trim().strip_prefix("zed://skill?")?;
    let data = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("data="))
        .unwrap_or_default();
    Some(read_zed_data(data))
}

fn read_zed_data(data: &str) -> Result<SkillInput, String> {
    if data.is_empty() {
        return Err("the Zed link has no `data=`: it holds no skill".to_owned());
    }
    if data.len() > MAX_ZED_BYTES * 4 / 3 + 4 {
        return Err("the Zed link holds more than 1 MB; it was not opened".to_owned());
    }
    // Percent-escapes a chat app may have added to `=` padding, then either alphabet's padding.
    let data = data.replace("%3D", "=").replace("%3d", "=");
    let bytes = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .or_else(|_| URL_SAFE.decode(&data))
        .map_err(|e| format!("the Zed link is damaged (not base64url: {e})"))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| "the Zed link's SKILL.md is not UTF-8 text".to_owned())?;
    let name = skillpg_core::frontmatter::SkillDoc::parse(&text)
        .field_str("name")
        .filter(|n| is_folder_name(n))
        .map(str::to_owned)
        .unwrap_or_else(|| "my-skill".to_owned());
    Ok(SkillInput::new(
        name,
        vec![("SKILL.md".to_owned(), text.into_bytes())],
    ))
}

/// A name the index and a folder can both carry: the specification's charset, 1 to 64.
fn is_folder_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// The index's version this module writes.
pub const INDEX_VERSION: &str = "0.2.0";

/// `/.well-known/agent-skills/index.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Index {
    /// `M.m.p`; absent is v0.1.0.
    #[serde(default)]
    pub version: Option<String>,
    pub skills: Vec<IndexSkill>,
}

/// One skill of the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexSkill {
    pub name: String,
    pub description: String,
    /// `sha256:{hex}` of the skill's manifest (or of its one artifact, in the other form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<IndexFile>,
    /// The other v0.2 form: the SKILL.md's address, relative to the index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// One file of a skill in the index (v0.1.0 wrote a bare path: no digest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IndexFile {
    WithDigest { path: String, digest: String },
    Bare(String),
}

impl IndexFile {
    /// The file's path in the skill folder.
    pub fn path(&self) -> &str {
        match self {
            IndexFile::WithDigest { path, .. } | IndexFile::Bare(path) => path,
        }
    }
}

/// `sha256:{hex}` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The skill-level digest of files `(path, sha256 hex)`: SHA-256 of the lines
/// `{path}\0{hex}\n` sorted by path's bytes.
pub fn skill_digest(files: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut manifest = Vec::new();
    for (path, hex) in sorted {
        manifest.extend_from_slice(path.as_bytes());
        manifest.push(0);
        manifest.extend_from_slice(hex.as_bytes());
        manifest.push(b'\n');
    }
    digest(&manifest)
}

/// A path the index may carry: relative, `/`-separated, printable ASCII without `\ ? # [ ]`,
/// no `.` or `..` segment and no empty one, read both as written and percent-decoded (a
/// browser resolves `%2e%2e` to `..` when it fetches the address).
fn is_index_path(path: &str) -> bool {
    let plain = |p: &str| {
        !p.is_empty()
            && !p.starts_with('/')
            && p.bytes()
                .all(|b| (0x20..=0x7e).contains(&b) && !b"\\?#[]".contains(&b))
            && !p
                .split('/')
                .any(|seg| seg == ".." || seg == "." || seg.is_empty())
    };
    plain(path) && percent_decoded(path).is_some_and(|d| plain(&d))
}

/// `path` with its `%XX` escapes decoded; `None` when an escape is malformed or decodes to
/// something that is not text.
fn percent_decoded(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = path.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The folder an index's relative addresses resolve against: its address without the query
/// or fragment, up to its last `/` (a `/` in the query string is not a folder).
pub fn index_folder(index_address: &str) -> &str {
    let path = index_address
        .split(['?', '#'])
        .next()
        .unwrap_or(index_address);
    &path[..path.rfind('/').map_or(0, |i| i + 1)]
}

/// Where to fetch `rel` (from [`files_to_fetch`]) for the index at `index_address`.
pub fn fetch_address(index_address: &str, rel: &str) -> String {
    format!("{}{rel}", index_folder(index_address))
}

/// `sha256:{hex}` compared as the same digest whatever the case of its hex.
fn same_digest(want: &str, got: &str) -> bool {
    want.trim().eq_ignore_ascii_case(got)
}

/// The index of `skills` (its JSON, pretty), each skill's SKILL.md first and its files'
/// digests. A skill whose name or file paths the index cannot carry is an error naming it.
pub fn export_index(skills: &[SkillInput]) -> Result<String, String> {
    serde_json::to_string_pretty(&index_of(skills)?).map_err(|e| e.to_string())
}

/// The index of `skills`, one entry each, in order (see [`export_index`]).
fn index_of(skills: &[SkillInput]) -> Result<Index, String> {
    let mut entries = Vec::new();
    for s in skills {
        let doc = s
            .files
            .iter()
            .find(|(p, _)| p == "SKILL.md")
            .map(|(_, b)| skillpg_core::frontmatter::SkillDoc::parse(&String::from_utf8_lossy(b)))
            .ok_or_else(|| format!("{}: no SKILL.md, so it cannot be indexed", s.dir_name))?;
        let name = doc.field_str("name").unwrap_or(&s.dir_name).to_owned();
        if !is_folder_name(&name) {
            return Err(format!(
                "{}: the index needs a name of lowercase letters, digits and single hyphens (1 to 64), not {name:?}",
                s.dir_name
            ));
        }
        if entries.iter().any(|e: &IndexSkill| e.name == name) {
            return Err(format!(
                "two skills are named {name}: an index names each skill once (its folder under /.well-known/agent-skills/)"
            ));
        }
        let mut files: Vec<&(String, Vec<u8>)> = s.files.iter().collect();
        files.sort_by(|a, b| (a.0 != "SKILL.md", &a.0).cmp(&(b.0 != "SKILL.md", &b.0)));
        let mut listed = Vec::new();
        let mut hexes = Vec::new();
        for (path, bytes) in files {
            if !is_index_path(path) {
                return Err(format!(
                    "{name}: the index cannot carry the path {path:?} (printable ASCII without \\ ? # [ ])"
                ));
            }
            let d = digest(bytes);
            hexes.push((path.clone(), d["sha256:".len()..].to_owned()));
            listed.push(IndexFile::WithDigest {
                path: path.clone(),
                digest: d,
            });
        }
        entries.push(IndexSkill {
            name,
            description: doc.field_str("description").unwrap_or_default().to_owned(),
            digest: Some(skill_digest(&hexes)),
            files: listed,
            url: None,
        });
    }
    Ok(Index {
        version: Some(INDEX_VERSION.to_owned()),
        skills: entries,
    })
}

/// What a static host serves for `skills` under its root: `.well-known/agent-skills/index.json`
/// and each skill's files at `.well-known/agent-skills/{name}/{path}` (for a zip to unpack at
/// the site's root).
pub fn well_known_files(skills: &[SkillInput]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let index = index_of(skills)?;
    let json = serde_json::to_string_pretty(&index).map_err(|e| e.to_string())?;
    let mut out = vec![(
        ".well-known/agent-skills/index.json".to_owned(),
        json.into_bytes(),
    )];
    for (s, entry) in skills.iter().zip(&index.skills) {
        for (path, bytes) in &s.files {
            out.push((
                format!(".well-known/agent-skills/{}/{path}", entry.name),
                bytes.clone(),
            ));
        }
    }
    Ok(out)
}

/// Why an index was refused as a whole: not an index, a later major version, or a name or path
/// the draft does not allow (each names what it refused).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// The JSON is not an index at all.
    #[error("not an Agent Skills index: {0}")]
    NotAnIndex(String),
    /// A major version this playground does not read.
    #[error("the index is version {0}; this playground reads 0.1.0 and 0.2.0")]
    Version(String),
    /// A skill's name is not a valid skill name.
    #[error("the index names a skill {0:?}, not a valid skill name")]
    Name(String),
    /// The other form's address leaves the skill's folder.
    #[error(
        "{skill}: the index gives its SKILL.md at {url:?}, outside the skill's folder {skill}/ beside the index; it was not loaded"
    )]
    UrlOutside { skill: String, url: String },
    /// A listed path the draft does not allow (one that climbs out, an absolute path, ...).
    #[error("{skill}: the index lists the path {path:?}, which it may not")]
    Path { skill: String, path: String },
}

/// Reads an index's JSON: its version must be 0.x (a later major is refused, as the draft
/// asks), and every name and path one the draft allows (a path that climbs out is refused).
pub fn read_index(json: &str) -> Result<Index, IndexError> {
    let index: Index =
        serde_json::from_str(json).map_err(|e| IndexError::NotAnIndex(e.to_string()))?;
    let version = index.version.as_deref().unwrap_or("0.1.0");
    if !version.starts_with("0.") {
        return Err(IndexError::Version(version.to_owned()));
    }
    for s in &index.skills {
        if !is_folder_name(&s.name) {
            return Err(IndexError::Name(s.name.clone()));
        }
        // The other form's one address is a path in the skill's folder too: never another
        // origin, never outside `{name}/`.
        if let Some(url) = &s.url
            && !(is_index_path(url) && url.starts_with(&format!("{}/", s.name)))
        {
            return Err(IndexError::UrlOutside {
                skill: s.name.clone(),
                url: url.clone(),
            });
        }
        for f in &s.files {
            if !is_index_path(f.path()) {
                return Err(IndexError::Path {
                    skill: s.name.clone(),
                    path: f.path().to_owned(),
                });
            }
        }
    }
    Ok(index)
}

/// What to fetch for `skill`, relative to the index's folder: each file at `{name}/{path}`
/// (SKILL.md alone when it lists none), or the one `url` of the other form.
pub fn files_to_fetch(skill: &IndexSkill) -> Vec<(String, String)> {
    if skill.files.is_empty() {
        let url = skill
            .url
            .clone()
            .unwrap_or_else(|| format!("{}/SKILL.md", skill.name));
        return vec![("SKILL.md".to_owned(), url)];
    }
    skill
        .files
        .iter()
        .map(|f| (f.path().to_owned(), format!("{}/{}", skill.name, f.path())))
        .collect()
}

/// Why a skill of an index was not loaded: a file missing from what was fetched, or bytes that
/// do not match the index's digests (each names the skill and the file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The other form's one SKILL.md was not fetched.
    #[error("{0}: SKILL.md was not fetched")]
    SkillMdNotFetched(String),
    /// A listed file was not fetched.
    #[error("{skill}/{path} was not fetched")]
    FileNotFetched { skill: String, path: String },
    /// The other form's SKILL.md does not match the skill's digest.
    #[error(
        "{skill}/SKILL.md does not match the index's digest ({want}, fetched {got}): tampered or out of date, so it was not loaded"
    )]
    SkillMdMismatch {
        skill: String,
        want: String,
        got: String,
    },
    /// A listed file does not match its digest.
    #[error(
        "{skill}/{path} does not match the index's digest ({want}, fetched {got}): tampered or out of date, so the skill was not loaded"
    )]
    FileMismatch {
        skill: String,
        path: String,
        want: String,
        got: String,
    },
    /// Every file matches its digest, but not the skill's.
    #[error(
        "{skill}: the files match their digests but not the skill's ({want}): the index is out of step with its files, so the skill was not loaded"
    )]
    SkillMismatch { skill: String, want: String },
}

/// The message, for the edges whose errors are text.
impl From<VerifyError> for String {
    fn from(e: VerifyError) -> String {
        e.to_string()
    }
}

/// The skill `entry` names, from the files fetched for it (`(path, bytes)`), each checked
/// against its digest and the whole against the skill's: a mismatch is an error naming the
/// file. An index without digests (v0.1.0) loads with a warning for the caller to show.
pub fn verify(
    entry: &IndexSkill,
    fetched: Vec<(String, Vec<u8>)>,
) -> Result<(SkillInput, Option<String>), VerifyError> {
    let mut warning = None;
    if entry.files.is_empty() {
        // The other form: one SKILL.md whose digest is the skill's.
        let (_, bytes) = fetched
            .iter()
            .find(|(p, _)| p == "SKILL.md")
            .ok_or_else(|| VerifyError::SkillMdNotFetched(entry.name.clone()))?;
        match &entry.digest {
            Some(want) if !same_digest(want, &digest(bytes)) => {
                return Err(VerifyError::SkillMdMismatch {
                    skill: entry.name.clone(),
                    want: want.clone(),
                    got: digest(bytes),
                });
            }
            Some(_) => {}
            None => {
                warning = Some(format!(
                    "{}: the index gives no digest, so nothing was verified",
                    entry.name
                ))
            }
        }
        return Ok((SkillInput::new(entry.name.clone(), fetched), warning));
    }
    let mut hexes = Vec::new();
    for f in &entry.files {
        let (_, bytes) = fetched.iter().find(|(p, _)| p == f.path()).ok_or_else(|| {
            VerifyError::FileNotFetched {
                skill: entry.name.clone(),
                path: f.path().to_owned(),
            }
        })?;
        let got = digest(bytes);
        match f {
            IndexFile::WithDigest { digest: want, .. } if !same_digest(want, &got) => {
                return Err(VerifyError::FileMismatch {
                    skill: entry.name.clone(),
                    path: f.path().to_owned(),
                    want: want.clone(),
                    got,
                });
            }
            IndexFile::WithDigest { .. } => {}
            IndexFile::Bare(_) => {
                warning = Some(format!(
                    "{}: a v0.1.0 index gives no digests, so nothing was verified",
                    entry.name
                ));
            }
        }
        hexes.push((f.path().to_owned(), got["sha256:".len()..].to_owned()));
    }
    if warning.is_none()
        && let Some(want) = &entry.digest
        && !same_digest(want, &skill_digest(&hexes))
    {
        return Err(VerifyError::SkillMismatch {
            skill: entry.name.clone(),
            want: want.clone(),
        });
    }
    Ok((SkillInput::new(entry.name.clone(), fetched), warning))
}

/// What a load from an index says: how many skills were loaded and whether their bytes were
/// checked (only when every loaded one was), which were refused and why, and what was not
/// verified. `loaded` counts the skills that took a place in the page.
pub fn index_summary(
    loaded: usize,
    unverified: &[String],
    refused: &[String],
    beside: Option<String>,
) -> String {
    let mut message = if loaded == 0 {
        "Loaded no skill from the index.".to_owned()
    } else if unverified.is_empty() {
        format!(
            "Loaded {loaded} skill(s) from the index, each file checked against its SHA-256 digest."
        )
    } else {
        format!(
            "Loaded {loaded} skill(s) from the index; not verified: {}.",
            unverified.join("; ")
        )
    };
    if !refused.is_empty() {
        message.push_str(&format!(" Refused: {}.", refused.join("; ")));
    }
    if let Some(b) = beside {
        message.push(' ');
        message.push_str(&b);
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_outside_the_skill_folder_are_refused_as_written_and_decoded() {
        let one = |url: &str| {
            format!(
                r#"{{"version":"0.2.0","skills":[{{"name":"a","description":"x","url":"{url}","digest":"sha256:00"}}]}}"#
            )
        };
        for url in [
            "../../../outside/SKILL.md",
            "https://elsewhere.example/SKILL.md",
            "//elsewhere.example/SKILL.md",
            "a/%2e%2e/%2e%2e/secret.md",
            "b/SKILL.md",
            "/a/SKILL.md",
        ] {
            let e = read_index(&one(url)).expect_err(url);
            assert!(matches!(e, IndexError::UrlOutside { .. }), "{url}: {e}");
            assert!(
                e.to_string().contains("outside the skill's folder"),
                "{url}: {e}"
            );
        }
        assert!(read_index(&one("a/SKILL.md")).is_ok());
        let listed = |path: &str| {
            format!(
                r#"{{"version":"0.2.0","skills":[{{"name":"a","description":"x","files":[{{"path":"{path}","digest":"sha256:00"}}]}}]}}"#
            )
        };
        for path in [
            "x/%2e%2e/%2e%2e/secret.md",
            "%2E%2E/x",
            "x/%2F/y",
            "./SKILL.md",
            "x/%zz",
        ] {
            assert!(read_index(&listed(path)).is_err(), "{path}");
        }
        assert!(read_index(&listed("references/a%20b.md")).is_ok());
    }

    #[test]
    fn relative_addresses_resolve_against_the_index_folder_not_its_query() {
        assert_eq!(
            fetch_address(
                "https://h.example/.well-known/agent-skills/index.json?ref=a/b",
                "x/SKILL.md"
            ),
            "https://h.example/.well-known/agent-skills/x/SKILL.md"
        );
        assert_eq!(
            fetch_address("https://h.example/s/index.json#frag/x", "x/SKILL.md"),
            "https://h.example/s/x/SKILL.md"
        );
    }

    #[test]
    fn a_digest_in_upper_case_hex_is_the_same_digest() {
        let skill_md = b"---\nname: a\ndescription: x\n---\n".to_vec();
        let want = digest(&skill_md)
            .to_ascii_uppercase()
            .replace("SHA256:", "sha256:");
        let entry = IndexSkill {
            name: "a".into(),
            description: "x".into(),
            digest: Some(want.clone()),
            files: Vec::new(),
            url: None,
        };
        assert!(verify(&entry, vec![("SKILL.md".into(), skill_md.clone())]).is_ok());
        let entry = IndexSkill {
            digest: None,
            files: vec![IndexFile::WithDigest {
                path: "SKILL.md".into(),
                digest: want,
            }],
            ..entry
        };
        assert!(verify(&entry, vec![("SKILL.md".into(), skill_md)]).is_ok());
    }

    #[test]
    fn the_summary_says_verified_only_when_everything_was() {
        let all = index_summary(2, &[], &[], None);
        assert!(all.contains("each file checked"), "{all}");
        let some = index_summary(
            2,
            &["b: the index gives no digest, so nothing was verified".into()],
            &[],
            None,
        );
        assert!(!some.contains("each file checked"), "{some}");
        assert!(some.contains("not verified"), "{some}");
        let none = index_summary(0, &[], &["a: tampered".into()], None);
        assert!(
            none.starts_with("Loaded no skill") && none.contains("Refused: a: tampered"),
            "{none}"
        );
    }

    #[test]
    fn the_drafts_worked_example_digest() {
        let files = vec![
            (
                "scripts/run.sh".to_owned(),
                "a8076d3d28d21e02012b20eaf7dbf75409a6277134439025f282e368e3305abf".to_owned(),
            ),
            (
                "SKILL.md".to_owned(),
                "90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be".to_owned(),
            ),
        ];
        assert_eq!(digest(b"# Hello\n"), format!("sha256:{}", files[1].1));
        assert_eq!(
            skill_digest(&files),
            "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e"
        );
    }

    fn skill() -> SkillInput {
        SkillInput::new(
            "pdf-tools",
            vec![
                ("references/forms.md".to_owned(), b"# Forms\n".to_vec()),
                (
                    "SKILL.md".to_owned(),
                    b"---\nname: pdf-tools\ndescription: Fill PDF forms. Use when a PDF is given.\n---\n# PDF\n".to_vec(),
                ),
                ("assets/logo.bin".to_owned(), vec![0, 159, 146, 150]),
            ],
        )
    }

    #[test]
    fn an_index_round_trips_and_a_tampered_digest_is_refused() {
        let json = export_index(&[skill()]).expect("exports");
        let index = read_index(&json).expect("reads");
        assert_eq!(index.version.as_deref(), Some("0.2.0"));
        let entry = &index.skills[0];
        assert_eq!(
            entry.description,
            "Fill PDF forms. Use when a PDF is given."
        );
        assert_eq!(entry.files[0].path(), "SKILL.md", "SKILL.md first");
        let fetch = |e: &IndexSkill| -> Vec<(String, Vec<u8>)> {
            files_to_fetch(e)
                .into_iter()
                .map(|(path, url)| {
                    assert_eq!(url, format!("pdf-tools/{path}"));
                    let bytes = skill()
                        .files
                        .into_iter()
                        .find(|(p, _)| *p == path)
                        .expect("a file")
                        .1;
                    (path, bytes)
                })
                .collect()
        };
        let (loaded, warning) = verify(entry, fetch(entry)).expect("verifies");
        assert_eq!(warning, None);
        assert_eq!(loaded.dir_name, "pdf-tools");
        assert_eq!(loaded.files.len(), 3);
        // One byte changed in a file: refused, naming it.
        let mut files = fetch(entry);
        files[1].1.push(b'!');
        let err = verify(entry, files).expect_err("refused");
        assert!(
            matches!(&err, VerifyError::FileMismatch { path, .. } if *path == fetch(entry)[1].0),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains("does not match the index's digest"),
            "{err}"
        );
        // A tampered skill-level digest: refused too.
        let mut tampered = entry.clone();
        tampered.digest = Some(digest(b"other"));
        let err = verify(&tampered, fetch(entry)).expect_err("refused");
        assert!(matches!(err, VerifyError::SkillMismatch { .. }), "{err:?}");
        assert!(err.to_string().contains("out of step"), "{err}");
    }

    #[test]
    fn an_index_refuses_paths_that_climb_out_and_later_majors() {
        let climbing = r#"{"version":"0.2.0","skills":[{"name":"a","description":"d","digest":"sha256:00","files":[{"path":"../etc/passwd","digest":"sha256:00"}]}]}"#;
        assert!(read_index(climbing).is_err());
        assert!(read_index(r#"{"version":"1.0.0","skills":[]}"#).is_err());
        // v0.1.0: bare paths, loaded with a warning.
        let old = read_index(r#"{"skills":[{"name":"a","description":"d","files":["SKILL.md"]}]}"#)
            .expect("reads");
        let (_, warning) =
            verify(&old.skills[0], vec![("SKILL.md".to_owned(), b"x".to_vec())]).expect("loads");
        assert!(warning.is_some());
        // The one-artifact form: its digest is SKILL.md's.
        let one = read_index(&format!(
            r#"{{"version":"0.2.0","skills":[{{"name":"a","description":"d","url":"a/SKILL.md","digest":"{}"}}]}}"#,
            digest(b"x")
        ))
        .expect("reads");
        assert_eq!(
            files_to_fetch(&one.skills[0]),
            vec![("SKILL.md".to_owned(), "a/SKILL.md".to_owned())]
        );
        assert!(verify(&one.skills[0], vec![("SKILL.md".to_owned(), b"x".to_vec())]).is_ok());
        assert!(verify(&one.skills[0], vec![("SKILL.md".to_owned(), b"y".to_vec())]).is_err());
    }

    #[test]
    fn a_zed_link_round_trips_with_or_without_padding() {
        let md = "---\nname: tables\ndescription: Formats tables. Use when asked. ✓\n---\n# T\n";
        let link = zed_link(md);
        assert!(!link.ends_with('='));
        let s = from_zed_link(&link).expect("a Zed link").expect("valid");
        assert_eq!(s.dir_name, "tables");
        assert_eq!(
            s.files,
            vec![("SKILL.md".to_owned(), md.as_bytes().to_vec())]
        );
        // Zed's documented example, and a padded one.
        let hello = from_zed_link("zed://skill?data=IyBIZWxsbw")
            .expect("link")
            .expect("valid");
        assert_eq!(hello.files[0].1, b"# Hello");
        assert_eq!(hello.dir_name, "my-skill");
        assert!(
            from_zed_link("zed://skill?data=IyBIZWxsbw%3D%3D")
                .expect("link")
                .is_ok()
        );
        assert!(from_zed_link("https://example.com").is_none());
        assert!(
            from_zed_link("zed://skill?data=!!!")
                .expect("link")
                .is_err()
        );
    }
}
