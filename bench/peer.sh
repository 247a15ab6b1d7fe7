#!/usr/bin/env bash
# The engine against the native reference solver, back to back in one go: ROUNDS rounds (default 3) of
# the peer, the WebAssembly core on one thread and on two threads, on the 200 reference positions.
# Needs ../shared/peer (build it with ../shared/peer/build.sh). Prints one JSON line per run.
set -euo pipefail
cd "$(dirname "$0")/.."
PEER="${PEER_DIR:-../shared/peer}"
POSITIONS=tests/fixtures/reference/expectimax-positions.tsv
[ -x "$PEER/bin/2048" ] || "$PEER/build.sh" >/dev/null
for round in $(seq 1 "${ROUNDS:-3}"); do
  echo "# round $round $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  echo "peer    $("$PEER/time-positions.py" --runs 1 | tail -1)"
  echo "wasm-1  $(npm run -s bench -- --positions "$POSITIONS" --engine wasm --json 2>/dev/null | tail -1)"
  echo "wasm-2  $(npm run -s bench -- --positions "$POSITIONS" --engine wasm --threads 2 --json 2>/dev/null | tail -1)"
done
