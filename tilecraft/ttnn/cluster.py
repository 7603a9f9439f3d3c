"""``ttnn.cluster``: what kind of Tenstorrent system the program runs on.

``get_cluster_type`` names the product with as many chips of the simulated architecture as the
simulated system has (``--devices``): one Wormhole is an N150, two an N300, eight a T3K, 32 a
Galaxy; one Blackhole a P150, two and four P150 x2 / x4. Any other count is ``INVALID``, as ttnn
answers for a system it does not recognise.
"""

from __future__ import annotations

from enum import Enum

from tilecraft import session

from .device import simulated_devices
from .surface import namespace_or_error


class ClusterType(Enum):
    INVALID = 0
    N150 = 1
    N300 = 2
    T3K = 3
    GALAXY = 4
    P150 = 5
    P150_X2 = 6
    P150_X4 = 7


_PRODUCTS = {("wormhole_b0", 1): ClusterType.N150, ("wormhole_b0", 2): ClusterType.N300,
             ("wormhole_b0", 8): ClusterType.T3K, ("wormhole_b0", 32): ClusterType.GALAXY,
             ("blackhole", 1): ClusterType.P150, ("blackhole", 2): ClusterType.P150_X2,
             ("blackhole", 4): ClusterType.P150_X4}


def get_cluster_type() -> ClusterType:
    """The product the simulated system is (see the module docstring)."""
    return _PRODUCTS.get((session.options().arch, simulated_devices()), ClusterType.INVALID)


def __getattr__(name: str) -> object:
    return namespace_or_error("ttnn.cluster", name, globals())
