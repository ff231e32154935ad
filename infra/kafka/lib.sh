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
DATA_DIR="$(kafka_abs_dir "${BRAINSTREAM_KAFKA_DATA:-$KAFKA_DIR/.data}")"
LOG_DIR="$DATA_DIR/kraft-logs"          # partitions + KRaft metadata (meta.properties)
BROKER_LOGS="$DATA_DIR/logs"            # server.log (log4j2) and kafka.out (JVM stdout/stderr)
PROPS_FILE="$DATA_DIR/server.properties"
PID_FILE="$DATA_DIR/kafka.pid"
PORTS_FILE="$DATA_DIR/ports"            # ports the data dir was formatted for

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
  timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

kafka_log_tail() {
  local f
  for f in "$BROKER_LOGS/kafka.out" "$BROKER_LOGS/server.log"; do
    if [[ -s "$f" ]]; then
      echo "---- last lines of $f ----" >&2
      tail -n "${1:-40}" "$f" >&2
    fi
  done
}
