#!/usr/bin/env node
// The decoder router in headless Chromium (the page's worker, CPU path: wasm SIMD), for
// BENCHMARKS.md: a GGUF goes in by the file picker, then the chapter's protocol runs both arms
// over the first N requests of the sample routing set; prints what the page reports (load,
// seconds a request, the prefix and per-request prefill tokens) and the answers.
// Usage: node scripts/bench-decoder.mjs [MODEL.gguf] [N]   (after scripts/build-web)
import fs from 'node:fs';
import path from 'node:path';
import { browser, root, serve } from '../tests/e2e/harness.mjs';

const model = process.argv[2] || path.join(root, 'target/model/SmolLM2-135M-Instruct.Q4_1.gguf');
const n = Number(process.argv[3] || 6);
if (!fs.existsSync(model)) throw new Error(`${model} is missing (scripts/fetch-decoder-model fetches SmolLM2)`);
const server = await serve();
const ctx = await browser();
try {
  const page = await ctx.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid="levels-table"]');
  await page.click('[data-testid="routing-sample"]');
  const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8'));
  await page.fill('[data-testid="routing-requests"]', all.slice(0, n).map((r) => `${r.query} => ${r.expected}`).join('\n'));
  let t = Date.now();
  await page.setInputFiles('[data-testid="decoder-file"]', model);
  await page.waitForFunction(() => !document.querySelector('[data-testid="decoder-model"]').textContent.startsWith('No decoder'), null, { timeout: 600_000 });
  const loadS = (Date.now() - t) / 1000;
  // Storing the model for the next visit runs after the load; wait for it before timing.
  await page.waitForFunction(() => !document.querySelector('[data-testid="decoder-busy"]'), null, { timeout: 600_000 });
  t = Date.now();
  await page.click('[data-testid="decoder-run"]');
  await page.waitForSelector('[data-testid="decoder-summary"]', { timeout: 3_600_000 });
  const runS = (Date.now() - t) / 1000;
  const summary = await page.textContent('[data-testid="decoder-summary"]');
  const rows = await page.$$eval('[data-testid="decoder-row"]', (trs) => trs.map((tr) => [tr.querySelector('th').textContent, tr.dataset.aAnswer]));
  console.log(`model: ${await page.textContent('[data-testid="decoder-model"]')}`);
  console.log(`load (file picker to ready, in the worker): ${loadS.toFixed(1)} s`);
  console.log(`run: ${n} requests x 2 arms in ${runS.toFixed(1)} s (${(runS / (2 * n)).toFixed(2)} s a request, both system turns included)`);
  console.log(`page says: ${summary}`);
  for (const [q, a] of rows) console.log(`  ${JSON.stringify(q)} -> ${JSON.stringify(a)}`);
} finally {
  await ctx.close();
  server.stop();
}
