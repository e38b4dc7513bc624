// An accessibility audit of every view with axe-core (pinned in package.json, used by the tests
// only, never served): no serious or critical violation of WCAG 2 A and AA, in the light and the
// dark theme, on the page as it first opens (the sample skill loaded).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { root, serveAndBrowse, showView } from './harness.mjs';

const env = serveAndBrowse();
const AXE = fs.readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
const VIEWS = ['check', 'levels', 'tokens', 'cost', 'routing', 'lab', 'share', 'rules'];

/** The serious and critical violations axe finds on the page as it is now. */
async function audit(page) {
  // Evaluated through the debugging protocol, which the page's CSP does not govern: nothing is
  // added to the page's own scripts.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await globalThis.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ''}`);
  });
}

test('every view passes axe-core with no serious or critical violation, light and dark', { timeout: 300_000 }, async () => {
  const found = [];
  for (const theme of ['light', 'dark']) {
    // The theme follows the system's, read as the page opens.
    const page = await env.ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('dialog', (d) => d.accept());
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(env.server.url);
    await page.waitForSelector('[data-built]');
    assert.equal(await page.evaluate(() => document.querySelector('.page').classList.contains('dark')), theme === 'dark');
    for (const v of VIEWS) {
      await showView(page, v);
      await page.waitForTimeout(150);
      for (const line of await audit(page)) found.push(`${theme}, ${v}: ${line}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(found, [], found.join('\n'));
});
