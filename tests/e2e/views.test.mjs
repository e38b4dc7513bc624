// The page as a place to find things: the views' navigation and fragments, the rule reference
// with its search and the findings' links into it, the log chart's ticks, and a 390 px phone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { browser, editorText, fillEditor, openPage, screenshotPath, serveAndBrowse, showView } from './harness.mjs';

const env = serveAndBrowse();

/// A page with the good sample alone, whatever an earlier test saved.
async function samplePage() {
  const opened = await openPage(env.ctx, env.server.url);
  await opened.page.click('[data-testid="clear"]');
  await opened.page.click('[data-testid="sample-release-notes"]');
  return opened;
}

const inViewport = (page, selector) => page.evaluate((sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
}, selector);

const VIEWS = ['check', 'levels', 'tokens', 'cost', 'routing', 'lab', 'share', 'rules'];

/// The box of `selector` lies inside the viewport, with some size.
const boxInside = (page, selector) => page.evaluate((sel) => {
  const el = document.querySelector(sel);
  if (!el) return `${sel}: absent`;
  const r = el.getBoundingClientRect();
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5 && r.height > 0 && r.width > 0;
  return inside || `${sel}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${innerWidth}×${innerHeight}`;
}, selector);

test('one screen at 1280×800 and 1440×900: no page scroll; the editor, all twenty-four verdicts and the chosen client\'s findings in sight; each view a tab with a fragment', async () => {
  const { page, errors } = await samplePage();
  for (const [width, height] of [[1280, 800], [1440, 900]]) {
    await page.setViewportSize({ width, height });
    await page.click('[data-testid="view-nav"] a[data-view="check"]');
    await page.click('[data-testid="verdict-claude-code"] button.client');
    await page.waitForTimeout(100);
    const doc = await page.evaluate(() => [document.documentElement.scrollHeight, innerHeight, document.documentElement.scrollWidth, innerWidth]);
    assert.ok(doc[0] <= doc[1] && doc[2] <= doc[3], `the document does not scroll at ${width}×${height}: ${doc}`);
    for (const sel of ['[data-testid="editor-host"]', '[data-testid="dropzone"]', '[data-testid="view-nav"]', '[data-testid="profile-line"]', '[data-testid="diagnostics"]']) {
      assert.equal(await boxInside(page, sel), true, `at ${width}×${height}`);
    }
    const cells = await page.$$eval('[data-testid^="cell-"][data-testid$="-0"]', (tds) => tds.map((td) => td.dataset.testid));
    assert.equal(cells.length, 24, 'twenty-four verdicts for the selected skill');
    for (const cell of cells) assert.equal(await boxInside(page, `[data-testid="${cell}"]`), true, `at ${width}×${height}`);
    assert.match(await page.textContent('[data-testid="profile-line"]'), /Claude Code/, 'the chosen client\'s findings');
    await page.screenshot({ path: screenshotPath(`10-first-screen-${width}`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  const views = await page.$$eval('[data-testid="view-nav"] a', (as) => as.map((a) => a.dataset.view));
  assert.deepEqual(views, VIEWS);
  for (const v of views) {
    await page.click(`[data-testid="view-nav"] a[data-view="${v}"]`);
    await page.waitForSelector(`#view-${v}:not([hidden])`);
    // One view shown at a time, in the right pane, the editor still beside it.
    assert.deepEqual(await page.$$eval('section.view:not([hidden])', (ss) => ss.map((s) => s.id)), [`view-${v}`]);
    assert.equal(await boxInside(page, '[data-testid="editor-host"]'), true, `the editor beside ${v}`);
    // The address holds the work and the view; on Share, the view before it (an address
    // copied there opens on what its sender showed, not on export buttons).
    const opensOn = v === 'share' ? 'lab' : v;
    assert.match(await page.evaluate(() => location.hash), opensOn === 'check' ? /^#v1=[^&]+$/ : new RegExp(`^#v1=[^&]+&view=${opensOn}$`), 'the address holds the work and the view');
    assert.equal(await page.getAttribute(`[data-testid="view-nav"] a[data-view="${v}"]`, 'aria-current'), 'true');
    const doc = await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight);
    assert.ok(doc, `no page scroll on ${v}`);
  }
  // A tab's click is not lost to an address written in the same moment (the edit's pause
  // ends between the click and its hashchange: here the address is replaced at once).
  await page.evaluate(() => {
    document.querySelector('[data-testid="view-nav"] a[data-view="cost"]').click();
    history.replaceState(null, '', location.pathname + location.search + '#view=levels');
  });
  await page.waitForSelector('#view-cost:not([hidden])');
  await page.waitForTimeout(200);
  assert.deepEqual(await page.$$eval('section.view:not([hidden])', (ss) => ss.map((s) => s.id)), ['view-cost'], 'the clicked tab stays shown');
  // A link to a view opens on it.
  const other = await env.ctx.newPage();
  await other.goto(env.server.url + '#view=routing');
  await other.waitForSelector('[data-built]');
  await other.waitForSelector('#view-routing:not([hidden])');
  await other.close();
  // The skip link is the first stop of the keyboard, and leads to the checks.
  const keys = await env.ctx.newPage();
  await keys.goto(env.server.url);
  await keys.waitForSelector('[data-built]');
  await keys.keyboard.press('Tab');
  assert.equal(await keys.evaluate(() => document.activeElement.className), 'skip-link');
  assert.equal(await keys.evaluate(() => document.activeElement.getAttribute('href')), '#view=check');
  await keys.close();
  // The split moves with the keyboard, stays within the window, and is remembered.
  const before = await page.$eval('.left-pane', (el) => el.getBoundingClientRect().width);
  await page.focus('[data-testid="splitter"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const after = await page.$eval('.left-pane', (el) => el.getBoundingClientRect().width);
  assert.ok(Math.abs(after - before - 48) <= 1, `the split moved 48 px: ${before} → ${after}`);
  await page.keyboard.press('End');
  assert.ok(await page.$eval('.right-pane', (el) => el.getBoundingClientRect().width) >= 290, 'the right pane keeps its minimum');
  await page.keyboard.press('Home');
  assert.ok(Math.abs(await page.$eval('.left-pane', (el) => el.getBoundingClientRect().width) - 300) <= 1);
  await page.reload();
  await page.waitForSelector('[data-built]');
  assert.ok(Math.abs(await page.$eval('.left-pane', (el) => el.getBoundingClientRect().width) - 300) <= 1, 'remembered');
  await page.dblclick('[data-testid="splitter"]');
  await page.click('[data-testid="view-nav"] a[data-view="check"]');
  await page.click('[data-testid="verdict-spec"] button.client');
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 390×844 every view is reachable from the first screen', async () => {
  const phone = await browser();
  try {
    const { page, errors } = await openPage(phone, env.server.url);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const v of VIEWS) {
      const tab = `[data-testid="view-nav"] a[data-view="${v}"]`;
      assert.equal(await boxInside(page, tab), true, `the ${v} tab on the first screen`);
    }
    for (const v of VIEWS) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.click(`[data-testid="view-nav"] a[data-view="${v}"]`);
      await page.waitForSelector(`#view-${v}:not([hidden])`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await phone.close();
  }
});

test('a folder of 1,000 generated skills: the first verdict in under 10 s, the editor usable at the top', { timeout: 180_000 }, async () => {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-many-'));
  for (let i = 0; i < 1000; i++) {
    const name = `generated-skill-${String(i).padStart(4, '0')}`;
    fs.mkdirSync(path.join(top, name));
    const bad = i % 7 === 0 ? 'version: 1\n' : '';
    fs.writeFileSync(path.join(top, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Does task number ${i}. Use when the user asks for task ${i}.\n${bad}---\n# Task ${i}\n\nSteps for task ${i}.\n`);
  }
  const { page, errors } = await openPage(env.ctx, env.server.url);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click('[data-testid="clear"]');
  const t0 = Date.now();
  await page.setInputFiles('[data-testid="folder-input"]', top);
  await page.waitForFunction(() => document.querySelector('[data-testid="catalog"]').dataset.count === '1000', null, { timeout: 120_000 });
  // The selected skill's verdict (the last one loaded is selected; its column is in sight).
  await page.waitForSelector('[data-testid^="cell-spec-"].selected .verdict');
  const seconds = (Date.now() - t0) / 1000;
  console.log(`1,000 skills: first verdict after ${seconds.toFixed(1)} s`);
  assert.ok(seconds < 10, `the first verdict after ${seconds.toFixed(1)} s`);
  // Virtualized: a few dozen rows in the page, not a thousand; the matrix a window of columns.
  const rows = await page.locator('[data-testid="catalog"] .catalog-item').count();
  assert.ok(rows > 5 && rows < 120, `${rows} catalog rows rendered`);
  assert.ok(await page.locator('[data-testid="verdicts"] th.skill-col').count() <= 8);
  assert.equal(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight), true, 'still one screen');
  assert.equal(await boxInside(page, '[data-testid="editor-host"]'), true, 'the editor at the top');
  // The catalog scrolls as the whole list: the last skill can be reached and chosen.
  await page.$eval('[data-testid="catalog"]', (el) => { el.scrollTop = el.scrollHeight; });
  await page.locator('[data-testid="catalog"] .catalog-item button.choose', { hasText: 'generated-skill-0999' }).click();
  assert.match(await editorText(page), /name: generated-skill-0999/);
  // Typing still reaches the findings.
  const t1 = Date.now();
  await fillEditor(page, '---\nname: Generated_Skill\ndescription: x\n---\nbody\n');
  await page.waitForSelector('[data-testid="diagnostic"][data-code="SPG038"]', { state: 'attached' });
  console.log(`an edit among 1,000 skills to its findings: ${Date.now() - t1} ms`);
  assert.deepEqual(errors, []);
  await page.click('[data-testid="clear"]');
  await page.close();
  fs.rmSync(top, { recursive: true, force: true });
});

test('the rule reference is searchable and every finding links to its rule', async () => {
  const { page, errors } = await samplePage();
  await fillEditor(page, '---\nname: Bad_Name\ndescription: x\n---\nbody\n');
  const first = page.locator('[data-testid="diagnostic"] a.code').first();
  const href = await first.getAttribute('href');
  assert.match(href, /^#rule-[a-z0-9_-]+$/);
  await first.click();
  const id = href.slice(1);
  await page.waitForFunction((rid) => { const d = document.getElementById(rid); const r = d.getBoundingClientRect(); return d.open && r.top >= 0 && r.top < innerHeight; }, id);
  const total = await page.locator('[data-testid="rule"]').count();
  await page.fill('[data-testid="rule-search"]', 'SPG038');
  assert.equal(await page.locator('[data-testid="rule"]:visible').count(), 1, 'a code finds its rule');
  await page.fill('[data-testid="rule-search"]', 'description');
  const some = await page.locator('[data-testid="rule"]:visible').count();
  assert.ok(some > 1 && some < total, `words filter the rules: ${some} of ${total}`);
  assert.match(await page.textContent('[data-testid="rule-count"]'), new RegExp(`^${some} of ${total} rules$`));
  await page.fill('[data-testid="rule-search"]', '');
  assert.equal(await page.locator('[data-testid="rule"]:visible').count(), total);
  // The log chart has ticks at powers of ten and says it is logarithmic.
  assert.ok((await page.locator('[data-testid="chart-tick"]').count()) >= 2, 'ticks on the level chart');
  assert.match(await page.textContent('.chart figcaption'), /Logarithmic/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 390 px nothing is wider than the screen outside a scrolling box, and no text is under 11 px', async () => {
  const phone = await browser();
  try {
    const { page, errors } = await openPage(phone, env.server.url);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('[data-testid="clear"]');
    // The sample with every common mistake: long findings, every table filled.
    await page.click('[data-testid="sample-pdf-helper"]');
    await page.waitForTimeout(300);
    const problems = await page.evaluate(() => {
      const scrolls = (el) => { for (let p = el.parentElement; p; p = p.parentElement) { const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; } return false; };
      const out = [];
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
        if ((r.right > innerWidth + 1 || r.left < -1) && !scrolls(el) && !el.classList.contains('skip-link')) out.push(`too wide: ${el.tagName}.${el.className.baseVal ?? el.className} (${Math.round(r.left)}–${Math.round(r.right)})`);
        const hasText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        // SVG text shrinks with its drawing: its size on screen is its font size times the scale.
        const svg = el.closest('svg');
        const scale = svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
        const size = parseFloat(getComputedStyle(el).fontSize) * scale;
        if (hasText && size < 10.5) out.push(`text under 11 px: ${el.tagName}.${el.className.baseVal ?? el.className} "${el.textContent.trim().slice(0, 30)}" (${size.toFixed(1)} px)`);
      }
      // A column's header hides with its cells.
      for (const table of document.querySelectorAll('table')) {
        const heads = [...table.querySelectorAll('thead th')];
        heads.forEach((th, i) => {
          const cells = [...table.querySelectorAll('tbody tr')].map((tr) => tr.children[i]).filter(Boolean);
          const shown = (el) => el.getBoundingClientRect().width > 0;
          if (cells.length && shown(th) && !cells.some(shown)) out.push(`header without cells: "${th.textContent}"`);
        });
      }
      return out.slice(0, 15);
    });
    await page.screenshot({ path: screenshotPath('11-phone-390'), fullPage: true });
    assert.deepEqual(problems, []);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'no horizontal scroll of the page');
    assert.deepEqual(errors, []);
  } finally {
    await phone.close();
  }
});

test('the token view is one tab stop, with the arrow keys, Home and End inside it; findings show once', async () => {
  const { page, errors } = await samplePage();
  await showView(page, 'tokens');
  assert.equal(await page.locator('[data-testid="tokens"] [tabindex="0"]').count(), 1, 'one tab stop');
  const spans = page.locator('[data-testid="tokens"] .tok');
  const n = await spans.count();
  assert.ok(n > 10);
  await spans.first().focus();
  const active = () => page.evaluate(() => [...document.activeElement.parentElement.children].indexOf(document.activeElement));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await active(), 2);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await active(), 1);
  await page.keyboard.press('End');
  assert.equal(await active(), n - 1);
  await page.keyboard.press('Home');
  assert.equal(await active(), 0);
  assert.equal(await page.locator('[data-testid="tokens"] [tabindex="0"]').count(), 1, 'still one tab stop');
  // A finding's message is written once (the list under Check); by the editor, a button that
  // selects the place. The profile is named by its title.
  await fillEditor(page, '---\nname: Bad_Name\ndescription: x\n---\nbody\n');
  const message = await page.locator('[data-testid="diagnostic"] .msg').first().textContent();
  assert.equal(await page.getByText(message, { exact: true }).count(), 1, `"${message}" appears once`);
  assert.match(await page.textContent('[data-testid="inline-findings"]'), /\d+:\d+ SPG\d{3}/);
  assert.match(await page.textContent('[data-testid="profile-line"]'), /^Findings under Agent Skills spec/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the context window to scale, played along the turns, and presenter mode from a link', async () => {
  const { page, errors } = await samplePage();
  await showView(page, 'cost');
  await page.fill('[data-testid="cost-turns"]', '40');
  await page.fill('[data-testid="cost-activate"]', '12');
  for (const box of await page.locator('.reads input[type="checkbox"]').all()) await box.check();
  // The blocks ease to their width (0.2 s): measure after it.
  const setTurn = async (t) => {
    await page.$eval('[data-testid="turn-slider"]', (el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, t);
    await page.waitForTimeout(400);
  };
  const parts = () => page.$$eval('[data-testid="window-part"]', (els) => els.map((e) => ({ tokens: Number(e.dataset.tokens), width: e.getBoundingClientRect().width, isNew: e.classList.contains('new') })));
  await setTurn(11);
  const before = await parts();
  assert.equal(before.length, 1, 'before activation: level 1 only');
  await setTurn(12);
  const at = await parts();
  assert.equal(at.length, 4, 'on activation: level 1, the body, two files');
  assert.deepEqual(at.map((p) => p.isNew), [false, true, true, true]);
  // To scale: widths in proportion to tokens (the full width is the last turn's window).
  const barWidth = await page.$eval('[data-testid="window-bar"]', (e) => e.clientWidth);
  const full = at.reduce((a, p) => a + p.tokens, 0);
  for (const p of at) assert.ok(Math.abs(p.width - (barWidth * p.tokens) / full) <= 2.5, `width ${p.width} for ${p.tokens} of ${full} tokens in ${barWidth} px`);
  assert.match(await page.textContent('[data-testid="window-numbers"]'), /In the window at turn 12: [\d,]+ tokens from skills\. Input so far: [\d,]+ tokens/);
  // Play the turns: the slider moves on its own.
  await setTurn(1);
  await page.click('[data-testid="turn-play"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="turn-slider"]').value) >= 4, null, { timeout: 10_000 });
  await page.click('[data-testid="turn-play"]');
  await page.screenshot({ path: screenshotPath('12-context-window'), fullPage: false });
  // Presenter mode from a share link that opens on it: a slide.
  await page.click('[data-testid="view-nav"] a[data-view="cost"]');
  await page.evaluate(() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); });
  await showView(page, 'share');
  await page.click('[data-testid="share"]');
  const link = (await page.inputValue('[data-testid="share-link"]')).replace('&view=cost', '&view=present&turn=11');
  const other = await browser();
  try {
    const slide = await other.newPage();
    await slide.goto(link);
    await slide.waitForSelector('[data-testid="presenter"]');
    assert.equal(await slide.textContent('[data-testid="present-turn"]'), 'Turn 11 of 40');
    assert.match(await slide.textContent('[data-testid="present-idea"]'), /Only level 1/);
    await slide.keyboard.press('ArrowRight');
    assert.equal(await slide.textContent('[data-testid="present-turn"]'), 'Turn 12 of 40');
    assert.match(await slide.textContent('[data-testid="present-idea"]'), /reads the body/);
    assert.equal(await slide.evaluate(() => location.hash), '#view=present&turn=12');
    await slide.screenshot({ path: screenshotPath('13-presenter') });
    await slide.keyboard.press('End');
    assert.equal(await slide.textContent('[data-testid="present-turn"]'), 'Turn 40 of 40');
    await slide.keyboard.press('ArrowLeft');
    assert.equal(await slide.textContent('[data-testid="present-turn"]'), 'Turn 39 of 40');
    await slide.keyboard.press('Escape');
    await slide.waitForSelector('[data-testid="presenter"]', { state: 'detached' });
    assert.match(await slide.evaluate(() => location.hash), /(^#|&)view=cost$/);
  } finally {
    await other.close();
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('every view at desktop and phone width, light and dark, opens as its tab (screenshots for review)', async () => {
  for (const [width, height, name] of [[1280, 800, 'desktop'], [390, 844, 'phone']]) {
    for (const scheme of ['light', 'dark']) {
      const context = await browser();
      try {
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height });
        await page.goto(env.server.url);
        await page.waitForSelector('[data-built]');
        assert.equal(await page.evaluate(() => document.querySelector('.page').classList.contains('dark')), scheme === 'dark', `the ${scheme} theme follows the system`);
        for (const v of VIEWS) {
          await page.click(`[data-testid="view-nav"] a[data-view="${v}"]`);
          await page.waitForSelector(`#view-${v}:not([hidden])`);
          await page.waitForTimeout(250);
          await page.screenshot({ path: screenshotPath(`views/${name}-${scheme}-${v}`) });
        }
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    }
  }
});

test('the editor marks each located finding where it is; hover shows its message, rule and source; a quick fix applies and its mark goes away', async () => {
  const page = await env.ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => d.accept());
  // Every refusal of the page's Content-Security-Policy, from the first byte on.
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  await page.goto(env.server.url);
  await page.waitForSelector('[data-built]');
  await page.click('[data-testid="clear"]');
  await page.click('[data-testid="sample-pdf-helper"]');
  await page.click('[data-testid="verdict-claude-code"] button.client');
  // One mark per located finding on SKILL.md: the chips under the editor list each of them.
  const located = async () => (await page.$$eval('[data-testid="inline-findings"] .goto', (bs) => bs.map((b) => b.textContent.split(' ')[1]))).sort();
  await page.waitForFunction(() => globalThis.skillpgEditor.current?.marks().length > 0);
  const marks = async () => (await page.evaluate(() => globalThis.skillpgEditor.current.marks().map((m) => m.code))).sort();
  const chips = await located();
  assert.ok(chips.length >= 8, `the sample's located findings: ${chips}`);
  assert.deepEqual(await marks(), chips, 'one mark per located finding');
  // Each mark lies on its finding's text: the name's marks on `PDF_Helper`.
  const text = await editorText(page);
  const spans = await page.evaluate(() => globalThis.skillpgEditor.current.marks());
  const on = (code) => spans.filter((m) => m.code === code).map((m) => text.slice(m.from, m.to));
  assert.deepEqual(on('SPG038'), ['PDF_Helper']);
  assert.ok(on('SPG067').every((t) => t.includes('Bash(*)')), `${on('SPG067')}`);
  assert.ok((await page.locator('.cm-lintRange').count()) >= 1, 'marked in the text');
  assert.ok((await page.locator('.cm-lint-marker').count()) >= 1, 'marked in the gutter');
  // The token hints: level 1 after the description, level 2 after the frontmatter.
  const hints = await page.$$eval('[data-testid="token-hint"]', (hs) => hs.map((h) => h.textContent));
  assert.ok(hints.some((h) => /^L1 \d+ tok$/.test(h)) && hints.some((h) => /^L2 body \d+ tok$/.test(h)), `${hints}`);
  // Hovering the name's mark shows the message, the rule's link and its source.
  const box = await page.evaluate(() => {
    const ed = globalThis.skillpgEditor.current;
    const at = ed.text().indexOf('PDF_Helper') + 3;
    const r = ed.view.coordsAtPos(at);
    return { x: r.left + 1, y: (r.top + r.bottom) / 2 };
  });
  await page.mouse.move(box.x, box.y);
  const tooltip = page.locator('.cm-tooltip-lint');
  await tooltip.waitFor();
  assert.match(await tooltip.textContent(), /Directory name 'pdf-helper' must match skill name 'PDF_Helper'/);
  assert.equal(await tooltip.locator('[data-testid="mark-rule"]').first().getAttribute('href') !== null, true);
  await page.screenshot({ path: screenshotPath('20-editor-marks-hover') });
  // Its quick fix, labelled for review, applies through the engine and the mark goes away.
  const fix = tooltip.locator('li', { hasText: 'SPG038' }).locator('.cm-diagnosticAction');
  assert.match(await fix.textContent(), /review: changes what the skill says/);
  await fix.click();
  await page.waitForFunction(() => !globalThis.skillpgEditor.current.marks().some((m) => m.code === 'SPG038'));
  assert.match(await editorText(page), /^---\nname: pdf-helper\n/);
  assert.deepEqual(await marks(), await located(), 'the marks follow the findings');
  // Completion: a new field at a line's start offers the fields the client reads.
  await page.evaluate(() => {
    const ed = globalThis.skillpgEditor.current;
    const at = ed.text().indexOf('version: 2');
    ed.select(at, at);
  });
  await page.keyboard.type('lic');
  await page.keyboard.press('Control+Space');
  await page.locator('.cm-tooltip-autocomplete').waitFor();
  assert.match(await page.textContent('.cm-tooltip-autocomplete'), /license/);
  await page.keyboard.press('Escape');
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'the editor keeps the page\'s Content-Security-Policy');
  assert.deepEqual(errors, []);
  await page.close();
});
