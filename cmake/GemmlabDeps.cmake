# Header and source dependencies. Debian's packages provide them on development machines; on the GPU machine,
# which has no such packages and no network, scripts/device-deps copies them into GEMMLAB_DEPS_DIR first.

# CLI11 and nlohmann-json are header-only: an include path is all they need.
find_path(GEMMLAB_CLI11_INCLUDE CLI/CLI.hpp HINTS ${GEMMLAB_DEPS_DIR}/include)
find_path(GEMMLAB_JSON_INCLUDE nlohmann/json.hpp HINTS ${GEMMLAB_DEPS_DIR}/include)
foreach(dep IN ITEMS CLI11 JSON)
  if(NOT GEMMLAB_${dep}_INCLUDE)
    message(FATAL_ERROR "${dep} headers not found: install libcli11-dev and nlohmann-json3-dev "
                        "(scripts/setup does), or run scripts/device-deps to fill ${GEMMLAB_DEPS_DIR}")
  endif()
endforeach()
add_library(gemmlab_cli11 INTERFACE)
target_include_directories(gemmlab_cli11 SYSTEM INTERFACE ${GEMMLAB_CLI11_INCLUDE})
add_library(gemmlab_json INTERFACE)
target_include_directories(gemmlab_json SYSTEM INTERFACE ${GEMMLAB_JSON_INCLUDE})

# GoogleTest: the installed package, else its sources (Debian's /usr/src/googletest, or the carried copy).
if(GEMMLAB_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    find_path(GEMMLAB_GTEST_SOURCE CMakeLists.txt
              HINTS ${GEMMLAB_DEPS_DIR}/googletest /usr/src/googletest NO_DEFAULT_PATH)
    if(NOT GEMMLAB_GTEST_SOURCE)
      message(FATAL_ERROR "GoogleTest not found: install libgtest-dev, run scripts/device-deps, or pass -DGEMMLAB_TESTS=OFF")
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory(${GEMMLAB_GTEST_SOURCE} ${CMAKE_BINARY_DIR}/_deps/googletest EXCLUDE_FROM_ALL)
    add_library(GTest::gtest ALIAS gtest)
  endif()
  include(GoogleTest)
endif()

if(NOT GEMMLAB_BENCHMARKS STREQUAL "OFF")
  find_package(benchmark QUIET)
endif()
gemmlab_resolve(GEMMLAB_BENCHMARKS "${benchmark_FOUND}" "Google Benchmark (libbenchmark-dev)" GEMMLAB_HAVE_BENCHMARKS)
if(GEMMLAB_HAVE_BENCHMARKS)
  gemmlab_part("benchmarks" ON "Google Benchmark found")
else()
  gemmlab_part("benchmarks" OFF "GEMMLAB_BENCHMARKS=${GEMMLAB_BENCHMARKS}, Google Benchmark found: ${benchmark_FOUND}")
endif()
