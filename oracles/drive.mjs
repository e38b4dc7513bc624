// The clients' own skill loaders, called on skill folders: the oracles of
// crates/skillpg-cli/tests/client_oracles.rs, as skills-ref is the spec profile's.
//
//   node oracles/drive.mjs <client> <list>
//   node oracles/drive.mjs <client> --discover <skills folder>
//
// <list> is a file of absolute skill-folder paths, one a line. Prints one JSON object:
// {"client", "package", "version", "cases": {<folder>: {"loads", "name", "description", "why"}}}
// where "loads" says whether the client's loader gives a skill for the folder's own SKILL.md,
// "name" and "description" are what it lists, and "why" is its message when it gives none.
//
// With --discover it prints {"client", "package", "version", "found": [<folder>...]}: the folders
// of every SKILL.md the client's loader gives a skill for under one skills folder.
//
// Each loader is imported from the installed package by its file (the packages' export maps do
// not name these modules), exactly as the package ships it: nothing here re-implements a rule.
import { readFileSync, readdirSync, realpathSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, 'node_modules');

function packageVersion(spec) {
  if (spec.version) return spec.version();
  return JSON.parse(readFileSync(join(modules, spec.package, 'package.json'), 'utf8')).version;
}

async function load(name, file) {
  return import(pathToFileURL(join(modules, name, file)).href);
}

// Each client: its package, and how its loader answers for one skill folder.
const CLIENTS = {
  // pi: `loadSkillsFromDir` (packages/coding-agent/src/core/skills.ts) on the folder: a folder
  // holding SKILL.md is one skill root; warnings are reported, and only a missing description or
  // a throw (the yaml parser's, or a check calling a string method on a number) skips the skill.
  pi: {
    package: '@mariozechner/pi-coding-agent',
    async open() {
      const skills = await load(this.package, 'dist/core/skills.js');
      return (folder) => {
        const { skills: found, diagnostics } = skills.loadSkillsFromDir({ dir: folder, source: 'path' });
        const own = found.find((s) => s.filePath === join(folder, 'SKILL.md'));
        if (discovering) return found.map((s) => dirname(s.filePath));
        return own
          ? { loads: true, name: own.name, description: own.description, why: null }
          : { loads: false, name: null, description: null, why: diagnostics.map((d) => d.message).join('; ') || null };
      };
    },
  },
  // Gemini CLI: `loadSkillsFromDir` (packages/core/src/skills/skillLoader.ts) globs `SKILL.md`
  // and `*/SKILL.md` under a skills folder; here the skill's own folder, whose SKILL.md is the
  // one that answers.
  'gemini-cli': {
    package: '@google/gemini-cli-core',
    async open() {
      const loader = await load(this.package, 'dist/src/skills/skillLoader.js');
      return async (folder) => {
        const found = await loader.loadSkillsFromDir(folder);
        if (discovering) return found.map((s) => dirname(s.location));
        const own = found.find((s) => s.location === join(folder, 'SKILL.md'));
        return own
          ? { loads: true, name: own.name, description: own.description, why: null }
          : { loads: false, name: null, description: null, why: null };
      };
    },
  },
  // Qwen Code: `SkillManager.loadSkillsFromDir` (packages/core/src/skills/skill-manager.ts),
  // which reads `<dir>/<entry>/SKILL.md` for each direct subfolder. The package ships one
  // bundle split in hashed chunks, so the chunk that defines the class is found by its text;
  // here the skill folder's parent is loaded once and the folder's own SKILL.md answers.
  'qwen-code': {
    package: '@qwen-code/qwen-code',
    async open() {
      const chunks = join(modules, this.package, 'chunks');
      const file = readdirSync(chunks).find((f) =>
        f.endsWith('.js') && readFileSync(join(chunks, f), 'utf8').includes('var SkillManager = class'),
      );
      const { SkillManager } = await load(this.package, join('chunks', file));
      const manager = new SkillManager({});
      const byParent = new Map();
      return async (folder) => {
        if (discovering) return (await manager.loadSkillsFromDir(folder, 'project')).map((s) => dirname(s.filePath));
        const parent = dirname(folder);
        if (!byParent.has(parent)) byParent.set(parent, await manager.loadSkillsFromDir(parent, 'project'));
        const own = byParent.get(parent).find((s) => s.filePath === join(folder, 'SKILL.md'));
        if (own) return { loads: true, name: own.name, description: own.description, why: null };
        const error = manager.getParseErrors().get(join(folder, 'SKILL.md'));
        return { loads: false, name: null, description: null, why: error?.message ?? null };
      };
    },
  },
  // OpenClaw: `loadSingleSkillDirectory` (src/skills/loading/local-loader.ts) on the folder, as
  // `loadContainedSkillRecord` calls it with the default limits (a SKILL.md of at most 256,000
  // bytes); discovery is `discoverSkillCandidates` (skill-root-discovery.ts) under a skills
  // folder, each candidate loaded the same way. Its modules are unpacked in oracles/openclaw
  // (./install), found by the names their bundler hashed.
  openclaw: {
    package: 'openclaw',
    home: join(here, 'openclaw'),
    version() {
      return JSON.parse(readFileSync(join(this.home, 'package', 'package.json'), 'utf8')).version;
    },
    async open() {
      const dist = join(this.home, 'package', 'dist');
      const module = async (prefix, marker) => {
        const file = readdirSync(dist).find((f) => f.startsWith(prefix) && readFileSync(join(dist, f), 'utf8').includes(marker));
        return import(pathToFileURL(join(dist, file)).href);
      };
      const loader = await module('local-loader-', 'function loadSingleSkillDirectory');
      const discovery = await module('skill-root-discovery-', 'function discoverSkillCandidates');
      const exported = (m, name) => Object.values(m).find((f) => typeof f === 'function' && f.name === name);
      const loadOne = exported(loader, 'loadSingleSkillDirectory');
      const discover = exported(discovery, 'discoverSkillCandidates');
      const limits = exported(discovery, 'resolveSkillDiscoveryLimits')();
      const load = (skillDir, realPath) => {
        const why = [];
        const loaded = loadOne({
          skillDir,
          rootRealPath: realPath ?? realpathSync(skillDir),
          source: 'openclaw-workspace',
          maxBytes: limits.maxSkillFileBytes,
          onDiagnostic: (d) => why.push(d.message),
        });
        return { loaded, why };
      };
      return (folder) => {
        if (discovering) {
          const { candidates } = discover({ dir: folder, source: 'openclaw-workspace', limits });
          return candidates.filter((c) => load(c.skillDir, c.skillDirRealPath).loaded).map((c) => c.skillDir);
        }
        const { loaded, why } = load(folder);
        return loaded
          ? { loads: true, name: loaded.skill.name, description: loaded.skill.description, why: null }
          : { loads: false, name: null, description: null, why: why.join('; ') || null };
      };
    },
  },
};

const args = process.argv.slice(2);
const discovering = args[1] === '--discover';
const [client, list] = discovering ? [args[0], args[2]] : args;
const spec = CLIENTS[client];
if (!spec || !list) {
  console.error(`usage: node oracles/drive.mjs <${Object.keys(CLIENTS).join('|')}> <list of folders>`);
  process.exit(2);
}
// Loaders log their warnings; stdout carries only the answer.
console.log = console.info = console.debug = console.warn = () => {};
const answer = await spec.open();
if (discovering) {
  const found = (await answer(list)).sort();
  process.stdout.write(
    JSON.stringify({ client, package: spec.package, version: packageVersion(spec), found }) + '\n',
  );
  process.exit(0);
}
const cases = {};
for (const folder of readFileSync(list, 'utf8').split('\n').filter(Boolean)) {
  try {
    cases[folder] = await answer(folder);
  } catch (e) {
    // A loader that throws out of its own entry point loads nothing for the folder.
    cases[folder] = { loads: false, name: null, description: null, why: `threw: ${e?.message ?? e}` };
  }
}
process.stdout.write(
  JSON.stringify({ client, package: spec.package, version: packageVersion(spec), cases }) + '\n',
);
