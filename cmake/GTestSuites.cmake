# hwaccel_discover_tests(TARGET [PROPERTIES key value ...]): registers a
# GoogleTest program's tests with ctest.
#
# By default every test case is a ctest test of its own (gtest_discover_tests).
# With HWACCEL_TESTS_PER_SUITE=ON (the sanitizer preset) every plain test suite
# is one ctest test, "<program>/<Suite>", that runs the suite's cases in one
# process (--gtest_filter=<Suite>.*): the same cases, but a sanitized program
# starts once per suite instead of once per case. Its start and exit (the
# sanitizers' shadow memory and leak check) cost 0.25-0.6 s, about 1,900 times
# in a run otherwise. A failing suite's output names the failing cases. The
# cases of a parameterized suite (a case per fixture host, up to seconds each)
# run 8 to a process (cmake/GTestSuitesList.cmake), so that the long suites
# still spread over the cores.
option(HWACCEL_TESTS_PER_SUITE "One ctest test per GoogleTest suite instead of per case" OFF)

function(hwaccel_discover_tests target)
  cmake_parse_arguments(D "" "" "PROPERTIES" ${ARGN})
  if(NOT HWACCEL_TESTS_PER_SUITE)
    gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES ${D_PROPERTIES})
    return()
  endif()
  # The properties as CMake text, each value in brackets (values hold '=' and ';').
  set(props "")
  list(LENGTH D_PROPERTIES n)
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE 0 ${last} 2)
      math(EXPR j "${i} + 1")
      list(GET D_PROPERTIES ${i} key)
      list(GET D_PROPERTIES ${j} value)
      string(APPEND props " ${key} [==[${value}]==]")
    endforeach()
  endif()
  string(REGEX REPLACE "_tests$" "" prefix "${target}")
  set(dir ${CMAKE_CURRENT_BINARY_DIR})
  set(suites_file ${dir}/${target}_suites.cmake)
  file(WRITE ${dir}/${target}_suite_props.txt "${props}")
  # Listed again after every link, as gtest_discover_tests does.
  add_custom_command(
    TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:${target}> -DPREFIX=${prefix}
            -DPROPS_FILE=${dir}/${target}_suite_props.txt -DOUT=${suites_file}
            -P ${PROJECT_SOURCE_DIR}/cmake/GTestSuitesList.cmake
    VERBATIM)
  set(include_file ${dir}/${target}_suites_include.cmake)
  file(WRITE ${include_file}
       "if(EXISTS [==[${suites_file}]==])\n"
       "  include([==[${suites_file}]==])\n"
       "else()\n"
       "  add_test([==[${prefix}/NOT_BUILT]==] [==[${target}_NOT_BUILT]==])\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
