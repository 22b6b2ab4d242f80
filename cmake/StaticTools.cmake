# hwaccel and hwsim as static PIE executables (-DHWACCEL_STATIC_TOOLS=ON, the
# default where the toolchain can). Detection runs at every job start; a
# dynamically linked hwaccel spent about 2 ms of each start loading and
# relocating libstdc++, yaml-cpp and toml++ (docs/performance.md). static-pie,
# not plain -static: a plain static binary registers its unwind tables and sorts
# them at the first exception (about 2 ms), while static-pie keeps the
# eh_frame_hdr lookup. The libraries and tests stay as they are.
#
# Sets HWACCEL_TOOLS_YAML to the yaml-cpp the tools link: the archive when the
# tools are static, else the yaml-cpp target.
option(HWACCEL_STATIC_TOOLS "Link hwaccel and hwsim as static PIE executables where the toolchain can" ON)
set(HWACCEL_TOOLS_YAML yaml-cpp)
set(HWACCEL_TOOLS_STATIC OFF)
if(HWACCEL_STATIC_TOOLS)
  find_library(HWACCEL_YAML_CPP_ARCHIVE NAMES libyaml-cpp.a)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_LINK_OPTIONS -static-pie)
  check_cxx_source_compiles(
    "#include <string>\n#include <stdexcept>\nint main(int c, char**) { try { if (c > 5) throw std::runtime_error(\"x\"); } catch (...) {} return std::string(\"ok\").size() - 2; }"
    HWACCEL_CAN_LINK_STATIC_PIE)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(HWACCEL_YAML_CPP_ARCHIVE AND HWACCEL_CAN_LINK_STATIC_PIE)
    add_library(hwaccel_yaml_archive STATIC IMPORTED)
    set_target_properties(hwaccel_yaml_archive PROPERTIES IMPORTED_LOCATION ${HWACCEL_YAML_CPP_ARCHIVE})
    set(HWACCEL_TOOLS_YAML hwaccel_yaml_archive)
    set(HWACCEL_TOOLS_STATIC ON)
  else()
    message(STATUS "hwaccel and hwsim are linked dynamically: static-pie link ${HWACCEL_CAN_LINK_STATIC_PIE}, libyaml-cpp.a ${HWACCEL_YAML_CPP_ARCHIVE}")
  endif()
endif()

# Links `target` (hwaccel or hwsim) statically when the check above passed.
function(hwaccel_static_tool target)
  if(HWACCEL_TOOLS_STATIC)
    target_link_options(${target} PRIVATE -static-pie)
    set_target_properties(${target} PROPERTIES HWACCEL_STATIC_TOOL ON)
  endif()
endfunction()
