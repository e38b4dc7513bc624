// Shared helpers of the browser tests: a static server for dist/ on a free loopback port, and
// Debian's Chromium driven by playwright-core (which never downloads a browser) with WebGPU
// on SwiftShader enabled.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = path.join(root, 'dist');
export const corpus = path.resolve(root, '../shared/corpus');
export const artifacts = path.join(root, 'target/e2e-artifacts');

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-unsafe-webgpu',
];

async function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/// Serves `dir` on loopback; returns { url, stop }.
export async function serve(dir = dist) {
  if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`${dir}/index.html is missing: run scripts/build-web first`);
  const port = await freePort();
  const proc = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) break;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, stop: () => proc.kill() };
}

/// A fresh browser context (its own profile directory, so storage starts empty).
export async function browser() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-udd-'));
  return chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
}

export function screenshotPath(name) {
  const file = path.join(artifacts, `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/// Opens `url` in a new page of `context` and waits until every view is built (`data-built`:
/// the views below the levels come a frame after the first paint); returns the page and the
/// list its uncaught errors are collected into.
export async function openPage(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('[data-built]');
  return { page, errors };
}

/// Registers the usual hooks of a test file: a server for dist/ and a browser context before
/// the tests, both closed after; returns an object whose `server` and `ctx` are set by then.
export function serveAndBrowse() {
  const env = {};
  before(async () => {
    env.server = await serve();
    env.ctx = await browser();
  });
  after(async () => {
    await env.ctx?.close();
    env.server?.stop();
  });
  return env;
}
