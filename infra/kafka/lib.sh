# shellcheck shell=bash
# shellcheck disable=SC2034  # variables used by the scripts that source this file
# Shared by start.sh, stop.sh and restart.sh (sourced, not run).
# Settings (environment):
#   BRAINSTREAM_KAFKA_CACHE  jar cache folder (default infra/kafka/.cache); jars go to <cache>/libs
#   BRAINSTREAM_KAFKA_DATA   data folder (default infra/kafka/.data)

KAFKA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$KAFKA_DIR/../.." && pwd)"

kafka_die() {
  echo "kafka/${SCRIPT_NAME:-kafka}: $*" >&2
  exit 1
}

kafka_note() {
  echo "kafka/${SCRIPT_NAME:-kafka}: $*" >&2
}

# Absolute path of a folder, creating it.
kafka_abs_dir() {
  mkdir -p "$1" || kafka_die "cannot create $1"
  (cd "$1" && pwd)
}

CACHE_DIR="$(kafka_abs_dir "${BRAINSTREAM_KAFKA_CACHE:-$KAFKA_DIR/.cache}")"
LIBS_DIR="$CACHE_DIR/libs"

# A single broker's data dir, or a cluster's: one folder per node (node-1, node-2, …) under it.
kafka_data_root() {
  if (( ${1:-1} > 1 )); then
    kafka_abs_dir "${BRAINSTREAM_KAFKA_DATA:-$KAFKA_DIR/.data-cluster}"
  else
    kafka_abs_dir "${BRAINSTREAM_KAFKA_DATA:-$KAFKA_DIR/.data}"
  fi
}

# Points the per-node paths below at one node's data dir ($1).
kafka_node_paths() {
  DATA_DIR="$1"
  LOG_DIR="$DATA_DIR/kraft-logs"          # partitions + KRaft metadata (meta.properties)
  BROKER_LOGS="$DATA_DIR/logs"            # server.log (log4j2) and kafka.out (JVM stdout/stderr)
  PROPS_FILE="$DATA_DIR/server.properties"
  PID_FILE="$DATA_DIR/kafka.pid"
  PORTS_FILE="$DATA_DIR/ports"            # ports the data dir was formatted for
}

# The cluster file of a cluster's data root: "<brokers> <base port>", written when it is formatted.
kafka_cluster_file() { echo "$1/cluster"; }

# Pid of the broker that owns this data dir, if it is running (empty otherwise).
kafka_running_pid() {
  [[ -f "$PID_FILE" ]] || return 0
  local pid cmd
  pid="$(<"$PID_FILE")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  cmd="$(ps -o args= -p "$pid" 2>/dev/null || true)"
  # Guard against a recycled pid: it must be a broker started with this data dir.
  if [[ "$cmd" == *kafka.Kafka* && "$cmd" == *"$PROPS_FILE"* ]]; then
    echo "$pid"
  fi
}

# True when something accepts TCP connections on 127.0.0.1:$1.
kafka_port_open() {
  if command -v timeout >/dev/null; then
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
  else
    bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
  fi
}

kafka_file_size() {
  if [[ -f "$1" ]]; then wc -c <"$1" | tr -d ' '; else echo 0; fi
}

kafka_sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

# Prints the end of the broker's output and log ($1 lines; with $2, only what server.log
# gained past byte offset $2, i.e. since the current launch).
kafka_log_tail() {
  local lines="${1:-40}" offset="${2:-0}" size
  if [[ -s "$BROKER_LOGS/kafka.out" ]]; then
    echo "---- last lines of $BROKER_LOGS/kafka.out ----" >&2
    tail -n "$lines" "$BROKER_LOGS/kafka.out" >&2
  fi
  if [[ -s "$BROKER_LOGS/server.log" ]]; then
    size="$(kafka_file_size "$BROKER_LOGS/server.log")"
    (( size >= offset )) || offset=0   # rolled over since
    if (( size > offset )); then
      echo "---- last lines of $BROKER_LOGS/server.log ----" >&2
      tail -c "+$((offset + 1))" "$BROKER_LOGS/server.log" | tail -n "$lines" >&2
    fi
  fi
}
