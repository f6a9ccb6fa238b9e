# Sourced by scripts that run other programs: each program named with the Debian package that
# has it, checked before any work, so that a machine without one hears which and how to get it
# instead of a bare exit status 127 (or none at all, where a script hides a command's errors).

# missing_tools PROGRAM:PACKAGE...  prints each PROGRAM:PACKAGE whose PROGRAM is not on PATH.
missing_tools() {
  local pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || printf '%s\n' "$pair"
  done
}

# packages_of PROGRAM:PACKAGE...    the packages, each once, space-separated.
packages_of() {
  printf '%s\n' "$@" | sed 's/^[^:]*://' | awk '!seen[$0]++' | paste -sd' ' -
}

# describe_tools PROGRAM:PACKAGE... "dpkg-shlibdeps (dpkg-dev), lintian (lintian)"
describe_tools() {
  printf '%s\n' "$@" | sed 's/^\([^:]*\):\(.*\)$/\1 (\2)/' | paste -sd, - | sed 's/,/, /g'
}
