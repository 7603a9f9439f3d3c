"""examples/models/decoder_block.py, a Llama-style decoder block of ttnn ops and two TT-Lang kernels
(RMSNorm, causal grouped-query flash attention): it checks itself against a float64 torch block, at
the language level and with its kernels as emitted C++ on the kernel emulator, and ``tilecraft
profile`` times it end to end (every ttnn op and both kernels, in the order they ran)."""

from __future__ import annotations

import pytest

from tests import paths
from tests.outputs import op_table
from tilecraft import cli

MODEL = paths.EXAMPLES / "models" / "decoder_block.py"

pytestmark = pytest.mark.usefixtures("fresh_process_state")

#: the block's ops and kernels in the order it runs them (the small default sizes: 64 tokens,
#: hidden 128, 4 query heads and 2 key/value heads of 32, MLP 256)
ORDER = [
    ("ttnn.embedding", "1x64x128"), ("ttnn.reshape", "1x1x64x128"),
    # attention: the TT-Lang RMSNorm, the fused QKV projection, heads, rotary, the TT-Lang attention
    ("ttnn.reshape", "64x128"), ("rmsnorm", "64x128"), ("ttnn.reshape", "1x1x64x128"),
    ("ttnn.linear", "1x1x64x256"),
    ("ttnn.split_heads", "1x4x64x32"), ("ttnn.split_heads", "1x2x64x32"), ("ttnn.split_heads", "1x2x64x32"),
    ("ttnn.rotary_embedding", "1x4x64x32"), ("ttnn.rotary_embedding", "1x2x64x32"),
    ("ttnn.reshape", "256x32"), ("ttnn.reshape", "128x32"), ("ttnn.reshape", "128x32"),
    ("causal_attention", "256x32"), ("ttnn.reshape", "1x4x64x32"), ("ttnn.join_heads", "1x1x64x128"),
    ("ttnn.linear", "1x1x64x128"), ("ttnn.add", "1x1x64x128"),
    # the gated MLP
    ("ttnn.reshape", "64x128"), ("rmsnorm", "64x128"), ("ttnn.reshape", "1x1x64x128"),
    ("ttnn.linear", "1x1x64x256"), ("ttnn.silu", "1x1x64x256"), ("ttnn.linear", "1x1x64x256"),
    ("ttnn.multiply", "1x1x64x256"), ("ttnn.linear", "1x1x64x128"), ("ttnn.add", "1x1x64x128"),
]


def test_decoder_block_runs_and_profiles_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    """profile simulates the block (its torch check included) and tables its ops and kernels."""
    code = cli.main(["profile", str(MODEL)])
    out = capsys.readouterr().out
    assert code == 0 and "decoder_block: OK" in out
    rows = op_table(out)
    assert [(r[1], r[2]) for r in rows] == ORDER
    models = {r[1]: r[7] for r in rows}
    assert models["rmsnorm"] == models["causal_attention"] == "TT-Lang, language level"
    assert models["ttnn.linear"] == models["ttnn.silu"] == models["ttnn.add"] == "kernel"  # wheel kernels
    assert models["ttnn.embedding"] == models["ttnn.rotary_embedding"] == "roofline"
    assert models["ttnn.reshape"] == "view"
    assert all(float(r[5]) > 0 for r in rows if r[7] != "view")


@pytest.mark.slow
def test_decoder_block_runs_its_kernels_as_emitted_cpp(capsys: pytest.CaptureFixture[str]) -> None:
    """--level cpp: both TT-Lang kernels compile with g++ and run on the kernel emulator (cold: ~1 min)."""
    code = cli.main(["run", "--level", "cpp", str(MODEL)])
    captured = capsys.readouterr()
    assert code == 0, captured.err[-4000:]
    assert "decoder_block: OK" in captured.out
