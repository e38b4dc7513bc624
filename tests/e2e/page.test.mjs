// End-to-end tests of the built page in real headless Chromium.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { browser, corpus, editorText, fillEditor, root, screenshotPath, serve, showView } from './harness.mjs';

const skillpg = path.join(root, 'target/debug/skillpg');
let server;
let ctx;
let pageErrors = [];

async function openPage(context = ctx, url = server.url, { fresh = true } = {}) {
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // The page's questions ("Clear all" asks first) are answered yes.
  page.on('dialog', (d) => d.accept());
  await page.goto(url);
  await page.waitForSelector('[data-built]');
  if (fresh && !url.includes('#')) {
    // Each test starts from the good sample alone, whatever an earlier test saved.
    await page.click('[data-testid="clear"]');
    await page.click('[data-testid="sample-release-notes"]');
  }
  return page;
}

async function setEditor(page, text) {
  await fillEditor(page, text);
}

before(async () => {
  assert.ok(fs.existsSync(corpus), `the shared corpus is absent: ${corpus} not found`);
  server = await serve();
  ctx = await browser();
});

after(async () => {
  await ctx?.close();
  server?.stop();
});

describe('the playground page', () => {
  test('first render shows the sample, the levels and the tokenizer note', async () => {
    const start = Date.now();
    const page = await openPage();
    const ms = Date.now() - start;
    assert.match(await page.textContent('[data-testid="tokenizer-note"]'), /o200k_base.*approximation/s);
    assert.equal(await page.locator('[data-testid="catalog"] .catalog-item').count(), 1);
    console.log(`first render: ${ms} ms`);
    await page.screenshot({ path: screenshotPath('01-first-render'), fullPage: true });
    await page.close();
  });

  test('a corpus folder picked with the folder input matches the engine, level by level', async () => {
    const page = await openPage();
    await page.click('[data-testid="clear"]');
    const dir = path.join(corpus, 'vercel-labs__agent-skills/react-best-practices');
    await page.setInputFiles('[data-testid="folder-input"]', dir);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="levels-table"] tbody tr').length === 1);
    const cells = await page.$$eval('[data-testid="levels-table"] tbody tr td', (tds) => tds.map((t) => Number(t.textContent.replace(/,/g, ''))));
    const engine = JSON.parse(execFileSync(skillpg, ['levels', '--format', 'json', dir], { encoding: 'utf8' })).skills[0];
    assert.deepEqual(cells, [engine.level1, engine.level2, engine.level3, engine.files]);
    assert.deepEqual(cells, [68, 1670, 53670, 75], "the chapter's numbers");
    await page.screenshot({ path: screenshotPath('02-levels'), fullPage: true });
    await page.close();
  });

  test('skillpg share makes the link the page makes for the same folders', async () => {
    const page = await openPage();
    await page.click('[data-testid="clear"]');
    const dirs = ['vercel-labs__next-skills/next-cache-components', 'anthropics__skills/internal-comms'].map((d) => path.join(corpus, d));
    for (const [i, dir] of dirs.entries()) {
      await page.setInputFiles('[data-testid="folder-input"]', dir);
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length === n, i + 1);
    }
    await showView(page, 'share');
    await page.click('[data-testid="share"]');
    await page.waitForSelector('[data-testid="share-link"]');
    const link = await page.inputValue('[data-testid="share-link"]');
    const [base, fragment] = link.split('#');
    const view = new URLSearchParams(fragment).get('view');
    const cli = execFileSync(skillpg, ['share', '--base', base, '--view', view, ...dirs], { encoding: 'utf8' }).split('\n')[0];
    assert.equal(cli, link, 'byte for byte');
    await page.close();
  });

  test('a broken SKILL.md gets a located error, and its safe fix applies', async () => {
    const page = await openPage();
    await page.click('[data-testid="sample-release-notes"]');
    await setEditor(page, '---\nname: release-notes\ndescription: Use when: the user asks for notes\n---\n# Body\n');
    const diag = page.locator('[data-testid="diagnostic"][data-code="SPG015"]');
    await diag.waitFor();
    assert.match(await diag.textContent(), /line 3, column 22/);
    assert.match(await diag.locator('[data-testid="excerpt"]').textContent(), /description: Use when: the user asks/);
    await diag.locator('[data-testid="rule-doc"] summary').click();
    const doc = diag.locator('[data-testid="rule-doc-body"]');
    assert.deepEqual(await doc.locator('h4').allTextContents(), ['What it checks', 'Why it matters', 'Example', 'Fix', 'Source'], 'the rule doc is structured');
    assert.doesNotMatch(await doc.textContent(), /##/, 'no raw Markdown');
    assert.ok((await page.locator('[data-testid="rules-reference"] details').count()) >= 50, 'every rule is in the reference');
    await page.screenshot({ path: screenshotPath('03-diagnostics'), fullPage: true });
    await diag.getByRole('button', { name: 'Preview the change' }).click();
    assert.match(await diag.locator('[data-testid="fix-preview"]').textContent(), /^\+description: "Use when: the user asks for notes"$/m);
    await diag.locator('[data-testid="apply-fix"]').click();
    await page.waitForSelector('[data-testid="diagnostic"][data-code="SPG015"]', { state: 'detached' });
    assert.match(await editorText(page), /description: "Use when: the user asks for notes"/);
    await page.close();
  });

  test('the profile switch shows where a skill loads and where it fails', async () => {
    const page = await openPage();
    await page.click('[data-testid="sample-pdf-helper"]');
    const verdict = (key) => page.locator(`[data-testid="verdict-${key}"] td.selected .verdict`).textContent();
    assert.equal(await verdict('spec'), 'fails');
    assert.equal(await verdict('claude-ai'), 'fails');
    await page.locator('[data-testid="verdict-claude-code"] button.client').click();
    await page.waitForSelector('[data-testid="diagnostic"][data-code="SPG030"]');
    assert.match(await page.textContent('[data-testid="diagnostics"]'), /unknown field `version`: Claude Code ignores it/);
    await page.close();
  });

  test('a share link opened in a fresh browser restores the same state', async () => {
    const page = await openPage();
    await page.click('[data-testid="sample-release-notes"]');
    await setEditor(page, '---\nname: shared-skill\ndescription: Shared. Use when testing links.\n---\n# Shared body ✓\n');
    await page.fill('[data-testid="dir-name"]', 'shared-skill');
    // The link opens on the view the sender was looking at (not on Share, where it is made).
    await showView(page, 'cost');
    await page.fill('[data-testid="cost-turns"]', '17');
    // A browser that refuses the clipboard: the page must not claim "copied".
    await page.evaluate(() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); });
    await showView(page, 'share');
    await page.click('[data-testid="share"]');
    await page.waitForFunction(() => /did not let the page copy/.test(document.querySelector('[data-testid="status"]').textContent));
    const link = await page.inputValue('[data-testid="share-link"]');
    assert.match(link, /#v1=[A-Za-z0-9_-]+&view=cost$/, 'the state, then the view, as separate parts of the fragment');
    assert.ok(await page.evaluate(() => { const el = document.activeElement; return el.dataset.testid === 'share-link' && el.selectionStart === 0 && el.selectionEnd === el.value.length; }), 'the link is selected for copying by hand');
    // The address holds the same state (written after a pause in editing): copying it shares
    // the work as the link does.
    await page.waitForFunction((l) => location.href === l, link, { timeout: 2000 });
    const other = await browser();
    try {
      const fresh = await openPage(other, link);
      assert.equal(await editorText(fresh), '---\nname: shared-skill\ndescription: Shared. Use when testing links.\n---\n# Shared body ✓\n');
      assert.equal(await fresh.inputValue('[data-testid="dir-name"]'), 'shared-skill');
      assert.equal(await fresh.inputValue('[data-testid="cost-turns"]'), '17');
      await fresh.screenshot({ path: screenshotPath('04-shared'), fullPage: true });
      // The address keeps holding the work (the edits made since, after a pause), and its
      // view: the page opened on it.
      assert.match(await fresh.evaluate(() => location.hash), /^#v1=[A-Za-z0-9_-]+&view=cost$/);
      await fresh.waitForSelector('#view-cost:not([hidden])');
      assert.equal(await fresh.getAttribute('[data-testid="view-nav"] a[data-view="cost"]', 'aria-current'), 'true');
      await fresh.fill('[data-testid="cost-turns"]', '23');
      await fresh.waitForTimeout(700);
      const address = await fresh.evaluate(() => location.href);
      assert.notEqual(address, link, 'the address followed the edit');
      await fresh.reload();
      await fresh.waitForSelector('[data-built]');
      assert.equal(await fresh.inputValue('[data-testid="cost-turns"]'), '23', 'the edit survived the reload');
      assert.equal(await fresh.locator('[data-testid="shared-banner"]').count(), 0, 'its own address reloaded: no question');
    } finally {
      await other.close();
    }
    // A damaged link gets a message, not a blank page.
    const broken = await openPage(ctx, server.url + '#v1=AAAA' );
    assert.match(await broken.textContent('[data-testid="status"]'), /could not be opened/);
    await broken.close();
    await page.close();
  });

  test('untrusted content is never live HTML', async () => {
    const page = await openPage();
    const payload = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
    await setEditor(page, `---\nname: "${payload.replace(/"/g, '\\"')}"\ndescription: "${payload.replace(/"/g, '\\"')} Use when"\n---\n[click](javascript:window.__xss=3)\n${payload}\n`);
    await page.fill('[data-testid="dir-name"]', payload);
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    // No image from the skill's text: the only ones are CodeMirror's empty cursor guards beside
    // its widgets (the token hints), which have no source.
    assert.equal(await page.locator('main img:not(.cm-widgetBuffer), main img[src], .catalog img, script:not([src])').count(), 0);
    assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
    // The same payloads through a share link.
    await showView(page, 'share');
    await page.click('[data-testid="share"]');
    const link = await page.inputValue('[data-testid="share-link"]');
    const again = await openPage(ctx, link);
    await again.waitForTimeout(300);
    assert.equal(await again.evaluate(() => window.__xss), undefined);
    assert.equal(await again.locator('main img:not(.cm-widgetBuffer), main img[src], script:not([src])').count(), 0);
    await again.close();
    await page.close();
  });

  test('the JSON export has the CLI schema plus levels', async () => {
    const page = await openPage();
    await page.click('[data-testid="sample-release-notes"]');
    await showView(page, 'share');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-json"]')]);
    const report = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    assert.ok(Array.isArray(report.skills));
    const skill = report.skills.find((s) => s.name === 'release-notes');
    assert.ok(skill && typeof skill.valid === 'boolean' && Array.isArray(skill.diagnostics));
    assert.ok(skill.levels.level1 > 0 && skill.levels.files === 2);
    const [zip] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-zip"]')]);
    assert.equal(zip.suggestedFilename(), 'release-notes.zip');
    await page.close();
  });

  test('the token view, the cost view and a narrow screen', async () => {
    const page = await openPage();
    await page.click('[data-testid="sample-release-notes"]');
    await showView(page, 'tokens');
    const count = await page.textContent('[data-testid="token-count"]');
    const n = Number(count.match(/^([\d,]+) tokens/)[1].replace(/,/g, ''));
    assert.equal(await page.locator('[data-testid="tokens"] .tok').count() > 0, true);
    const ids = await page.$$eval('[data-testid="tokens"] .tok', (els) => els.reduce((s, e) => s + e.dataset.ids.split(' ').length, 0));
    assert.equal(ids, n);
    const joined = await page.$$eval('[data-testid="tokens"] .tok', (els) => els.map((e) => e.textContent).join(''));
    assert.equal(joined, await editorText(page));
    await page.screenshot({ path: screenshotPath('05-tokens'), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px at 360px`);
    await page.screenshot({ path: screenshotPath('06-narrow'), fullPage: true });
    await page.close();
  });

  test('the chapter cost example', async () => {
    // 1,716 tokens in all, L1 46, body 324, files read 665: the page's arithmetic is the engine's;
    // here the engine's numbers for the release-notes sample are compared with the CLI's.
    const page = await openPage();
    await page.click('[data-testid="sample-release-notes"]');
    await showView(page, 'cost');
    await page.fill('[data-testid="cost-turns"]', '40');
    const row = await page.$$eval('[data-testid="cost-system"] td', (tds) => tds.map((t) => t.textContent));
    const dir = path.join(root, 'web/samples/release-notes');
    const cli = JSON.parse(execFileSync(skillpg, ['cost', '--format', 'json', '--turns', '40', dir], { encoding: 'utf8' }));
    assert.equal(Number(row[0].replace(/,/g, '')), cli.system_prompt.tokens);
    assert.equal(row[1], `$${cli.system_prompt.usd.toFixed(4)}`);
    await page.screenshot({ path: screenshotPath('07-cost'), fullPage: true });
    await page.close();
  });

  test('the page works offline after the first visit (service worker)', async () => {
    const other = await browser();
    try {
      const page = await other.newPage();
      await page.goto(server.url);
      await page.waitForSelector('[data-built]');
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
      await page.waitForFunction(async () => {
        const keys = await caches.keys();
        if (keys.length === 0) return false;
        const cache = await caches.open(keys[0]);
        return (await cache.match('./skillpg_app_bg.wasm')) !== undefined;
      }, null, { timeout: 20000 });
      await other.setOffline(true);
      await page.reload();
      await page.waitForSelector('[data-testid="levels-table"] tbody tr', { state: 'attached' });
      await showView(page, 'tokens');
      assert.match(await page.textContent('[data-testid="token-count"]'), /tokens/);
    } finally {
      await other.close();
    }
  });

  test('the theme follows the system until chosen, then is remembered, form controls included', async () => {
    const page = await openPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => localStorage.removeItem('skill-playground.theme'));
    await page.reload();
    await page.waitForSelector('[data-built]');
    assert.ok(await page.locator('.page.dark').count() === 1, 'dark by the system preference');
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="editor"]')).colorScheme), 'dark');
    await page.click('button.theme');
    await page.reload();
    await page.waitForSelector('[data-built]');
    assert.equal(await page.locator('.page.dark').count(), 0, 'the light theme chosen is remembered over the system preference');
    await page.evaluate(() => localStorage.removeItem('skill-playground.theme'));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.close();
  });

  test('no page errors were raised', () => {
    assert.deepEqual(pageErrors, []);
  });
});
