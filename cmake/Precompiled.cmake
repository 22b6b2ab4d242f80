# Precompiled headers (HWACCEL_PCH=OFF builds without): every library and CLI
# file parses the same standard headers, and the CLI and report files also
# nlohmann/json and CLI11, once per file. Parsing them once per target takes
# 0.4-1.2 s (standard headers) to 1.5-2.5 s (JSON, CLI11) off each file
# (docs/performance.md, "CI time").
option(HWACCEL_PCH "Precompile the headers most files include (library, CLI, tests)" ON)
include(${CMAKE_CURRENT_LIST_DIR}/JsonSources.cmake)

# Only headers every layer may use: nothing that opens files or reads the clock
# (those stay behind the Host, and a header here would hide a missing include).
# Not <functional> either: its std::bind, found by argument-dependent lookup,
# outbids a file's own `bind(std::string, ...)` (src/host/sandbox_mask.cpp).
set(HWACCEL_PCH_STD
    <algorithm> <array> <cstdint> <map> <memory> <optional> <set> <string> <string_view>
    <utility> <vector>)

# hwaccel_pch(TARGET [QUIET_GCC12] [HEADERS...]): the standard headers above
# and HEADERS.
#
# Once libstdc++ comes from a precompiled header, GCC 12's optimizer reports the
# memcpy inlined into std::string's `s + "..."` as out of bounds, overflowing or
# over-reading (GCC bugs 105329, 105651; the same files compile clean without the
# header). Test code (QUIET_GCC12) turns those four warnings off, and ASan checks
# it at run time. Product code keeps them: with GCC 12 its optimized build goes
# without the header; its unoptimized (sanitizer) build uses it.
function(hwaccel_pch target)
  cmake_parse_arguments(PCH "QUIET_GCC12" "" "" ${ARGN})
  if(NOT HWACCEL_PCH)
    return()
  endif()
  set(gcc12 FALSE)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    set(gcc12 TRUE)
  endif()
  if(gcc12 AND NOT PCH_QUIET_GCC12 AND NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
    return()
  endif()
  target_precompile_headers(${target} PRIVATE ${HWACCEL_PCH_STD} ${PCH_UNPARSED_ARGUMENTS})
  if(gcc12 AND PCH_QUIET_GCC12)
    target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-stringop-overflow
                           -Wno-stringop-overread -Wno-restrict)
  endif()
endfunction()
