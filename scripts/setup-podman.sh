#!/usr/bin/env bash
# Makes a Docker-API container engine available on a machine without Docker: installs podman and
# runc (Debian packages), writes an engine configuration that works on VMs where podman's default
# runtime cannot start containers (why: see WANTED_CONF below; the settings are documented in
# containers.conf(5), github.com/containers/common docs/containers.conf.5.md) and serves the Docker
# API on a unix socket.
# Idempotent: run it as often as you like. Prints the DOCKER_HOST to use on its last line. When it
# starts the service, it writes the service's pid next to the socket (<socket without .sock>.pid),
# so that whoever asked for it can stop it (.ci/run does, when it ends).
#
#   scripts/setup-podman.sh            # as root (or with sudo available)
#   export DOCKER_HOST=unix:///tmp/podman.sock TESTCONTAINERS_RYUK_DISABLED=true
#
# Environment: PODMAN_SOCKET (default /tmp/podman.sock).
set -euo pipefail

SOCKET="${PODMAN_SOCKET:-/tmp/podman.sock}"
CONF=/etc/containers/containers.conf
LOG="${SOCKET%.sock}.log"
PIDFILE="${SOCKET%.sock}.pid"

say() { printf '[setup-podman] %s\n' "$*" >&2; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    say "needs root (or sudo) to install packages and write $CONF"; exit 1
  fi
fi

apt_get() {
  local attempt
  for attempt in 1 2 3; do
    if $SUDO env DEBIAN_FRONTEND=noninteractive apt-get "$@"; then return 0; fi
    say "apt-get $* failed (attempt $attempt of 3); retrying in $((attempt * 5)) s"
    sleep $((attempt * 5))
  done
  return 1
}

if command -v podman >/dev/null 2>&1 && [ -x /usr/sbin/runc ]; then
  say "podman $(podman --version | awk '{print $3}') and runc already installed"
else
  say "installing podman and runc"
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends podman runc >/dev/null
fi

# crun (podman's default) fails here ("cgroups in hybrid mode not supported"); raising the
# nofile/nproc limits to the host's is refused, so lower the defaults; cgroupfs avoids systemd.
WANTED_CONF='[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
[engine.runtimes]
runc = ["/usr/sbin/runc"]'
if [ "$(cat "$CONF" 2>/dev/null || true)" != "$WANTED_CONF" ]; then
  say "writing $CONF"
  $SUDO mkdir -p "$(dirname "$CONF")"
  printf '%s\n' "$WANTED_CONF" | $SUDO tee "$CONF" >/dev/null
fi

api_answers() {
  curl -fsS --max-time 3 --unix-socket "$SOCKET" http://d/_ping >/dev/null 2>&1
}

if api_answers; then
  say "the Docker API already answers on $SOCKET"
else
  say "starting 'podman system service' on $SOCKET (log: $LOG)"
  $SUDO rm -f "$SOCKET"
  # setsid + nohup: the service outlives this script and the shell that ran it. From /: it also
  # outlives the caller's folder (conmon needs its working directory to start a container).
  (cd / && {
    $SUDO setsid nohup podman system service --time=0 "unix://$SOCKET" >"$LOG" 2>&1 </dev/null &
    echo $! | $SUDO tee "$PIDFILE" >/dev/null
  })
  for _ in $(seq 1 100); do
    if api_answers; then break; fi
    sleep 0.1
  done
  if ! api_answers; then
    say "the podman API did not answer on $SOCKET within 10 s; its log:"
    cat "$LOG" >&2 || true
    exit 1
  fi
fi

say "ready: $(curl -fsS --max-time 3 --unix-socket "$SOCKET" http://d/version | grep -o '"Version":"[^"]*"' | head -1)"
echo "DOCKER_HOST=unix://$SOCKET"
