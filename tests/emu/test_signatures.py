"""Every function the emulator's headers declare for kernels has the signature of a real
TT-Metalium 0.81.1 overload (template parameters, return type, parameter types and defaults),
read from the headers in the ttnn 0.81.1 wheel. The emulator's own trailing source-location
parameter (``TC_LOC``) is left out of the comparison; helpers named ``tc_*`` are ours.

Skipped (or failed with TILECRAFT_REQUIRE_HEADERCHECK=1) where the wheel headers cannot be had,
as tests/metal/test_headercheck.py does."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from tests.metal.test_headercheck import _unavailable
from tilecraft.emu import dataflow_api_table
from tilecraft.emu.compile_errors import emulated_api
from tilecraft.emu.signatures import Signature, scan, scan_tree, signature_key
from tilecraft import wheel_headers

INCLUDE = Path(__file__).resolve().parents[2] / "tilecraft" / "emu" / "include"


def ours() -> list[Signature]:
    found = (scan_tree(INCLUDE / "api", INCLUDE) + scan_tree(INCLUDE / "experimental", INCLUDE)
             + scan_tree(INCLUDE / "tc_emu", INCLUDE))
    public = [s for s in found if not s.name.startswith("tc_")]
    # tc_emu/ holds the runtime's entry points (namespace tc); of it only args.h is kernel API
    return [s for s in public if s.file.startswith(("api/", "experimental/")) or s.file == "tc_emu/args.h"]


@pytest.fixture(scope="module")
def headers() -> Path:
    """The wheel's headers; unlike the header check, reading them needs no 32-bit compiler."""
    try:
        return wheel_headers.ensure_headers()
    except wheel_headers.HeadersUnavailable as error:
        _unavailable(str(error))


@pytest.fixture(scope="module")
def real(headers) -> dict[str, set[tuple]]:
    inc = headers / "tt_metal" / "hw" / "inc"
    table: dict[str, set[tuple]] = defaultdict(set)
    for sub in ("api", "internal", "experimental"):
        for sig in scan_tree(inc / sub, inc):
            table[sig.name].add(signature_key(sig))
    return table


def test_the_emulated_api_is_large() -> None:
    names = {s.name for s in ours()}
    assert len(names) > 300 and {"cb_wait_front", "matmul_block", "exp_tile"} <= names


def test_the_data_movement_table_is_the_wheels(headers) -> None:
    """PyKernel and the compile-error hints describe the data-movement API from the real headers
    the kernels compile against: object API members and internal address helpers included (the
    latter under the header a kernel includes), the headers' own implementation helpers left out."""
    table = {s.name: s.file for s in dataflow_api_table.signatures()}
    assert {"noc_async_read", "Noc::async_read", "DataflowBuffer::wait_front", "TensorAccessor::get_noc_addr",
            "Semaphore::wait", "noc_async_write_one_packet_with_trid"} <= set(table)
    assert table["get_noc_addr"] == table["noc_async_read"] == "api/dataflow/dataflow_api.h"
    assert "note_read_write" not in table  # api/dataflow/buf_rw_note.h: the headers' own bookkeeping
    assert emulated_api()["noc_async_write_one_packet_with_trid"] == "api/dataflow/dataflow_api.h"
    assert emulated_api()["exp_tile"] == "api/compute/eltwise_unary/exp.h"


def test_every_declared_function_matches_a_real_overload(real) -> None:
    unknown, mismatched = [], []
    for sig in ours():
        if sig.name not in real:
            unknown.append(f"{sig.file}: {sig.render()}")
        elif signature_key(sig) not in real[sig.name]:
            wants = "; ".join(sorted(str(k) for k in real[sig.name])[:3])
            mismatched.append(f"{sig.file}: {sig.render()}\n    real: {wants}")
    assert not unknown, "not in the 0.81.1 headers:\n" + "\n".join(unknown)
    assert not mismatched, "signature differs from every real overload:\n" + "\n".join(mismatched)


def test_the_location_parameter_is_what_is_ignored() -> None:
    """The comparison drops exactly the TC_LOC parameter: an extra real parameter still counts."""
    a = scan("void f(uint32_t a, uint32_t b, TC_LOC);")[0]
    b = scan("void f(uint32_t a, uint32_t b);")[0]
    c = scan("void f(uint32_t a, TC_LOC);")[0]
    assert signature_key(a) == signature_key(b) != signature_key(c)
