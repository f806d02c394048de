# ctl_stand_in.py — a stand-in for the harness's control socket (docs/ctl.md), for the tests
# that run a builtin workload on a host tree: it answers every "issue ID" and "ack ID" with
# "ok 1", and records the ids when asked to.
import os, socket, threading


def start(top, record=None):
    """Listen on TOP/ctl.sock; return its path. With @record (a dict of lists "issue" and
    "ack"), each id announced is appended to its verb's list."""
    sock = os.path.join(top, "ctl.sock")
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(sock)
    srv.listen(4)

    def talk(c):
        for line in c.makefile("rb"):
            if record is not None:
                verb, n = line.decode().split()
                record[verb].append(int(n))
            c.sendall(b"ok 1\n")

    def serve():
        while True:
            c, _ = srv.accept()
            threading.Thread(target=talk, args=(c,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return sock
