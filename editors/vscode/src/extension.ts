// tilecraft for VS Code: starts `tilecraft lsp` from the configured Python environment (the
// diagnostics, the per-line profile as inlay hints, each program's time as a code lens, hover,
// completion, go to definition) and adds commands that run the CLI on the current file: the
// simulator, C++ emission, and the profile's trace opened in Perfetto.
//
// Workspace trust: scripts are executed only in a trusted workspace. Untrusted, the server starts
// with runScripts off and the commands that run the file refuse; trusting the workspace restarts
// the server with scripts on.
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient } from "vscode-languageclient/node";
import { emitArgs, runArgs, traceArgs } from "./cli";
import { serveTraceOnce } from "./perfetto";
import { pythonOf, serverLaunch } from "./settings";

const SECTION = "tilecraft";
let client: LanguageClient | undefined;

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

function makeClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): LanguageClient {
  const launch = serverLaunch(config(), vscode.workspace.isTrusted);
  // the extension's own folder as working directory: `python -m` puts the working directory on
  // sys.path, and the workspace's files must not be imported by the server
  const options = { cwd: context.extensionUri.fsPath, env: { ...process.env, OMP_NUM_THREADS: "1" } };
  return new LanguageClient(
    "tilecraft", "tilecraft",
    { command: launch.command, args: launch.args, options },
    {
      documentSelector: [{ scheme: "file", language: "python" }],
      initializationOptions: launch.initializationOptions,
      outputChannel: output,
    },
  );
}

// The file a command acts on: the code lens's argument, else the active editor's (saved first:
// the CLI reads the file from disk).
async function targetFile(uri?: string): Promise<string | undefined> {
  const document = uri
    ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)
    : vscode.window.activeTextEditor?.document;
  if (document === undefined) {
    if (uri) {
      return vscode.Uri.parse(uri).fsPath;
    }
    void vscode.window.showWarningMessage("tilecraft: open a TT-Lang script first");
    return undefined;
  }
  if (document.isDirty) {
    await document.save();
  }
  return document.uri.fsPath;
}

function requireTrust(what: string): boolean {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(`tilecraft: ${what} executes the script; trust the workspace first`);
  }
  return vscode.workspace.isTrusted;
}

// Run the CLI in a task: its output shows in the terminal panel.
async function runTask(name: string, args: string[]): Promise<void> {
  const execution = new vscode.ProcessExecution(pythonOf(config()), args);
  const task = new vscode.Task({ type: SECTION }, vscode.TaskScope.Workspace, name, SECTION, execution);
  await vscode.tasks.executeTask(task);
}

function execPython(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(pythonOf(config()), args, { env: { ...process.env, OMP_NUM_THREADS: "1" } }, (error, _out, err) =>
      error ? reject(new Error(err.trim() || error.message)) : resolve());
  });
}

async function openTrace(uri?: string): Promise<void> {
  const file = await targetFile(uri);
  if (file === undefined || !requireTrust("the profile")) {
    return;
  }
  const { args, trace } = traceArgs(file, os.tmpdir());
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "tilecraft: profiling" }, () => execPython(args));
  } catch (error) {
    if (!fs.existsSync(trace)) {
      void vscode.window.showErrorMessage(`tilecraft profile failed: ${(error as Error).message}`);
      return;
    }
    // the script failed after its programs were profiled (E0710: its checks on results, which
    // --no-values does not compute): the trace is written, so it opens, and the failure is shown
    void vscode.window.showWarningMessage(`tilecraft: ${(error as Error).message}`);
  }
  try {
    const { url } = await serveTraceOnce(trace);
    await vscode.env.openExternal(vscode.Uri.parse(url));
  } catch (error) {
    void vscode.window.showErrorMessage(
      `tilecraft: cannot serve the trace to Perfetto (${(error as Error).message}); open ${trace} in ui.perfetto.dev`);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("tilecraft", { log: true });
  const restart = async (): Promise<void> => {
    await client?.stop();
    client = makeClient(context, output);
    await client.start();
  };
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("tilecraft.runSimulator", async (uri?: string) => {
      const file = await targetFile(uri);
      if (file !== undefined && requireTrust("running the simulator")) {
        await runTask("run", runArgs(file));
      }
    }),
    vscode.commands.registerCommand("tilecraft.emitCpp", async (uri?: string) => {
      const file = await targetFile(uri);
      if (file !== undefined && requireTrust("emitting C++")) {
        await runTask("emit", emitArgs(file).args);
      }
    }),
    vscode.commands.registerCommand("tilecraft.openTrace", openTrace),
    // the server's own command (tilecraft.sanitize) needs the file; the palette's gives it
    vscode.commands.registerCommand("tilecraft.sanitizeFile", async () => {
      const document = vscode.window.activeTextEditor?.document;
      if (document !== undefined && client !== undefined && requireTrust("the sanitizer")) {
        await client.sendRequest(ExecuteCommandRequest.type,
          { command: "tilecraft.sanitize", arguments: [document.uri.toString()] });
      }
    }),
    vscode.commands.registerCommand("tilecraft.restartServer", restart),
    vscode.workspace.onDidGrantWorkspaceTrust(restart),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration(SECTION)) {
        await restart();
      }
    }),
  );
  await restart();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
