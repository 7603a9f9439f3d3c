"""The kernel API tables PyKernel checks calls against and the compile-error hints name headers
from are the ttnn 0.81.1 wheel's own declarations, the headers kernels compile against: the
compute API (tilecraft/emu/compute_api_table.py) and the data-movement API
(tilecraft/emu/dataflow_api_table.py).

Skipped (or failed with TILECRAFT_REQUIRE_HEADERCHECK=1) where the wheel headers cannot be had,
as tests/metal/test_headercheck.py does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.metal.test_headercheck import _unavailable
from tilecraft.emu import compute_api_table, dataflow_api_table
from tilecraft.emu.compile_errors import kernel_api
from tilecraft import wheel_headers


@pytest.fixture(scope="module")
def headers() -> Path:
    """The wheel's headers; unlike the header check, reading them needs no 32-bit compiler."""
    try:
        return wheel_headers.ensure_headers()
    except wheel_headers.HeadersUnavailable as error:
        _unavailable(str(error))


def test_the_compute_table_is_the_wheels(headers) -> None:
    """The compute API: every function of ``api/compute/`` (the argument accessors of
    ``common.h`` among them) and the compile-time-args header, once each, without the Metal 2.0
    operand forms (``experimental/2_0``)."""
    signatures = compute_api_table.signatures()
    table = {s.name: s.file for s in signatures}
    assert len(table) > 900
    assert {"cb_wait_front", "matmul_block", "exp_tile", "pack_untilize_block", "get_named_compile_time_arg_val",
            "topk_local_sort"} <= set(table)
    assert table["get_arg_val"] == "api/compute/common.h" and table["exp_tile"] == "api/compute/eltwise_unary/exp.h"
    assert not [s for s in signatures if s.file.startswith(compute_api_table.METAL2_FORMS)]
    assert len(signatures) == len(set(signatures))


def test_the_data_movement_table_is_the_wheels(headers) -> None:
    """PyKernel and the compile-error hints describe the data-movement API from the real headers
    the kernels compile against: object API members and internal address helpers included (the
    latter under the header a kernel includes), the headers' own implementation helpers left out."""
    table = {s.name: s.file for s in dataflow_api_table.signatures()}
    assert {"noc_async_read", "Noc::async_read", "DataflowBuffer::wait_front", "TensorAccessor::get_noc_addr",
            "Semaphore::wait", "noc_async_write_one_packet_with_trid"} <= set(table)
    assert table["get_noc_addr"] == table["noc_async_read"] == "api/dataflow/dataflow_api.h"
    assert "note_read_write" not in table  # api/dataflow/buf_rw_note.h: the headers' own bookkeeping
    assert kernel_api()["noc_async_write_one_packet_with_trid"] == "api/dataflow/dataflow_api.h"
    assert kernel_api()["exp_tile"] == "api/compute/eltwise_unary/exp.h"
