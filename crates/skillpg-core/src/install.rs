//! Where to put a skill for each client: the folders it searches (in the project and in the
//! home folder), how deep it looks, and which copy wins when the same name is installed twice,
//! each with the source it was read from. The verdict says whether a client loads a skill (and
//! its first error why not); this says where the skill must sit to be found.
//!
//! Data, like the profiles: one [`Install`] per profile key, in the profiles' order.

/// Which `SKILL.md` files below one of its folders a client finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Looks {
    /// Nowhere on disk (an upload, or no folder of its own).
    Nowhere,
    /// `<folder>/<name>/SKILL.md` only.
    OneDown,
    /// `<folder>/SKILL.md` and `<folder>/<name>/SKILL.md` (Gemini CLI's glob).
    RootOrOneDown,
    /// Every folder to this depth, inside skills too (Codex's walk).
    Recursive { max_depth: usize },
}

impl Looks {
    /// Whether a `SKILL.md` in `dir` (its folder, relative to the skills folder, `/`-separated;
    /// empty for the folder itself) is found.
    pub fn finds(self, dir: &str) -> bool {
        let depth = depth_of(dir);
        match self {
            Looks::Nowhere => false,
            Looks::OneDown => depth == 1,
            Looks::RootOrOneDown => depth <= 1,
            Looks::Recursive { max_depth } => {
                depth <= max_depth && !dir.split('/').any(|part| part.starts_with('.'))
            }
        }
    }
}

/// How many folders down `dir` is (relative, `/`-separated; 0 for the folder itself).
pub fn depth_of(dir: &str) -> usize {
    if dir.is_empty() {
        0
    } else {
        dir.split('/').count()
    }
}

/// Where one client looks for skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Install {
    /// The profile's key.
    pub client: &'static str,
    /// Folders in the project (relative to its root), searched for `<skill>/SKILL.md`.
    pub project: &'static [&'static str],
    /// Folders in the home folder (`~`), searched the same way.
    pub user: &'static [&'static str],
    /// How deep below those folders it looks, in words.
    pub depth: &'static str,
    /// The same, as a rule.
    pub looks: Looks,
    /// Which copy it keeps when two have the same name, in words.
    pub wins: &'static str,
    /// Whether it lists both copies of a name (Codex) instead of keeping one.
    pub keeps_duplicates: bool,
    /// Groups of its folders of which it scans only the first that exists (Kimi Code CLI:
    /// `.kimi/skills`, else `.claude/skills`, else `.codex/skills`).
    pub first_existing: &'static [&'static [&'static str]],
    /// Where this was read, and when.
    pub source: &'static str,
}

/// Every client's folders, in the order of [`crate::profile::ALL`].
pub static INSTALLS: [Install; 24] = [
    Install {
        client: "spec",
        project: &[],
        user: &[],
        depth: "the specification describes one skill folder; where it goes is each client's choice",
        looks: Looks::Nowhere,
        wins: "not specified",
        keeps_duplicates: false,
        first_existing: &[],
        source: "agentskills.io specification; client guide (adding-skills-support): `<project>/.<client>/skills/`, `<project>/.agents/skills/`, `~/.<client>/skills/`, `~/.agents/skills/`, project over user",
    },
    Install {
        client: "claude-ai",
        project: &[],
        user: &[],
        depth: "uploaded as a zip (Settings → Capabilities, or the Skills API) with one folder at its top holding SKILL.md",
        looks: Looks::Nowhere,
        wins: "one skill per upload; a new upload of the same name replaces it",
        keeps_duplicates: false,
        first_existing: &[],
        source: "support.claude.com, Using skills in Claude; Claude API docs, Agent Skills",
    },
    Install {
        client: "claude-code",
        project: &[".claude/skills"],
        user: &[".claude/skills"],
        depth: "one folder down: `<skills>/<name>/SKILL.md`, never inside a skill's folder; also `.claude/skills` of a subfolder you work in",
        looks: Looks::OneDown,
        wins: "enterprise over personal (`~/.claude/skills`) over project (`.claude/skills`); plugin skills are namespaced (`plugin:skill`)",
        keeps_duplicates: false,
        first_existing: &[],
        source: "code.claude.com/docs/en/skills (docs v2.1.240, 2026-08-22)",
    },
    Install {
        client: "strict-yaml",
        project: &[".agents/skills"],
        user: &[".agents/skills"],
        depth: "as the client that reads them; `npx skills add` copies each skill folder into every agent's own folder",
        looks: Looks::OneDown,
        wins: "the client's own rule",
        keeps_duplicates: false,
        first_existing: &[],
        source: "agentskills.io client guide; vercel-labs/skills (npx skills)",
    },
    Install {
        client: "codex",
        project: &[".agents/skills", ".codex/skills"],
        user: &[".agents/skills", ".codex/skills"],
        depth: "every folder below a root, to depth 6, skipping hidden ones: a SKILL.md inside a skill's folder is a skill too; `.agents/skills` of every folder from the project root down to the working folder",
        looks: Looks::Recursive { max_depth: 6 },
        wins: "both copies are listed (only the same path is kept once), the project's first; `~/.codex/skills` is the deprecated user folder, `/etc/codex/skills` the admin one",
        keeps_duplicates: true,
        first_existing: &[],
        source: "openai/codex codex-rs/core-skills/src/loader.rs at c9d127cf",
    },
    Install {
        client: "copilot",
        project: &[".github/skills", ".claude/skills", ".agents/skills"],
        user: &[".copilot/skills", ".agents/skills", ".claude/skills"],
        depth: "one folder down: `<skills>/<name>/SKILL.md` (`findAgentSkillsInFolder`)",
        looks: Looks::OneDown,
        wins: "not documented",
        keeps_duplicates: false,
        first_existing: &[],
        source: "code.visualstudio.com Agent Skills reference; docs.github.com, Add skills",
    },
    Install {
        client: "copilot-code",
        project: &[".github/skills", ".claude/skills", ".agents/skills"],
        user: &[".copilot/skills", ".agents/skills", ".claude/skills"],
        depth: "one folder down: `<skills>/<name>/SKILL.md` (`findAgentSkillsInFolder`)",
        looks: Looks::OneDown,
        wins: "the first of a name, the workspace's before the personal ones, then plugins and extensions; a later one is skipped as a duplicate",
        keeps_duplicates: false,
        first_existing: &[],
        source: "microsoft/vscode promptsServiceImpl.ts (`computeSkillDiscoveryInfo`, `getPriority`) at 00eacc90",
    },
    Install {
        client: "cursor",
        project: &[".cursor/skills", ".agents/skills"],
        user: &[".cursor/skills", ".agents/skills"],
        depth: "one folder down: `<skills>/<name>/SKILL.md`; Cursor also reads Claude's and Codex's skill folders",
        looks: Looks::OneDown,
        wins: "not documented",
        keeps_duplicates: false,
        first_existing: &[],
        source: "cursor.com/docs/context/skills (the loader is not public)",
    },
    Install {
        client: "gemini-cli",
        project: &[".gemini/skills", ".agents/skills"],
        user: &[".gemini/skills", ".agents/skills"],
        depth: "`SKILL.md` and `*/SKILL.md` only (one folder down); workspace skills only in a trusted folder",
        looks: Looks::RootOrOneDown,
        wins: "the last loaded: built-in, then extensions, `~/.gemini/skills`, `~/.agents/skills`, `.gemini/skills`, `.agents/skills` (the project's `.agents/skills` wins), with a \"Skill conflict detected\" warning",
        keeps_duplicates: false,
        first_existing: &[],
        source: "google-gemini/gemini-cli packages/core/src/skills/skillManager.ts and config/storage.ts at 5411f113",
    },
    Install {
        client: "roo-code",
        project: &[".roo/skills", ".agents/skills"],
        user: &[".roo/skills", ".agents/skills"],
        depth: "one folder down: the direct children of each skills folder (and of its `skills-<mode>` variants, which only that mode sees)",
        looks: Looks::OneDown,
        wins: "project over global; within one, a mode's own folder over the generic one; else the first found",
        keeps_duplicates: false,
        first_existing: &[],
        source: "RooCodeInc/Roo-Code src/services/skills/SkillsManager.ts (`getSkillsDirectories`, `shouldOverrideSkill`) at 18348889",
    },
    Install {
        client: "kilo-code",
        project: &[".kilocode/skills", ".claude/skills"],
        user: &[".kilocode/skills"],
        depth: "one folder down, as Roo Code",
        looks: Looks::OneDown,
        wins: "`.kilocode/skills` first, then `.claude/skills`: the first found wins",
        keeps_duplicates: false,
        first_existing: &[],
        source: "Kilo-Org/kilocode src/services/skills/SkillsManager.ts, as read for clients.md (December 2026)",
    },
    Install {
        client: "cline",
        project: &[".clinerules/skills", ".cline/skills", ".claude/skills"],
        user: &[".cline/skills"],
        depth: "one folder down: the direct children of each skills folder",
        looks: Looks::OneDown,
        wins: "the global skill (`~/.cline/skills`) beats the project's of the same name",
        keeps_duplicates: false,
        first_existing: &[],
        source: "cline/cline src/core/context/instructions/user-instructions/skills.ts (`discoverSkills`, `getAvailableSkills`) at 1040805a",
    },
    Install {
        client: "zed",
        project: &[".agents/skills"],
        user: &[".agents/skills"],
        depth: "one folder down, flat: `<skills>/<name>/SKILL.md` only; project skills only in trusted worktrees",
        looks: Looks::OneDown,
        wins: "the project's over the global one",
        keeps_duplicates: false,
        first_existing: &[],
        source: "zed-industries/zed crates/agent_skills/agent_skills.rs at 007ed5ce; zed.dev/docs/ai/skills",
    },
    Install {
        client: "crush",
        project: &[
            ".agents/skills",
            ".crush/skills",
            ".claude/skills",
            ".cursor/skills",
        ],
        user: &[".config/crush/skills", ".config/agents/skills"],
        depth: "every folder below a skills path (fastwalk, following links): a SKILL.md inside a skill's folder is a skill too",
        looks: Looks::Recursive {
            max_depth: usize::MAX,
        },
        wins: "the last one of the name (`Deduplicate`): a user skill over a built-in one",
        keeps_duplicates: false,
        first_existing: &[],
        source: "charmbracelet/crush internal/skills/skills.go at 1a71e7f7",
    },
    Install {
        client: "pi",
        project: &[".pi/skills"],
        user: &[".pi/agent/skills"],
        depth: "every `SKILL.md` below a skills folder (and any `.md` at its root), skipping hidden folders and node_modules, and not below a folder that holds a `SKILL.md`",
        looks: Looks::Recursive {
            max_depth: usize::MAX,
        },
        wins: "the first loaded, the user's (`~/.pi/agent/skills`) before the project's; the other is reported as a collision",
        keeps_duplicates: false,
        first_existing: &[],
        source: "badlogic/pi-mono packages/coding-agent/src/core/skills.ts (`loadSkills`) at 277544fd",
    },
    Install {
        client: "goose",
        project: &[".goose/skills", ".agents/skills", ".claude/skills"],
        user: &[".config/goose/skills", ".agents/skills", ".claude/skills"],
        depth: "a recursive walk below each skills folder",
        looks: Looks::Recursive {
            max_depth: usize::MAX,
        },
        wins: "the first name seen, the project's first",
        keeps_duplicates: false,
        first_existing: &[],
        source: "block/goose crates/goose/src/skills/mod.rs and src/sources/mod.rs, as read for clients.md (December 2026)",
    },
    Install {
        client: "opencode",
        project: &[".opencode/skills", ".claude/skills", ".agents/skills"],
        user: &[
            ".config/opencode/skills",
            ".claude/skills",
            ".agents/skills",
        ],
        depth: "`skills/**/SKILL.md`: any depth below a skills folder, inside skills too; `.claude` and `.agents` of every folder from the working one up to the worktree",
        looks: Looks::Recursive {
            max_depth: usize::MAX,
        },
        wins: "the last one added of a name, with a `duplicate skill name` warning in its log: the project's, scanned after the global ones",
        keeps_duplicates: false,
        first_existing: &[],
        source: "anomalyco/opencode packages/opencode/src/skill/index.ts (`loadSkills`, `add`) at 048f74f4",
    },
    Install {
        client: "letta-code",
        project: &[".skills"],
        user: &[".letta/skills"],
        depth: "every folder below a skills folder: each `SKILL.md` (any case) is a skill whose id is its folder's path (`web/scraper`)",
        looks: Looks::Recursive {
            max_depth: usize::MAX,
        },
        wins: "the same id in a later source replaces it: project over agent (`~/.letta/agents/<id>/skills`) over global over bundled",
        keeps_duplicates: false,
        first_existing: &[],
        source: "letta-ai/letta-code src/agent/skills.ts (`discoverSkills`) at 04f7dd41",
    },
    Install {
        client: "augment",
        project: &[".augment/skills", ".claude/skills", ".agents/skills"],
        user: &[".augment/skills", ".claude/skills", ".agents/skills"],
        depth: "one folder down: `<skills>/<name>/SKILL.md`",
        looks: Looks::OneDown,
        wins: "not documented",
        keeps_duplicates: false,
        first_existing: &[],
        source: "docs.augmentcode.com/cli/skills",
    },
    Install {
        client: "copilot-cli",
        project: &[".github/skills", ".claude/skills", ".agents/skills"],
        user: &[".copilot/skills", ".agents/skills", ".claude/skills"],
        depth: "one folder down, as Copilot in VS Code",
        looks: Looks::OneDown,
        wins: "not documented; its catalog lists 15,000 characters of skills in the order they arrive",
        keeps_duplicates: false,
        first_existing: &[],
        source: "docs.github.com, Add skills; github/copilot-cli#2314",
    },
    Install {
        client: "mistral-vibe",
        project: &[".vibe/skills", ".agents/skills"],
        user: &[".vibe/skills", ".agents/skills"],
        depth: "one folder down: each direct subfolder of a skills folder with a `SKILL.md` file; the project's folders only in a trusted folder",
        looks: Looks::OneDown,
        wins: "the first of a name: the configured `skill_paths`, then the project's, then the user's (`~/.vibe/skills`, `~/.agents/skills`); a built-in skill's name is reserved",
        keeps_duplicates: false,
        first_existing: &[],
        source: "mistral-vibe 3.0.3 vibe/core/skills/manager.py (`_discover_skills`, `_compute_search_paths`) and vibe/core/paths/_local_config_files.py",
    },
    Install {
        client: "kimi-cli",
        project: &[
            ".kimi/skills",
            ".claude/skills",
            ".codex/skills",
            ".agents/skills",
        ],
        user: &[
            ".kimi/skills",
            ".claude/skills",
            ".codex/skills",
            ".config/agents/skills",
            ".agents/skills",
        ],
        depth: "one folder down: `<skills>/<name>/SKILL.md`, and a flat `<skills>/<name>.md` file is a skill too; of `.kimi`, `.claude` and `.codex` it scans only the first `skills` folder that exists, and of `~/.config/agents/skills` and `~/.agents/skills` the first; the project's folders are those of the repository's root (the nearest `.git`)",
        looks: Looks::OneDown,
        wins: "the first of a name (compared case-blind): the project's before the user's, then `extra_skill_dirs`, plugins and built-in skills; in one folder, a subfolder's skill before a flat file's",
        keeps_duplicates: false,
        first_existing: &[
            &[".kimi/skills", ".claude/skills", ".codex/skills"],
            &[".config/agents/skills", ".agents/skills"],
        ],
        source: "MoonshotAI/kimi-cli src/kimi_cli/skill/__init__.py (`find_user_skills_dirs`, `find_project_skills_dirs`, `resolve_skills_roots`, `discover_skills`), kimi-cli 1.52.0",
    },
    Install {
        client: "qwen-code",
        project: &[".qwen/skills", ".agents/skills"],
        user: &[".qwen/skills", ".agents/skills"],
        depth: "one folder down: `<skills>/<name>/SKILL.md` of each direct subfolder (or a link to one); the project's folders are skipped when the project is the home folder",
        looks: Looks::OneDown,
        wins: "the first of a name: the project's (`.qwen/skills` before `.agents/skills`) over the user's (`~/.qwen/skills`, `~/.agents/skills`, then configured folders), over extensions' and bundled skills",
        keeps_duplicates: false,
        first_existing: &[],
        source: "QwenLM/qwen-code packages/core/src/skills/skill-manager.ts (`getSkillsBaseDirs`, `listSkillsAtLevel`, `collectCachedSkills`) as bundled in @qwen-code/qwen-code 0.24.4",
    },
    Install {
        client: "openclaw",
        project: &[".agents/skills", "skills"],
        user: &[".openclaw/skills", ".agents/skills"],
        depth: "every folder to depth 6 below a skills folder, skipping hidden ones and node_modules, not below a folder that holds a `SKILL.md` (the skills folder may be one skill itself); at most 300 folders a root and 200 skills a source",
        looks: Looks::Recursive { max_depth: 6 },
        wins: "the last of a name: a workspace's (`.agents/skills`, then `skills`) over the personal `~/.agents/skills`, over the managed `~/.openclaw/skills`, over bundled and extra folders",
        keeps_duplicates: false,
        first_existing: &[],
        source: "openclaw/openclaw src/skills/loading/skill-root-discovery.ts (`discoverSkillCandidates`), workspace-skill-sources.ts (`resolveWorkspaceSkillSourcePlan`) and workspace-skill-loader.ts (`mergeSkillRecords`) as bundled in openclaw 2026.9.6",
    },
];

/// The folders of `client` (a profile's key).
pub fn install_for(client: &str) -> Option<&'static Install> {
    INSTALLS.iter().find(|i| i.client == client)
}

impl Install {
    /// The folder that keeps `folder` from being scanned: the first of its
    /// [`Install::first_existing`] group before it that `exists`, if any.
    pub fn shadowed_by(&self, folder: &str, exists: impl Fn(&str) -> bool) -> Option<&'static str> {
        let group = self.first_existing.iter().find(|g| g.contains(&folder))?;
        group
            .iter()
            .take_while(|f| **f != folder)
            .find(|f| exists(f))
            .copied()
    }

    /// Where a skill folder named `dir` goes: each project folder, then each user folder.
    pub fn paths(&self, dir: &str) -> Vec<String> {
        let project = self.project.iter().map(|f| format!("{f}/{dir}/SKILL.md"));
        let user = self.user.iter().map(|f| format!("~/{f}/{dir}/SKILL.md"));
        project.chain(user).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kimi_scans_only_the_first_existing_folder_of_a_group() {
        let kimi = install_for("kimi-cli").expect("kimi");
        let some = |present: &'static [&'static str]| move |f: &str| present.contains(&f);
        assert_eq!(
            kimi.shadowed_by(".claude/skills", some(&[".kimi/skills"])),
            Some(".kimi/skills")
        );
        assert_eq!(
            kimi.shadowed_by(".claude/skills", some(&[".codex/skills"])),
            None
        );
        assert_eq!(
            kimi.shadowed_by(".codex/skills", some(&[".claude/skills"])),
            Some(".claude/skills")
        );
        assert_eq!(
            kimi.shadowed_by(".agents/skills", some(&[".config/agents/skills"])),
            Some(".config/agents/skills")
        );
        assert_eq!(
            kimi.shadowed_by(".agents/skills", some(&[".kimi/skills"])),
            None
        );
        // Every other client scans every folder it names.
        let codex = install_for("codex").expect("codex");
        assert_eq!(codex.shadowed_by(".codex/skills", |_| true), None);
    }

    #[test]
    fn every_profile_has_its_folders_in_the_same_order() {
        let keys: Vec<&str> = crate::profile::ALL.iter().map(|p| p.key).collect();
        let installs: Vec<&str> = INSTALLS.iter().map(|i| i.client).collect();
        assert_eq!(keys, installs);
        for i in &INSTALLS {
            assert!(
                !i.source.is_empty() && !i.depth.is_empty() && !i.wins.is_empty(),
                "{}",
                i.client
            );
        }
    }

    #[test]
    fn each_client_finds_the_depths_its_loader_reads() {
        let gemini = install_for("gemini-cli").expect("gemini").looks;
        let codex = install_for("codex").expect("codex").looks;
        let claude = install_for("claude-code").expect("claude").looks;
        assert!(gemini.finds("") && gemini.finds("pdf") && !gemini.finds("group/pdf"));
        assert!(!claude.finds("") && claude.finds("pdf") && !claude.finds("pdf/references/x"));
        assert!(
            codex.finds("group/pdf") && codex.finds("a/b/c/d/e/f") && !codex.finds("a/b/c/d/e/f/g")
        );
        assert!(!codex.finds(".system/pdf"), "hidden folders are skipped");
    }

    #[test]
    fn paths_name_the_project_folders_then_the_home_ones() {
        let gemini = install_for("gemini-cli").expect("gemini");
        assert_eq!(
            gemini.paths("pdf"),
            [
                ".gemini/skills/pdf/SKILL.md",
                ".agents/skills/pdf/SKILL.md",
                "~/.gemini/skills/pdf/SKILL.md",
                "~/.agents/skills/pdf/SKILL.md",
            ]
        );
    }
}
