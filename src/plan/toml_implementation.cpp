// toml++'s implementation, compiled into libhwaccel (every other file includes
// it with TOML_HEADER_ONLY=0, from the hwaccel_toml target in CMakeLists.txt).
// The tools then load no libtomlplusplus.so at start, and can be linked
// statically: Debian ships no toml++ archive.
//
// The parser's own assertions stay off in every build, as in Debian's shared
// library, which was built with NDEBUG. Some are reachable from input (a table
// header "[.a]" trips one in parse_key, found by the fuzzers once this copy was
// compiled with them: docs/reliability.md, finding 7); with the assertion off,
// the parser reports the error itself. NDEBUG is undefined here so that
// TOML_ASSERT_ASSUME means TOML_ASSERT, never an optimiser assumption.
#undef NDEBUG
#define TOML_ASSERT(expr) static_assert(true)
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
