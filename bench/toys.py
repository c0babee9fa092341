#!/usr/bin/python3
"""Issue #17's toy criterion: every registered detector with its default parameters on 2-D, 3-D and
8-D data with 5 % uniform background outliers (the generators' `outliers` parameter), z-scored,
unsupervised. Two families per dimension, three seeds each: one Gaussian cloud (centers=1) and three
Gaussian blobs (centers=3), 600 rows. Prints, per detector and family, the smallest and the median
AUROC over the seeds, and the range of the share its own decision flags.

    bench/toys.py [--cli build/app/cli/outlierlens-cli] [--markdown docs/toys.md]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILIES = [(f"{c} blob{'s' if c > 1 else ''}, {p}-D", c, p) for c in (1, 3) for p in (2, 3, 8)]
SEEDS = (1, 2, 3)


def run(cli, *args):
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/outlierlens-cli"))
    ap.add_argument("--markdown", default="")
    a = ap.parse_args()
    ids = [d["id"] for d in json.loads(run(a.cli, "list", "--json"))["detectors"]]
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, centers, dim in FAMILIES:
            for s in SEEDS:
                f = os.path.join(tmp, f"c{centers}_d{dim}_s{s}.csv")
                run(a.cli, "generate", "blobs", "--n", "600", "--seed", str(s), "--param", f"centers={centers}",
                    "--param", f"dim={dim}", "--param", "outliers=0.05", "--output", f)
                files.setdefault(name, []).append(f)
        for det in ids:
            for name, _, _ in FAMILIES:
                au, fl = [], []
                for f in files[name]:
                    try:
                        j = json.loads(run(a.cli, "evaluate", "--input", f, "--detector", det, "--normalize", "zscore",
                                           "--json"))
                        au.append(j["auroc"])
                        fl.append(100.0 * j["flagged"] / j["n"])
                    except subprocess.CalledProcessError as e:
                        au.append(float("nan"))
                        print(f"{det} on {f}: {e.stderr.strip()[:200]}")
                rows[(det, name)] = (min(au), statistics.median(au), min(fl) if fl else 0, max(fl) if fl else 0)
    head = "| detector | " + " | ".join(n for n, _, _ in FAMILIES) + " | flagged |"
    lines = [head, "|" + "---|" * (len(FAMILIES) + 2)]
    for det in ids:
        cells = []
        for name, _, _ in FAMILIES:
            lo, med, _, _ = rows[(det, name)]
            cell = f"{lo:.2f} / {med:.2f}"
            cells.append(f"**{cell}**" if lo < 0.75 else cell)
        fl = [rows[(det, n)][2] for n, _, _ in FAMILIES] + [rows[(det, n)][3] for n, _, _ in FAMILIES]
        lines.append(f"| {det} | " + " | ".join(cells) + f" | {min(fl):.0f}–{max(fl):.0f} % |")
    text = "\n".join(lines)
    print(text)
    if a.markdown:
        with open(a.markdown, "w") as out:
            out.write("# Toy data: every detector with its defaults (bench/toys.py)\n\n"
                      "600 rows, 5 % uniform background outliers, z-scored; cells: smallest / median AUROC over\n"
                      f"seeds {', '.join(map(str, SEEDS))}; bold: the smallest is below 0.75.\n\n" + text + "\n")


if __name__ == "__main__":
    main()
