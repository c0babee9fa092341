"""Builds the extension ``outlierlens._core`` with the project's own CMake (pyproject.toml says why
setuptools drives it): a Python-only configuration of the repository one level up — no Qt, no VTK,
no GUI, tests or benchmarks — then the single target ``olens_python``.

Environment:
  CMAKE_ARGS              extra CMake arguments, e.g. "-DOLENS_NATIVE=ON" (build for this CPU)
  CMAKE_BUILD_PARALLEL_LEVEL  compile jobs (default: all cores)
  OLENS_CMAKE_BUILD_DIR   reuse an already configured build tree (e.g. the README's ``build``):
                          only ``olens_python`` is brought up to date there and packaged
  OLENS_SOURCE_DIR        the repository root when this folder is not inside it
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
# The repository root (its CMakeLists.txt declares the version); OLENS_SOURCE_DIR points elsewhere
# when this folder was copied out of the checkout (the install test does, to keep the tree clean).
SOURCE = Path(os.environ.get("OLENS_SOURCE_DIR", HERE.parent)).resolve()


def project_version():
    text = (SOURCE / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*OutlierLens\s+VERSION\s+([0-9.]+)", text)
    if not match:
        sys.exit("setup.py: no 'project(OutlierLens VERSION x.y.z)' in " + str(SOURCE / "CMakeLists.txt"))
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        if not (SOURCE / "core").is_dir():
            sys.exit(f"setup.py: the C++ sources are not at {SOURCE}; install from a checkout of the "
                     "repository (pip install --no-build-isolation ./python)")
        if shutil.which("cmake") is None:
            sys.exit("setup.py: cmake not found (Debian: apt-get install cmake ninja-build)")
        reuse = os.environ.get("OLENS_CMAKE_BUILD_DIR")
        build_dir = Path(reuse).resolve() if reuse else Path(self.build_temp).resolve() / "cmake"
        if not reuse:
            build_dir.mkdir(parents=True, exist_ok=True)
            args = ["-S", str(SOURCE), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                    "-DOLENS_BUILD_GUI=OFF", "-DOLENS_BUILD_TESTS=OFF", "-DOLENS_BUILD_BENCH=OFF",
                    "-DOLENS_BUILD_PYTHON=ON", f"-DPYTHON_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja"):
                args += ["-G", "Ninja"]
            if shutil.which("ccache"):
                args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            args += shlex.split(os.environ.get("CMAKE_ARGS", ""))
            subprocess.run(["cmake", *args], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "olens_python", "-j", jobs], check=True)
        built = sorted((build_dir / "python" / "outlierlens").glob("_core*.so"))
        if not built:
            sys.exit(f"setup.py: the build left no _core*.so in {build_dir / 'python' / 'outlierlens'}")
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)
        # Type stubs of the classes generated at import (IDEs and type checkers cannot run the
        # registry): written by the package itself, with the extension just built.
        package_dir = target.parent
        for name in ("__init__.py", "_estimators.py", "_view.py", "metrics.py", "_stubs.py"):
            if not (package_dir / name).exists():
                shutil.copy2(HERE / "outlierlens" / name, package_dir / name)
        subprocess.run([sys.executable, "-m", "outlierlens._stubs", str(package_dir / "__init__.pyi")],
                       check=True, cwd=str(package_dir.parent),
                       env={**os.environ, "PYTHONPATH": str(package_dir.parent)})


setup(
    version=project_version(),
    ext_modules=[CMakeExtension("outlierlens._core")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
