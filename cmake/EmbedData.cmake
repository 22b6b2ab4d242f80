# Writes OUT, a C++ source returning data/devices.toml and data/instances.toml
# as strings, so the catalogues ship inside the binary.
file(READ "${DATA_DIR}/devices.toml" devices)
file(READ "${DATA_DIR}/instances.toml" instances)
file(WRITE "${OUT}.tmp" "// Generated from data/ by cmake/EmbedData.cmake. Do not edit.
#include \"src/plan/catalogue.h\"

namespace hwaccel::plan {

std::string_view builtin_devices_toml() {
  return R\"HWDATA(${devices})HWDATA\";
}

std::string_view builtin_instances_toml() {
  return R\"HWDATA(${instances})HWDATA\";
}

}  // namespace hwaccel::plan
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
