#!/usr/bin/env node
// Timed page benchmark in headless Chromium (SwiftShader; no GPU), for BENCHMARKS.md:
// - first render of the page on localhost (first contentful paint, and every view built), fresh
//   profile, as the machine is and with Chromium on one core while the other is busy;
// - the full report (analysis + four profiles) of vercel-react-best-practices after load;
// - o200k_base tokenization: the page's wasm against gpt-tokenizer and js-tiktoken, in the
//   same browser, on the same text (the corpus' largest file, react-best-practices/AGENTS.md);
// - the size of the wasm and its assets, gzip.
// Usage: node scripts/bench-page.mjs [runs]   (after scripts/build-web)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import zlib from 'node:zlib';
import { browser, corpus, fillEditor, keystrokesDuringRouting, root, serve, showView } from '../tests/e2e/harness.mjs';

const runs = Number(process.argv[2] || 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const benchDir = path.join(root, 'target/bench-page');
fs.mkdirSync(benchDir, { recursive: true });
fs.writeFileSync(path.join(benchDir, 'base64-shim.js'),
  'export function toByteArray(s) { const b = atob(s); const a = new Uint8Array(b.length); for (let i = 0; i < b.length; i++) a[i] = b.charCodeAt(i); return a; }\n' +
  'export function fromByteArray(a) { let s = ""; for (const x of a) s += String.fromCharCode(x); return btoa(s); }\nexport default { toByteArray, fromByteArray };\n');
fs.writeFileSync(path.join(benchDir, 'bench.html'), `<!doctype html><meta charset="utf-8"><title>bench</title>
<script type="importmap">{"imports": {"base64-js": "/target/bench-page/base64-shim.js"}}</script>
<script type="module">
import init, { count_tokens } from '/dist/skillpg_app.js';
import { encode as gptEncode } from '/node_modules/gpt-tokenizer/esm/encoding/o200k_base.js';
import { Tiktoken } from '/node_modules/js-tiktoken/dist/lite.js';
import o200k from '/node_modules/js-tiktoken/dist/ranks/o200k_base.js';
await init({ module_or_path: '/dist/skillpg_app_bg.wasm' });
const time = (f) => { const t = performance.now(); const r = f(); return [performance.now() - t, r]; };
window.runTokenizers = (text, runs) => {
  const out = {};
  const make = { wasm: () => (t) => count_tokens(t), 'gpt-tokenizer': () => (t) => gptEncode(t).length, 'js-tiktoken': () => { const enc = new Tiktoken(o200k); return (t) => enc.encode(t).length; } };
  for (const [name, build] of Object.entries(make)) {
    const [buildMs, fn] = time(build);
    const [firstMs, count] = time(() => fn(text));
    const times = [];
    for (let i = 0; i < runs; i++) times.push(time(() => fn(text))[0]);
    times.sort((a, b) => a - b);
    out[name] = { buildMs, firstMs, count, medianMs: times[Math.floor(times.length / 2)], fn };
  }
  // The ratio as a median over alternating pairs (wasm, then gpt-tokenizer, run after run), so
  // that a slow moment of the machine hits both sides of a pair.
  const ratios = [];
  for (let i = 0; i < runs * 3; i++) {
    const [w] = time(() => out.wasm.fn(text));
    const [g] = time(() => out['gpt-tokenizer'].fn(text));
    ratios.push(g / w);
  }
  ratios.sort((a, b) => a - b);
  out.pairRatio = ratios[Math.floor(ratios.length / 2)];
  for (const v of Object.values(out)) if (v && v.fn) delete v.fn;
  return out;
};
window.benchReady = true;
</script>`);

const server = await serve(root);
const results = {};

// First render, fresh profile each time: the page's first contentful paint (in the page, from
// navigation start: the body is empty until the app mounts, so it is the app's first frame,
// with the checks and the levels), and the wall time until every view is built
// (`data-built`). Twice: the machine as it is, then Chromium held to core 0 while a busy loop
// holds core 1 (issue 18's "one core of this machine with the other core busy").
const firstRender = async (label) => {
  console.error(`== first render, ${label}`);
  const paint = [], built = [];
  for (let i = 0; i < runs; i++) {
    const ctx = await browser();
    const page = await ctx.newPage();
    const t = Date.now();
    await page.goto(server.url + 'dist/index.html');
    await page.waitForSelector('[data-built]');
    built.push(Date.now() - t);
    paint.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime));
    await ctx.close();
  }
  return { paintMs: Math.round(median(paint)), builtMs: median(built), paints: paint.map(Math.round) };
};
results.firstRender = await firstRender('as the machine is');
{
  // The affinity of this process's threads passes to the browsers it launches from now on.
  const all = execFileSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' }).trim().split(' ').pop();
  execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const busy = spawn('taskset', ['-c', '1', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    results.firstRenderOneCore = await firstRender('one core, the other busy');
  } finally {
    busy.kill();
    execFileSync('taskset', ['-a', '-p', all, String(process.pid)], { stdio: 'ignore' });
  }
}

console.error('== full report');
// Full report of react-best-practices, recomputed by renaming its folder (the report depends on
// the skills alone).
{
  const ctx = await browser();
  const page = await ctx.newPage();
  await page.goto(server.url + 'dist/index.html');
  await page.waitForSelector('[data-built]');
  await page.click('[data-testid="clear"]');
  await page.setInputFiles('[data-testid="folder-input"]', path.join(corpus, 'vercel-labs__agent-skills/react-best-practices'));
  await page.waitForFunction(() => document.querySelector('[data-testid="levels-table"] tbody tr td')?.textContent === '68');
  const times = [];
  for (let i = 0; i < runs; i++) {
    await page.fill('[data-testid="dir-name"]', i % 2 === 0 ? 'react-best-practices-x' : 'react-best-practices');
    await page.waitForTimeout(50);
    const text = await page.textContent('footer');
    times.push(Number(text.match(/Report in ([\d.]+) ms/)[1]));
  }
  results.reactBestPracticesReportMs = median(times);
  await ctx.close();
}

/**
 * Times keystrokes in the editor's name line, from keydown to the first frame that shows the
 * finding they change: `X` breaks the name (SPG038 appears), Backspace mends it (it goes).
 * `after` runs after each, before the pause that lets the page settle.
 */
async function nameKeystrokes(page, after = async () => {}) {
  const times = [];
  for (let i = 0; i < Math.max(runs, 9); i++) {
    const broken = i % 2 === 0;
    await page.evaluate((brk) => {
      window.__shown = null;
      const shown = () => (document.querySelector('[data-testid="diagnostic"][data-code="SPG038"]') !== null) === brk;
      const obs = new MutationObserver(() => {
        if (shown()) { obs.disconnect(); requestAnimationFrame(() => { window.__shown = performance.now(); }); }
      });
      obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    }, broken);
    await page.keyboard.press(broken ? 'X' : 'Backspace');
    await page.waitForFunction(() => window.__shown !== null, null, { timeout: 20_000 });
    times.push(await page.evaluate(() => window.__shown - window.__keydown));
    await after();
    await page.waitForTimeout(450);
  }
  return times;
}

console.error('== a keystroke to its findings in an 8 KB and a 100 KB SKILL.md');
// Twenty clients in the matrix (their gates), every rule of the chosen one: each keystroke (one
// character typed into the name, alternately breaking and mending it) is timed inside the page
// from keydown to the first frame that shows the findings it changes.
{
  const ctx = await browser();
  const page = await ctx.newPage();
  await page.goto(server.url + 'dist/index.html');
  await page.waitForSelector('[data-built]');
  results.keystrokeBySize = {};
  for (const kb of [8, 100]) {
    await page.click('[data-testid="clear"]');
    await page.click('[data-testid="sample-release-notes"]');
    const paragraph = 'Write release notes from the merged pull requests; group them by area and link each one.\n\n';
    const head = '---\nname: release-notes\ndescription: Writes release notes. Use when a release is cut.\n---\n';
    const text = head + paragraph.repeat(Math.ceil((kb * 1024 - head.length) / paragraph.length));
    await fillEditor(page, text);
    await page.waitForTimeout(500);
    await page.evaluate(() => {
      const ed = globalThis.skillpgEditor.current;
      const at = ed.text().indexOf('\n', 4);
      ed.select(at, at);
      document.addEventListener('keydown', () => { window.__keydown = performance.now(); }, true);
    });
    const times = await nameKeystrokes(page);
    results.keystrokeBySize[kb] = median(times);
    console.error(`   ${kb} KB: ${median(times).toFixed(1)} ms (${times.map((t) => t.toFixed(0)).join(', ')})`);
  }
  await ctx.close();
}

console.error('== a keystroke to its findings with 1,051 skills loaded');
// Issue 46, item 7: a workspace of 1,051 skills (generated: a name, a description, a body),
// the first one open in the editor; each keystroke breaks or mends its name as above.
{
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-bench-many-'));
  for (let i = 0; i < 1051; i++) {
    const name = `generated-skill-${String(i).padStart(4, '0')}`;
    fs.mkdirSync(path.join(top, name));
    fs.writeFileSync(path.join(top, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Handles task number ${i} of the generated set. Use when someone asks for task ${i}.\n---\n\n# Task ${i}\n\nDo task ${i} in three steps.\n`);
  }
  const ctx = await browser();
  const page = await ctx.newPage();
  await page.goto(server.url + 'dist/index.html');
  await page.waitForSelector('[data-built]');
  await page.click('[data-testid="clear"]');
  await page.setInputFiles('[data-testid="folder-input"]', top);
  await page.waitForFunction(() => document.querySelector('[data-testid="catalog"]')?.dataset.count === '1051', null, { timeout: 120_000 });
  await page.waitForTimeout(1000);
  await page.evaluate(() => {
    const ed = globalThis.skillpgEditor.current;
    const at = ed.text().indexOf('\n', 4);
    ed.select(at, at);
    document.addEventListener('keydown', () => { window.__keydown = performance.now(); }, true);
  });
  const engine = [];
  const times = await nameKeystrokes(page, async () => engine.push(await page.evaluate(() => parseFloat(/([\d.]+) ms/.exec(document.querySelector('.statusbar .elapsed').textContent)[1]))));
  results.keystrokeMany = median(times);
  results.keystrokeManyEngine = median(engine);
  console.error(`   1,051 skills: ${median(times).toFixed(1)} ms (${times.map((t) => t.toFixed(0)).join(', ')}), the engine's share ${median(engine).toFixed(1)} ms`);
  await ctx.close();
  fs.rmSync(top, { recursive: true, force: true });
}

console.error('== typing after a 5 MB paste');
// Typing after a large paste: a 5 MB SKILL.md is pasted once, then each keystroke (one
// character typed into the name, alternately breaking and fixing it) is timed until the
// findings show the change. Measures the whole path: input, state, analysis, four profiles, DOM.
{
  const ctx = await browser();
  const page = await ctx.newPage();
  await page.goto(server.url + 'dist/index.html');
  await page.waitForSelector('[data-built]');
  await page.click('[data-testid="clear"]');
  await page.click('[data-testid="sample-release-notes"]');
  const paragraph = 'Write release notes from the merged pull requests; group them by area and link each one.\n\n';
  const body = paragraph.repeat(Math.ceil((5 * 1024 * 1024) / paragraph.length));
  const head = '---\nname: release-notes\ndescription: Writes release notes. Use when a release is cut.\n---\n';
  // A real paste, through the browser's text input (as the clipboard and input methods insert),
  // not by setting the value: from the insert to the findings of the pasted text. Each run
  // pastes over the sample's text, selected. (Not over a 5 MB selection: Chromium's painting of
  // a selection that spans megabytes of a textarea is itself superlinear, 1.1 s at 2 MB on a bare
  // page, and does not finish at 5 MB.)
  const pastes = [];
  for (let i = 0; i < Math.min(runs, 5); i++) {
    await page.click('[data-testid="clear"]');
    await page.click('[data-testid="sample-release-notes"]');
    await page.focus('[data-testid="editor"]');
    await page.keyboard.press('Control+A');
    const pasteStart = Date.now();
    await page.keyboard.insertText(head + body);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="levels-table"] tbody tr td:nth-child(3)')?.textContent.replace(/,/g, '')) > 1000000, null, { timeout: 300000, polling: 'raf' });
    pastes.push(Date.now() - pasteStart);
    console.error(`   paste ${i}: ${pastes[i]} ms`);
  }
  results.paste5MbMs = median(pastes);
  // Real keystrokes at the end of the name line: `X` breaks the name, Backspace mends it.
  await page.evaluate(() => {
    const ed = globalThis.skillpgEditor.current;
    const at = ed.text().indexOf('\n', 4);
    ed.select(at, at);
  });
  const times = [];
  for (let i = 0; i < runs; i++) {
    const broken = i % 2 === 0;
    const t0 = await page.evaluate(() => performance.now());
    await page.keyboard.press(broken ? 'X' : 'Backspace');
    await page.waitForFunction((brk) => (document.querySelector('[data-testid="diagnostic"][data-code="SPG038"]') !== null) === brk, broken, { timeout: 60000, polling: 'raf' });
    times.push((await page.evaluate(() => performance.now())) - t0);
  }
  // The browser's own cost of a keystroke in a 5 MB textarea, on a bare page: the floor.
  const bare = await ctx.newPage();
  await bare.setContent('<textarea id=t rows=22 style="width:600px"></textarea><p id=o></p>');
  await bare.evaluate((t) => {
    const ed = document.getElementById('t');
    ed.value = t;
    ed.addEventListener('input', () => { document.getElementById('o').textContent = String(ed.value.length); });
    ed.focus();
    ed.setSelectionRange(40, 40);
  }, head + body);
  const bareTimes = [];
  for (let i = 0; i < runs; i++) {
    const t0 = await bare.evaluate(() => { document.getElementById('o').textContent = ''; return performance.now(); });
    await bare.keyboard.press(i % 2 === 0 ? 'X' : 'Backspace');
    await bare.waitForFunction(() => document.getElementById('o').textContent !== '', null, { polling: 'raf' });
    bareTimes.push((await bare.evaluate(() => performance.now())) - t0);
  }
  results.keystrokeBare5MbMs = median(bareTimes);
  console.error(`   keystrokes: ${results.keystrokeBare5MbMs} ms bare, ${median(times)} ms in the page`);
  // The browser's own floor for a 5 MB paste: a bare textarea given the text (the layout of
  // 5 MB of lines), then one frame.
  const bareInserts = [];
  for (let i = 0; i < Math.min(runs, 5); i++) {
    bareInserts.push(await bare.evaluate(async (t) => {
      const ed = document.getElementById('t');
      ed.value = 'short';
      ed.select();
      const t0 = performance.now();
      ed.setRangeText(t + (Math.random() < 2 ? '' : 'x'), 0, ed.value.length, 'end');
      await new Promise((r) => requestAnimationFrame(() => r()));
      return performance.now() - t0;
    }, head + body));
  }
  results.pasteBare5MbMs = median(bareInserts);
  results.keystrokeAfter5MbMs = median(times);
  await ctx.close();
}

console.error('== routing');
// Routing in the page (the backend it picks here: SwiftShader is software, so the CPU path):
// the sample set's 28 requests over its 6 skills. The first run includes loading the int8
// model; later runs embed 28 new requests (each run's requests differ, so nothing is cached).
if (fs.existsSync(path.join(root, 'dist/model/minilm-i8.spgm'))) {
  const ctx = await browser();
  const page = await ctx.newPage();
  await page.goto(server.url + 'dist/index.html');
  await page.waitForSelector('[data-built]');
  await showView(page, 'routing');
  await page.click('[data-testid="routing-sample"]');
  const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/requests.json'), 'utf8'));
  const routeOnce = async (suffix) => {
    await page.fill('[data-testid="routing-requests"]', all.map((r) => `${r.query}${suffix} => ${r.expected}`).join('\n'));
    const t0 = Date.now();
    await page.click('[data-testid="routing-run"]');
    // The run's own lines ("Embedding: …") first, then its result: two runs can end with the
    // same line to the millisecond, so comparing with the line before is not enough.
    await page.waitForFunction(() => !/Routed the requests/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 300000 });
    await page.waitForFunction(() => /Routed the requests/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 300000 });
    const status = await page.textContent('[data-testid="status"]');
    return { wall: Date.now() - t0, ms: Number(status.match(/in (\d+) ms/)[1]) };
  };
  results.routingFirst = await routeOnce('');
  const later = [];
  for (let i = 0; i < Math.min(runs, 5); i++) later.push((await routeOnce(` (run ${i})`)).ms);
  results.routing28Ms = median(later);
  results.routingBackend = await page.textContent('[data-testid="routing-backend"]');
  // A keystroke while the worker embeds 224 requests: to the findings, and the main thread's
  // longest task meanwhile (the browser test holds that under 1 s; the target here is 100 ms).
  const keys = [];
  const longest = [];
  for (let i = 0; i < Math.min(runs, 3); i++) {
    const r = await keystrokesDuringRouting(page);
    keys.push(...r.times);
    longest.push(Math.max(0, ...r.longTasks));
  }
  results.keystrokeDuringRoutingMs = median(keys);
  results.keystrokeDuringRoutingMaxMs = Math.max(...keys);
  results.longestTaskDuringRoutingMs = Math.max(...longest);
  await ctx.close();
}

console.error('== tokenizers');
// Tokenizers on the same text.
{
  const text = fs.readFileSync(path.join(corpus, 'vercel-labs__agent-skills/react-best-practices/AGENTS.md'), 'utf8');
  const ctx = await browser();
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error('pageerror', String(e)));
  await page.goto(server.url + 'target/bench-page/bench.html');
  await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60000 });
  results.tokenizers = await page.evaluate(([t, r]) => window.runTokenizers(t, r), [text, runs]);
  results.tokenizerText = { bytes: Buffer.byteLength(text), tokens: results.tokenizers.wasm.count };
  await ctx.close();
}
server.stop();

const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(root, 'dist', f)), { level: 9 }).length;
results.gzipBytes = Object.fromEntries(['skillpg_app_bg.wasm', 'skillpg_app.js', 'editor.js', 'style.css', 'boot.js', 'index.html', 'sw.js'].map((f) => [f, gz(f)]));
results.gzipTotal = Object.values(results.gzipBytes).reduce((a, b) => a + b, 0);
// The routing model's worker, fetched only when a person routes (the weights come on top).
results.gzipWorker = ['worker.js', 'skillpg_worker.js', 'skillpg_worker_bg.wasm'].map(gz).reduce((a, b) => a + b, 0);
fs.writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify(results, null, 2));

const t = results.tokenizers;
const best = Math.min(t['gpt-tokenizer'].medianMs, t['js-tiktoken'].medianMs);
console.log(`| measure (headless Chromium, SwiftShader, ${runs} runs, median) | value | target |`);
console.log('|---|---|---|');
for (const [what, r, target] of [['as the machine is', results.firstRender, 'under 1 s'], ['one core, the other busy', results.firstRenderOneCore, 'under 700 ms']]) {
  console.log(`| first render on localhost, ${what}: first contentful paint (fresh profile) | ${r.paintMs} ms (${r.paints.join(', ')}) | ${target} |`);
  console.log(`| every view built (goto to \`data-built\`), ${what} | ${r.builtMs} ms | |`);
}
console.log(`| full report, vercel-react-best-practices (75 files, 4 profiles) | ${results.reactBestPracticesReportMs.toFixed(1)} ms | under 50 ms |`);
for (const [name, r] of Object.entries(t).filter(([, r]) => typeof r === "object")) {
  console.log(`| o200k ${name}: ${results.tokenizerText.tokens} tokens (${results.tokenizerText.bytes} bytes) | ${r.medianMs.toFixed(2)} ms (build ${r.buildMs.toFixed(0)} ms, first ${r.firstMs.toFixed(0)} ms, count ${r.count}) | |`);
}
console.log(`| wasm speed-up over the fastest JS tokenizer | ${(best / t.wasm.medianMs).toFixed(2)}× | at least 2× |`);
console.log(`| wasm over gpt-tokenizer, median of ${runs * 3} alternating pairs | ${t.pairRatio.toFixed(2)}× | at least 2× |`);
console.log(`| a keystroke to its findings, 8 KB SKILL.md, 20 clients (gates) + the chosen one (every rule) | ${results.keystrokeBySize[8].toFixed(0)} ms | ≤ 30 ms |`);
console.log(`| the same, 100 KB SKILL.md | ${results.keystrokeBySize[100].toFixed(0)} ms | ≤ 50 ms |`);
console.log(`| a keystroke to its findings with 1,051 skills loaded (the engine's share: analysis and every client's checks; the catalog follows a frame later) | ${results.keystrokeMany.toFixed(0)} ms (${results.keystrokeManyEngine.toFixed(0)} ms) | ≤ 50 ms |`);
console.log(`| a keystroke in a 5 MB SKILL.md, to the findings (input, analysis, 4 profiles, DOM) | ${results.keystrokeAfter5MbMs.toFixed(0)} ms | editor stays responsive |`);
console.log(`| the same keystroke in a bare page's 5 MB textarea (the browser's own floor) | ${results.keystrokeBare5MbMs.toFixed(0)} ms | |`);
console.log(`| a 5 MB paste (insertText over a selection), to its findings | ${results.paste5MbMs.toFixed(0)} ms | about 2 s |`);
console.log(`| the same 5 MB put into a bare page's textarea, to the next frame (the browser's own floor) | ${results.pasteBare5MbMs.toFixed(0)} ms | |`);
if (results.routing28Ms) {
  console.log(`| routing, first run: model load (int8) + 12 descriptions + 28 requests (${results.routingBackend}) | ${results.routingFirst.wall} ms | SwiftShader run ≤ 6 s |`);
  console.log(`| routing, 28 new requests (descriptions cached) | ${results.routing28Ms.toFixed(0)} ms, ${(results.routing28Ms / 28).toFixed(1)} ms a request | ≤ 12 ms a request |`);
  console.log(`| a keystroke during a routing run (224 requests in the worker), to the findings: median | ${results.keystrokeDuringRoutingMs.toFixed(0)} ms (worst ${results.keystrokeDuringRoutingMaxMs.toFixed(0)} ms) | under 100 ms |`);
  console.log(`| the page's longest main-thread task during those runs | ${results.longestTaskDuringRoutingMs.toFixed(0)} ms | under 1 s (browser test) |`);
}
console.log(`| wasm + assets, gzip -9 | ${(results.gzipTotal / 1e6).toFixed(2)} MB | under 2.5 MB |`);
console.log(`| the routing worker (JS + wasm), gzip -9, fetched on the first routing run | ${(results.gzipWorker / 1e6).toFixed(2)} MB | |`);
