// The GitHub Action (action.yml) and the workflows under .github/workflows/ are validated
// against GitHub's schemas (SchemaStore's, bundled in @action-validator/core, so nothing is
// fetched), and a planted mistake is refused, so the check can fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const validator = path.join(root, 'node_modules/.bin/action-validator');

function validate(file) {
  return spawnSync(validator, [file], { encoding: 'utf8' });
}

test('action.yml is a valid composite action', () => {
  const r = validate(path.join(root, 'action.yml'));
  assert.equal(r.status, 0, r.stderr);
  const text = fs.readFileSync(path.join(root, 'action.yml'), 'utf8');
  // Every input the steps read is declared.
  for (const m of text.matchAll(/inputs\.([a-z-]+)/g)) {
    assert.match(text, new RegExp(`^  ${m[1]}:$`, 'm'), `input ${m[1]} is declared`);
  }
  // The scripts it runs exist in the repository.
  for (const m of text.matchAll(/\$GITHUB_ACTION_PATH\/(scripts\/[a-z.-]+)/g)) {
    assert.ok(fs.existsSync(path.join(root, m[1])), m[1]);
  }
});

test('every workflow is valid', () => {
  const dir = path.join(root, '.github/workflows');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)) : [];
  for (const f of files) {
    const r = validate(path.join(dir, f));
    assert.equal(r.status, 0, `${f}: ${r.stdout}${r.stderr}`);
  }
});

test('a planted mistake is refused', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-action-'));
  const bad = path.join(tmp, 'action.yml');
  fs.writeFileSync(bad, fs.readFileSync(path.join(root, 'action.yml'), 'utf8').replace(/^runs:/m, 'run:'));
  const r = validate(bad);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /"path": "\/runs"/);
  fs.rmSync(tmp, { recursive: true });
});

test('the Pages workflow builds what scripts/test builds, and dist/ holds what it publishes', () => {
  const wf = fs.readFileSync(path.join(root, '.github/workflows/pages.yml'), 'utf8');
  // The same two scripts as scripts/test's build of the page, which runs before these tests.
  assert.match(wf, /run: bash scripts\/fetch-model/);
  assert.match(wf, /run: bash scripts\/build-web/);
  assert.match(wf, /upload-pages-artifact@v3\n\s+with:\n\s+path: dist/);
  const dist = path.join(root, 'dist');
  for (const f of ['index.html', 'boot.js', 'sw.js', 'worker.js', 'manifest.webmanifest', 'icon-192.png', 'icon-512.png', 'skillpg_app_bg.wasm', 'skillpg_worker_bg.wasm', 'model/minilm-i8.spgm', 'model/vocab.txt']) {
    assert.ok(fs.existsSync(path.join(dist, f)), `dist/${f}`);
  }
  assert.doesNotMatch(fs.readFileSync(path.join(dist, 'sw.js'), 'utf8'), /__BUILD_ID__/);
  // Every address the page names is relative: it works under any path.
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  for (const m of html.matchAll(/(?:href|src|content)="([^"]+)"/g)) {
    assert.ok(!m[1].startsWith('/'), `an absolute path in dist/index.html: ${m[1]}`);
  }
});

test('a planted mistake in a workflow is refused', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-wf-'));
  const bad = path.join(tmp, 'pages.yml');
  fs.writeFileSync(bad, fs.readFileSync(path.join(root, '.github/workflows/pages.yml'), 'utf8').replace('runs-on: ubuntu-latest', 'runs_on: ubuntu-latest'));
  const r = validate(bad);
  assert.notEqual(r.status, 0, 'refused');
  assert.match(r.stderr, /runs_on|runs-on/);
  fs.rmSync(tmp, { recursive: true });
});
