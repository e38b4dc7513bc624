// Hostile and degenerate input in the real page: crafted share links, a UTF-16 SKILL.md, an
// empty catalog, an unknown profile. The page must answer with a message, keep working, and
// never claim that nothing "loads".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { browser, editorText, fillEditor, openPage, screenshotPath, serve, shareFragment } from './harness.mjs';

let server;
let ctx;

/** A share link as the page writes it, on this test's server. */
function link(state) {
  return server.url + shareFragment(state);
}

const GOOD = '---\nname: good\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n';

const open = (url) => openPage(ctx, url);

const verdict = (page, key) => page.locator(`[data-testid="verdict-${key}"] td.selected .verdict`).textContent();

before(async () => {
  server = await serve();
  ctx = await browser();
});

after(async () => {
  await ctx?.close();
  server?.stop();
});

describe('hostile input', () => {
  test('crafted share links are refused or clamped, and the plain page still opens', async () => {
    // Tens of thousands of skills in a few kilobytes of link.
    const many = link({ skills: Array.from({ length: 20_000 }, (_, i) => ({ dir: `s${i}`, files: [] })) });
    assert.ok(many.length < 100_000, `a small link: ${many.length} characters`);
    let { page, errors } = await open(many);
    assert.match(await page.textContent('[data-testid="status"]'), /could not be opened.*skills/);
    assert.deepEqual(errors, []);
    await page.close();
    // One huge SKILL.md.
    const huge = link({ skills: [{ dir: 'huge', files: [{ p: 'SKILL.md', t: GOOD + 'a'.repeat(20 * 1024 * 1024) }] }] });
    ({ page, errors } = await open(huge));
    assert.match(await page.textContent('[data-testid="status"]'), /could not be opened.*MB/);
    await page.close();
    // Absurd turns and an unknown profile: clamped, with the findings of the profile shown.
    const absurd = link({ skills: [{ dir: 'bad', files: [{ p: 'SKILL.md', t: '---\nname: Bad_Name\ndescription: x\n---\n' }] }], profile: 'no-such-profile', cost: { turns: 1e15, activate_at: 1e15, read: [], price: 2, cached_price: 0.2 } });
    ({ page, errors } = await open(absurd));
    assert.equal(await page.inputValue('[data-testid="cost-turns"]'), '10000');
    assert.equal(await verdict(page, 'spec'), 'fails');
    assert.ok(await page.locator('[data-testid="diagnostic"]').count() > 0, 'the verdict "fails" comes with its findings');
    assert.deepEqual(errors, []);
    await page.close();
    // After all that, the plain address opens normally.
    ({ page, errors } = await open(server.url));
    assert.ok(await page.locator('[data-testid="levels-table"] tbody tr').count() >= 1);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a zip of many small, highly compressible entries is refused before it is inflated', async () => {
    // 300 entries of just under 1 MiB each (each passes the per-entry ratio check): 300 MiB in
    // a zip of a few hundred kilobytes. Written by Python's zipfile, which the tests have.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bomb-'));
    const zip = path.join(dir, 'many.zip');
    execFileSync('python3', ['-c', `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('b/SKILL.md', '---\\nname: b\\ndescription: Use when testing.\\n---\\n')
    for i in range(300):
        z.writestr(f'b/f{i}.txt', b'a' * (1024 * 1024 - 1))
`, zip]);
    assert.ok(fs.statSync(zip).size < 2 * 1024 * 1024, 'a small archive');
    const { page, errors } = await open(server.url);
    await page.click('[data-testid="clear"]');
    await page.setInputFiles('[data-testid="file-input"]', zip);
    await page.waitForFunction(() => /zip bomb|nothing was read/.test(document.querySelector('[data-testid="status"]').textContent));
    assert.match(await page.textContent('[data-testid="status"]'), /Loaded 0 skill\(s\).*(over the limit of 64 MB|zip bomb)/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a UTF-16 SKILL.md is read and fails where loaders read UTF-8; an empty catalog has no verdict', async () => {
    const { page, errors } = await open(server.url);
    await page.click('[data-testid="clear"]');
    for (const key of ['spec', 'claude-ai', 'claude-code', 'strict-yaml']) {
      assert.equal(await verdict(page, key), 'no skill loaded', `${key} after Clear all`);
    }
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'utf16-')), 'utf16-skill');
    fs.mkdirSync(dir);
    const text = '---\nname: utf16-skill\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n';
    fs.writeFileSync(path.join(dir, 'SKILL.md'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    await page.setInputFiles('[data-testid="folder-input"]', dir);
    await page.waitForSelector('[data-testid="diagnostic"][data-code="SPG005"]');
    assert.equal(await verdict(page, 'spec'), 'fails');
    const level1 = Number((await page.locator('[data-testid="levels-table"] tbody tr td').first().textContent()).replace(/,/g, ''));
    assert.ok(level1 > 0, 'levels are counted from the decoded text');
    // The editor shows the text decoded, read-only (an edit would re-encode it), and says why.
    const shown = await editorText(page);
    assert.ok(!shown.includes('\0') && shown.includes('name: utf16-skill'), JSON.stringify(shown.slice(0, 40)));
    assert.equal(await page.locator('[data-testid="editor"]').evaluate((e) => e.getAttribute('aria-readonly') === 'true'), true);
    assert.match(await page.textContent('[data-testid="editor-encoding"]'), /UTF-16 \(little-endian\).*read-only/);
    await page.click('[data-testid="editor-to-utf8"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="editor-encoding"]') === null);
    assert.equal(await editorText(page), text, 'saved as UTF-8, without the byte order mark');
    assert.equal(await page.locator('[data-testid="editor"]').evaluate((e) => e.getAttribute('aria-readonly') === 'true'), false);
    assert.equal(await verdict(page, 'spec'), 'loads');
    await page.screenshot({ path: screenshotPath('09-hostile'), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });

  // Issue 36's page cases, each exactly as reported.
  test('a NUL byte does not make a SKILL.md valid, and a folder that is not a folder name is refused', async () => {
    const nul = link({ skills: [{ dir: 'nofm', files: [{ p: 'SKILL.md', t: 'just text, no frontmatter, no name, no description\n\u0000' }] }] });
    let { page, errors } = await open(nul);
    await page.waitForSelector('[data-testid="diagnostic"][data-code="SPG010"]');
    assert.equal(await verdict(page, 'spec'), 'fails');
    assert.deepEqual(errors, []);
    await page.close();
    for (const dir of ['..', '', 'a/b/../../c']) {
      ({ page, errors } = await open(link({ skills: [{ dir, files: [{ p: 'SKILL.md', t: GOOD }] }] })));
      assert.match(await page.textContent('[data-testid="status"]'), /not a folder name/, JSON.stringify(dir));
      const names = await page.locator('[data-testid="catalog"] .catalog-item .skill-name').allTextContents();
      assert.ok(!names.includes(dir) && !names.includes('c'), `nothing of the link is loaded: ${names}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test('loading a skill of the same folder keeps the edited one beside it', async () => {
    const { page, errors } = await open(server.url);
    await page.click('[data-testid="clear"]');
    await page.click('[data-testid="sample-release-notes"]');
    await page.waitForSelector('[data-testid="levels-table"] tbody tr', { state: 'attached' });
    const edited = (await editorText(page)) + '\nMy own line.\n';
    await fillEditor(page, edited);
    await page.click('[data-testid="sample-release-notes"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length === 2);
    assert.match(await page.textContent('[data-testid="status"]'), /nothing was replaced.*release-notes-2/);
    await page.locator('[data-testid="catalog"] .catalog-item').first().locator('button').first().click();
    assert.equal(await editorText(page), edited, 'the edit is kept');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('an index whose files together pass the load budget loads nothing and says why', { timeout: 120_000 }, async () => {
    const { page, errors } = await open(server.url);
    await page.click('[data-testid="clear"]');
    const big = Buffer.alloc(10 * 1024 * 1024, 'a');
    const crypto = await import('node:crypto');
    const hex = crypto.createHash('sha256').update(big).digest('hex');
    const skillMd = (n) => `---\nname: s${n}\ndescription: Does s${n}.\n---\n# s${n}\n`;
    const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');
    const skills = Array.from({ length: 8 }, (_, n) => {
      const files = [['SKILL.md', sha(Buffer.from(skillMd(n)))], ['references/big.md', hex]];
      const manifest = files.slice().sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([p, h]) => `${p}\0${h}\n`).join('');
      return { name: `s${n}`, description: `Does s${n}.`, digest: `sha256:${sha(Buffer.from(manifest))}`, files: files.map(([p, h]) => ({ path: p, digest: `sha256:${h}` })) };
    });
    const index = JSON.stringify({ version: '0.2.0', skills });
    await page.route('https://skills.example/**', (route) => {
      const u = new URL(route.request().url());
      const headers = { 'access-control-allow-origin': '*' };
      if (u.pathname.endsWith('/index.json')) return route.fulfill({ status: 200, headers, body: index });
      const m = u.pathname.match(/\/s(\d+)\/(.*)$/);
      if (!m) return route.fulfill({ status: 404, headers, body: '' });
      return route.fulfill({ status: 200, headers, body: m[2] === 'SKILL.md' ? skillMd(Number(m[1])) : big });
    });
    await page.fill('#url-input', 'https://skills.example/.well-known/agent-skills/index.json?ref=a/b');
    await page.click('[data-testid="url-load"]');
    await page.waitForFunction(() => /more than one load may bring into the page/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 90_000 });
    assert.equal(await page.locator('[data-testid="catalog"] .catalog-item').count(), 0, 'nothing of it is loaded');
    // The page still works.
    await page.click('[data-testid="sample-release-notes"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length === 1);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('an over-long paste in the address field is refused by its length; a trap shows the banner and saves nothing after it', async () => {
    const { page, errors } = await open(server.url);
    await page.click('[data-testid="clear"]');
    await page.click('[data-testid="sample-release-notes"]');
    await page.waitForSelector('[data-testid="levels-table"] tbody tr', { state: 'attached' });
    await page.locator('#url-input').evaluate((el) => {
      el.value = 'zed://skill?data=' + 'A'.repeat(3_000_000);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction(() => /That paste is 3,000,017 characters/.test(document.querySelector('[data-testid="status"]').textContent));
    assert.equal(await page.inputValue('#url-input'), '');
    // Wait for the sample to be saved, then trap: nothing after the trap is saved.
    await page.waitForTimeout(1500);
    const before = await editorText(page);
    await page.evaluate(() => window.dispatchEvent(new ErrorEvent('error', { error: new WebAssembly.RuntimeError('unreachable') })));
    await page.waitForSelector('[data-testid="fatal"]');
    assert.match(await page.textContent('[data-testid="fatal"]'), /saved work is as it was before this action/);
    await fillEditor(page, before + '\nafter the trap\n');
    await page.waitForTimeout(1500);
    await page.reload();
    await page.waitForSelector('[data-built]');
    assert.equal(await editorText(page), before, 'the state before the trap is what comes back');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a 7 MB folder and a change made just before the tab closes both come back', { timeout: 180_000 }, async () => {
    let { page, errors } = await open(server.url);
    await page.click('[data-testid="clear"]');
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'big-folder-'));
    const folder = path.join(top, 'skills');
    for (const n of [1, 2]) {
      const dir = path.join(folder, `big-${n}`);
      fs.mkdirSync(path.join(dir, 'references'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: big-${n}\ndescription: Does big ${n} things. Use when asked.\n---\n# Big\n`);
      // Text that does not compress (3.5 MB each): as saved whole, it passed local storage's quota.
      fs.writeFileSync(path.join(dir, 'references/a.md'), `# ${n}\n` + crypto.randomBytes(2_650_000).toString('base64'));
    }
    await page.setInputFiles('[data-testid="folder-input"]', folder);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length === 2, null, { timeout: 60_000 });
    // Let the save of the folder finish, then change something and close the tab at once.
    await page.waitForTimeout(4000);
    const edited = (await editorText(page)) + '\nA line typed just before closing.\n';
    await fillEditor(page, edited);
    await page.close();
    ({ page, errors } = await open(server.url));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length === 2, null, { timeout: 60_000 });
    assert.equal(await editorText(page), edited, 'the last change is kept');
    // The folder's bytes are in the Cache API store, not in local storage.
    const stored = await page.evaluate(() => Object.keys(localStorage).reduce((n, k) => n + localStorage.getItem(k).length, 0));
    assert.ok(stored < 1_000_000, `local storage holds ${stored} characters`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a SKILL.md picked alone fails in no client on a folder it was not given, and says which checks need it', async () => {
    const corpus = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../shared/corpus/anthropics__skills/mcp-builder/SKILL.md');
    assert.ok(fs.existsSync(corpus), `the shared corpus is not at ${corpus}`);
    const { page, errors } = await open(server.url);
    await page.click('[data-testid="clear"]');
    await page.setInputFiles('[data-testid="file-input"]', corpus);
    await page.waitForFunction(() => /read without its folder/.test(document.querySelector('[data-testid="status"]').textContent));
    assert.match(await page.textContent('[data-testid="status"]'), /Pick the folder/);
    // No client's verdict fails on the folder's name or the files beside SKILL.md.
    const reasons = await page.locator('[data-testid^="verdict-"] td.selected').evaluateAll((cells) => cells.map((c) => c.textContent + ' ' + (c.getAttribute('title') || '')));
    assert.ok(reasons.length >= 20, `${reasons.length} clients`);
    for (const r of reasons) assert.ok(!/SPG038|name-dir-mismatch|my-skill/.test(r), r);
    assert.equal(await verdict(page, 'spec'), 'loads');
    // Pasted alone into a new skill: the same, and the findings name the checks that need the
    // folder. (Anthropic's skill-creator: its SKILL.md links to files beside it.)
    const pdf = fs.readFileSync(path.join(path.dirname(corpus), '../skill-creator/SKILL.md'), 'utf8');
    await page.click('[data-testid="clear"]');
    await page.click('[data-testid="new-skill"]');
    await fillEditor(page, pdf);
    await page.waitForFunction(() => /needs the folder/.test(document.querySelector('[data-testid="diagnostics"]').textContent));
    const pasted = await page.locator('[data-testid^="verdict-"] td.selected').evaluateAll((cells) => cells.map((c) => c.textContent + ' ' + (c.getAttribute('title') || '')));
    for (const r of pasted) assert.ok(!/fails|SPG038|new-skill/.test(r), `pasted alone: ${r}`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a link opened over saved work never replaces it: a banner, and back to my work byte for byte', { timeout: 120_000 }, async () => {
    let { page, errors } = await open(server.url);
    await page.click('[data-testid="clear"]');
    await page.click('[data-testid="sample-release-notes"]');
    await page.waitForSelector('[data-testid="levels-table"] tbody tr', { state: 'attached' });
    const mine = (await editorText(page)) + '\nMy own words, not yet shared.\n';
    await fillEditor(page, mine);
    await page.waitForTimeout(1500);
    await page.close();
    const shared = link({ skills: [{ dir: 'good', files: [{ p: 'SKILL.md', t: GOOD }] }] });
    ({ page, errors } = await open(shared));
    await page.waitForSelector('[data-testid="shared-banner"]');
    assert.equal(await editorText(page), GOOD, "the link's skill is shown");
    // A reload asks again: the link stays in the address until the visitor chooses.
    await page.reload();
    await page.waitForSelector('[data-testid="shared-banner"]');
    await page.click('[data-testid="shared-back"]');
    await page.waitForFunction((text) => globalThis.skillpgEditor.current?.text() === text, mine);
    assert.equal(await page.$('[data-testid="shared-banner"]'), null);
    await page.reload();
    await page.waitForSelector('[data-built]');
    assert.equal(await editorText(page), mine, 'the saved work is untouched');
    // Keeping the shared skills makes them the saved work.
    // (Only the fragment differs from the address open now: a reload opens it.)
    await page.goto(shared);
    await page.reload();
    await page.waitForSelector('[data-testid="shared-banner"]');
    await page.click('[data-testid="shared-keep"]');
    await page.waitForTimeout(1500);
    await page.reload();
    await page.waitForSelector('[data-built]');
    assert.equal(await editorText(page), GOOD);
    assert.equal(await page.$('[data-testid="shared-banner"]'), null);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
