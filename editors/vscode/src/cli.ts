// The tilecraft command lines the extension's commands run (the CLI does the work).
import * as path from "path";

// `tilecraft run FILE`: the script in the simulator.
export function runArgs(file: string): string[] {
  return ["-m", "tilecraft", "run", file];
}

// `tilecraft emit FILE -o DIR`: TT-Metalium C++ for every program, next to the script.
export function emitArgs(file: string): { args: string[]; output: string } {
  const output = path.join(path.dirname(file), `${path.basename(file, ".py")}_emitted`);
  return { args: ["-m", "tilecraft", "emit", file, "-o", output], output };
}

// `tilecraft profile FILE --no-values --trace TRACE`: the Chrome trace of the predicted timeline
// (values are not computed, so real problem sizes are cheap; a script that checks its results then
// exits 1 with E0710 after the trace is written).
export function traceArgs(file: string, directory: string): { args: string[]; trace: string } {
  const trace = path.join(directory, `${path.basename(file, ".py")}.trace.json`);
  return { args: ["-m", "tilecraft", "profile", file, "--no-values", "--trace", trace], trace };
}
