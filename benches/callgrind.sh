#!/usr/bin/env bash
# Instructions and mispredicted branches per operation, counted by
# callgrind (its branch model: a table of two-bit counters, and the last
# target for indirect jumps): repeatable on a noisy machine, where times
# are not. Prints a markdown table.
#
#   bash benches/callgrind.sh [fixture ...]
#   CODEC="msgpack-serde named" bash benches/callgrind.sh   # one codec
#
# Needs valgrind. Each count is (run with N iterations - run with 0) / N,
# so fixture setup is not counted.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p msgpack-benches --example profile
bin=target/release/examples/profile
fixtures=("${@:-document api_profile logs mesh ints}")
[ $# -gt 0 ] || fixtures=(document api_profile logs mesh ints)
codecs=("msgpack-serde compact" "msgpack-serde named" "msgpack-serde derive map" "msgpack-serde derive array"
        "rmp-serde compact" "rmp-serde named" "msgpacker" "zerompk" "zerompk map" "prost" "serde_json" "floor (memcpy / clone)")

count() { # fixture codec op n -> instructions, mispredicted branches
  valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file=/dev/null "$bin" "$1" "$2" "$3" "$4" 2>&1 |
    awk '/Collected/ {print $4, $6 + $8}'
}

echo "| fixture | codec | encode: instructions | mispredicted | decode: instructions | mispredicted |"
echo "|---|---|--:|--:|--:|--:|"
for fixture in "${fixtures[@]}"; do
  case $fixture in document|api_profile) n=2000 ;; *) n=5 ;; esac
  for codec in "${codecs[@]}"; do
    [ -z "${CODEC:-}" ] || [ "$codec" = "$CODEC" ] || continue
    row="| $fixture | $codec"
    for op in encode decode; do
      read -r base_ir base_miss < <(count "$fixture" "$codec" "$op" 0)
      read -r ir miss < <(count "$fixture" "$codec" "$op" "$n")
      row="$row | $(( (ir - base_ir) / n )) | $(( (miss - base_miss) / n ))"
    done
    echo "$row |"
  done
done
