// toml++'s implementation, compiled into libhwaccel (every other file includes
// it with TOML_HEADER_ONLY=0, from the hwaccel_toml target in CMakeLists.txt).
// The tools then load no libtomlplusplus.so at start, and can be linked
// statically: Debian ships no toml++ archive.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
