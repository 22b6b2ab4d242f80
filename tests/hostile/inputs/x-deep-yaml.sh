#!/bin/sh
# Extra: writes to $1 a snapshot whose env value is 60,000 nested flow sequences and
# whose files map nests 4,000 block mappings (a parser that recurses per level
# runs out of stack).
{
  printf 'schema: hwaccel-snapshot/1\nhost: {label: deep, origin: hand-written}\n'
  printf 'facts: {os: linux, arch: x86_64, kernel: "6.8.0", page_size: 4096, cpus: 2, hostname: h}\n'
  printf 'env: {PATH: '
  head -c 60000 /dev/zero | tr '\0' '['
  head -c 60000 /dev/zero | tr '\0' ']'
  printf '}\nfiles:\n'
  awk 'BEGIN { s = ""; for (i = 0; i < 4000; i++) { printf "%s k%d:\n", s, i; s = s " " } }'
} >"$1"
