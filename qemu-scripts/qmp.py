"""A small QMP client: commands, HMP passthrough, and buffered events."""

import json
import socket
import time


class QMPError(Exception):
    pass


def connect_unix(path, timeout=30.0, alive=lambda: True):
    """Connect to a socket QEMU listens on, retrying until it does, the
    timeout passes, or alive() says QEMU is gone."""
    deadline = time.monotonic() + timeout
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > deadline or not alive():
                raise QMPError(f"QEMU did not open {path}")
            time.sleep(0.05)


class QMP:
    def __init__(self, path, timeout=30.0):
        """Connect to QEMU's QMP socket at path, retrying until QEMU listens."""
        self.sock = connect_unix(path, timeout)
        self.sock.settimeout(timeout)
        self.file = self.sock.makefile("rwb", buffering=0)
        self.events = []
        self._read()  # the greeting
        self.execute("qmp_capabilities")

    def _read(self):
        line = self.file.readline()
        if not line:
            raise QMPError("QMP connection closed")
        return json.loads(line)

    def execute(self, command, **arguments):
        request = {"execute": command}
        if arguments:
            request["arguments"] = arguments
        self.file.write(json.dumps(request).encode() + b"\n")
        while True:
            reply = self._read()
            if "event" in reply:
                self.events.append(reply)
            elif "error" in reply:
                raise QMPError(f"{command}: {reply['error'].get('desc')}")
            elif "return" in reply:
                return reply["return"]

    def hmp(self, command_line):
        return self.execute("human-monitor-command", **{"command-line": command_line})

    def wait_event(self, name, timeout=30.0, match=None):
        """Wait for event name (whose data matches match, if given)."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event["event"] == name and (match is None or match(event.get("data", {}))):
                    self.events.remove(event)
                    return event
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise QMPError(f"no {name} event in {timeout} s")
            self.sock.settimeout(remaining)
            try:
                reply = self._read()
            except socket.timeout:
                continue
            if "event" in reply:
                self.events.append(reply)

    def close(self):
        self.sock.close()
