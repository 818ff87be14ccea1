/*
 * common.pml: what every fasync design stands on. CPUs and interrupts,
 * spinlocks, the queued rwlock, RCU, struct file and its owner on 6.1
 * and on 6.12, struct pid, __fput(), and the five properties. Included
 * first by fasync-list.pml and waitqueue.pml, which add a design and
 * then scenario.pml's processes.
 *
 * "6.1:N" and "6.12:N" are line numbers in the patched trees
 * (build/<version>/series/linux, branch sigmouse): fs/fcntl.c unless
 * another file is named.
 *
 * Compile-time choices (spin -a -D...):
 *   KERNEL_612   6.12's owner lifetime; without it, 6.1's
 *   BIG          the larger bounds (scenario.pml says what they add)
 *   POLLFREE     waitqueue.pml only: the driver frees its poll wait queue
 *                with wake_up_pollfree() (the queue, its RCU-delayed
 *                free, and the FASYNC promise after POLLFREE below)
 * The properties are the ltl claims at the end; one compiled model
 * checks each with "./pan -N <claim>" ("-a" for no_deadlock).
 *
 * Atomicity. Spin's partial-order reduction cannot tell that two
 * accesses to different globals commute, so the models make a step as
 * large as it can be without hiding an interleaving that matters, by
 * the usual reduction argument: taking a lock (or rcu_read_lock()) can
 * be merged with what follows it, releasing one with what precedes it,
 * and an access to data that only holders of a lock the process holds
 * can touch is invisible to everyone else. Every load or store another
 * CPU can race with (a lockless reader's loads, the stores it can see,
 * frees, the FASYNC test in __fput()) is a step of its own. A lock that
 * is not free makes the step block there, with the state so far visible:
 * that is where a spinning CPU waits.
 */

/*
 * Each step the trail printer shows: "@ <C function>: <what>"; the
 * printer names the process (its proctype, which says its CPU) from
 * pan's replay of the trail.
 */
#define STEP(text)		printf(text)
#define STEP1(text, a)		printf(text, a)
#define STEP2(text, a, b)	printf(text, a, b)

#define NONE		255

/* ---------- CPUs and interrupts ---------- */

/*
 * Only CPU 0 takes interrupts in the scenarios: its process-context
 * reader can be interrupted by the input path's handler. While the
 * handler runs, CPU 0's process does not (scenario.pml's cpu0_task is
 * "provided (!cpu0_in_irq)"); the handler can start only while that
 * process has interrupts on.
 */
#define IRQ_CPU		0
bool cpu0_in_irq;	/* a hardirq handler is running on CPU 0 */
byte cpu0_irq_off;	/* CPU 0's process: depth of local_irq_save() and friends */

/* Callers declare "byte cpu; bool in_interrupt" (scenario.pml's PROCESS_LOCALS). */
inline local_irq_disable()
{
	if
	:: cpu == IRQ_CPU && !in_interrupt -> cpu0_irq_off++
	:: else -> skip
	fi
}

inline local_irq_enable()
{
	if
	:: cpu == IRQ_CPU && !in_interrupt -> cpu0_irq_off--
	:: else -> skip
	fi
}

/* ---------- spinlocks ---------- */

/* A spinlock is a bool; spinning is a blocked guard, so a cycle of spinners ends the run with processes stuck. */
inline spin_lock(lock)
{
	atomic { !lock -> lock = true }
}

inline spin_unlock(lock)
{
	lock = false
}

/* spin_lock_irqsave(): interrupts off first, so no handler can spin on a lock its CPU holds */
inline spin_lock_irqsave(lock)
{
	atomic { local_irq_disable(); spin_lock(lock) }
}

inline spin_unlock_irqrestore(lock)
{
	atomic { spin_unlock(lock); local_irq_enable() }
}

/* ---------- the queued rwlock (kernel/locking/qrwlock.c, include/asm-generic/qrwlock.h) ---------- */

/*
 * Lock ids: the 2.6.0 design's global fasync_rwlock (0), each entry's
 * fa_lock (1, 2), each owner's f_owner.lock (3, 4).
 */
#define FASYNC_RWLOCK	0
#define FA_LOCK(e)	(1 + (e))
#define OWNER_LOCK(o)	(3 + (o))
#define NRWLOCK		5

byte rw_readers[NRWLOCK];	/* _QR_BIAS count */
bool rw_locked[NRWLOCK];	/* _QW_LOCKED: a writer holds it */
bool rw_waiting[NRWLOCK];	/* _QW_WAITING: a writer is queued */
bool rw_wait_lock[NRWLOCK];	/* lock->wait_lock, the queue */

/*
 * queued_read_lock() and queued_read_lock_slowpath() (qrwlock.c
 * 6.1:21-60, 6.12:21-60): the fast path gets in unless a writer holds
 * or waits (_QW_WMASK). In interrupt context the slow path waits only
 * for a writer that holds the lock, passing one that waits; in process
 * context it queues on wait_lock, behind a waiting writer, which holds
 * wait_lock until it has the lock.
 */
inline read_lock(l)
{
	atomic {
		if
		:: !rw_locked[l] && !rw_waiting[l] -> rw_readers[l]++
		:: else ->
			if
			:: in_interrupt ->
				STEP1("@ queued_read_lock_slowpath: in interrupt, waits only for a writer holding rwlock %d\n", l);
				!rw_locked[l]; rw_readers[l]++
			:: else ->
				STEP1("@ queued_read_lock_slowpath: rwlock %d has a writer: queue on its wait_lock\n", l);
				!rw_wait_lock[l]; rw_wait_lock[l] = true;
				STEP1("@ queued_read_lock_slowpath: holds rwlock %d's wait_lock, waits for the writer to unlock\n", l);
				!rw_locked[l]; rw_readers[l]++; rw_wait_lock[l] = false
			fi
		fi
	}
}

inline read_unlock(l)
{
	rw_readers[l]--
}

/*
 * queued_write_lock() and queued_write_lock_slowpath() (qrwlock.c
 * 6.1:66-92, 6.12:66-92): the fast path takes a free lock; otherwise
 * queue on wait_lock, set _QW_WAITING (which turns new process-context
 * readers away), wait for the readers to leave, take the lock.
 */
inline write_lock(l)
{
	atomic {
		if
		:: rw_readers[l] == 0 && !rw_locked[l] && !rw_waiting[l] -> rw_locked[l] = true
		:: else ->
			!rw_wait_lock[l]; rw_wait_lock[l] = true; rw_waiting[l] = true;
			STEP1("@ queued_write_lock_slowpath: rwlock %d: _QW_WAITING set, waits for the readers\n", l);
			rw_readers[l] == 0 && !rw_locked[l];
			rw_waiting[l] = false; rw_locked[l] = true; rw_wait_lock[l] = false
		fi
	}
}

inline write_unlock(l)
{
	rw_locked[l] = false
}

inline read_lock_irqsave(l)
{
	atomic { local_irq_disable(); read_lock(l) }
}

inline read_unlock_irqrestore(l)
{
	atomic { read_unlock(l); local_irq_enable() }
}

inline write_lock_irq(l)
{
	atomic { local_irq_disable(); write_lock(l) }
}

inline write_unlock_irq(l)
{
	atomic { write_unlock(l); local_irq_enable() }
}

/* ---------- RCU: a grace-period protocol ---------- */

/*
 * Readers are the scenario's event processes, numbered 0..2 by their
 * "reader" local; rcu_readers has a bit for each one inside a
 * read-side critical section. call_rcu() records the readers inside at
 * that moment; the callback runs (rcu_callbacks below) only when each
 * of them has left. A reader that enters later does not hold it up: it
 * cannot find an object unlinked before its rcu_read_lock(). Nested
 * rcu_read_lock() (send_sigio()'s, inside kill_fasync()'s) is not
 * modelled: it ends before the outer one does. A process that is no
 * event reader (reader NONE: POLLFREE's fasync_wait_helper() removal)
 * takes bit 3 + its CPU instead, above the three readers'.
 */
byte rcu_readers;
#define RCU_BIT		(reader != NONE -> 1 << reader : 1 << (3 + cpu))

#define CB_NONE		0
#define CB_FREE_ENTRY	1	/* fasync_free_rcu() 6.1:933-937; kfree_rcu(fa, fa_rcu) 6.12:1160 */
#define CB_FREE_FILE	2	/* file_free_rcu() 6.1 fs/file_table.c:46-52 */
#define CB_FREE_QUEUE	3	/* POLLFREE: the driver's kfree_rcu() of its wait queue head */
#define NCALLBACK	3
byte cb_kind[NCALLBACK];
byte cb_object[NCALLBACK];
byte cb_waits_for[NCALLBACK];	/* readers still to leave */

inline rcu_read_lock()
{
	rcu_readers = rcu_readers | RCU_BIT
}

inline rcu_read_unlock()
{
	atomic {
		rcu_readers = rcu_readers & ~RCU_BIT;
		cb_waits_for[0] = cb_waits_for[0] & ~RCU_BIT;
		cb_waits_for[1] = cb_waits_for[1] & ~RCU_BIT;
		cb_waits_for[2] = cb_waits_for[2] & ~RCU_BIT
	}
}

inline call_rcu(kind, object)
{
	atomic {
		if
		:: cb_kind[0] == CB_NONE -> cb_kind[0] = kind; cb_object[0] = object; cb_waits_for[0] = rcu_readers
		:: else -> if
			:: cb_kind[1] == CB_NONE -> cb_kind[1] = kind; cb_object[1] = object; cb_waits_for[1] = rcu_readers
			:: else -> assert(cb_kind[2] == CB_NONE);
				cb_kind[2] = kind; cb_object[2] = object; cb_waits_for[2] = rcu_readers
			fi
		fi
	}
}

/* ---------- objects and their lifetimes ---------- */

#define NFILE		2
#define FILE_A		0	/* subscribed from the start; its last close runs in the scenario */
#define FILE_B		1	/* open; subscribes, and gets a new owner, in the scenario */

/* Entries: entry e is file e's fasync_struct (or fasync_wait); SPARE_ENTRY is an allocation fasync_insert_entry() finds unneeded. */
#define NENTRY		2
#define SPARE_ENTRY	2
bool entry_live[NENTRY];	/* the entry's memory is allocated */

/*
 * Owners. On 6.1 struct fown_struct is embedded in struct file: owner o
 * is file o's and lives as long as the file's memory (include/linux/fs.h
 * f_owner). On 6.12 it is allocated by file_f_owner_allocate() on the
 * first F_SETOWN and kfree()d in __fput(), no grace period: slot 0 is A's
 * at the start, slot 1 is free, and an allocation may get either free
 * slot, so B's F_SETOWN can be handed A's old owner memory.
 */
#define NOWNER		2
bool owner_live[NOWNER];
byte owner_pid[NOWNER];		/* f_owner->pid: a struct pid slot, or NONE */
byte file_owner[NFILE];		/* 6.12's file->f_owner pointer; 6.1: always the file itself */

/*
 * struct pid. Slot 0 is the struct pid of A's owner, a process that has
 * exited and been reaped, its own reference dropped (free_pid() ->
 * delayed_put_pid()): A's f_owner holds the last one, so __fput()'s
 * put_pid() frees it at once (kernel/pid.c put_pid(), 6.1:105-118,
 * 6.12:112-125; the pid cache is not SLAB_TYPESAFE_BY_RCU). Slot 1 is
 * free. The process forked in the scenario gets either free slot from
 * alloc_pid(), so its struct pid can reuse A's owner's memory.
 */
#define NPID		2
#define TASK_NONE	0	/* the pid's task is gone: pid_task() returns NULL */
#define TASK_A_OWNER	1	/* the process that set itself A's owner (reaped) */
#define TASK_NEW	2	/* the process forked in the scenario, B's new owner */
bool pid_live[NPID];
byte pid_refs[NPID];
byte pid_task[NPID];		/* which process pid_task(pid, PIDTYPE_PID) finds */

/*
 * POLLFREE: the driver's poll wait queue (waitqueue.pml), allocated at
 * the start and freed by its owner after wake_up_pollfree(). A file
 * whose entry that wake-up took off stays subscribed, FASYNC set, off
 * any queue: pollfree_off[f], until its unsubscription (the
 * kernel-doc of fasync_wait_helper(), 6.1:1338-1350, 6.12:1498-1510).
 */
#ifdef POLLFREE
bool queue_live;
bool pollfree_off[NFILE];
bool signalled_off_queue;	/* a wake function ran for a file POLLFREE had taken off */
#endif

bool file_live[NFILE];
bool file_fasync[NFILE];	/* FASYNC in f_flags */
bool file_f_lock[NFILE];	/* filp->f_lock */
bool on_list[NFILE];		/* the entry is linked (list) or queued (waitqueue) */
byte owners_ever[NFILE];	/* bit per TASK_*: every process that has been the file's owner */

/* ---------- what the properties watch ---------- */

bool freed_object_used;		/* no_use_after_free */
bool foreign_owner_signalled;	/* only_own_owner_signalled */
bool signal_missed;		/* every_subscriber_signalled */

/* Each use of an object's memory; the first use of a freed one says so in the trail. */
#define USE_OBJECT(live, text, id) \
	if \
	:: !(live) && !freed_object_used -> freed_object_used = true; printf(text, id) \
	:: else -> skip \
	fi
#define USE_ENTRY(e)	USE_OBJECT(entry_live[e], "@ USE AFTER FREE: entry %d\n", e)
#define USE_FILE(f)	USE_OBJECT(file_live[f], "@ USE AFTER FREE: file %d\n", f)
#define USE_OWNER(o)	USE_OBJECT(owner_live[o], "@ USE AFTER FREE: owner (fown_struct) %d\n", o)
#define USE_PID(p)	USE_OBJECT(pid_live[p], "@ USE AFTER FREE: struct pid %d\n", p)
#ifdef POLLFREE
#define USE_QUEUE()	USE_OBJECT(queue_live, "@ USE AFTER FREE: wait queue %d (the driver's)\n", 0)
#else
#define USE_QUEUE()	skip
#endif

/*
 * Delivery: subscribed holds the files linked (or queued) whose
 * unsubscription (a ->fasync(..., 0) call) has not begun; present[r]
 * the files subscribed when reader r's event began and still so;
 * offered[r] the files the event reached send_sigio() for (or, on 6.12,
 * the "no owner" test before it). When the event ends, present must be
 * within offered. A subscriber whose removal overlaps the event may or
 * may not hear of it.
 */
#define NREADER 3
byte subscribed;
byte present[NREADER];
byte offered[NREADER];
#define EVENT_BEGINS()	present[reader] = subscribed; offered[reader] = 0
#define EVENT_ENDS() \
	STEP("@ the event ends\n"); \
	if \
	:: (present[reader] & ~offered[reader]) != 0 -> signal_missed = true; \
		printf("@ SIGNAL MISSED: files (bit mask) %d were subscribed across the event, %d were offered a signal\n", present[reader], offered[reader]) \
	:: else -> skip \
	fi; \
	present[reader] = 0; offered[reader] = 0
#define OFFERED(f)	offered[reader] = offered[reader] | (1 << (f))
#define UNSUBSCRIBE_BEGINS(f) \
	subscribed = subscribed & ~(1 << (f)); \
	present[0] = present[0] & ~(1 << (f)); present[1] = present[1] & ~(1 << (f)); present[2] = present[2] & ~(1 << (f))

/*
 * The list as FASYNC should mirror it: set and cleared in the same step
 * as the store that links (rcu_assign_pointer()) or unlinks the entry.
 */
#define SUBSCRIBED(f)	on_list[f] = true; subscribed = subscribed | (1 << (f))
#define UNLINKED(f)	on_list[f] = false

/* ---------- struct pid (kernel/pid.c) ---------- */

inline get_pid(p)
{
	if
	:: p != NONE -> pid_refs[p]++
	:: else -> skip
	fi
}

/* put_pid() 6.1:105-118, 6.12:112-125: the last reference frees at once */
inline put_pid(p)
{
	if
	:: p != NONE ->
		pid_refs[p]--;
		if
		:: pid_refs[p] == 0 -> pid_live[p] = false; STEP1("@ put_pid: last reference, struct pid %d freed at once\n", p)
		:: else -> skip
		fi
	:: else -> skip
	fi
}

/* alloc_pid() 6.1:159, 6.12:166: any free slot, so freed memory can come back as the new process's pid */
inline alloc_pid(p)
{
	atomic {
		if
		:: !pid_live[0] -> p = 0
		:: !pid_live[1] -> p = 1
		fi;
		pid_live[p] = true; pid_refs[p] = 1; pid_task[p] = TASK_NEW;
		STEP1("@ alloc_pid: fork(): the new process's struct pid is slot %d\n", p)
	}
}

/* ---------- the owner ---------- */

#ifdef KERNEL_612
/* file_f_owner_allocate() 6.12:102-120: kzalloc(), then cmpxchg() into file->f_owner */
inline file_f_owner_allocate(f)
{
	atomic {
		USE_FILE(f);
		if
		:: file_owner[f] == NONE ->
			if
			:: !owner_live[0] -> owner = 0
			:: !owner_live[1] -> owner = 1
			fi;
			owner_live[owner] = true; owner_pid[owner] = NONE;
			file_owner[f] = owner;
			STEP2("@ file_f_owner_allocate: file %d gets owner memory %d\n", f, owner)
		:: else -> skip
		fi
	}
}

/* file_f_owner_release() 6.12:123-132, from __fput(): put_pid(), then kfree(), no grace period */
inline file_f_owner_release(f)
{
	atomic {
		owner = file_owner[f];
		if
		:: owner != NONE ->
			STEP1("@ file_f_owner_release: put_pid(owner %d's pid)\n", owner);
			put_pid(owner_pid[owner])
		:: else -> skip
		fi
	}
	atomic {
		if
		:: owner != NONE ->
			owner_live[owner] = false;
			STEP1("@ file_f_owner_release: kfree(owner %d)\n", owner)
		:: else -> skip
		fi;
		owner = 0
	}
}
#endif

/* file_f_owner() 6.12 include/linux/fs.h:1159, READ_ONCE(file->f_owner); 6.1: &filp->f_owner */
#define FILE_F_OWNER(f)	file_owner[f]

/*
 * __f_setown() 6.1:95-112, 6.12:134-157, forced (F_SETOWN): under the
 * owner's write lock, put the old pid, take the new one. One step: only
 * holders of the owner's lock read its pid, and no other owner holds
 * either pid.
 */
inline __f_setown(f, p)
{
	atomic {
		owner = FILE_F_OWNER(f);
		write_lock_irq(OWNER_LOCK(owner));
		USE_OWNER(owner);
		put_pid(owner_pid[owner]);
		owner_pid[owner] = p;
		owners_ever[f] = owners_ever[f] | (1 << pid_task[p]);
		get_pid(p);
		STEP2("@ __f_setown: file %d's owner is now struct pid %d\n", f, p);
		write_unlock_irq(OWNER_LOCK(owner));
		owner = 0
	}
}

/* f_setown() 6.1:115-143, 6.12:160-194 (fcntl F_SETOWN with the caller's own pid) */
inline f_setown(f, p)
{
#ifdef KERNEL_612
	file_f_owner_allocate(f);
#endif
	__f_setown(f, p)
}

/*
 * send_sigio() 6.1:778-809, 6.12:920-951, for PIDTYPE_TGID: under the
 * owner's lock, read the pid, find its task, signal it. The signal is
 * for the file the reader took the entry for (f).
 */
inline send_sigio(o, fd, f)
{
	atomic {
		read_lock_irqsave(OWNER_LOCK(o));
		USE_OWNER(o);
		sig_pid = owner_pid[o];
		STEP2("@ send_sigio: read_lock(owner %d's lock): its pid is struct pid %d\n", o, sig_pid)
	}
	atomic {
		if
		:: sig_pid != NONE ->
			USE_PID(sig_pid);
			if
			:: pid_task[sig_pid] != TASK_NONE ->
				STEP2("@ send_sigio: pid_task() finds process %d: SIGIO for file %d\n", pid_task[sig_pid], f);
				if
				:: !(owners_ever[f] & (1 << pid_task[sig_pid])) -> foreign_owner_signalled = true;
					STEP2("@ FOREIGN OWNER: process %d was never an owner of file %d\n", pid_task[sig_pid], f)
				:: else -> skip
				fi
			:: else -> STEP("@ send_sigio: pid_task() finds no task (the owner has exited)\n")
			fi
		:: else -> skip
		fi;
		read_unlock_irqrestore(OWNER_LOCK(o));
		sig_pid = 0
	}
}

/*
 * fasync_send() 6.1:1141-1154, 6.12:1288-1304: the owner of the entry's
 * file; 6.12 skips a file that never had one.
 */
inline fasync_send(f, fd)
{
	atomic {
		USE_FILE(f);
		owner = FILE_F_OWNER(f);
		OFFERED(f);
		STEP2("@ fasync_send: file %d's owner is %d\n", f, owner)
	}
	if
	:: owner != NONE -> send_sigio(owner, fd, f)
	:: else -> skip
	fi;
	owner = 0
}

/* ---------- struct file: fs/file_table.c ---------- */

/* file_free() 6.1:54-60 (call_rcu), 6.12:87-98 (kmem_cache_free: SLAB_TYPESAFE_BY_RCU, no grace period) */
inline file_free(f)
{
#ifdef KERNEL_612
	file_live[f] = false;
	STEP1("@ file_free: file %d back to its SLAB_TYPESAFE_BY_RCU cache at once\n", f)
#else
	call_rcu(CB_FREE_FILE, f);
	STEP1("@ file_free: call_rcu(file_free_rcu) for file %d\n", f)
#endif
}

/*
 * __fput() 6.1:294-334, 6.12:442-482: the last close. The FASYNC test
 * is unlocked; ->fasync(-1, file, 0) unsubscribes; the scenario's driver
 * has no ->release() that waits for readers (a pipe's does not;
 * sigmouse's synchronize_rcu() would hide the rcu-global race, see
 * docs/fasync-designs.md section 2); then the owner goes: 6.1 drops the
 * pid at once and keeps the fown_struct inside the file until the
 * file's grace period, 6.12 kfree()s the fown_struct at once.
 */
inline __fput(f)
{
	if
	:: atomic { file_fasync[f] -> STEP1("@ __fput: file %d has FASYNC: ->fasync(-1, file, 0)\n", f) };
		driver_fasync(NONE, f, false)
	:: atomic { else -> STEP1("@ __fput: file %d has no FASYNC\n", f) }
	fi;
#ifdef KERNEL_612
	file_f_owner_release(f);
#else
	atomic {
		STEP1("@ __fput: put_pid(file %d's f_owner.pid), the pointer left in place\n", f);
		put_pid(owner_pid[f])
	}
#endif
	file_free(f)
}

/* Initial state: the part every design shares. The design's init_subscription() subscribes A. */
inline init_objects()
{
	file_live[FILE_A] = true; file_live[FILE_B] = true;
	pid_live[0] = true; pid_refs[0] = 1; pid_task[0] = TASK_NONE;
	owners_ever[FILE_A] = 1 << TASK_A_OWNER;
	owner_live[0] = true; owner_pid[0] = 0;
	file_owner[FILE_A] = 0;
#ifdef KERNEL_612
	file_owner[FILE_B] = NONE;
#else
	owner_live[1] = true;
	file_owner[FILE_B] = 1;
#endif
	owner_pid[1] = NONE
}

/* The grace-period machinery: any callback whose readers have all left may run. */
inline run_callback(slot)
{
	if
	:: cb_kind[slot] == CB_FREE_ENTRY -> entry_live[cb_object[slot]] = false;
		STEP1("@ rcu callback: entry %d freed after its grace period\n", cb_object[slot])
	:: cb_kind[slot] == CB_FREE_FILE -> file_live[cb_object[slot]] = false;
		owner_live[cb_object[slot]] = false;
		STEP1("@ rcu callback: file_free_rcu(): file %d (owner inside) freed after its grace period\n", cb_object[slot])
#ifdef POLLFREE
	:: cb_kind[slot] == CB_FREE_QUEUE -> queue_live = false;
		STEP("@ rcu callback: the wait queue freed after its grace period\n")
#endif
	fi;
	cb_kind[slot] = CB_NONE;
	cb_object[slot] = 0
}

active proctype rcu_callbacks()
{
end_idle:
	do
	:: atomic { cb_kind[0] != CB_NONE && cb_waits_for[0] == 0 -> run_callback(0) }
	:: atomic { cb_kind[1] != CB_NONE && cb_waits_for[1] == 0 -> run_callback(1) }
	:: atomic { cb_kind[2] != CB_NONE && cb_waits_for[2] == 0 -> run_callback(2) }
	od
}

/* ---------- the properties ---------- */

/* no use of a freed entry, file, owner, struct pid or (POLLFREE) wait queue */
ltl no_use_after_free { [] !freed_object_used }
/* a signal reaches only a process that was, at some time, an owner of the file the entry names */
ltl only_own_owner_signalled { [] !foreign_owner_signalled }
/*
 * "NOTE! It is very important that the FASYNC flag always match the
 * state 'is the filp on a fasync list'" (fasync_remove_entry()'s
 * comment, 6.1:986): whenever the file's f_lock is free. POLLFREE: as
 * fasync_wait_helper()'s kernel-doc promises, a file that
 * wake_up_pollfree() took off its queue keeps FASYNC until it
 * unsubscribes ("still counts as subscribed"), and no wake function
 * runs for it again.
 */
#ifdef POLLFREE
#define FASYNC_HELD(f)		(on_list[f] || pollfree_off[f])
#define NO_SIGNAL_OFF_QUEUE	(!signalled_off_queue)
#else
#define FASYNC_HELD(f)		on_list[f]
#define NO_SIGNAL_OFF_QUEUE	true
#endif
ltl fasync_flag_matches_list {
	[] ((file_f_lock[FILE_A] || file_fasync[FILE_A] == FASYNC_HELD(FILE_A)) &&
	    (file_f_lock[FILE_B] || file_fasync[FILE_B] == FASYNC_HELD(FILE_B)) &&
	    NO_SIGNAL_OFF_QUEUE)
}
/* every subscriber present across a whole event is offered its signal */
ltl every_subscriber_signalled { [] !signal_missed }
/*
 * Every run ends with every process done but rcu_callbacks, which
 * idles forever, and the claim itself (_nr_pr counts the processes not
 * yet ended, the never claim among them): none waits forever on a lock. Spinning is a blocked guard and nothing loops, so
 * the only infinite runs stutter in a final state; this fails (an
 * acceptance cycle, "./pan -a") exactly when a final state has a
 * process stuck. An interrupt that has not arrived can still arrive, so
 * no final state has one pending.
 */
ltl no_deadlock { <> (_nr_pr == 2) }
