// Skill Playground for VS Code: starts `skillpg lsp` (the engine's language server) in a
// workspace that holds a SKILL.md (or skillpg.toml), for SKILL.md files. Everything it shows
// comes from the server: diagnostics, quick fixes, hovers, completion, document links and
// inlay hints. `npm run bundle` (esbuild) makes dist/extension.js, the one file the .vsix holds.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function start() {
  const config = vscode.workspace.getConfiguration('skillpg');
  const command = config.get('server.path') || 'skillpg';
  const serverOptions = {
    run: { command, args: ['lsp'], transport: TransportKind.stdio },
    debug: { command, args: ['lsp'], transport: TransportKind.stdio },
  };
  const clientOptions = {
    // SKILL.md (and skills-ref's skill.md) only, saved or not: every other Markdown file in the
    // workspace is not a skill. Diagnostics on a skill's other files come from the server all
    // the same.
    documentSelector: [
      { scheme: 'file', pattern: '**/{SKILL,skill}.md' },
      { scheme: 'untitled', language: 'markdown' },
    ],
    initializationOptions: { profiles: config.get('profiles') || [] },
    // No watcher here: the server registers its own (each skill folder, SKILL.md anywhere,
    // skillpg.toml), so node_modules and target are never watched, and editors that do not
    // watch unasked (Neovim, Helix) get the same events.
  };
  client = new LanguageClient('skillpg', 'Skill Playground', serverOptions, clientOptions);
  return client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `Skill Playground could not start \`${command} lsp\`: ${err.message}. ` +
        'Install skillpg (see the README) or set skillpg.server.path.',
    );
  });
}

function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('skillpg.restart', async () => {
      if (client) await client.stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('skillpg') && client) {
        await client.stop();
        await start();
      }
    }),
  );
  return start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
