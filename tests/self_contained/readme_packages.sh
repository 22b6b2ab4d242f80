#!/bin/sh
# The README's Quick start lists the real packages: each group's row names
# exactly what `ci/setup --list GROUP` installs (first backquoted run of the row).
# Usage: readme_packages.sh SOURCE_DIR
set -u
src=$1
fail=0
for g in build test fleet render fuzz; do
  row=$(grep "^| \`$g\` | \`" "$src/README.md" | head -1)
  [ -n "$row" ] || { echo "README.md: no row for the $g group in the Quick start"; fail=1; continue; }
  readme=$(printf '%s\n' "$row" | cut -d'|' -f3 | sed 's/^ *`\([^`]*\)`.*/\1/' | tr ' ' '\n' | grep . | sort)
  setup=$(bash "$src/ci/setup" --list "$g" | sort)
  if [ "$readme" != "$setup" ]; then
    echo "README.md's $g row differs from ci/setup --list $g:"
    printf '%s\n' "$readme" >"${TMPDIR:-/tmp}/readme.$$"; printf '%s\n' "$setup" >"${TMPDIR:-/tmp}/setup.$$"
    diff "${TMPDIR:-/tmp}/readme.$$" "${TMPDIR:-/tmp}/setup.$$"
    rm -f "${TMPDIR:-/tmp}/readme.$$" "${TMPDIR:-/tmp}/setup.$$"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "README.md's package groups are ci/setup's"
exit $fail
