/*
 * fasync-list.pml: the three designs of the fasync list in fs/fcntl.c
 * as patch 0002 (with 0003's annotations) leaves it, chosen as at boot:
 *   -DDESIGN_RWLOCK      fasync_lock=rwlock      (Linux 2.6.0)
 *   -DDESIGN_RCU_GLOBAL  fasync_lock=rcu-global  (Spraul's RFC, 2003)
 *   neither              fasync_lock=rcu         (mainline since 2010)
 * The static keys become #ifdefs; the rest follows the C function by
 * function, each inline naming its function and lines ("6.1:N",
 * "6.12:N": fs/fcntl.c of build/<version>/series/linux, branch
 * sigmouse). common.pml says how steps are cut.
 */
#include "common.pml"

#if defined(DESIGN_RCU_GLOBAL) && defined(DESIGN_RWLOCK)
#error "one design at a time"
#endif
#if !defined(DESIGN_RWLOCK) && !defined(DESIGN_RCU_GLOBAL)
/* fasync_per_entry_lock() 6.1:940-944, 6.12:1087-1091: neither historical key */
#define PER_ENTRY_LOCK
#endif

byte list_head = NONE;		/* the driver's "struct fasync_struct *fasync" */
byte fa_file[NENTRY];		/* NONE once removal cleared it (rcu only) */
byte fa_fd[NENTRY];
byte fa_next[NENTRY];
bool fasync_lock;		/* the writers' global spinlock (rcu, rcu-global) */
bool event_lock;		/* the input device's dev->event_lock */

/* fasync_writer_lock() 6.1:962-969, 6.12:1109-1116 */
inline fasync_writer_lock()
{
#ifdef DESIGN_RWLOCK
	write_lock_irq(FASYNC_RWLOCK)
#else
	spin_lock(fasync_lock)
#endif
}

/* fasync_writer_unlock() 6.1:971-978, 6.12:1118-1125 */
inline fasync_writer_unlock()
{
#ifdef DESIGN_RWLOCK
	write_unlock_irq(FASYNC_RWLOCK)
#else
	spin_unlock(fasync_lock)
#endif
}

/*
 * The writers' walk to the file's entry: fa, and prev standing for fp
 * (NONE: the list head, else &prev->fa_next). It reads only what
 * writers change, and they are held off: part of the step that took
 * the writer lock.
 */
inline writer_find_entry(f)
{
	fa = list_head;
	prev = NONE;
	do
	:: fa == NONE -> break
	:: fa != NONE && fa_file[fa] != f -> prev = fa; fa = fa_next[fa]
	:: fa != NONE && fa_file[fa] == f -> break
	od
}

/* fasync_remove_entry() 6.1:989-1024, 6.12:1136-1171 */
inline fasync_remove_entry(f)
{
	atomic {
		UNSUBSCRIBE_BEGINS(f);
		spin_lock(file_f_lock[f]);
		fasync_writer_lock();
		writer_find_entry(f);
		STEP1("@ fasync_remove_entry: f_lock and the writer lock held, file %d's entry found\n", f)
	}
	if
	:: fa != NONE ->
#ifdef PER_ENTRY_LOCK
		atomic {
			write_lock_irq(FA_LOCK(fa));
			fa_file[fa] = NONE;
			STEP1("@ fasync_remove_entry: fa_file = NULL under entry %d's fa_lock\n", fa);
			write_unlock_irq(FA_LOCK(fa))
		}
#endif
		atomic {
			if
			:: prev == NONE -> list_head = fa_next[fa]
			:: else -> fa_next[prev] = fa_next[fa]
			fi;
			UNLINKED(f);
			STEP2("@ fasync_remove_entry: entry %d (file %d) unlinked\n", fa, f)
		}
		atomic {
#ifdef DESIGN_RWLOCK
			entry_live[fa] = false;
			STEP1("@ fasync_remove_entry: kmem_cache_free(entry %d) at once\n", fa);
#else
			call_rcu(CB_FREE_ENTRY, fa);
			STEP1("@ fasync_remove_entry: entry %d to be freed after a grace period\n", fa);
#endif
			file_fasync[f] = false;
			fasync_writer_unlock();
			spin_unlock(file_f_lock[f]);
			fa = 0; prev = 0
		}
	:: else ->
		atomic {
			fasync_writer_unlock();
			spin_unlock(file_f_lock[f]);
			fa = 0; prev = 0
		}
	fi
}

/*
 * fasync_insert_entry() 6.1:1048-1088, 6.12:1195-1235: update the fd of
 * the file's entry, or link the new one at the head. The new entry's
 * fields are set before it is published, where no one else can see them.
 */
inline fasync_insert_entry(fd, f, new)
{
	atomic {
		spin_lock(file_f_lock[f]);
		fasync_writer_lock();
		writer_find_entry(f);
		if
		:: fa == NONE ->
			fa_file[new] = f;
			fa_fd[new] = fd;
			fa_next[new] = list_head
		:: else -> skip
		fi
	}
	if
	:: fa != NONE ->
#ifdef PER_ENTRY_LOCK
		atomic {
			write_lock_irq(FA_LOCK(fa));
			fa_fd[fa] = fd;
			STEP2("@ fasync_insert_entry: entry %d's fd is now %d, under its fa_lock\n", fa, fd);
			write_unlock_irq(FA_LOCK(fa))
		}
#else
		/* rwlock: readers are held off; rcu-global: the RFC's "RCU violation" */
		atomic { fa_fd[fa] = fd; STEP2("@ fasync_insert_entry: entry %d's fd is now %d\n", fa, fd) }
#endif
	:: else ->
		atomic {
			list_head = new;	/* rcu_assign_pointer() */
			SUBSCRIBED(f);
			STEP2("@ fasync_insert_entry: entry %d (file %d) linked at the head\n", new, f)
		}
	fi;
	atomic {
		if
		:: fa == NONE -> file_fasync[f] = true
		:: else -> skip
		fi;
		fasync_writer_unlock();
		spin_unlock(file_f_lock[f]);
		fa = 0; prev = 0; new = 0
	}
}

/*
 * fasync_add_entry() 6.1:1094-1115, 6.12:1241-1262 with fasync_alloc():
 * a fresh entry, the file's own slot; when the file has one already the
 * allocation is freed unused (fasync_free()), so it has no slot. The
 * scenarios never subscribe a file again after its removal.
 */
inline fasync_add_entry(fd, f)
{
	atomic {
		if
		:: entry_live[f] -> new = SPARE_ENTRY
		:: else -> new = f; entry_live[new] = true
		fi
	}
	fasync_insert_entry(fd, f, new)
}

/* fasync_helper() 6.1:1123-1128, 6.12:1270-1275: the driver's ->fasync() */
inline driver_fasync(fd, f, on)
{
	if
	:: on -> fasync_add_entry(fd, f)
	:: else -> fasync_remove_entry(f)
	fi
}

/* kill_fasync_rcu() 6.1:1159-1174, 6.12:1309-1324, inside kill_fasync_walk() 6.1:1182-1192, 6.12:1332-1342 */
inline kill_fasync_walk()
{
	atomic { rcu_read_lock(); fa = list_head }
	do
	:: fa == NONE -> break
	:: else ->
		atomic {
			USE_ENTRY(fa);		/* fasync_bad_magic() */
			read_lock_irqsave(FA_LOCK(fa));
			USE_ENTRY(fa);
			f = fa_file[fa];
			fd = fa_fd[fa];
			STEP2("@ kill_fasync_rcu: read_lock_irqsave(entry %d's fa_lock): fa_file is %d\n", fa, f)
		}
		if
		:: f != NONE -> fasync_send(f, fd)
		:: else -> skip
		fi;
		atomic {
			read_unlock_irqrestore(FA_LOCK(fa));
			USE_ENTRY(fa);
			fa = fa_next[fa];
			f = 0; fd = 0
		}
	od;
	atomic { rcu_read_unlock(); EVENT_ENDS() }
}

/* kill_fasync_rwlock() 6.1:1195-1212, 6.12:1345-1362: plain read_lock(), interrupts as they are */
inline kill_fasync_rwlock()
{
	atomic { EVENT_BEGINS(); STEP("@ kill_fasync_rwlock: read_lock(&fasync_rwlock)\n"); read_lock(FASYNC_RWLOCK); fa = list_head; STEP("@ kill_fasync_rwlock: got it\n") }
	do
	:: fa == NONE -> break
	:: else ->
		atomic {
			USE_ENTRY(fa);
			f = fa_file[fa];
			fd = fa_fd[fa];
			STEP2("@ kill_fasync_rwlock: entry %d, file %d\n", fa, f)
		}
		fasync_send(f, fd);
		atomic { USE_ENTRY(fa); fa = fa_next[fa]; f = 0; fd = 0 }
	od;
	atomic { read_unlock(FASYNC_RWLOCK); EVENT_ENDS() }
}

/* kill_fasync_rcu_global() 6.1:1215-1231, 6.12:1369-1385: RCU alone, fa_file used as found */
inline kill_fasync_rcu_global()
{
	atomic { EVENT_BEGINS(); rcu_read_lock(); fa = list_head }
	do
	:: fa == NONE -> break
	:: else ->
		atomic {
			USE_ENTRY(fa);
			f = fa_file[fa];
			fd = fa_fd[fa];
			STEP2("@ kill_fasync_rcu_global: entry %d, file %d\n", fa, f)
		}
		fasync_send(f, fd);
		atomic { USE_ENTRY(fa); fa = fa_next[fa]; f = 0; fd = 0 }
	od;
	atomic { rcu_read_unlock(); EVENT_ENDS() }
}

/* kill_fasync() 6.1:1233-1250, 6.12:1387-1404: one event */
inline driver_notify()
{
#if defined(DESIGN_RWLOCK)
	kill_fasync_rwlock();
#elif defined(DESIGN_RCU_GLOBAL)
	kill_fasync_rcu_global();
#else
	if
	:: atomic { list_head != NONE -> EVENT_BEGINS() }; kill_fasync_walk()	/* data_race(*fp) */
	:: atomic { list_head == NONE -> EVENT_BEGINS(); EVENT_ENDS() }
	fi
#endif
}

/* A subscribed from the start, as fasync_insert_entry() leaves it */
inline init_subscription()
{
	entry_live[FILE_A] = true;
	fa_file[FILE_A] = FILE_A;
	fa_fd[FILE_A] = 3;
	fa_next[FILE_A] = NONE;
	list_head = FILE_A;
	file_fasync[FILE_A] = true;
	SUBSCRIBED(FILE_A)
}

#include "scenario.pml"
