#!/bin/sh
# The simulated Vulkan driver exports the loader-driver interface and nothing
# else (every other command is found through vk_icdGetInstanceProcAddr), and
# needs no library `hwsim run` does not leave in place.
set -eu
lib=$1
got=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort | tr '\n' ' ')
want="vk_icdGetInstanceProcAddr vk_icdGetPhysicalDeviceProcAddr vk_icdNegotiateLoaderICDInterfaceVersion "
if [ "$got" != "$want" ]; then
  echo "exports: $got"
  echo "want:    $want"
  exit 1
fi
echo "exports: $got"
