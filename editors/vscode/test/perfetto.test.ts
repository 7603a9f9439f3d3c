// Serving a trace to the Perfetto UI: once, on localhost, with the CORS header it needs.
import * as assert from "assert";
import * as fs from "fs";
import * as http from "http";
import * as os from "os";
import * as path from "path";
import { perfettoUrl, serveTraceOnce } from "../src/perfetto";

function get(url: string, method = "GET"): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method }, (res) => {
      let body = "";
      res.on("data", (chunk) => { body += chunk; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("perfetto", () => {
  it("links the UI to the local trace", () => {
    assert.strictEqual(perfettoUrl("k.trace.json"), "https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/k.trace.json");
  });

  it("serves the trace once with the UI's origin allowed, then closes", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tilecraft-"));
    const trace = path.join(dir, "k.trace.json");
    fs.writeFileSync(trace, '{"traceEvents": []}');
    const port = 19001;
    const { url, done } = await serveTraceOnce(trace, port, 5000);
    assert.ok(url.endsWith(`127.0.0.1:${port}/k.trace.json`));
    const local = `http://127.0.0.1:${port}/k.trace.json`;
    assert.strictEqual((await get(`http://127.0.0.1:${port}/other.json`)).status, 404);
    const preflight = await get(local, "OPTIONS");
    assert.strictEqual(preflight.status, 204);
    const fetched = await get(local);
    assert.strictEqual(fetched.status, 200);
    assert.strictEqual(fetched.headers["access-control-allow-origin"], "https://ui.perfetto.dev");
    assert.strictEqual(fetched.body, '{"traceEvents": []}');
    assert.strictEqual(await done, true);
    await assert.rejects(get(local));
  });
});
