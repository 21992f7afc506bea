"""Lines per module of the package: how many, their median, the ones over 600.

Usage: ``python benchmarks/layout.py [SRC]`` (default ``src/costsense``).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

LIMIT = 600


def main(root: Path) -> None:
    """Print the module count, total and median lines, and the modules over LIMIT."""
    counts = {
        str(path.relative_to(root)): len(path.read_text().splitlines())
        for path in sorted(root.rglob("*.py"))
    }
    values = list(counts.values())
    print(
        f"modules {len(values)}, lines {sum(values)}, "
        f"median {statistics.median(values):g}, largest {max(values)}"
    )
    for name, n in sorted(counts.items(), key=lambda item: -item[1]):
        if n > LIMIT:
            print(f"  {n:5d} {name}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "src/costsense"))
