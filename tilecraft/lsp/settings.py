"""The language server's settings, from the client's ``initializationOptions`` (camelCase keys).

Defaults are chosen for the latency targets in docs/lsp.md: a compile check starts 100 ms after
the last keystroke and takes tens of milliseconds on the examples.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from .workerclient import RunLimits


@dataclass
class Settings:
    #: execute the user's scripts at all (compile check, sanitizer, profile). The compile check
    #: runs the script's host code too, so an editor turns this off for untrusted workspaces;
    #: hover, completion and go-to-definition never run anything
    run_scripts: bool = True
    #: quiet time after the last change before the compile check starts
    debounce_ms: float = 100.0
    compile_timeout_s: float = 10.0
    #: the sanitizer (full simulation) on every save
    sanitize_on_save: bool = True
    sanitize_timeout_s: float = 60.0
    sanitize_memory_mb: int = 4096
    #: the profile (cost model, no values) on open and on every save
    profile_on_save: bool = True
    profile_timeout_s: float = 30.0
    arch: str = "wormhole_b0"
    fidelity: str = "HiFi4"
    #: the sanitizer's block math: "ideal", or "device" (the device's arithmetic, as ``tilecraft run --numerics device``)
    numerics: str = "ideal"

    def apply(self, options: dict[str, Any] | None) -> None:
        """Take the known keys of the client's options (``debounceMs`` sets ``debounce_ms``)."""
        names = {f.name for f in dataclasses.fields(self)}
        for key, value in (options or {}).items():
            name = re.sub(r"(?<!^)([A-Z])", r"_\1", key).lower()
            if name in names and value is not None:
                setattr(self, name, type(getattr(self, name))(value))

    def limits(self, mode: str) -> RunLimits:
        if mode == "sanitize":
            return RunLimits(self.sanitize_timeout_s, self.sanitize_memory_mb)
        if mode == "profile":
            return RunLimits(self.profile_timeout_s, self.sanitize_memory_mb)
        return RunLimits(self.compile_timeout_s, self.sanitize_memory_mb)
