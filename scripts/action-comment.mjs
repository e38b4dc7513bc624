#!/usr/bin/env node
// The GitHub Action's pull-request comment: posts the body file once, then edits that comment in
// place on every later run, so a pull request holds one Skill Playground comment however often
// it is pushed. Node (on every GitHub runner) and GitHub's REST API, nothing else.
//
// Its own comment is the one whose body opens with the marker AND whose author is this token's
// identity (`GET /user` where the token may read it, else COMMENT_AUTHOR, github-actions[bot]
// for the workflow's token): a comment someone else wrote with the marker is never edited.
// It never fails the job over the comment: a fork's pull request (whose token is read-only),
// a token without pull-requests: write, or an API error is a notice, and the job summary still
// holds the whole report. No skill checked and no earlier comment: nothing is posted.
//
// Environment: GH_TOKEN, GITHUB_REPOSITORY, PR (the pull request's number), GITHUB_API_URL
// (GitHub's, or a stub's in the tests), GITHUB_EVENT_PATH (to tell a fork), SKILLS and REMOVED
// (the check's outputs), COMMENT_AUTHOR. Argument: the body file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The marker `skillpg github` opens the body with (skillpg_report::github::COMMENT_MARKER;
// tests/ci/comment.test.mjs holds the two equal).
export const MARKER = '<!-- skillpg-action -->';
// GitHub refuses a longer comment body (HTTP 422).
export const MAX_COMMENT_CHARS = 65_536;

const notice = (message) => console.log(`::notice title=Skill Playground comment::${message}`);

// Each request gives up after this long (a stalled reply would hold the job), and reads at
// most this much of a reply (a comment list page is about 100 KB).
export const REQUEST_TIMEOUT_MS = Number(process.env.SKILLPG_COMMENT_TIMEOUT_MS || 20_000);
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/// One call of GitHub's API. Never throws: an unreachable API, a timeout or a reply past
/// MAX_REPLY_BYTES is `{ status: 0, error }`, which the caller turns into a notice.
async function api(method, path, body) {
  const base = (process.env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, '');
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${process.env.GH_TOKEN || ''}`,
        'x-github-api-version': '2022-11-28',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await readBounded(res);
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, json, link: res.headers.get('link') || '' };
  } catch (e) {
    const why = e?.name === 'TimeoutError' ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` : String(e?.message || e);
    return { status: 0, error: why, json: null, link: '' };
  }
}

/// A reply's text, read up to MAX_REPLY_BYTES (past it the read stops and it is an error).
async function readBounded(res) {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > MAX_REPLY_BYTES) {
      await reader.cancel();
      throw new Error(`a reply over ${MAX_REPLY_BYTES / 1024 / 1024} MB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/// Whether the event is a pull request from a fork (its token cannot write to the base).
function fromFork() {
  const file = process.env.GITHUB_EVENT_PATH;
  if (!file || !fs.existsSync(file)) return false;
  try {
    const pr = JSON.parse(fs.readFileSync(file, 'utf8')).pull_request;
    const head = pr?.head?.repo?.full_name;
    const base = pr?.base?.repo?.full_name;
    return Boolean(head && base && head !== base);
  } catch {
    return false;
  }
}

async function me() {
  const user = await api('GET', '/user');
  if (user.status === 200 && user.json?.login) return user.json.login;
  return process.env.COMMENT_AUTHOR || 'github-actions[bot]';
}

async function ownComment(repo, pr, author) {
  for (let page = 1; page <= 50; page++) {
    const got = await api('GET', `/repos/${repo}/issues/${pr}/comments?per_page=100&page=${page}`);
    if (got.status !== 200 || !Array.isArray(got.json)) {
      return { error: got.status ? `HTTP ${got.status}` : got.error || 'no answer' };
    }
    const mine = got.json.find(
      (c) => typeof c.body === 'string' && c.body.startsWith(MARKER) && c.user?.login === author,
    );
    if (mine) return { id: mine.id };
    if (got.json.length < 100 || !got.link.includes('rel="next"')) return {};
  }
  return {};
}

export async function main(bodyFile) {
  const repo = process.env.GITHUB_REPOSITORY;
  const pr = process.env.PR;
  if (!repo || !pr) {
    notice('not a pull request: no comment');
    return 0;
  }
  if (fromFork()) {
    notice("a fork's pull request gets a read-only token, so no comment is posted; the job summary has the report");
    return 0;
  }
  let body = fs.readFileSync(bodyFile, 'utf8');
  if ([...body].length > MAX_COMMENT_CHARS) {
    // `skillpg github` keeps within the limit; this is the last guard, not the plan.
    body = [...body].slice(0, MAX_COMMENT_CHARS - 200).join('') +
      '\n\n_… cut to GitHub\'s limit for a comment; the job summary has the whole report._\n';
  }
  const author = await me();
  const found = await ownComment(repo, pr, author);
  if (found.error) {
    notice(`the pull request's comments could not be read (${found.error}); no comment was posted, the job summary has the report`);
    return 0;
  }
  const nothing = (process.env.SKILLS || '') === '0' && (process.env.REMOVED || '0') === '0';
  if (nothing && !found.id) {
    console.log('no skill changed: no comment');
    return 0;
  }
  const res = found.id
    ? await api('PATCH', `/repos/${repo}/issues/comments/${found.id}`, { body })
    : await api('POST', `/repos/${repo}/issues/${pr}/comments`, { body });
  if (res.status === 200 || res.status === 201) {
    console.log(found.id ? `updated comment ${found.id}` : 'added a comment');
    return 0;
  }
  if (res.status === 403 || res.status === 404) {
    notice(`the token may not comment here (HTTP ${res.status}: a fork's pull request, or no pull-requests: write); the job summary has the report`);
    return 0;
  }
  const said = res.status ? `GitHub answered HTTP ${res.status}: ${res.json?.message || ''}` : `GitHub could not be reached (${res.error})`;
  console.log(`::warning title=Skill Playground comment::${said}; the job summary has the report`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // The comment only ever warns: whatever goes wrong here, the job goes on to the SARIF upload
  // and the verdict.
  main(process.argv[2])
    .catch((e) => {
      console.log(`::warning title=Skill Playground comment::the comment step stopped (${e?.message || e}); the job summary has the report`);
      return 0;
    })
    .then((code) => process.exit(code));
}
