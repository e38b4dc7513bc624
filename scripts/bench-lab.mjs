#!/usr/bin/env node
// Timed page benchmark of the description lab in headless Chromium, for BENCHMARKS.md: a near
// miss explained by its words (each word of the description dropped in turn and re-embedded in
// the model's worker, the cosines, the drawing), from the click to the drawn description, on the
// sample sql-review (32 words) with the model already loaded. Target: under a second.
// Usage: node scripts/bench-lab.mjs [runs]   (after scripts/fetch-model and scripts/build-web)
import { browser, openPage, serve } from '../tests/e2e/harness.mjs';

const runs = Number(process.argv[2] || 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const server = await serve();
const ctx = await browser();
try {
  const { page } = await openPage(ctx, server.url);
  await page.click('[data-testid="lab-sample"]');
  await page.click('[data-testid="lab-run"]');
  await page.waitForSelector('[data-testid="lab-figures"]', { timeout: 240_000 });
  const words = await page.evaluate(() => document.querySelectorAll('[data-testid="lab-query"]').length);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const row = page.locator('[data-testid="lab-query"]').nth(i % words);
    const start = Date.now();
    await row.locator('[data-testid="lab-explain"]').click();
    await page.waitForFunction((q) => document.querySelector('[data-testid="lab-explanation"]')?.textContent.includes(q), await row.locator('td.query').textContent());
    times.push(Date.now() - start);
  }
  const n = await page.locator('[data-testid="lab-word"]').count();
  console.log(`explain a query (${n}-word description): median ${median(times)} ms over ${runs} runs [${times.join(', ')}]`);
} finally {
  await ctx.close();
  server.stop();
}
