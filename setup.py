"""Build the optional C search kernel; all other metadata lives in pyproject.toml."""

import platform
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

KERNEL_SOURCE = "solver/engine/_kernel.c"
# The kernel as it was at commit f30852c, frozen: `manage.py bench_solver` times it against the
# live one on the same boards. Benchmark-only; nothing in the product imports it.
BASELINE_SOURCE = "solver/bench/baseline/_kernel_v1.c"
# The trie search counts bits at every step; every x86-64 CPU since 2008 has an instruction
# for it, but compilers only use it when asked.
POPCOUNT_FLAGS = ["-mpopcnt"] if platform.machine().lower() in {"x86_64", "amd64"} else []

# Failing to compile must never fail the install: the engine falls back to pure Python.
BUILD_ERRORS = (CCompilerError, ExecError, PlatformError, OSError)


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing when an extension cannot be built."""

    def run(self) -> None:
        try:
            super().run()
        except BUILD_ERRORS as error:
            warn(f"C extensions not built ({error}); using the pure-Python engine.")

    def build_extensions(self) -> None:
        self.check_extensions_list(self.extensions)
        built = []
        for ext in self.extensions:
            try:
                self.build_extension(ext)
            except BUILD_ERRORS as error:
                warn(f"{ext.name} not built ({error}); using the pure-Python engine.")
            else:
                built.append(ext)
        # Later steps (copying in place, listing wheel contents) must not look for the others.
        self.extensions = built


def warn(message: str) -> None:
    """Print a build warning where pip -v and setup.py runs show it."""
    print(f"WARNING: {message}", file=sys.stderr)


def kernel_extensions() -> list[Extension]:
    """Return the kernel and its frozen baseline, each only while its source exists."""
    here = Path(__file__).resolve().parent
    modules = (
        ("solver.engine._kernel", KERNEL_SOURCE),
        ("solver.bench.baseline._kernel_v1", BASELINE_SOURCE),
    )
    return [
        Extension(name, sources=[source], extra_compile_args=["-O3", "-std=c11", *POPCOUNT_FLAGS])
        for name, source in modules
        if (here / source).is_file()
    ]


setup(ext_modules=kernel_extensions(), cmdclass={"build_ext": OptionalBuildExt})
