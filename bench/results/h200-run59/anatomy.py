# Sums the kernel durations of one delta-stepping solve from an ncu CSV (gpu__time_duration.sum,
# one row per kernel), from the first split_rows (the solve's first kernel) on, by kernel name.
#   python3 anatomy.py ncu-kron-22-16.csv
import collections, csv, re, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("==")))
first = next(i for i, r in enumerate(rows) if "split_rows" in r["Kernel Name"])
by = collections.OrderedDict()
total, count = 0, 0
for r in rows[first:]:
    name = re.sub(r"^void ", "", r["Kernel Name"])
    name = re.split(r"[<(]", name.replace("tropic::", "").replace("<unnamed>::", ""))[0]
    ns = float(r["Metric Value"].replace(",", ""))
    c = by.setdefault(name, [0, 0.0])
    c[0] += 1
    c[1] += ns
    total += ns
    count += 1
for name, (n, ns) in sorted(by.items(), key=lambda x: -x[1][1]):
    print(f"{name:45s} {n:4d} launches {ns / 1e3:9.1f} us")
print(f"{'all kernels':45s} {count:4d} launches {total / 1e3:9.1f} us")
