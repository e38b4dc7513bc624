// No undo, link, tab, reload or "Clear all" ever loses a person's work (issue 46): each item of
// the report reproduced in the real page, as a person meets it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { editorText, fillEditor, openPage, serveAndBrowse, shareFragment as fragment, showView } from './harness.mjs';

const env = serveAndBrowse();

const GOOD = '---\nname: good\ndescription: Formats tables. Use when the user pastes CSV.\n---\n# Body\n';


const catalogNames = (page) => page.$$eval('[data-testid="catalog"] .catalog-item .skill-name', (els) => els.map((e) => e.textContent));
const choose = (page, name) => page.locator('[data-testid="catalog"] .catalog-item button.choose', { hasText: name }).first().click();
const status = (page) => page.textContent('[data-testid="status"]');
/** Waits until the editor holds `text`. */
const editorHolds = (page, text) => page.waitForFunction((t) => globalThis.skillpgEditor.current?.text() === t, text);

describe('work is never lost', () => {
  test('undo belongs to one file: never across a sample or another skill, and redo applies a fix again', async () => {
    const { page, errors } = await openPage(env.ctx, env.server.url);
    await page.click('[data-testid="clear"]');
    await page.click('[data-testid="sample-release-notes"]');
    await page.click('[data-testid="sample-pdf-helper"]');
    const pdf = await editorText(page);
    assert.match(pdf, /name: PDF_Helper/);
    // The report: Ctrl+Z right after a sample put release-notes' text into this skill.
    await page.focus('[data-testid="editor"]');
    await page.keyboard.press('ControlOrMeta+Z');
    await page.waitForTimeout(300);
    assert.equal(await editorText(page), pdf, 'nothing to undo in a file just loaded');
    assert.deepEqual(await catalogNames(page), ['release-notes', 'PDF_Helper']);
    // Typed edits undo within their file, and 40 more Ctrl+Z never walk into another skill.
    await page.evaluate(() => {
      const ed = globalThis.skillpgEditor.current;
      const at = ed.text().length;
      ed.select(at, at);
    });
    await page.keyboard.type('typed here');
    await editorHolds(page, pdf + 'typed here');
    await choose(page, 'release-notes');
    const notes = await editorText(page);
    await page.focus('[data-testid="editor"]');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ControlOrMeta+Z');
    await page.waitForTimeout(200);
    assert.equal(await editorText(page), notes, "release-notes' own history is empty");
    await choose(page, 'PDF_Helper');
    await editorHolds(page, pdf + 'typed here');
    await page.focus('[data-testid="editor"]');
    for (let i = 0; i < 40; i++) await page.keyboard.press('ControlOrMeta+Z');
    await editorHolds(page, pdf);
    assert.deepEqual(await catalogNames(page), ['release-notes', 'PDF_Helper'], 'no skill took another one\'s text');
    // The marks are on the text at its first view, before any key (item 4).
    const codes = await page.evaluate(() => globalThis.skillpgEditor.current.marks().map((m) => m.code));
    assert.ok(codes.includes('SPG038'), `marks on first view: ${codes}`);
    // A quick fix is an edit: undo takes it back, redo applies it again, and the checks follow.
    const box = await page.evaluate(() => {
      const ed = globalThis.skillpgEditor.current;
      const r = ed.view.coordsAtPos(ed.text().indexOf('PDF_Helper') + 3);
      return { x: r.left + 1, y: (r.top + r.bottom) / 2 };
    });
    await page.mouse.move(box.x, box.y);
    const tooltip = page.locator('.cm-tooltip-lint');
    await tooltip.waitFor();
    await tooltip.locator('li', { hasText: 'SPG038' }).locator('.cm-diagnosticAction').click();
    await page.waitForFunction(() => /^---\nname: pdf-helper\n/.test(globalThis.skillpgEditor.current.text()));
    const fixed = await editorText(page);
    await page.focus('[data-testid="editor"]');
    await page.keyboard.press('ControlOrMeta+Z');
    await editorHolds(page, pdf);
    await page.waitForSelector('[data-testid="diagnostic"][data-code="SPG038"]', { state: 'attached' });
    await page.keyboard.press('ControlOrMeta+Shift+Z');
    await editorHolds(page, fixed);
    await page.waitForSelector('[data-testid="diagnostic"][data-code="SPG038"]', { state: 'detached' });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('typing or deleting over a selection of several lines replaces it, with no style the CSP refuses', async () => {
    const { page, errors } = await openPage(env.ctx, env.server.url);
    await page.evaluate(() => { window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.sample}`)); });
    const before = await page.evaluate(() => globalThis.skillpgEditor.current.text());
    await page.click('.cm-content');
    await page.keyboard.press('Control+Home');
    await page.keyboard.down('Shift');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.up('Shift');
    await page.keyboard.type('abc');
    const lines = before.split('\n');
    assert.equal(await page.evaluate(() => globalThis.skillpgEditor.current.text()), ['abc' + lines[3], ...lines.slice(4)].join('\n'), 'the three lines are replaced by what was typed');
    // Undo brings them back in one step; a multi-line selection deleted goes the same way.
    await page.keyboard.press('Control+z');
    assert.equal(await page.evaluate(() => globalThis.skillpgEditor.current.text()), before);
    await page.keyboard.press('Control+Home');
    await page.keyboard.down('Shift');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.up('Shift');
    await page.keyboard.press('Backspace');
    assert.equal(await page.evaluate(() => globalThis.skillpgEditor.current.text()), lines.slice(5).join('\n'));
    await page.waitForTimeout(200);
    assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no inline style refused');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a CRLF SKILL.md keeps its line endings, with its marks on their text', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-crlf-')), 'crlf-skill');
    fs.mkdirSync(dir);
    const text = '---\r\nname: Crlf_Skill\r\ndescription: Formats tables. Use when the user pastes CSV.\r\n---\r\n# Body\r\n\r\nSteps.\r\n';
    fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
    const { page, errors } = await openPage(env.ctx, env.server.url);
    await page.click('[data-testid="clear"]');
    await page.setInputFiles('[data-testid="folder-input"]', dir);
    await editorHolds(page, text);
    const marks = await page.evaluate(() => {
      const ed = globalThis.skillpgEditor.current;
      return ed.marks().map((m) => ({ code: m.code, text: ed.view.state.sliceDoc(m.from, m.to) }));
    });
    assert.ok(marks.some((m) => m.code === 'SPG038' && m.text === 'Crlf_Skill'), JSON.stringify(marks));
    await page.evaluate(() => {
      const ed = globalThis.skillpgEditor.current;
      // A document position: each line break one (the doc's own string, joined with \n).
      const at = ed.view.state.doc.toString().indexOf('Steps.') + 6;
      ed.select(at, at);
    });
    await page.keyboard.type(' More.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Next.');
    await page.waitForFunction(() => globalThis.skillpgEditor.current.text().includes('Next.'));
    const after = await editorText(page);
    assert.equal(after, text.replace('Steps.\r\n', 'Steps. More.\r\nNext.\r\n'), 'every line ending kept, the new one too');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the keyboard is never trapped: Tab leaves the editor, Ctrl+M makes it indent, the skip link moves focus', async () => {
    const { page, errors } = await openPage(env.ctx, env.server.url);
    const before = await editorText(page);
    await page.focus('[data-testid="editor"]');
    await page.keyboard.press('Tab');
    assert.equal(await editorText(page), before, 'Tab inserted nothing');
    assert.notEqual(await page.evaluate(() => document.activeElement.getAttribute('data-testid')), 'editor', 'focus moved on');
    await page.focus('[data-testid="editor"]');
    await page.keyboard.press('Control+m');
    await page.keyboard.press('Tab');
    assert.notEqual(await editorText(page), before, 'Tab indents once asked to');
    await page.keyboard.press('ControlOrMeta+Z');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    assert.notEqual(await page.evaluate(() => document.activeElement.getAttribute('data-testid')), 'editor', 'Escape then Tab leaves');
    assert.equal(await editorText(page), before, 'and inserted nothing');
    assert.match(await page.textContent('[data-testid="editor-keys"]'), /Ctrl\+M/);
    await showView(page, 'cost');
    await page.evaluate(() => document.querySelector('.skip-link').focus());
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'view-check');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("a link put into the page's own tab shows the banner, keeps the address, and 'keep' adds it beside one's work", { timeout: 120_000 }, async () => {
    const { page, errors } = await openPage(env.ctx, env.server.url);
    await page.click('[data-testid="clear"]');
    await page.click('[data-testid="sample-release-notes"]');
    const mine = (await editorText(page)) + '\nMy own words, not yet shared.\n';
    await fillEditor(page, mine);
    await page.waitForTimeout(1200);
    const link = fragment({ skills: [{ dir: 'good', files: [{ p: 'SKILL.md', t: GOOD }] }] });
    await page.evaluate((h) => { location.hash = h; }, link);
    await page.waitForSelector('[data-testid="shared-banner"]');
    await editorHolds(page, GOOD);
    await page.waitForTimeout(1500);
    assert.equal(await page.evaluate(() => location.hash), link, 'the address still holds the link');
    // Back to one's own work, byte for byte.
    await page.click('[data-testid="shared-back"]');
    await editorHolds(page, mine);
    // Opened again and kept: its skill lands beside one's own, nothing replaced.
    await page.evaluate((h) => { location.hash = h; }, link);
    await page.waitForSelector('[data-testid="shared-banner"]');
    await page.click('[data-testid="shared-keep"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length === 2);
    assert.deepEqual((await catalogNames(page)).sort(), ['good', 'release-notes']);
    await page.waitForTimeout(1200);
    await page.reload();
    await page.waitForSelector('[data-built]');
    assert.deepEqual((await catalogNames(page)).sort(), ['good', 'release-notes']);
    await choose(page, 'release-notes');
    assert.equal(await editorText(page), mine);
    // A link that does not open says why, and the work stays.
    await page.evaluate(() => { location.hash = '#v1=not-a-link'; });
    await page.waitForFunction(() => /could not be opened/.test(document.querySelector('[data-testid="status"]').textContent));
    assert.equal(await page.$('[data-testid="shared-banner"]'), null);
    assert.deepEqual((await catalogNames(page)).sort(), ['good', 'release-notes']);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('two tabs: the second saves nothing until it takes over, and then neither loses its work', { timeout: 120_000 }, async () => {
    const first = await openPage(env.ctx, env.server.url);
    const a = first.page;
    await a.click('[data-testid="clear"]');
    await a.click('[data-testid="sample-release-notes"]');
    const base = await editorText(a);
    await fillEditor(a, base + '\nA1\n');
    await a.waitForTimeout(1200);
    const second = await openPage(env.ctx, env.server.url);
    const b = second.page;
    await b.waitForSelector('[data-testid="writer-banner"]');
    await editorHolds(b, base + '\nA1\n');
    await fillEditor(b, base + '\nB1\n');
    await fillEditor(a, base + '\nA2\n');
    await a.waitForTimeout(1500);
    // The second tab wrote nothing: a third view of storage is the first tab's.
    const stored = await a.evaluate(() => localStorage.getItem('skill-playground.v1'));
    assert.ok(stored && !stored.includes('B1'), 'the second tab saved nothing');
    await b.click('[data-testid="writer-take"]');
    await b.waitForFunction(() => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length === 2);
    await a.waitForSelector('[data-testid="writer-banner"]');
    const texts = [];
    for (let i = 0; i < 2; i++) {
      await b.locator('[data-testid="catalog"] .catalog-item button.choose').nth(i).click();
      texts.push(await editorText(b));
    }
    assert.deepEqual(texts.sort(), [base + '\nA2\n', base + '\nB1\n'].sort(), "both tabs' work is here");
    // The first tab's later edits are not saved over the second's.
    await fillEditor(a, base + '\nA3\n');
    await b.waitForTimeout(1500);
    await a.close();
    await b.close();
    const third = await openPage(env.ctx, env.server.url);
    const names = await catalogNames(third.page);
    assert.equal(names.length, 2, `${names}`);
    assert.deepEqual([...first.errors, ...second.errors, ...third.errors], []);
    await third.page.close();
  });

  test('a large workspace survives reloads during saves, and Clear all asks and can be undone', { timeout: 300_000 }, async () => {
    // 300 skills with a 6 KB reference each: past the 1 MB kept inline, so saved in parts.
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-saves-'));
    for (let i = 0; i < 300; i++) {
      const name = `saved-skill-${String(i).padStart(3, '0')}`;
      fs.mkdirSync(path.join(top, name, 'references'), { recursive: true });
      fs.writeFileSync(path.join(top, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Does task ${i}. Use when the user asks for task ${i}.\n---\n# Task ${i}\n\nSee [the notes](references/notes.md).\n`);
      fs.writeFileSync(path.join(top, name, 'references', 'notes.md'), `Notes for task ${i}.\n`.repeat(300));
    }
    // The page's questions are answered here, one by one.
    const { page, errors } = await openPage(env.ctx, env.server.url, { acceptDialogs: false });
    page.once('dialog', (d) => d.accept());
    await page.click('[data-testid="clear"]');
    await page.setInputFiles('[data-testid="folder-input"]', top);
    await page.waitForFunction(() => document.querySelector('[data-testid="catalog"]').dataset.count === '300', null, { timeout: 120_000 });
    await page.waitForTimeout(3000);
    for (let round = 0; round < 6; round++) {
      // A few edits a second apart, then a reload a second after the last.
      for (let k = 0; k < 3; k++) {
        await fillEditor(page, `---\nname: saved-skill-299\ndescription: Round ${round}, edit ${k}.\n---\n# Edited\n`);
        await page.waitForTimeout(k === 2 ? 1000 : 600);
      }
      await page.reload();
      await page.waitForSelector('[data-built]', { timeout: 60_000 });
      await page.waitForFunction(() => document.querySelector('[data-testid="catalog"]').dataset.count === '300', null, { timeout: 60_000 });
      const said = await status(page);
      assert.doesNotMatch(said, /could not be restored/, `round ${round}: ${said}`);
      assert.match(await editorText(page), new RegExp(`Round ${round}, edit 2`), `round ${round}: the last edit is back`);
      assert.equal(await page.$('[data-testid="kept-aside"]'), null, `round ${round}: nothing kept aside`);
    }
    // Clear all asks (answered no: nothing changes), then clears, and "Undo clear" brings it back.
    page.once('dialog', (d) => d.dismiss());
    await page.click('[data-testid="clear"]');
    await page.waitForTimeout(300);
    assert.equal(await page.$eval('[data-testid="catalog"]', (el) => el.dataset.count), '300');
    page.once('dialog', (d) => d.accept());
    await page.click('[data-testid="clear"]');
    await page.waitForFunction(() => (document.querySelector('[data-testid="catalog"]')?.dataset.count ?? '0') === '0');
    await page.click('[data-testid="undo-clear"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="catalog"]').dataset.count === '300');
    assert.deepEqual(errors, []);
    await page.close();
    fs.rmSync(top, { recursive: true, force: true });
  });

  test('saved work whose parts are gone comes back in part, and the rest is kept aside and offered back', { timeout: 120_000 }, async () => {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-aside-'));
    for (let i = 0; i < 3; i++) {
      const name = `aside-skill-${i}`;
      fs.mkdirSync(path.join(top, name, 'references'), { recursive: true });
      fs.writeFileSync(path.join(top, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Does task ${i}. Use when asked for task ${i}.\n---\n# Task ${i}\n`);
      // Past the 256 KB a file may stay inline: kept in the store, in parts.
      fs.writeFileSync(path.join(top, name, 'references', 'big.md'), `Line ${i}.\n`.repeat(40_000));
    }
    const { page, errors } = await openPage(env.ctx, env.server.url);
    await page.click('[data-testid="clear"]');
    await page.setInputFiles('[data-testid="folder-input"]', top);
    await page.waitForFunction(() => document.querySelector('[data-testid="catalog"]').dataset.count === '3');
    await page.waitForTimeout(2000);
    // One part of the saved work is lost (the browser dropped it, say).
    const gone = await page.evaluate(async () => {
      const cache = await caches.open('skillpg-saved-work');
      const keys = await cache.keys();
      await cache.delete(keys[0]);
      return keys.length;
    });
    assert.ok(gone >= 3, `${gone} parts in the store`);
    await page.reload();
    await page.waitForSelector('[data-built]');
    await page.waitForSelector('[data-testid="kept-aside"]');
    assert.equal(await page.$eval('[data-testid="catalog"]', (el) => el.dataset.count), '2', 'the other skills are back');
    assert.match(await status(page), /kept aside/);
    // The kept-aside work can be downloaded, and survives another reload and another save.
    const download = page.waitForEvent('download');
    await page.click('[data-testid="kept-aside-download"]');
    assert.equal((await download).suggestedFilename(), 'kept-aside-work.zip');
    await fillEditor(page, '---\nname: aside-skill-2\ndescription: Edited after.\n---\n');
    await page.waitForTimeout(1500);
    await page.reload();
    await page.waitForSelector('[data-testid="kept-aside"]');
    // Dropping it asks first (the harness answers yes).
    const asked = page.waitForEvent('dialog');
    await page.click('[data-testid="kept-aside-drop"]');
    assert.match((await asked).message(), /Drop this kept-aside work/);
    await page.waitForSelector('[data-testid="kept-aside"]', { state: 'detached' });
    assert.deepEqual(errors, []);
    await page.close();
    fs.rmSync(top, { recursive: true, force: true });
  });
});

describe('a layout that holds', () => {
  /** Whether two boxes share any area. */
  const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  test('the matrix never draws over the findings, at 1024 to 1920 px, with 1, 2 and 60 skills and long names', { timeout: 180_000 }, async () => {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-layout-'));
    for (let i = 0; i < 60; i++) {
      const name = `a-rather-long-skill-name-for-layout-number-${String(i).padStart(2, '0')}`;
      fs.mkdirSync(path.join(top, name));
      fs.writeFileSync(path.join(top, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Does task ${i}. Use when asked for task ${i}.\nversion: 1\n---\n# Task ${i}\n`);
    }
    const { page, errors } = await openPage(env.ctx, env.server.url);
    const check = async (label) => {
      for (const [width, height] of [[1024, 768], [1280, 800], [1920, 1080]]) {
        await page.setViewportSize({ width, height });
        await page.waitForTimeout(150);
        const [matrix, detail] = await Promise.all(['.check-matrix', '.check-detail'].map((sel) => page.$eval(sel, (el) => el.getBoundingClientRect().toJSON())));
        assert.ok(!overlap(matrix, detail), `${label} at ${width}×${height}: matrix ${JSON.stringify(matrix)} over findings ${JSON.stringify(detail)}`);
        // Side by side from 1024 px: the findings beside the verdicts, never pushed below them.
        assert.ok(detail.left >= matrix.right - 1 && detail.top < matrix.bottom, `${label} at ${width}×${height}: the findings sit beside the matrix: ${JSON.stringify([matrix, detail])}`);
        assert.ok(detail.width >= 18 * 16 - 1, `${label} at ${width}: the findings keep 18rem: ${detail.width}`);
        // The table stays inside its own column (scrolling there when it is wider).
        const table = await page.$eval('[data-testid="verdicts"] table', (el) => el.getBoundingClientRect().toJSON());
        // (Its scroll box is the matrix's own: the table may be wider than the column only
        // inside it.)
        const clipped = await page.$eval('[data-testid="verdicts"]', (el) => getComputedStyle(el).overflowX !== 'visible' && el.getBoundingClientRect().right <= el.closest('.check-matrix').getBoundingClientRect().right + 1);
        assert.ok(table.right <= matrix.right + 1 || clipped, `${label} at ${width}: the table leaves its column`);
      }
    };
    await check('the sample');
    await page.click('[data-testid="sample-pdf-helper"]');
    await check('two samples');
    await page.click('[data-testid="clear"]');
    await page.setInputFiles('[data-testid="folder-input"]', top);
    await page.waitForFunction(() => document.querySelector('[data-testid="catalog"]').dataset.count === '60', null, { timeout: 60_000 });
    await check('60 skills with long names');
    assert.deepEqual(errors, []);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.close();
    fs.rmSync(top, { recursive: true, force: true });
  });
});
