// "Where it loads": the matrix of clients by loaded skills. Every cell's verdict equals
// `skillpg check --profile all` on the same folders, a failing cell gives the client's reason on
// focus with a link to the rule, choosing a cell shows that skill's findings under that client,
// and each client's listing budget follows the context window a person sets.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openPage, root, screenshotPath, serveAndBrowse } from './harness.mjs';

const env = serveAndBrowse();

/// A fresh page with the pdf-helper and release-notes samples loaded, and their folders for
/// the CLI.
async function twoSamples() {
  const { page, errors } = await openPage(env.ctx, env.server.url);
  await page.click('[data-testid="clear"]');
  await page.click('[data-testid="sample-pdf-helper"]');
  await page.click('[data-testid="sample-release-notes"]');
  await page.waitForSelector('[data-testid="cell-spec-1"]');
  const folders = ['pdf-helper', 'release-notes'].map((d) => path.join(root, 'web/samples', d));
  return { page, errors, folders };
}

test('every cell of the client matrix equals the CLI verdict, with the reason on focus', async () => {
  const { page, errors, folders } = await twoSamples();
  const cli = JSON.parse(
    (() => {
      try {
        return execFileSync(path.join(root, 'target/debug/skillpg'), ['check', '--profile', 'all', '--format', 'json', ...folders], { encoding: 'utf8', cwd: root });
      } catch (e) {
        return e.stdout; // exit 1: a skill fails somewhere
      }
    })(),
  );
  // Every sourced client has its row: the first eight, VS Code's code, Roo Code, Kilo Code, Cline, Zed, Crush,
  // pi, Goose, OpenCode, Letta Code, Augment, the Copilot CLI, Mistral Vibe, Kimi Code CLI, Qwen Code and OpenClaw.
  assert.equal(cli.clients.length, 24, 'twenty-four clients');
  const rows = await page.$$eval('[data-testid^="verdict-"]', (trs) => trs.map((tr) => tr.dataset.testid.slice('verdict-'.length)));
  assert.deepEqual([...rows].sort(), cli.clients.map((c) => c.client).sort(), 'the page lists the same clients');
  // Grouped as a person looks for them: the spec, each vendor, editors, terminal agents; each
  // client under its group's heading.
  const groups = await page.$$eval('[data-testid="verdicts"] tr.group', (trs) => trs.map((tr) => tr.textContent));
  assert.deepEqual(groups, ['The spec', 'Anthropic', 'OpenAI', 'GitHub', 'Editors', 'Terminal agents']);
  const under = await page.$$eval('[data-testid="verdicts"] tbody tr', (trs) => {
    let group = null;
    const out = {};
    for (const tr of trs) {
      if (tr.classList.contains('group')) group = tr.textContent;
      else out[tr.dataset.testid.slice('verdict-'.length)] = group;
    }
    return out;
  });
  assert.equal(under['claude-code'], 'Anthropic');
  assert.equal(under.codex, 'OpenAI');
  assert.equal(under['copilot-cli'], 'GitHub');
  assert.equal(under.zed, 'Editors');
  assert.equal(under['gemini-cli'], 'Terminal agents');
  let failing = null;
  for (const client of cli.clients) {
    for (const [i, cell] of client.skills.entries()) {
      const at = `[data-testid="cell-${client.client}-${i}"]`;
      const text = await page.textContent(`${at} .verdict`);
      assert.equal(text, cell.loads ? 'loads' : 'fails', `${client.client} × ${cell.name}: the page says what the CLI says`);
      // The chosen cell (the current client's row, the selected skill's column) shows its
      // reason already; the focus test takes another.
      const chosen = await page.$eval(at, (el) => el.classList.contains('selected') && el.closest('tr').classList.contains('current'));
      if (!cell.loads && !failing && !chosen) failing = { client: client.client, i, reason: cell.reason };
    }
  }
  assert.ok(failing, 'the sample set fails somewhere (pdf-helper has a `version` field)');
  // The reason shows when the cell has focus, and links to the rule.
  const cell = `[data-testid="cell-${failing.client}-${failing.i}"]`;
  assert.equal(await page.isVisible(`${cell} .reason`), false, 'hidden until asked');
  await page.focus(`${cell} button`);
  assert.equal(await page.isVisible(`${cell} .reason`), true, 'shown on focus');
  assert.ok((await page.textContent(`${cell} .reason`)).includes(failing.reason.message), 'the client\'s reason, as the CLI gives it');
  assert.equal(await page.getAttribute(`${cell} .reason a`, 'href'), `#rule-${failing.reason.rule}`);
  // Choosing the cell shows that skill's findings under that client.
  await page.click(`${cell} button`);
  await page.waitForSelector(`[data-testid="verdict-${failing.client}"].current`);
  await page.waitForSelector(`[data-testid="diagnostic"][data-code="${failing.reason.code}"]`);
  await page.screenshot({ path: screenshotPath('11-where-it-loads') });

  // The listing budget per client, at the window a person sets: at 2,000 tokens Claude Code's
  // 1% at 4 characters a token is 80 characters, and the two descriptions are cut to fit it.
  const listing = (key) => page.textContent(`[data-testid="listing-${key}"]`);
  assert.match(await listing('claude-code'), /of 8,000 characters$/, 'fits in 200k');
  // The settings are folded behind their summary, which names the values in force.
  const settings = '[data-testid="catalog-settings"]';
  assert.equal(await page.isVisible('[data-testid="context-window"]'), false, 'folded on the first screen');
  assert.equal(await page.textContent(`${settings} summary`), "Settings: a 200,000-token window, Claude Code's defaults");
  await page.click(`${settings} summary`);
  await page.fill('[data-testid="context-window"]', '2000');
  await page.press('[data-testid="context-window"]', 'Tab');
  await page.waitForFunction(() => document.querySelector('[data-testid="listing-claude-code"]').textContent.includes('of 80 characters'));
  const cliListing = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['listing', '--context-window', '2000', '--format', 'json', ...folders], { encoding: 'utf8', cwd: root }));
  for (const key of ['claude-code', 'codex']) {
    const l = cliListing.find((x) => x.client === key);
    const cut = l.skills.filter((s) => s.shown_chars !== null && s.shown_chars < s.description_chars).length;
    assert.ok(cut > 0, `${key} cuts descriptions at 2,000 tokens`);
    assert.equal(await listing(key), `${l.whole.toLocaleString('en-US')} of ${l.budget.toLocaleString('en-US')} ${l.unit}: over, ${cut} cut`, `${key}: the page prices the listing as the CLI does`);
  }
  assert.match(await listing('cursor'), /no documented budget/);
  // A fixed budget is the same at every window: Zed's 50 KB, the Copilot CLI's 15,000.
  assert.match(await listing('zed'), / of 51,200 bytes$/);
  assert.match(await listing('copilot-cli'), / of 15,000 characters$/);
  // The window travels in the link.
  assert.equal(await page.inputValue('[data-testid="context-window"]'), '2000');
  // Claude Code's own listing settings (skillListingBudgetFraction, skillListingMaxDescChars),
  // priced as `skillpg listing --budget-fraction 0.05 --max-desc-chars 60` prices them, and
  // kept across a reload.
  await page.fill('[data-testid="budget-percent"]', '5');
  await page.press('[data-testid="budget-percent"]', 'Tab');
  await page.fill('[data-testid="max-desc-chars"]', '60');
  await page.press('[data-testid="max-desc-chars"]', 'Tab');
  const set = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['listing', '--context-window', '2000', '--budget-fraction', '0.05', '--max-desc-chars', '60', '--format', 'json', ...folders], { encoding: 'utf8', cwd: root })).find((x) => x.client === 'claude-code');
  assert.equal(set.budget, 400, '5% of 2,000 tokens at 4 characters a token');
  const expected = `${set.whole.toLocaleString('en-US')} of ${set.budget.toLocaleString('en-US')} ${set.unit}`;
  await page.waitForFunction((t) => document.querySelector('[data-testid="listing-claude-code"]').textContent.startsWith(t), expected);
  await page.waitForTimeout(600); // the state is saved once typing pauses
  await page.reload();
  await page.waitForSelector('[data-testid="listing-claude-code"]');
  assert.ok((await listing('claude-code')).startsWith(expected), 'the settings survive a reload');
  assert.equal(await page.inputValue('[data-testid="budget-percent"]'), '5');
  assert.equal(await page.textContent(`${settings} summary`), "Settings: a 2,000-token window, Claude Code's listing set");
  // Claude Code's skillOverrides: release-notes turned off is priced as the CLI prices
  // `--skill-override release-notes=off`, said apart from the budget's cuts, and kept too.
  await page.click(`${settings} summary`);
  await page.click('[data-testid="skill-overrides"] summary');
  await page.selectOption('[data-testid="skill-override-release-notes"]', 'off');
  const off = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['listing', '--context-window', '2000', '--budget-fraction', '0.05', '--max-desc-chars', '60', '--skill-override', 'release-notes=off', '--format', 'json', ...folders], { encoding: 'utf8', cwd: root })).find((x) => x.client === 'claude-code');
  const offText = `${off.whole.toLocaleString('en-US')} of ${off.budget.toLocaleString('en-US')} ${off.unit}`;
  await page.waitForFunction((t) => { const c = document.querySelector('[data-testid="listing-claude-code"]').textContent; return c.startsWith(t) && c.endsWith('; 1 turned off'); }, offText);
  await page.waitForTimeout(600);
  await page.reload();
  await page.waitForSelector('[data-testid="listing-claude-code"]');
  assert.ok((await listing('claude-code')).endsWith('; 1 turned off'), 'the override survives a reload');
  assert.equal(await page.inputValue('[data-testid="skill-override-release-notes"]'), 'off');
  assert.deepEqual(errors, []);
  await page.close();
});

test('after a failing cell is chosen, the first click on a cell below it is not lost', async () => {
  // Issue 28: the chosen cell's reason was shown in its row while it had focus; pressing on a
  // cell below took the focus, the row shrank under the pointer, and the click landed elsewhere.
  const { page, errors } = await openPage(env.ctx, env.server.url);
  await page.click('[data-testid="clear"]');
  await page.click('[data-testid="sample-pdf-helper"]');
  await page.waitForSelector('[data-testid="cell-spec-0"]');
  const keys = await page.$$eval('[data-testid^="verdict-"]', (rows) => rows.map((r) => r.dataset.testid.slice('verdict-'.length)));
  const failingKey = (
    await Promise.all(keys.map(async (k) => ((await page.textContent(`[data-testid="cell-${k}-0"] .verdict`)) === 'fails' ? k : null)))
  ).find((k) => k && keys.indexOf(k) < keys.length - 1);
  assert.ok(failingKey, 'a failing cell with a row below it');
  await page.click(`[data-testid="cell-${failingKey}-0"] button`);
  await page.waitForSelector(`[data-testid="verdict-${failingKey}"].current`);
  assert.equal(await page.isVisible(`[data-testid="cell-${failingKey}-0"] .reason`), true, 'the chosen cell gives its reason');
  for (const below of keys.slice(keys.indexOf(failingKey) + 1)) {
    // Where the person sees the cell below, pressed as a person presses it (down, then up).
    // The matrix scrolls inside its box (twenty clients): bring the cell into sight first.
    await page.locator(`[data-testid="cell-${below}-0"] button`).scrollIntoViewIfNeeded();
    const box = await page.locator(`[data-testid="cell-${below}-0"] button`).boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForSelector(`[data-testid="verdict-${below}"].current`, { timeout: 2_000 });
  }
  assert.deepEqual(errors, []);
});

test('where to put it: the chosen client\'s folders and each skill\'s place, as `skillpg where` says', async () => {
  const { page, errors, folders } = await twoSamples();
  for (const key of ['gemini-cli', 'claude-code']) {
    await page.click(`[data-testid="verdict-${key}"] button.client`);
    const [cli] = JSON.parse(execFileSync(path.join(root, 'target/debug/skillpg'), ['where', '--client', key, '--format', 'json', ...folders], { encoding: 'utf8', cwd: root }));
    await page.waitForFunction((title) => document.querySelector('[data-testid="where-panel"] summary')?.textContent.includes(title), cli.title);
    assert.equal(await page.textContent('[data-testid="where-project"]'), cli.project.map((f) => `${f}/`).join(', '), `${key}: the project folders`);
    assert.equal(await page.textContent('[data-testid="where-user"]'), cli.user.map((f) => `~/${f}/`).join(', '), `${key}: the home folders`);
    for (const [i, s] of cli.skills.entries()) {
      const text = await page.textContent(`[data-testid="where-skill-${i}"]`);
      if (s.not_listed) assert.ok(text.startsWith(`${s.name}: not listed: ${s.not_listed.code}`), `${key} × ${s.name}: ${text}`);
      else assert.ok(text.startsWith(`${s.name}: ${s.paths.join(' or ')}`), `${key} × ${s.name}: ${text}`);
    }
  }
  await page.locator('[data-testid="where-panel"]').screenshot({ path: screenshotPath('12-where-to-put-it') });
  assert.deepEqual(errors, []);
});

test('an archive\'s own findings reach the verdicts: claude.ai refuses two folders in one zip, as the CLI does', async () => {
  const { page, errors } = await openPage(env.ctx, env.server.url);
  await page.click('[data-testid="clear"]');
  // Two skill folders in one upload (claude.ai takes one), named in capitals: SKILL.ZIP is an
  // archive too.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-'));
  const zip = path.join(dir, 'TWO-SKILLS.ZIP');
  execFileSync('python3', ['-c', `import zipfile, sys
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for n in ('alpha', 'beta'):
        z.writestr(n + '/SKILL.md', '---\\nname: ' + n + '\\ndescription: Does ' + n + ' things. Use when asked about ' + n + '.\\n---\\n\\n# ' + n + '\\n')`, zip]);
  await page.setInputFiles('[data-testid="file-input"]', zip);
  await page.waitForSelector('[data-testid="cell-claude-ai-1"]');
  const cli = JSON.parse((() => {
    try {
      return execFileSync(path.join(root, 'target/debug/skillpg'), ['check', '--profile', 'all', '--format', 'json', zip], { encoding: 'utf8', cwd: root });
    } catch (e) {
      return e.stdout; // exit 1: claude.ai refuses it
    }
  })());
  for (const client of cli.clients) {
    for (const [i, cell] of client.skills.entries()) {
      const text = await page.textContent(`[data-testid="cell-${client.client}-${i}"] .verdict`);
      assert.equal(text, cell.loads ? 'loads' : 'fails', `${client.client} × ${cell.name}: the page says what the CLI says`);
    }
  }
  const claudeAi = cli.clients.find((c) => c.client === 'claude-ai');
  assert.equal(claudeAi.skills[0].reason.rule, 'archive-layout', 'the CLI refuses the upload for its layout');
  assert.equal(await page.textContent('[data-testid="cell-claude-ai-0"] .verdict'), 'fails');
  assert.ok((await page.textContent('[data-testid="cell-claude-ai-0"] .reason')).includes('claude.ai takes one skill per upload'), 'the reason is the archive\'s layout');
  assert.equal(await page.textContent('[data-testid="cell-claude-code-0"] .verdict'), 'loads', 'Claude Code has no upload gate');
  // The finding survives a reload (it is kept with the skill; saving waits for a pause).
  await page.waitForTimeout(1000);
  await page.reload();
  await page.waitForSelector('[data-built]');
  assert.equal(await page.textContent('[data-testid="cell-claude-ai-0"] .verdict'), 'fails');
  assert.deepEqual(errors, []);
  await page.close();
});
