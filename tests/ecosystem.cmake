# Tests of what people build on: the C API from a C program, the symbols the
# shared library exports, and a consumer project built against an installed
# tree (CMake package and pkg-config).
enable_language(C)

if(TARGET e2e_tests)
  # The CLI conventions tests call the CLI library's exit-code table and guard.
  target_link_libraries(e2e_tests PRIVATE hwaccel_cli)
endif()

add_executable(capi_test ${CMAKE_CURRENT_SOURCE_DIR}/capi/capi_test.c)
add_test(NAME capi.c_program COMMAND capi_test ${PROJECT_SOURCE_DIR}/fixtures/hosts)
set_tests_properties(capi.c_program PROPERTIES LABELS capi)

# Builds configured with -DHWACCEL_BACKEND_VULKAN=OFF, made cheaply as
# backend_left_out_test below is: the program links its own copy of
# src/registry/build_backends.cpp, compiled with the definitions
# cmake/Backends.cmake gives that file when the option is OFF, before the
# static library, so the whole library sees vulkan left out. The CLI one is
# where exit code 7 (not compiled) comes from; the C one checks the C API's
# HWACCEL_ERROR_NOT_COMPILED.
string(REPLACE ";" "," _hwaccel_all_options "${HWACCEL_BACKEND_OPTIONS}")
set(_hwaccel_without_vulkan_defs HWACCEL_BACKEND_OPTIONS="${_hwaccel_all_options}"
                                 HWACCEL_LEFT_OUT_BACKENDS="vulkan")
add_executable(hwaccel_without_vulkan ${PROJECT_SOURCE_DIR}/cli/hwaccel_main.cpp
                                      ${PROJECT_SOURCE_DIR}/src/registry/build_backends.cpp)
target_compile_definitions(hwaccel_without_vulkan PRIVATE ${_hwaccel_without_vulkan_defs})
target_link_libraries(hwaccel_without_vulkan PRIVATE hwaccel_cli)
set_target_properties(hwaccel_without_vulkan PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
if(TARGET e2e_tests)
  add_dependencies(e2e_tests hwaccel_without_vulkan)
endif()
add_executable(capi_test_without_vulkan ${CMAKE_CURRENT_SOURCE_DIR}/capi/capi_test.c
                                        ${PROJECT_SOURCE_DIR}/src/registry/build_backends.cpp)
target_compile_definitions(capi_test_without_vulkan PRIVATE ${_hwaccel_without_vulkan_defs}
                           CAPI_TEST_VULKAN_LEFT_OUT=1)
target_link_libraries(capi_test_without_vulkan PRIVATE hwaccel_core)
set_target_properties(capi_test_without_vulkan PROPERTIES LINKER_LANGUAGE CXX)
add_test(NAME capi.c_program_without_vulkan COMMAND capi_test_without_vulkan
                                                    ${PROJECT_SOURCE_DIR}/fixtures/hosts)
set_tests_properties(capi.c_program_without_vulkan PROPERTIES LABELS capi)
if(TARGET hwaccel_shared)
  target_link_libraries(capi_test PRIVATE hwaccel_shared)
  add_test(NAME capi.exported_symbols
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/capi/symbols_test.sh $<TARGET_FILE:hwaccel_shared>)
  set_tests_properties(capi.exported_symbols PROPERTIES LABELS capi)

  # A program built against the 0.1.0 C header runs on this library, whose
  # 0.1.0 symbols are all still there (tests/abi/abi_test.sh).
  add_executable(abi_old_consumer ${CMAKE_CURRENT_SOURCE_DIR}/abi/old_consumer.c)
  target_include_directories(abi_old_consumer PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/abi)
  target_link_libraries(abi_old_consumer PRIVATE hwaccel_shared)
  add_test(NAME capi.abi_old_consumer
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/abi/abi_test.sh $<TARGET_FILE:hwaccel_shared>
                   $<TARGET_FILE:abi_old_consumer> ${PROJECT_SOURCE_DIR} ${HWACCEL_SOVERSION})
  set_tests_properties(capi.abi_old_consumer PROPERTIES LABELS capi)

  # Installs the build into a temporary prefix and builds tests/install/consumer
  # against it: with find_package (shared and static) and with pkg-config, and
  # the examples of docs/library.md. Needs the whole build (`cmake --build build`).
  add_test(NAME install.consumer
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/run_consumer.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(install.consumer PROPERTIES LABELS install TIMEOUT 600)
else()
  # The static library from C: the C++ runtime comes with a C++ link.
  target_link_libraries(capi_test PRIVATE hwaccel_core)
  set_target_properties(capi_test PROPERTIES LINKER_LANGUAGE CXX)
endif()

# A build with -DHWACCEL_BACKEND_CUDA=OFF, at the cost of one file (see the test's comment).
add_executable(backend_left_out_test ${CMAKE_CURRENT_SOURCE_DIR}/build_options/backend_left_out_test.cpp
                                     ${PROJECT_SOURCE_DIR}/src/registry/build_backends.cpp
                                     ${CMAKE_CURRENT_SOURCE_DIR}/support/test_support.cpp)
target_include_directories(backend_left_out_test PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_definitions(backend_left_out_test PRIVATE ${HWACCEL_TEST_DEFS}
                           HWACCEL_BACKEND_OPTIONS="${_hwaccel_all_options}"
                           HWACCEL_LEFT_OUT_BACKENDS="cuda")
target_link_libraries(backend_left_out_test PRIVATE hwaccel_core GTest::gtest GTest::gtest_main)
gtest_discover_tests(backend_left_out_test DISCOVERY_TIMEOUT 60 PROPERTIES LABELS unit)

# `hwaccel plan --svg` rendered in headless Chromium to PNG: not blank, and the
# SVG parses as XML. Skipped (77) without chromium unless CI=true.
add_test(NAME render.roofline_svg
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/render/render_roofline.py $<TARGET_FILE:hwaccel>
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(render.roofline_svg PROPERTIES LABELS render SKIP_RETURN_CODE 77 TIMEOUT 240)

# deploy/slurm's TaskProlog names the selected device as CUDA opens it (a MIG
# device by its MIG UUID) on fixture hosts.
add_test(NAME fleet.slurm_prolog
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fleet/slurm_prolog_test.sh $<TARGET_FILE:hwaccel>
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(fleet.slurm_prolog PROPERTIES LABELS fleet TIMEOUT 60)

# The exports read by the real fleet tools (promtool, node_exporter, kubectl,
# systemd-analyze, slurmd -G) and the deploy/ kit, on loopback only
# (tests/fleet/fleet_tools_test.sh). Not in the sanitizer build: it tests the
# tools' verdicts, and the exports' code runs under ASan in the unit tests.
if(NOT CMAKE_CXX_FLAGS MATCHES "sanitize")
  add_test(NAME fleet.real_tools
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fleet/fleet_tools_test.sh $<TARGET_FILE:hwaccel>
                   $<TARGET_FILE:hwsim> ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet.real_tools PROPERTIES LABELS fleet SKIP_RETURN_CODE 77 TIMEOUT 120)
  # The PromQL of docs/exports.md asked of a real Prometheus on 127.0.0.1 (MIG and
  # non-MIG hosts, DCGM-shaped series).
  add_test(NAME fleet.promql
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/fleet/promql_test.py $<TARGET_FILE:hwaccel>
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet.promql PROPERTIES LABELS fleet SKIP_RETURN_CODE 77 TIMEOUT 120)
  # A sharded hwsim fleet as a Slurm job array (slurmctld + slurmd on 127.0.0.1) and as
  # the Kubernetes Indexed Job kubectl renders: merged, the single run's report.
  add_test(NAME fleet.shards
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fleet/fleet_shards_test.sh $<TARGET_FILE:hwsim>
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet.shards PROPERTIES LABELS fleet SKIP_RETURN_CODE 77 TIMEOUT 180)
  # A user's lint gate: promtool check metrics exits 0 on export prometheus --snake-case.
  add_test(NAME fleet.promtool_gate
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fleet/promtool_gate_test.sh $<TARGET_FILE:hwaccel>
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet.promtool_gate PROPERTIES LABELS fleet SKIP_RETURN_CODE 77 TIMEOUT 180)
  # deploy/container built with buildah (FROM scratch over this machine's glibc:
  # nothing is pulled), and detection run inside it on a simulated GPU node.
  add_test(NAME fleet.container_image
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fleet/container_image_test.sh $<TARGET_FILE:hwaccel>
                   $<TARGET_FILE:hwaccel-nvml> $<TARGET_FILE:hwsim_nvml> $<TARGET_FILE:hwsim>
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet.container_image PROPERTIES LABELS fleet SKIP_RETURN_CODE 77 TIMEOUT 240)
  # deploy/container/Containerfile.hwsim: the image of the fleet Jobs, built and run.
  add_test(NAME fleet.hwsim_image
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fleet/hwsim_image_test.sh $<TARGET_FILE:hwsim>
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(fleet.hwsim_image PROPERTIES LABELS fleet SKIP_RETURN_CODE 77 TIMEOUT 240)
endif()
