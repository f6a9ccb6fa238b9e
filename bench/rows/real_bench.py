#!/usr/bin/python3
"""Driver of bench/rows/real: real `xmpp-register batch --admin` runs of growing size on the
two-node ejabberd cluster (both nodes given, fresh accounts each time), then the raw pipelined
client (bench/batch/raw_admin.py, one process per node) at the largest size. Each run's wall
time and peak RSS come from wait4 (the largest of the raw client's two processes, and their
sum); every account must be on the server afterwards (ejabberdctl registered_users).

usage: real_bench.py BIN_DIR SERVER_DIR PORT1 PORT2 CAFILE ADMIN_PASSWORD JOBS WINDOW ROWS...
"""
import os, subprocess, sys, tempfile, time

bin_dir, server_dir, port1, port2, cafile, admin_password, jobs, window = sys.argv[1:9]
sizes = [int(n) for n in sys.argv[9:]]
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
work = tempfile.mkdtemp(prefix="xt-bench-real.")
env = dict(os.environ, HOME=work, XDG_STATE_HOME=work + "/state", XDG_CONFIG_HOME=work + "/config")
servers = ["--server", f"127.0.0.1:{port1}", "--server", f"127.0.0.1:{port2}", "--ca-file", cafile]


def account_count():
    out = subprocess.run([f"{root}/scripts/test-server", "ctl", server_dir, "registered_users", "localhost"],
                         check=True, capture_output=True, text=True).stdout
    return len(out.split())


def run_all(argvs):
    """Starts every argv at once; wall seconds, and each one's peak RSS in MB (wait4)."""
    start = time.perf_counter()
    children = [subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL) for argv in argvs]
    peaks = []
    for child in children:
        _, status, usage = os.wait4(child.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"bench: {' '.join(child.args[:3])} … failed with {os.waitstatus_to_exitcode(status)}")
        peaks.append(usage.ru_maxrss / 1024)
    return time.perf_counter() - start, peaks


def ours(prefix, n):
    csv = os.path.join(work, f"{prefix}.csv")
    with open(csv, "w") as f:
        f.write("username,password\n")
        for i in range(n):
            f.write(f"{prefix}{i},pw-{prefix}-{i}\n")
    return [[f"{bin_dir}/xmpp-register", "batch", csv, "--domain", "localhost", "--admin", "-a", "boss@localhost",
             "--jobs", jobs, "--window", window, "-q", "--report", os.path.join(work, f"{prefix}-report.csv")] + servers]


def raw(prefix, n):
    argvs = []
    for k, port in enumerate([port1, port2]):
        path = os.path.join(work, f"{prefix}{k}.txt")
        with open(path, "w") as f:
            for i in range(k, n, 2):
                f.write(f"{prefix}{i},pw-{prefix}-{i}\n")
        argvs.append(["/usr/bin/python3", f"{root}/bench/batch/raw_admin.py", path, "localhost", "127.0.0.1", port, cafile,
                      "boss", admin_password, str(max(1, int(jobs) // 2)), window])
    return argvs


def measure(name, prefix, n, make):
    before = account_count()
    wall, peaks = run_all(make(prefix, n))
    made = account_count() - before
    if made != n:
        sys.exit(f"bench: {name} created {made} accounts, not {n}")
    rss = f"{max(peaks):.1f}" + (f" (sum {sum(peaks):.1f})" if len(peaks) > 1 else "")
    line = f"{name:<34} {n:>9,} {n / wall:>8.1f} {wall:>8.1f}  {rss}"
    print(line, flush=True)
    return n, wall, max(peaks)


subprocess.run([f"{bin_dir}/xmpp-login", "boss@localhost", "--password-stdin", "-q", "--server", f"127.0.0.1:{port1}",
                "--ca-file", cafile], env=env, input=admin_password + "\n", text=True, check=True)
print(f"{'run':<34} {'accounts':>9} {'acct/s':>8} {'wall s':>8}  peak RSS MB")
results = [measure("xmpp-register batch --admin", f"r{n}x", n, ours) for n in sizes]
if os.environ.get("XT_BENCH_RAW", "1") != "0":
    measure("raw asyncio add-user, 2 processes", f"w{sizes[-1]}x", sizes[-1], raw)
(n0, w0, r0), (n1, w1, r1) = results[0], results[-1]
if len(results) > 1:
    print(f"growth {n0:,} → {n1:,} rows: time ×{w1 / w0:.1f}, peak RSS {r0:.1f} → {r1:.1f} MB ({r1 - r0:+.1f} MB)")
