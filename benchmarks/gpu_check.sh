#!/usr/bin/env bash
# The GPU checks of issue 12, as one script for a machine with a CUDA build of torch:
#   1. `--device cuda` stores the CPU's bits: every example and tutorial (tests/sim/test_sim_device.py),
#      and the fast-forward and chain tests under that machine's Python and torch;
#   2. the published matmul tutorials at 8192^3 with `--device cuda`, whole process (bench_scale);
#   3. where step 1's time goes there (cProfile, top functions).
# Run it from the repository root:  bash benchmarks/gpu_check.sh [OUTPUT_DIR]
# It needs python3 (or $PYTHON) with torch (CUDA), numpy, pytest and hypothesis, and the tutorials
# unpacked where tilecraft's cache is ($TILECRAFT_CACHE_DIR), for machines without a network.
set -u
out=${1:-gpu-check}
mkdir -p "$out"
py=${PYTHON:-python3}
threads=${THREADS:-$(nproc)}
device=${DEVICE:-cuda}  # DEVICE=cpu tries the script out on a machine without a GPU
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | head -3
"$py" -c "import sys, torch; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.cuda.is_available())"
echo "CPUs: $(nproc), simulated processes use OMP_NUM_THREADS=$threads"

echo "== 1. the CPU's bits on the GPU"
"$py" -m pytest -q -p no:cacheprovider -W ignore::pytest.PytestConfigWarning \
    tests/sim/test_sim_device.py tests/sim/test_sim_fastforward.py tests/sim/test_sim_chains.py 2>&1 | tee "$out/pytest.log" | tail -25

echo "== 2. the published sizes with --device $device"
"$py" -m benchmarks.bench_scale --size "${SIZE:-8192}" --device "$device" --threads "$threads" --case step1 --case step1_host --case step4 --case step4_host \
    --repeat "${REPEAT:-2}" --timeout "${RUN_TIMEOUT:-3600}" --json "$out/scale_cuda.json"

echo "== 3. steps 1 and 4 at ${SIZE:-8192}^3 under cProfile"
for step in 1_single_node_single_tile_block 4_multinode_grid_full; do
    script=$("$py" -c "
import sys; from pathlib import Path
from benchmarks.tutorial_sources import matmul_size, write_resized
n = int(sys.argv[1])
print(write_resized(f'matmul/step_{sys.argv[2]}.py', matmul_size(n, n, n), Path(sys.argv[3])))
" "${SIZE:-8192}" "$step" "${TMPDIR:-/tmp}/gpu-check-scripts")
    name=step${step%%_*}
    OMP_NUM_THREADS=$threads "$py" -m cProfile -o "$out/$name.prof" -m tilecraft run "$script" --device "$device" | tail -1
    "$py" -c "
import pstats, sys
stats = pstats.Stats(sys.argv[1])
stats.sort_stats('cumulative').print_stats(40)
stats.sort_stats('tottime').print_stats(30)
" "$out/$name.prof" > "$out/${name}_profile.txt"
    grep -E "function calls|engine.py.*\(run\)|levels.py.*\(run\)|run_skeleton|evaluator_for" "$out/${name}_profile.txt" | head -6
done
