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
  // Each run in a fresh page, with a fresh worker: its embedding cache holds none of the 32
  // occlusion texts (the same texts explain every query of a skill, so later explanations in a
  // page reuse them and are faster; that figure is printed too).
  const first = [];
  let again = [];
  let n = 0;
  for (let i = 0; i < runs; i++) {
    const { page } = await openPage(ctx, server.url);
    await page.click('[data-testid="lab-sample"]');
    await page.click('[data-testid="lab-run"]');
    await page.waitForSelector('[data-testid="lab-figures"]', { timeout: 240_000 });
    const explain = async (k) => {
      const row = page.locator('[data-testid="lab-query"]').nth(k);
      // The query alone (a lost query's cell also says where it went).
      const query = await row.locator('td.query').evaluate((td) => td.firstChild.textContent);
      const start = Date.now();
      await row.locator('[data-testid="lab-explain"]').click();
      await page.waitForFunction((q) => document.querySelector('[data-testid="lab-explanation"]')?.textContent.includes(q), query);
      return Date.now() - start;
    };
    first.push(await explain(0));
    again.push(await explain(1));
    n = await page.locator('[data-testid="lab-word"]').count();
    await page.close();
  }
  console.log(`explain a query (${n}-word description), first in a page: median ${median(first)} ms over ${runs} runs [${first.join(', ')}]`);
  console.log(`a second query of the same skill (the occlusion texts cached in the worker): median ${median(again)} ms [${again.join(', ')}]`);
} finally {
  await ctx.close();
  server.stop();
}
