#!/usr/bin/python3
"""Driver of bench/batch/run: provisions ACCOUNTS accounts with each contender on the same
private Prosody and prints accounts/s, client CPU per account (from wait4/getrusage of the
contender's processes) and server CPU per account (utime+stime of the Prosody process from
/proc/PID/stat, before and after). Every contender must create exactly its accounts.

usage: bench.py BIN_DIR SERVER_DIR PORT CAFILE PID ACCOUNTS PEER_ACCOUNTS JOBS WINDOW
"""
import os, resource, subprocess, sys, tempfile
from common import Server, child_cpu, print_table, users, write_users

bin_dir, server_dir, port, cafile, pid, accounts, peer_accounts, jobs, window = sys.argv[1:10]
accounts, peer_accounts = int(accounts), int(peer_accounts)
here = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp(prefix="xt-bench-batch.")
env = dict(os.environ, HOME=work, XDG_STATE_HOME=work + "/state", XDG_CONFIG_HOME=work + "/config")
server = Server(server_dir, pid)


def ours():
    csv = write_users(work, "ours.csv", users("xt", accounts), header="jid,password")
    return child_cpu([f"{bin_dir}/xmpp-register", "batch", csv, "--jobs", jobs, "--window", window, "-q",
                      "--server", f"127.0.0.1:{port}", "--ca-file", cafile], env)


def raw():
    path = write_users(work, "raw.txt", users("raw", peer_accounts))
    return child_cpu(["/usr/bin/python3", f"{here}/raw_register.py", path, "localhost", "127.0.0.1", port, cafile, jobs, window], env)


def slix():
    path = write_users(work, "slix.txt", users("slx", peer_accounts))
    return child_cpu(["/usr/bin/python3", f"{here}/slixmpp_register.py", path, "localhost", "127.0.0.1", port, cafile, jobs], env)


def prosodyctl():
    config = os.path.join(server_dir, "prosody.cfg.lua")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for user, password in users("ctl", peer_accounts):
        subprocess.run(["prosodyctl", "--config", config, "register", user, "localhost", password],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


rows = [
    server.measure(f"xmpp-register batch --jobs {jobs}", accounts, ours),
    server.measure(f"python asyncio, same plan ({jobs} streams)", peer_accounts, raw),
    server.measure(f"slixmpp, 1 conn/account, {jobs} at once", peer_accounts, slix),
    server.measure("prosodyctl register, loop", peer_accounts, prosodyctl),
]
print_table(rows)
print("client/server: the contender's CPU per account over Prosody's. server busy: Prosody's CPU time over the wall "
      "time (100% = the server is the only limit). prosodyctl writes the data files without the server, so its "
      "client CPU is the whole cost.")
