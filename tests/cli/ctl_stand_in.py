# ctl_stand_in.py — a stand-in for the harness's control socket (docs/ctl.md), for the tests
# that run a builtin workload on a host tree: it answers every "issue ID", "ack ID" and
# "mark NAME" with "ok 1", records the ids when asked to, and hands each mark to a function.
import os, socket, threading


def start(top, record=None, on_mark=None):
    """Listen on TOP/ctl.sock; return its path. With @record (a dict of lists "issue" and
    "ack"), each id announced is appended to its verb's list; @on_mark(NAME) is called for
    each mark before its answer."""
    sock = os.path.join(top, "ctl.sock")
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(sock)
    srv.listen(4)

    def talk(c):
        for line in c.makefile("rb"):
            verb, arg = line.decode().split()
            try:
                if verb == "mark" and on_mark:
                    on_mark(arg)
                elif verb != "mark" and record is not None:
                    record[verb].append(int(arg))
            except Exception as e:  # refused, as the harness refuses: the workload stops
                c.sendall(f"err the stand-in: {e}\n".encode())
                continue
            c.sendall(b"ok 1\n")

    def serve():
        while True:
            c, _ = srv.accept()
            threading.Thread(target=talk, args=(c,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return sock
