# cmake -DOUTPUT=shaders.hpp -DINPUTS="a.vert|b.frag" -P embed_shaders.cmake
# Turns each GLSL file into a string constant named after the file (cell_grid.frag -> cell_grid_frag), so the app
# carries its shaders and needs no files at run time.
string(REPLACE "|" ";" inputs "${INPUTS}")
set(text "#pragma once\n// Generated from shaders/ by app/desktop/embed_shaders.cmake: edit the GLSL files, not this.\n")
string(APPEND text "namespace gemmlab::desktop::shaders {\n")
foreach(input IN LISTS inputs)
  file(READ "${input}" content)
  get_filename_component(name "${input}" NAME)
  string(MAKE_C_IDENTIFIER "${name}" identifier)
  string(APPEND text "inline constexpr const char* ${identifier} = R\"glsl(${content})glsl\";\n")
endforeach()
string(APPEND text "}  // namespace gemmlab::desktop::shaders\n")
file(WRITE "${OUTPUT}" "${text}")
