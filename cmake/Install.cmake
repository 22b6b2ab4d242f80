# `cmake --install build [--prefix DIR]`: the tools, libhwaccel (static and
# shared), the public headers, a CMake package (find_package(hwaccel) ->
# hwaccel::hwaccel, hwaccel::hwaccel_static), hwaccel.pc, and the man pages and
# shell completions generated from the CLI definitions.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Man pages and completions come from the binaries themselves (cli/common/cli_docs.*).
set(HWACCEL_GENERATED_DOCS "")
foreach(program hwaccel hwsim)
  set(man ${PROJECT_BINARY_DIR}/share/man/man1/${program}.1)
  set(bash ${PROJECT_BINARY_DIR}/share/bash-completion/completions/${program})
  set(zsh ${PROJECT_BINARY_DIR}/share/zsh/site-functions/_${program})
  add_custom_command(
    OUTPUT ${man} ${bash} ${zsh}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/share/man/man1
            ${PROJECT_BINARY_DIR}/share/bash-completion/completions
            ${PROJECT_BINARY_DIR}/share/zsh/site-functions
    COMMAND sh -c "\"$1\" --generate-man > \"$2\" && \"$1\" --generate-completion bash > \"$3\" && \"$1\" --generate-completion zsh > \"$4\""
            sh $<TARGET_FILE:${program}> ${man} ${bash} ${zsh}
    DEPENDS ${program}
    COMMENT "Generating the man page and completions of ${program}"
    VERBATIM)
  list(APPEND HWACCEL_GENERATED_DOCS ${man} ${bash} ${zsh})
  install(FILES ${man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${bash} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  install(FILES ${zsh} DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
endforeach()
add_custom_target(hwaccel_generated_docs ALL DEPENDS ${HWACCEL_GENERATED_DOCS})

# Installed binaries are stripped by default (the build tree keeps the debug
# info: build/hwaccel is 118 MB, the installed one 6 MB); `cmake --install
# --strip` is implied. -DHWACCEL_INSTALL_STRIP=OFF installs them as built.
option(HWACCEL_INSTALL_STRIP "cmake --install strips the binaries and libraries it installs" ON)
if(HWACCEL_INSTALL_STRIP)
  install(CODE "if(NOT DEFINED CMAKE_INSTALL_DO_STRIP)\n  set(CMAKE_INSTALL_DO_STRIP 1)\nendif()")
endif()
install(TARGETS hwaccel hwsim hwaccel-nvml RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(HWACCEL_LIBRARIES hwaccel_core)
if(TARGET hwaccel_shared)
  list(APPEND HWACCEL_LIBRARIES hwaccel_shared)
endif()
install(TARGETS ${HWACCEL_LIBRARIES} EXPORT hwaccelTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hwaccel DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# CMake strips executables and shared libraries, not archives: libhwaccel.a
# loses its debug sections here (300 MB -> about 20 MB).
if(HWACCEL_INSTALL_STRIP AND CMAKE_STRIP)
  install(CODE "if(CMAKE_INSTALL_DO_STRIP)
  execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
                  \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:hwaccel_core>\")
endif()")
endif()

set(HWACCEL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hwaccel)
install(EXPORT hwaccelTargets NAMESPACE hwaccel:: DESTINATION ${HWACCEL_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hwaccelConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/hwaccelConfig.cmake
                              INSTALL_DESTINATION ${HWACCEL_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hwaccelConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hwaccelConfig.cmake
              ${PROJECT_BINARY_DIR}/hwaccelConfigVersion.cmake
        DESTINATION ${HWACCEL_CMAKE_DIR})
# The build folder is a package too (find_package(hwaccel) with hwaccel_DIR=build,
# as `pip install ./python` does): hwaccelConfig.cmake above includes this file
# there, the installed targets' twin with the build tree's paths. (export() cannot
# do it: hwaccel_core links build-only targets.)
set(_hwaccel_build_targets "if(NOT TARGET hwaccel::hwaccel_static)
  add_library(hwaccel::hwaccel_static STATIC IMPORTED)
  set_target_properties(hwaccel::hwaccel_static PROPERTIES
    IMPORTED_LOCATION \"$<TARGET_FILE:hwaccel_core>\"
    INTERFACE_INCLUDE_DIRECTORIES \"${PROJECT_SOURCE_DIR}/include\"
    INTERFACE_LINK_LIBRARIES \"yaml-cpp;Threads::Threads;stdc++;m\")
endif()
")
if(TARGET hwaccel_shared)
  string(APPEND _hwaccel_build_targets "if(NOT TARGET hwaccel::hwaccel)
  add_library(hwaccel::hwaccel SHARED IMPORTED)
  set_target_properties(hwaccel::hwaccel PROPERTIES
    IMPORTED_LOCATION \"$<TARGET_FILE:hwaccel_shared>\"
    IMPORTED_SONAME \"$<TARGET_SONAME_FILE_NAME:hwaccel_shared>\"
    INTERFACE_INCLUDE_DIRECTORIES \"${PROJECT_SOURCE_DIR}/include\")
endif()
")
endif()
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/hwaccelTargets.cmake CONTENT "${_hwaccel_build_targets}")

# hwaccel.pc is relocatable: its paths are relative to where it is installed,
# so `cmake --install --prefix DIR` works for any DIR.
file(RELATIVE_PATH HWACCEL_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" HWACCEL_PC_TO_PREFIX "${HWACCEL_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/hwaccel.pc.in ${PROJECT_BINARY_DIR}/hwaccel.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hwaccel.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
