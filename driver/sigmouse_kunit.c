// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for sigmouse's internals: frame assembly, the per-open
 * ring, the put-back after a failed copy and the notify parameter.
 * Included at the end of sigmouse.c, so that the tests reach its static
 * functions; the node under test is never registered, its input device
 * never opened.
 */

#include <kunit/test.h>

struct sigmouse_test {
	struct sigmouse *sigmouse;
	struct sigmouse_client *client;
};

static int sigmouse_test_init(struct kunit *test)
{
	struct sigmouse_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->sigmouse = kunit_kzalloc(test, sizeof(*t->sigmouse), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->sigmouse);
	t->client = kunit_kzalloc(test, sizeof(*t->client), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->client);
	/* input_get_timestamp() wants a device; it is never registered */
	t->sigmouse->handle.dev = input_allocate_device();
	KUNIT_ASSERT_NOT_NULL(test, t->sigmouse->handle.dev);

	t->sigmouse->handle.private = t->sigmouse;
	init_waitqueue_head(&t->sigmouse->wait);
	INIT_LIST_HEAD(&t->sigmouse->client_list);
	spin_lock_init(&t->sigmouse->client_lock);
	t->sigmouse->primed = true;
	spin_lock_init(&t->client->buffer_lock);
	mutex_init(&t->client->read_mutex);
	t->client->sigmouse = t->sigmouse;
	list_add_tail_rcu(&t->client->node, &t->sigmouse->client_list);

	test->priv = t;
	return 0;
}

static void sigmouse_test_exit(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;

	/* KUnit calls .exit after a failed .init too, before priv was set */
	if (t)
		input_free_device(t->sigmouse->handle.dev);
}

static void sigmouse_test_feed(struct sigmouse *sigmouse, unsigned int type,
			       unsigned int code, int value)
{
	sigmouse_event(&sigmouse->handle, type, code, value);
}

/* a frame of one key event */
static void sigmouse_test_key(struct sigmouse *sigmouse, unsigned int code,
			      int value)
{
	sigmouse_test_feed(sigmouse, EV_KEY, code, value);
	sigmouse_test_feed(sigmouse, EV_SYN, SYN_REPORT, 0);
}

/* the next packet, which the test requires to be there */
static struct sigmouse_packet sigmouse_test_fetch(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet packet;

	KUNIT_ASSERT_TRUE(test, sigmouse_fetch_packet(t->client, &packet));
	return packet;
}

static void sigmouse_test_pass(struct sigmouse_test *t, u64 seq)
{
	struct sigmouse_packet packet = { .seq = seq };

	sigmouse_pass_packet(t->client, &packet);
}

static void sigmouse_test_relative_frame(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;

	sigmouse_test_feed(t->sigmouse, EV_REL, REL_X, 3);
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_Y, -2);
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_WHEEL, 1);
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_X, 4);
	KUNIT_EXPECT_TRUE(test, sigmouse_client_empty(t->client));
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);

	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.seq, 1ULL);
	KUNIT_EXPECT_EQ(test, p.dx, 7);
	KUNIT_EXPECT_EQ(test, p.dy, -2);
	KUNIT_EXPECT_EQ(test, p.wheel, 1);
	KUNIT_EXPECT_EQ(test, p.flags, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->sigmouse->packets), 1LL);

	/* motion is per frame, a button is state */
	sigmouse_test_feed(t->sigmouse, EV_KEY, BTN_LEFT, 1);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.seq, 2ULL);
	KUNIT_EXPECT_EQ(test, p.dx, 0);
	KUNIT_EXPECT_EQ(test, p.wheel, 0);
	KUNIT_EXPECT_EQ(test, p.buttons, BIT(SIGMOUSE_BUTTON_LEFT));
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_Y, 5);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.dy, 5);
	KUNIT_EXPECT_EQ(test, p.buttons, BIT(SIGMOUSE_BUTTON_LEFT));

	/* a report with nothing new, or an axis sigmouse ignores, is no frame */
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_DIAL, 1);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	KUNIT_EXPECT_TRUE(test, sigmouse_client_empty(t->client));
}

static void sigmouse_test_absolute_frame(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;

	/* where sigmouse_start_frame() found the device */
	t->sigmouse->abs_x = 100;
	t->sigmouse->abs_y = 50;
	sigmouse_test_feed(t->sigmouse, EV_ABS, ABS_X, 130);
	sigmouse_test_feed(t->sigmouse, EV_ABS, ABS_Y, 40);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.dx, 30);
	KUNIT_EXPECT_EQ(test, p.dy, -10);
	KUNIT_EXPECT_EQ(test, p.flags, SIGMOUSE_PACKET_ABS);

	sigmouse_test_feed(t->sigmouse, EV_ABS, ABS_X, 120);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.dx, -10);
	KUNIT_EXPECT_EQ(test, p.dy, 0);
	KUNIT_EXPECT_EQ(test, p.seq, 2ULL);

	/* a relative frame after it carries no ABS flag */
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_X, 1);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.flags, 0U);
}

/*
 * The first frame after an open starts from the device's state as the
 * input core knows it: its position, and the buttons already down.
 */
/* motion saturates at the record's limits rather than wrap around */
static void sigmouse_test_motion_saturates(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;

	sigmouse_test_feed(t->sigmouse, EV_REL, REL_X, INT_MAX);
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_X, INT_MAX);
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_Y, INT_MIN);
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_Y, -1);
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_WHEEL, INT_MAX);
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_WHEEL, 1);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.dx, INT_MAX);
	KUNIT_EXPECT_EQ(test, p.dy, INT_MIN);
	KUNIT_EXPECT_EQ(test, p.wheel, INT_MAX);

	/* an absolute axis over the whole int range: 2^32 - 1 each way */
	t->sigmouse->abs_x = INT_MIN;
	sigmouse_test_feed(t->sigmouse, EV_ABS, ABS_X, INT_MAX);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.dx, INT_MAX);
	sigmouse_test_feed(t->sigmouse, EV_ABS, ABS_X, INT_MIN);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.dx, INT_MIN);
}

static void sigmouse_test_first_frame_after_start(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct input_dev *dev = t->sigmouse->handle.dev;
	struct sigmouse_packet p;

	input_set_abs_params(dev, ABS_X, 0, 1023, 0, 0);
	input_set_abs_params(dev, ABS_Y, 0, 767, 0, 0);
	input_abs_set_val(dev, ABS_X, 500);
	input_abs_set_val(dev, ABS_Y, 300);
	__set_bit(BTN_TOUCH, dev->key);
	__set_bit(BTN_RIGHT, dev->key);
	/* left over from before the last close */
	t->sigmouse->frame.dx = 9;
	t->sigmouse->frame.buttons = BIT(SIGMOUSE_BUTTON_EXTRA);
	t->sigmouse->frame_dirty = true;
	t->sigmouse->primed = false;

	sigmouse_start_frame(t->sigmouse);
	KUNIT_EXPECT_TRUE(test, t->sigmouse->primed);
	KUNIT_EXPECT_FALSE(test, t->sigmouse->frame_dirty);
	KUNIT_EXPECT_EQ(test, t->sigmouse->abs_x, 500);
	KUNIT_EXPECT_EQ(test, t->sigmouse->abs_y, 300);
	/* nothing is a frame until an event comes */
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	KUNIT_EXPECT_TRUE(test, sigmouse_client_empty(t->client));

	sigmouse_test_feed(t->sigmouse, EV_ABS, ABS_X, 510);
	sigmouse_test_feed(t->sigmouse, EV_ABS, ABS_Y, 290);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.seq, 1ULL);
	KUNIT_EXPECT_EQ(test, p.dx, 10);
	KUNIT_EXPECT_EQ(test, p.dy, -10);
	KUNIT_EXPECT_EQ(test, p.wheel, 0);
	KUNIT_EXPECT_EQ(test, p.flags, SIGMOUSE_PACKET_ABS);
	KUNIT_EXPECT_EQ(test, p.buttons, BIT(SIGMOUSE_BUTTON_LEFT) |
					 BIT(SIGMOUSE_BUTTON_RIGHT));
}

static void sigmouse_test_key_frame(struct kunit *test)
{
	static const struct {
		unsigned int code;
		u32 bit;
	} keys[] = {
		{ BTN_LEFT, BIT(SIGMOUSE_BUTTON_LEFT) },
		{ BTN_TOUCH, BIT(SIGMOUSE_BUTTON_LEFT) },
		{ BTN_RIGHT, BIT(SIGMOUSE_BUTTON_RIGHT) },
		{ BTN_MIDDLE, BIT(SIGMOUSE_BUTTON_MIDDLE) },
		{ BTN_SIDE, BIT(SIGMOUSE_BUTTON_SIDE) },
		{ BTN_EXTRA, BIT(SIGMOUSE_BUTTON_EXTRA) },
	};
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;
	int i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		sigmouse_test_key(t->sigmouse, keys[i].code, 1);
		p = sigmouse_test_fetch(test);
		KUNIT_EXPECT_EQ_MSG(test, p.buttons, keys[i].bit,
				    "key %#x pressed", keys[i].code);
		sigmouse_test_key(t->sigmouse, keys[i].code, 0);
		p = sigmouse_test_fetch(test);
		KUNIT_EXPECT_EQ_MSG(test, p.buttons, 0U,
				    "key %#x released", keys[i].code);
	}

	/* buttons are bits of one state: each changes only its own */
	sigmouse_test_feed(t->sigmouse, EV_KEY, BTN_LEFT, 1);
	sigmouse_test_feed(t->sigmouse, EV_KEY, BTN_MIDDLE, 1);
	sigmouse_test_feed(t->sigmouse, EV_KEY, BTN_EXTRA, 1);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.buttons, BIT(SIGMOUSE_BUTTON_LEFT) |
					 BIT(SIGMOUSE_BUTTON_MIDDLE) |
					 BIT(SIGMOUSE_BUTTON_EXTRA));
	sigmouse_test_feed(t->sigmouse, EV_KEY, BTN_MIDDLE, 0);
	sigmouse_test_feed(t->sigmouse, EV_KEY, BTN_SIDE, 1);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.buttons, BIT(SIGMOUSE_BUTTON_LEFT) |
					 BIT(SIGMOUSE_BUTTON_SIDE) |
					 BIT(SIGMOUSE_BUTTON_EXTRA));
	/*
	 * BTN_TOUCH and BTN_LEFT press one bit, down while either is: a
	 * touch's release leaves it down while BTN_LEFT is
	 */
	sigmouse_test_key(t->sigmouse, BTN_TOUCH, 1);
	sigmouse_test_key(t->sigmouse, BTN_TOUCH, 0);
	sigmouse_test_fetch(test);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.buttons, BIT(SIGMOUSE_BUTTON_LEFT) |
					 BIT(SIGMOUSE_BUTTON_SIDE) |
					 BIT(SIGMOUSE_BUTTON_EXTRA));
	sigmouse_test_key(t->sigmouse, BTN_LEFT, 0);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.buttons, BIT(SIGMOUSE_BUTTON_SIDE) |
					 BIT(SIGMOUSE_BUTTON_EXTRA));

	/* an autorepeat (2) changes no button: no record */
	sigmouse_test_key(t->sigmouse, BTN_SIDE, 2);
	KUNIT_EXPECT_TRUE(test, sigmouse_client_empty(t->client));

	/* a keyboard key is not a button */
	sigmouse_test_key(t->sigmouse, KEY_A, 1);
	KUNIT_EXPECT_TRUE(test, sigmouse_client_empty(t->client));
}

static void sigmouse_test_unprimed_ignores_events(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;

	t->sigmouse->primed = false;
	sigmouse_test_feed(t->sigmouse, EV_REL, REL_X, 1);
	sigmouse_test_feed(t->sigmouse, EV_SYN, SYN_REPORT, 0);
	KUNIT_EXPECT_TRUE(test, sigmouse_client_empty(t->client));
	KUNIT_EXPECT_FALSE(test, t->sigmouse->frame_dirty);
}

static void sigmouse_test_ring_wrap(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;
	u64 seq;

	/* the free-running indexes wrap past UINT_MAX on the way */
	t->client->head = UINT_MAX - 3 * SIGMOUSE_RING_SIZE / 2;
	t->client->tail = t->client->head;
	for (seq = 1; seq <= 4 * SIGMOUSE_RING_SIZE; seq++) {
		sigmouse_test_pass(t, seq);
		if (seq % 3)
			continue;
		/* read in bursts, so the ring holds a few across the wrap */
		while (sigmouse_fetch_packet(t->client, &p)) {
			KUNIT_EXPECT_EQ(test, p.flags, 0U);
			KUNIT_ASSERT_EQ(test, p.seq, seq - (t->client->head -
							    t->client->tail));
		}
	}
	KUNIT_EXPECT_LT(test, t->client->head, (unsigned int)SIGMOUSE_RING_SIZE * 4);
	KUNIT_EXPECT_EQ(test, t->client->dropped, 0U);
}

static void sigmouse_test_overflow_drops_oldest(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;
	u64 seq;

	for (seq = 1; seq <= SIGMOUSE_RING_SIZE + 5; seq++)
		sigmouse_test_pass(t, seq);
	KUNIT_EXPECT_EQ(test, t->client->dropped, 5U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->sigmouse->drops), 5LL);

	/* the first packet read says how many went before it */
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.seq, 6ULL);
	KUNIT_EXPECT_EQ(test, p.flags, SIGMOUSE_PACKET_DROPPED);
	KUNIT_EXPECT_EQ(test, p.dropped, 5U);
	KUNIT_EXPECT_EQ(test, t->client->dropped, 0U);
	for (seq = 7; seq <= SIGMOUSE_RING_SIZE + 5; seq++) {
		p = sigmouse_test_fetch(test);
		KUNIT_EXPECT_EQ(test, p.seq, seq);
		KUNIT_EXPECT_EQ(test, p.flags, 0U);
	}
	KUNIT_EXPECT_TRUE(test, sigmouse_client_empty(t->client));
}

static void sigmouse_test_put_back_keeps_order(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;
	u64 seq;

	for (seq = 1; seq <= 3; seq++)
		sigmouse_test_pass(t, seq);
	p = sigmouse_test_fetch(test);
	sigmouse_unfetch_packet(t->client, &p);
	for (seq = 1; seq <= 3; seq++) {
		p = sigmouse_test_fetch(test);
		KUNIT_EXPECT_EQ(test, p.seq, seq);
	}
	KUNIT_EXPECT_TRUE(test, sigmouse_client_empty(t->client));
}

static void sigmouse_test_put_back_keeps_drop_count(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;
	u64 seq;

	for (seq = 1; seq <= SIGMOUSE_RING_SIZE + 2; seq++)
		sigmouse_test_pass(t, seq);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.dropped, 2U);
	sigmouse_unfetch_packet(t->client, &p);

	/* read again, the packet still says what was lost before it */
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.seq, 3ULL);
	KUNIT_EXPECT_EQ(test, p.flags, SIGMOUSE_PACKET_DROPPED);
	KUNIT_EXPECT_EQ(test, p.dropped, 2U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->sigmouse->drops), 2LL);
}

static void sigmouse_test_put_back_into_full_ring(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;
	u64 seq;

	for (seq = 1; seq <= SIGMOUSE_RING_SIZE; seq++)
		sigmouse_test_pass(t, seq);
	p = sigmouse_test_fetch(test);
	/* a packet came while the copy failed: no room to put it back */
	sigmouse_test_pass(t, seq);
	sigmouse_unfetch_packet(t->client, &p);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->sigmouse->drops), 1LL);

	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.seq, 2ULL);
	KUNIT_EXPECT_EQ(test, p.flags, SIGMOUSE_PACKET_DROPPED);
	KUNIT_EXPECT_EQ(test, p.dropped, 1U);
}

/*
 * Drops while the copy failed can only come from a full ring, so the
 * packet to put back is lost too: the next one read counts it and them.
 */
static void sigmouse_test_put_back_after_overflow(struct kunit *test)
{
	struct sigmouse_test *t = test->priv;
	struct sigmouse_packet p;
	u64 seq;

	for (seq = 1; seq <= SIGMOUSE_RING_SIZE; seq++)
		sigmouse_test_pass(t, seq);
	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.seq, 1ULL);
	for (; seq <= SIGMOUSE_RING_SIZE + 3; seq++)
		sigmouse_test_pass(t, seq);
	KUNIT_EXPECT_EQ(test, t->client->dropped, 2U);
	sigmouse_unfetch_packet(t->client, &p);
	KUNIT_EXPECT_EQ(test, t->client->dropped, 3U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->sigmouse->drops), 3LL);

	p = sigmouse_test_fetch(test);
	KUNIT_EXPECT_EQ(test, p.seq, 4ULL);
	KUNIT_EXPECT_EQ(test, p.flags, SIGMOUSE_PACKET_DROPPED);
	KUNIT_EXPECT_EQ(test, p.dropped, 3U);
	for (seq = 5; seq <= SIGMOUSE_RING_SIZE + 3; seq++) {
		p = sigmouse_test_fetch(test);
		KUNIT_EXPECT_EQ(test, p.seq, seq);
		KUNIT_EXPECT_EQ(test, p.dropped, 0U);
	}
	KUNIT_EXPECT_TRUE(test, sigmouse_client_empty(t->client));
}

/*
 * An unknown notify= is refused: parse_args(), which load_module() runs
 * over a module's arguments, fails with EINVAL on the driver's own
 * parameter (built in, named sigmouse.notify; loaded, notify) and the
 * mode stays, so loading fails with EINVAL. The mode's own name is
 * taken, which shows the parameter is the one in use.
 */
static void sigmouse_test_notify_unknown_refused(struct kunit *test)
{
	const struct kernel_param *param = &__param_notify;
	int mode = sigmouse_notify_mode;
	char args[64];
	char *rest;

	snprintf(args, sizeof(args), "%s=bogus", param->name);
	rest = parse_args("sigmouse", args, param, 1, S16_MIN, S16_MAX, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(rest), -EINVAL);
	KUNIT_EXPECT_EQ(test, sigmouse_notify_mode, mode);

	snprintf(args, sizeof(args), "%s=%s", param->name,
		 sigmouse_notify_names[mode]);
	rest = parse_args("sigmouse", args, param, 1, S16_MIN, S16_MAX, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(rest), 0);
	KUNIT_EXPECT_EQ(test, sigmouse_notify_mode, mode);
}

static struct kunit_case sigmouse_test_cases[] = {
	KUNIT_CASE(sigmouse_test_relative_frame),
	KUNIT_CASE(sigmouse_test_absolute_frame),
	KUNIT_CASE(sigmouse_test_motion_saturates),
	KUNIT_CASE(sigmouse_test_first_frame_after_start),
	KUNIT_CASE(sigmouse_test_key_frame),
	KUNIT_CASE(sigmouse_test_unprimed_ignores_events),
	KUNIT_CASE(sigmouse_test_ring_wrap),
	KUNIT_CASE(sigmouse_test_overflow_drops_oldest),
	KUNIT_CASE(sigmouse_test_put_back_keeps_order),
	KUNIT_CASE(sigmouse_test_put_back_keeps_drop_count),
	KUNIT_CASE(sigmouse_test_put_back_into_full_ring),
	KUNIT_CASE(sigmouse_test_put_back_after_overflow),
	KUNIT_CASE(sigmouse_test_notify_unknown_refused),
	{}
};

static struct kunit_suite sigmouse_test_suite = {
	.name = "sigmouse",
	.init = sigmouse_test_init,
	.exit = sigmouse_test_exit,
	.test_cases = sigmouse_test_cases,
};

kunit_test_suite(sigmouse_test_suite);
