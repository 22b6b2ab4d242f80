#!/bin/sh
# Item 13: writes a Vulkan ICD manifest with $2 (default 200,000) nested arrays
# under library_path to the file $1 (a user-writable place the loader searches).
# The issue saw SIGSEGV at ~60k levels; this build survives 60k and crashes at 200k.
n=${2:-200000}
{
  printf '{"file_format_version": "1.0.0", "ICD": {"api_version": "1.3.0", "library_path": '
  head -c "$n" /dev/zero | tr '\0' '['
  head -c "$n" /dev/zero | tr '\0' ']'
  printf '}}\n'
} >"$1"
