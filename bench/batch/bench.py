#!/usr/bin/python3
"""Driver of bench/batch/run: provisions ACCOUNTS accounts with each contender on the same
private Prosody and prints accounts/s, client CPU per account (from wait4/getrusage of the
contender's processes) and server CPU per account (utime+stime of the Prosody process from
/proc/PID/stat, before and after). Every contender must create exactly its accounts.

usage: bench.py BIN_DIR SERVER_DIR PORT CAFILE PID ACCOUNTS PEER_ACCOUNTS JOBS WINDOW
"""
import os, resource, subprocess, sys, tempfile, time

bin_dir, server_dir, port, cafile, pid, accounts, peer_accounts, jobs, window = sys.argv[1:10]
accounts, peer_accounts, pid = int(accounts), int(peer_accounts), int(pid)
here = os.path.dirname(os.path.abspath(__file__))
tick = os.sysconf("SC_CLK_TCK")
work = tempfile.mkdtemp(prefix="xt-bench-batch.")
accounts_dir = os.path.join(server_dir, "data", "localhost", "accounts")
env = dict(os.environ, HOME=work, XDG_STATE_HOME=work + "/state", XDG_CONFIG_HOME=work + "/config")


def server_cpu():
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick  # utime, stime (fields 14, 15)


def account_count():
    return sum(1 for n in os.listdir(accounts_dir) if n.endswith(".dat")) if os.path.isdir(accounts_dir) else 0


def users(prefix, n):
    return [(f"{prefix}{i}", f"pw-{prefix}-{i}") for i in range(n)]


def measure(name, n, run):
    """Runs `run()` (which returns the children's CPU seconds) and checks n accounts appeared."""
    before_accounts, before_server = account_count(), server_cpu()
    start = time.perf_counter()
    client = run()
    wall = time.perf_counter() - start
    server = server_cpu() - before_server
    made = account_count() - before_accounts
    if made != n:
        sys.exit(f"bench: {name} created {made} accounts, not {n}")
    return {"name": name, "n": n, "wall": wall, "rate": n / wall, "client_ms": client / n * 1000, "server_ms": server / n * 1000}


def child_cpu(argv, **kw):
    """Runs argv; its CPU seconds (user + system) from wait4. Fails on a non-zero exit."""
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, **kw)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(argv[:3])} … failed with {p.returncode}")
    return usage.ru_utime + usage.ru_stime


def write_users(name, rows, header=None):
    path = os.path.join(work, name)
    with open(path, "w", encoding="utf-8") as f:
        if header:
            f.write(header + "\n")
        for user, password in rows:
            f.write(f"{user}@localhost,{password}\n" if header else f"{user},{password}\n")
    return path


def ours():
    csv = write_users("ours.csv", users("xt", accounts), header="jid,password")
    return child_cpu([f"{bin_dir}/xmpp-register", "batch", csv, "--jobs", jobs, "--window", window, "-q",
                      "--server", f"127.0.0.1:{port}", "--ca-file", cafile])


def raw():
    path = write_users("raw.txt", users("raw", peer_accounts))
    return child_cpu(["/usr/bin/python3", f"{here}/raw_register.py", path, "localhost", "127.0.0.1", port, cafile, jobs, window])


def slix():
    path = write_users("slix.txt", users("slx", peer_accounts))
    return child_cpu(["/usr/bin/python3", f"{here}/slixmpp_register.py", path, "localhost", "127.0.0.1", port, cafile, jobs])


def prosodyctl():
    config = os.path.join(server_dir, "prosody.cfg.lua")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for user, password in users("ctl", peer_accounts):
        subprocess.run(["prosodyctl", "--config", config, "register", user, "localhost", password],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


rows = [
    measure(f"xmpp-register batch --jobs {jobs}", accounts, ours),
    measure(f"python asyncio, same plan ({jobs} streams)", peer_accounts, raw),
    measure(f"slixmpp, 1 conn/account, {jobs} at once", peer_accounts, slix),
    measure("prosodyctl register, loop", peer_accounts, prosodyctl),
]
print(f"{'contender':<42} {'accounts':>8} {'acct/s':>8} {'wall s':>7} {'client CPU':>11} {'server CPU':>11} {'client/server':>13} {'server busy':>11}")
for r in rows:
    ratio = f"{r['client_ms'] / r['server_ms']:.3f}" if r["server_ms"] >= 0.05 else "n/a"
    print(f"{r['name']:<42} {r['n']:>8} {r['rate']:>8.1f} {r['wall']:>7.2f} {r['client_ms']:>8.3f} ms {r['server_ms']:>8.3f} ms "
          f"{ratio:>13} {r['server_ms'] * r['n'] / 1000 / r['wall'] * 100:>10.0f}%")
print()
for r in rows[1:]:
    print(f"xmpp-register batch vs {r['name']}: {rows[0]['rate'] / r['rate']:.1f}x the accounts/s")
print("client/server: the contender's CPU per account over Prosody's. server busy: Prosody's CPU time over the wall "
      "time (100% = the server is the only limit). prosodyctl writes the data files without the server, so its "
      "client CPU is the whole cost.")
