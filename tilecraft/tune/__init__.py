"""Autotuning: hyper-parameters of an operation chosen by the cost model, on one core or a Dask cluster.

``@ttl.autotune(configs=[ttl.Config(BM=4, BN=8), ...], key=["a", "b"])`` above ``@ttl.operation``
(:mod:`.autotuner`); candidates as lists or lazy search spaces (:mod:`.space`); a sweep compiles,
prunes, estimates with a cut-off and ranks them (:mod:`.sweep`, :mod:`.evaluate`), in this process
or on Dask (:mod:`.runners`), with jobs shipped as source and argument specs (:mod:`.shipping`);
winners are cached on disk (:mod:`.cache`); ``tilecraft tune`` (:mod:`.cli`) shows tables
(:mod:`.report`) and plots (:mod:`.plot`). docs/autotune.md is the user's guide.
"""

from __future__ import annotations

from .autotuner import Autotuned, autotune
from .options import TuneOptions, tune_options
from .space import Config, SearchSpace
from .sweep import SweepResult

__all__ = ["Autotuned", "Config", "SearchSpace", "SweepResult", "TuneOptions", "autotune", "tune_options"]
