# One option per accelerator backend: -DHWACCEL_BACKEND_CUDA=OFF leaves the
# CUDA probe out of this build; `hwaccel detect` then still prints a `cuda`
# line, `unavailable  not-compiled`. The list is src/registry/backends.cpp's
# known_backend_names() without `cpu` (always built); a unit test keeps the two
# equal. A new probe needs no CMake edit: it is registered in all_probes() and
# its option already exists here.
set(HWACCEL_BACKEND_OPTIONS cuda rocm apple vulkan intel_npu amd_xdna tpu gaudi neuron qualcomm oneapi)
set(HWACCEL_LEFT_OUT_BACKENDS "")
foreach(backend IN LISTS HWACCEL_BACKEND_OPTIONS)
  string(TOUPPER ${backend} upper)
  option(HWACCEL_BACKEND_${upper} "Build the ${backend} backend" ON)
  if(NOT HWACCEL_BACKEND_${upper})
    list(APPEND HWACCEL_LEFT_OUT_BACKENDS ${backend})
  endif()
endforeach()
if(HWACCEL_LEFT_OUT_BACKENDS)
  message(STATUS "hwaccel: backends left out of this build: ${HWACCEL_LEFT_OUT_BACKENDS}")
endif()
string(REPLACE ";" "," _hwaccel_options "${HWACCEL_BACKEND_OPTIONS}")
string(REPLACE ";" "," _hwaccel_left_out "${HWACCEL_LEFT_OUT_BACKENDS}")
# Only one source file sees the choice, so flipping an option rebuilds one file.
set_property(SOURCE ${PROJECT_SOURCE_DIR}/src/registry/build_backends.cpp APPEND PROPERTY
             COMPILE_DEFINITIONS HWACCEL_BACKEND_OPTIONS="${_hwaccel_options}"
             HWACCEL_LEFT_OUT_BACKENDS="${_hwaccel_left_out}")
