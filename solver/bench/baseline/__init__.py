"""Frozen copies of earlier kernels, built only so benchmarks can compare against them."""
