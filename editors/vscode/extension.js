// A minimal client: VS Code starts `interpret lsp` (stdio) for the YAML files of a game's folder
// (docs/lsp.md). Install: `npm install` here, then `code --extensionDevelopmentPath=editors/vscode`.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("interpret").get("command");
  client = new LanguageClient(
    "interpret",
    "interpret",
    { command, args },
    { documentSelector: [{ scheme: "file", language: "yaml" }] }
  );
  client.start(); // the code lens' command (interpret.runScenarios) is the server's: the client registers it
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
