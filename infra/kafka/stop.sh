#!/usr/bin/env bash
# Stops brokers started by start.sh: SIGTERM (controlled shutdown: leadership moves to the other
# nodes first), then SIGKILL if still alive after BRAINSTREAM_KAFKA_STOP_TIMEOUT seconds (default 30).
# Quiet; exits 0 when nothing is running. Data is kept.
#
#   bash infra/kafka/stop.sh                    the single broker
#   bash infra/kafka/stop.sh --brokers 3        every node of the cluster
#   bash infra/kafka/stop.sh --broker 2         node 2 of the cluster only
#   bash infra/kafka/stop.sh --broker 2 --kill  node 2, SIGKILL at once (a crash, for failover drills)
set -euo pipefail
SCRIPT_NAME=stop.sh
usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; }

NODES=1
ONLY=""
KILL=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --port) shift 2 ;;   # accepted for symmetry with start.sh; the pid files name the brokers
    --port=*) shift ;;
    --brokers) [[ $# -ge 2 ]] || { echo "kafka/stop.sh: --brokers needs a value" >&2; exit 2; }; NODES="$2"; shift 2 ;;
    --brokers=*) NODES="${1#--brokers=}"; shift ;;
    --broker) [[ $# -ge 2 ]] || { echo "kafka/stop.sh: --broker needs a node id" >&2; exit 2; }; ONLY="$2"; shift 2 ;;
    --broker=*) ONLY="${1#--broker=}"; shift ;;
    --kill) KILL=1; shift ;;
    *) echo "kafka/stop.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

STOP_TIMEOUT="${BRAINSTREAM_KAFKA_STOP_TIMEOUT:-30}"
[[ "$STOP_TIMEOUT" =~ ^[0-9]+$ ]] || kafka_die "bad BRAINSTREAM_KAFKA_STOP_TIMEOUT: $STOP_TIMEOUT"
[[ "$NODES" =~ ^[1-9]$ ]] || kafka_die "bad --brokers: $NODES (1 to 9)"
if [[ -n "$ONLY" ]]; then
  [[ "$ONLY" =~ ^[1-9]$ ]] || kafka_die "bad --broker: $ONLY (a node id, 1 to 9)"
  (( NODES > 1 )) || NODES=9   # a node id names a cluster node
fi

# Stops the broker of the node dir $1.
stop_node() {
  kafka_node_paths "$1"
  local pid
  pid="$(kafka_running_pid)"
  if [[ -z "$pid" ]]; then
    rm -f "$PID_FILE"
    return 0
  fi
  if (( KILL )); then
    kill -KILL "$pid" 2>/dev/null || true
  else
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + STOP_TIMEOUT))
    while kill -0 "$pid" 2>/dev/null && (( SECONDS < deadline )); do
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      kafka_note "broker (pid $pid) still running after ${STOP_TIMEOUT}s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kafka_die "broker (pid $pid) survived SIGKILL"
  rm -f "$PID_FILE"
}

ROOT="$(kafka_data_root "$NODES")"
if (( NODES == 1 )); then
  stop_node "$ROOT"
elif [[ -n "$ONLY" ]]; then
  [[ -d "$ROOT/node-$ONLY" ]] || kafka_die "no node $ONLY in $ROOT"
  stop_node "$ROOT/node-$ONLY"
else
  # One node after the other, the last first: each hands its leaderships to nodes still up, and
  # the controller quorum stays available until the end.
  dirs=()
  for dir in "$ROOT"/node-*; do [[ -d "$dir" ]] && dirs=("$dir" "${dirs[@]}"); done
  for dir in "${dirs[@]}"; do stop_node "$dir"; done
fi
