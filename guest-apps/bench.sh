#!/bin/sh
# The guest half of make bench: each workload $runs times, one result
# line each, read by qemu-scripts/run-bench.py. Settings come from the
# kernel command line: sigmouse_bench_runs, _seconds, _subscribers.
runs=${sigmouse_bench_runs:-3}
seconds=${sigmouse_bench_seconds:-2}
subscribers=$(echo "${sigmouse_bench_subscribers:-1,4,16,64}" | tr , ' ')
pairs=$(nproc)
# kill_fasync()'s own ticks and the out-of-line rwlock helpers it calls
# in the 2.6.0 design (2003's locks were inline, so readprofile counted
# them as kill_fasync's)
symbols="kill_fasync kill_fasync_rcu kill_fasync_rwlock kill_fasync_rcu_global
_raw_read_lock _raw_read_unlock _raw_read_lock_irqsave _raw_read_unlock_irqrestore"

repeat() {
	i=1
	while [ "$i" -le "$runs" ]; do
		"$@" || echo "bench-error $*"
		i=$((i + 1))
	done
}

pipe_run() {
	kprofile reset && pipe-load "$pairs" "$seconds" && kprofile report $symbols
}

echo "bench-design fasync_lock=$(cat /sys/kernel/debug/fasync_lock)" \
	"notify=$(cat /sys/module/sigmouse/parameters/notify) cpus=$pairs"
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

for s in $subscribers; do
	repeat fanout-bench sigmouse "$s" "$seconds"
done
repeat fanout-bench sigmouse 4 "$seconds" --churn 2
repeat fanout-bench evdev 1 "$seconds"
