#!/bin/sh
# Item 16: writes to $1 a DEVICES.toml whose one SKU has FIELD = VALUE ($2 = $3):
# inf, nan or 0 bandwidth or memory were accepted and gave nonsense (19775 tok/s).
sh "$(dirname "$0")/item16-many-skus.sh" "$1" 1
sed -i "s/^$2 = .*/$2 = $3/" "$1"
