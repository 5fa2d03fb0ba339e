#!/usr/bin/env bash
# The restore drill (docs/deploy.md, section 9): proves the PostgreSQL backups can be restored
# and hold books that add up, without touching the live database. It restores the latest backup
# (replaying the archived WAL to its end) or the moment --target names into a scratch folder,
# starts a scratch PostgreSQL on it, runs the app's verifier (npm run verify) against it, prints
# what it found, then stops and removes the scratch cluster. Exits 0 only if every step passed.
#
#   deploy/restore-drill.sh                                   the latest state in the archive
#   deploy/restore-drill.sh --target '2026-11-28 09:15:00+00' the database as it was then
#
# Run it as root (PostgreSQL's steps then run as --pg-user) or as the postgres user. Options:
#   --target TIME       restore to this moment (pgbackrest --type=time) instead of the latest
#   --set LABEL         start from this backup (pgbackrest info lists them) instead of the newest
#   --repo N            restore from repository N (default: the first that has the backup)
#   --stanza NAME       pgBackRest stanza (aic-earn)
#   --config FILE       pgBackRest configuration (its default, /etc/pgbackrest.conf)
#   --database NAME     the app's database (aic_earn), --db-user NAME its role (aic_earn)
#   --app DIR           the app's checkout, where npm run verify runs (this script's parent)
#   --env-file FILE     the app's settings for the verifier (/etc/aic-earn/env if readable)
#   --pg-bin DIR        PostgreSQL's programs (/usr/lib/postgresql/15/bin)
#   --pg-user USER      the user PostgreSQL and pgBackRest run as (postgres)
#   --scratch DIR       where the scratch folder is made (/var/tmp): room for a whole copy
#   --port N            the scratch server's port (default: a free one from 55432 up)
#   --wait SECONDS      how long replaying the WAL may take before the drill gives up (3600)
#   --keep              leave the scratch cluster stopped in its folder, for a closer look
set -Eeuo pipefail
# runuser is in sbin, which a cron-like or non-login PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"

STANZA=aic-earn
CONFIG=
REPO=
TARGET=
SET=
DATABASE=aic_earn
DB_USER=aic_earn
APP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ENV_FILE=
PG_BIN=/usr/lib/postgresql/15/bin
PG_USER=postgres
SCRATCH_BASE=/var/tmp
PORT=
WAIT=3600
KEEP=

usage() {
  sed -n '2,/^set -E/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
    --target) TARGET=${2:?}; shift 2 ;;
    --set) SET=${2:?}; shift 2 ;;
    --repo) REPO=${2:?}; shift 2 ;;
    --stanza) STANZA=${2:?}; shift 2 ;;
    --config) CONFIG=${2:?}; shift 2 ;;
    --database) DATABASE=${2:?}; shift 2 ;;
    --db-user) DB_USER=${2:?}; shift 2 ;;
    --app) APP=${2:?}; shift 2 ;;
    --env-file) ENV_FILE=${2:?}; shift 2 ;;
    --pg-bin) PG_BIN=${2:?}; shift 2 ;;
    --pg-user) PG_USER=${2:?}; shift 2 ;;
    --scratch) SCRATCH_BASE=${2:?}; shift 2 ;;
    --port) PORT=${2:?}; shift 2 ;;
    --wait) WAIT=${2:?}; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h | --help) usage ;;
    *) echo "restore drill: unknown option $1 (--help lists them)" >&2; exit 2 ;;
  esac
done
if [ -z "$ENV_FILE" ] && [ -r /etc/aic-earn/env ]; then ENV_FILE=/etc/aic-earn/env; fi

STARTED=$(date +%s)
FAILED=
SCRATCH=
RUNNING=

say() { printf '%s\n' "$*"; }
# Each step's line says how long the drill has run: a slow restore is something to know.
step() { printf '[%4ss] %s\n' "$(($(date +%s) - STARTED))" "$*"; }
indent() { sed 's/^/        /'; }
fail() {
  FAILED=$1
  step "FAILED: $1"
  exit 1
}
# PostgreSQL refuses to run as root, and the repository is the postgres user's.
as_pg() {
  if [ "$(id -u)" = 0 ] && [ "$PG_USER" != root ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi
}
pgbackrest_() { as_pg pgbackrest ${CONFIG:+"--config=$CONFIG"} "--stanza=$STANZA" "$@"; }
psql_() { as_pg "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$SCRATCH/socket" -p "$PORT" -U "$DB_USER" -d "$DATABASE" "$@"; }

cleanup() {
  local status=$?
  if [ -n "$RUNNING" ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$SCRATCH/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ]; then
    if [ -n "$KEEP" ]; then
      step "kept the scratch cluster in $SCRATCH (stopped; remove it when done)"
    else
      rm -rf -- "$SCRATCH"
    fi
  fi
  if [ "$status" -ne 0 ] && [ -z "$FAILED" ]; then step "FAILED (exit $status)"; fi
  if [ "$status" -eq 0 ]; then
    say "RESULT: PASS: the backup restored${TARGET:+ to $TARGET} and the verifier is green"
  else
    say "RESULT: FAIL${FAILED:+: $FAILED}"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [ -z "$PORT" ]; then
  PORT=55432
  while ! port_free "$PORT"; do PORT=$((PORT + 1)); done
fi

for program in pgbackrest "$PG_BIN/pg_ctl" "$PG_BIN/psql" npm; do
  command -v "$program" >/dev/null || fail "$program not found (see --pg-bin, or install it)"
done

say "AIC Earn restore drill: stanza $STANZA${REPO:+, repo $REPO}, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "  target: ${TARGET:-the end of the archived WAL (the latest state)}${SET:+, from backup $SET}"

step "backups in the repository:"
info=$(pgbackrest_ ${REPO:+"--repo=$REPO"} info 2>&1) || { printf '%s\n' "$info" | indent; fail "pgbackrest info failed"; }
# The newest backup's block (its label, kind, times and size), not the whole list.
printf '%s\n' "$info" | awk '/^ +(full|diff|incr) backup:/ { n++ } /^ +(full|diff|incr) backup:/ || / timestamp start\/stop:| wal start\/stop:| database size:/ { line[n] = line[n] $0 "\n" } END { printf "%s", line[n] }' | sed 's/^ *//' | indent
count=$(printf '%s\n' "$info" | grep -cE '^ +(full|diff|incr) backup:' || true)
[ "$count" -gt 0 ] || { printf '%s\n' "$info" | indent; fail "no backup in the repository"; }
say "        (the newest of $count in the repository)"

SCRATCH=$(as_pg mktemp -d "$SCRATCH_BASE/aic-earn-drill.XXXXXX") || fail "cannot make a scratch folder in $SCRATCH_BASE"
as_pg mkdir -m 0700 "$SCRATCH/data" "$SCRATCH/socket"

step "restoring into $SCRATCH/data"
restore=(--pg1-path="$SCRATCH/data" --archive-mode=off --log-level-console=warn)
[ -n "$REPO" ] && restore+=(--repo="$REPO")
[ -n "$SET" ] && restore+=(--set="$SET")
# promote: end recovery at the target and open the database (the default, pause, needs a hot standby).
[ -n "$TARGET" ] && restore+=(--type=time "--target=$TARGET" --target-action=promote)
out=$(pgbackrest_ "${restore[@]}" restore 2>&1) || { printf '%s\n' "$out" | indent; fail "pgbackrest restore failed"; }
[ -z "$out" ] || printf '%s\n' "$out" | indent
say "        $(du -sh "$SCRATCH/data" | cut -f1) restored"

# Its own settings, whatever the live cluster's: only a socket in the scratch folder (the copy
# holds every balance; trust is safe only where no one else can reach), no archiving (its WAL
# must never reach the live cluster's repository), no hot standby (it is opened only once
# recovery is over, so the live server's connection limits need not be matched).
as_pg sh -c "umask 077; printf 'local all all trust\n' > '$SCRATCH/pg_hba.conf'; : > '$SCRATCH/pg_ident.conf'; : > '$SCRATCH/postgresql.conf'"
options="-c config_file=$SCRATCH/postgresql.conf -c hba_file=$SCRATCH/pg_hba.conf -c ident_file=$SCRATCH/pg_ident.conf"
options="$options -c port=$PORT -c listen_addresses= -c unix_socket_directories=$SCRATCH/socket"
options="$options -c archive_mode=off -c hot_standby=off -c logging_collector=off"

step "starting a scratch PostgreSQL on port $PORT (socket in $SCRATCH/socket) and replaying the WAL"
RUNNING=1
if ! as_pg "$PG_BIN/pg_ctl" -D "$SCRATCH/data" -l "$SCRATCH/postgres.log" -o "$options" -w -t "$WAIT" start >/dev/null; then
  tail -n 20 "$SCRATCH/postgres.log" | indent
  fail "the scratch PostgreSQL did not start (its log, above)"
fi
# pg_ctl counts a server replaying WAL as started; the database opens once recovery is over.
deadline=$(($(date +%s) + WAIT))
until [ "$(psql_ -c 'select pg_is_in_recovery()' 2>/dev/null)" = f ]; do
  if ! as_pg "$PG_BIN/pg_ctl" -D "$SCRATCH/data" status >/dev/null; then
    tail -n 20 "$SCRATCH/postgres.log" | indent
    fail "the scratch PostgreSQL stopped during recovery (its log, above)"
  fi
  [ "$(date +%s)" -lt "$deadline" ] || fail "recovery not over after $WAIT seconds (--wait)"
  sleep 1
done
grep -hE 'recovery stopping|last completed transaction|redo done|selected new timeline' "$SCRATCH/postgres.log" |
  sed -E -e 's/^.*(LOG|WARNING): +//' -e 's/ system usage:.*//' | indent || true

step "what the restored database holds:"
ledger=$(psql_ -c "select 'journal entries: ' || count(*) || ', the last at ' || coalesce(to_char(max(created_at) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' UTC', '-') from journal_entries" 2>&1) ||
  { printf '%s\n' "$ledger" | indent; fail "cannot read the ledger of database $DATABASE as $DB_USER"; }
say "        $ledger"
say "        holders: $(psql_ -c 'select count(*) from users')"

step "npm run verify on the restored database:"
# The socket's folder in the query (host=), which overrides localhost; the app checks the URL's form.
socket_q=$(printf '%s' "$SCRATCH/socket" | sed -e 's/%/%25/g' -e 's/ /%20/g' -e 's/&/%26/g' -e 's/#/%23/g')
url="postgresql://$DB_USER@localhost:$PORT/$DATABASE?host=$socket_q"
set +e
(
  cd "$APP" || exit 1
  # shellcheck source=/dev/null
  if [ -n "$ENV_FILE" ]; then set -a && . "$ENV_FILE" && set +a; fi
  # The verifier alone: the scratch cluster is not the live one, and nothing else may be reached.
  export DATABASE_URL=$url
  unset REDIS_URL
  # The project's Node 24 (a dependency), whatever node the machine has.
  export PATH="$APP/node_modules/.bin:$PATH" npm_config_update_notifier=false
  npm run --silent verify
) 2>&1 | indent
verified=${PIPESTATUS[0]}
set -e
[ "$verified" -eq 0 ] || fail "the verifier found problems (above)"

step "stopping and removing the scratch cluster"
as_pg "$PG_BIN/pg_ctl" -D "$SCRATCH/data" -m fast -w stop >/dev/null || fail "the scratch PostgreSQL did not stop"
RUNNING=
