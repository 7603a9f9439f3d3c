"""The main module of Dask worker processes started by a tuning sweep: it has no effect.

multiprocessing's "spawn" re-runs the parent's main script in every child it starts unless the
main module names a module to import instead (``__main__.__spec__``). A user's script without an
``if __name__ == "__main__":`` guard would then run again in every worker; while a sweep's
LocalCluster lives, the main module names this one (:func:`.runners._spawn_without_rerunning_main`).
"""
