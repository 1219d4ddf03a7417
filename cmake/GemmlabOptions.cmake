# Options of the build and the warning set every gemmlab target uses.

# A tri-state option: AUTO builds the part when its dependencies are found, ON requires them, OFF skips the part.
function(gemmlab_tristate name doc)
  set(${name} AUTO CACHE STRING "${doc} (AUTO, ON or OFF)")
  set_property(CACHE ${name} PROPERTY STRINGS AUTO ON OFF)
  string(TOUPPER "${${name}}" value)
  if(NOT value MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "${name} must be AUTO, ON or OFF, not '${${name}}'")
  endif()
  set(${name} ${value} PARENT_SCOPE)
endfunction()

gemmlab_tristate(GEMMLAB_CUDA "Build the CUDA kernels and the cuBLAS runner")
gemmlab_tristate(GEMMLAB_DESKTOP "Build the desktop app (ImGui, GLFW, OpenGL 3.3)")
gemmlab_tristate(GEMMLAB_BENCHMARKS "Build the Google Benchmark targets")
option(GEMMLAB_TESTS "Build the tests" ON)
option(GEMMLAB_WERROR "Treat warnings as errors" OFF)
set(GEMMLAB_DEPS_DIR "${CMAKE_SOURCE_DIR}/.deps" CACHE PATH
    "Folder of carried header/source dependencies (CLI11, nlohmann-json, googletest) for machines without the packages")

# Record why a part is on or off, for the summary at the end of the configure step.
function(gemmlab_part name state why)
  string(REPLACE ";" ", " why "${why}")  # a CMake list in the text would split the record
  set_property(GLOBAL APPEND PROPERTY GEMMLAB_PARTS "${name}|${state}|${why}")
endfunction()

function(gemmlab_print_summary)
  get_property(parts GLOBAL PROPERTY GEMMLAB_PARTS)
  message(STATUS "gemmlab parts:")
  foreach(part IN LISTS parts)
    string(REPLACE "|" ";" fields "${part}")
    list(GET fields 0 name)
    list(GET fields 1 state)
    list(GET fields 2 why)
    message(STATUS "  ${name}: ${state} (${why})")
  endforeach()
endfunction()

# Resolve a tri-state option against whether its dependencies were found; stops the configure when ON cannot be met.
function(gemmlab_resolve option found missing out_var)
  if(${option} STREQUAL "OFF")
    set(${out_var} OFF PARENT_SCOPE)
  elseif(found)
    set(${out_var} ON PARENT_SCOPE)
  elseif(${option} STREQUAL "ON")
    message(FATAL_ERROR "${option} is ON but these are missing: ${missing}")
  else()
    set(${out_var} OFF PARENT_SCOPE)
  endif()
endfunction()

function(gemmlab_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
  if(GEMMLAB_WERROR)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Werror>
      $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
  endif()
endfunction()
