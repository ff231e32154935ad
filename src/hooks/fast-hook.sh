#!/usr/bin/env bash
# brainstream's fast hook client, registered by `brainstream bootstrap` as
#   bash fast-hook.sh NODE MAIN --home HOME hook EVENT --harness HARNESS
# A harness runs its hooks on every prompt; starting Node costs more than the hook's own work.
# This hands the harness's JSON to the running serve over loopback TCP (bash has /dev/tcp, not
# Unix sockets) and prints serve's answer: the same run as `brainstream hook`, inside serve.
# Without a serve, or on anything unexpected before the request is sent, it runs
# `NODE MAIN --home HOME hook EVENT --harness HARNESS` instead, which does the work itself.
# It fails open like the hook: whatever happens, it exits 0 and prints nothing harmful.
[ "${BRAINSTREAM_HOOKS:-}" = 0 ] && exit 0
node=$1 main=$2
shift 2

# The harness's JSON (a harness that keeps stdin open still gets read within the deadline).
payload=
IFS= read -r -d '' -t 0.3 payload || true

fallback() {
  exec 3>&-
  printf '%s' "$payload" | "$node" "$main" "$@"
  exit 0
}

[ "$#" -eq 6 ] && [ "$1" = --home ] && [ "$3" = hook ] && [ "$5" = --harness ] || fallback "$@"
home=$2 event=$4 harness=$6
# (stderr is redirected first: a missing file, no serve yet, is not worth a word on it)
IFS=' ' read -r port token 2>/dev/null < "$home/run/hook-port" || fallback "$@"
IFS= read -r secret 2>/dev/null < "$home/run/serve.secret" || fallback "$@"

# The caller's brainstream settings and home folders, as a forwarded command sees them.
header="secret=$secret"$'\n'"event=$event"$'\n'"harness=$harness"$'\n'"cwd=$PWD"
case $PWD in *$'\n'*) fallback "$@" ;; esac
for name in HOME CODEX_HOME "${!BRAINSTREAM_@}"; do
  [ -n "${!name+set}" ] || continue
  case ${!name} in *$'\n'*) fallback "$@" ;; esac
  header+=$'\n'"env.$name=${!name}"
done

# How long serve may take to answer: 2 s, or the one hook deadline a slow machine's user set
# (BRAINSTREAM_HOOK_DEADLINE_MS, 100..600000 ms, as the Node hook reads it). The greeting keeps
# its 1 s: a program other than serve on a stale port must not hold the prompt for long.
answer_wait=2
deadline=${BRAINSTREAM_HOOK_DEADLINE_MS:-}
[[ $deadline =~ ^[0-9]{1,9}$ ]] && deadline=$((10#$deadline)) || deadline=0
if [ "$deadline" -ge 100 ] && [ "$deadline" -le 600000 ]; then
  printf -v answer_wait '%d.%03d' $((deadline / 1000)) $((deadline % 1000))
fi

{ exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || fallback "$@"
# Serve proves itself with the token of the owner-only port file before the secret is sent.
IFS= read -r -t 1 greeting <&3 && [ "$greeting" = "brainstream-hook $token" ] || fallback "$@"
printf '%s\n\n%s\0' "$header" "$payload" >&3 2>/dev/null || exit 0
answer=
IFS= read -r -d '' -t "$answer_wait" answer <&3 || true
printf '%s' "$answer"
exit 0
