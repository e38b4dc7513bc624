// The routing preview in headless Chromium with WebGPU on SwiftShader: the page's decisions and
// scores must equal the native CPU reference's (`skillpg route --cpu`) within tolerance, the
// backend line must say what ran, and the editor must stay live while the model's worker runs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { browser, keystrokesDuringRouting, openPage, root, screenshotPath, serve } from './harness.mjs';

let server;
let ctx;

before(async () => {
  assert.ok(fs.existsSync(path.join(root, 'dist/model/minilm-i8.spgm')), 'dist/model is missing: run scripts/fetch-model, then scripts/build-web');
  server = await serve();
  ctx = await browser();
});

after(async () => {
  await ctx?.close();
  server?.stop();
});

test('the page routes the sample set like the native CPU reference (SwiftShader is software: the CPU path runs)', { timeout: 600_000 }, async () => {
  const { page, errors } = await openPage(ctx, server.url, { view: 'routing' });
  // Chromium sizes an origin's quota by the disk's free space: a test machine with a nearly full
  // disk must not decide whether the model is kept (the test below refuses the storage on purpose).
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(server.url).origin, quotaSize: 1024 ** 3 });
  await page.click('[data-testid="routing-sample"]');
  const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8'));
  // Two requests per skill and two with no skill keep SwiftShader's run short.
  const picked = all.filter((_, i) => i % 4 < 2 || i >= 26).slice(0, 14);
  await page.fill('[data-testid="routing-requests"]', picked.map((r) => `${r.query} => ${r.expected}`).join('\n'));
  // The download shows its progress in bytes: record what the progress bar says.
  await page.evaluate(() => {
    window.__progress = [];
    new MutationObserver(() => {
      const bar = document.querySelector('[data-testid="model-progress"]');
      if (bar) window.__progress.push([Number(bar.getAttribute('value')), Number(bar.getAttribute('max'))]);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const modelRequests = [];
  page.on('request', (r) => { if (r.url().includes('/model/')) modelRequests.push(r.url()); });
  const start = Date.now();
  await page.click('[data-testid="routing-run"]');
  // One run at a time: while it is in hand the button is off and says so (the panel's Phase).
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="routing-run"]');
    return b?.disabled && b.textContent === 'Routing…';
  });
  await page.waitForSelector('[data-testid="route-row"]', { timeout: 540_000 });
  const seconds = (Date.now() - start) / 1000;
  assert.equal(await page.textContent('[data-testid="routing-run"]'), 'Route the requests');
  assert.equal(await page.isDisabled('[data-testid="routing-run"]'), false, 'the run ended: the button is on again');
  // Left automatic with nothing measured yet, the first result never waits for the GPU: the CPU
  // path runs at once, and both paths are measured after it.
  const firstLine = await page.textContent('[data-testid="routing-backend"]');
  console.log(`first result's backend: ${firstLine}; model load and ${picked.length} requests x 6 skills: ${seconds.toFixed(1)} s`);
  assert.match(firstLine, /^CPU path \(wasm SIMD, int8 kernel, in a worker\)(: runs at once; WebGPU, if this browser offers it, is measured after the first result|: [\d.]+ ms a request)/, firstLine);
  await page.waitForFunction(() => !/runs at once/.test(document.querySelector('[data-testid="routing-backend"]').textContent), null, { timeout: 240_000 });
  const backend = await page.textContent('[data-testid="routing-backend"]');
  console.log(`backend once measured: ${backend}`);
  // Then the page has measured both paths and runs the faster: on SwiftShader (a software
  // adapter) that is the CPU path (wasm SIMD), in the model's worker, and the line says what was
  // measured. (Without any adapter the line says that instead.)
  assert.match(
    backend,
    /^CPU path \(wasm SIMD, int8 kernel, in a worker\)(: [\d.]+ ms a request, the GPU \([^)]*BrowserWebGpu[^)]*\) (over )?[\d.]+ ms \(measured on (this|an earlier) load| \(this browser offers no WebGPU\))/,
    `the backend line says what ran and what was measured: ${backend}`,
  );
  assert.ok(modelRequests.some((u) => u.endsWith('minilm-i8.spgm')), `the int8 weights are fetched: ${modelRequests}`);
  const progress = await page.evaluate(() => window.__progress);
  const size = fs.statSync(path.join(root, 'dist/model/minilm-i8.spgm')).size;
  assert.ok(progress.length > 0 && progress.every(([v, m]) => m === size && v > 0 && v <= size), `a progress bar in bytes of ${size}: ${JSON.stringify(progress.slice(0, 5))}`);
  assert.ok(!modelRequests.some((u) => /minilm-f(32|16)/.test(u)), 'the f32 and f16 files are never fetched');
  const rows = await page.$$eval('[data-testid="route-row"]', (trs) => trs.map((tr) => ({ choice: tr.dataset.choice, scores: tr.dataset.cosines.split(',').map(Number), fused: tr.dataset.scores.split(',').map(Number) })));
  const names = await page.$$eval('[data-testid="collisions"] thead th[scope="col"]', (ths) => ths.map((t) => t.textContent));

  const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'route-')), 'requests.json');
  fs.writeFileSync(tmp, JSON.stringify(picked));
  const native = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['route', '--cpu', '--weights', 'i8', '--format', 'json', '--requests', tmp, path.join(root, 'web/samples/routing')], { encoding: 'utf8', cwd: root }));
  assert.equal(rows.length, native.requests.length);
  let worst = 0;
  native.requests.forEach((want, i) => {
    names.forEach((name, j) => {
      worst = Math.max(worst, Math.abs(rows[i].scores[j] - want.cosines[native.candidates.indexOf(name)]));
      // The router ranked by the fused scores, the native reference's too.
      worst = Math.max(worst, Math.abs(rows[i].fused[j] - want.fused[native.candidates.indexOf(name)]));
    });
    assert.equal(rows[i].choice, want.choice, `request ${i}: ${want.query}`);
  });
  console.log(`worst |score difference| page (${backend}) vs native CPU reference: ${worst.toExponential(2)}`);
  assert.ok(worst <= 1e-3, `scores differ by ${worst}`);
  // The f32 oracle (the CPU reference on the f32 weights): the same decisions, scores within
  // 0.01 (int8 quantization). On the whole sample set one request sits 0.0006 above τ in f32
  // and flips (BENCHMARKS.md); it is not among these 14.
  const f32 = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['route', '--cpu', '--weights', 'f32', '--format', 'json', '--requests', tmp, path.join(root, 'web/samples/routing')], { encoding: 'utf8', cwd: root }));
  let worstF32 = 0;
  f32.requests.forEach((want, i) => {
    names.forEach((name, j) => { worstF32 = Math.max(worstF32, Math.abs(rows[i].scores[j] - want.cosines[f32.candidates.indexOf(name)])); });
    assert.equal(rows[i].choice, want.choice, `request ${i} against the f32 oracle: ${want.query}`);
  });
  console.log(`worst |score difference| page (int8) vs the f32 oracle: ${worstF32.toFixed(4)}`);
  assert.ok(worstF32 <= 0.01, `scores differ from f32 by ${worstF32}`);
  // Score bars are as wide as their scores: the CSP drops inline style attributes, so widths
  // are set through the CSSOM.
  const bars = await page.$$eval('.bar-fill', (els) => els.map((el) => ({ score: Number(el.dataset.score), width: el.getBoundingClientRect().width, track: el.parentElement.getBoundingClientRect().width })));
  assert.ok(bars.length > 0, 'score bars are drawn');
  const widths = new Set(bars.map((b) => Math.round(b.width)));
  assert.ok(widths.size > 3, `bars have different widths: ${[...widths]}`);
  const wide = bars.filter((b) => b.score > 0.5);
  const narrow = bars.filter((b) => b.score < 0.1);
  if (wide.length && narrow.length) {
    assert.ok(Math.min(...wide.map((b) => b.width)) > Math.max(...narrow.map((b) => b.width)), 'a higher score draws a wider bar');
  }
  assert.match(await page.textContent('[data-testid="sign-test"]'), /sign test/);
  // The export files are the CLI's, byte for byte, for the same skills and requests: the CLI
  // runs the page's kernel (integer dot products on the int8 weights) natively.
  const lines = path.join(path.dirname(tmp), 'requests.txt');
  fs.writeFileSync(lines, picked.map((r) => `${r.query} => ${r.expected}`).join('\n'));
  for (const [format, button] of [['json', 'routing-export-json'], ['csv', 'routing-export-csv']]) {
    const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${button}"]`)]);
    const fromPage = fs.readFileSync(await file.path(), 'utf8');
    const fromCli = execFileSync(path.join(root, 'target/debug/skillpg'), ['route', '--weights', 'i8', '--kernel', 'integer', '--format', format, '--requests', lines, path.join(root, 'web/samples/routing')], { encoding: 'utf8', cwd: root });
    assert.ok(fromPage.length > 200, `the page's ${format} export has the results`);
    assert.equal(fromPage, fromCli, `the page's ${format} export equals skillpg route --format ${format}, byte for byte`);
  }
  // The labelled set exports in skill-creator's per-skill format, for the selected skill.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-skill-creator"]')]);
  const evals = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  assert.equal(evals.length, picked.length, 'one entry per labelled request');
  assert.ok(evals.every((e) => typeof e.query === 'string' && typeof e.should_trigger === 'boolean'), JSON.stringify(evals[0]));
  await page.screenshot({ path: screenshotPath('08-routing'), fullPage: true });

  // A second visit takes the model from the service worker's cache: the response is the first
  // one, byte for byte and header for header (its Date is the first fetch's, not a new one).
  const first = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    const keys = await caches.keys();
    const model = keys.find((k) => k.includes('model'));
    const hit = model && (await (await caches.open(model)).match(new URL('model/minilm-i8.spgm', location.href).href));
    return hit ? hit.headers.get('date') : null;
  });
  const storage = await page.evaluate(async () => JSON.stringify(await navigator.storage.estimate()));
  assert.equal(await page.locator('[data-testid="model-not-kept"]').count(), 0, `the page kept the model (storage: ${storage})`);
  assert.ok(first, `the int8 model is in the model cache after the first run (storage: ${storage})`);
  await new Promise((r) => setTimeout(r, 1100));
  const again = await ctx.newPage();
  await again.goto(server.url);
  await again.waitForSelector('[data-built]');
  const date = await again.evaluate(async () => (await fetch('model/minilm-i8.spgm')).headers.get('date'));
  assert.equal(date, first, 'the second visit is served from the cache, with no new request');
  await again.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('each pick says how sure it is: a close call shows its runners-up and its stated chance; the view names the router and its benchmark line', { timeout: 300_000 }, async () => {
  const { page, errors } = await openPage(ctx, server.url, { view: 'routing' });
  await page.click('[data-testid="routing-sample"]');
  assert.match(await page.textContent('[data-testid="routing-benchmark"]'), /The router here: the embedding preview fused with word overlap.*On \d+ public tasks from \d+ skill suites, its first pick was the intended skill \d+% of the time and one of its first three \d+%/);
  // Why this router, folded under that line: the benchmark's counts against each router alone.
  assert.equal(await page.$eval('[data-testid="routing-choice"]', (d) => d.open), false, 'folded on a first visit');
  assert.match(await page.textContent('[data-testid="routing-choice"]'), /chosen by the benchmark: first picks right \d+ against \d+ of \d+ .* against the embedding alone/);
  // Two requests the native run separates differently: a fused lead of 0.09 (a close call: the
  // router's first pick there is more likely wrong than right) and one of 0.21.
  await page.fill('[data-testid="routing-requests"]', [
    'The database was down for 40 minutes last night, help me write it up. => incident-postmortem',
    'Review our store page text before we submit the new version. => app-store-listing',
  ].join('\n'));
  await page.click('[data-testid="routing-run"]');
  await page.waitForSelector('[data-testid="route-row"]', { timeout: 240_000 });
  const rows = await page.$$eval('[data-testid="route-row"]', (trs) => trs.map((tr) => ({
    close: !!tr.querySelector('.close-call'),
    chance: tr.querySelector('[data-testid="route-chance"]')?.dataset.chance,
    runners: tr.querySelector('[data-testid="runners-up"]')?.textContent ?? '',
    words: tr.querySelector('[data-testid="route-sureness"]').textContent,
  })));
  assert.equal(rows.length, 2);
  assert.ok(rows[0].close, `the first is a close call: ${JSON.stringify(rows[0])}`);
  assert.match(rows[0].words, /A close call: .* leads .* by only 0\.0\d\. On the benchmark, first picks this close were right \d+% of the time\./);
  assert.match(rows[0].runners, /^[a-z-]+ 0\.\d\d, [a-z-]+ -?0\.\d\d$/, 'its two runners-up with their scores');
  assert.ok(!rows[1].close && rows[1].runners === '', `the second is not: ${JSON.stringify(rows[1])}`);
  assert.ok(parseInt(rows[1].chance, 10) > parseInt(rows[0].chance, 10), 'a larger lead states a larger chance');
  // The sample's A/B reading has the lesson on the benchmark's real suites beside it.
  assert.match(await page.textContent('[data-testid="ab-benchmark"]'), /^On real suites: .* first for \d+ of \d+ tasks and the descriptions they settled on for \d+ \(paired sign test p = \d\.\d{3}\)/);
  // A stronger model for those with the hardware: the short list, each with its benchmark line.
  const models = await page.$$eval('[data-testid="stronger-models"] tbody tr', (trs) => trs.map((tr) => tr.textContent));
  assert.ok(models.length >= 3 && /SmolLM2.*measured here, constrained choice/.test(models[0]) && models.slice(1).every((m) => /not measured here/.test(m)), models.join('\n'));
  await page.screenshot({ path: screenshotPath('routing-sureness') });
  assert.deepEqual(errors, []);
});

test('when the browser refuses to store the model, the page routes anyway and says the next visit downloads it again', { timeout: 300_000 }, async () => {
  const own = await browser();
  try {
    const { page, errors } = await openPage(own, server.url, { view: 'routing' });
    const cdp = await own.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(server.url).origin, quotaSize: 1024 * 1024 });
    await page.click('[data-testid="routing-sample"]');
    await page.fill('[data-testid="routing-requests"]', 'convert this pdf to text => NONE');
    await page.click('[data-testid="routing-run"]');
    await page.waitForSelector('[data-testid="route-row"]', { timeout: 240_000 });
    assert.match(await page.textContent('[data-testid="model-not-kept"]'), /refused to keep the model.*downloads it again/);
    const kept = await page.evaluate(async () => {
      const cache = await caches.open('skill-playground-model-minilm-i8-v2');
      return (await cache.keys()).map((r) => r.url);
    });
    assert.ok(!kept.some((u) => u.endsWith('.spgm')), `nothing half-kept: ${kept}`);
    assert.deepEqual(errors, []);
  } finally {
    await own.close();
  }
});

test('the main thread is never blocked while the routing model runs: keystrokes reach the findings during a run', { timeout: 300_000 }, async () => {
  const { page, errors } = await openPage(ctx, server.url, { view: 'routing' });
  const { times, longTasks, allDuringRun, requests, rows } = await keystrokesDuringRouting(page);
  console.log(`during a routing run: keystroke to findings ${times.map((t) => t.toFixed(0)).join(', ')} ms; longest main-thread task ${Math.max(0, ...longTasks).toFixed(0)} ms (${longTasks.length} over 50 ms)`);
  assert.ok(allDuringRun, 'the keystrokes were typed while the routing run was still going (make the run longer if this fails)');
  assert.equal(times.length, 4, 'every keystroke reached the findings');
  // What this test means: the model runs in a worker, so no task of the page's own thread comes
  // near a second (a model on the main thread blocks it for the whole run). The 100 ms
  // keystroke target depends on the machine's load; scripts/bench-page.mjs measures it.
  assert.ok(Math.max(0, ...longTasks) < 1000, `a main-thread task of ${Math.max(...longTasks).toFixed(0)} ms during the run`);
  assert.equal(rows, requests);
  assert.deepEqual(errors, []);
  await page.close();
});

test('forced onto WebGPU (SwiftShader), the WGSL kernels route in the worker like the native CPU reference', { timeout: 300_000 }, async () => {
  const { page, errors } = await openPage(ctx, server.url, { view: 'routing' });
  await page.evaluate(() => localStorage.setItem('skillpg-routing-backend', 'webgpu'));
  await page.click('[data-testid="routing-sample"]');
  const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8'));
  const picked = [all[0], all[6], all[13], all[27]];
  await page.fill('[data-testid="routing-requests"]', picked.map((r) => `${r.query} => ${r.expected}`).join('\n'));
  const start = Date.now();
  await page.click('[data-testid="routing-run"]');
  await page.waitForSelector('[data-testid="route-row"]', { timeout: 280_000 });
  const backend = await page.textContent('[data-testid="routing-backend"]');
  console.log(`backend: ${backend}; ${picked.length} requests x 6 skills in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  assert.match(backend, /^WebGPU via wgpu \([^)]*BrowserWebGpu[^)]*\), in a worker, weights in f(16|32): chosen in the page/, `the backend line says WebGPU ran: ${backend}`);
  const rows = await page.$$eval('[data-testid="route-row"]', (trs) => trs.map((tr) => ({ choice: tr.dataset.choice, scores: tr.dataset.cosines.split(',').map(Number) })));
  const names = await page.$$eval('[data-testid="collisions"] thead th[scope="col"]', (ths) => ths.map((t) => t.textContent));
  const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'route-')), 'requests.json');
  fs.writeFileSync(tmp, JSON.stringify(picked));
  const native = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['route', '--cpu', '--weights', 'i8', '--format', 'json', '--requests', tmp, path.join(root, 'web/samples/routing')], { encoding: 'utf8', cwd: root }));
  let worst = 0;
  native.requests.forEach((want, i) => {
    names.forEach((name, j) => { worst = Math.max(worst, Math.abs(rows[i].scores[j] - want.cosines[native.candidates.indexOf(name)])); });
    assert.equal(rows[i].choice, want.choice, `request ${i}: ${want.query}`);
  });
  console.log(`worst |score difference| WebGPU (SwiftShader) vs native CPU reference: ${worst.toExponential(2)}`);
  // f16 storage rounds the int8 weights' products (q · d needs up to 18 bits; f16 keeps 11).
  assert.ok(worst <= (/weights in f16/.test(backend) ? 5e-3 : 1e-4), `scores differ by ${worst}`);
  assert.deepEqual(errors, []);
  await page.close();
});
