// Skill Playground for VS Code: starts `skillpg lsp` (the engine's language server) for
// SKILL.md and the files of each skill folder. Everything it shows comes from the server:
// diagnostics, quick fixes, hovers, completion, document links and inlay hints.
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
    // SKILL.md and everything else in a folder beside one: references, scripts' docs.
    documentSelector: [
      { scheme: 'file', pattern: '**/{SKILL,skill}.md' },
      { scheme: 'file', language: 'markdown' },
    ],
    initializationOptions: { profiles: config.get('profiles') || [] },
    synchronize: {
      // Files added, changed or removed outside the editor (and skillpg.toml) re-read the skill.
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*'),
    },
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
