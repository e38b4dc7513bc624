// The description lab in headless Chromium: an eval set run through the routing model's
// worker gives the train and validation figures of `skillpg eval` (the page's report equals
// the CLI's), a near miss is explained by its words within a second, a draft is paired with the
// description on validation as the CLI pairs it, and the lab survives a reload. On the six-skill
// sample, and on two real skills of the shared corpus among their eleven neighbours.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { browser, corpus, editorText, openPage, root, screenshotPath, serveAndBrowse, showView } from './harness.mjs';

const env = serveAndBrowse();
const skillpg = path.join(root, 'target/debug/skillpg');
const cliArgs = ['eval', '--weights', 'i8', '--kernel', 'integer', '--format', 'json'];

function cli(args) {
  return execFileSync(skillpg, [...cliArgs, ...args], { encoding: 'utf8', cwd: root });
}

/// The figure a cell shows for a part of a CLI report: "83.3% [43.6, 97.0]".
function figure(part, key) {
  const v = part[key];
  if (v === null) return '–';
  const ci = part[`${key}_ci`];
  return `${(v * 100).toFixed(1)}% [${(ci[0] * 100).toFixed(1)}, ${(ci[1] * 100).toFixed(1)}]`;
}

async function runAndCompare(page, skill, evals, folder) {
  await page.click('[data-testid="lab-run"]');
  await page.waitForSelector('[data-testid="lab-figures"]', { timeout: 240_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="lab-export-report"]')]);
  const fromPage = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  // Before the final check the export holds validation out, as `skillpg eval --held-out` does.
  const fromCli = JSON.parse(cli(['--evals', evals, '--skill', skill, '--held-out', folder]));
  // The other skills are listed in load order, which a folder picker and the CLI may differ on.
  fromPage.catalog.sort();
  fromCli.catalog.sort();
  assert.deepEqual(fromPage, fromCli, `${skill}: the page's report is skillpg eval --held-out's`);
  assert.ok(fromPage.queries.every((q) => q.split === 'train') && fromPage.held_out.length > 0, `${skill}: no validation outcome in the export`);
  for (const part of ['train', 'validation']) {
    for (const key of ['precision', 'recall', 'accuracy']) {
      assert.equal(await page.textContent(`[data-testid="lab-${part}-${key}"]`), figure(fromCli[part], key), `${skill} ${part} ${key}`);
    }
  }
  return fromCli;
}

test('the lab on the six-skill sample: figures, a near miss explained, a draft paired on validation, kept in the link', { timeout: 600_000 }, async () => {
  const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'lab' });
  await page.click('[data-testid="lab-sample"]');
  const evals = path.join(root, 'web/samples/routing/evals-sql-review.json');
  const report = await runAndCompare(page, 'sql-review', evals, path.join(root, 'web/samples/routing'));
  assert.equal(report.train.n + report.validation.n, 20);

  // Only train queries are listed (validation is held out); the wrong ones come first, and the
  // first one is explained by its words and phrases.
  const splits = await page.$$eval('[data-testid="lab-query"]', (trs) => trs.map((tr) => tr.dataset.split));
  assert.ok(splits.length === report.train.n && splits.every((s) => s === 'train'), `the train queries alone: ${splits}`);
  const trainWrong = report.queries.some((q) => q.split === 'train' && q.triggered !== q.should_trigger);
  const first = page.locator('[data-testid="lab-query"]').first();
  assert.equal(await first.getAttribute('data-right'), trainWrong ? 'false' : 'true', 'a wrong query first when there is one');
  const start = Date.now();
  await first.locator('[data-testid="lab-explain"]').click();
  await page.waitForSelector('[data-testid="lab-explanation"]');
  const ms = Date.now() - start;
  const words = await page.$$eval('[data-testid="lab-word"]', (els) => els.map((e) => ({ text: e.textContent, title: e.title, w: Number(e.dataset.weight) })));
  assert.ok(words.length > 5, 'a weight for each content word');
  for (const w of words) {
    const shown = w.title.match(/^“(.*)”/)[1];
    assert.match(shown, /^[\p{L}\p{N}].*[\p{L}\p{N}]$|^[\p{L}\p{N}]$/u, `a word without its punctuation: ${shown}`);
    assert.ok(!['the', 'and', 'for', 'a', 'or', 'to', 'of'].includes(shown.toLowerCase()), `stop words are skipped: ${shown}`);
  }
  assert.ok((await page.locator('[data-testid="lab-phrase"]').count()) > 0, 'phrases are weighed too');
  assert.ok(words.some((w) => Math.abs(w.w) > 1e-4), 'some word moves the score');
  // The under-a-second target is measured by scripts/bench-lab.mjs (BENCHMARKS.md); here only a
  // bound that no loaded machine misses, so that a pathological slowdown still fails.
  console.log(`explained a ${words.length}-word description in ${ms} ms (click to drawn)`);
  assert.ok(ms < 10_000, `an explanation within seconds: ${ms} ms`);
  await page.locator('[data-testid="lab-figures"]').screenshot({ path: screenshotPath('lab-1-figures') });
  await page.locator('[data-testid="lab-explanation"]').screenshot({ path: screenshotPath('lab-2-words') });

  // A draft, paired with the description on validation as the CLI pairs it.
  const draft = 'Review a SQL schema migration (a .sql file, Rails, Alembic or Django migration) for table locks, missing indexes and unsafe defaults before it runs in production. Use when someone adds or changes a migration, an index, a column or a foreign key.';
  await page.fill('[data-testid="lab-draft"]', draft);
  await page.click('[data-testid="lab-try-draft"]');
  await page.waitForSelector('[data-testid="lab-draft-result"]');
  const cmp = JSON.parse(cli(['--evals', evals, '--skill', 'sql-review', '--draft', draft, path.join(root, 'web/samples/routing')])).comparison;
  const result = await page.textContent('[data-testid="lab-draft-result"]');
  assert.ok(
    result.startsWith(`On the validation part only: ${cmp.both} right under both, ${cmp.only_current} only as written, ${cmp.only_draft} only with the draft, ${cmp.neither} under neither; exact sign test p = ${cmp.p_value.toFixed(4)}`),
    `${result} vs ${JSON.stringify(cmp)}`,
  );
  assert.equal(await page.locator('[data-testid="lab-overfit"]').count(), cmp.overfits ? 1 : 0);
  assert.equal(await page.locator('[data-testid="lab-history"] tbody tr').count(), 2, 'the description as written, then the draft');
  assert.equal(await page.textContent('[data-testid="lab-verdict"]'), cmp.verdict, 'the verdict in the CLI\'s words');
  // What the validation part can detect is said before the verdict is read.
  // (Changes too close for the router to call are set aside from the pairs, not from the part.)
  const validation = cmp.both + cmp.only_current + cmp.only_draft + cmp.neither + cmp.too_close;
  assert.match(await page.textContent('[data-testid="lab-detectable"]'), new RegExp(`^With ${validation} validation queries, `));
  await page.screenshot({ path: screenshotPath('12-description-lab'), fullPage: true });
  await page.locator('[data-testid="lab-draft-result"]').screenshot({ path: screenshotPath('lab-3-draft') });
  await page.locator('[data-testid="lab-queries"]').screenshot({ path: screenshotPath('lab-4-queries') });

  // The eval set, the seed and the drafts travel in the link: a reload keeps them.
  await page.reload();
  await page.waitForSelector('[data-testid="lab-evals"]');
  assert.match(await page.inputValue('[data-testid="lab-evals"]'), /^\+ Check this migration before I run it against production\./);
  assert.equal(await page.inputValue('[data-testid="lab-draft"]'), draft);
  assert.equal(await page.locator('[data-testid="lab-history"] tbody tr').count(), 2);
  // Before any run, the rows know their split from the state: none reads "another split".
  assert.equal(await page.locator('[data-testid="lab-history-row"].other').count(), 0, 'the same split after a reload');
  assert.equal(await page.locator('[data-testid="lab-history-row"][data-current="true"]').count(), 1, 'the description as written is marked');

  // A second skill's eval set: the collisions across the loaded skills, pair by pair.
  await page.locator('[data-testid="catalog"] .catalog-item button', { hasText: 'release-notes' }).first().click();
  assert.equal(await page.inputValue('[data-testid="lab-evals"]'), '', 'each skill has its own eval set');
  await page.fill('[data-testid="lab-evals"]', '+ Turn these merged PRs into a changelog entry.\n+ Check this migration before I run it against production.\n- What is the capital of Australia?\n');
  await page.click('[data-testid="lab-collisions"]');
  await page.waitForSelector('[data-testid="lab-collisions-table"], [data-testid="lab-no-collisions"]');
  const rows = await page.$$eval('[data-testid="lab-collision"]', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  // Only train queries are named (the report holds train rows alone before the final check).
  const wrongRow = report.queries.find((q) => q.split === 'train' && q.should_trigger && q.chosen !== 'sql-review' && q.chosen !== 'NONE');
  if (wrongRow) assert.ok(rows.some((r) => r[0] === 'sql-review' && r[1] === wrongRow.chosen && r[3].includes(wrongRow.query)), `sql-review's query taken by ${wrongRow.chosen}: ${JSON.stringify(rows)}`);
  for (const q of report.held_out) assert.ok(rows.filter((r) => r[0] === 'sql-review').every((r) => !r[3].includes(q.query)), `a held-out query is not named: ${q.query}`);
  // release-notes' set: its train part decides whether its migration request is named.
  const notesSet = path.join(os.tmpdir(), `skillpg-notes-${process.pid}.txt`);
  fs.writeFileSync(notesSet, await page.inputValue('[data-testid="lab-evals"]'));
  const notes = JSON.parse(cli(['--evals', notesSet, '--skill', 'release-notes', '--held-out', path.join(root, 'web/samples/routing')]));
  const migration = notes.queries.find((q) => q.query.startsWith('Check this migration'));
  // A query held out for sql-review stays held out in release-notes' set too (it is sealed).
  const sealed = (q) => report.held_out.some((h) => h.query.trim().toLowerCase() === q.query.trim().toLowerCase());
  assert.equal(
    rows.some((r) => r[0] === 'release-notes' && r[1] === 'sql-review'),
    Boolean(migration && migration.chosen === 'sql-review' && !sealed(migration)),
    `release-notes' migration request is named only when it is a train query there and held out nowhere: ${JSON.stringify(rows)}`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('the lab on two real skills among their neighbours equals skillpg eval', { timeout: 600_000 }, async () => {
  const folder = path.join(corpus, 'anthropics__skills');
  assert.ok(fs.existsSync(folder), `the shared corpus is absent: ${folder} not found (this test needs ../shared/corpus beside the repository)`);
  const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'lab' });
  await page.click('[data-testid="clear"]');
  await page.setInputFiles('[data-testid="folder-input"]', folder);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length >= 10, null, { timeout: 60_000 });
  for (const skill of ['webapp-testing', 'mcp-builder']) {
    await page.locator('[data-testid="catalog"] .catalog-item button', { hasText: skill }).first().click();
    const evals = path.join(root, 'tests/e2e/evals', `${skill}.json`);
    await page.setInputFiles('[data-testid="lab-import"]', evals);
    await page.waitForFunction(() => document.querySelector('[data-testid="lab-evals"]').value.split('\n').filter(Boolean).length === 20);
    const report = await runAndCompare(page, skill, evals, folder);
    console.log(`${skill}: train accuracy ${report.train.accuracy}, validation ${report.validation.accuracy}, recall ${report.validation.recall}`);
    // Its first listed query (a wrong one when there is one) explained by its words.
    await page.locator('[data-testid="lab-query"]').first().locator('[data-testid="lab-explain"]').click();
    await page.waitForSelector('[data-testid="lab-explanation"]');
    const description = report.description;
    const weighed = await page.locator('[data-testid="lab-word"]').count();
    assert.ok(weighed > 0 && weighed <= description.split(/\s+/).filter(Boolean).length, `${skill}: a weight for each content word (${weighed})`);
    // A draft that says when to use the skill, paired on validation as the CLI pairs it.
    const draft = `${description} Use when the user asks for this by name or describes the task.`;
    await page.fill('[data-testid="lab-draft"]', draft);
    await page.click('[data-testid="lab-try-draft"]');
    await page.waitForSelector('[data-testid="lab-draft-result"]'); // a fresh run shows no earlier draft
    const cmp = JSON.parse(cli(['--evals', evals, '--skill', skill, '--draft', draft, folder])).comparison;
    assert.ok(
      (await page.textContent('[data-testid="lab-draft-result"]')).startsWith(`On the validation part only: ${cmp.both} right under both, ${cmp.only_current} only as written, ${cmp.only_draft} only with the draft, ${cmp.neither} under neither; exact sign test p = ${cmp.p_value.toFixed(4)}`),
      `${skill}: the page pairs the draft as the CLI does: ${JSON.stringify(cmp)}`,
    );
    await page.fill('[data-testid="lab-draft"]', '');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a decoder\'s repeated runs: the same seed gives the same answers in the page and the CLI', { timeout: 600_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillpg-lab-'));
  execFileSync('python3', [path.join(root, 'crates/skillpg-decoder/tests/oracle/make_tiny.py'), dir], { encoding: 'utf8' });
  const model = path.join(dir, 'tiny-chat-qwen2.gguf');
  assert.ok(fs.existsSync(model), 'make_tiny.py wrote the chat model (it needs `pip install gguf==0.19.0 numpy`)');
  const all = JSON.parse(fs.readFileSync(path.join(root, 'web/samples/routing/evals-sql-review.json'), 'utf8'));
  const picked = [all[0], all[1], all[10], all[11]];
  const evals = path.join(dir, 'evals.json');
  fs.writeFileSync(evals, JSON.stringify(picked));

  const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'lab' });
  await page.click('[data-testid="lab-sample"]');
  await page.setInputFiles('[data-testid="lab-import"]', evals);
  await page.waitForFunction(() => document.querySelector('[data-testid="lab-evals"]').value.split('\n').filter(Boolean).length === 4);
  await page.setInputFiles('[data-testid="decoder-file"]', model);
  await page.waitForFunction(() => document.querySelector('[data-testid="decoder-model"]').textContent.includes('Qwen2 family'), null, { timeout: 60_000 });
  await page.check('[data-testid="lab-decoder"]');
  await page.fill('[data-testid="lab-runs"]', '2');
  await page.press('[data-testid="lab-runs"]', 'Tab');
  await page.fill('[data-testid="lab-temperature"]', '0.9');
  await page.press('[data-testid="lab-temperature"]', 'Tab');
  await page.click('[data-testid="lab-run"]');
  await page.waitForSelector('[data-testid="lab-figures"]', { timeout: 300_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="lab-export-report"]')]);
  const fromPage = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  const args = (seed, extra = []) => [...cliArgs.slice(0, 1), '--model', model, '--runs', '2', '--temperature', '0.9', '--seed', String(seed), '--format', 'json', ...extra, '--evals', evals, '--skill', 'sql-review', path.join(root, 'web/samples/routing')];
  const run = (seed, extra) => JSON.parse(execFileSync(skillpg, args(seed, extra), { encoding: 'utf8', cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }));
  const fromCli = run(42);
  // Before the final check the page holds validation out, as --held-out does.
  const heldCli = run(42, ['--held-out']);
  fromPage.catalog.sort();
  heldCli.catalog.sort();
  assert.deepEqual(fromPage, heldCli, 'the page\'s runs are the CLI\'s, answer for answer');
  assert.equal(fromCli.queries[0].answers.length, 2, 'two runs a query, each answer kept');
  assert.deepEqual(run(42), fromCli, 'the same seed, the same answers');
  const other = run(7);
  assert.notDeepEqual(other.queries.map((q) => q.answers), fromCli.queries.map((q) => q.answers), 'another seed, other answers');
  console.log(`seeded runs agree page and CLI, e.g. ${JSON.stringify(fromCli.queries[0].answers)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('eval lines that start with a wide character get a message naming the line, never a panic, across a reload', { timeout: 120_000 }, async () => {
  const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'lab' });
  await page.click('[data-testid="lab-sample"]');
  // Each of these first characters once panicked Run, Collisions and Export (the mark was cut at
  // byte 1), and the text is autosaved, so the reload panicked again.
  const wide = ['é', '“quoted”', '表', '😀', '•'];
  const status = () => page.textContent('[data-testid="status"]');
  for (const first of wide) {
    await page.fill('[data-testid="lab-evals"]', `+ review this migration\n${first} a query\n`);
    const named = `line 2: start it with + (should trigger) or - (should not), not “${[...first][0]}”`;
    for (const button of ['lab-run', 'lab-collisions', 'lab-export-evals']) {
      await page.click(`[data-testid="${button}"]`);
      // The handlers read the set before their first await: a frame and a task later they are done.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
      assert.equal(await page.$('[data-testid="fatal"]'), null, `${button} with a line starting “${first}” does not panic`);
      assert.ok((await status()).includes(named), `${button} names what line 2 starts with: ${await status()}`);
    }
  }
  // The text was kept (saving waits for a pause); after a reload the same clicks give the same
  // message.
  await page.waitForTimeout(1000);
  await page.reload();
  await page.waitForSelector('[data-built]');
  assert.equal(await page.inputValue('[data-testid="lab-evals"]'), `+ review this migration\n${wide.at(-1)} a query\n`);
  await page.click('[data-testid="lab-run"]');
  await page.waitForFunction(() => /line 2: start it with \+/.test(document.querySelector('[data-testid="status"]').textContent));
  // Every bad line is named beside the eval box, not only the first, and not only in the
  // status line.
  await page.fill('[data-testid="lab-evals"]', '+ review this migration\n* one\n+\n• two\n');
  await page.waitForSelector('[data-testid="lab-eval-errors"] li');
  assert.deepEqual(await page.$$eval('[data-testid="lab-eval-errors"] li', (ls) => ls.map((l) => l.textContent.slice(0, 7))), ['line 2:', 'line 3:', 'line 4:']);
  // A dash a word processor typed for "-" reads as the mark.
  await page.fill('[data-testid="lab-evals"]', '+ review this migration\n– write a SELECT query\n');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="lab-export-evals"]')]);
  assert.deepEqual(JSON.parse(fs.readFileSync(await download.path(), 'utf8')), [
    { query: 'review this migration', should_trigger: true },
    { query: 'write a SELECT query', should_trigger: false },
  ]);
  assert.equal(await page.$('[data-testid="fatal"]'), null, 'no panic banner');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the routing preview and the lab asking for the model at once start one worker and one download', { timeout: 600_000 }, async () => {
  // A fresh profile: nothing in the Cache API store, so every load is a download.
  const own = await browser();
  try {
    const page = await own.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript(() => {
      const Base = window.Worker;
      window.__workers = [];
      window.Worker = class extends Base {
        constructor(url, options) {
          super(url, options);
          window.__workers.push(options?.name ?? String(url));
        }
      };
    });
    const downloads = [];
    page.on('request', (r) => { if (r.url().endsWith('.spgm')) downloads.push(r.url()); });
    await page.goto(env.server.url);
    await page.waitForSelector('[data-built]');
    await showView(page, 'lab');
    await page.click('[data-testid="lab-sample"]');
    await showView(page, 'routing');
    await page.fill('[data-testid="routing-requests"]', 'review my migration => sql-review\nwrite release notes');
    // Both views ask in the same task, before either load has begun to download.
    await page.evaluate(() => {
      document.querySelector('[data-testid="routing-run"]').click();
      document.querySelector('[data-testid="lab-run"]').click();
    });
    await page.waitForSelector('[data-testid="lab-figures"]', { timeout: 540_000, state: 'attached' });
    await page.waitForSelector('[data-testid="route-row"]', { timeout: 60_000 });
    const workers = await page.evaluate(() => window.__workers.filter((n) => n === 'skillpg-routing-model').length);
    assert.equal(workers, 1, 'one routing-model worker');
    assert.equal(downloads.length, 1, `one download of the model: ${downloads}`);
    // Both views show the one load's backend line.
    assert.ok((await page.textContent('[data-testid="routing-backend"]')).length > 0);
    assert.deepEqual(errors, []);
  } finally {
    await own.close();
  }
});

/// Runs the sample's eval set in a fresh page and returns the page and the CLI's report.
async function sampleRun() {
  const { page, errors } = await openPage(env.ctx, env.server.url, { view: 'lab' });
  await page.evaluate(() => localStorage.clear());
  // A fresh load (the address holds the last state: a reload would open it as a link).
  await page.goto('about:blank');
  await page.goto(env.server.url + '#view=lab');
  await page.waitForSelector('[data-built]');
  await page.click('[data-testid="lab-sample"]');
  await page.click('[data-testid="lab-run"]');
  await page.waitForSelector('[data-testid="lab-figures"]', { timeout: 240_000 });
  const evals = path.join(root, 'web/samples/routing/evals-sql-review.json');
  const report = JSON.parse(cli(['--evals', evals, '--skill', 'sql-review', path.join(root, 'web/samples/routing')]));
  return { page, errors, evals, report };
}

test('no seed opens the held-out queries: after a run at 42, seeds 1-99 show none of them, the address carries only the loaded skills\' lab and no validation count', { timeout: 900_000 }, async () => {
  const { page, errors, report } = await sampleRun();
  const held = report.queries.filter((q) => q.split === 'validation').map((q) => q.query);
  assert.ok(held.length >= 4, 'the sample holds queries out');
  assert.equal(Number(await page.getAttribute('[data-testid="lab-sealed"]', 'data-sealed')), held.length, 'the run sealed its held-out queries');
  // A draft, so that the history has rows whose validation counts a link must not carry.
  await page.fill('[data-testid="lab-draft"]', 'Reviews SQL migrations for locks and missing indexes. Use when a migration file changes.');
  await page.click('[data-testid="lab-try-draft"]');
  await page.waitForSelector('[data-testid="lab-draft-result"]');
  const listed = () => page.$$eval('[data-testid="lab-query"]', (trs) => trs.map((tr) => tr.querySelector('.query')?.textContent ?? tr.textContent));
  for (let seed = 1; seed <= 99; seed++) {
    await page.fill('[data-testid="lab-seed"]', String(seed));
    await page.press('[data-testid="lab-seed"]', 'Tab');
    await page.click('[data-testid="lab-run"]');
    await page.waitForFunction((s) => document.querySelector('[data-testid="lab-split"]')?.dataset.seed === String(s), seed, { timeout: 60_000 });
    const shown = (await listed()).join('\n');
    for (const q of held) assert.ok(!shown.includes(q), `seed ${seed} shows a query held out at seed 42: ${q}`);
  }
  // The address, decoded: the loaded skills' lab only, and no validation count before a final
  // check.
  await page.waitForFunction(() => location.hash.includes('v1='));
  await page.waitForTimeout(800);
  const hash = await page.evaluate(() => location.hash);
  const wire = JSON.parse(zlib.inflateRawSync(Buffer.from(/v1=([^&]+)/.exec(hash)[1], 'base64url')).toString('utf8'));
  const loaded = wire.skills.map((k) => k.dir);
  assert.ok(Object.keys(wire.lab.sets).every((d) => loaded.includes(d)), `sets of loaded skills only: ${Object.keys(wire.lab.sets)} of ${loaded}`);
  assert.ok(wire.lab.history.length > 0 && wire.lab.history.every((v) => v.validation === undefined), `no validation count before a final check: ${JSON.stringify(wire.lab.history)}`);
  // The history's export: this skill's rows, no validation count.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="lab-export-history"]')]);
  const rows = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  assert.ok(rows.length > 0 && rows.every((v) => v.skill === 'sql-review' && v.validation === undefined), JSON.stringify(rows));
  assert.deepEqual(errors, []);
  await page.close();
});

test('validation is held out: train queries only, each look counted, the final check reveals it', { timeout: 600_000 }, async () => {
  const { page, errors, report } = await sampleRun();
  const looks = () => page.getAttribute('[data-testid="lab-looks"]', 'data-looks').then(Number);
  assert.equal(await looks(), 1, 'the run\'s validation totals are one look');
  const held = report.queries.filter((q) => q.split === 'validation').length;
  assert.equal(await page.locator('[data-testid="lab-query"][data-split="validation"]').count(), 0, 'no validation query is listed');
  assert.match(await page.textContent('[data-testid="lab-held-out"]'), new RegExp(`^${held} validation queries are held out`));
  assert.equal(await page.getAttribute('[data-testid="lab-split"]', 'data-version'), report.version, 'the eval set\'s version, as the CLI names it');
  await page.fill('[data-testid="lab-draft"]', 'Reviews SQL migrations for locks and missing indexes. Use when a migration file changes.');
  await page.click('[data-testid="lab-try-draft"]');
  await page.waitForSelector('[data-testid="lab-draft-result"]');
  assert.equal(await looks(), 2, 'pairing a draft on validation is a look');
  assert.equal(await page.locator('[data-testid="lab-many-looks"]').count(), 0);
  await page.click('[data-testid="lab-final-check"]');
  await page.waitForSelector('[data-testid="lab-query"][data-split="validation"]');
  assert.equal(await page.locator('[data-testid="lab-query"][data-split="validation"]').count(), held, 'the final check shows every validation query');
  assert.equal(await looks(), 3);
  assert.match(await page.textContent('[data-testid="lab-many-looks"]'), /consulted up to 3 times.*most of the validation set.*multiple comparisons/, 'many looks are flagged in plain words');
  // The history ranks by train and shows validation only now; each row names its split.
  const rows = await page.$$eval('[data-testid="lab-history-row"]', (trs) => trs.map((tr) => ({ seed: tr.dataset.seed, version: tr.dataset.version, cells: [...tr.querySelectorAll('td')].map((td) => td.textContent) })));
  assert.ok(rows.length === 2 && rows.every((r) => r.seed === '42' && r.version === report.version), JSON.stringify(rows));
  assert.ok(rows.every((r) => /^\d+ of \d+$/.test(r.cells[4])), `validation shown after the final check: ${JSON.stringify(rows)}`);
  const train = rows.map((r) => Number(r.cells[3].split(' ')[0]));
  assert.ok(train[0] >= train[1], 'best on train first');
  // Another seed is another split: its rows are marked, not compared.
  await page.fill('[data-testid="lab-seed"]', '7');
  await page.press('[data-testid="lab-seed"]', 'Tab');
  await page.click('[data-testid="lab-run"]');
  await page.waitForSelector('[data-testid="lab-figures"]');
  const marked = await page.$$eval('[data-testid="lab-history-row"].other td:nth-child(5)', (tds) => tds.map((td) => td.textContent));
  assert.ok(marked.length === 2 && marked.every((t) => t === 'another split: not compared'), JSON.stringify(marked));
  assert.deepEqual(errors, []);
  await page.close();
});

test('no view, line, table or export shows a validation outcome before the final check; looks are counted per query', { timeout: 600_000 }, async () => {
  const { page, errors, evals, report } = await sampleRun();
  const validation = report.queries.filter((q) => q.split === 'validation');
  const shown = async () => {
    const parts = [];
    for (const id of ['lab-queries', 'lab-captured', 'lab-collisions-table', 'lab-wrong-captures', 'lab-history']) {
      for (const el of await page.$$(`[data-testid="${id}"]`)) parts.push(await el.innerText());
    }
    return parts.join('\n');
  };
  // Every route that could show one: the run, a draft, the collisions, the export.
  await page.fill('[data-testid="lab-draft"]', 'Reviews SQL migrations for locks and missing indexes. Use when a migration file changes.');
  await page.click('[data-testid="lab-try-draft"]');
  await page.waitForSelector('[data-testid="lab-summary"]');
  assert.match(await page.textContent('[data-testid="lab-summary"]'), /^On train, \d+ of \d+ right as written and \d+ with the draft .* On validation, /, 'train and validation in one sentence');
  // No other split judges it: every other query was looked at while drafting.
  assert.match(await page.textContent('[data-testid="lab-one-split"]'), /^Judged on this split's held-out queries only: /);
  await page.click('[data-testid="lab-collisions"]');
  await page.waitForSelector('[data-testid="lab-collisions-table"], [data-testid="lab-no-collisions"]');
  const text = await shown();
  for (const q of validation) assert.ok(!text.includes(q.query), `held out until the final check: ${q.query}`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="lab-export-report"]')]);
  const exported = fs.readFileSync(await download.path(), 'utf8');
  const held = JSON.parse(exported);
  assert.ok(held.queries.every((q) => q.split === 'train'), 'the export lists train outcomes alone');
  assert.deepEqual(held.held_out.map((q) => q.query).sort(), validation.map((q) => q.query).sort(), 'the held-out queries by text, so the set imports back whole');
  // A query added makes a new split, but the held-out queries seen stay seen.
  const before = Number(await page.getAttribute('[data-testid="lab-looks"]', 'data-looks'));
  await page.fill('[data-testid="lab-evals"]', (await page.inputValue('[data-testid="lab-evals"]')) + '+ Is this ALTER TABLE safe to run during business hours?\n');
  await page.click('[data-testid="lab-run"]');
  await page.waitForFunction((v) => document.querySelector('[data-testid="lab-split"]')?.dataset.version !== v, report.version);
  assert.ok(Number(await page.getAttribute('[data-testid="lab-looks"]', 'data-looks')) > before, 'looks survive an added query');
  // After the final check, the export is skillpg eval's whole report.
  await page.click('[data-testid="lab-final-check"]');
  await page.waitForSelector('[data-testid="lab-query"][data-split="validation"]');
  const set = path.join(os.tmpdir(), `skillpg-lab-set-${process.pid}.txt`);
  fs.writeFileSync(set, await page.inputValue('[data-testid="lab-evals"]'));
  const [whole] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="lab-export-report"]')]);
  const fromPage = JSON.parse(fs.readFileSync(await whole.path(), 'utf8'));
  const fromCli = JSON.parse(cli(['--evals', set, '--skill', 'sql-review', path.join(root, 'web/samples/routing')]));
  fromPage.catalog.sort();
  fromCli.catalog.sort();
  assert.deepEqual(fromPage, fromCli, 'after the final check, the page\'s report is skillpg eval\'s');
  assert.ok(evals);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a draft worse on some validation queries and better on none is a warning when the sign test shows it, and says it is no evidence when not', { timeout: 600_000 }, async () => {
  const { page, errors, evals } = await sampleRun();
  const folder = path.join(root, 'web/samples/routing');
  // A draft about something else: the CLI says how it fares; one that loses and gains nothing.
  const candidates = ['Writes haiku about autumn leaves and the sea.', 'Converts temperatures between Celsius and Fahrenheit.', 'Plays chess.'];
  const picked = candidates.map((d) => ({ d, c: JSON.parse(cli(['--evals', evals, '--skill', 'sql-review', '--draft', d, folder])).comparison })).find(({ c }) => c.only_current > 0 && c.only_draft === 0);
  assert.ok(picked, 'one of the unrelated drafts loses validation queries and gains none');
  await page.fill('[data-testid="lab-draft"]', picked.d);
  await page.click('[data-testid="lab-try-draft"]');
  await page.waitForSelector('[data-testid="lab-draft-result"]');
  const n = picked.c.both + picked.c.only_current + picked.c.only_draft + picked.c.neither;
  const verdict = await page.textContent('[data-testid="lab-verdict"]');
  const shown = picked.c.p_value < 0.05;
  assert.ok(verdict.startsWith(`worse on ${picked.c.only_current} of ${n}, better on `), verdict);
  assert.equal(/evidence the draft hurts; keep the description you have/.test(verdict), shown, verdict);
  assert.equal(/too few to show harm, and nothing in the draft's favour/.test(verdict), !shown, verdict);
  // Changes the router cannot separate are said apart, counted neither way.
  assert.equal(verdict, picked.c.verdict, 'the CLI\'s words');
  assert.equal(/too close to call/.test(verdict), picked.c.too_close > 0);
  assert.equal(await page.$eval('[data-testid="lab-draft-result"]', (p) => p.classList.contains('warning') && p.getAttribute('role') === 'alert'), shown, 'a warning exactly when the loss is shown');
  assert.deepEqual(errors, []);
  await page.close();
});

test('adopting a draft with ": " in it writes valid YAML, runs again with it, and undoes', { timeout: 600_000 }, async () => {
  const { page, errors } = await sampleRun();
  const draft = 'Reviews SQL migrations: locks, missing indexes, unsafe defaults. Use when a migration changes: "ALTER TABLE" included.';
  await page.fill('[data-testid="lab-draft"]', draft);
  await page.click('[data-testid="lab-try-draft"]');
  await page.waitForSelector('[data-testid="lab-adopt"]');
  await page.click('[data-testid="lab-adopt"]');
  const diff = await page.textContent('[data-testid="lab-adopt-diff"]');
  assert.match(diff, /^\+description: ".*"$/m, `the diff shows the quoted line first: ${diff}`);
  const before = await editorText(page);
  await page.click('[data-testid="lab-adopt-apply"]');
  await page.waitForFunction((d) => document.querySelector('.lab-description')?.textContent === d, draft);
  const after = await editorText(page);
  assert.notEqual(after, before);
  // The frontmatter parses (no invalid-yaml, no unquoted colon), and the engine reads the
  // description back as written (shown above as the description as written).
  const codes = await page.$$eval('[data-testid="diagnostic"]', (els) => els.map((e) => e.dataset.code));
  assert.ok(!codes.includes('SPG015') && !codes.includes('SPG021'), `no YAML finding after adopting: ${codes}`);
  assert.match(after, /^description: ".*ALTER TABLE.*"$/m, 'written on one quoted line');
  await page.waitForFunction(() => /^Ran \d+ queries for sql-review/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 120_000 });
  // The undo survives a reload (the state keeps both descriptions), and one undo puts it back.
  await page.waitForTimeout(1000);
  await page.reload();
  await page.waitForSelector('[data-built]');
  await page.waitForSelector('[data-testid="lab-adopt-undo"]');
  await page.click('[data-testid="lab-adopt-undo"]');
  await page.waitForFunction((b) => globalThis.skillpgEditor.current?.text() === b, before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sample that would replace skills the person brought asks first', { timeout: 120_000 }, async () => {
  const { page, errors } = await openPage(env.ctx, env.server.url, { acceptDialogs: false, view: 'lab' });
  await page.click('[data-testid="clear"]');
  await page.click('[data-testid="new-skill"]');
  await page.waitForSelector('[data-testid="catalog"] .catalog-item');
  const names = () => page.$$eval('[data-testid="catalog"] .catalog-item button', (bs) => bs.map((b) => b.textContent));
  const mine = await names();
  // Cancel: nothing changes.
  let asked = '';
  page.once('dialog', async (d) => { asked = d.message(); await d.dismiss(); });
  await page.click('[data-testid="lab-sample"]');
  await page.waitForFunction(() => /was not loaded/.test(document.querySelector('[data-testid="status"]').textContent));
  assert.match(asked, /^Loading the sample replaces the 1 skill\(s\) you loaded or edited/);
  assert.deepEqual(await names(), mine, 'the person\'s skills stay');
  // Accept: the sample is loaded.
  page.once('dialog', (d) => d.accept());
  await page.click('[data-testid="lab-sample"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="catalog"] .catalog-item').length === 6);
  assert.deepEqual(errors, []);
  await page.close();
});
