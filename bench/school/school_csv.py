"""The school CSV of gen_school.py as rosters, for the bench drivers."""
import csv


def school_rosters(path):
    """Each account's contacts as (jid, name, group), from the school CSV, as RosterPlan makes them."""
    with open(path, encoding="utf-8", newline="") as f:
        records = list(csv.DictReader(f))
    members = {}
    for r in records:
        for g in r["groups"].split(";"):
            members.setdefault(g, []).append(r)
    contacts = {r["jid"]: {} for r in records}
    for r in records:
        for g in r["contacts"].split(";"):
            for other in members.get(g, []):
                if other["jid"] != r["jid"]:
                    contacts[r["jid"]][other["jid"]] = other
                    contacts[other["jid"]][r["jid"]] = r
    return contacts
