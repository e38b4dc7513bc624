// Hostile and degenerate input in the real page: crafted share links, a UTF-16 SKILL.md, an
// empty catalog, an unknown profile. The page must answer with a message, keep working, and
// never claim that nothing "loads".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { browser, openPage, screenshotPath, serve } from './harness.mjs';

let server;
let ctx;

/** A share fragment as the page writes it: base64url of raw-deflated JSON. */
function link(state) {
  const wire = {
    v: 1, skills: [], selected: 0, file: 'SKILL.md', profile: 'spec',
    cost: { turns: 40, activate_at: 12, read: [], price: 2, cached_price: 0.2 },
    routing: { requests: '', tau: 0.2, delta: 0 },
    ...state,
  };
  return server.url + '#v1=' + zlib.deflateRawSync(Buffer.from(JSON.stringify(wire))).toString('base64url');
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
    const shown = await page.inputValue('[data-testid="editor"]');
    assert.ok(!shown.includes('\0') && shown.includes('name: utf16-skill'), JSON.stringify(shown.slice(0, 40)));
    assert.equal(await page.locator('[data-testid="editor"]').evaluate((e) => e.readOnly), true);
    assert.match(await page.textContent('[data-testid="editor-encoding"]'), /UTF-16 \(little-endian\).*read-only/);
    await page.click('[data-testid="editor-to-utf8"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="editor-encoding"]') === null);
    assert.equal(await page.inputValue('[data-testid="editor"]'), text, 'saved as UTF-8, without the byte order mark');
    assert.equal(await page.locator('[data-testid="editor"]').evaluate((e) => e.readOnly), false);
    assert.equal(await verdict(page, 'spec'), 'loads');
    await page.screenshot({ path: screenshotPath('09-hostile'), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });
});
