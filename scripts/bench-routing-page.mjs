#!/usr/bin/env node
// Issue 47's latency target: a request routed in the page's worker with 26 skills loaded, on
// the CPU (WebGPU here is SwiftShader, so the worker's wasm SIMD path), in headless Chromium.
// The 26 skills are the first 26 of the routing benchmark's ZhangHanDong/rust-skills suite
// (crates/skillpg-routing/bench/rust-skills.json), loaded as a folder, and the requests are
// that suite's English prompts. A first run embeds the descriptions (the worker keeps them);
// after the run that measures the worker's two paths (once per browser), each timed run
// routes 20 requests the worker has not seen (another case or ending each round: the model
// is uncased, its per-text cache is not), so its time is the requests' own: embedding,
// 26 cosines each, and the messages between the page and its worker. The page's own figure
// ("N requests × 26 skills in M ms") over N is the time a request; median of the rounds.
// Usage: node scripts/bench-routing-page.mjs [rounds]   (after scripts/build-web)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browser, openPage, root, serve, showView } from '../tests/e2e/harness.mjs';

const rounds = Number(process.argv[2] || 5);
const suite = JSON.parse(fs.readFileSync(path.join(root, 'crates/skillpg-routing/bench/rust-skills.json'), 'utf8'));
const skills = suite.skills.slice(0, 26);
const english = suite.tasks.map((t) => t.prompt).filter((p) => /^[\x20-\x7e]+$/.test(p) && p.split(' ').length >= 3);
const requests = english.slice(0, 20);
if (requests.length < 20) throw new Error(`only ${requests.length} English prompts`);
const top = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-bench-routing-page-'));
for (const s of skills) {
  fs.mkdirSync(path.join(top, s.name));
  fs.writeFileSync(path.join(top, s.name, 'SKILL.md'), `---\nname: ${s.name}\ndescription: ${JSON.stringify(s.description)}\n---\n\n# ${s.name}\n`);
}
const server = await serve();
const ctx = await browser();
const { page, errors } = await openPage(ctx, server.url);
await page.click('[data-testid="clear"]');
await page.setInputFiles('[data-testid="folder-input"]', top);
await page.waitForFunction(() => document.querySelector('[data-testid="catalog"]')?.dataset.count === '26', null, { timeout: 60_000 });
await showView(page, 'routing');
const run = async (texts) => {
  await page.fill('[data-testid="routing-requests"]', texts.join('\n'));
  const before = await page.evaluate(() => document.querySelector('[data-testid="routing"]')?.textContent.match(/requests × \d+ skills in \d+ ms/g)?.join('|') ?? '');
  await page.click('[data-testid="routing-run"]');
  await page.waitForFunction((b) => {
    const m = document.querySelector('[data-testid="routing"]')?.textContent.match(/requests × \d+ skills in \d+ ms/g)?.join('|') ?? '';
    return m !== '' && m !== b;
  }, before, { timeout: 240_000 });
  const [, n, k, ms] = (await page.textContent('[data-testid="routing"]')).match(/(\d+) requests × (\d+) skills in (\d+) ms/);
  return { n: Number(n), k: Number(k), ms: Number(ms) };
};
const warm = await run(english.slice(20, 25));
// After its first result the worker measures both of its paths once (the result is kept for
// the next visits: skillpg_worker::embedder::measure); that run is reported, not timed.
const measuring = await run(english.slice(25, 30));
const variants = [(s) => s.toLowerCase(), (s) => s.toUpperCase(), (s) => s.replace(/\b\w/g, (c) => c.toUpperCase()), (s) => `${s}.`, (s) => `${s}?`, (s) => `Please: ${s}`];
const perRequest = [];
for (let r = 0; r < Math.min(rounds, variants.length); r++) {
  const got = await run(requests.map(variants[r]));
  if (got.k !== 26 || got.n !== 20) throw new Error(`routed ${got.n} requests over ${got.k} skills`);
  perRequest.push(got.ms / got.n);
  console.error(`round ${r + 1}: ${got.ms} ms for ${got.n} requests`);
}
const median = [...perRequest].sort((a, b) => a - b)[Math.floor(perRequest.length / 2)];
console.log(`first run (5 requests, 26 descriptions and their thinned copies embedded): ${warm.ms} ms; the next (5 requests, while the worker measures its two paths once): ${measuring.ms} ms`);
console.log(`a request routed over 26 skills in the page's worker: ${median.toFixed(1)} ms median (${perRequest.map((x) => x.toFixed(1)).join(', ')}), target ≤ 15 ms`);
if (errors.length) throw new Error(errors.join('\n'));
await ctx.close();
server.stop();
fs.rmSync(top, { recursive: true, force: true });
