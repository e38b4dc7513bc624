// The page served under a path, as GitHub Pages serves a project site
// (https://OWNER.github.io/skill-playground/): dist/ is served at /skill-playground/ with its
// service worker. The main flows run there (a sample, a routing run whose model comes from under
// the path, a share link), a link made by `skillpg share --base` opens the same skills, and the
// page reloads offline and still works.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browser, dist as builtDist, editorText, freePort, openPage, root, showView } from './harness.mjs';

// scripts/test-trunk points this at Trunk's output.
const dist = process.env.SKILLPG_DIST || builtDist;

const skillpg = path.join(root, 'target/debug/skillpg');
let server;
let ctx;
let top;

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'model/minilm-i8.spgm')), 'dist/model is missing: run scripts/fetch-model, then scripts/build-web');
  // What scripts/serve --base /skill-playground/ does: dist/ under a folder of that name.
  top = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-hosted-'));
  fs.symlinkSync(dist, path.join(top, 'skill-playground'));
  const port = await freePort();
  const proc = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', top], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/skill-playground/`;
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(url)).ok) break; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  server = { url, stop: () => proc.kill() };
  ctx = await browser();
});

after(async () => {
  await ctx?.close();
  server?.stop();
  if (top) fs.rmSync(top, { recursive: true, force: true });
});

test('under /skill-playground/: the main flows, a CLI link, and offline', { timeout: 600_000 }, async () => {
  const outside = [];
  ctx.on('request', (r) => {
    const u = new URL(r.url());
    if (u.origin === new URL(server.url).origin && !u.pathname.startsWith('/skill-playground/')) outside.push(u.pathname);
  });
  const { page, errors } = await openPage(ctx, server.url);
  // The service worker's scope is the page's folder.
  const scope = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope));
  assert.equal(scope, server.url);
  const manifest = await page.evaluate(async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json());
  assert.equal(manifest.start_url, './');

  // A sample.
  await page.click('[data-testid="clear"]');
  await page.click('[data-testid="sample-release-notes"]');
  await page.waitForSelector('[data-testid="levels-table"] tbody tr', { state: 'attached' });

  // Routing: the model is fetched from under the path.
  await showView(page, 'routing');
  await page.click('[data-testid="routing-sample"]');
  await page.fill('[data-testid="routing-requests"]', 'Write the release notes for v2.1 => release-notes\nWhat is the capital of France? => NONE');
  await page.click('[data-testid="routing-run"]');
  await page.waitForSelector('[data-testid="route-row"]', { timeout: 540_000 });
  assert.equal(await page.locator('[data-testid="route-row"]').count(), 2);

  // Share: the link is the page's own address under the path.
  await page.click('[data-testid="clear"]');
  await page.click('[data-testid="sample-release-notes"]');
  await showView(page, 'share');
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  assert.ok(link.startsWith(`${server.url}#v1=`), link);

  // A link made by the CLI for the hosted page opens the same skill there.
  const sample = path.join(root, 'web/samples/pdf-helper');
  const cliLink = execFileSync(skillpg, ['share', '--base', server.url, '--view', 'levels', sample], { encoding: 'utf8' }).split('\n')[0];
  const opened = await openPage(ctx, cliLink);
  await opened.page.waitForSelector('[data-testid="levels-table"] tbody tr', { state: 'attached' });
  assert.equal(await opened.page.locator('[data-testid="catalog"] .catalog-item').count(), 1);
  assert.equal(
    await editorText(opened.page),
    fs.readFileSync(path.join(sample, 'SKILL.md'), 'utf8'),
  );

  // Links other tools read. An Agent Skills discovery index on the same site, made by the CLI:
  // every file is checked against its digest; a tampered file is refused, not loaded.
  const origin = new URL(server.url).origin;
  const releaseNotes = path.join(root, 'web/samples/release-notes');
  execFileSync(skillpg, ['share', '--well-known', top, releaseNotes]);
  const loadUrl = async (address) => {
    await page.fill('#url-input', address);
    await page.click('[data-testid="url-load"]');
  };
  const catalogCount = () => page.locator('[data-testid="catalog"] .catalog-item').count();
  await page.click('[data-testid="clear"]');
  await loadUrl(`${origin}/.well-known/agent-skills/index.json`);
  await page.waitForFunction(() => /Loaded 1 skill\(s\) from the index, each file checked/.test(document.querySelector('[data-testid="status"]').textContent));
  assert.equal(await catalogCount(), 1);
  assert.equal(await editorText(page), fs.readFileSync(path.join(releaseNotes, 'SKILL.md'), 'utf8'));
  fs.appendFileSync(path.join(top, '.well-known/agent-skills/release-notes/references/style.md'), 'tampered\n');
  await page.click('[data-testid="clear"]');
  await loadUrl(`${origin}/.well-known/agent-skills/index.json`);
  await page.waitForFunction(() => /Refused: release-notes\/references\/style\.md does not match the index's digest/.test(document.querySelector('[data-testid="status"]').textContent));
  assert.equal(await catalogCount(), 0, 'nothing from a tampered skill is loaded');
  // A Zed share link made by the CLI loads as its skill, and the page's "Open in Zed" is the same link.
  const zed = execFileSync(skillpg, ['share', '--zed', releaseNotes], { encoding: 'utf8' }).trim();
  await loadUrl(zed);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length === 1);
  await showView(page, 'share');
  assert.equal(await page.getAttribute('[data-testid="open-in-zed"]', 'href'), zed);

  // Offline: the page and its wasm come from the cache, under the path.
  await page.waitForFunction(async () => {
    const keys = await caches.keys();
    for (const k of keys) {
      const cache = await caches.open(k);
      // scripts/build-web's name, or Trunk's.
      if ((await cache.match('./skillpg_app_bg.wasm')) || (await cache.match('./skillpg-app_bg.wasm'))) return true;
    }
    return false;
  }, null, { timeout: 20000 });
  await ctx.setOffline(true);
  try {
    // Right after the last change: the save still pending runs as the page goes.
    await page.reload();
    await page.waitForSelector('[data-built]');
    await page.waitForSelector('[data-testid="levels-table"] tbody tr', { state: 'attached' });
    assert.equal(await catalogCount(), 1, 'the skill loaded last is kept across the reload');
    await showView(page, 'tokens');
    assert.match(await page.textContent('[data-testid="token-count"]'), /tokens/);
  } finally {
    await ctx.setOffline(false);
  }
  assert.deepEqual(errors, [], 'no uncaught error');
  assert.deepEqual(opened.errors, []);
  assert.deepEqual(outside.filter((p) => !p.startsWith('/.well-known/')), [], 'nothing but the index is requested outside the path');
});
