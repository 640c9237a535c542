#!/usr/bin/env python3
"""Run 44's suite ran in two calls (full.txt's graphs split in halves, A and B, each with the
peers): this writes one run folder from the two, for bench/results_tables.py.

  merge_halves.py OUT RUN_A RUN_B

OUT/summary.md: A's summary with each section's table holding A's and B's rows in full.txt's
graph order (B's header lines added under A's); OUT/results.csv and OUT/ceilings.csv: A's then
B's rows under one header; OUT/peers/: both halves' peer logs."""
import os
import shutil
import sys

ORDER = ["kron-20", "kron-22", "kron-24", "uniform-4M", "grid-4M", "grid-16M", "USA-road-NY",
         "soc-Slashdot", "cnr-2000", "mdual"]


def sections(path):
    """[(heading or None, [lines])], the table rows of each section apart: (pre, rows, post)."""
    out, heading, lines = [], None, []
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.startswith("## "):
            out.append((heading, lines))
            heading, lines = line, []
        else:
            lines.append(line)
    out.append((heading, lines))
    return out


def split_table(lines):
    """(before the rows, the rows, after them): rows are table lines past the alignment row."""
    start = next((i + 1 for i, l in enumerate(lines) if l.startswith("|---")), None)
    if start is None:
        return lines, [], []
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return lines[:start], lines[start:end], lines[end:]


def graph_of(row):
    return row.strip("|").split("|")[0].strip()


def main():
    out, a, b = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    sa, sb = sections(os.path.join(a, "summary.md")), dict(sections(os.path.join(b, "summary.md")))
    text = []
    for heading, lines in sa:
        if heading is None:  # the header: both halves' command, date and build lines
            text += lines[:1] + [""] + [l for l in lines[1:] if l.startswith("- ")]
            text += [l.replace("- ", "- half B's ", 1) for l in sb[None] if l.startswith("- ")]
            text += [l for l in lines[1:] if not l.startswith("- ") and not l.startswith("# ")]
            continue
        pre, rows, post = split_table(lines)
        rows = rows + split_table(sb.get(heading, []))[1]
        rows.sort(key=lambda r: ORDER.index(graph_of(r)) if graph_of(r) in ORDER else len(ORDER))
        text += [heading] + pre + rows + post
    with open(os.path.join(out, "summary.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(text) + "\n")
    for name in ("results.csv", "ceilings.csv"):
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            la = open(os.path.join(a, name), encoding="utf-8").read().splitlines()
            lb = open(os.path.join(b, name), encoding="utf-8").read().splitlines()
            if la[0] != lb[0]:
                sys.exit(f"{name}: the halves' headers differ")
            f.write("\n".join(la + lb[1:]) + "\n")
    os.makedirs(os.path.join(out, "peers"), exist_ok=True)
    for half in (a, b):
        for log in os.listdir(os.path.join(half, "peers")):
            shutil.copy(os.path.join(half, "peers", log), os.path.join(out, "peers", log))


if __name__ == "__main__":
    main()
