"""Benchmarks of the solver: the kernel against the pure-Python reference and against its
frozen predecessor (baseline/)."""
