// The JavaScript YAML libraries the clients read frontmatter with, each called the way its
// client calls it, on frontmatter texts: the oracles of
// crates/skillpg-core/tests/yaml_libraries.rs (which holds each `YamlDialect` to its library).
//
//   node oracles/yaml-libraries.mjs <cases.json>
//
// <cases.json> is a JSON list of YAML texts. Prints one JSON object:
// {"libraries": {<dialect>: {"library": "<package>@<version>", "readings": [<reading>...]}}}
// where a reading is {"kind": "error"} | {"kind": "notmap"} |
// {"kind": "fields", "name": <field>, "description": <field>} and a field is
// {"t": "absent"|"null"|"str"|"bool"|"num"|"seq"|"map"|"other", "v": <the string, for "str">}.
//
// js-yaml 3.14.1 is called as gray-matter 4.0.3 calls its engine (Roo Code, Kilo Code,
// OpenCode: `yaml.safeLoad(str)`), js-yaml 4.1 as Cline and Gemini CLI call it (`yaml.load`),
// and the `yaml` package as pi, Qwen Code and OpenClaw call it (`parse(str)`, its defaults).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, 'node_modules', 'x.js'));
const version = (name) => JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version;

const jsyaml3 = require('js-yaml-3.14');
const matter = require('gray-matter');
const jsyaml4 = require('js-yaml');
const YAML = require('yaml');

const LIBRARIES = {
  JsYaml3: {
    library: `js-yaml@${version('js-yaml-3.14')} (gray-matter@${version('gray-matter')})`,
    // gray-matter's own split, with js-yaml 3.14's safeLoad as its YAML engine (its default
    // engine is `yaml.safeLoad` of the js-yaml its client's lock resolves).
    read: (text) => matter(`---\n${text}\n---\n`, { engines: { yaml: (s) => jsyaml3.safeLoad(s) } }).data,
  },
  JsYaml4: { library: `js-yaml@${version('js-yaml')}`, read: (text) => jsyaml4.load(text) },
  YamlJs: { library: `yaml@${version('yaml')}`, read: (text) => YAML.parse(text) },
};

function field(doc, key) {
  if (!Object.prototype.hasOwnProperty.call(doc, key)) return { t: 'absent' };
  const v = doc[key];
  if (v === null || v === undefined) return { t: 'null' };
  if (typeof v === 'string') return { t: 'str', v };
  if (typeof v === 'boolean') return { t: 'bool' };
  if (typeof v === 'number') return { t: 'num' };
  if (Array.isArray(v)) return { t: 'seq' };
  if (v instanceof Date) return { t: 'other' };
  if (typeof v === 'object') return { t: 'map' };
  return { t: 'other' };
}

function reading(read, text) {
  let doc;
  try {
    doc = read(text);
  } catch {
    return { kind: 'error' };
  }
  if (doc === null || doc === undefined) return { kind: 'fields', name: { t: 'absent' }, description: { t: 'absent' } };
  if (typeof doc !== 'object' || Array.isArray(doc) || doc instanceof Date) return { kind: 'notmap' };
  return { kind: 'fields', name: field(doc, 'name'), description: field(doc, 'description') };
}

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = { libraries: {} };
for (const [dialect, lib] of Object.entries(LIBRARIES)) {
  out.libraries[dialect] = { library: lib.library, readings: cases.map((text) => reading(lib.read, text)) };
}
process.stdout.write(JSON.stringify(out));
