# -DHWACCEL_PYTHON=ON|OFF: the Python package (python/CMakeLists.txt). ON when
# pybind11 (Debian: pybind11-dev) and a Python with its headers are found; the
# sanitizer preset turns it off (Debian's python3 is not built with ASan).
# Debian's interpreter is preferred over one earlier on PATH (a pyenv shim):
# Debian's pybind11 and python3-pytest belong to it.
if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3)
endif()
set(PYBIND11_FINDPYTHON ON)
find_package(Python COMPONENTS Interpreter Development.Module QUIET)
if(Python_FOUND)
  find_package(pybind11 CONFIG QUIET)
endif()
if(pybind11_FOUND)
  set(_hwaccel_python_default ON)
else()
  set(_hwaccel_python_default OFF)
endif()
option(HWACCEL_PYTHON "Build the hwaccel Python package (needs pybind11)" ${_hwaccel_python_default})
if(HWACCEL_PYTHON)
  if(NOT pybind11_FOUND)
    message(FATAL_ERROR "HWACCEL_PYTHON=ON needs pybind11 (Debian: pybind11-dev) and python3-dev")
  endif()
  add_subdirectory(python)
elseif(NOT pybind11_FOUND)
  message(STATUS "pybind11 not found: the Python package is not built (ci/setup test installs it)")
endif()
