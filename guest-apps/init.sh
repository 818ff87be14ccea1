#!/bin/busybox sh
# /init of the sigmouse initramfs. The kernel command line says what to
# run (sigmouse_run=test|watch|bench|probe|shell, passed to init's environment);
# the guest channel, the second serial line, carries the programs' output
# and their requests to the host runner.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing

channel=/dev/ttyS1
stty -F "$channel" raw -echo
export SIGMOUSE_HOST_CHANNEL="$channel"

case "${sigmouse_run:-shell}" in
test)
	sigio-test >"$channel" 2>&1
	rc=$?
	if [ -e /sys/kernel/debug/kmemleak ]; then
		# kmemleak only reports objects it has seen unreferenced twice
		echo scan >/sys/kernel/debug/kmemleak
		sleep 6
		echo scan >/sys/kernel/debug/kmemleak
	fi
	;;
watch)
	# QEMU's PS/2 mouse binds a second or two after /init starts
	tries=0
	while [ "$(ls /dev | grep -c '^sigmouse')" -lt "${sigmouse_nodes:-1}" ] &&
	      [ $tries -lt 100 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	sigio-watch ${sigmouse_watch_seconds:-} >"$channel" 2>&1
	rc=$?
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
