"""ttnn's core-range helpers on the host: ``CoreCoord``, ``CoreRange``, ``CoreRangeSet``,
``split_work_to_cores`` (even and uneven splits, by columns and by rows),
``num_cores_to_corerangeset``, ``CoreGrid`` and ``core_range_set_to_core_grid``; every answer is
saved as a number (core counts, work units, range corners).

Variants: split_even split_uneven split_row_wise split_range_set num_cores core_grid
"""

import sys

import ttnn

from conformance_io import save_outputs

CASE = sys.argv[1]


def corners(ranges):
    """The corners of the first range of a CoreRangeSet and the set's core count."""
    first = ranges.ranges()[0]
    return {"x0": first.start.x, "y0": first.start.y, "x1": first.end.x, "y1": first.end.y,
            "cores": ranges.num_cores()}


def split(grid, units, row_wise=False):
    cores, all_cores, group_1, group_2, units_1, units_2 = ttnn.split_work_to_cores(grid, units, row_wise)
    answers = {"cores": cores, "all": all_cores.num_cores(), "group_1": group_1.num_cores(),
               "group_2": group_2.num_cores(), "units_1": units_1, "units_2": units_2}
    return answers | {f"first_{k}": v for k, v in corners(group_1).items()}


if CASE == "split_even":
    answers = split(ttnn.CoreCoord(4, 2), 16)
elif CASE == "split_uneven":
    answers = split(ttnn.CoreCoord(4, 2), 19)
elif CASE == "split_row_wise":
    answers = split(ttnn.CoreCoord(4, 2), 11, row_wise=True)
elif CASE == "split_range_set":
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(2, 1))])
    answers = split(grid, 4)
elif CASE == "num_cores":
    answers = corners(ttnn.num_cores_to_corerangeset(5, [4, 8], row_wise=True))
else:
    ranges = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(1, 0), ttnn.CoreCoord(3, 2))])
    grid = ttnn.core_range_set_to_core_grid(ranges)
    answers = {"x": grid.x, "y": grid.y, "cores": ttnn.CoreGrid(y=2, x=5).num_cores}
save_outputs(**answers)
