"""Shared fixtures: the outlierlens-cli of the same build (OLENS_CLI, set by CTest) and CSV files
written with 17 significant digits so that the CLI reads exactly the doubles Python holds."""
import os
import shutil
import subprocess

import numpy as np
import pytest


def _find_cli():
    cli = os.environ.get("OLENS_CLI")
    if cli and os.path.exists(cli):
        return cli
    # Build tree layout: <build>/python/outlierlens/__init__.py -> <build>/app/cli/outlierlens-cli
    import outlierlens
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(outlierlens.__file__))))
    cand = os.path.join(build, "app", "cli", "outlierlens-cli")
    return cand if os.path.exists(cand) else shutil.which("outlierlens-cli")


@pytest.fixture(scope="session")
def cli():
    path = _find_cli()
    if not path:
        pytest.skip("outlierlens-cli not found (set OLENS_CLI)")
    return path


def write_csv(path, X, y=None):
    cols = [f"x{j + 1}" for j in range(X.shape[1])]
    data = X if y is None else np.column_stack([X, y])
    if y is not None:
        cols.append("label")
    np.savetxt(path, data, delimiter=",", header=",".join(cols), comments="", fmt="%.17g")
    return str(path)


def run_cli(cli, *args):
    r = subprocess.run([cli, *map(str, args)], capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"outlierlens-cli {' '.join(map(str, args))} failed: {r.stderr}")
    return r


def read_scores(path):
    """index,score,outlier[,label] -> (scores, outlier flags)."""
    a = np.genfromtxt(path, delimiter=",", names=True)
    return np.asarray(a["score"], dtype=np.float64), np.asarray(a["outlier"], dtype=np.int64)
