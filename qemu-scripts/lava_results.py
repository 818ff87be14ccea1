#!/usr/bin/env python3
"""lava-run.sh's client of LAVA's REST API (v0.2): submit jobs, wait for
them to finish, print each job's test cases per suite and a closing
"N passed, N failed, N skipped" line. Standard library only.

    lava_results.py --url http://127.0.0.1:18080 --token-file TOKEN
                    [--timeout SECONDS] JOB.yaml...

Exit status: 0 when every job finished Complete and no case failed.
"""

import argparse
import json
import sys
import time
import urllib.error
import urllib.request


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


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--timeout", type=int, default=3600, help="seconds for all jobs")
    parser.add_argument("jobs", nargs="+")
    args = parser.parse_args()
    with open(args.token_file) as f:
        api = Api(args.url, f.read().strip())

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
                if result == "pass":
                    passed += 1
                elif result == "fail":
                    failed += 1
                else:
                    skipped += 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 0 if healthy and not failed and finished else 1


if __name__ == "__main__":
    sys.exit(main())
