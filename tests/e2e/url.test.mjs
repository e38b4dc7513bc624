// Loading from a URL: a GitHub folder address is listed through the contents API and read from
// the raw host, both mimicked here by a local server (the page takes both bases from local
// storage). Also: a plain SKILL.md address keeps its folder's name, Enter loads, an empty
// address and the rate limit get messages, and an oversized file is refused.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { browser, openPage, screenshotPath, serve } from './harness.mjs';

let server;
let ctx;
let mock;
let mockUrl;
const requests = [];

const SKILL = '---\nname: demo-skill\ndescription: Formats tables. Use when the user pastes CSV; see references/guide.md.\n---\n# Demo\n\nRead [the guide](references/guide.md).\n';
const GUIDE = '# Guide\n\nEvery column is a field.\n';
const TREE = {
  'skills/demo-skill': [
    { path: 'skills/demo-skill/SKILL.md', type: 'file', size: SKILL.length },
    { path: 'skills/demo-skill/references', type: 'dir', size: 0 },
  ],
  'skills/demo-skill/references': [{ path: 'skills/demo-skill/references/guide.md', type: 'file', size: GUIDE.length }],
};
const RAW = { 'skills/demo-skill/SKILL.md': SKILL, 'skills/demo-skill/references/guide.md': GUIDE, 'plain/other-skill/SKILL.md': SKILL.replace('demo-skill', 'other-skill') };

function startMock() {
  return new Promise((resolve) => {
    mock = http.createServer((req, res) => {
      requests.push(req.url);
      const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'x-ratelimit-remaining, x-ratelimit-reset' };
      const url = new URL(req.url, 'http://x');
      let m = url.pathname.match(/^\/api\/repos\/o\/r\/contents\/(.*)$/);
      if (m) {
        if (m[1].startsWith('limited')) {
          res.writeHead(403, { ...cors, 'content-type': 'application/json', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 600) });
          return res.end('{"message":"API rate limit exceeded"}');
        }
        const listing = TREE[decodeURIComponent(m[1])];
        res.writeHead(listing ? 200 : 404, { ...cors, 'content-type': 'application/json', 'x-ratelimit-remaining': '59' });
        return res.end(JSON.stringify(listing ?? { message: 'Not Found' }));
      }
      m = url.pathname.match(/^\/raw\/o\/r\/main\/(.*)$/);
      if (m && m[1] === 'huge/SKILL.md') {
        res.writeHead(200, { ...cors, 'content-length': String(64 * 1024 * 1024) });
        return res.end();
      }
      if (m && RAW[decodeURIComponent(m[1])] !== undefined) {
        res.writeHead(200, { ...cors, 'content-type': 'text/plain' });
        return res.end(RAW[decodeURIComponent(m[1])]);
      }
      res.writeHead(404, cors);
      res.end('not found');
    });
    mock.listen(0, '127.0.0.1', () => {
      mockUrl = `http://127.0.0.1:${mock.address().port}`;
      resolve();
    });
  });
}

before(async () => {
  server = await serve();
  await startMock();
  ctx = await browser();
  await ctx.addInitScript(([api, raw]) => {
    localStorage.setItem('skillpg-github-api', api);
    localStorage.setItem('skillpg-github-raw', raw);
  }, [`${mockUrl}/api`, `${mockUrl}/raw`]);
});

after(async () => {
  await ctx?.close();
  server?.stop();
  mock?.close();
});

async function open() {
  const opened = await openPage(ctx, server.url);
  await opened.page.click('[data-testid="clear"]');
  return opened;
}

const status = (page) => page.textContent('[data-testid="status"]');

describe('loading from a URL', () => {
  test('a GitHub folder address loads the whole folder under its own name, with Enter', async () => {
    const { page, errors } = await open();
    await page.fill('#url-input', 'https://github.com/o/r/tree/main/skills/demo-skill');
    await page.press('#url-input', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="levels-table"] tbody tr').length === 1);
    const files = Number((await page.locator('[data-testid="levels-table"] tbody tr td').nth(3).textContent()).replace(/,/g, ''));
    assert.equal(files, 1, 'references/guide.md came along');
    assert.equal(await page.locator('[data-testid="diagnostic"][data-code="SPG038"]').count(), 0, 'no false name/folder mismatch');
    assert.equal(await page.locator('[data-testid="diagnostic"][data-code="SPG063"]').count(), 0, 'the linked guide resolves');
    assert.ok(requests.some((r) => r.startsWith('/api/repos/o/r/contents/skills/demo-skill/references')), 'the sub-folder was listed');
    await page.screenshot({ path: screenshotPath('10-url-folder'), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a plain SKILL.md address keeps its folder; empty, rate-limited and oversized addresses get messages', async () => {
    const { page, errors } = await open();
    await page.fill('#url-input', `${mockUrl}/raw/o/r/main/plain/other-skill/SKILL.md`);
    await page.click('[data-testid="url-load"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="levels-table"] tbody tr').length === 1);
    assert.equal(await page.locator('[data-testid="diagnostic"][data-code="SPG038"]').count(), 0, 'the folder is other-skill, as its name says');

    await page.fill('#url-input', '');
    await page.press('#url-input', 'Enter');
    assert.match(await status(page), /address .* first/);
    assert.equal(await page.locator('[data-testid="levels-table"] tbody tr').count(), 1, 'the page itself was not loaded as a skill');

    await page.fill('#url-input', 'https://github.com/o/r/tree/main/limited');
    await page.press('#url-input', 'Enter');
    await page.waitForFunction(() => /rate limit/.test(document.querySelector('[data-testid="status"]').textContent));
    assert.match(await status(page), /rate limit is spent.*resets in about 10 minute/);

    await page.fill('#url-input', 'https://github.com/o/r/blob/main/huge/SKILL.md');
    await page.press('#url-input', 'Enter');
    await page.waitForFunction(() => /MB allowed/.test(document.querySelector('[data-testid="status"]').textContent));
    assert.match(await status(page), /64 MB, over the 16 MB allowed/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
