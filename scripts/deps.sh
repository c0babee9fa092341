#!/usr/bin/env bash
# Installs the Debian 12 packages OutlierLens needs, skipping those already present.
# Why each one is needed is documented in README.md ("Dependencies").
set -euo pipefail
PKGS=(
  cmake ninja-build g++ ccache lld # build (ccache: cheap rebuilds in a second clone; lld: fast links)
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev   # GUI, Qt Test, moc/rcc
  libqt6svg6                       # SVG icon engine: toolbar and application icons (resources/)
  qt6-svg-dev                      # QSvgGenerator: File → Export plots as SVG (Debian 12 has no libqt6svg6-dev)
  libvtk9-dev                      # rendering, picking, PLY reader, PNG writer
  libeigen3-dev                    # dense linear algebra in core/
  libopenblas-dev                  # multi-threaded BLAS behind Eigen (OLENS_BLAS)
  libnanoflann-dev                 # kd-tree k-nearest-neighbour search
  libsvm-dev                       # libsvm: the one-class SVM baseline (ocsvm)
  libgif-dev                       # giflib: animated GIF of a replayed training (--replay-video)
  nlohmann-json3-dev               # JSON in the Qt-free core (models, CLI --json)
  libgl-dev libgl1-mesa-dri        # OpenGL headers and the Mesa software driver
  xvfb xauth                       # virtual X display for GUI tests and headless screenshots
  # Python module outlierlens (python/): pybind11 + headers for /usr/bin/python3; NumPy in/out;
  # pytest runs python/tests under ctest; scikit-learn for the estimator base classes and
  # check_estimator; pandas for DataFrames (column names in view()); Dask for the partitioned test.
  pybind11-dev python3-dev python3-numpy python3-pytest python3-sklearn python3-pandas python3-dask
  # pip install ./python (setuptools drives CMake; --no-build-isolation) and its test in a fresh venv;
  # SciPy for predict_confidence's binomial CDF (scikit-learn depends on it too).
  python3-venv python3-setuptools python3-wheel python3-scipy
)
# Extra packages one script needs on top of these (scripts/fuzz.sh: clang, libFuzzer, symbolizer).
PKGS+=("$@")
missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PKGS[@]} packages present"
  exit 0
fi
echo "deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
