#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's swift-format (rules in .swift-format),
# then lints them strictly, as CI does.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format format --in-place --recursive Sources Tests adapters Package.swift Benchmarks/Package.swift Benchmarks/Benchmarks
swift format lint --strict --recursive Sources Tests adapters Package.swift
