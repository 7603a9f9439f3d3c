"""The ttnn functions models use most (tilecraft/ttnn/usage_ranking.json), and which tilecraft simulates.

docs/ttnn.md quotes the ranking and the coverage; this test is where the coverage number comes from:
``SIMULATED`` must be exactly the top-100 names that resolve to a function of the simulated ttnn, each
simulated one must be used in a test of tests/ttnn/ and take the keyword arguments models pass it,
and a name tilecraft does not simulate must be the E0540 diagnostic naming it.
"""

from __future__ import annotations

import functools
import inspect
import json
import re

import pytest

import tilecraft.ttnn as ttnn
from tests.paths import ROOT, TESTS
from tilecraft.diagnostics import UsageAttributeError
from tilecraft.ttnn.surface import RANKING_FILE, top_functions

TOP = top_functions(100)

#: the top-100 functions tilecraft simulates (docs/ttnn.md: "Coverage")
SIMULATED = frozenset({
    "from_torch", "to_memory_config", "reshape", "create_sharded_memory_config", "to_layout", "to_torch", "add", "linear",
    "matmul", "typecast", "mul", "to_device", "synchronize_device", "transpose", "get_memory_config", "multiply",
    "allocate_tensor_on_device", "subtract", "squeeze", "silu", "sum", "num_cores_to_corerangeset", "softmax",
    "all_gather", "gelu", "tanh", "clone", "from_device", "is_sharded",
    # matmul family
    "init_device_compute_kernel_config",
    # rearranging values, placements and layouts; embedding
    "permute", "concat", "slice", "split", "pad", "unsqueeze", "unsqueeze_to_4D", "view", "interleaved_to_sharded",
    "sharded_to_interleaved", "reshard", "tilize", "untilize", "copy", "embedding", "create_sharded_memory_config_",
    # lifetimes and host functions
    "deallocate", "reallocate", "as_tensor", "copy_host_to_device_tensor", "get_device_tensors", "get_arch_name",
    "get_num_devices", "num_cores_to_corerangeset_in_subcoregrids",
    # attention, rotary embeddings, KV caches
    "transformer.scaled_dot_product_attention", "transformer.scaled_dot_product_attention_decode",
    "transformer.split_query_key_value_and_split_heads", "transformer.concatenate_heads",
    "experimental.nlp_create_qkv_heads", "experimental.nlp_concat_heads", "experimental.rotary_embedding",
    "experimental.rotary_embedding_llama", "fill_cache", "experimental.paged_fill_cache",
    "experimental.paged_update_cache", "experimental.attn_matmul", "experimental.group_attn_matmul",
    # positions of the largest values; softmax in place
    "argmax", "topk", "scale_mask_softmax_in_place",
    # multi-device: asynchronous collectives, mesh mappers, the cluster; minimal_matmul
    "experimental.all_gather_async", "experimental.reduce_scatter_minimal_async", "create_global_semaphore",
    "experimental.fast_reduce_nc", "create_mesh_mapper", "distribute", "cluster.get_cluster_type",
    "experimental.minimal_matmul",
    # images in channels-last layout
    "upsample", "fold", "avg_pool2d", "get_conv_output_dim", "conv2d",
    # trace capture and replay
    "begin_trace_capture", "end_trace_capture", "execute_trace", "release_trace",
    # normalisation
    "layer_norm", "rms_norm_pre_all_gather", "rms_norm_post_all_gather", "group_norm",
    "create_group_norm_weight_bias_rm", "create_group_norm_input_mask",
    "determine_expected_group_norm_sharded_config_and_grid_size",
    # selection, comparison, in place
    "where", "logical_or", "gt", "add_", "mul_", "plus_one",
})


def resolve(dotted: str) -> object:
    """``ttnn.<dotted>`` as a script's attribute lookups find it."""
    value: object = ttnn
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


@functools.cache
def keywords_used() -> dict[str, list[str]]:
    """The keyword arguments the sampled models pass to each function (usage_ranking.json)."""
    return json.loads(RANKING_FILE.read_text())["keywords"]


@functools.cache
def names_called_in_tests() -> frozenset[str]:
    """Every ``ttnn.<name>`` the test modules of tests/ttnn/ call or pass to a parametrized test."""
    calls = re.compile(r"\bttnn\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")
    return frozenset(m for path in (TESTS / "ttnn").glob("test_*.py") for m in calls.findall(path.read_text()))


def test_the_ranking_has_a_hundred_functions_most_used_first():
    from tilecraft.ttnn.surface import usage_ranking
    counts = usage_ranking()
    assert len(TOP) == 100 and list(counts.values()) == sorted(counts.values(), reverse=True)


def test_the_simulated_set_is_exactly_what_resolves():
    resolvable = set()
    for name in TOP:
        try:
            resolvable.add(name) if callable(resolve(name)) else None
        except UsageAttributeError:
            pass
    assert resolvable == SIMULATED, (sorted(resolvable - SIMULATED), sorted(SIMULATED - resolvable))


@pytest.mark.parametrize("name", sorted(SIMULATED))
def test_every_simulated_function_is_tested(name):
    assert name in names_called_in_tests(), f"no test in tests/ttnn calls ttnn.{name}(...)"


@pytest.mark.parametrize("name", ["dram_prefetcher", "experimental.paged_fused_update_cache", "nonexistent_op"])
def test_an_unsimulated_function_is_a_diagnostic_naming_it(name):
    """Past the top 100 (ranks 114 and 108 here) and outside the ranking, a name is E0540."""
    with pytest.raises(UsageAttributeError) as info:
        resolve(name)
    assert info.value.code == "E0540" and f"ttnn.{name}" in str(info.value)


#: keywords models pass that tilecraft refuses (a TypeError), each with the reason (docs/ttnn.md)
UNSUPPORTED_KEYWORDS = {
    ("slice", "num_devices"): "slicing a mesh tensor per device is not simulated",
    ("slice", "slice_dim"): "slicing a mesh tensor per device is not simulated",
    ("topk", "indices_tensor"): "its meaning is not documented in the 0.81.1 wheel",
}


@pytest.mark.parametrize("name", sorted(SIMULATED))
def test_simulated_functions_take_the_keywords_models_pass(name):
    """Every keyword argument the sampled models pass to a simulated function is a parameter of it."""
    parameters = inspect.signature(resolve(name)).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    missing = [k for k in keywords_used().get(name, ()) if k not in parameters and (name, k) not in UNSUPPORTED_KEYWORDS]
    assert takes_any or not missing, f"ttnn.{name} does not take {missing}"


def test_the_docs_state_this_coverage_and_table():
    """docs/ttnn.md's number and its table's "simulated" column are this test's set."""
    text = (ROOT / "docs" / "ttnn.md").read_text()
    assert f"## Coverage: {len(SIMULATED)}/100" in text
    rows = re.findall(r"^\| (\d+) \| `ttnn\.([\w.]+)` \| (\d+) \| (yes|no) \|$", text, re.MULTILINE)
    assert [name for _, name, _, _ in rows] == TOP
    assert {name for _, name, _, simulated in rows if simulated == "yes"} == SIMULATED


def test_python_probes_stay_plain_attribute_errors():
    assert not hasattr(ttnn, "__wrapped__")
    with pytest.raises(AttributeError) as info:
        ttnn.__wrapped__  # noqa: B018
    assert not isinstance(info.value, UsageAttributeError)
