#!/usr/bin/env node
// llama.cpp's side of the native decoder benchmark: node-llama-cpp's prebuilt binary (npm; its
// ggml picks the CPU variant for this machine's features at load), one thread by default, on the
// same GGUF and the same prompt text as `cargo run --release -p skillpg-decoder --example bench`,
// which runs this script when node-llama-cpp is installed (`scripts/install-peers`).
// Prints one JSON line: prompt tokens, prefill and decode seconds, the CPU variant's name.
// Usage: node scripts/peer-llama-cpp.mjs MODEL.gguf PROMPT_FILE [DECODE_STEPS] [THREADS] [best|avx2|avx512] [RUNS]
// (avx2, avx512: the installs in target/peers-avx2 and target/peers-avx512, where only llama.cpp's
// AVX2 or AVX-512 CPU variant is left).
import fs from 'node:fs';
import path from 'node:path';
import url from 'node:url';

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), '..');
const [model, promptFile, stepsArg, threadsArg, variant, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 1);
const steps = Number(stepsArg || 32);
const threads = Number(threadsArg || 1);
const install = { avx2: 'target/peers-avx2', avx512: 'target/peers-avx512' }[variant] ?? 'target/peers';
const entry = path.join(root, install, 'node_modules/node-llama-cpp/dist/index.js');
if (!fs.existsSync(entry)) {
  console.log(JSON.stringify({ missing: 'node-llama-cpp is not installed: bash scripts/install-peers' }));
  process.exit(0);
}
const { getLlama, LlamaLogLevel } = await import(url.pathToFileURL(entry).href);
const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: threads });
const loaded = await llama.loadModel({ modelPath: model, gpuLayers: 0 });
const context = await loaded.createContext({ contextSize: 2048, batchSize: 512, threads: { ideal: threads, min: threads }, sequences: 1 });
const sequence = context.getSequence();
const tokens = loaded.tokenize(fs.readFileSync(promptFile, 'utf8'), true);
// The first token out of `evaluate` ends the prompt's prefill (its last position's logits, as
// ours); each later token is one decode step, greedy. RUNS times from an empty cache; medians.
const prefills = [];
const decodes = [];
for (let run = 0; run < runs; run++) {
  await sequence.clearHistory();
  const generator = sequence.evaluate(tokens, { temperature: 0 });
  let t = performance.now();
  await generator.next();
  prefills.push((performance.now() - t) / 1000);
  t = performance.now();
  for (let i = 0; i < steps; i++) await generator.next();
  decodes.push((performance.now() - t) / 1000);
  await generator.return();
}
const median = (v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)];
const prefillS = median(prefills);
const decodeS = median(decodes);
console.log(JSON.stringify({ engine: `llama.cpp ${llama.llamaCppRelease?.release ?? ''} (node-llama-cpp, ${llama.cpuMathCores ?? '?'} math cores)`.trim(), cpu: llama.systemInfo?.split('|').map((s) => s.trim()).filter((s) => /= 1/.test(s)).join(' ') ?? '', threads, promptTokens: tokens.length, prefillS, decodeSteps: steps, decodeS }));
await context.dispose();
await loaded.dispose();
await llama.dispose();
