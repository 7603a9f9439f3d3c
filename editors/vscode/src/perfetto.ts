// Opening a trace in the Perfetto UI (ui.perfetto.dev): the page fetches it from the one local
// address its content security policy allows, http://127.0.0.1:9001, which we serve the file on
// once (with the CORS header the page needs) and then close.
import * as fs from "fs";
import * as http from "http";
import * as path from "path";

export const PERFETTO = "https://ui.perfetto.dev";
export const PORT = 9001;

export function perfettoUrl(traceName: string, port: number = PORT): string {
  return `${PERFETTO}/#!/?url=http://127.0.0.1:${port}/${encodeURIComponent(traceName)}`;
}

// Serve `trace` on 127.0.0.1:`port` until it was fetched once or `timeoutMs` passed.
// Resolves when the server listens; `done` resolves when it closed (true: the trace was fetched).
export function serveTraceOnce(
  trace: string, port: number = PORT, timeoutMs = 120000,
): Promise<{ url: string; done: Promise<boolean> }> {
  const name = path.basename(trace);
  return new Promise((resolve, reject) => {
    let finish: (fetched: boolean) => void = () => undefined;
    const done = new Promise<boolean>((r) => { finish = r; });
    const server = http.createServer((req, res) => {
      res.setHeader("Access-Control-Allow-Origin", PERFETTO);
      res.setHeader("Access-Control-Allow-Methods", "GET, OPTIONS");
      if (req.method === "OPTIONS") {
        res.writeHead(204);
        res.end();
        return;
      }
      if (req.method !== "GET" || req.url !== `/${encodeURIComponent(name)}`) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      fs.createReadStream(trace).pipe(res).on("finish", () => close(true));
    });
    const timer = setTimeout(() => close(false), timeoutMs);
    function close(fetched: boolean): void {
      clearTimeout(timer);
      server.close(() => finish(fetched));
    }
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve({ url: perfettoUrl(name, port), done }));
  });
}
