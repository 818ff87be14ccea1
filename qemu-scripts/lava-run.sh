#!/bin/sh
# make lava-run: a local LAVA lab from Debian 12's packages (lava-server,
# lava-dispatcher, lavacli 2023.01) that runs the kit's LAVA jobs
# (make lava-jobs) and reads their results back through LAVA's REST API.
# For machines without systemd as PID 1: PostgreSQL is started with
# pg_ctlcluster before lava-server configures (its postinst creates the
# database), and the server (gunicorn), the scheduler and one worker
# with one QEMU device (TCG, no_kvm) are started by hand, on loopback.
#
#   lava-run.sh setup            install if missing, configure, start
#   lava-run.sh submit FILES...  submit, wait, print cases per suite and
#                                "N passed, N failed, N skipped"
#   lava-run.sh teardown         stop every process setup started
#   lava-run.sh run FILES...     setup, submit, teardown (make lava-run)
#   lava-run.sh status
#
# State: build/lava-lab/ (tokens, pid files, logs, the worker's folder).
# Debian's packages force the rest: the database in the PostgreSQL 15
# "main" cluster (/var/lib/postgresql/15/main), lava-server's settings
# and device dictionaries in /etc/lava-server/, job logs in
# /var/lib/lava-server/default/media/job-output/, and the dispatcher's
# downloads in /var/lib/lava/dispatcher/tmp/ (lava_common.constants).
set -eu

. "$(dirname "$0")/lib.sh"
LAB=${LAVA_LAB:-$builds/lava-lab}
PORT=${LAVA_PORT:-18080}
URL=http://127.0.0.1:$PORT
WORKER=${LAVA_WORKER:-sigmouse-worker}
DEVICE=${LAVA_DEVICE:-qemu-01}
PG_VERSION=15
PG_CLUSTER=main
DICT=/etc/lava-server/dispatcher-config/devices/$DEVICE.jinja2
PACKAGES="lava-server lava-dispatcher lavacli"


installed() {
    for package; do
        [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = "install ok installed" ] ||
            return 1
    done
}

apt_install() {
    DEBIAN_FRONTEND=noninteractive nice apt-get install -y --no-install-recommends "$@" \
        >>"$LAB/logs/apt-get.log" 2>&1 ||
        die "apt-get install $* failed: see $LAB/logs/apt-get.log"
}

manage() { lava-server manage "$@"; }

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# start a daemon in its own session, its pid in run/NAME.pid
start() {
    name=$1; shift
    if alive "$LAB/run/$name.pid"; then say "$name already running"; return; fi
    setsid nice "$@" >"$LAB/logs/$name.out" 2>&1 </dev/null &
    echo $! >"$LAB/run/$name.pid"
    say "started $name (pid $!)"
}

postgres_up() {
    if ! installed postgresql; then
        say "installing postgresql"
        apt_install postgresql
    fi
    if ! pg_lsclusters -h | awk -v v=$PG_VERSION -v c=$PG_CLUSTER \
            '$1 == v && $2 == c && $4 == "online" { found = 1 } END { exit !found }'; then
        pg_ctlcluster $PG_VERSION $PG_CLUSTER start
        touch "$LAB/run/postgres.started"
        say "started PostgreSQL $PG_VERSION/$PG_CLUSTER"
    fi
    pg_isready -q || die "PostgreSQL is not accepting connections"
}

setup() {
    mkdir -p "$LAB/logs" "$LAB/run" "$LAB/worker"
    postgres_up
    # shellcheck disable=SC2086 # a list of names
    if ! installed $PACKAGES; then
        say "installing $PACKAGES (apt-get, no recommends; log: $LAB/logs/apt-get.log)"
        # shellcheck disable=SC2086
        apt_install $PACKAGES
    fi
    # a database made while PostgreSQL was down (postinst skips it) or lost
    if [ -z "$(su postgres -c "psql -tAc \"SELECT 1 FROM pg_database WHERE datname = 'lavaserver'\"")" ]; then
        say "creating lava-server's database"
        python3 /usr/share/lava-server/postinst.py >>"$LAB/logs/postinst.log" 2>&1 ||
            die "postinst.py failed: see $LAB/logs/postinst.log"
    fi

    # the superuser and its API token (ours, imported)
    if ! manage users details admin >/dev/null 2>&1; then
        manage users add admin --superuser --staff --passwd "$(python3 -c 'import secrets; print(secrets.token_hex(12))')" >/dev/null
    fi
    if [ ! -s "$LAB/token" ] || ! manage tokens list --user admin 2>/dev/null | grep -q "$(cat "$LAB/token")"; then
        python3 -c 'import secrets; print(secrets.token_hex(32))' >"$LAB/token"
        chmod 600 "$LAB/token"
        manage tokens add --user admin --description sigmouse --secret "$(cat "$LAB/token")" >/dev/null
    fi

    # the worker, its token, the device type and the device
    manage workers details "$WORKER" >/dev/null 2>&1 || manage workers add "$WORKER" >/dev/null
    manage workers details "$WORKER" | awk '$1 == "token" { print $3 }' >"$LAB/worker/token"
    chmod 600 "$LAB/worker/token"
    manage device-types details qemu >/dev/null 2>&1 || manage device-types add qemu
    manage devices details "$DEVICE" >/dev/null 2>&1 ||
        manage devices add --device-type qemu --worker "$WORKER" "$DEVICE"
    # TCG: no KVM here; user networking restricted to the guest (loopback only)
    cat >"$DICT" <<'EOF'
{% extends 'qemu.jinja2' %}
{% set no_kvm = True %}
{% set netdevice = 'user,restrict=on' %}
{% set mac_addr = '52:54:00:12:34:59' %}
EOF
    chown lavaserver:lavaserver "$DICT"
    manage devices update --health GOOD "$DEVICE"

    # the server (gunicorn, loopback), the scheduler, the worker
    touch "$LAB/logs/gunicorn.log" && chown lavaserver:lavaserver "$LAB/logs/gunicorn.log"
    start gunicorn gunicorn3 lava_server.wsgi --bind "127.0.0.1:$PORT" -u lavaserver -g lavaserver \
        --worker-class eventlet --workers 2 --timeout 120 --log-level INFO \
        --log-file "$LAB/logs/gunicorn.log"
    start lava-scheduler lava-server manage lava-scheduler --level INFO \
        --log-file "$LAB/logs/lava-scheduler.log"
    i=0
    until curl -sf -o /dev/null "$URL/api/v0.2/system/version/"; do
        i=$((i + 1)); [ $i -lt 60 ] || die "the server did not answer at $URL: see $LAB/logs/"
        sleep 1
    done
    start lava-worker lava-worker --name "$WORKER" --url "$URL/" --ws-url "$URL/ws/" \
        --token-file "$LAB/worker/token" --worker-dir "$LAB/worker" --level INFO \
        --log-file "$LAB/logs/lava-worker.log"
    i=0
    until manage workers details "$WORKER" 2>/dev/null | grep 'state *: Online' >/dev/null; do
        i=$((i + 1)); [ $i -lt 60 ] || die "the worker is not online: see $LAB/logs/lava-worker.log"
        sleep 1
    done
    say "ready: $URL (worker $WORKER online, device $DEVICE: qemu, TCG)"
}

submit() {
    [ $# -gt 0 ] || die "submit: no job files"
    [ -s "$LAB/token" ] || die "no lab: run lava-run.sh setup first"
    /usr/bin/python3 "$top/qemu-scripts/lava_results.py" --url "$URL" --token-file "$LAB/token" \
        --compare "$builds" "$@"
}

teardown() {
    # the QEMU of a running job: lava-run's pexpect gives it a session of
    # its own, so it is found by the dispatcher's download folder
    for pid in $(pgrep -f 'qemu-system-.*/var/lib/lava/dispatcher/tmp/' || true); do
        kill "$pid" 2>/dev/null && say "stopped QEMU (pid $pid)"
    done
    for name in lava-worker lava-scheduler gunicorn; do
        file=$LAB/run/$name.pid
        [ -f "$file" ] || continue
        pid=$(cat "$file")
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
            i=0
            while kill -0 "$pid" 2>/dev/null && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
            kill -KILL -- "-$pid" 2>/dev/null || true
            say "stopped $name (pid $pid)"
        fi
        rm -f "$file"
    done
    if [ -f "$LAB/run/postgres.started" ]; then
        pg_ctlcluster $PG_VERSION $PG_CLUSTER stop && say "stopped PostgreSQL $PG_VERSION/$PG_CLUSTER"
        rm -f "$LAB/run/postgres.started"
    fi
}

status() {
    for name in gunicorn lava-scheduler lava-worker; do
        if alive "$LAB/run/$name.pid"; then say "$name: running"; else say "$name: stopped"; fi
    done
    pg_lsclusters
}

[ "$(id -u)" = 0 ] || die "needs root (apt-get, PostgreSQL, lava-server's files)"
command=${1:-}
[ $# -gt 0 ] && shift
case $command in
    setup) setup ;;
    submit) submit "$@" ;;
    teardown) teardown ;;
    run)
        # the lab only for this run: torn down whatever happens
        trap 'teardown' EXIT
        trap 'exit 130' INT TERM
        setup
        submit "$@" ;;
    status) status ;;
    *) die "usage: lava-run.sh setup | submit FILES... | teardown | status" ;;
esac
