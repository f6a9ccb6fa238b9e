#!/usr/bin/python3
"""Driver of bench/batch/profile: provisions ACCOUNTS accounts with a profile (nickname,
fullname, and one shared avatar image, as a roll-out with a company logo does) with each
contender on the same private Prosody; prints accounts/s, client and server CPU per account.
Every contender must create exactly its accounts and exit 0 (every profile applied).

usage: profile_bench.py BIN_DIR SERVER_DIR PORT CAFILE PID ACCOUNTS PEER_ACCOUNTS JOBS
"""
import os, sys, tempfile
from PIL import Image
from common import Server, child_cpu, print_table

bin_dir, server_dir, port, cafile, pid, accounts, peer_accounts, jobs = sys.argv[1:9]
accounts, peer_accounts = int(accounts), int(peer_accounts)
here = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp(prefix="xt-bench-profile.")
env = dict(os.environ, HOME=work, XDG_STATE_HOME=work + "/state", XDG_CONFIG_HOME=work + "/config")
server = Server(server_dir, pid)

# A 1600x1200 photo-like logo: a gradient with noise, so PNG cannot compress it to nothing.
logo = os.path.join(work, "logo.png")
Image.effect_noise((1600, 1200), 64).convert("RGB").save(logo)


def rows(prefix, n):
    return [(f"{prefix}{i}", f"pw-{prefix}-{i}", f"Nick {i}", f"Person {prefix} {i}") for i in range(n)]


def ours(prefix, n, jobs_):
    csv = os.path.join(work, prefix + ".csv")
    with open(csv, "w", encoding="utf-8") as f:
        f.write("jid,password,nickname,fullname,avatar\n")
        for user, password, nick, full in rows(prefix, n):
            f.write(f"{user}@localhost,{password},{nick},{full},logo.png\n")
    return lambda: child_cpu([f"{bin_dir}/xmpp-register", "batch", csv, "--jobs", str(jobs_), "-q",
                              "--server", f"127.0.0.1:{port}", "--ca-file", cafile], env)


def slix():
    path = os.path.join(work, "slix.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(",".join(r) + "\n" for r in rows("slx", peer_accounts))
    return child_cpu(["/usr/bin/python3", f"{here}/slixmpp_profile.py", path, "localhost", "127.0.0.1", port, cafile,
                      jobs, logo], env)


results = [
    server.measure(f"xmpp-register batch --jobs {jobs}", accounts, ours("xt", accounts, jobs)),
    server.measure("xmpp-register batch --jobs 1", peer_accounts, ours("one", peer_accounts, 1)),
    server.measure(f"slixmpp register+login+vCard+PEP, {jobs} at once", peer_accounts, slix),
]
print_table(results)
print("Each account: registration, a log-in, a vCard with NICKNAME, FN and the 100x100 PNG, and the XEP-0084 avatar. "
      "slixmpp resizes the image once with Pillow before the run; xmpp-register resizes it once per run.")
