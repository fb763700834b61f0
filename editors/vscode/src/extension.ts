// The baton extension: runs `baton serve` over stdio for Markdown and XMD
// documents, passes the baton.* settings to it, and adds the Restart server,
// Explain rule at cursor and Show read ledger commands.
import { execFile } from 'child_process';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { findBaton, Found } from './binary';

let client: LanguageClient | undefined;
let binary: Found | undefined;
let output: vscode.OutputChannel;
let ledgerOutput: vscode.OutputChannel | undefined;
let extensionDir = '';

const explainScheme = 'baton-explain';
const explanations = new Map<string, string>();
const explainChanged = new vscode.EventEmitter<vscode.Uri>();

/** serverSettings is what baton reads, under "baton", in initializationOptions and didChangeConfiguration. */
function serverSettings(): Record<string, unknown> {
  const c = vscode.workspace.getConfiguration('baton');
  const s: Record<string, unknown> = {
    debounce: c.get<number>('debounce', 150),
    diagnostics: c.get<string>('diagnostics', 'auto'),
    severity: c.get<Record<string, string>>('severity', {}),
    phrases: c.get<Record<string, string[]>>('phrases', {}),
  };
  const stateDir = c.get<string>('stateDir', '').trim();
  if (stateDir !== '') {
    s.stateDir = stateDir;
  }
  return s;
}

function workspaceDir(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

async function startClient(): Promise<void> {
  const setting = vscode.workspace.getConfiguration('baton').get<string>('path', '');
  const found = findBaton(setting, extensionDir, workspaceDir());
  if ('error' in found) {
    binary = undefined;
    output.appendLine(`baton: ${found.error}`);
    const open = 'Open Settings';
    void vscode.window
      .showErrorMessage(`baton: ${found.error} Set "baton.path" to the baton binary.`, open)
      .then((choice) => {
        if (choice === open) {
          void vscode.commands.executeCommand('workbench.action.openSettings', 'baton.path');
        }
      });
    return;
  }
  binary = found;
  output.appendLine(`baton: using ${found.path} (from ${found.from})`);

  // No transport: TransportKind.stdio would append --stdio, which baton serve does not take.
  const run = { command: found.path, args: ['serve'] };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'markdown' },
      { scheme: 'untitled', language: 'markdown' },
      { scheme: 'file', language: 'xmd' },
      { scheme: 'file', pattern: '**/*.xmd' },
    ],
    initializationOptions: { baton: serverSettings() },
    outputChannel: output,
  };
  client = new LanguageClient('baton', 'baton', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (e) {
    void vscode.window.showErrorMessage(`baton: the server (${found.path} serve) did not start: ${String(e)}`);
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c && c.state !== State.Stopped) {
    try {
      await c.stop();
    } catch (e) {
      output.appendLine(`baton: stopping the server: ${String(e)}`);
    }
  }
}

async function restart(): Promise<void> {
  await stopClient();
  await startClient();
}

/** runBaton runs the binary with args and resolves with its standard output. */
function runBaton(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve, reject) => {
    if (!binary) {
      reject(new Error('no baton binary found: set "baton.path"'));
      return;
    }
    execFile(binary.path, args, { cwd: workspaceDir(), maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const code = err && typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 0;
      if (err && typeof (err as { code?: unknown }).code !== 'number') {
        reject(err);
        return;
      }
      resolve({ stdout, stderr, code });
    });
  });
}

function ruleId(d: vscode.Diagnostic): string | undefined {
  const code = d.code;
  if (code === undefined) {
    return undefined;
  }
  if (typeof code === 'object') {
    return String(code.value);
  }
  return String(code);
}

async function explainRuleAtCursor(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('baton: open a document first.');
    return;
  }
  const pos = editor.selection.active;
  const diags = vscode.languages
    .getDiagnostics(editor.document.uri)
    .filter((d) => d.source === 'baton' && d.range.contains(pos));
  const ids = [...new Set(diags.map(ruleId).filter((x): x is string => !!x))];
  let id: string | undefined;
  if (ids.length === 0) {
    void vscode.window.showInformationMessage('baton: no baton diagnostic under the cursor.');
    return;
  } else if (ids.length === 1) {
    id = ids[0];
  } else {
    id = await vscode.window.showQuickPick(ids, { placeHolder: 'Which rule?' });
  }
  if (!id) {
    return;
  }
  let text: string;
  try {
    const r = await runBaton(['explain', id]);
    if (r.code !== 0) {
      throw new Error(r.stderr.trim() || `exit status ${r.code}`);
    }
    text = r.stdout;
  } catch (e) {
    void vscode.window.showErrorMessage(`baton explain ${id}: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  const uri = vscode.Uri.from({ scheme: explainScheme, path: `/${id}.md` });
  explanations.set(uri.toString(), text);
  explainChanged.fire(uri);
  try {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
  } catch {
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
  }
}

const carriedFrom = /Carried from session `([^`\r\n]+)`\./;

async function showLedger(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const m = editor ? carriedFrom.exec(editor.document.getText()) : null;
  if (!m) {
    void vscode.window.showInformationMessage(
      'baton: this is not a handoff document: it has no "Carried from session `<id>`." line.',
    );
    return;
  }
  const id = m[1];
  const args = ['ledger'];
  const stateDir = vscode.workspace.getConfiguration('baton').get<string>('stateDir', '').trim();
  if (stateDir !== '') {
    args.push('--state-dir', stateDir);
  }
  args.push(id);
  let r: { stdout: string; stderr: string; code: number };
  try {
    r = await runBaton(args);
  } catch (e) {
    void vscode.window.showErrorMessage(`baton ledger: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  ledgerOutput ??= vscode.window.createOutputChannel('baton ledger');
  ledgerOutput.clear();
  ledgerOutput.appendLine(`$ baton ${args.join(' ')}`);
  ledgerOutput.append(r.stdout);
  if (r.stderr) {
    ledgerOutput.append(r.stderr);
  }
  ledgerOutput.show(true);
  if (r.code !== 0) {
    void vscode.window.showErrorMessage(
      `baton ledger ${id}: ${r.stderr.trim().split('\n')[0] || `exit status ${r.code}`}` +
        (stateDir === '' ? ' (set "baton.stateDir" to clio-coder\'s state folder)' : ''),
    );
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionDir = context.extensionPath;
  output = vscode.window.createOutputChannel('baton');
  context.subscriptions.push(
    output,
    explainChanged,
    vscode.workspace.registerTextDocumentContentProvider(explainScheme, {
      onDidChange: explainChanged.event,
      provideTextDocumentContent: (uri) => explanations.get(uri.toString()) ?? '',
    }),
    vscode.commands.registerCommand('baton.restartServer', restart),
    vscode.commands.registerCommand('baton.explainRule', explainRuleAtCursor),
    vscode.commands.registerCommand('baton.showLedger', showLedger),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration('baton')) {
        return;
      }
      // The binary and the diagnostics mode are fixed when the server starts.
      if (e.affectsConfiguration('baton.path') || e.affectsConfiguration('baton.diagnostics') || !client) {
        await restart();
        return;
      }
      if (client.state === State.Running) {
        await client.sendNotification('workspace/didChangeConfiguration', { settings: { baton: serverSettings() } });
      }
    }),
    { dispose: () => void stopClient() },
  );
  await startClient();
}

export function deactivate(): Thenable<void> | undefined {
  return client ? stopClient() : undefined;
}
