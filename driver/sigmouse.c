// SPDX-License-Identifier: GPL-2.0-only
/*
 * sigmouse - mouse packets announced with SIGIO
 *
 * A study driver for fasync. Every mouse or tablet gets a /dev/sigmouseN
 * node; every open file of the node is a client with its own ring of
 * struct sigmouse_packet records, one per input frame. Unlike evdev,
 * which keeps one fasync list per client, all clients of a node share
 * one fasync list, as the open files of a pipe or a tty do (a socket
 * has a single struct file and cannot be opened again, so its list
 * never holds several files): kill_fasync() walks every subscriber of
 * the node, and a client switching O_ASYNC races with delivery to the
 * others. That is the case fasync's locking is for.
 *
 * With sigmouse.notify=waitqueue the node has no fasync list at all: each
 * subscriber is an entry on the poll wait queue (fasync_wait_helper()),
 * and the keyed wake-up that wakes readers also sends the signals.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fasync_wait.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/init.h>
#include <linux/input.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/sigmouse.h>

#define SIGMOUSE_MINORS		32
/* packets a client's ring holds; user space learns it from SIGMOUSE_IOC_INFO */
#define SIGMOUSE_RING_SIZE	64

/* the UAPI promises one layout for 32-bit and 64-bit callers */
static_assert(sizeof(struct sigmouse_packet) == 40);
static_assert(offsetof(struct sigmouse_packet, dx) == 16);
static_assert(sizeof(struct sigmouse_info) == 120);
static_assert(offsetof(struct sigmouse_info, packets) == 96);

/* buttons as SIGMOUSE_PACKET buttons bits, mousedev's numbering */
#define SIGMOUSE_BUTTON_LEFT	0
#define SIGMOUSE_BUTTON_RIGHT	1
#define SIGMOUSE_BUTTON_MIDDLE	2
#define SIGMOUSE_BUTTON_SIDE	3
#define SIGMOUSE_BUTTON_EXTRA	4

/*
 * Bit 0 is down while either key is: a tablet's button and its pen's or
 * a touchscreen's touch press the same bit, and one's release does not
 * release it while the other is down.
 */
enum sigmouse_left_key {
	SIGMOUSE_LEFT_BY_BUTTON,	/* BTN_LEFT */
	SIGMOUSE_LEFT_BY_TOUCH,		/* BTN_TOUCH, except on a touchpad */
};

struct sigmouse {
	int open;
	struct input_handle handle;
	wait_queue_head_t wait;
	/* one list for every open file of the node, see the top of the file */
	struct fasync_struct *fasync;
	struct list_head client_list;
	spinlock_t client_lock; /* protects client_list */
	/*
	 * Protects open, and exist against opens and ioctls; read and poll
	 * test exist without it (READ_ONCE), for a wake-up to -ENODEV.
	 */
	struct mutex mutex;
	struct device dev;
	struct cdev cdev;
	bool exist;

	/*
	 * The frame being assembled, and where an absolute device was.
	 * The event handler uses them, serialized by the input device's
	 * event_lock; the first open after the last close starts them
	 * afresh under the same lock (sigmouse_start_frame()), and until
	 * then, primed is false and the handler ignores events.
	 */
	struct sigmouse_packet frame;
	bool frame_dirty;
	bool primed;
	int abs_x;
	int abs_y;
	/* what holds bit 0 down: BIT(SIGMOUSE_LEFT_BY_*) */
	unsigned long left_keys;
	/* a touchpad's finger is down: its motion counts (see touchpad) */
	bool touching;

	/* SIGMOUSE_IOC_INFO counters */
	atomic_t subscribers;
	atomic64_t packets;
	atomic64_t drops;
};

struct sigmouse_client {
	struct sigmouse *sigmouse;
	struct list_head node;
	/*
	 * Serializes readers of this open file, so that a packet put back
	 * after a failed copy is read before any packet that followed it.
	 */
	struct mutex read_mutex;
	spinlock_t buffer_lock; /* protects head, tail, dropped and buffer */
	/* free-running; the packet at index i is buffer[i % SIGMOUSE_RING_SIZE] */
	unsigned int head;
	unsigned int tail;
	/* packets lost to a full ring since the last packet read */
	unsigned int dropped;
	/* the subscription in waitqueue mode */
	struct fasync_wait async;
	struct sigmouse_packet buffer[SIGMOUSE_RING_SIZE];
};

enum sigmouse_notify {
	SIGMOUSE_NOTIFY_FASYNC,
	SIGMOUSE_NOTIFY_WAITQUEUE,
};

static const char * const sigmouse_notify_names[] = {
	[SIGMOUSE_NOTIFY_FASYNC]	= "fasync",
	[SIGMOUSE_NOTIFY_WAITQUEUE]	= "waitqueue",
};

static int sigmouse_notify_mode = SIGMOUSE_NOTIFY_FASYNC;

static int sigmouse_notify_set(const char *val, const struct kernel_param *kp)
{
	int mode = sysfs_match_string(sigmouse_notify_names, val);

	if (mode < 0)
		return mode;
	*(int *)kp->arg = mode;
	return 0;
}

static int sigmouse_notify_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n",
			  sigmouse_notify_names[*(int *)kp->arg]);
}

static const struct kernel_param_ops sigmouse_notify_ops = {
	.set = sigmouse_notify_set,
	.get = sigmouse_notify_get,
};

/* fixed at boot: every open file of every node uses the same way */
module_param_cb(notify, &sigmouse_notify_ops, &sigmouse_notify_mode, 0444);
MODULE_PARM_DESC(notify,
		 "how subscribers get SIGIO: fasync (kill_fasync() on the node's list, default) or waitqueue (keyed wake-ups of the poll queue)");

static dev_t sigmouse_devt;

/*
 * A static class, registered: class_create() lost its module argument
 * in 6.4, class_register() is the same call in 6.1 and 6.12.
 */
static struct class sigmouse_class = {
	.name = "sigmouse",
};

static DEFINE_IDA(sigmouse_ida);

/*
 * Wake readers and pollers with mask, and signal subscribers with band.
 * In waitqueue mode the keyed wake-up is what signals them.
 */
static void sigmouse_announce(struct sigmouse *sigmouse, __poll_t mask,
			      int band)
{
	wake_up_interruptible_poll(&sigmouse->wait, mask);
	if (sigmouse_notify_mode == SIGMOUSE_NOTIFY_FASYNC)
		kill_fasync(&sigmouse->fasync, SIGIO, band);
}

/* A full ring drops its oldest packet: a stalled reader sees the present. */
static void sigmouse_pass_packet(struct sigmouse_client *client,
				 const struct sigmouse_packet *packet)
{
	spin_lock(&client->buffer_lock);

	if (client->head - client->tail == SIGMOUSE_RING_SIZE) {
		client->tail++;
		client->dropped++;
		atomic64_inc(&client->sigmouse->drops);
	}
	client->buffer[client->head++ % SIGMOUSE_RING_SIZE] = *packet;

	spin_unlock(&client->buffer_lock);
}

static void sigmouse_emit_frame(struct sigmouse *sigmouse)
{
	struct sigmouse_packet *frame = &sigmouse->frame;
	struct sigmouse_client *client;

	frame->seq++;
	frame->time_ns = ktime_to_ns(input_get_timestamp(sigmouse->handle.dev)[INPUT_CLK_MONO]);

	rcu_read_lock();
	list_for_each_entry_rcu(client, &sigmouse->client_list, node)
		sigmouse_pass_packet(client, frame);
	rcu_read_unlock();

	atomic64_inc(&sigmouse->packets);
	sigmouse_announce(sigmouse, EPOLLIN | EPOLLRDNORM, POLL_IN);

	/* motion is per frame, the button state carries over */
	frame->dx = 0;
	frame->dy = 0;
	frame->wheel = 0;
	frame->flags = 0;
	sigmouse->frame_dirty = false;
}

/*
 * Motion saturates at the limits of the record's __s32 rather than wrap
 * around (the kernel builds with -fno-strict-overflow): a huge motion
 * must not read as a huge motion the other way. An absolute axis's
 * change alone can need 33 bits.
 */
static void sigmouse_add_motion(__s32 *sum, s64 delta)
{
	*sum = clamp_t(s64, (s64)*sum + delta, S32_MIN, S32_MAX);
}

static void sigmouse_rel_event(struct sigmouse *sigmouse,
			       unsigned int code, int value)
{
	switch (code) {
	case REL_X:
		sigmouse_add_motion(&sigmouse->frame.dx, value);
		break;
	case REL_Y:
		sigmouse_add_motion(&sigmouse->frame.dy, value);
		break;
	case REL_WHEEL:
		sigmouse_add_motion(&sigmouse->frame.wheel, value);
		break;
	default:
		return;
	}
	sigmouse->frame_dirty = true;
}

/*
 * A touchpad (BTN_TOOL_FINGER, as mousedev tells them) reports where a
 * finger is, but moves the pointer as a mouse does: by strokes. Motion
 * counts only while a finger touches, from where it touched, so a new
 * touch elsewhere is no jump; and its touch is no click (mousedev makes
 * taps into clicks; sigmouse does not, a touchpad's own BTN_LEFT is).
 */
static bool sigmouse_is_touchpad(struct input_dev *dev)
{
	return test_bit(BTN_TOOL_FINGER, dev->keybit);
}

/*
 * A touch starts a stroke where the finger is. The input core has
 * already taken the whole frame's position into the device's state, so
 * the stroke starts from there whatever the order of the frame's events.
 */
static void sigmouse_touch(struct sigmouse *sigmouse, bool touching)
{
	struct input_dev *dev = sigmouse->handle.dev;

	sigmouse->touching = touching;
	if (touching) {
		sigmouse->abs_x = input_abs_get_val(dev, ABS_X);
		sigmouse->abs_y = input_abs_get_val(dev, ABS_Y);
	}
}

/* how far one axis moved in this event; false if it counts as no motion */
static bool sigmouse_abs_move(struct sigmouse *sigmouse, __s32 *sum,
			      int *where, int value)
{
	if (sigmouse_is_touchpad(sigmouse->handle.dev) &&
	    (!sigmouse->touching || value == *where)) {
		*where = value;
		return false;
	}
	sigmouse_add_motion(sum, (s64)value - *where);
	*where = value;
	return true;
}

/*
 * Absolute devices report motion as the change of position, in device
 * units, from the position sigmouse_start_frame() took.
 */
static void sigmouse_abs_event(struct sigmouse *sigmouse,
			       unsigned int code, int value)
{
	struct sigmouse_packet *frame = &sigmouse->frame;
	bool moved;

	switch (code) {
	case ABS_X:
		moved = sigmouse_abs_move(sigmouse, &frame->dx,
					  &sigmouse->abs_x, value);
		break;
	case ABS_Y:
		moved = sigmouse_abs_move(sigmouse, &frame->dy,
					  &sigmouse->abs_y, value);
		break;
	default:
		return;
	}
	if (!moved)
		return;
	frame->flags |= SIGMOUSE_PACKET_ABS;
	sigmouse->frame_dirty = true;
}

static void sigmouse_key_event(struct sigmouse *sigmouse,
			       unsigned int code, int value)
{
	unsigned int button;

	switch (code) {
	case BTN_TOUCH:
		if (sigmouse_is_touchpad(sigmouse->handle.dev)) {
			sigmouse_touch(sigmouse, value);
			return;
		}
		fallthrough;
	case BTN_LEFT:
		__assign_bit(code == BTN_LEFT ? SIGMOUSE_LEFT_BY_BUTTON :
						SIGMOUSE_LEFT_BY_TOUCH,
			     &sigmouse->left_keys, value);
		value = sigmouse->left_keys != 0;
		button = SIGMOUSE_BUTTON_LEFT;
		break;
	case BTN_RIGHT:
		button = SIGMOUSE_BUTTON_RIGHT;
		break;
	case BTN_MIDDLE:
		button = SIGMOUSE_BUTTON_MIDDLE;
		break;
	case BTN_SIDE:
		button = SIGMOUSE_BUTTON_SIDE;
		break;
	case BTN_EXTRA:
		button = SIGMOUSE_BUTTON_EXTRA;
		break;
	default:
		return;
	}

	if (value)
		sigmouse->frame.buttons |= BIT(button);
	else
		sigmouse->frame.buttons &= ~BIT(button);
	sigmouse->frame_dirty = true;
}

/*
 * One event at a time (.event), as mousedev takes them: the batched
 * .events handler changed its type in 6.11 (it returns how many events
 * it left for the next handler), .event is the same in 6.1 and 6.12.
 * The input core calls both under the device's event_lock, so a frame
 * is announced the same way either way: once, at SYN_REPORT.
 */
static void sigmouse_event(struct input_handle *handle, unsigned int type,
			   unsigned int code, int value)
{
	struct sigmouse *sigmouse = handle->private;

	if (!sigmouse->primed)
		return;

	switch (type) {
	case EV_REL:
		sigmouse_rel_event(sigmouse, code, value);
		break;
	case EV_ABS:
		sigmouse_abs_event(sigmouse, code, value);
		break;
	case EV_KEY:
		/* autorepeat (2) repeats a key, and changes no button's state */
		if (value != 2)
			sigmouse_key_event(sigmouse, code, value);
		break;
	case EV_SYN:
		if (code == SYN_REPORT && sigmouse->frame_dirty)
			sigmouse_emit_frame(sigmouse);
		break;
	}
}

static int sigmouse_fasync(int fd, struct file *file, int on)
{
	struct sigmouse_client *client = file->private_data;
	struct sigmouse *sigmouse = client->sigmouse;
	int retval;

	if (sigmouse_notify_mode == SIGMOUSE_NOTIFY_WAITQUEUE)
		retval = fasync_wait_helper(fd, file, on, &sigmouse->wait,
					    &client->async);
	else
		retval = fasync_helper(fd, file, on, &sigmouse->fasync);
	/* positive means the list changed: an entry was added or removed */
	if (retval > 0) {
		if (on)
			atomic_inc(&sigmouse->subscribers);
		else
			atomic_dec(&sigmouse->subscribers);
	}

	return retval;
}

static void sigmouse_free(struct device *dev)
{
	struct sigmouse *sigmouse = container_of(dev, struct sigmouse, dev);

	input_put_device(sigmouse->handle.dev);
	kfree(sigmouse);
}

static void sigmouse_attach_client(struct sigmouse *sigmouse,
				   struct sigmouse_client *client)
{
	spin_lock(&sigmouse->client_lock);
	list_add_tail_rcu(&client->node, &sigmouse->client_list);
	spin_unlock(&sigmouse->client_lock);
}

static void sigmouse_detach_client(struct sigmouse *sigmouse,
				   struct sigmouse_client *client)
{
	spin_lock(&sigmouse->client_lock);
	list_del_rcu(&client->node);
	spin_unlock(&sigmouse->client_lock);
	synchronize_rcu();
}

/*
 * Start the frame from the device's state as the input core knows it:
 * no motion, the buttons that are down, the absolute position. Under
 * event_lock, which the input core holds while it updates that state
 * and passes events to the handlers. The core updates the state as each
 * event arrives but passes a frame's events on only at its SYN_REPORT,
 * so a frame in progress at the first open reaches the handler whole,
 * after this: its relative motion is counted in the first record, its
 * buttons and absolute position are already in the state taken here
 * (so an absolute frame's motion reads 0 against it).
 */
static void sigmouse_start_frame(struct sigmouse *sigmouse)
{
	static const unsigned int button_codes[] = {
		[SIGMOUSE_BUTTON_RIGHT]	= BTN_RIGHT,
		[SIGMOUSE_BUTTON_MIDDLE] = BTN_MIDDLE,
		[SIGMOUSE_BUTTON_SIDE]	= BTN_SIDE,
		[SIGMOUSE_BUTTON_EXTRA]	= BTN_EXTRA,
	};
	struct input_dev *dev = sigmouse->handle.dev;
	struct sigmouse_packet *frame = &sigmouse->frame;
	unsigned int button;

	spin_lock_irq(&dev->event_lock);

	frame->dx = 0;
	frame->dy = 0;
	frame->wheel = 0;
	frame->flags = 0;
	frame->buttons = 0;
	for (button = SIGMOUSE_BUTTON_RIGHT; button < ARRAY_SIZE(button_codes);
	     button++)
		if (test_bit(button_codes[button], dev->key))
			frame->buttons |= BIT(button);
	/* bit 0 by the rule sigmouse_key_event() follows */
	sigmouse->left_keys = 0;
	__assign_bit(SIGMOUSE_LEFT_BY_BUTTON, &sigmouse->left_keys,
		     test_bit(BTN_LEFT, dev->key));
	if (!sigmouse_is_touchpad(dev))
		__assign_bit(SIGMOUSE_LEFT_BY_TOUCH, &sigmouse->left_keys,
			     test_bit(BTN_TOUCH, dev->key));
	if (sigmouse->left_keys)
		frame->buttons |= BIT(SIGMOUSE_BUTTON_LEFT);
	sigmouse->touching = test_bit(BTN_TOUCH, dev->key);
	if (test_bit(EV_ABS, dev->evbit)) {
		sigmouse->abs_x = input_abs_get_val(dev, ABS_X);
		sigmouse->abs_y = input_abs_get_val(dev, ABS_Y);
	}
	sigmouse->frame_dirty = false;
	sigmouse->primed = true;

	spin_unlock_irq(&dev->event_lock);
}

/*
 * Under event_lock, which the handler runs under: a plain store before
 * input_open_device() would pair with no barrier on the handler's side
 * (x86's ordering hides that; other architectures need not).
 */
static void sigmouse_unprime(struct sigmouse *sigmouse)
{
	struct input_dev *dev = sigmouse->handle.dev;

	spin_lock_irq(&dev->event_lock);
	sigmouse->primed = false;
	spin_unlock_irq(&dev->event_lock);
}

static int sigmouse_open_device(struct sigmouse *sigmouse)
{
	int retval;

	retval = mutex_lock_interruptible(&sigmouse->mutex);
	if (retval)
		return retval;

	if (!sigmouse->exist) {
		retval = -ENODEV;
	} else if (!sigmouse->open++) {
		/*
		 * The handler may see events from input_open_device() on,
		 * before the frame is started: it ignores them until then.
		 */
		sigmouse_unprime(sigmouse);
		retval = input_open_device(&sigmouse->handle);
		if (retval)
			sigmouse->open--;
		else
			sigmouse_start_frame(sigmouse);
	}

	mutex_unlock(&sigmouse->mutex);
	return retval;
}

static void sigmouse_close_device(struct sigmouse *sigmouse)
{
	mutex_lock(&sigmouse->mutex);

	if (sigmouse->exist && !--sigmouse->open)
		input_close_device(&sigmouse->handle);

	mutex_unlock(&sigmouse->mutex);
}

/* Tell readers, pollers and subscribers that the device is gone. */
static void sigmouse_hangup(struct sigmouse *sigmouse)
{
	sigmouse_announce(sigmouse, EPOLLHUP | EPOLLERR, POLL_HUP);
}

static int sigmouse_release(struct inode *inode, struct file *file)
{
	struct sigmouse_client *client = file->private_data;
	struct sigmouse *sigmouse = client->sigmouse;

	/* __fput() has already taken the file off the fasync list */
	sigmouse_detach_client(sigmouse, client);
	kfree(client);

	sigmouse_close_device(sigmouse);

	return 0;
}

static int sigmouse_open(struct inode *inode, struct file *file)
{
	struct sigmouse *sigmouse =
		container_of(inode->i_cdev, struct sigmouse, cdev);
	struct sigmouse_client *client;
	int error;

	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return -ENOMEM;

	mutex_init(&client->read_mutex);
	spin_lock_init(&client->buffer_lock);
	client->sigmouse = sigmouse;
	sigmouse_attach_client(sigmouse, client);

	error = sigmouse_open_device(sigmouse);
	if (error)
		goto err_free_client;

	file->private_data = client;
	stream_open(inode, file);

	return 0;

err_free_client:
	sigmouse_detach_client(sigmouse, client);
	kfree(client);
	return error;
}

static bool sigmouse_fetch_packet(struct sigmouse_client *client,
				  struct sigmouse_packet *packet)
{
	bool have_packet;

	spin_lock_irq(&client->buffer_lock);

	have_packet = client->head != client->tail;
	if (have_packet) {
		*packet = client->buffer[client->tail++ % SIGMOUSE_RING_SIZE];
		if (client->dropped) {
			packet->flags |= SIGMOUSE_PACKET_DROPPED;
			packet->dropped = client->dropped;
			client->dropped = 0;
		}
	}

	spin_unlock_irq(&client->buffer_lock);

	return have_packet;
}

/*
 * Put back a packet that could not be copied to user space, so a bad
 * buffer loses nothing. The caller holds read_mutex, so no other reader
 * took a later packet meanwhile. If the ring filled up in the meantime
 * the packet is counted as dropped, like any other the ring had no
 * room for.
 */
static void sigmouse_unfetch_packet(struct sigmouse_client *client,
				    const struct sigmouse_packet *packet)
{
	spin_lock_irq(&client->buffer_lock);

	client->dropped += packet->dropped;
	if (client->head - client->tail < SIGMOUSE_RING_SIZE) {
		struct sigmouse_packet *slot =
			&client->buffer[--client->tail % SIGMOUSE_RING_SIZE];

		*slot = *packet;
		slot->flags &= ~SIGMOUSE_PACKET_DROPPED;
		slot->dropped = 0;
	} else {
		client->dropped++;
		atomic64_inc(&client->sigmouse->drops);
	}

	spin_unlock_irq(&client->buffer_lock);
}

static bool sigmouse_client_empty(struct sigmouse_client *client)
{
	return READ_ONCE(client->head) == READ_ONCE(client->tail);
}

static ssize_t sigmouse_read(struct file *file, char __user *buffer,
			     size_t count, loff_t *ppos)
{
	struct sigmouse_client *client = file->private_data;
	struct sigmouse *sigmouse = client->sigmouse;
	struct sigmouse_packet packet;
	size_t read = 0;
	int error = 0;

	/* whole records only: a short read would split a packet */
	if (count < sizeof(packet))
		return -EINVAL;

	for (;;) {
		if (!READ_ONCE(sigmouse->exist))
			return -ENODEV;

		if (sigmouse_client_empty(client) &&
		    (file->f_flags & O_NONBLOCK))
			return -EAGAIN;

		/*
		 * A non-blocking read does not wait for another reader of
		 * this file either, which may be stalled in its copy to
		 * user space (a page fault, userfaultfd) for as long as it
		 * takes.
		 */
		if (file->f_flags & O_NONBLOCK) {
			if (!mutex_trylock(&client->read_mutex))
				return -EAGAIN;
		} else {
			error = mutex_lock_interruptible(&client->read_mutex);
			if (error)
				return error;
		}
		while (read + sizeof(packet) <= count &&
		       sigmouse_fetch_packet(client, &packet)) {
			if (copy_to_user(buffer + read, &packet, sizeof(packet))) {
				sigmouse_unfetch_packet(client, &packet);
				error = -EFAULT;
				break;
			}
			read += sizeof(packet);
		}
		mutex_unlock(&client->read_mutex);

		if (read)
			return read;
		if (error)
			return error;

		if (!(file->f_flags & O_NONBLOCK)) {
			error = wait_event_interruptible(sigmouse->wait,
							 !sigmouse_client_empty(client) ||
							 !READ_ONCE(sigmouse->exist));
			if (error)
				return error;
		}
	}
}

static __poll_t sigmouse_poll(struct file *file, poll_table *wait)
{
	struct sigmouse_client *client = file->private_data;
	struct sigmouse *sigmouse = client->sigmouse;
	__poll_t mask = 0;

	poll_wait(file, &sigmouse->wait, wait);

	if (!READ_ONCE(sigmouse->exist))
		mask |= EPOLLHUP | EPOLLERR;
	if (!sigmouse_client_empty(client))
		mask |= EPOLLIN | EPOLLRDNORM;

	return mask;
}

/*
 * Everything is copied under the mutex, as evdev does: the reference
 * sigmouse holds keeps the input_dev, not what it points to, and uinput
 * frees the device's name right after input_unregister_device(), which
 * cannot get past sigmouse_mark_dead() while the mutex is held here.
 */
static int sigmouse_get_info(struct sigmouse *sigmouse,
			     struct sigmouse_info __user *arg)
{
	struct input_dev *dev = sigmouse->handle.dev;
	struct sigmouse_info info;
	int error;

	memset(&info, 0, sizeof(info));

	error = mutex_lock_interruptible(&sigmouse->mutex);
	if (error)
		return error;

	if (!sigmouse->exist) {
		mutex_unlock(&sigmouse->mutex);
		return -ENODEV;
	}
	info.opens = sigmouse->open;
	strscpy(info.name, dev->name ?: "", sizeof(info.name));
	info.bustype = dev->id.bustype;
	info.vendor = dev->id.vendor;
	info.product = dev->id.product;
	info.version = dev->id.version;
	if (test_bit(EV_ABS, dev->evbit))
		info.flags |= SIGMOUSE_INFO_ABS;
	info.packet_size = sizeof(struct sigmouse_packet);
	info.ring_size = SIGMOUSE_RING_SIZE;
	info.subscribers = atomic_read(&sigmouse->subscribers);
	info.packets = atomic64_read(&sigmouse->packets);
	info.drops = atomic64_read(&sigmouse->drops);
	mutex_unlock(&sigmouse->mutex);

	return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

static long sigmouse_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct sigmouse_client *client = file->private_data;

	switch (cmd) {
	case SIGMOUSE_IOC_INFO:
		return sigmouse_get_info(client->sigmouse,
					 (struct sigmouse_info __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations sigmouse_fops = {
	.owner		= THIS_MODULE,
	.read		= sigmouse_read,
	.poll		= sigmouse_poll,
	.open		= sigmouse_open,
	.release	= sigmouse_release,
	.unlocked_ioctl	= sigmouse_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.fasync		= sigmouse_fasync,
};

/*
 * Mark the device non-existent: new opens and ioctls fail, blocked
 * readers wake up to -ENODEV.
 */
static void sigmouse_mark_dead(struct sigmouse *sigmouse)
{
	mutex_lock(&sigmouse->mutex);
	WRITE_ONCE(sigmouse->exist, false);
	mutex_unlock(&sigmouse->mutex);
}

static void sigmouse_cleanup(struct sigmouse *sigmouse)
{
	sigmouse_mark_dead(sigmouse);
	sigmouse_hangup(sigmouse);

	/* sigmouse is marked dead so no one else accesses sigmouse->open */
	if (sigmouse->open)
		input_close_device(&sigmouse->handle);
}

/* The input core serializes connect and disconnect. */
static int sigmouse_connect(struct input_handler *handler,
			    struct input_dev *dev,
			    const struct input_device_id *id)
{
	struct sigmouse *sigmouse;
	int minor;
	int error;

	minor = ida_alloc_max(&sigmouse_ida, SIGMOUSE_MINORS - 1, GFP_KERNEL);
	if (minor < 0) {
		pr_err("no free minor for %s: %d\n", dev->name, minor);
		return minor;
	}

	sigmouse = kzalloc(sizeof(*sigmouse), GFP_KERNEL);
	if (!sigmouse) {
		error = -ENOMEM;
		goto err_free_minor;
	}

	INIT_LIST_HEAD(&sigmouse->client_list);
	spin_lock_init(&sigmouse->client_lock);
	mutex_init(&sigmouse->mutex);
	init_waitqueue_head(&sigmouse->wait);
	sigmouse->exist = true;

	dev_set_name(&sigmouse->dev, "sigmouse%d", minor);

	sigmouse->handle.dev = input_get_device(dev);
	sigmouse->handle.name = dev_name(&sigmouse->dev);
	sigmouse->handle.handler = handler;
	sigmouse->handle.private = sigmouse;

	sigmouse->dev.devt = MKDEV(MAJOR(sigmouse_devt), minor);
	sigmouse->dev.class = &sigmouse_class;
	sigmouse->dev.parent = &dev->dev;
	sigmouse->dev.release = sigmouse_free;
	device_initialize(&sigmouse->dev);

	error = input_register_handle(&sigmouse->handle);
	if (error)
		goto err_free_sigmouse;

	cdev_init(&sigmouse->cdev, &sigmouse_fops);

	error = cdev_device_add(&sigmouse->cdev, &sigmouse->dev);
	if (error)
		goto err_cleanup_sigmouse;

	return 0;

err_cleanup_sigmouse:
	sigmouse_cleanup(sigmouse);
	input_unregister_handle(&sigmouse->handle);
err_free_sigmouse:
	put_device(&sigmouse->dev);
err_free_minor:
	ida_free(&sigmouse_ida, minor);
	return error;
}

static void sigmouse_disconnect(struct input_handle *handle)
{
	struct sigmouse *sigmouse = handle->private;

	cdev_device_del(&sigmouse->cdev, &sigmouse->dev);
	sigmouse_cleanup(sigmouse);
	ida_free(&sigmouse_ida, MINOR(sigmouse->dev.devt));
	input_unregister_handle(handle);
	put_device(&sigmouse->dev);
}

/*
 * mice move relatively, tablets, touchscreens and touchpads absolutely
 * (a touchpad with BTN_LEFT by the second entry, without by the third)
 */
static const struct input_device_id sigmouse_ids[] = {
	{
		.flags = INPUT_DEVICE_ID_MATCH_EVBIT |
			 INPUT_DEVICE_ID_MATCH_KEYBIT |
			 INPUT_DEVICE_ID_MATCH_RELBIT,
		.evbit = { BIT_MASK(EV_KEY) | BIT_MASK(EV_REL) },
		.keybit = { [BIT_WORD(BTN_LEFT)] = BIT_MASK(BTN_LEFT) },
		.relbit = { BIT_MASK(REL_X) | BIT_MASK(REL_Y) },
	},
	{
		.flags = INPUT_DEVICE_ID_MATCH_EVBIT |
			 INPUT_DEVICE_ID_MATCH_KEYBIT |
			 INPUT_DEVICE_ID_MATCH_ABSBIT,
		.evbit = { BIT_MASK(EV_KEY) | BIT_MASK(EV_ABS) },
		.keybit = { [BIT_WORD(BTN_LEFT)] = BIT_MASK(BTN_LEFT) },
		.absbit = { BIT_MASK(ABS_X) | BIT_MASK(ABS_Y) },
	},
	{
		.flags = INPUT_DEVICE_ID_MATCH_EVBIT |
			 INPUT_DEVICE_ID_MATCH_KEYBIT |
			 INPUT_DEVICE_ID_MATCH_ABSBIT,
		.evbit = { BIT_MASK(EV_KEY) | BIT_MASK(EV_ABS) },
		.keybit = { [BIT_WORD(BTN_TOUCH)] = BIT_MASK(BTN_TOUCH) },
		.absbit = { BIT_MASK(ABS_X) | BIT_MASK(ABS_Y) },
	},
	{ },	/* Terminating entry */
};

MODULE_DEVICE_TABLE(input, sigmouse_ids);

static struct input_handler sigmouse_handler = {
	.event		= sigmouse_event,
	.connect	= sigmouse_connect,
	.disconnect	= sigmouse_disconnect,
	.name		= "sigmouse",
	.id_table	= sigmouse_ids,
};

static int __init sigmouse_init(void)
{
	int error;

	error = alloc_chrdev_region(&sigmouse_devt, 0, SIGMOUSE_MINORS,
				    "sigmouse");
	if (error)
		return error;

	error = class_register(&sigmouse_class);
	if (error)
		goto err_unregister_chrdev;

	error = input_register_handler(&sigmouse_handler);
	if (error)
		goto err_unregister_class;

	return 0;

err_unregister_class:
	class_unregister(&sigmouse_class);
err_unregister_chrdev:
	unregister_chrdev_region(sigmouse_devt, SIGMOUSE_MINORS);
	return error;
}

static void __exit sigmouse_exit(void)
{
	input_unregister_handler(&sigmouse_handler);
	class_unregister(&sigmouse_class);
	unregister_chrdev_region(sigmouse_devt, SIGMOUSE_MINORS);
}

module_init(sigmouse_init);
module_exit(sigmouse_exit);

MODULE_AUTHOR("sigmouse developers");
MODULE_DESCRIPTION("Mouse packets announced with SIGIO, a fasync study driver");
MODULE_LICENSE("GPL");

/* the KUnit suite reaches the static functions above from here */
#if IS_ENABLED(CONFIG_INPUT_SIGMOUSE_KUNIT_TEST)
#include "sigmouse_kunit.c"
#endif
