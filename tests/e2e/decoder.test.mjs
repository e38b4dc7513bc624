// The decoder router (the chapter's protocol) in headless Chromium: a tiny random Qwen2 model
// with a ChatML tokenizer, written by the decoder crate's test script, goes in by the file
// picker and by an address; the page's worker (wasm, CPU path) must answer every request
// exactly as the native CLI (`skillpg route --model`) does, on the CPU path and, by "Run on",
// on WebGPU (the WGSL kernels on SwiftShader) and moved back to the CPU; a truncated file gets a message
// that says so; the model is kept for the next visit; constrained choice gives a distribution.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openPage, root, screenshotPath, serveAndBrowse } from './harness.mjs';

const env = serveAndBrowse();

function tinyModel() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-tiny-'));
  execFileSync('python3', [path.join(root, 'crates/skillpg-decoder/tests/oracle/make_tiny.py'), dir], { encoding: 'utf8' });
  const model = path.join(dir, 'tiny-chat-qwen2.gguf');
  assert.ok(fs.existsSync(model), 'make_tiny.py wrote the chat model (it needs `pip install gguf==0.19.0 numpy`)');
  return { dir, model };
}

/// Serves one file with CORS and its length, as a model host does.
async function fileHost(file) {
  const server = http.createServer((req, res) => {
    const body = fs.readFileSync(file);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length, 'access-control-allow-origin': '*', 'access-control-expose-headers': 'content-length' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/${path.basename(file)}`, close: () => server.close() };
}

async function runBothArms(page) {
  await page.click('[data-testid="decoder-run"]');
  await page.waitForSelector('[data-testid="decoder-row"]', { timeout: 300_000 });
  return page.$$eval('[data-testid="decoder-row"]', (trs) => trs.map((tr) => ({ a: tr.dataset.aAnswer, aChoice: tr.dataset.aChoice, b: tr.dataset.bAnswer })));
}

test('the page answers like the native CLI, keeps the model, and names a truncated file', { timeout: 600_000 }, async () => {
  const { dir, model } = tinyModel();
  const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'routing' });
  await page.click('[data-testid="routing-sample"]');
  const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8'));
  const picked = [all[0], all[5], all[12], all[27]];
  await page.fill('[data-testid="routing-requests"]', picked.map((r) => `${r.query} => ${r.expected}`).join('\n'));

  // A truncated file: a message that names what is wrong, and nothing loaded.
  const truncated = path.join(dir, 'truncated.gguf');
  const bytes = fs.readFileSync(model);
  fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  await page.setInputFiles('[data-testid="decoder-file"]', truncated);
  await page.waitForSelector('[data-testid="decoder-error"]');
  assert.match(await page.textContent('[data-testid="decoder-error"]'), /truncated/);
  assert.equal(await page.textContent('[data-testid="decoder-model"]'), 'No decoder loaded.');

  await page.setInputFiles('[data-testid="decoder-file"]', model);
  await page.waitForFunction(() => document.querySelector('[data-testid="decoder-model"]').textContent.includes('Qwen2 family'), null, { timeout: 60_000 });
  const line = await page.textContent('[data-testid="decoder-model"]');
  assert.match(line, /CPU path \(wasm SIMD, integer products for quantized weights, wasm SIMD kernel, one thread, in a worker\)/, `the model line says what runs it: ${line}`);
  // Left automatic, the first load measured both paths (SwiftShader's WebGPU is available) and
  // the line says which ran and why.
  assert.match(line, /: [\d.]+ ms a request, the GPU \([^)]*\) (over )?[\d.]+ ms \(measured on (this|an earlier) load/, `the line gives the measurement: ${line}`);
  const rows = await runBothArms(page);

  const tmp = path.join(dir, 'requests.json');
  fs.writeFileSync(tmp, JSON.stringify(picked));
  const native = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['route', '--model', model, '--format', 'json', '--requests', tmp, path.join(root, 'web/samples/routing')], { encoding: 'utf8', cwd: root }));
  assert.equal(rows.length, native.requests.length);
  native.requests.forEach((want, i) => {
    assert.equal(rows[i].a, want.verbatim, `request ${i} (${want.query}): the page's answer is the native one`);
    assert.equal(rows[i].aChoice, want.choice);
  });
  console.log(`page and native CLI give the same ${rows.length} answers, e.g. ${JSON.stringify(rows[0].a)}`);
  assert.match(await page.textContent('[data-testid="decoder-sign-test"]'), /sign test on the \d+ discordant pairs/);
  assert.match(await page.textContent('[data-testid="decoder-summary"]'), /prefilled once per arm/);
  // The export files are `skillpg compare --thin-b`'s, byte for byte, for the same model,
  // skills and requests.
  const lines = path.join(dir, 'requests.txt');
  fs.writeFileSync(lines, picked.map((r) => `${r.query} => ${r.expected}`).join('\n'));
  for (const [format, button] of [['json', 'decoder-export-json'], ['csv', 'decoder-export-csv']]) {
    const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${button}"]`)]);
    const fromPage = fs.readFileSync(await file.path(), 'utf8');
    const fromCli = execFileSync(path.join(root, 'target/debug/skillpg'), ['compare', '--model', model, '--thin-b', '--format', format, '--requests', lines, '--a', path.join(root, 'web/samples/routing')], { encoding: 'utf8', cwd: root });
    assert.equal(fromPage, fromCli, `the page's ${format} export equals skillpg compare --format ${format}, byte for byte`);
  }
  await page.locator('[data-testid="decoder"]').screenshot({ path: screenshotPath('decoder/01-chapter-protocol') });

  // Constrained choice: a distribution over the names and NONE.
  await page.selectOption('[data-testid="decoder-mode"]', 'choice');
  await page.click('[data-testid="decoder-run"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="decoder-routes"] caption')?.textContent.startsWith('Constrained choice'), null, { timeout: 300_000 });
  const cells = await page.$$eval('[data-testid="decoder-row"] td:nth-child(3)', (tds) => tds.map((t) => t.textContent));
  assert.ok(cells.every((t) => /\(\d+%\)$/.test(t)), `each choice with its probability: ${cells}`);

  // The model is kept for the next visit: a new page offers it and loads it without a file.
  const again = await openPage(env.ctx, env.server.url, { view: 'routing' });
  await again.page.waitForSelector('[data-testid="decoder-stored"]', { timeout: 20_000 });
  assert.match(await again.page.textContent('[data-testid="decoder-stored"]'), /tiny-chat-qwen2\.gguf/);
  await again.page.click('[data-testid="decoder-stored"]');
  await again.page.waitForFunction(() => document.querySelector('[data-testid="decoder-model"]').textContent.includes('Qwen2 family'), null, { timeout: 60_000 });
  await again.page.click('[data-testid="decoder-forget"]');
  await again.page.waitForFunction(() => !document.querySelector('[data-testid="decoder-stored"]'));
  assert.deepEqual(errors.concat(again.errors), [], 'no page errors');
});

test('quantized models (Q4_1, Q8_0): the page\'s integer products (wasm SIMD) answer as the native CLI\'s (AVX2), token for token', { timeout: 600_000 }, async () => {
  const { dir } = tinyModel();
  const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8'));
  const picked = [all[2], all[9], all[20]];
  const tmp = path.join(dir, 'requests-quantized.json');
  fs.writeFileSync(tmp, JSON.stringify(picked));
  for (const name of ['tiny-chat-qwen2-q4_1', 'tiny-chat-qwen2-q8_0']) {
    const model = path.join(dir, `${name}.gguf`);
    const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'routing' });
    await page.click('[data-testid="routing-sample"]');
    await page.fill('[data-testid="routing-requests"]', picked.map((r) => `${r.query} => ${r.expected}`).join('\n'));
    await page.setInputFiles('[data-testid="decoder-file"]', model);
    await page.waitForFunction(() => document.querySelector('[data-testid="decoder-model"]').textContent.includes('Qwen2 family'), null, { timeout: 60_000 });
    const rows = await runBothArms(page);
    const native = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['route', '--model', model, '--format', 'json', '--requests', tmp, path.join(root, 'web/samples/routing')], { encoding: 'utf8', cwd: root }));
    assert.equal(rows.length, native.requests.length);
    native.requests.forEach((want, i) => assert.equal(rows[i].a, want.verbatim, `${name}, request ${i}: the page's answer is the native one`));
    assert.ok(rows.some((r) => r.a.length > 8), `${name}: the answers are long enough to mean something: ${JSON.stringify(rows)}`);
    console.log(`${name}: page and native CLI give the same ${rows.length} answers, e.g. ${JSON.stringify(rows[0].a)}`);
    assert.deepEqual(errors, [], 'no page errors');
  }
});

test('a Hugging Face checkpoint (three files picked together) answers like the native CLI, and is kept', { timeout: 300_000 }, async () => {
  const { dir } = tinyModel();
  const folder = path.join(dir, 'tiny-hf-qwen2');
  const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'routing' });
  await page.click('[data-testid="routing-sample"]');
  const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8'));
  const picked = [all[1], all[27]];
  await page.fill('[data-testid="routing-requests"]', picked.map((r) => `${r.query} => ${r.expected}`).join('\n'));
  // One file alone is refused with what is missing.
  await page.setInputFiles('[data-testid="decoder-file"]', path.join(folder, 'model.safetensors'));
  assert.match(await page.textContent('[data-testid="decoder-error"]'), /config\.json and tokenizer\.json/);
  await page.setInputFiles('[data-testid="decoder-file"]', ['model.safetensors', 'config.json', 'tokenizer.json'].map((f) => path.join(folder, f)));
  await page.waitForFunction(() => document.querySelector('[data-testid="decoder-model"]').textContent.includes('Qwen2 family'), null, { timeout: 60_000 });
  const rows = await runBothArms(page);
  const tmp = path.join(dir, 'requests-hf.json');
  fs.writeFileSync(tmp, JSON.stringify(picked));
  const native = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['route', '--model', folder, '--format', 'json', '--requests', tmp, path.join(root, 'web/samples/routing')], { encoding: 'utf8', cwd: root }));
  native.requests.forEach((want, i) => assert.equal(rows[i].a, want.verbatim, `request ${i}: the page's answer is the native one`));
  // Kept as its three files, and loaded back from them.
  const again = await openPage(env.ctx, env.server.url, { view: 'routing' });
  await again.page.waitForSelector('[data-testid="decoder-stored"]', { timeout: 20_000 });
  await again.page.click('[data-testid="decoder-stored"]');
  await again.page.waitForFunction(() => document.querySelector('[data-testid="decoder-model"]').textContent.includes('Qwen2 family'), null, { timeout: 60_000 });
  assert.deepEqual(errors.concat(again.errors), [], 'no page errors');
});

test('a model by address: its size first, then a download with progress', { timeout: 300_000 }, async () => {
  const { model } = tinyModel();
  const host = await fileHost(model);
  try {
    const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'routing' });
    await page.fill('[data-testid="decoder-url"]', host.url);
    await page.click('[data-testid="decoder-size"]');
    await page.waitForFunction(() => /MB/.test(document.querySelector('[data-testid="decoder-size-text"]').textContent));
    const size = fs.statSync(model).size;
    assert.equal(await page.textContent('[data-testid="decoder-size-text"]'), `${(size / 1e6).toFixed(1)} MB`);
    await page.click('[data-testid="decoder-download"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="decoder-model"]').textContent.includes('Qwen2 family'), null, { timeout: 60_000 });
    // A relative or empty address is refused with a message.
    await page.fill('[data-testid="decoder-url"]', 'models/x.gguf');
    await page.click('[data-testid="decoder-download"]');
    assert.match(await page.textContent('[data-testid="decoder-error"]'), /full address/);
    assert.deepEqual(errors, [], 'no page errors');
  } finally {
    host.close();
  }
});

test('run on WebGPU (SwiftShader here), the worker runs the WGSL decoder and agrees with the native CLI', { timeout: 600_000 }, async () => {
  const { dir, model } = tinyModel();
  const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'routing' });
  {
    await page.click('[data-testid="routing-sample"]');
    const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8'));
    const picked = [all[2], all[9], all[20]];
    // "Run on: WebGPU" before loading: WebGPU even on a software adapter.
    await page.selectOption('[data-testid="decoder-backend"]', 'webgpu');
    await page.fill('[data-testid="routing-requests"]', picked.map((r) => `${r.query} => ${r.expected}`).join('\n'));
    await page.setInputFiles('[data-testid="decoder-file"]', model);
    await page.waitForFunction(() => document.querySelector('[data-testid="decoder-model"]').textContent.includes('Qwen2 family'), null, { timeout: 120_000 });
    const line = await page.textContent('[data-testid="decoder-model"]');
    assert.match(line, /WebGPU via wgpu \([^)]*BrowserWebGpu[^)]*\), in a worker, [\d.]+ MB of weights on the device \(F16\): chosen in the page/, `the model line says the GPU runs it: ${line}`);
    const tmp = path.join(dir, 'requests-gpu.json');
    fs.writeFileSync(tmp, JSON.stringify(picked));
    const native = (mode) => JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['route', '--model', model, '--mode', mode, '--format', 'json', '--requests', tmp, path.join(root, 'web/samples/routing')], { encoding: 'utf8', cwd: root }));

    // Constrained choice: every candidate's log-probability (a sum over its tokens of the
    // model's log-softmax) within 1e-3 of the native CPU's, and the same choice.
    await page.selectOption('[data-testid="decoder-mode"]', 'choice');
    let started = Date.now();
    await page.click('[data-testid="decoder-run"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="decoder-routes"] caption')?.textContent.startsWith('Constrained choice'), null, { timeout: 300_000 });
    const choiceMs = Date.now() - started;
    const rows = await page.$$eval('[data-testid="decoder-row"]', (trs) => trs.map((tr) => ({ choice: tr.dataset.aChoice, logProbs: JSON.parse(tr.dataset.aLogProbs) })));
    const want = native('choice');
    let worst = 0;
    want.requests.forEach((w, i) => {
      assert.equal(rows[i].logProbs.length, want.candidates.length, `a log-probability for every name and NONE (${want.candidates})`);
      assert.equal(rows[i].choice, w.choice, `request ${i}: the same choice`);
      w.log_probs.forEach((lp, j) => { worst = Math.max(worst, Math.abs(rows[i].logProbs[j] - lp)); });
    });
    console.log(`WebGPU (SwiftShader) against the native CPU: worst |Δ log p| ${worst.toExponential(2)} over ${rows.length} requests × ${rows[0].logProbs.length} candidates; both arms in ${choiceMs} ms`);
    assert.ok(worst <= 1e-3, `log-probabilities within 1e-3 of the native ones (worst ${worst})`);

    // The chapter's protocol: 24 greedy tokens a request, each the argmax of logits that agree
    // to about 1e-5, so the verbatim answers are the native ones.
    await page.selectOption('[data-testid="decoder-mode"]', 'chapter');
    started = Date.now();
    await page.click('[data-testid="decoder-run"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="decoder-routes"] caption')?.textContent.startsWith('The chapter'), null, { timeout: 300_000 });
    const chapter = await page.$$eval('[data-testid="decoder-row"]', (trs) => trs.map((tr) => ({ a: tr.dataset.aAnswer, aChoice: tr.dataset.aChoice })));
    console.log(`the chapter's protocol on WebGPU: both arms of ${chapter.length} requests in ${Date.now() - started} ms`);
    native('chapter').requests.forEach((w, i) => {
      assert.equal(chapter[i].a, w.verbatim, `request ${i} (${w.query}): WebGPU's verbatim answer is the native CPU one`);
      assert.equal(chapter[i].aChoice, w.choice);
    });
    // Still on the GPU after both runs (a failure would have moved it to the CPU and said so).
    assert.match(await page.textContent('[data-testid="decoder-model"]'), /WebGPU via wgpu/);
    await page.locator('[data-testid="decoder"]').screenshot({ path: screenshotPath('decoder/03-webgpu') });

    // "Run on" moves the loaded model to the CPU without loading it again; the answers stay.
    await page.selectOption('[data-testid="decoder-backend"]', 'cpu');
    await page.waitForFunction(() => /CPU path \(wasm SIMD, integer products for quantized weights, wasm SIMD kernel, one thread, in a worker\): chosen in the page/.test(document.querySelector('[data-testid="decoder-model"]').textContent), null, { timeout: 60_000 });
    const before = await page.textContent('[data-testid="decoder-summary"]');
    await page.click('[data-testid="decoder-run"]');
    await page.waitForFunction((old) => document.querySelector('[data-testid="decoder-summary"]')?.textContent !== old, before, { timeout: 300_000 });
    const onCpu = await page.$$eval('[data-testid="decoder-row"]', (trs) => trs.map((tr) => tr.dataset.aAnswer));
    assert.deepEqual(onCpu, chapter.map((r) => r.a), 'the CPU path gives the answers WebGPU gave');
  }
  assert.deepEqual(errors, [], 'no page errors');
});
