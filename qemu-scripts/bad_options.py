"""The bad-options boot: unknown values on the kernel command line are
said at boot and the design chosen so far kept, the last valid
fasync_lock= wins, and the kernel says which design it runs.
run-tests.py boots it once per kernel, run-mutants.py for a mutant whose
Checks: name bad_options; both judge it here."""

# bogus while the default rules, rwlock overruled by rcu-global, bogus2
# while rcu-global rules: it must stay; and an unknown notify mode
BAD_OPTIONS = ("fasync_lock=bogus fasync_lock=rwlock fasync_lock=rcu-global fasync_lock=bogus2 "
               "sigmouse.notify=bogus")
WANTED = ("fasync: unknown fasync_lock=bogus, keeping rcu",
          "fasync: unknown fasync_lock=bogus2, keeping rcu-global",
          "fasync: fasync_lock=rcu-global",
          "`bogus' invalid for parameter `sigmouse.notify'")


def bad_options_problems(boot):
    """What the boot of BAD_OPTIONS did not say, or said wrong."""
    problems = [f"no \"{w}\" in the console" for w in WANTED
                if not any(w in line for line in boot.console_lines)]
    if boot.exit_status != 0:
        problems.append("the guest did not reach /init")
    return problems + [f"splat: {report[0]}" for report in boot.reports()]
