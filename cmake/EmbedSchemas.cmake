# Writes OUT, a C++ source defining schema_names() and schema_text() from every
# docs/schemas/NAME.schema.json, so the binary can print them.
file(GLOB schema_files "${SCHEMA_DIR}/*.schema.json")
list(SORT schema_files)
set(names "")
set(cases "")
foreach(path ${schema_files})
  get_filename_component(file_name "${path}" NAME)
  string(REPLACE ".schema.json" "" name "${file_name}")
  file(READ "${path}" text)
  string(APPEND names "      \"${name}\",\n")
  string(APPEND cases "  if (name == \"${name}\") return R\"HWSCHEMA(${text})HWSCHEMA\";\n")
endforeach()
file(WRITE "${OUT}.tmp" "// Generated from docs/schemas by cmake/EmbedSchemas.cmake. Do not edit.
#include \"src/report/schemas.h\"

namespace hwaccel {

std::vector<std::string> schema_names() {
  return {
${names}  };
}

std::string_view schema_text(std::string_view name) {
${cases}  return {};
}

}  // namespace hwaccel
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
