/*
 * scenario.pml: who runs, included last by each design's model, which
 * defines driver_notify() (one event: kill_fasync(), or a keyed wake-up
 * of the poll queue), driver_fasync(fd, file, on) (the driver's
 * ->fasync()), init_subscription() (A subscribed) and event_lock.
 *
 * init picks one of two scenarios; the search covers both.
 *
 * Lifetime scenario, bounds "small":
 *   cpu0_task         process context, interrupts on: a pipe write or
 *                     the driver's hangup path, one event
 *   cpu0_irq          hardirq on the same CPU: the device's interrupt,
 *                     input_event() under dev->event_lock, one event;
 *                     it can fire whenever cpu0_task has interrupts on
 *                     and cpu0_task does not run until it returns
 *   cpu1_writer       fcntl(B, F_SETFL, O_ASYNC) -> ->fasync(4, B, 1)
 *   cpu2_closer       the last close of A -> __fput(A)
 *   cpu3_new_process  a process forks and does fcntl(B, F_SETOWN, self):
 *                     the owner change
 * BIG makes the writer also change B's fd (a racing F_SETFL through a
 * dup, fd 5) and then unsubscribe B (F_SETFL without O_ASYNC), in both
 * scenarios.
 *
 * Locking scenario: cpu0_task, cpu0_irq, cpu2_input and cpu1_writer, no
 * teardown: the lock-order cycle lockdep reported
 * (docs/findings/rwlock-irq-lock-inversion.txt).
 * -DEVENT_LOCK_HOLDER_IN_IRQ makes cpu2_input the device's interrupt
 * handler on CPU 2 (cpu2_irq) instead of a task.
 */

/* every process's locals: where it runs, and the locals the inlines it calls use */
#define PROCESS_LOCALS(on_cpu, interrupt, reader_number) \
	byte cpu = on_cpu; bool in_interrupt = interrupt; byte reader = reader_number; \
	byte owner; byte sig_pid; byte fa; byte prev; byte f; byte fd; byte new; byte self; \
	byte walk_index; byte walk_entry; byte nr_exclusive

proctype cpu0_task() provided (!cpu0_in_irq)
{
	PROCESS_LOCALS(0, false, 0);
	driver_notify()
}

proctype cpu0_irq()
{
	PROCESS_LOCALS(0, true, 1);
end_no_interrupt:
	/* the device's interrupt; input_event(): spin_lock_irqsave(&dev->event_lock) */
	atomic {
		cpu0_irq_off == 0 && !cpu0_in_irq ->
		cpu0_in_irq = true;
		STEP("@ the device's interrupt arrives on CPU 0\n");
		spin_lock(event_lock);
		STEP("@ input_event() holds event_lock\n")
	};
	driver_notify();
	atomic { spin_unlock(event_lock); cpu0_in_irq = false; STEP("@ the interrupt returns\n") }
}

#ifdef EVENT_LOCK_HOLDER_IN_IRQ
#define INPUT_READER	cpu2_irq
proctype cpu2_irq()
{
	PROCESS_LOCALS(2, true, 2);
#else
#define INPUT_READER	cpu2_input
proctype cpu2_input()
{
	PROCESS_LOCALS(2, false, 2);
#endif
	atomic { spin_lock_irqsave(event_lock); STEP("@ input_event() holds event_lock, interrupts off\n") };
	driver_notify();
	spin_unlock_irqrestore(event_lock)
}

/* fcntl(B, F_SETFL, O_ASYNC) -> ->fasync(4, B, 1); BIG: then a racing F_SETFL through a dup, fd 5, and F_SETFL without O_ASYNC */
proctype cpu1_writer()
{
	PROCESS_LOCALS(1, false, NONE);
	driver_fasync(4, FILE_B, true);
#ifdef BIG
	driver_fasync(5, FILE_B, true);
	driver_fasync(5, FILE_B, false)
#endif
}

/* the last close of A: __fput(A) */
proctype cpu2_closer()
{
	PROCESS_LOCALS(2, false, NONE);
	__fput(FILE_A)
}

/* fork(), then fcntl(B, F_SETOWN, getpid()) */
proctype cpu3_new_process()
{
	PROCESS_LOCALS(3, false, NONE);
	alloc_pid(self);
	f_setown(FILE_B, self)
}

init {
	atomic {
		init_objects();
		init_subscription();
		run cpu0_task();
		run cpu0_irq();
		run cpu1_writer();
		if
		:: printf("@ the lifetime scenario\n");
			run cpu2_closer();
			run cpu3_new_process()
		:: printf("@ the locking scenario\n");
			run INPUT_READER()
		fi
	}
}
