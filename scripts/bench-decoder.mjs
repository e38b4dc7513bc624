#!/usr/bin/env node
// The decoder router in headless Chromium (the page's worker, CPU path: wasm SIMD), for
// BENCHMARKS.md: a GGUF goes in by the file picker, then the chapter's protocol runs both arms
// over the first N requests of the sample routing set; prints what the page reports (load,
// seconds a request, the prefix and per-request prefill tokens) and the answers.
// Then, when scripts/install-peers has installed it, wllama (llama.cpp in wasm) runs the same
// prompts on the same file in the same browser, one thread, and the ratio is printed.
// Usage: node scripts/bench-decoder.mjs [MODEL.gguf] [N]   (after scripts/build-web and
// cargo build --release -p skillpg-cli)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { browser, root, serve } from '../tests/e2e/harness.mjs';

const model = process.argv[2] || path.join(root, 'target/model/SmolLM2-135M-Instruct.Q4_1.gguf');
const n = Number(process.argv[3] || 6);
if (!fs.existsSync(model)) throw new Error(`${model} is missing (scripts/fetch-decoder-model fetches SmolLM2)`);
const server = await serve();
let runS = NaN;
const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8'));
const ctx = await browser();
try {
  const page = await ctx.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-built]');
  await page.click('[data-testid="routing-sample"]');
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
  runS = (Date.now() - t) / 1000;
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

// wllama (llama.cpp in wasm) in the same browser, one thread, on the same file and the same
// prompts, when it is installed (`scripts/install-peers`): each arm's system turn prefilled
// once, then every request with the cached prefix, answers capped at the same 24 tokens.
const wllamaEntry = path.join(root, 'target/peers/node_modules/@wllama/wllama/esm/index.js');
if (!fs.existsSync(wllamaEntry)) {
  console.log('wllama: not installed (bash scripts/install-peers); the peer side is left out');
} else {
  const cli = path.join(root, 'target/release/skillpg');
  if (!fs.existsSync(cli)) throw new Error('target/release/skillpg is missing: cargo build --release -p skillpg-cli');
  // The exact text our decoder feeds the model (its chat template, `skillpg prompt --chat`): each
  // arm's prefix and every request's turn after it.
  const queries = all.slice(0, n).map((r) => r.query);
  const chat = (thin) =>
    JSON.parse(execFileSync(cli, ['prompt', '--chat', ...(thin ? ['--thin'] : []), ...queries.flatMap((q) => ['--request', q]), path.join(root, 'web/samples/routing')], { encoding: 'utf8' }));
  const arms = [chat(false), chat(true)];
  const rootServer = await serve(root);
  const wctx = await browser();
  try {
    const page = await wctx.newPage();
    const html = path.join(root, 'target/peers/bench-wllama.html');
    fs.writeFileSync(html, `<!doctype html><meta charset="utf-8"><title>wllama bench</title>
<script type="module">
import { Wllama } from '/target/peers/node_modules/@wllama/wllama/esm/index.js';
window.runWllama = async ({ model, arms, maxTokens }) => {
  const now = () => performance.now();
  const w = new Wllama({ default: '/target/peers/node_modules/@wllama/wllama/esm/wasm/wllama.wasm' });
  let t = now();
  await w.loadModelFromUrl(model, { n_threads: 1, n_gpu_layers: 0, n_ctx: 2048, n_batch: 512 });
  const out = { loadMs: now() - t, arms: [] };
  for (const { prefix, requests } of arms) {
    t = now();
    const first = await w.createCompletion({ prompt: prefix, max_tokens: 1, temperature: 0 });
    const arm = { prefixMs: now() - t, prefixTokens: first.timings?.prompt_n, prefillPerSecond: first.timings?.prompt_per_second, answers: [], requestMs: [], decodePerSecond: [] };
    for (const turn of requests) {
      t = now();
      const r = await w.createCompletion({ prompt: prefix + turn, max_tokens: maxTokens, temperature: 0, stop: ['<|im_end|>'] });
      arm.requestMs.push(now() - t);
      arm.answers.push(r.choices[0].text);
      if (r.timings?.predicted_n > 1) arm.decodePerSecond.push(r.timings.predicted_per_second);
    }
    out.arms.push(arm);
  }
  out.version = Wllama.getLibllamaVersion?.();
  await w.exit();
  return out;
};
window.ready = true;
</script>`);
    await page.goto(`${rootServer.url}target/peers/bench-wllama.html`);
    await page.waitForFunction(() => window.ready === true);
    const t = Date.now();
    const r = await page.evaluate((args) => window.runWllama(args), { model: `/${path.relative(root, model)}`, arms, maxTokens: 24 });
    const totalS = (Date.now() - t) / 1000 - r.loadMs / 1000;
    const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
    console.log(`wllama ${r.version ?? ''} (llama.cpp in wasm, one thread, n_gpu_layers 0): load ${(r.loadMs / 1000).toFixed(1)} s`);
    r.arms.forEach((a, i) => {
      console.log(`  arm ${i ? 'B (thinned)' : 'A (as written)'}: system turn ${a.prefixTokens} tokens in ${a.prefixMs.toFixed(0)} ms (${a.prefillPerSecond?.toFixed(1)} tokens/s); a request ${(median(a.requestMs) / 1000).toFixed(2)} s (median); decode ${median(a.decodePerSecond)?.toFixed(1)} tokens/s (median)`);
    });
    console.log(`wllama: ${n} requests x 2 arms in ${totalS.toFixed(1)} s (${(totalS / (2 * n)).toFixed(2)} s a request, both system turns included)`);
    console.log(`ours against wllama, a request, both system turns included: ${(totalS / runS).toFixed(2)}x faster`);
    r.arms[0].answers.forEach((a, i) => console.log(`  wllama A: ${JSON.stringify(queries[i])} -> ${JSON.stringify(a)}`));
  } finally {
    await wctx.close();
    rootServer.stop();
  }
}

