"""Which ttnn functions tt-metal's model code calls most: the ranking docs/ttnn.md quotes.

    .venv/bin/python -m benchmarks.ttnn_usage_ranking GIT_DIR COMMIT > tilecraft/ttnn/usage_ranking.json

GIT_DIR is a git directory holding tt-metal's history (a bare mirror is enough: files are read with
``git show COMMIT:path``, no work tree is needed). Every ``.py`` file under the sample directories
below, except tests and demos, is parsed with :mod:`ast`, and each call whose callee is an attribute
chain rooted at the name ``ttnn`` (``ttnn.linear(...)``, ``ttnn.transformer.scaled_dot_product_attention(...)``)
counts once for its dotted name, and the keyword arguments it passes are collected per function
(``"keywords"``: the coverage test checks that the simulated functions accept them). Parsing rather
than matching text leaves out calls in comments, strings and docstrings. Names whose last part starts with a capital letter are classes
(``ttnn.MemoryConfig(...)``, program configs) and are counted apart from the functions.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from collections import Counter

#: the sample: one directory (subtree) per model family, named in docs/ttnn.md
SAMPLE = (
    "models/tt_transformers/tt",  # Llama 3.x, Mistral, Qwen, Gemma, ... (the shared decoder implementation)
    "models/common",  # the modules those models share (RMSNorm, sampling, rotary embedding, LM head)
    "models/demos/llama3_70b_galaxy/tt",
    "models/demos/falcon7b_common/tt",
    "models/demos/ttnn_falcon7b/tt",
    "models/demos/bert/tt",
    "models/demos/vision/classification/resnet50/ttnn_resnet/tt",
    "models/demos/vision/classification/vit",
    "models/demos/vision/classification/mobilenetv2",
    "models/demos/audio/whisper/tt",
    "models/demos/vision/generative/stable_diffusion/wormhole/tt",
    "models/demos/stable_diffusion_xl_base",
    "models/demos/vision/segmentation/segformer/tt",
    "models/demos/vision/segmentation/vanilla_unet/tt",
)

#: folder names, below a sample directory, that hold test, demo and benchmark code rather than model code
EXCLUDED_PARTS = ("tests", "test", "demo", "demos", "perf")


def sample_files(git_dir: str, commit: str) -> list[str]:
    """The model source files of the sample at ``commit``."""
    listing = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit, *SAMPLE],
                             check=True, capture_output=True, text=True).stdout.split()
    def model_code(path: str) -> bool:
        root = next(d for d in SAMPLE if path.startswith(d + "/"))
        *folders, name = path[len(root) + 1:].split("/")
        return name.endswith(".py") and not name.startswith("test_") and not set(folders) & set(EXCLUDED_PARTS)
    return [p for p in listing if model_code(p)]


def dotted_ttnn_callee(call: ast.Call) -> str | None:
    """``transformer.scaled_dot_product_attention`` for ``ttnn.transformer.scaled_dot_product_attention(...)``."""
    parts = []
    node = call.func
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "ttnn" and parts:
        return ".".join(reversed(parts))
    return None


def count(git_dir: str, commit: str) -> dict:
    files = sample_files(git_dir, commit)
    functions: Counter = Counter()
    classes: Counter = Counter()
    keywords: dict[str, set[str]] = {}
    unparsed = []
    for path in files:
        text = subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
                              check=True, capture_output=True, text=True).stdout
        try:
            tree = ast.parse(text)
        except SyntaxError:
            unparsed.append(path)
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (name := dotted_ttnn_callee(node)):
                (classes if name.rsplit(".", 1)[-1][:1].isupper() else functions)[name] += 1
                keywords.setdefault(name, set()).update(k.arg for k in node.keywords if k.arg is not None)
    return {
        "commit": commit,
        "sample": list(SAMPLE),
        "files": len(files),
        "unparsed": unparsed,
        "functions": ranked(functions),
        "classes": ranked(classes),
        "keywords": {name: sorted(keywords[name]) for name in ranked(functions) if keywords[name]},
    }


def ranked(counts: Counter) -> dict[str, int]:
    """Most calls first; equal counts in name order, so that the ranking is the same on every run."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir")
    parser.add_argument("commit")
    args = parser.parse_args(argv)
    json.dump(count(args.git_dir, args.commit), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
