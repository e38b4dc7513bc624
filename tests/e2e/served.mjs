// Opens a page someone else serves (scripts/test-trunk: `trunk serve`) and checks that it
// starts: every view built, a sample checked, no uncaught error and no CSP refusal in the
// console. Usage: node tests/e2e/served.mjs URL
import assert from 'node:assert/strict';
import { browser, openPage } from './harness.mjs';

const url = process.argv[2];
const ctx = await browser();
try {
  const { page, errors } = await openPage(ctx, url);
  const console_ = [];
  page.on('console', (m) => { if (m.type() === 'error') console_.push(m.text()); });
  await page.click('[data-testid="clear"]');
  await page.click('[data-testid="sample-release-notes"]');
  await page.waitForSelector('[data-testid="levels-table"] tbody tr', { state: 'attached' });
  await page.reload();
  await page.waitForSelector('[data-built]');
  assert.deepEqual(errors, [], 'no uncaught error');
  assert.deepEqual(console_.filter((t) => /Content Security Policy/.test(t)), [], 'nothing refused by the CSP');
  console.log(`${url}: the page starts, checks a sample and reloads`);
} finally {
  await ctx.close();
}
