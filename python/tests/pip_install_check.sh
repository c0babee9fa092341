#!/usr/bin/env bash
# The Python package's install path (issue #36), as CTest runs it: `pip install --no-build-isolation`
# and `pip wheel` of python/ into a fresh venv (--system-site-packages: Debian's NumPy), then an
# import from outside the tree; and a Python-only CMake configuration with Qt and VTK made
# unfindable, which must still configure (the pip build uses it).
#   usage: pip_install_check.sh SOURCE_DIR BUILD_DIR PYTHON
# BUILD_DIR is reused (OLENS_CMAKE_BUILD_DIR) so the test packages the module ctest already built
# instead of compiling the core a second time; a cold `pip install` is measured in docs/benchmarks.md.
set -euo pipefail
SRC=$(cd "$1" && pwd); BUILD=$(cd "$2" && pwd); PY=${3:-/usr/bin/python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/olens-pip.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# 1. Python-only configuration without Qt or VTK.
cmake -S "$SRC" -B "$WORK/pyonly" -DOLENS_BUILD_GUI=OFF -DOLENS_BUILD_TESTS=OFF -DOLENS_BUILD_BENCH=OFF \
      -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON -DCMAKE_DISABLE_FIND_PACKAGE_VTK=ON > "$WORK/configure.log" 2>&1 \
  || { cat "$WORK/configure.log"; echo "FAIL: the Python-only configuration needs Qt or VTK"; exit 1; }
grep -q "olens_python" "$WORK/pyonly/build.ninja" 2>/dev/null || grep -rq "olens_python" "$WORK/pyonly/Makefile" 2>/dev/null \
  || { echo "FAIL: the Python-only configuration has no olens_python target"; exit 1; }

# 2. pip install into a venv, from a copy of python/ (pip builds in place: the checkout stays clean).
cp -r "$SRC/python" "$WORK/pkg"
rm -rf "$WORK/pkg/build" "$WORK/pkg/"*.egg-info
"$PY" -m venv --system-site-packages "$WORK/venv"
export OLENS_SOURCE_DIR="$SRC" OLENS_CMAKE_BUILD_DIR="$BUILD" PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
"$WORK/venv/bin/pip" install -q --no-build-isolation --no-deps "$WORK/pkg"
cd "$WORK"  # not the source tree: the import must find the installed package
"$WORK/venv/bin/python" - "$SRC" <<'PY'
import importlib.metadata, os, re, sys
import numpy as np
import outlierlens as ol
src = sys.argv[1]
declared = re.search(r"project\(OutlierLens VERSION ([0-9.]+)", open(os.path.join(src, "CMakeLists.txt")).read()).group(1)
assert ol.__version__ == declared, (ol.__version__, declared)
assert importlib.metadata.version("outlierlens") == declared
where = os.path.dirname(ol.__file__)
assert where.startswith(sys.prefix), f"imported from {where}, not the venv {sys.prefix}"
for name in ("__init__.pyi", "py.typed"):
    assert os.path.exists(os.path.join(where, name)), f"{name} is not installed"
X, y = ol.generate("moons", n=200, seed=1, outliers=0.05)
est = ol.Knn(k=5, normalization="zscore").fit(X)
assert ol.metrics.auroc(y, est.decision_scores_) > 0.85  # 0.887 from the build tree
print("installed", ol.__version__, "in", where)
PY

# 3. pip wheel: a wheel with the extension, the stubs and the metadata.
"$WORK/venv/bin/pip" wheel -q --no-build-isolation --no-deps -w "$WORK/wheels" "$WORK/pkg"
"$PY" - "$WORK/wheels" <<'PY'
import os, sys, zipfile
(wheel,) = [f for f in os.listdir(sys.argv[1]) if f.endswith(".whl")]
names = zipfile.ZipFile(os.path.join(sys.argv[1], wheel)).namelist()
for want in ("outlierlens/__init__.py", "outlierlens/__init__.pyi", "outlierlens/py.typed", "outlierlens/metrics.py"):
    assert want in names, (want, names)
assert any(n.startswith("outlierlens/_core") and n.endswith(".so") for n in names), names
print("wheel", wheel)
PY
echo "pip install check: OK"
