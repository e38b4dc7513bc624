// The Action's comment step (scripts/action-comment.mjs) against a local stub of GitHub's REST
// API on 127.0.0.1: it edits its own comment (marker and author), never someone else's comment
// that carries the marker, posts nothing when no skill changed, and turns a read-only token
// (a fork's pull request) into a notice, not a failed step. Its marker is the one
// `skillpg github` writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const script = path.join(root, 'scripts/action-comment.mjs');
const { MARKER } = await import(script);

/// A stub of the few endpoints the script calls; `comments` is the pull request's list, and
/// `writable` whether the token may write. Records every request.
async function stub({ comments = [], writable = true, login = null }) {
  const seen = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, body: body ? JSON.parse(body) : null });
      const send = (status, json) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'GET' && req.url === '/user') {
        return login ? send(200, { login }) : send(403, { message: 'Resource not accessible by integration' });
      }
      if (req.method === 'GET' && req.url.startsWith('/repos/o/r/issues/7/comments')) {
        return send(200, comments);
      }
      if (!writable) return send(403, { message: 'Resource not accessible by integration' });
      if (req.method === 'POST') return send(201, { id: 99 });
      if (req.method === 'PATCH') return send(200, { id: Number(req.url.split('/').pop()) });
      return send(404, { message: 'Not Found' });
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, seen, close: () => server.close() };
}

function run(api, env = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-comment-'));
  const body = path.join(dir, 'body.md');
  fs.writeFileSync(body, `${MARKER}\n## Skill check\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, body], {
      env: { PATH: process.env.PATH, GITHUB_API_URL: api.url, GITHUB_REPOSITORY: 'o/r', PR: '7', GH_TOKEN: 't', SKILLS: '1', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => resolve({ status, out }));
  });
}

const foreign = { id: 1, body: `${MARKER}\nplanted by someone else`, user: { login: 'mallory' } };
const own = { id: 2, body: `${MARKER}\nan earlier run`, user: { login: 'github-actions[bot]' } };

test('a comment with the marker by another author is never edited: a new one is posted', async () => {
  const api = await stub({ comments: [foreign] });
  const r = await run(api);
  api.close();
  assert.equal(r.status, 0, r.out);
  assert.ok(api.seen.some((s) => s.method === 'POST'), r.out);
  assert.ok(!api.seen.some((s) => s.method === 'PATCH'), 'the foreign comment is left alone');
});

test('its own comment is edited in place', async () => {
  const api = await stub({ comments: [foreign, own] });
  const r = await run(api);
  api.close();
  assert.equal(r.status, 0, r.out);
  const patch = api.seen.find((s) => s.method === 'PATCH');
  assert.ok(patch && patch.url.endsWith('/issues/comments/2'), JSON.stringify(api.seen));
  assert.ok(!api.seen.some((s) => s.method === 'POST'));
});

test('a personal token finds its comment by its own login', async () => {
  const mine = { id: 3, body: `${MARKER}\nx`, user: { login: 'octo' } };
  const api = await stub({ comments: [own, mine], login: 'octo' });
  await run(api);
  api.close();
  assert.ok(api.seen.find((s) => s.method === 'PATCH')?.url.endsWith('/3'), JSON.stringify(api.seen));
});

test('a read-only token is a notice, and the step passes', async () => {
  const api = await stub({ comments: [], writable: false });
  const r = await run(api);
  api.close();
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /::notice title=Skill Playground comment::the token may not comment here \(HTTP 403/);
});

test("a fork's pull request is not commented on, with a notice", async () => {
  const api = await stub({ comments: [] });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-event-'));
  const event = path.join(dir, 'event.json');
  fs.writeFileSync(event, JSON.stringify({ pull_request: { head: { repo: { full_name: 'fork/r' } }, base: { repo: { full_name: 'o/r' } } } }));
  const r = await run(api, { GITHUB_EVENT_PATH: event });
  api.close();
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /fork's pull request/);
  assert.ok(!api.seen.some((s) => s.method === 'POST' || s.method === 'PATCH'));
});

test('no skill changed: nothing is posted, but an earlier comment is brought up to date', async () => {
  let api = await stub({ comments: [] });
  let r = await run(api, { SKILLS: '0', REMOVED: '0' });
  api.close();
  assert.equal(r.status, 0, r.out);
  assert.ok(!api.seen.some((s) => s.method === 'POST'), r.out);
  api = await stub({ comments: [own] });
  r = await run(api, { SKILLS: '0', REMOVED: '0' });
  api.close();
  assert.ok(api.seen.some((s) => s.method === 'PATCH'), r.out);
  // A deletion alone is a change worth a comment.
  api = await stub({ comments: [] });
  r = await run(api, { SKILLS: '0', REMOVED: '1' });
  api.close();
  assert.ok(api.seen.some((s) => s.method === 'POST'), r.out);
});

test('the marker is the one skillpg github writes', () => {
  const bin = path.join(root, 'target/debug/skillpg');
  assert.ok(fs.existsSync(bin), `${bin} is built first (scripts/test builds it before these tests)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-marker-'));
  fs.mkdirSync(path.join(dir, 'a'));
  fs.writeFileSync(path.join(dir, 'a/SKILL.md'), '---\nname: a\ndescription: Does a when asked.\n---\n');
  const comment = path.join(dir, 'comment.md');
  const env = { ...process.env };
  delete env.GITHUB_EVENT_PATH;
  delete env.GITHUB_STEP_SUMMARY;
  delete env.GITHUB_OUTPUT;
  const r = spawnSync(bin, ['github', '--comment', comment, 'a'], { cwd: dir, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(fs.readFileSync(comment, 'utf8').split('\n')[0], MARKER);
});

/// A server that answers each request as `handle(req, res)` says (a stall, a flood).
async function hostile(handle) {
  const server = http.createServer(handle);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => { server.closeAllConnections?.(); server.close(); } };
}

test('the comment step only ever warns: an API that is down, stalls or floods does not fail the job', { timeout: 60_000 }, async () => {
  // Down: nothing listens on the port.
  const down = await hostile(() => {});
  down.close();
  let r = await run(down);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /::(notice|warning) /);
  // Stalled: the reply never comes; the step gives up after its timeout.
  const stalled = await hostile(() => {});
  const t0 = Date.now();
  r = await run(stalled, { SKILLPG_COMMENT_TIMEOUT_MS: '1500' });
  stalled.close();
  assert.equal(r.status, 0, r.out);
  assert.ok(Date.now() - t0 < 20_000, `gave up in ${Date.now() - t0} ms`);
  assert.match(r.out, /no answer within/);
  // Flooded: a reply of endless bytes is cut at the bound.
  const flood = await hostile((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1 << 20, 0x20);
    const write = () => { while (res.write(chunk)); };
    res.on('drain', write);
    write();
  });
  r = await run(flood);
  flood.close();
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /over 4 MB/);
});
