"""TileLang's tile language on tilecraft (docs/tilelang.md): each construct computes what
torch does, the examples run at every level, and every refused construct is its diagnostic at its
line and column (E0840-E0847).
"""

from __future__ import annotations

import ast
import contextlib
import io
import runpy
import textwrap
from pathlib import Path

import pytest

from tests import paths
from tests.outputs import assert_same_bits, launch_outputs, show_threads
from tilecraft.cli import main
from tilecraft.diagnostics import KernelError

pytestmark = pytest.mark.usefixtures("fresh_process_state")

EXAMPLES = sorted((paths.EXAMPLES / "tilelang").glob("*.py"))

HEAD = '''\
import torch
import tilecraft.tilelang as T

torch.manual_seed(0)
X = torch.randn(64, 64).to(torch.bfloat16)
'''


def script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "kernel.py"
    path.write_text(HEAD + textwrap.dedent(body))
    return path


def run_script(path: Path) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        runpy.run_path(str(path), run_name="__main__")


#: by default every example at the language level and the GEMM at the metal level; --level cpp
#: (g++ builds of three kernels, 6-8 s each example when cold) and the other metal runs are slow tests
RUNS = [pytest.param(path, level, id=f"{path.stem}-{level}",
                     marks=() if level == "language" or (path.stem, level) == ("gemm", "metal") else pytest.mark.slow)
        for path in EXAMPLES for level in ("language", "metal", "cpp")]


def test_the_examples_are_there() -> None:
    assert {p.stem for p in EXAMPLES} >= {"gemm", "elementwise", "softmax", "flash_attention"}


@pytest.mark.parametrize("path,level", RUNS)
def test_example_runs_at_each_level(path: Path, level: str) -> None:
    """The examples check themselves against torch; --level metal runs the lowered Metalium calls,
    --level cpp the emitted C++ on the kernel emulator."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["run", str(path), "--level", level]) == 0
    assert ": OK" in out.getvalue()


@pytest.mark.parametrize("name", ["gemm", pytest.param("flash_attention", marks=pytest.mark.slow)])
def test_example_fast_equals_exact(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Batched and one-value-at-a-time evaluation store the same bits (as for examples/*.py)."""
    path = paths.EXAMPLES / "tilelang" / f"{name}.py"
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(path, capsys, "--exact"))


@pytest.mark.parametrize("name", ["elementwise", pytest.param("gemm", marks=pytest.mark.slow),
                                  pytest.param("softmax", marks=pytest.mark.slow),
                                  pytest.param("flash_attention", marks=pytest.mark.slow)])
def test_show_threads_prints_a_standalone_program_with_the_same_bits(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The printed program has no TileLang left: the jit factory returns a plain launch function
    around the explicit-thread operation, and the script's own host code runs unchanged."""
    path = paths.EXAMPLES / "tilelang" / f"{name}.py"
    graduated = tmp_path / f"{name}_threads.py"
    text = show_threads(path, graduated)
    tree = ast.parse(text)
    imported = {n.module if isinstance(n, ast.ImportFrom) else a.name
                for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    assert not any("tilelang" in m for m in imported) and "tilecraft" in imported
    assert not {"T", "jit"} & {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert text.count("@ttl.datamovement()") == 2 and text.count("@ttl.compute()") == 1
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(graduated, capsys))


def test_show_threads_of_a_prim_func_without_jit_writes_the_stored_tensors_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = script(tmp_path, '''
        @T.prim_func
        def double(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
            with T.Kernel(1, 2) as (bx, by):
                for i, j in T.Parallel(32, 64):
                    C[by * 32 + i, j] = A[by * 32 + i, j] * 2.0

        c = torch.zeros(64, 64).to(torch.bfloat16)
        double(X, c)
        assert torch.equal(c, X * 2)
        print("double: OK")
    ''')
    graduated = tmp_path / "threads.py"
    text = show_threads(path, graduated)
    assert "import tilecraft.tilelang" not in text and "def double(A, C):" in text
    assert "C.copy_(ttnn.to_torch(C_device).to(C.dtype))" in text
    assert_same_bits(launch_outputs(path, capsys), launch_outputs(graduated, capsys))


def test_ttnn_tensors_launch_directly_and_other_shapes_are_refused(tmp_path: Path) -> None:
    """A prim_func takes ttnn tensors as they are (and a T.Parallel body may name a value); a launch
    with other shapes than the T.Tensor annotations is E0846 at the parameter."""
    run_script(script(tmp_path, '''
        import pytest
        import tilecraft.ttnn as ttnn
        from tilecraft.diagnostics import KernelError

        @T.prim_func
        def double(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
            with T.Kernel(1, 2) as (bx, by):
                for i, j in T.Parallel(32, 64):
                    twice = A[by * 32 + i, j] * 2.0
                    C[by * 32 + i, j] = twice

        a = ttnn.from_torch(X, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
        c = ttnn.zeros((64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
        double(a, c)
        assert torch.equal(ttnn.to_torch(c), X * 2)
        with pytest.raises(KernelError) as info:
            double(torch.zeros(32, 64).to(torch.bfloat16), torch.zeros(64, 64).to(torch.bfloat16))
        d = info.value.diagnostic
        assert (d.code, d.span.line) == ("E0846", 12), d
    '''))


def test_single_threaded_refusals_point_at_the_tilelang_line(tmp_path: Path) -> None:
    """What the single-threaded form refuses after translation (here E0820, a store read back) is
    reported at the TileLang statement it came from."""
    path = script(tmp_path, '''
        @T.prim_func
        def k(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
            with T.Kernel(2, 2) as (bx, by):
                F = T.alloc_fragment((32, 32), "float")
                T.copy(A[by * 32, bx * 32], F)
                T.copy(F, C[by * 32, bx * 32])
                T.copy(C[by * 32, bx * 32], F)  # HERE
                T.copy(F, C[by * 32, bx * 32])

        k(X, torch.zeros(64, 64).to(torch.bfloat16))
    ''')
    with pytest.raises(KernelError) as info:
        run_script(path)
    d = info.value.diagnostic
    line = next(i for i, text in enumerate(path.read_text().splitlines(), start=1) if text.endswith("# HERE"))
    assert (d.code, d.span.file, d.span.line) == ("E0820", str(path), line), d


def test_reductions_and_row_broadcast_give_softmax(tmp_path: Path) -> None:
    """T.reduce_max / T.reduce_sum into per-row fragments, read back as m[i] in T.Parallel."""
    run_script(script(tmp_path, '''
        @T.prim_func
        def softmax(A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16")):
            with T.Kernel(1, 2) as (bx, by):
                S = T.alloc_shared((32, 64), "bfloat16")
                F = T.alloc_fragment((32, 64), "float")
                m = T.alloc_fragment((32,), "float")
                s = T.alloc_fragment((32,), "float")
                T.copy(A[by * 32:by * 32 + 32, 0:64], S)
                T.reduce_max(S, m, dim=1)
                for i, j in T.Parallel(32, 64):
                    F[i, j] = T.exp(S[i, j] - m[i])
                T.reduce_sum(F, s, dim=1)
                for i, j in T.Parallel(32, 64):
                    F[i, j] = F[i, j] / s[i]
                T.copy(F, B[by * 32, bx * 64])

        Y = torch.zeros(64, 64).to(torch.bfloat16)
        softmax(X, Y)
        want = torch.softmax(X.float(), dim=-1)
        assert torch.allclose(Y.float(), want, rtol=2e-2, atol=2e-3), (Y.float() - want).abs().max()
    '''))


def test_fill_copy_between_buffers_and_gemm_clear_accum(tmp_path: Path) -> None:
    """T.fill, a buffer-to-buffer T.copy, T.gemm(clear_accum=True) and a += element body."""
    run_script(script(tmp_path, '''
        @T.prim_func
        def k(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "float32")):
            with T.Kernel(2, 2) as (bx, by):
                A_s = T.alloc_shared((32, 32), "bfloat16")
                F = T.alloc_fragment((32, 32), "float")
                G = T.alloc_fragment((32, 32), "float")
                T.copy(A[by * 32, bx * 32], A_s)
                T.gemm(A_s, A_s, F, clear_accum=True)
                T.fill(G, 0.5)
                for i, j in T.Parallel(32, 32):
                    G[i, j] += F[i, j]
                T.copy(G, F)
                T.copy(F, C[by * 32, bx * 32])

        C = torch.zeros(64, 64)
        k(X, C)
        blocks = X.float().reshape(2, 32, 2, 32).permute(0, 2, 1, 3)
        want = (blocks @ blocks + 0.5).permute(0, 2, 1, 3).reshape(64, 64)
        assert torch.allclose(C, want, rtol=2e-2, atol=2e-2), (C - want).abs().max()
    '''))


KERNEL = '''
    @T.prim_func
    def k(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
        with T.Kernel(2, 2) as (bx, by):
            S = T.alloc_shared((32, 32), "bfloat16")
            F = T.alloc_fragment((32, 32), "float")
{body}
            T.copy(F, C[by * 32, bx * 32])
'''

#: (name, code, the text where the span starts on the line marked # HERE, the kernel body)
REFUSED = [
    ("atomic_add", "E0840", "T.atomic_add", "T.copy(A[by * 32, bx * 32], F)\nT.atomic_add(C[0, 0], 1)  # HERE"),
    ("alloc_local", "E0840", "T.alloc_local", "T.copy(A[by * 32, bx * 32], F)\nL = T.alloc_local((1,), 'float')  # HERE"),
    ("unaligned_offset", "E0841", "by * 32 + 16", "T.copy(A[by * 32 + 16, bx * 32], F)  # HERE"),
    ("unaligned_buffer", "E0841", "T.alloc_shared", "Q = T.alloc_shared((16, 32), 'bfloat16')  # HERE\nT.clear(F)"),
    ("fragment_indexed", "E0842", "S[0, j]", "T.copy(A[by * 32, bx * 32], S)\n"
                                             "for i, j in T.Parallel(32, 32):\n    F[i, j] = S[0, j]  # HERE"),
    ("fragment_outside_parallel", "E0842", "S[0, 0]", "T.copy(A[by * 32, bx * 32], S)\nv = S[0, 0] * 2  # HERE\n"
                                                      "T.fill(F, v)"),
    ("grid_mismatch", "E0843", "C[by * 32, bx * 32]", "T.clear(F)"),
    ("data_dependent_serial", "E0844", "A[0, 0]", "T.clear(F)\nfor t in T.serial(A[0, 0]):  # HERE\n    T.clear(F)"),
    ("uninitialised_gemm", "E0845", "F", "T.copy(A[by * 32, bx * 32], S)\nT.gemm(S, S, F)  # HERE"),
    ("float16_tensor", "E0846", "'float16'", None),
    ("if_statement", "E0847", "if", "T.clear(F)\nif bx > 0:  # HERE\n    T.clear(F)"),
]


@pytest.mark.parametrize("name,code,at,body", REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_construct_is_its_diagnostic_at_its_line(tmp_path: Path, name: str, code: str, at: str,
                                                         body: str | None) -> None:
    if name == "grid_mismatch":  # a 4x2 grid over the 2x2 blocks the kernel stores
        source = KERNEL.replace("T.Kernel(2, 2)", "T.Kernel(4, 2)").format(body=" " * 12 + body)
        source = source.replace("bx * 32])\n", "bx * 32])  # HERE\n")
    elif name == "float16_tensor":
        source = KERNEL.format(body="            T.clear(F)").replace(
            'A: T.Tensor((64, 64), "bfloat16")', "A: T.Tensor((64, 64), 'float16')  # HERE\n    ")
    else:
        source = KERNEL.format(body=textwrap.indent(body, " " * 12))
    path = script(tmp_path, source)
    with pytest.raises(KernelError) as info:
        run_script(path)
    d = info.value.diagnostic
    lines = path.read_text().splitlines()
    line = next(i for i, text in enumerate(lines, start=1) if text.rstrip().endswith("# HERE"))
    assert d.span is not None and d.span.file == str(path)
    assert (d.code, d.span.line, d.span.col) == (code, line, lines[line - 1].index(at) + 1), d
