// The extension's activation logic against the stand-in editor (test/stubs.ts).
import * as assert from "assert";
import * as fs from "fs";
import * as http from "http";
import * as os from "os";
import * as path from "path";
import { activate, deactivate } from "../src/extension";
import { document, editor } from "./stubs";

function context(): any {
  return { subscriptions: [] as unknown[], extensionUri: { fsPath: "/opt/ext" } };
}

describe("activation", () => {
  beforeEach(() => editor.reset());
  afterEach(async () => deactivate());

  it("starts tilecraft lsp from the configured Python with the settings", async () => {
    editor.settings = { python: "/venv/bin/python", debounceMs: 50, arch: "blackhole" };
    const ctx = context();
    await activate(ctx);
    assert.strictEqual(editor.clients.length, 1);
    const [client] = editor.clients;
    assert.strictEqual(client.started, 1);
    assert.strictEqual(client.server.command, "/venv/bin/python");
    assert.deepStrictEqual(client.server.args, ["-m", "tilecraft", "lsp", "--stdio"]);
    // the workspace is never the server's working directory (python -m would import from it)
    assert.strictEqual(client.server.options.cwd, "/opt/ext");
    assert.deepStrictEqual(client.options.documentSelector, [{ scheme: "file", language: "python" }]);
    assert.deepStrictEqual(client.options.initializationOptions, {
      runScripts: true, debounceMs: 50, sanitizeOnSave: true, sanitizeTimeoutS: 60, sanitizeMemoryMb: 4096,
      profileOnSave: true, arch: "blackhole",
    });
    assert.deepStrictEqual([...editor.commands.keys()].sort(), [
      "tilecraft.emitCpp", "tilecraft.openTrace", "tilecraft.restartServer", "tilecraft.runSimulator",
      "tilecraft.sanitizeFile"]);
    assert.ok(ctx.subscriptions.length >= 7);
  });

  it("uses python3 when no interpreter is configured", async () => {
    await activate(context());
    assert.strictEqual(editor.clients[0].server.command, "python3");
  });

  it("runs no script in an untrusted workspace, and restarts with scripts once trusted", async () => {
    editor.trusted = false;
    await activate(context());
    assert.strictEqual(editor.clients[0].options.initializationOptions.runScripts, false);
    editor.activeDocument = document("/w/kernel.py");
    await editor.commands.get("tilecraft.runSimulator")!();
    await editor.commands.get("tilecraft.emitCpp")!();
    assert.deepStrictEqual(editor.tasks, []);
    assert.strictEqual(editor.warnings.length, 2);
    assert.match(editor.warnings[0], /trust the workspace first/);
    editor.trusted = true;
    await editor.trustListeners[0]();
    assert.strictEqual(editor.clients[0].stopped, 1);
    assert.strictEqual(editor.clients.length, 2);
    assert.strictEqual(editor.clients[1].options.initializationOptions.runScripts, true);
  });

  it("runs the simulator and the emitter on the saved current file", async () => {
    editor.settings = { python: "/venv/bin/python" };
    await activate(context());
    const doc = document("/w/kernel.py", true);
    editor.activeDocument = doc;
    await editor.commands.get("tilecraft.runSimulator")!();
    await editor.commands.get("tilecraft.emitCpp")!();
    assert.strictEqual(doc.saved, 1);
    assert.deepStrictEqual(editor.tasks, [
      { name: "run", command: "/venv/bin/python", args: ["-m", "tilecraft", "run", "/w/kernel.py"] },
      { name: "emit", command: "/venv/bin/python",
        args: ["-m", "tilecraft", "emit", "/w/kernel.py", "-o", "/w/kernel_emitted"] },
    ]);
  });

  it("asks the server to sanitize the current file", async () => {
    await activate(context());
    editor.activeDocument = document("/w/kernel.py");
    await editor.commands.get("tilecraft.sanitizeFile")!();
    assert.deepStrictEqual(editor.clients[0].requests,
      [{ command: "tilecraft.sanitize", arguments: ["file:///w/kernel.py"] }]);
  });

  it("restarts the server when its settings change, not for other settings", async () => {
    await activate(context());
    await editor.configListeners[0]({ affectsConfiguration: (section: string) => section === "python" });
    assert.strictEqual(editor.clients.length, 1);
    await editor.configListeners[0]({ affectsConfiguration: (section: string) => section === "tilecraft" });
    assert.strictEqual(editor.clients.length, 2);
  });

  it("profiles the file with the CLI and opens its trace in Perfetto", async () => {
    // a stand-in interpreter that records its arguments and writes the trace where --trace says
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tilecraft-"));
    const python = path.join(dir, "python");
    fs.writeFileSync(python, `#!/bin/sh\necho "$@" > ${dir}/args\nwhile [ "$1" != "--trace" ]; do shift; done\n` +
      `echo '{"traceEvents": []}' > "$2"\n`, { mode: 0o755 });
    editor.settings = { python };
    await activate(context());
    editor.activeDocument = document("/w/kernel.py");
    await editor.commands.get("tilecraft.openTrace")!();
    const trace = path.join(os.tmpdir(), "kernel.trace.json");
    assert.strictEqual(fs.readFileSync(path.join(dir, "args"), "utf8").trim(),
      `-m tilecraft profile /w/kernel.py --no-values --trace ${trace}`);
    assert.deepStrictEqual(editor.opened,
      ["https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/kernel.trace.json"]);
    const body = await new Promise<string>((resolve, reject) => {
      http.get("http://127.0.0.1:9001/kernel.trace.json", (res) => {
        let text = "";
        res.on("data", (chunk) => { text += chunk; });
        res.on("end", () => resolve(text));
      }).on("error", reject);
    });
    assert.strictEqual(body.trim(), '{"traceEvents": []}');
  });

  it("opens the trace of a script whose checks fail without values, and says so", async () => {
    // `profile --no-values` exits 1 (E0710) when the script checks its results, after writing the trace
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tilecraft-"));
    const python = path.join(dir, "python");
    fs.writeFileSync(python, `#!/bin/sh\nwhile [ "$1" != "--trace" ]; do shift; done\n` +
      `echo '{"traceEvents": []}' > "$2"\necho "error[E0710]: the script raised AssertionError" >&2\nexit 1\n`,
      { mode: 0o755 });
    editor.settings = { python };
    await activate(context());
    editor.activeDocument = document("/w/checked.py");
    await editor.commands.get("tilecraft.openTrace")!();
    assert.deepStrictEqual(editor.opened,
      ["https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/checked.trace.json"]);
    assert.deepStrictEqual(editor.warnings, ["tilecraft: error[E0710]: the script raised AssertionError"]);
    await new Promise<void>((resolve, reject) => {
      http.get("http://127.0.0.1:9001/checked.trace.json", (res) => { res.resume(); res.on("end", resolve); })
        .on("error", reject);
    });
  });

  it("reports a profile that wrote no trace", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tilecraft-"));
    const python = path.join(dir, "python");
    fs.writeFileSync(python, `#!/bin/sh\necho "error[E0101]: not in the subset" >&2\nexit 1\n`, { mode: 0o755 });
    fs.rmSync(path.join(os.tmpdir(), "broken.trace.json"), { force: true });
    editor.settings = { python };
    await activate(context());
    editor.activeDocument = document("/w/broken.py");
    await editor.commands.get("tilecraft.openTrace")!();
    assert.deepStrictEqual(editor.opened, []);
    assert.deepStrictEqual(editor.warnings, ["tilecraft profile failed: error[E0101]: not in the subset"]);
  });
});
