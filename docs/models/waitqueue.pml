/*
 * waitqueue.pml: the waitqueue design (sigmouse.notify=waitqueue),
 * fasync_wait_helper() and fasync_wait_wake() of patch 0004, with the
 * driver's poll wait queue walked by __wake_up_common()
 * (kernel/sched/wait.c). "6.1:N", "6.12:N": fs/fcntl.c of
 * build/<version>/series/linux, branch sigmouse, unless another file is
 * named.
 *
 * -DTAIL_INSERT: the helper's first version, which queued its entry at
 * the tail (__add_wait_queue_entry_tail(), mutant 122) instead of at
 * the head (__add_wait_queue()).
 *
 * The queue holds, besides the subscribers' entries, one epoll entry
 * added with EPOLLEXCLUSIVE (add_wait_queue_exclusive(), at the tail,
 * before A subscribed). Its wake function, ep_poll_callback()
 * (fs/eventpoll.c 6.1:1141, 6.12:1429), returns 1, "woken", whenever
 * its epoll_wait() sleeps, for EPOLLHUP too: the model lets it return 1
 * or 0. No priority waiters: see README.md.
 *
 * -DPOLLFREE: the queue's owner (queue_owner below, another CPU, in both
 * scenarios) frees it while files are subscribed, as a driver whose
 * queue lives with a task rather than a file does: wake_up_pollfree(),
 * whose wake-up takes every entry off (fasync_wait_wake()'s POLLFREE
 * branch, ep_poll_callback()'s), then kfree_rcu() of the queue, while
 * __fput() or F_SETFL without O_ASYNC runs the helper's removal, which
 * must not touch the freed queue. The driver's own rules, which the
 * helper relies on and the model therefore assumes: it adds no file to
 * the queue once it has called wake_up_pollfree() (its ->fasync() with
 * @on fails, as wake_up_pollfree()'s WARN_ON_ONCE(waitqueue_active())
 * demands of ->poll()), and it wakes the queue no more once it has
 * handed it to kfree_rcu(); its own lock orders both with the
 * teardown, modelled by checking under the queue's lock.
 * -DPOLLFREE_NO_GRACE (with POLLFREE): the driver kfree()s the queue at
 * once, not after a grace period, against wake_up_pollfree()'s
 * kernel-doc (include/linux/wait.h 6.1:259-260, 6.12:258-259).
 * -DPOLLFREE_LATE_FASYNC (with POLLFREE): the driver keeps calling the
 * helper with @on until it frees the queue, which is all the helper's
 * kernel-doc asks ("@wq must still be valid"); see README.md.
 */
#include "common.pml"

#define EXCLUSIVE_WAITER	2	/* queue element; a subscriber's element is its file's number */
#define QUEUE_MAX		3

byte queue[QUEUE_MAX];		/* wq_head->head, in order */
byte queue_len;
bool wq_lock;			/* wq_head->lock */
bool event_lock;		/* the input device's dev->event_lock */
byte fw_file[NFILE];		/* struct fasync_wait's file: NONE when not subscribed */
byte fw_fd[NFILE];
bool fw_wq[NFILE];		/* struct fasync_wait's wq is set: the entry is on the queue, or POLLFREE raced */

#ifdef POLLFREE
bool wq_pollfreed;		/* wake_up_pollfree() has taken the queue's lock: the driver adds no file to it */
bool wq_retired;		/* the driver has handed the queue to kfree_rcu() (or kfree()): it wakes it no more */
bool helper_queue[NFILE];	/* fasync_wait_helper()'s local "queue" (fw->wq as loaded), under the file's f_lock */
#define HELPER_QUEUE(f)		helper_queue[f]
#ifdef POLLFREE_LATE_FASYNC
#define DRIVER_REFUSES_ADD	wq_retired
#else
#define DRIVER_REFUSES_ADD	wq_pollfreed
#endif
#else
/* without wake_up_pollfree() fw->wq is set exactly while the entry is queued */
#define HELPER_QUEUE(f)		fw_wq[f]
#endif

/* __add_wait_queue() 6.1 include/linux/wait.h:171-182, 6.12:169-180: after priority waiters (none here), so at the head */
inline __add_wait_queue(element)
{
	queue[2] = queue[1];
	queue[1] = queue[0];
	queue[0] = element;
	queue_len++
}

/* __add_wait_queue_entry_tail() (include/linux/wait.h): the first version's choice */
inline __add_wait_queue_entry_tail(element)
{
	queue[queue_len] = element;
	queue_len++
}

/* __remove_wait_queue() (include/linux/wait.h): list_del() */
inline __remove_wait_queue(element)
{
	walk_index = 0;
	do
	:: walk_index >= queue_len -> break
	:: walk_index < queue_len && queue[walk_index] != element -> walk_index++
	:: walk_index < queue_len && queue[walk_index] == element ->
		do
		:: walk_index + 1 < queue_len -> queue[walk_index] = queue[walk_index + 1]; walk_index++
		:: else -> break
		od;
		queue_len--;
		queue[queue_len] = 0;
		break
	od;
	walk_index = 0
}

/*
 * fasync_wait_wake() 6.1:1283-1306, 6.12:1437-1465, for a keyed
 * wake-up: EPOLLIN gives POLL_IN, EPOLLHUP POLL_HUP, either way a
 * send_sigio() to the file's owner; 6.12 skips a file with none. Runs
 * under the queue's lock. Returns 0: it never ends a walk. pollfree:
 * wake_up_pollfree()'s key, EPOLLHUP | POLLFREE: POLL_HUP (not an
 * event's signal, so not "offered"), then 6.1:1298-1302,
 * 6.12:1457-1461: list_del_init() and smp_store_release(&fw->wq, NULL)
 * in one step (the queue's lock is held, and the helper reads fw->wq
 * only after both); the file keeps FASYNC and leaves the delivery
 * property, which the kernel-doc promises no more signals to.
 */
inline fasync_wait_wake(f, fd, pollfree)
{
	atomic {
		USE_FILE(f);
#ifdef POLLFREE
		if
		:: pollfree_off[f] -> signalled_off_queue = true;
			STEP1("@ OFF QUEUE: a wake function ran for file %d after POLLFREE took it off\n", f)
		:: else -> skip
		fi;
#endif
		owner = FILE_F_OWNER(f);
		if
		:: !pollfree -> OFFERED(f)
		:: else -> skip
		fi;
		STEP2("@ fasync_wait_wake: file %d's owner is %d\n", f, owner)
	}
	if
	:: owner != NONE -> send_sigio(owner, fd, f)
	:: else -> skip
	fi;
	owner = 0;
#ifdef POLLFREE
	if
	:: pollfree ->
		atomic {
			__remove_wait_queue(f);
			UNLINKED(f);
			fw_wq[f] = false;
			pollfree_off[f] = true;
			UNSUBSCRIBE_BEGINS(f);
			STEP1("@ fasync_wait_wake: POLLFREE: file %d's entry off the queue, fw->wq = NULL, FASYNC kept\n", f)
		}
	:: else -> skip
	fi
#endif
}

/*
 * One event: wake_up_interruptible_poll(wq, key) -> __wake_up_common_lock()
 * (wait.c 6.1:124, 6.12:99) takes the queue's lock with interrupts off
 * and calls __wake_up_common() (wait.c 6.1:80-122, 6.12:73-97) with
 * nr_exclusive 1: each entry's wake function in order, stopping once
 * an exclusive entry has returned nonzero nr_exclusive times.
 * wake_up_begins() is what follows the lock; POLLFREE: the driver no
 * longer wakes a queue it has freed, tested with the lock free.
 */
inline wake_up_begins()
{
	USE_QUEUE();
	EVENT_BEGINS();
	walk_index = 0;
	nr_exclusive = 1;
	STEP("@ __wake_up_common: the queue's lock held, walking it\n")
}

inline wake_up_walk()
{
	do
	:: walk_index >= queue_len -> break
	:: walk_index < queue_len && queue[walk_index] == EXCLUSIVE_WAITER ->
		if
		:: STEP("@ __wake_up_common: the exclusive epoll entry: its epoll_wait() sleeps, returns 1\n");
			nr_exclusive--
		:: STEP("@ __wake_up_common: the exclusive epoll entry: nobody sleeps, returns 0\n")
		fi;
		if
		:: nr_exclusive == 0 -> STEP("@ __wake_up_common: nr_exclusive reached 0: the walk stops\n"); break
		:: else -> walk_index++
		fi
	:: walk_index < queue_len && queue[walk_index] != EXCLUSIVE_WAITER ->
		walk_entry = queue[walk_index];
		fasync_wait_wake(walk_entry, fw_fd[walk_entry], false);
		walk_index++
	od;
	atomic {
		spin_unlock_irqrestore(wq_lock);
		EVENT_ENDS();
		walk_index = 0; walk_entry = 0; nr_exclusive = 0
	}
}

inline driver_notify()
{
#ifdef POLLFREE
	if
	:: atomic { wq_retired -> STEP("@ the driver has freed its queue: no wake-up\n") }
	:: atomic { !wq_retired && !wq_lock -> spin_lock_irqsave(wq_lock); wake_up_begins() };
		wake_up_walk()
	fi
#else
	atomic { spin_lock_irqsave(wq_lock); wake_up_begins() };
	wake_up_walk()
#endif
}

/*
 * fasync_wait_helper() 6.1:1360-1406, 6.12:1520-1566: the driver's
 * ->fasync(). Everything it changes is under the file's f_lock and the
 * queue's lock, which the wake-up holds: one step once both are taken.
 * The removal (6.1:1382-1399, 6.12:1542-1559): without POLLFREE fw->wq
 * is set exactly while the entry is queued, and it is one step too;
 * with POLLFREE, rcu_read_lock() and smp_load_acquire(&fw->wq) are a
 * step of their own (the POLLFREE wake-up's store races with the load),
 * then, if the queue was loaded, its lock, the re-test of fw->wq under
 * it, __remove_wait_queue() and WRITE_ONCE(fw->wq, NULL);
 * rcu_read_unlock() goes with them, as a release does.
 */
inline fasync_wait_add(fd, f)
{
	atomic {
		spin_lock(file_f_lock[f]);
		spin_lock_irqsave(wq_lock);
		USE_QUEUE();
		fw_fd[f] = fd;
		if
		:: fw_file[f] == NONE ->
			fw_file[f] = f;
#ifdef TAIL_INSERT
			__add_wait_queue_entry_tail(f);
			STEP1("@ fasync_wait_helper: file %d's entry queued at the TAIL\n", f);
#else
			__add_wait_queue(f);
			STEP1("@ fasync_wait_helper: file %d's entry queued at the head\n", f);
#endif
			fw_wq[f] = true;
			SUBSCRIBED(f);
			file_fasync[f] = true
		:: else -> STEP2("@ fasync_wait_helper: file %d's fd is now %d\n", f, fd)
		fi;
		spin_unlock_irqrestore(wq_lock);
		spin_unlock(file_f_lock[f])
	}
}

inline driver_fasync(fd, f, on)
{
	if
	:: on ->
#ifdef POLLFREE
		if
		:: atomic { DRIVER_REFUSES_ADD -> STEP1("@ driver ->fasync(): the queue is going away: no subscription for file %d\n", f) }
		:: atomic { !DRIVER_REFUSES_ADD && !wq_lock -> fasync_wait_add(fd, f) }
		fi
#else
		fasync_wait_add(fd, f)
#endif
	:: else ->
		atomic {
			UNSUBSCRIBE_BEGINS(f);
			spin_lock(file_f_lock[f]);
#ifdef POLLFREE
			if
			:: fw_file[f] != NONE ->
				rcu_read_lock();
				helper_queue[f] = fw_wq[f];
				STEP2("@ fasync_wait_helper: rcu_read_lock(); file %d: smp_load_acquire(&fw->wq) finds %d (1: the queue, 0: NULL)\n", f, fw_wq[f])
			:: else -> skip
			fi
		}
		atomic {
#endif
			if
			:: fw_file[f] != NONE ->
				if
				:: HELPER_QUEUE(f) ->
					spin_lock_irqsave(wq_lock);
					USE_QUEUE();
					if
					:: fw_wq[f] ->
						__remove_wait_queue(f);
						UNLINKED(f);
						STEP1("@ fasync_wait_helper: file %d's entry off the queue\n", f)
					:: else -> STEP1("@ fasync_wait_helper: file %d: fw->wq NULL under the queue's lock: POLLFREE took it off\n", f)
					fi;
					fw_wq[f] = false;
					spin_unlock_irqrestore(wq_lock)
				:: else -> STEP1("@ fasync_wait_helper: file %d: fw->wq NULL: POLLFREE took it off, the queue is not touched\n", f)
				fi;
#ifdef POLLFREE
				rcu_read_unlock();
				helper_queue[f] = false;
				pollfree_off[f] = false;
#endif
				fw_file[f] = NONE;
				file_fasync[f] = false
			:: else -> skip
			fi;
			spin_unlock(file_f_lock[f])
		}
	fi
}

#ifdef POLLFREE
/*
 * wake_up_pollfree() (include/linux/wait.h 6.1:262-273, 6.12:261-272):
 * waitqueue_active(), unlocked, is true here (the epoll entry stays
 * queued until POLLFREE itself). __wake_up_pollfree() (wait.c
 * 6.1:244-249, 6.12:209-214): __wake_up(wq, TASK_NORMAL, 0, EPOLLHUP |
 * POLLFREE): nr_exclusive 0, so __wake_up_common() calls every entry's
 * wake function, and each takes its entry off (list_for_each_entry_
 * safe_from(): the next entry is then the head): fasync_wait_wake()'s
 * POLLFREE branch, and the epoll entry's ep_poll_callback()
 * (fs/eventpoll.c 6.1:1229-1240, 6.12:1517-1528). Then
 * WARN_ON_ONCE(waitqueue_active()): the queue is empty.
 */
inline wake_up_pollfree()
{
	atomic {
		spin_lock_irqsave(wq_lock);
		USE_QUEUE();
		wq_pollfreed = true;
		STEP("@ wake_up_pollfree: __wake_up(EPOLLHUP | POLLFREE): the queue's lock held, walking it\n")
	}
	do
	:: queue_len == 0 -> break
	:: queue_len > 0 && queue[0] == EXCLUSIVE_WAITER ->
		atomic {
			__remove_wait_queue(EXCLUSIVE_WAITER);
			STEP("@ ep_poll_callback: POLLFREE: the epoll entry off the queue\n")
		}
	:: queue_len > 0 && queue[0] != EXCLUSIVE_WAITER ->
		walk_entry = queue[0];
		fasync_wait_wake(walk_entry, fw_fd[walk_entry], true)
	od;
	atomic {
		spin_unlock_irqrestore(wq_lock);
		walk_entry = 0;
		assert(queue_len == 0)	/* __wake_up_pollfree()'s WARN_ON_ONCE */
	}
}
#endif

/* The exclusive epoll waiter, then A, subscribed the way the helper does it */
inline init_subscription()
{
	queue[0] = EXCLUSIVE_WAITER;
	queue_len = 1;
	fw_file[FILE_A] = FILE_A;
	fw_fd[FILE_A] = 3;
#ifdef TAIL_INSERT
	__add_wait_queue_entry_tail(FILE_A);
#else
	__add_wait_queue(FILE_A);
#endif
	fw_wq[FILE_A] = true;
	fw_file[FILE_B] = NONE;
	file_fasync[FILE_A] = true;
	entry_live[FILE_A] = true;
	entry_live[FILE_B] = true;
#ifdef POLLFREE
	queue_live = true;
#endif
	SUBSCRIBED(FILE_A)
}

#include "scenario.pml"

#ifdef POLLFREE
/*
 * The queue's owner, on a CPU of its own, in both scenarios: once init
 * has set the queue up, wake_up_pollfree(); then, under its lock (the
 * driver's own, in the model the queue's), it stops waking the queue
 * and frees it: kfree_rcu(), so after a grace period, as
 * wake_up_pollfree()'s kernel-doc requires (include/linux/wait.h
 * 6.1:259-260, 6.12:258-259); POLLFREE_NO_GRACE: kfree() at once.
 */
active proctype queue_owner()
{
	PROCESS_LOCALS(4, false, NONE);
	queue_live;
	wake_up_pollfree();
	atomic {
		spin_lock(wq_lock);
		USE_QUEUE();
		wq_retired = true;
		spin_unlock(wq_lock);
#ifdef POLLFREE_NO_GRACE
		queue_live = false;
		STEP("@ driver: kfree(wq) at once, no grace period\n")
#else
		call_rcu(CB_FREE_QUEUE, 0);
		STEP("@ driver: kfree_rcu(wq): freed after a grace period\n")
#endif
	}
}
#endif
