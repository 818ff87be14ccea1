#!/usr/bin/env python3
"""lava-run.sh's client of LAVA's REST API (v0.2): submit jobs, wait for
them to finish, print each job's test cases per suite and a closing
"N passed, N failed, N skipped" line.

With --compare BUILD, each job's results are held against the local
runner's boot of the same (the job's sigmouse.local folder under BUILD,
as run-tests.py or run-mutants.py left it): each check both ran must
have the same result, and each the local boot ran must have a case in
LAVA unless it needs the host channel (lava_jobs.py's local-only.txt).
A difference is printed and counted as a failure.

    lava_results.py --url http://127.0.0.1:18080 --token-file TOKEN
                    [--timeout SECONDS] [--compare build] JOB.yaml...

Exit status: 0 when every job finished Complete, no case failed and
nothing differed.
"""

import argparse
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request

import yaml

from guest import KSELFTEST
from ktap import boot_results


class Api:
    def __init__(self, url, token):
        self.base = url.rstrip("/") + "/api/v0.2/"
        self.token = token

    def call(self, path, data=None):
        url = path if path.startswith("http") else self.base + path
        body = json.dumps(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body, headers={
            "Authorization": f"Token {self.token}", "Content-Type": "application/json",
            "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return json.load(reply)
        except urllib.error.HTTPError as error:
            raise SystemExit(f"lava_results.py: {url}: HTTP {error.code}: "
                             f"{error.read().decode(errors='replace')[:2000]}")

    def pages(self, path):
        """Every result of a paginated list."""
        page = self.call(path + ("&" if "?" in path else "?") + "limit=500")
        while True:
            yield from page["results"]
            if not page.get("next"):
                return
            page = self.call(page["next"])


def case_key(name):
    """A check's name as LAVA keeps it: a test case's dots and other
    punctuation become underscores."""
    return re.sub(r"[^\w-]", "_", name)


def differences(local, lava, local_only):
    """What LAVA's cases ({suite: {case: result}}) say otherwise than the
    local boot's results (boot_results()): [(suite, check, local result,
    LAVA's)], "none" where one has no result; local_only's checks
    ("suite: check") have none in LAVA."""
    found = []
    for suite in sorted(set(local) | set(lava)):
        ours = {case_key(check): (check, result) for check, result in local.get(suite, {}).items()
                if f"{suite}: {check}" not in local_only}
        theirs = {case_key(case): result for case, result in lava.get(suite, {}).items()}
        for key in sorted(set(ours) | set(theirs)):
            check, result = ours.get(key, (key, "none"))
            if result != theirs.get(key, "none"):
                found.append((suite, check, result, theirs.get(key, "none")))
    return found


def job_metadata(path):
    with open(path) as f:
        return yaml.safe_load(f)["metadata"]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--timeout", type=int, default=3600, help="seconds for all jobs")
    parser.add_argument("--compare", metavar="BUILD",
                        help="hold each job's results against the local runner's boot of the "
                             "same under this build folder")
    parser.add_argument("jobs", nargs="+")
    args = parser.parse_args()
    with open(args.token_file) as f:
        api = Api(args.url, f.read().strip())

    if args.compare:
        with open(os.path.join(args.compare, "lava", "local-only.txt")) as f:
            local_only = set(f.read().splitlines())

    submitted = []
    for path in args.jobs:
        with open(path) as f:
            reply = api.call("jobs/", {"definition": f.read()})
        for job_id in reply["job_ids"]:
            print(f"lava_results.py: {path}: job {job_id} submitted", flush=True)
            submitted.append((path, job_id, time.time()))

    deadline = time.time() + args.timeout
    finished = {}
    while len(finished) < len(submitted):
        for path, job_id, started in submitted:
            if job_id in finished:
                continue
            job = api.call(f"jobs/{job_id}/")
            if job["state"] == "Finished":
                finished[job_id] = job
                print(f"lava_results.py: job {job_id} finished: {job['health']} "
                      f"in {time.time() - started:.0f} s (submitted to finished; "
                      f"started {job.get('start_time')}, ended {job.get('end_time')})",
                      flush=True)
        if len(finished) < len(submitted):
            if time.time() > deadline:
                print(f"lava_results.py: timed out after {args.timeout} s", flush=True)
                break
            time.sleep(5)

    passed = failed = skipped = 0
    healthy = True
    for path, job_id, _ in submitted:
        job = finished.get(job_id)
        health = job["health"] if job else "unfinished"
        print(f"# job {job_id} ({path}): {health}")
        if health != "Complete":
            # an Incomplete, Canceled or unfinished job is a failure of its own
            healthy = False
            failed += 1
            print(f"   fail  job {job_id}: {health}")
        lava = {}
        for suite in api.pages(f"jobs/{job_id}/suites/"):
            cases = list(api.pages(f"jobs/{job_id}/suites/{suite['id']}/tests/"))
            print(f"## suite {suite['name']}: {len(cases)} cases")
            for case in cases:
                result = str(case["result"])
                print(f"   {result:5} {suite['name']}/{case['name']}")
                if suite["name"] == "lava":
                    # LAVA's own actions' records, not the kit's checks
                    if result == "fail":
                        healthy = False
                    continue
                lava.setdefault(suite["name"], {})[case["name"]] = result
                if result == "pass":
                    passed += 1
                elif result == "fail":
                    failed += 1
                else:
                    skipped += 1
        if args.compare and job:
            folder = os.path.join(args.compare, job_metadata(path)["sigmouse.local"])
            if not os.path.exists(os.path.join(folder, "channel.log")):
                print(f"## not compared: the local runner has no boot in {folder}")
                continue
            local = boot_results(folder, (KSELFTEST,))
            found = differences(local, lava, local_only)
            held = [check for suite, cases in local.items() for check in cases
                    if f"{suite}: {check}" not in local_only]
            print(f"## compared with the local runner's {os.path.relpath(folder)}: "
                  f"{len(held)} of its results held against LAVA's (the host channel's "
                  f"{sum(map(len, local.values())) - len(held)} not), {len(found)} differ")
            for suite, check, ours, theirs in found:
                print(f"   differ {suite}/{check}: local {ours}, LAVA {theirs}")
            failed += len(found)
            healthy = healthy and not found
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 0 if healthy and not failed and finished else 1


if __name__ == "__main__":
    sys.exit(main())
