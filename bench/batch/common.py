"""What bench/batch's drivers share: CPU accounting of the contenders and of Prosody, and
counting the accounts each contender really created."""
import os, subprocess, sys, time

TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid):
    """CPU seconds (user + system) process PID has used so far, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


class Server:
    """The private Prosody: its process (for CPU) and its account files (for counting)."""

    def __init__(self, server_dir, pid):
        self.pid = int(pid)
        self.accounts_dir = os.path.join(server_dir, "data", "localhost", "accounts")

    def cpu(self):
        return process_cpu(self.pid)

    def account_count(self):
        d = self.accounts_dir
        return sum(1 for n in os.listdir(d) if n.endswith(".dat")) if os.path.isdir(d) else 0

    def measure(self, name, n, run):
        """Runs `run()` (which returns the children's CPU seconds) and checks n accounts appeared."""
        before_accounts, before_server = self.account_count(), self.cpu()
        start = time.perf_counter()
        client = run()
        wall = time.perf_counter() - start
        server = self.cpu() - before_server
        made = self.account_count() - before_accounts
        if made != n:
            sys.exit(f"bench: {name} created {made} accounts, not {n}")
        return {"name": name, "n": n, "wall": wall, "rate": n / wall, "client_ms": client / n * 1000,
                "server_ms": server / n * 1000}


def child_cpu(argv, env):
    """Runs argv; its CPU seconds (user + system) from wait4. Fails on a non-zero exit."""
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"bench: {' '.join(argv[:3])} … failed with {code}")
    return usage.ru_utime + usage.ru_stime


def print_table(rows):
    print(f"{'contender':<46} {'accounts':>8} {'acct/s':>8} {'wall s':>7} {'client CPU':>11} {'server CPU':>11} "
          f"{'client/server':>13} {'server busy':>11}")
    for r in rows:
        ratio = f"{r['client_ms'] / r['server_ms']:.3f}" if r["server_ms"] >= 0.05 else "n/a"
        print(f"{r['name']:<46} {r['n']:>8} {r['rate']:>8.1f} {r['wall']:>7.2f} {r['client_ms']:>8.3f} ms "
              f"{r['server_ms']:>8.3f} ms {ratio:>13} {r['server_ms'] * r['n'] / 1000 / r['wall'] * 100:>10.0f}%")
    print()
    for r in rows[1:]:
        print(f"{rows[0]['name']} vs {r['name']}: {rows[0]['rate'] / r['rate']:.1f}x the accounts/s")


def users(prefix, n):
    """n fresh (user, password) pairs."""
    return [(f"{prefix}{i}", f"pw-{prefix}-{i}") for i in range(n)]


def write_users(work, name, rows, header=None):
    """Writes rows to WORK/NAME: a CSV with `header` (user@localhost,password), else user,password lines."""
    path = os.path.join(work, name)
    with open(path, "w", encoding="utf-8") as f:
        if header:
            f.write(header + "\n")
        for user, password in rows:
            f.write(f"{user}@localhost,{password}\n" if header else f"{user},{password}\n")
    return path
