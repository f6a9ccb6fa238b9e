#!/usr/bin/python3
"""Driver of bench/batch/admin: provisions ACCOUNTS accounts through the administrator's
XEP-0133 add-user with xmpp-register batch --admin and with a raw pipelined asyncio client
sending the same commands, ACCOUNTS by in-band registration (xmpp-register batch), and
CTL_ACCOUNTS with the server's control tool in a loop (prosodyctl / ejabberdctl register; its
rate is per call, so a short loop extrapolates). Prints accounts/s, client CPU per account
(wait4/getrusage of the contender's processes) against the server's (utime+stime of the
server process from /proc/PID/stat), and the ratios the goals are stated in.

usage: admin_bench.py KIND BIN_DIR SERVER_DIR PORT CAFILE PID ADMIN_PASSWORD ACCOUNTS CTL_ACCOUNTS JOBS WINDOW
"""
import os, resource, subprocess, sys, tempfile
from common import Server, child_cpu, print_table, users, write_users

kind, bin_dir, server_dir, port, cafile, pid, admin_password, accounts, ctl_accounts, jobs, window = sys.argv[1:12]
accounts, ctl_accounts = int(accounts), int(ctl_accounts)
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
work = tempfile.mkdtemp(prefix="xt-bench-admin.")
env = dict(os.environ, HOME=work, XDG_STATE_HOME=work + "/state", XDG_CONFIG_HOME=work + "/config")
server_args = ["--server", f"127.0.0.1:{port}", "--ca-file", cafile]


def ctl(*args):
    return subprocess.run([f"{root}/scripts/test-server", "ctl", server_dir, *args], check=True,
                          capture_output=True, text=True).stdout


class EjabberdServer(Server):
    """ejabberd keeps its accounts in Mnesia: counted with ejabberdctl (outside the timed part)."""

    def account_count(self):
        return len(ctl("registered_users", "localhost").split())


server = EjabberdServer(server_dir, pid) if kind.startswith("ejabberd") else Server(server_dir, pid)


def admin_batch():
    csv = write_users(work, "admin.csv", users("adm", accounts), header="jid,password")
    return child_cpu([f"{bin_dir}/xmpp-register", "batch", csv, "--admin", "-a", "boss@localhost", "--jobs", jobs,
                      "--window", window, "-q"] + server_args, env)


def raw_admin():
    path = write_users(work, "raw.txt", users("raw", accounts))
    return child_cpu(["/usr/bin/python3", f"{here}/raw_admin.py", path, "localhost", "127.0.0.1", port, cafile, "boss",
                      admin_password, jobs, window], env)


def in_band():
    csv = write_users(work, "inband.csv", users("ibr", accounts), header="jid,password")
    return child_cpu([f"{bin_dir}/xmpp-register", "batch", csv, "--jobs", jobs, "--window", window, "-q"] + server_args, env)


def ctl_loop():
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for user, password in users("ctl", ctl_accounts):
        ctl("register", user, "localhost", password)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


subprocess.run([f"{bin_dir}/xmpp-login", "boss@localhost", "--password-stdin", "-q"] + server_args, env=env,
               input=admin_password + "\n", text=True, check=True)
tool = "ejabberdctl" if kind.startswith("ejabberd") else "prosodyctl"
rows = [
    server.measure(f"xmpp-register batch --admin --jobs {jobs}", accounts, admin_batch),
    server.measure(f"raw asyncio add-user, same plan ({jobs} streams)", accounts, raw_admin),
    server.measure(f"xmpp-register batch (in-band) --jobs {jobs}", accounts, in_band),
    server.measure(f"{tool} register, loop of {ctl_accounts}", ctl_accounts, ctl_loop),
]
print_table(rows)
ours, raw = rows[0], rows[1]
print(f"goal: --admin at >= 0.85x the raw client's rate: {ours['rate'] / raw['rate']:.2f}x; "
      f"client CPU under 5% of the server's: {ours['client_ms'] / ours['server_ms'] * 100:.1f}%")
print(f"{tool} per call: {rows[3]['wall'] / ctl_accounts:.2f} s, so {accounts} accounts would take "
      f"{rows[3]['wall'] / ctl_accounts * accounts:.0f} s (extrapolated from {ctl_accounts}).")
