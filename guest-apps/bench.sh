#!/bin/sh
# The guest half of make bench: the sections named on the kernel command
# line, one result line each, read by qemu-scripts/run-bench.py.
# Settings: sigmouse_bench_sections (pipe,curve,calls,anchor,fanout,peer),
# _runs (pipe-load runs of each placement), _pipe_seconds, _seconds (fan-out runs),
# _subscribers (fan-out), _curve (the subscribers of the pipe load's
# points), _curve_seconds, _rates (the open-loop load's offered
# writes/s), _rate_seconds, _paths (the lists' lengths of the path
# lengths' phases), _path_writes, _pins (the peer's placements of
# writer and receiver: none, together, apart).
runs=${sigmouse_bench_runs:-2}
seconds=${sigmouse_bench_seconds:-2}
pipe_seconds=${sigmouse_bench_pipe_seconds:-4}
subscribers=$(echo "${sigmouse_bench_subscribers:-1,4,16,64}" | tr , ' ')
curve=$(echo "${sigmouse_bench_curve:-0,1,4,16,64}" | tr , ' ')
curve_seconds=${sigmouse_bench_curve_seconds:-1}
rates=$(echo "${sigmouse_bench_rates:-1000,10000,100000,300000,1000000}" | tr , ' ')
rate_seconds=${sigmouse_bench_rate_seconds:-0.5}
paths=$(echo "${sigmouse_bench_paths:-0,1,4,16}" | tr , ' ')
path_writes=${sigmouse_bench_path_writes:-2000}
pins=$(echo "${sigmouse_bench_pins:-none}" | tr , ' ')
sections=$(echo "${sigmouse_bench_sections:-pipe,calls,fanout,peer}" | tr , ' ')
pairs=$(nproc)
tracing=/sys/kernel/tracing

# kill_fasync() and the lock functions it calls out of line: the 2.6.0
# design's read_lock() (its unlock is an inline locked add) and slow
# path. Named here so that a missing one fails the run instead of
# counting zero; the patched kernel adds each design's walk.
functions="kill_fasync _raw_read_lock queued_read_lock_slowpath"

if [ -r /sys/kernel/debug/fasync_lock ]; then
	echo "bench-design kernel=sigmouse fasync_lock=$(cat /sys/kernel/debug/fasync_lock)" \
		"notify=$(cat /sys/module/sigmouse/parameters/notify) cpus=$pairs"
	functions="$functions kill_fasync_walk kill_fasync_rwlock kill_fasync_rcu_global"
else
	echo "bench-design kernel=stock cpus=$pairs"
fi
kprofile report $functions >/dev/null || echo "bench-error kprofile cannot see $functions"

has() {
	case " $sections " in *" $1 "*) return 0 ;; esac
	return 1
}

# the pipe load with the whole profile of each run, for diffprofile:
# each run once with each pipe's ends on two CPUs and once on one
# (pipe-load's placements), the order swapped from run to run
if has pipe; then
	echo "section pipe"
	i=1
	while [ "$i" -le "$runs" ]; do
		order="cross local"
		[ $((i % 2)) -eq 1 ] || order="local cross"
		for placement in $order; do
			{ kprofile reset && pipe-load "$pairs" "$pipe_seconds" "$placement" &&
			  kprofile dump; } || echo "bench-error pipe run $i $placement"
		done
		i=$((i + 1))
	done
fi

# the cross-CPU pipe load with its read sides' fasync lists growing, a
# profile a point: the cost of a call against the list's length
if has curve; then
	echo "section curve"
	for n in $curve; do
		{ kprofile reset && pipe-load "$pairs" "$curve_seconds" cross "$n" &&
		  kprofile dump; } || echo "bench-error curve $n"
	done
fi

# the pipe load open-loop, a point per offered rate, lowest first: the
# cost of a write (one call) against how often calls come
if has rate; then
	echo "section rate"
	for r in $rates; do
		pipe-paced "$rate_seconds" "$r" || echo "bench-error rate $r"
	done
	# the rates again, ftrace's function profiler timing every
	# kill_fasync() call from entry to return (enabling it resets its
	# counts): the call's own time at each rate, which a write() timed
	# from user space is too coarse to show. The profiler's own cost
	# inside each call is in it, the same on every kernel
	if echo kill_fasync >$tracing/set_ftrace_filter 2>/dev/null; then
		echo "section rate-ftrace"
		for r in $rates; do
			echo 1 >$tracing/function_profile_enabled
			pipe-paced "$rate_seconds" "$r" || echo "bench-error rate-ftrace $r"
			echo 0 >$tracing/function_profile_enabled
			# its Time column: microseconds, three decimals
			cat $tracing/trace_stat/function* | awk '
				$1 == "kill_fasync" { calls += $2; ns += $3 * 1000; if ($4 != "us") unit = $4 }
				END { if (unit != "") print "bench-error rate-ftrace: a time in " unit
				      else printf "ftrace kill_fasync=%d time_ns=%.0f\n", calls, ns }'
		done
		echo >$tracing/set_ftrace_filter
	else
		echo "bench-error rate-ftrace: kill_fasync cannot be traced"
	fi
fi

# kill_fasync() calls in phases, one list length each, for the host's
# TCG plugin that counts their instructions: run-bench.py boots this
# section alone, with the plugin loaded
if has paths; then
	echo "section paths"
	kill-fasync-calls "$path_writes" $paths || echo "bench-error paths"
fi

# util-linux's readprofile and kprofile on one snapshot of the counters
# the last profiled run left: run-bench.py holds their ticks per function
# against each other
if has pipe; then
	echo "section readprofile"
	mkdir -p /tmp && cp /proc/profile /tmp/profile
	KPROFILE_COUNTERS=/tmp/profile kprofile dump
	# /proc/profile is the step, then the count at _stext + (i - 1) *
	# step in word i (kernel/profile.c's read_profile()); readprofile
	# charges word i to _stext + i * step, so a tick on a function's last
	# byte (6.12's ktime_get_coarse_real_ts64() ends in a one-byte ret)
	# went to the next function. Its copy leaves the first count out,
	# which lines the two up; one copy at a time, as the debug kernel's
	# is tens of MB of a guest's RAM
	{ head -c 4 /tmp/profile && tail -c +9 /tmp/profile; } >/tmp/profile-readprofile
	rm /tmp/profile
	readprofile -p /tmp/profile-readprofile -m /proc/kallsyms |
		awk '$2 != "total" && $1 > 0 { printf "%s%s=%s", n % 16 ? " " : "readprofile ", $2, $1
		     if (++n % 16 == 0) print "" } END { if (n % 16) print "" }' ||
		echo "bench-error readprofile"
	rm -f /tmp/profile-readprofile
fi

# pipe-load's own call count against ftrace's function profiler, once:
# too costly to run during the profiled runs, but a count is a count
if has calls && echo kill_fasync >$tracing/set_ftrace_filter 2>/dev/null; then
	echo "section calls"
	echo 1 >$tracing/function_profile_enabled
	pipe-load "$pairs" 1
	echo 0 >$tracing/function_profile_enabled
	echo "ftrace kill_fasync=$(cat $tracing/trace_stat/function* |
		awk '$1 == "kill_fasync" { n += $2 } END { print n + 0 }')"
	echo >$tracing/set_ftrace_filter
fi

# the read side alone, and what moving a cache line between two CPUs
# costs, in the guest (the host runs the same binaries)
if has anchor; then
	echo "section anchor"
	rwlock-anchor 0.5 1
	cacheline-pingpong 20000 11
fi

if has fanout && [ -e /sys/class/sigmouse ]; then
	echo "section fanout"
	for s in $subscribers; do
		{ kprofile reset && fanout-bench sigmouse "$s" "$seconds" && kprofile dump; } ||
			echo "bench-error fanout $s"
	done
	fanout-bench sigmouse 4 "$seconds" --churn 2 || echo "bench-error churn"
fi

# sigmouse against evdev, one subscriber, in both orders: drift in the
# machine's speed falls on both alike; each run with its tick profile,
# for where one spends its packets' time that the other does not; at
# each placement of writer and receiver
if has peer && [ -e /sys/class/sigmouse ]; then
	echo "section peer"
	for pin in $pins; do
		for order in "sigmouse evdev" "evdev sigmouse"; do
			for node in $order; do
				{ kprofile reset && fanout-bench "$node" 1 "$seconds" --pin "$pin" &&
				  kprofile dump; } || echo "bench-error peer $node $pin"
			done
		done
	done
fi
