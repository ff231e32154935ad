#!/usr/bin/env bash
# Stops the broker started by start.sh for this data dir: SIGTERM (controlled shutdown),
# then SIGKILL if it is still alive after BRAINSTREAM_KAFKA_STOP_TIMEOUT seconds (default 30).
# Quiet; exits 0 when no broker is running. Data is kept.
#
#   bash infra/kafka/stop.sh
set -euo pipefail
SCRIPT_NAME=stop.sh
case "${1:-}" in
  -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
  --port|--port=*) ;;  # accepted for symmetry with start.sh; the pid file names the broker
  "") ;;
  *) echo "kafka/stop.sh: unknown argument: $1" >&2; exit 2 ;;
esac

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

STOP_TIMEOUT="${BRAINSTREAM_KAFKA_STOP_TIMEOUT:-30}"
[[ "$STOP_TIMEOUT" =~ ^[0-9]+$ ]] || kafka_die "bad BRAINSTREAM_KAFKA_STOP_TIMEOUT: $STOP_TIMEOUT"

pid="$(kafka_running_pid)"
if [[ -z "$pid" ]]; then
  rm -f "$PID_FILE"
  exit 0
fi

kill -TERM "$pid" 2>/dev/null || true
deadline=$((SECONDS + STOP_TIMEOUT))
while kill -0 "$pid" 2>/dev/null && (( SECONDS < deadline )); do
  sleep 0.2
done
if kill -0 "$pid" 2>/dev/null; then
  kafka_note "broker (pid $pid) still running after ${STOP_TIMEOUT}s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kafka_die "broker (pid $pid) survived SIGKILL"
fi
rm -f "$PID_FILE"
