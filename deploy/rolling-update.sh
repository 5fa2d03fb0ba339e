#!/bin/sh
# Restarts the app processes one at a time without a failed request (docs/deploy.md, "Updating"):
# each is taken out of nginx's upstream, restarted, waited for until GET /readyz answers 200, and
# put back before the next; then the scheduler. Run as root once the new code is built:
#
#   cd /opt/aic-earn && export PATH=/opt/aic-earn/node_modules/.bin:$PATH
#   git pull && npm ci && npm run build && deploy/rolling-update.sh
#
# A process that does not become ready stops the rollout with one line: it stays out of nginx
# (marked `down` in the upstream file) and the others, not yet restarted, go on serving.
#
# Settings (environment), with the deployment's defaults; e2e/rollingUpdate.test.ts runs this
# script against test processes and a test nginx through them:
#   PORTS           the app processes, by port, as in the upstream block ("3001 3002");
#                   port 300N is the unit aic-earn@N (deploy/systemd/aic-earn@.service)
#   UPSTREAM_FILE   the nginx file holding the upstream's `server 127.0.0.1:300N ...;` lines
#                   (/etc/nginx/sites-enabled/aic-earn)
#   RELOAD_CMD      checks and applies nginx's configuration ("nginx -t -q && nginx -s reload")
#   NGINX_PID_FILE  nginx's master process (/run/nginx.pid)
#   RESTART_CMD     restarts one process and returns once the old one has stopped; run by sh
#                   with the unit as $1 and its port as $2 ('systemctl restart "$1"')
#   SCHEDULER_UNIT, SCHEDULER_PORT   restarted last, not behind nginx (aic-earn-scheduler, 3100);
#                   SCHEDULER_UNIT= (empty) leaves it alone
#   APP_HOST        where the processes listen (127.0.0.1)
#   READY_TIMEOUT   seconds a process has to answer /readyz with 200 (120)
#   DRAIN_TIMEOUT   seconds nginx's previous workers have to finish their requests (60)
set -eu

PORTS=${PORTS:-3001 3002}
UPSTREAM_FILE=${UPSTREAM_FILE:-/etc/nginx/sites-enabled/aic-earn}
RELOAD_CMD=${RELOAD_CMD:-nginx -t -q && nginx -s reload}
NGINX_PID_FILE=${NGINX_PID_FILE:-/run/nginx.pid}
RESTART_CMD=${RESTART_CMD:-systemctl restart \"\$1\"}
SCHEDULER_UNIT=${SCHEDULER_UNIT-aic-earn-scheduler}
SCHEDULER_PORT=${SCHEDULER_PORT:-3100}
APP_HOST=${APP_HOST:-127.0.0.1}
READY_TIMEOUT=${READY_TIMEOUT:-120}
DRAIN_TIMEOUT=${DRAIN_TIMEOUT:-60}

say() { echo "rolling-update: $*"; }
fail() {
  echo "rolling-update: FAILED: $*" >&2
  exit 1
}

# The unit of a port: aic-earn@.service listens on 300%i.
unit_of() { echo "aic-earn@${1#300}"; }

ready() { curl -fs -o /dev/null --max-time 5 "http://$APP_HOST:$1/readyz"; }

# The upstream line of a port: `server 127.0.0.1:3001` followed by its options or `;`.
host_re() { echo "$APP_HOST" | sed 's/\./\\./g'; }
line_of() { printf '^[[:space:]]*server[[:space:]][[:space:]]*%s:%s[[:space:];]' "$(host_re)" "$1"; }

# Every process of the upstream, by port (PORTS may name only some of them).
upstream_ports() { sed -n "s/^[[:space:]]*server[[:space:]][[:space:]]*$(host_re):\([0-9][0-9]*\)[[:space:];].*/\1/p" "$UPSTREAM_FILE"; }

# Marks a port's upstream line down (nginx sends it nothing) or up again. --follow-symlinks
# edits the file in sites-available that the sites-enabled link points to, not the link.
mark() {
  if [ "$2" = down ]; then
    sed -i --follow-symlinks "/$(line_of "$1")/{s/[[:space:]]down;/;/;s/;/ down;/;}" "$UPSTREAM_FILE"
  else
    sed -i --follow-symlinks "/$(line_of "$1")/s/[[:space:]]down;/;/" "$UPSTREAM_FILE"
  fi
}

is_down() { grep -q "$(line_of "$1").*[[:space:]]down;" "$UPSTREAM_FILE"; }

# nginx's worker processes (the master's children), from /proc: procps is not needed.
workers() {
  master=$(cat "$NGINX_PID_FILE")
  for stat in /proc/[0-9]*/stat; do
    { read -r pid _ _ ppid _ <"$stat"; } 2>/dev/null || continue
    [ "$ppid" = "$master" ] && echo "$pid"
  done
  return 0
}

# Applies the upstream file. `nginx -s reload` only asks the master: until the workers of the
# previous configuration have exited they may still send requests to a process marked down, so
# this returns once they have (they finish the requests in flight, then exit).
# Returns 1 if nginx refused the configuration (it runs the previous one), 2 if it applied it but
# its previous workers still run after DRAIN_TIMEOUT.
reload() {
  previous=$(workers)
  sh -c "$RELOAD_CMD" || return 1
  waited=0
  for pid in $previous; do
    while [ -d "/proc/$pid" ]; do
      [ "$waited" -lt $((DRAIN_TIMEOUT * 10)) ] || return 2
      sleep 0.1
      waited=$((waited + 1))
    done
  done
}

# Waits for a process's /readyz; returns 1 if it does not answer 200 within READY_TIMEOUT.
wait_ready() {
  started=$(date +%s)
  until ready "$1"; do
    [ $(($(date +%s) - started)) -lt "$READY_TIMEOUT" ] || return 1
    sleep 0.5
  done
  say "$2 ready after $(($(date +%s) - started)) s"
}

[ -f "$UPSTREAM_FILE" ] || fail "no upstream file $UPSTREAM_FILE (UPSTREAM_FILE)"
[ -s "$NGINX_PID_FILE" ] || fail "nginx is not running ($NGINX_PID_FILE is missing); nothing was restarted"
for port in $PORTS; do
  grep -q "$(line_of "$port")" "$UPSTREAM_FILE" || fail "no 'server $APP_HOST:$port' line in $UPSTREAM_FILE; nothing was restarted"
done

for port in $PORTS; do
  unit=$(unit_of "$port")
  # Taking this one out must leave another serving.
  others=0
  for other in $(upstream_ports); do
    [ "$other" != "$port" ] && ! is_down "$other" && ready "$other" && others=$((others + 1))
  done
  [ "$others" -gt 0 ] || fail "$unit not restarted: no other process is in nginx and ready (GET /readyz) to serve meanwhile"

  mark "$port" down
  drained=0
  reload || drained=$?
  if [ "$drained" -ne 0 ]; then
    mark "$port" up
    [ "$drained" -eq 1 ] && fail "$unit not restarted: nginx refused the upstream file (RELOAD_CMD: $RELOAD_CMD); $UPSTREAM_FILE is as it was"
    sh -c "$RELOAD_CMD" || true
    fail "$unit not restarted: nginx's previous workers still ran after ${DRAIN_TIMEOUT} s (long requests?); it is back in nginx as it was, run the update again"
  fi
  say "$unit out of nginx, restarting"
  sh -c "$RESTART_CMD" rolling-update "$unit" "$port" || fail "$unit: the restart command failed; it stays out of nginx (down in $UPSTREAM_FILE), the others serve"
  wait_ready "$port" "$unit" ||
    fail "$unit not ready (GET http://$APP_HOST:$port/readyz) within ${READY_TIMEOUT} s; it stays out of nginx (down in $UPSTREAM_FILE), the others serve; see journalctl -u $unit"
  mark "$port" up
  # Its previous workers may still be finishing requests: they send none to this process.
  reload || [ $? -eq 2 ] || fail "$unit is ready but nginx refused to take it back (RELOAD_CMD: $RELOAD_CMD); the rollout stopped"
  say "$unit back in nginx"
done

if [ -n "$SCHEDULER_UNIT" ]; then
  sh -c "$RESTART_CMD" rolling-update "$SCHEDULER_UNIT" "$SCHEDULER_PORT" || fail "$SCHEDULER_UNIT: the restart command failed"
  wait_ready "$SCHEDULER_PORT" "$SCHEDULER_UNIT" ||
    fail "$SCHEDULER_UNIT not ready (GET http://$APP_HOST:$SCHEDULER_PORT/readyz) within ${READY_TIMEOUT} s; see journalctl -u $SCHEDULER_UNIT"
fi
say "done"
