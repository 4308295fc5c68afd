"""The house: layers, sizes, public names, the README, the sweeps' plan, the benchmarks'
smoke runs."""
