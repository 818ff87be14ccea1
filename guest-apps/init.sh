#!/bin/busybox sh
# /init of the sigmouse initramfs. The kernel command line says what to
# run (sigmouse_run=test|check|watch|person|bench|probe|shell, passed to init's environment);
# the guest channel, the second serial line, carries the programs' output
# and their requests to the host runner (the console instead, with
# sigmouse_channel=console).
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# the links udev makes, which the kselftest runner writes through
# (/dev/stdout): devtmpfs has none of them
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
# Enabling a trace event while tracefs records task names also hooks the
# scheduler's sched_switch and sched_wakeup tracepoints, and under QEMU's
# multi-threaded TCG a jump label patched while another vCPU runs it can
# kill the guest (docs/findings/int3-tracepoint-switched-under-load.txt,
# make boot-deaths' wakeups workloads): the checks that trace switch
# only their own events
echo 0 >/sys/kernel/tracing/options/record-cmd

# The programs' output and their requests to the host runner go over the
# second serial line. sigmouse_channel=console (a LAVA job: one serial
# line, no host runner): the output goes to the console, and no program
# has a host to ask (the checks that move QEMU's mice skip)
if [ "${sigmouse_channel:-}" = console ]; then
	channel=/dev/ttyS0
else
	channel=/dev/ttyS1
	stty -F "$channel" raw -echo
	export SIGMOUSE_HOST_CHANNEL="$channel"
fi

# QEMU's PS/2 mouse binds a second or two after /init starts
wait_for_nodes() {
	tries=0
	while [ "$(ls /dev | grep -c '^sigmouse')" -lt "${sigmouse_nodes:-1}" ] &&
	      [ $tries -lt 100 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
}

# The guest's own screen (QEMU's window or VNC) shows what the host gets
# on the channel, under a header saying what the kernel booted with
watch_on_screen() {
	sigio-watch --screen /dev/tty1 "$@" >"$channel" 2>&1
}

# The options of /guest.config this kernel lacks, one "CONFIG_X" a line:
# from /proc/config.gz (CONFIG_IKCONFIG_PROC), else from what the guest
# can see of them (the rest it needs to have come this far)
missing_options() {
	if [ -r /proc/config.gz ]; then
		mkdir -p /tmp
		zcat /proc/config.gz >/tmp/config
		grep '^CONFIG_' /guest.config | while read -r line; do
			grep -qxF "$line" /tmp/config || echo "${line%%=*}"
		done
		return
	fi
	[ -e /dev/uinput ] || echo CONFIG_INPUT_UINPUT
	[ -e /dev/ptmx ] || echo CONFIG_UNIX98_PTYS
	grep -qw evdev /proc/bus/input/handlers 2>/dev/null || echo CONFIG_INPUT_EVDEV
	[ -e /proc/self/task ] || echo CONFIG_PROC_FS
}

# The series' selftest through the kselftest runner, as kernel
# developers run it: without the host runner (its checks that move
# QEMU's mice skip) and only the checks sigmouse_kselftest_only names
run_kselftest() {
	env -u SIGMOUSE_HOST_CHANNEL SIGIO_TEST_ONLY="${sigmouse_kselftest_only:-}" \
		/kselftest/run_kselftest.sh
}

case "${sigmouse_run:-shell}" in
check)
	# make check-node: sigio-check on one node (sigio_check: its command
	# line, in sh's quoting), on a kernel with the options it needs
	echo "# suite: sigio-check" >"$channel"
	missing=$(missing_options)
	if [ -n "$missing" ]; then
		for option in $missing; do
			echo "sigmouse guest: the kernel lacks $option (guest-apps/guest.config)"
		done >"$channel"
		rc=1
	else
		eval "sigio-check $sigio_check" >"$channel" 2>&1
		rc=$?
	fi
	;;
test)
	# sigmouse_suites=a,b: the test programs to run (kselftest: the
	# runner), each announced on the channel so that the runner tallies
	# their KTAP apart
	rc=0
	for suite in $(echo "${sigmouse_suites:-sigio-test}" | tr , ' '); do
		echo "# suite: $suite" >"$channel"
		if [ "$suite" = kselftest ]; then
			run_kselftest >"$channel" 2>&1 || rc=1
		else
			"$suite" >"$channel" 2>&1 || rc=1
		fi
	done
	# sigmouse_leak_scan=0: the mutants' boots, which no leak kills
	if [ -e /sys/kernel/debug/kmemleak ] && [ "${sigmouse_leak_scan:-1}" != 0 ]; then
		# kmemleak only reports objects it has seen unreferenced twice
		echo scan >/sys/kernel/debug/kmemleak
		sleep 6
		echo scan >/sys/kernel/debug/kmemleak
	fi
	;;
watch)
	# sigio-watch for a script: it stops after sigmouse_watch_seconds
	wait_for_nodes
	watch_on_screen ${sigmouse_watch_seconds:-}
	rc=$?
	;;
person)
	# sigio-watch until the person stops, and a shell on the console
	wait_for_nodes
	watch_on_screen &
	# busybox poweroff, halt and reboot signal init: end the run cleanly
	trap 'echo "@@ exit 0" >"$channel"; poweroff -f' USR1 USR2 TERM
	echo "sigmouse guest shell: sigio-watch, sigio-test, pipe-load and the bench programs are on the PATH; poweroff or Ctrl-D ends the run"
	setsid cttyhack sh &
	wait $!
	rc=0
	;;
bench)
	sh /bench.sh >"$channel" 2>&1
	rc=$?
	;;
probe)
	rc=0
	;;
*)
	setsid sh -c "exec sh <$channel >$channel 2>&1"
	rc=$?
	;;
esac
echo "@@ exit $rc" >"$channel"
poweroff -f
