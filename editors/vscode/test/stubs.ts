// Stand-ins for the modules only VS Code provides (`vscode`, and `vscode-languageclient/node`,
// which needs it), installed before the tests load the extension (mocha --require). They record
// what the extension asks of the editor, so the tests can check it.
import Module = require("module");

type Listener = (...args: unknown[]) => unknown;

export interface FakeDocument {
  uri: { toString(): string; fsPath: string };
  isDirty: boolean;
  saved: number;
  save(): Promise<boolean>;
}

export const editor = {
  trusted: true,
  settings: {} as Record<string, unknown>,
  commands: new Map<string, Listener>(),
  clients: [] as FakeClient[],
  tasks: [] as { name: string; command: string; args: string[] }[],
  warnings: [] as string[],
  opened: [] as string[],
  trustListeners: [] as Listener[],
  configListeners: [] as Listener[],
  activeDocument: undefined as FakeDocument | undefined,
  reset(): void {
    this.trusted = true;
    this.settings = {};
    this.commands.clear();
    this.clients.length = 0;
    this.tasks.length = 0;
    this.warnings.length = 0;
    this.opened.length = 0;
    this.trustListeners.length = 0;
    this.configListeners.length = 0;
    this.activeDocument = undefined;
  },
};

export function document(path: string, dirty = false): FakeDocument {
  return {
    uri: { toString: () => `file://${path}`, fsPath: path },
    isDirty: dirty,
    saved: 0,
    async save() { this.saved += 1; this.isDirty = false; return true; },
  };
}

export class FakeClient {
  started = 0;
  stopped = 0;
  requests: unknown[] = [];
  constructor(public id: string, public name: string, public server: any, public options: any) {
    editor.clients.push(this);
  }
  async start(): Promise<void> { this.started += 1; }
  async stop(): Promise<void> { this.stopped += 1; }
  async sendRequest(type: unknown, params: unknown): Promise<void> { this.requests.push(params); }
}

const disposable = { dispose: () => undefined };

const vscode = {
  workspace: {
    get isTrusted() { return editor.trusted; },
    textDocuments: [] as FakeDocument[],
    getConfiguration: () => ({
      get: <T>(key: string, fallback?: T) => (key in editor.settings ? editor.settings[key] : fallback) as T,
    }),
    onDidGrantWorkspaceTrust: (listener: Listener) => { editor.trustListeners.push(listener); return disposable; },
    onDidChangeConfiguration: (listener: Listener) => { editor.configListeners.push(listener); return disposable; },
  },
  window: {
    get activeTextEditor() { return editor.activeDocument ? { document: editor.activeDocument } : undefined; },
    createOutputChannel: () => ({ ...disposable, appendLine: () => undefined }),
    showWarningMessage: async (message: string) => { editor.warnings.push(message); },
    showErrorMessage: async (message: string) => { editor.warnings.push(message); },
    withProgress: async (_options: unknown, work: () => Promise<unknown>) => work(),
  },
  commands: {
    registerCommand: (name: string, handler: Listener) => { editor.commands.set(name, handler); return disposable; },
  },
  tasks: {
    executeTask: async (task: any) => {
      editor.tasks.push({ name: task.name, command: task.execution.process, args: task.execution.args });
    },
  },
  ProcessExecution: class { constructor(public process: string, public args: string[]) {} },
  Task: class {
    constructor(public definition: unknown, public scope: unknown, public name: string, public source: string,
                public execution: unknown) {}
  },
  TaskScope: { Workspace: 1 },
  ProgressLocation: { Notification: 15 },
  Uri: { parse: (value: string) => ({ toString: () => value, fsPath: value.replace(/^file:\/\//, "") }) },
  env: { openExternal: async (uri: { toString(): string }) => { editor.opened.push(uri.toString()); return true; } },
};

const languageClient = { LanguageClient: FakeClient, ExecuteCommandRequest: { type: "workspace/executeCommand" } };

const moduleLoader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const load = moduleLoader._load;
moduleLoader._load = function (request: string, ...rest: unknown[]) {
  if (request === "vscode") {
    return vscode;
  }
  if (request === "vscode-languageclient/node") {
    return languageClient;
  }
  return load.call(this, request, ...rest);
};
