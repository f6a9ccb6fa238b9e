#!/usr/bin/python3
"""Driver of bench/batch/cluster: ACCOUNTS accounts registered with xmpp-register batch on a
two-node ejabberd cluster, once with every stream on node 1 and once spread over both nodes.
Prints accounts/s, the CPU per account of each node (utime+stime of its beam.smp from
/proc/PID/stat) and of the client processes (wait4), each node's busy fraction, and a sentence
on what this machine's cores limit. Every run must create exactly its accounts (counted with
ejabberdctl registered_users).

usage: cluster_bench.py BIN_DIR CLUSTER_DIR CAFILE "PORT1 PORT2" "PID1 PID2" ACCOUNTS JOBS WINDOW shards|servers
"""
import os, subprocess, sys, tempfile, time
from common import process_cpu, users, write_users

bin_dir, cluster_dir, cafile, ports, pids, accounts, jobs, window, client_form = sys.argv[1:10]
ports, pids = ports.split(), [int(p) for p in pids.split()]
accounts, jobs = int(accounts), int(jobs)
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
work = tempfile.mkdtemp(prefix="xt-bench-cluster.")
env = dict(os.environ, HOME=work, XDG_STATE_HOME=work + "/state", XDG_CONFIG_HOME=work + "/config")
cores = os.cpu_count() or 1


def batch(csv, servers, stream_count, extra=()):
    argv = [f"{bin_dir}/xmpp-register", "batch", csv, "--jobs", str(stream_count), "--window", window, "-q",
            "--ca-file", cafile, *extra]
    for port in servers:
        argv += ["--server", f"127.0.0.1:{port}"]
    return argv


def one_node(csv):
    return [batch(csv, [ports[0]], jobs)]


def two_nodes(csv):
    """The clients of the two-node run, by XT_BENCH_CLUSTER_CLIENT."""
    half = max(1, jobs // 2)
    return {
        # Two processes, as two machines splitting one CSV would run: each its shard, on its node.
        "shards": [batch(csv, [ports[0]], half, ["--shard", "1/2"]), batch(csv, [ports[1]], half, ["--shard", "2/2"])],
        # One process spreading JOBS streams over both nodes (batch with several --server values).
        "servers": [batch(csv, ports, jobs)],
    }[client_form]


def run_clients(argvs):
    """Starts every argv at once; their CPU seconds (user + system, wait4). Fails on a non-zero exit."""
    children = [subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL) for argv in argvs]
    cpu = 0.0
    for argv, child in zip(argvs, children):
        _, status, usage = os.wait4(child.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"bench: {' '.join(argv[:3])} … failed with {os.waitstatus_to_exitcode(status)}")
        cpu += usage.ru_utime + usage.ru_stime
    return cpu


def machine_cpu():
    """(busy, total) jiffies of all cores from /proc/stat: everything this machine ran, ours or not."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return sum(values) - idle, sum(values)


def registered(prefix, node=1):
    out = subprocess.run([f"{root}/scripts/test-server", "ctl", cluster_dir, "--node", str(node), "registered_users",
                          "localhost"], check=True, capture_output=True, text=True).stdout
    return sum(1 for name in out.split() if name.startswith(prefix))


def measure(name, prefix, clients):
    csv = write_users(work, prefix + ".csv", users(prefix, accounts), header="jid,password")
    argvs = clients(csv)
    before, machine_before = [process_cpu(pid) for pid in pids], machine_cpu()
    start = time.perf_counter()
    client = run_clients(argvs)
    wall = time.perf_counter() - start
    nodes = [process_cpu(pid) - b for pid, b in zip(pids, before)]
    machine_after = machine_cpu()
    machine = (machine_after[0] - machine_before[0]) / max(1, machine_after[1] - machine_before[1]) * 100
    for node in (1, 2):
        made = registered(prefix, node)
        if made != accounts:
            sys.exit(f"bench: {name}: node {node} lists {made} accounts, not {accounts}")
    return {"name": name, "processes": len(argvs), "wall": wall, "rate": accounts / wall, "client": client, "nodes": nodes,
            "machine": machine}


rows = [
    measure(f"node 1 only, 1 client, --jobs {jobs}", "one", one_node),
    measure("both nodes, " + ("2 clients --shard 1/2, 2/2" if client_form == "shards" else f"1 client, --jobs {jobs}"),
            "two", two_nodes),
]

print(f"{'run':<40} {'accounts':>8} {'acct/s':>7} {'wall s':>7} {'client CPU':>11} {'node 1 CPU':>11} {'node 2 CPU':>11}"
      f" {'node 1 busy':>11} {'node 2 busy':>11} {'ours':>5} {'machine':>7}")
for r in rows:
    per = lambda seconds: f"{seconds / accounts * 1000:>8.3f} ms"
    busy = lambda seconds: f"{seconds / r['wall'] * 100:>10.0f}%"
    total = (r["client"] + sum(r["nodes"])) / r["wall"] / cores * 100
    print(f"{r['name']:<40} {accounts:>8} {r['rate']:>7.1f} {r['wall']:>7.2f} {per(r['client'])} {per(r['nodes'][0])} "
          f"{per(r['nodes'][1])} {busy(r['nodes'][0])} {busy(r['nodes'][1])} {total:>4.0f}% {r['machine']:>6.0f}%")
print()
one, two = rows
speedup = two["rate"] / one["rate"]
two_busy = (two["client"] + sum(two["nodes"])) / two["wall"] / cores * 100
print(f"Two nodes: {speedup:.2f}x the accounts/s of one. Per account the nodes together spend "
      f"{sum(one['nodes']) / accounts * 1000:.2f} ms of CPU with one node serving, {sum(two['nodes']) / accounts * 1000:.2f} ms "
      f"with both (node 2 replicates node 1's writes even when it serves nobody); the client "
      f"{one['client'] / accounts * 1000:.2f} / {two['client'] / accounts * 1000:.2f} ms.")
if two["machine"] >= 85:
    print(f"The limit is this machine's {cores} cores: they were {two['machine']:.0f}% busy during the two-node run, "
          f"{two_busy:.0f} points of it this benchmark (both nodes and the client) and the rest other work on the "
          f"machine. Both nodes share these cores, so a second node here can at most take the cores the first left "
          f"idle; on machines of their own each node brings its own cores, while the client stays a small share.")
else:
    print(f"The cores were {two['machine']:.0f}% busy during the two-node run ({two_busy:.0f} points of it this benchmark), "
          f"so the {cores} cores were not the limit: the servers' own pace was (PBKDF2 for each account, in each node's "
          f"schedulers, and the streams' round trips).")
print("busy: the process's CPU time over the wall time (100% = one core). ours: client and both nodes over all "
      f"{cores} cores. machine: every process's CPU over all cores (/proc/stat). Client form: {client_form}.")
