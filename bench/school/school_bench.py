#!/usr/bin/python3
"""Driver of bench/school, on one server kind at its default configuration: two private
instances (scripts/test-server start KIND --defaults --admin boss), one for xmpp-register, one for
the raw client, so neither finds the other's rosters.

ours, instance 1 (every run `xmpp-register batch --admin --generate-passwords --report`):
  accounts     the school without its roster columns: accounts, nicknames, full names
  rosters      the whole CSV again: the accounts exist, so this is the roster phase
  one more     the CSV with one more pupil in class 1: its account and every roster it changes
  no change    the same CSV again
  Beside "rosters", another account logs in with xmpp-login in a loop: the longest log-in and
  whether every one succeeded say whether the server still serves others.
raw, instance 2: the accounts made the same way (not timed), then raw_roster.py: the same roster
work with the fewest stanzas (three per account and contact, nothing read back).
Columns: wall time, client CPU (wait4 of the contender) and server CPU (utime+stime of the
server's process from /proc/PID/stat over the step).

sync, instance 3 (every run `xmpp-register sync --admin --report`; XT_BENCH_SYNC=0 leaves it out):
  sync: accounts     the school without its roster columns, as the first sync of an empty state
  sync: rosters      the whole CSV: the roster phase (with XT_BENCH_SEED=1 on Prosody, the rosters
                     are seeded instead, and sync's state is told so, as a finished sync leaves it)
  sync: no change    the whole CSV again, refreshed (the default): the server is read (which accounts
                     exist, a log-in as each that reads its roster), the plan is empty, nothing is
                     sent; an account outside the school logs in every second meanwhile
  sync: no refresh   the same with --no-refresh: the plan from sync's state alone, no connection
  sync: one pupil    the CSV with one more pupil in class 1: its account, its roster, its class's
                     and the teachers'
XT_BENCH_ONLY=sync runs only the sync rows.

shared groups, instance 4 (XT_BENCH_SHARED=1, or XT_BENCH_ONLY=shared for these rows alone):
  shared: accounts   the whole CSV with `batch --admin --generate-passwords --shared-groups`: the
                     accounts and profiles, no per-account roster phase
  shared: groups     `xmpp-register shared-groups CSV --for KIND` and loading it as the operator's
                     guide says: Prosody's groups file, then a restart (mod_groups and groups_file
                     were added to the config before); ejabberd's script of ejabberdctl calls
  shared: school     the two together: the whole school, rosters included, by the server's groups

sync with shared groups, instance 5 (with XT_BENCH_SHARED=1, or XT_BENCH_ONLY=sync-shared alone):
  sync shared: school          `sync --rosters shared` of the whole CSV, the first sync: the accounts
                               and profiles, and the server's groups through its admin interface
  sync shared: one pupil       one more pupil, refreshed (the default: every account read first)
  sync shared: no refresh      another pupil with --no-refresh (the plan from sync's state)
  A teacher's `xmpp-roster watch` is logged in from before the second: whether it kept its stream.

With XT_BENCH_SEED=1 (Prosody kinds only), the rosters are written as Prosody's roster files
once the accounts exist (every pair `both`, as a finished roster phase leaves them), and
"rosters" is the batch finding them in place; the re-run figures then need no hour-long roster
phase first on a loaded machine. XT_BENCH_RAW=0 leaves out the raw client.

usage: school_bench.py KIND BIN_DIR CLASSES PUPILS TEACHERS JOBS
"""
import csv, os, subprocess, sys, tempfile, threading, time

kind, bin_dir, classes, pupils, teachers, jobs = sys.argv[1:7]
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "bench", "batch"))
from common import process_cpu  # noqa: E402
from school_csv import school_rosters  # noqa: E402

work = tempfile.mkdtemp(prefix="xt-bench-school.")
env = dict(os.environ, HOME=work, XDG_STATE_HOME=work + "/state", XDG_CONFIG_HOME=work + "/config")


def sh(*argv, **kw):
    return subprocess.run(argv, check=True, capture_output=True, text=True, **kw).stdout


def start_server():
    out = sh(f"{root}/scripts/test-server", "start", kind, "--defaults", "--admin", "boss")
    values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    values = {k: v.strip("'") for k, v in values.items()}
    password = f"boss-{os.getpid()}-{time.time_ns()}"
    values["password"] = password
    sh(f"{root}/scripts/test-server", "ctl", values["XT_DIR"], "register", "boss", "localhost", password)
    subprocess.run([f"{bin_dir}/xmpp-login", "boss@localhost", "--password-stdin", "-q", "--server",
                    f"127.0.0.1:{values['XT_PORT']}", "--ca-file", values["XT_CA_FILE"]],
                   env=env, input=password + "\n", text=True, check=True)
    return values


def csv_file(name, extra=0, rosters=True):
    path = os.path.join(work, name)
    sh("/usr/bin/python3", f"{here}/gen_school.py", path, classes, pupils, teachers, "localhost", str(extra))
    if not rosters:  # the same rows without their groups and contacts columns
        with open(path, encoding="utf-8", newline="") as f:
            records = list(csv.reader(f))
        with open(path, "w", encoding="utf-8", newline="") as f:
            csv.writer(f, lineterminator="\r\n").writerows(r[:3] for r in records)
    return path


def seed_prosody(server, path):
    """Writes every account's finished roster as Prosody's roster file (the server is stopped meanwhile)."""
    def lua(text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def file_name(user):
        return "".join(c if c.isalnum() else "%%%02x" % ord(c) for c in user) + ".dat"
    sh(f"{root}/scripts/test-server", "stop", server["XT_DIR"])
    roster_dir = os.path.join(server["XT_DIR"], "data", "localhost", "roster")
    os.makedirs(roster_dir, exist_ok=True)
    for jid, contacts in school_rosters(path).items():
        parts = ['return {\n\t[false] = {\n\t\t["version"] = 1;\n\t\t["pending"] = {};\n\t};\n']
        for other, row in contacts.items():
            parts.append(f'\t[{lua(other)}] = {{\n\t\t["groups"] = {{\n\t\t\t[{lua(row["groups"])}] = true;\n\t\t}};\n'
                         f'\t\t["name"] = {lua(row["fullname"])};\n\t\t["subscription"] = "both";\n\t}};\n')
        parts.append("};\n")
        with open(os.path.join(roster_dir, file_name(jid.split("@")[0])), "w", encoding="utf-8") as f:
            f.write("".join(parts))
    out = sh(f"{root}/scripts/test-server", "start", kind, "--dir", server["XT_DIR"])
    server.update({k: v.strip("'") for k, v in (line.split("=", 1) for line in out.splitlines() if "=" in line)})


def step(server, argv, name, stdin=None):
    """Runs argv (stdin: text for its standard input); returns (wall, client CPU, server CPU, exit status)."""
    before = process_cpu(server["XT_PID"])
    start = time.perf_counter()
    p = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if stdin:
        p.stdin.write(stdin)
        p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    err = p.stderr.read()
    code = os.waitstatus_to_exitcode(status)
    if code != 0 and not (code == 13 and (name.startswith("sync") or name.endswith("groups"))):  # 13: changes made
        print(f"bench: {name} exited {code}: {err.strip()[-2000:]}", file=sys.stderr)
    return wall, usage.ru_utime + usage.ru_stime, process_cpu(server["XT_PID"]) - before, code


def batch(server, csv, report):
    return [f"{bin_dir}/xmpp-register", "-a", "boss@localhost", "batch", csv, "--admin", "--generate-passwords",
            "--report", report, "--jobs", jobs, "-q", "--server", f"127.0.0.1:{server['XT_PORT']}",
            "--ca-file", server["XT_CA_FILE"]]


def sync(server, csv, report, *extra):
    return [f"{bin_dir}/xmpp-register", "-a", "boss@localhost", "sync", csv, "--admin", "--report", report, *extra,
            "--jobs", jobs, "-q", "--server", f"127.0.0.1:{server['XT_PORT']}", "--ca-file", server["XT_CA_FILE"]]


def seed_sync_state(path):
    """Tells sync's state that every roster of the school is made, as a finished sync records it."""
    import json
    state_file = os.path.join(work, "state", "xmpp-tools", "sync", "localhost.json")
    with open(state_file, encoding="utf-8") as f:
        state = json.load(f)
    for jid, contacts in school_rosters(path).items():
        state["accounts"][jid]["contacts"] = [{"jid": other, "name": row["fullname"], "groups": [row["groups"]]}
                                              for other, row in contacts.items()]
    with open(state_file, "w", encoding="utf-8") as f:
        json.dump(state, f)


class LoginProbe(threading.Thread):
    """Logs an account outside the school in with xmpp-login, again and again, until stopped."""

    def __init__(self, server, user="probe"):
        super().__init__(daemon=True)
        self.server, self.times, self.failures, self.stop = server, [], 0, threading.Event()
        self.password, self.user = "probe-password-1", user
        sh(f"{root}/scripts/test-server", "ctl", server["XT_DIR"], "register", user, "localhost", self.password)
        self.env = dict(env, HOME=f"{work}/{user}", XDG_STATE_HOME=f"{work}/{user}/state", XDG_CONFIG_HOME=f"{work}/{user}/config")

    def run(self):
        while not self.stop.is_set():
            start = time.perf_counter()
            r = subprocess.run([f"{bin_dir}/xmpp-login", f"{self.user}@localhost", "--password-stdin", "-q",
                                "--server", f"127.0.0.1:{self.server['XT_PORT']}", "--ca-file", self.server["XT_CA_FILE"]],
                               env=self.env, input=self.password + "\n", text=True, capture_output=True)
            self.times.append(time.perf_counter() - start)
            if r.returncode != 0:
                self.failures += 1
            self.stop.wait(1)


def groups_interface(server, api_auth=("--ca-file", None, "-a", "boss@localhost")):
    """How `--apply` or `sync --rosters shared` reaches the server's groups, and the text for its
    standard input (ejabberd's API wants the administrator's password). Prosody's config is given
    mod_groups and groups_file first, and the server restarted, as the operator's guide asks once."""
    if kind.startswith("prosody"):
        config = os.path.join(server["XT_DIR"], "prosody.cfg.lua")
        groups = os.path.join(server["XT_DIR"], "groups.txt")
        open(groups, "w").close()
        with open(config, encoding="utf-8") as f:
            text = f.read()
        text = text.replace("modules_enabled = {", 'modules_enabled = {\n  "groups";', 1)
        text = text.replace('VirtualHost "localhost"', f'groups_file = "{groups}"\nVirtualHost "localhost"', 1)
        with open(config, "w", encoding="utf-8") as f:
            f.write(text)
        out = sh(f"{root}/scripts/test-server", "restart", server["XT_DIR"])
        server.update({k: v.strip("'") for k, v in (line.split("=", 1) for line in out.splitlines() if "=" in line)})
        return ["--for", "prosody", "--groups-file", groups, "--prosodyctl", f"{root}/scripts/test-server ctl {server['XT_DIR']}"], None
    # The packaged api_permissions: loopback and the administrator, whose password is given.
    auth = [server["XT_CA_FILE"] if a is None else a for a in api_auth]  # sync gives its own --ca-file and -a
    return (["--for", "ejabberd", "--api", server["XT_API_URL"], *auth, "--password-stdin"],
            server["password"] + "\n")


def sync_shared_rows():
    """The school through `sync --rosters shared` (instance 5): the first sync makes the accounts
    and the server's groups; then one more pupil, refreshed (the default) and with --no-refresh.
    A teacher's `xmpp-roster watch` stays logged in from before the second: whether its stream survived."""
    server = start_server()
    try:
        interface, password = groups_interface(server, api_auth=())
        report = os.path.join(work, "sync-shared-report.csv")
        school = csv_file("sync-shared-school.csv")
        first = step(server, sync(server, school, report, "--rosters", "shared", *interface), "sync shared school", stdin=password)
        with open(school, encoding="utf-8", newline="") as f:
            teacher = next(r for r in csv.DictReader(f) if r["groups"] == "Teachers")["jid"]
        with open(report, encoding="utf-8", newline="") as f:
            secret = next(r for r in csv.DictReader(f) if r["jid"] == teacher)["password"]
        home = f"{work}/watcher"
        watch_env = dict(env, HOME=home, XDG_STATE_HOME=f"{home}/state", XDG_CONFIG_HOME=f"{home}/config")
        target = ["--server", f"127.0.0.1:{server['XT_PORT']}", "--ca-file", server["XT_CA_FILE"]]
        subprocess.run([f"{bin_dir}/xmpp-login", teacher, "--password-stdin", "-q", *target], env=watch_env, input=secret + "\n",
                       text=True, check=True, capture_output=True)
        watch = subprocess.Popen([f"{bin_dir}/xmpp-roster", "watch", "-a", teacher, *target], env=watch_env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(2)
        more = step(server, sync(server, csv_file("sync-shared-more.csv", extra=1), report, "--rosters", "shared", *interface),
                    "sync shared one pupil", stdin=password)
        again = step(server, sync(server, csv_file("sync-shared-more2.csv", extra=2), report, "--rosters", "shared", "--no-refresh",
                                  *interface), "sync shared one pupil no refresh", stdin=password)
        alive = watch.poll() is None
        watch.terminate()
        err = watch.communicate()[1]
        kept = alive and "connection lost" not in err and "reconnect" not in err
        print(f"bench: sync shared: the teacher's watch {'kept its session' if kept else 'lost its session: ' + err.strip()[-300:]}",
              file=sys.stderr)
        return [("sync shared: school", *first), ("sync shared: one pupil", *more), ("sync shared: no refresh", *again)]
    finally:
        sh(f"{root}/scripts/test-server", "stop", server["XT_DIR"])


def shared_groups_rows():
    """The school through the server's shared roster groups (instance 4), kept by `shared-groups
    --apply` through the server's own admin interface (ejabberd's HTTP API, Prosody's groups file
    and admin shell), then one more pupil the same way."""
    server = start_server()
    try:
        school = csv_file("shared-school.csv")
        report = os.path.join(work, "shared-report.csv")
        accounts = step(server, batch(server, school, report) + ["--shared-groups"], "shared accounts")
        interface, password = groups_interface(server)

        def apply(csv_path):
            return [f"{bin_dir}/xmpp-register", "shared-groups", csv_path, "--domain", "localhost", "--apply", "-q"] + interface
        groups_step = step(server, apply(school), "shared groups", stdin=password)
        more = csv_file("shared-more.csv", extra=1)
        more_accounts = step(server, batch(server, more, report) + ["--shared-groups"], "shared more accounts")
        more_groups = step(server, apply(more), "shared more groups", stdin=password)
        return [("shared: accounts", *accounts), ("shared: groups (--apply)", *groups_step),
                ("shared: school", accounts[0] + groups_step[0], accounts[1] + groups_step[1], accounts[2] + groups_step[2],
                 accounts[3] or (groups_step[3] if groups_step[3] != 13 else 0)),
                ("shared: one more pupil", more_accounts[0] + more_groups[0], more_accounts[1] + more_groups[1],
                 more_accounts[2] + more_groups[2], more_accounts[3] or (more_groups[3] if more_groups[3] != 13 else 0))]
    finally:
        sh(f"{root}/scripts/test-server", "stop", server["XT_DIR"])


def api_roster_rows():
    """ejabberd only (XT_BENCH_ONLY=api-roster): the accounts made by batch (not timed), then every
    roster of the school written by the administrator through the HTTP API's add_rosteritem
    (api_roster.py), while the report's first account (a teacher) is logged in with `xmpp-roster watch`: how many
    roster pushes and presences it saw (the six-stanza path gives it both for every classmate)."""
    server = start_server()
    try:
        report = os.path.join(work, "api-report.csv")
        school = csv_file("api-school.csv")
        step(server, batch(server, csv_file("api-accounts.csv", rosters=False), report), "api accounts")
        with open(report, encoding="utf-8", newline="") as f:
            first = next(csv.DictReader(f))
        home = f"{work}/apiwatcher"
        watch_env = dict(env, HOME=home, XDG_STATE_HOME=f"{home}/state", XDG_CONFIG_HOME=f"{home}/config")
        target = ["--server", f"127.0.0.1:{server['XT_PORT']}", "--ca-file", server["XT_CA_FILE"]]
        subprocess.run([f"{bin_dir}/xmpp-login", first["jid"], "--password-stdin", "-q", *target], env=watch_env,
                       input=first["password"] + "\n", text=True, check=True, capture_output=True)
        watched = open(os.path.join(work, "api-watch.out"), "w+", encoding="utf-8")
        watch = subprocess.Popen([f"{bin_dir}/xmpp-roster", "watch", "-a", first["jid"], "--json", *target], env=watch_env,
                                 stdout=watched, stderr=subprocess.DEVNULL, text=True)
        time.sleep(2)
        out = os.path.join(work, "api-roster.json")
        with open(out, "w") as f:
            before = process_cpu(server["XT_PID"])
            start = time.perf_counter()
            p = subprocess.run(["/usr/bin/python3", f"{here}/api_roster.py", server["XT_API_URL"], server["XT_CA_FILE"], school, jobs],
                               stdout=f, text=True, input=f"boss@localhost {server['password']}\n")
            wall = time.perf_counter() - start
            used = process_cpu(server["XT_PID"]) - before
        time.sleep(2)
        watch.terminate()
        watch.wait()
        watched.seek(0)
        seen = watched.read().splitlines()
        pushes = sum('"event":"roster_push"' in line for line in seen)
        presences = sum('"event":"presence"' in line for line in seen)
        print(f"bench: api roster: {open(out).read().strip()}", file=sys.stderr)
        print(f"bench: api roster: {first['jid']}, online throughout, watched {len(seen)} lines: "
              f"{pushes} roster pushes, {presences} presences",
              file=sys.stderr)
        return [("api: rosters (add_rosteritem)", wall, 0.0, used, p.returncode)]
    finally:
        sh(f"{root}/scripts/test-server", "stop", server["XT_DIR"])


rows = []
probe = None
refresh_probe = None
if os.environ.get("XT_BENCH_ONLY") == "api-roster":
    rows = api_roster_rows()
only_shared = os.environ.get("XT_BENCH_ONLY") in ("shared", "sync-shared", "api-roster")
if os.environ.get("XT_BENCH_ONLY") == "shared":
    rows = shared_groups_rows()
if os.environ.get("XT_BENCH_ONLY") == "sync-shared":
    rows = sync_shared_rows()
only_sync = os.environ.get("XT_BENCH_ONLY") == "sync" or only_shared
ours = start_server() if not only_sync else None
try:
    if only_sync:
        raise StopIteration
    report = os.path.join(work, "ours-report.csv")
    rows.append(("ours: accounts", *step(ours, batch(ours, csv_file("accounts.csv", rosters=False), report), "accounts")))
    seeded = os.environ.get("XT_BENCH_SEED") == "1" and kind.startswith("prosody")
    if seeded:
        seed_prosody(ours, csv_file("school.csv"))
    probe = LoginProbe(ours)
    probe.start()
    rows.append(("ours: rosters" + (" (in place)" if seeded else ""), *step(ours, batch(ours, csv_file("school.csv"), report), "rosters")))
    probe.stop.set()
    probe.join()
    rows.append(("ours: one more pupil", *step(ours, batch(ours, csv_file("more.csv", extra=1), report), "one more")))
    rows.append(("ours: no change", *step(ours, batch(ours, csv_file("more.csv", extra=1), report), "no change")))
except StopIteration:
    pass
finally:
    if ours:
        sh(f"{root}/scripts/test-server", "stop", ours["XT_DIR"])
if os.environ.get("XT_BENCH_SYNC", "1") == "1" and not only_shared:
    mine = start_server()
    try:
        report = os.path.join(work, "sync-report.csv")
        rows.append(("sync: accounts", *step(mine, sync(mine, csv_file("sync-accounts.csv", rosters=False), report), "sync accounts")))
        school = csv_file("sync-school.csv")
        if os.environ.get("XT_BENCH_SEED") == "1" and kind.startswith("prosody"):
            seed_prosody(mine, school)
            seed_sync_state(school)
        else:
            rows.append(("sync: rosters", *step(mine, sync(mine, school, report), "sync rosters")))
        refresh_probe = LoginProbe(mine, "refreshprobe")
        refresh_probe.start()
        rows.append(("sync: no change", *step(mine, sync(mine, school, report), "sync no change")))
        refresh_probe.stop.set()
        refresh_probe.join()
        rows.append(("sync: no refresh", *step(mine, sync(mine, school, report, "--no-refresh"), "sync no refresh")))
        more = csv_file("sync-more.csv", extra=1)
        if os.environ.get("XT_BENCH_PLAN") == "1":  # what the one-pupil sync plans, on stderr
            import json
            planned = json.loads(subprocess.run(sync(mine, more, report) + ["--dry-run", "--json"], env=env,
                                                capture_output=True, text=True).stdout)
            print("bench: one-pupil plan: " + ", ".join(f"{k} {len(planned[k])}" for k in ("create", "profile", "roster", "leavers")),
                  file=sys.stderr)
        rows.append(("sync: one pupil", *step(mine, sync(mine, more, report), "sync one pupil")))
    finally:
        sh(f"{root}/scripts/test-server", "stop", mine["XT_DIR"])
if os.environ.get("XT_BENCH_SHARED") == "1" and not only_shared:
    rows += shared_groups_rows()
    rows += sync_shared_rows()
if os.environ.get("XT_BENCH_RAW", "1") == "1" and not only_sync:
    raw = start_server()
    try:
        report = os.path.join(work, "raw-report.csv")
        step(raw, batch(raw, csv_file("accounts.csv", rosters=False), report), "raw accounts")
        rows.append(("raw client: rosters", *step(raw, ["/usr/bin/python3", f"{here}/raw_roster.py", csv_file("school.csv"),
                                                         report, "localhost", "127.0.0.1", raw["XT_PORT"], raw["XT_CA_FILE"], jobs],
                                                   "raw rosters")))
    finally:
        sh(f"{root}/scripts/test-server", "stop", raw["XT_DIR"])

n = int(classes) * int(pupils) + int(teachers)
print(f"{kind} --defaults, {n} accounts ({classes} classes of {pupils}, {teachers} teachers), --jobs {jobs}, load {open('/proc/loadavg').read().split()[0]}")
print(f"{'step':<24} {'wall s':>8} {'client CPU s':>13} {'server CPU s':>13} {'exit':>5}")
for name, wall, client, server, code in rows:
    print(f"{name:<24} {wall:>8.1f} {client:>13.1f} {server:>13.1f} {code:>5}")
if probe and probe.times:
    ordered = sorted(probe.times)
    print(f"log-ins by another account during 'rosters': {len(probe.times)}, {probe.failures} failed, "
          f"median {ordered[len(ordered) // 2]:.2f} s, longest {ordered[-1]:.2f} s")
if refresh_probe and refresh_probe.times:
    ordered = sorted(refresh_probe.times)
    print(f"log-ins by another account during the refreshed 'sync: no change': {len(refresh_probe.times)}, {refresh_probe.failures} failed, "
          f"median {ordered[len(ordered) // 2]:.2f} s, longest {ordered[-1]:.2f} s")
