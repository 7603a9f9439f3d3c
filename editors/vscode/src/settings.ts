// The extension's settings, and how they become the language server's command and options.
import type { WorkspaceConfiguration } from "vscode";

export interface ServerLaunch {
  command: string;
  args: string[];
  // the server's initializationOptions (tilecraft/lsp/settings.py reads the camelCase keys)
  initializationOptions: Record<string, unknown>;
}

// The interpreter of the environment tilecraft is installed in ("tilecraft.python"), or python3.
export function pythonOf(config: WorkspaceConfiguration): string {
  const configured = (config.get<string>("python") ?? "").trim();
  return configured === "" ? "python3" : configured;
}

// `python -m tilecraft lsp` with the settings. In an untrusted workspace the server runs no
// script at all (the compile check executes the script's host code, like the sanitizer).
export function serverLaunch(config: WorkspaceConfiguration, trusted: boolean): ServerLaunch {
  return {
    command: pythonOf(config),
    args: ["-m", "tilecraft", "lsp", "--stdio"],
    initializationOptions: {
      runScripts: trusted,
      debounceMs: config.get<number>("debounceMs", 100),
      sanitizeOnSave: config.get<boolean>("sanitizeOnSave", true),
      sanitizeTimeoutS: config.get<number>("sanitizeTimeoutS", 60),
      sanitizeMemoryMb: config.get<number>("sanitizeMemoryMb", 4096),
      profileOnSave: config.get<boolean>("profileOnSave", true),
      arch: config.get<string>("arch", "wormhole_b0"),
    },
  };
}
