# The A/B tables of runs 57 and 58: for each graph (and algorithm), the median of every source's
# median solve in every round (bench-<build>-<round>.csv, pooled), and each build's ratio to the
# first. Every timed row must be valid.
#   python3 ab.py call2 head57 lb3 lb3s pp pp3s
import collections, csv, glob, os, statistics, sys

folder, builds = sys.argv[1], sys.argv[2:]


def load(build):
    times = collections.defaultdict(list)
    for path in sorted(glob.glob(f"{folder}/bench-{build}-*.csv")):
        for row in csv.DictReader(open(path)):
            if row["algorithm"] == "dijkstra" or not row["median_ms"]:
                continue
            assert row["valid"] == "true", row
            key = (os.path.basename(row["graph"]), row["algorithm"])
            times[key].append(float(row["median_ms"]))
    return times


tables = [load(b) for b in builds]
print("graph", "algorithm", builds[0], *[f"{b} ratio" for b in builds[1:]])
for key in sorted(tables[0]):
    base = statistics.median(tables[0][key])
    ratios = [f"{statistics.median(t[key]) / base:.3f}" for t in tables[1:]]
    print(f"{key[0]:26s} {key[1]:15s} {base:8.3f}", *ratios)
