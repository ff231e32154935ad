#!/usr/bin/env bash
# Stops brokers and starts them again on the same data dirs (topics, offsets and committed
# consumer-group positions survive). Prints what start.sh prints.
#
#   bash infra/kafka/restart.sh [--port 9092]          the single broker
#   bash infra/kafka/restart.sh --brokers 3            every node of the cluster
#   bash infra/kafka/restart.sh --broker 2 [--kill]    node 2 of the cluster only (the others keep serving);
#                                                      --kill: SIGKILL instead of a controlled shutdown
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
stop_args=()
start_args=()
node=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --broker) [[ $# -ge 2 ]] || { echo "kafka/restart.sh: --broker needs a node id" >&2; exit 2; }; node="$2"; stop_args+=(--broker "$2"); shift 2 ;;
    --broker=*) node="${1#--broker=}"; stop_args+=(--broker "$node"); shift ;;
    --kill) stop_args+=(--kill); shift ;;
    --brokers) stop_args+=("$1" "${2:-}"); start_args+=("$1" "${2:-}"); shift 2 ;;
    -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) start_args+=("$1"); shift ;;
  esac
done
if [[ -n "$node" && ! " ${start_args[*]-} " =~ " --brokers " ]]; then
  # start.sh needs the cluster's shape: the cluster file of its data dir has it.
  # shellcheck source=lib.sh
  source "$here/lib.sh"
  root="$(kafka_data_root 9)"
  [[ -f "$(kafka_cluster_file "$root")" ]] || { echo "kafka/restart.sh: no cluster in $root (start one with start.sh --brokers 3)" >&2; exit 1; }
  read -r nodes port <"$(kafka_cluster_file "$root")"
  start_args+=(--brokers "$nodes" --port "$port")
fi
bash "$here/stop.sh" "${stop_args[@]}"
exec bash "$here/start.sh" "${start_args[@]}"
