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
 * or 0. No priority waiters, and no wake_up_pollfree(): see README.md.
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
 * under the queue's lock. Returns 0: it never ends a walk.
 */
inline fasync_wait_wake(f, fd)
{
	atomic {
		USE_FILE(f);
		owner = FILE_F_OWNER(f);
		OFFERED(f);
		STEP2("@ fasync_wait_wake: file %d's owner is %d\n", f, owner)
	}
	if
	:: owner != NONE -> send_sigio(owner, fd, f)
	:: else -> skip
	fi;
	owner = 0
}

/*
 * One event: wake_up_interruptible_poll(wq, key) -> __wake_up_common_lock()
 * (wait.c 6.1:124, 6.12:99) takes the queue's lock with interrupts off
 * and calls __wake_up_common() (wait.c 6.1:80-122, 6.12:73-97) with
 * nr_exclusive 1: each entry's wake function in order, stopping once
 * an exclusive entry has returned nonzero nr_exclusive times.
 */
inline driver_notify()
{
	atomic {
		spin_lock_irqsave(wq_lock);
		EVENT_BEGINS();
		walk_index = 0;
		nr_exclusive = 1;
		STEP("@ __wake_up_common: the queue's lock held, walking it\n")
	}
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
		fasync_wait_wake(walk_entry, fw_fd[walk_entry]);
		walk_index++
	od;
	atomic {
		spin_unlock_irqrestore(wq_lock);
		EVENT_ENDS();
		walk_index = 0; walk_entry = 0; nr_exclusive = 0
	}
}

/*
 * fasync_wait_helper() 6.1:1355-1401, 6.12:1515-1561: the driver's
 * ->fasync(). Everything it changes is under the file's f_lock and the
 * queue's lock, which the wake-up holds: one step once both are taken.
 * Without wake_up_pollfree() fw->wq is set exactly while the entry is
 * queued, so the removal's rcu_read_lock() and the load of fw->wq are
 * not modelled.
 */
inline driver_fasync(fd, f, on)
{
	if
	:: on ->
		atomic {
			spin_lock(file_f_lock[f]);
			spin_lock_irqsave(wq_lock);
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
				SUBSCRIBED(f);
				file_fasync[f] = true
			:: else -> STEP2("@ fasync_wait_helper: file %d's fd is now %d\n", f, fd)
			fi;
			spin_unlock_irqrestore(wq_lock);
			spin_unlock(file_f_lock[f])
		}
	:: else ->
		atomic {
			UNSUBSCRIBE_BEGINS(f);
			spin_lock(file_f_lock[f]);
			if
			:: fw_file[f] != NONE ->
				spin_lock_irqsave(wq_lock);
				__remove_wait_queue(f);
				UNLINKED(f);
				STEP1("@ fasync_wait_helper: file %d's entry off the queue\n", f);
				spin_unlock_irqrestore(wq_lock);
				fw_file[f] = NONE;
				file_fasync[f] = false
			:: else -> skip
			fi;
			spin_unlock(file_f_lock[f])
		}
	fi
}

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
	fw_file[FILE_B] = NONE;
	file_fasync[FILE_A] = true;
	entry_live[FILE_A] = true;
	entry_live[FILE_B] = true;
	SUBSCRIBED(FILE_A)
}

#include "scenario.pml"
