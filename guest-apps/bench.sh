#!/bin/sh
# The guest half of make bench: each workload $runs times, one result
# line each, read by qemu-scripts/run-bench.py. Settings come from the
# kernel command line: sigmouse_bench_runs, _seconds, _pipe_seconds,
# _subscribers.
runs=${sigmouse_bench_runs:-3}
seconds=${sigmouse_bench_seconds:-2}
# long enough for some hundred profile ticks in kill_fasync()
pipe_seconds=${sigmouse_bench_pipe_seconds:-6}
subscribers=$(echo "${sigmouse_bench_subscribers:-1,4,16,64}" | tr , ' ')
pairs=$(nproc)
# kill_fasync() and what it may call out of line: the 2.6.0 design's
# rwlock fast path (_raw_read_lock; read_unlock is inline here) and slow
# path; 2003's locks were inline, so readprofile counted them as
# kill_fasync's, and so does run-bench.py
symbols="kill_fasync kill_fasync_rcu kill_fasync_rwlock kill_fasync_rcu_global
_raw_read_lock _raw_read_unlock queued_read_lock_slowpath"

repeat() {
	i=1
	while [ "$i" -le "$runs" ]; do
		"$@" || echo "bench-error $*"
		i=$((i + 1))
	done
}

pipe_run() {
	kprofile reset && pipe-load "$pairs" "$pipe_seconds" && kprofile report $symbols
}

echo "bench-design fasync_lock=$(cat /sys/kernel/debug/fasync_lock)" \
	"notify=$(cat /sys/module/sigmouse/parameters/notify) cpus=$pairs"
echo "section pipe"
repeat pipe_run

# calls per pipe write, counted once by ftrace's function profiler; its
# own cost would hide the differences above, but a count is a count
tracing=/sys/kernel/tracing
if echo kill_fasync >$tracing/set_ftrace_filter 2>/dev/null; then
	echo 1 >$tracing/function_profile_enabled
	pipe-load "$pairs" 1
	echo 0 >$tracing/function_profile_enabled
	echo "calls kill_fasync=$(cat $tracing/trace_stat/function* |
		awk '$1 == "kill_fasync" { n += $2 } END { print n + 0 }')"
	echo >$tracing/set_ftrace_filter
fi

echo "section fanout"
for s in $subscribers; do
	repeat fanout-bench sigmouse "$s" "$seconds"
done
repeat fanout-bench sigmouse 4 "$seconds" --churn 2

# sigmouse against evdev, alternated so that drift in the machine's
# speed falls on both alike
peer_pair() {
	fanout-bench sigmouse 1 "$seconds" && fanout-bench evdev 1 "$seconds"
}
echo "section peer"
repeat peer_pair
