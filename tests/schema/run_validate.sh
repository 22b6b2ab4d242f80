#!/bin/sh
# Runs validate_goldens.py with a Python that has jsonschema (ci/setup test installs
# Debian's python3-jsonschema for /usr/bin/python3).
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import jsonschema' 2>/dev/null; then
    # SOURCE_DIR alone: the goldens; SOURCE_DIR HWACCEL: every command's --json.
    [ $# -ge 2 ] && exec "$py" "$(dirname "$0")/cli_json_validate.py" "$2" "$1"
    exec "$py" "$(dirname "$0")/validate_goldens.py" "$1"
  fi
done
echo "no python3 with the jsonschema module (apt-get install python3-jsonschema)" >&2
exit 1
