#!/usr/bin/env python3
"""Run 47: each version of the automatic rule against the faster of delta_stepping and adds on
the three calls' graphs (median over 3 sources of each source's median solve, H200).
    python3 bench/results/h200-run47/rules.py   (prints the NOTES' table)"""
import collections
import csv
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
M = 1 << 20


def run30(n, arcs, maxdeg, probe):  # bench/results/h200-run30
    return arcs <= 8 * M and probe <= 64


def refit1(n, arcs, maxdeg, probe):  # 5c1a83e, after call 1
    return arcs <= (4 * M if n > M // 2 else 8 * M) and maxdeg <= 65536 and probe <= 64


def refit2(n, arcs, maxdeg, probe):  # 8941ece, after call 2
    return refit1(n, arcs, maxdeg, probe) and probe <= 50


RULES = (("run 30", run30), ("5c1a83e", refit1), ("8941ece", refit2))


def stats(path):
    out = {}
    for line in open(path):
        f = line.split()
        name = f[0].replace(".tgr", "")
        nums = [x for x in f[1:] if x.replace(".", "").replace(",", "").isdigit()]
        n, arcs = int(nums[0]), int(nums[1])
        maxdeg = int(f[f.index("max") + 1].rstrip(","))
        probe = int(f[f.index("BFS") - 1])
        out[name] = (n, arcs, maxdeg, probe)
    return out


def times(call, csv_name, seed):
    t = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in csv.DictReader(open(os.path.join(HERE, call, "keep", csv_name))):
        if r["algorithm"] in ("delta_stepping", "adds"):
            assert r["valid"] == "true"
            name = os.path.basename(r["graph"]).replace(".tgr", "")
            t[name + (f"@{seed}" if seed else "")][r["algorithm"]].append(float(r["median_ms"]))
    return {g: (statistics.median(d["delta_stepping"]), statistics.median(d["adds"]))
            for g, d in t.items()}


def main():
    calls = (("call1", (("ho.csv", None), ("s11.csv", 11), ("s23.csv", 23)), "stats.txt"),
             ("call2", (("ho.csv", None), ("s31.csv", 31)), "picks.log"),
             ("call3", (("ho.csv", None), ("s41.csv", 41)), "picks.log"))
    print("| call | graph | n | arcs | max row | probe | delta_stepping ms | adds ms | "
          + " | ".join(f"{r} picked / best" for r, _ in RULES) + " |")
    print("|---|---|---:|---:|---:|---:|---:|---:|" + "---:|" * len(RULES))
    for call, csvs, stat_file in calls:
        st = stats(os.path.join(HERE, call, stat_file))
        within = [0] * len(RULES)
        rows = 0
        for csv_name, seed in csvs:
            for g, (ds, ad) in times(call, csv_name, seed).items():
                key = g if g in st else g.split("@")[0]
                n, arcs, maxdeg, probe = st[key]
                ratios = []
                for i, (_, rule) in enumerate(RULES):
                    r = (ad if rule(n, arcs, maxdeg, probe) else ds) / min(ds, ad)
                    within[i] += r <= 1.10
                    ratios.append(f"**{r:.2f}**" if r > 1.10 else f"{r:.2f}")
                rows += 1
                print(f"| {call[-1]} | {g} | {n} | {arcs} | {maxdeg} | {probe} | {ds:.3f} | "
                      f"{ad:.3f} | " + " | ".join(ratios) + " |")
        print(f"| {call[-1]} | within 10% | | | | | | | "
              + " | ".join(f"{w}/{rows}" for w in within) + " |")


if __name__ == "__main__":
    main()
