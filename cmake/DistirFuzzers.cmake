# libFuzzer targets. libFuzzer needs clang; the rest of distir builds with the
# project's compiler. A fuzzer compiles the sources it explores again with
# clang and coverage instrumentation (-fsanitize=fuzzer-no-link, ASan), its
# harness with -fsanitize=fuzzer, and links both against the already built
# libraries. Each fuzzer gets a short smoke run in ctest (test/CMakeLists.txt),
# seeded with its corpus in the repository.
#
#   distir_add_fuzzer(<name> HARNESS <file.cpp>
#     SOURCES <instrumented sources...> LIBRARIES <targets and flags...>
#     CORPUS <seed directory> [DEPENDS <targets>] [EXCEPTIONS])
find_program(DISTIR_FUZZ_CLANGXX NAMES clang++-22 clang++-14 clang++)
set(DISTIR_FUZZ_AVAILABLE OFF)
if(NOT DISTIR_FUZZ_CLANGXX)
  message(STATUS "clang++ not found: the fuzzers and their tests are skipped")
else()
  set(probe ${CMAKE_BINARY_DIR}/fuzz-probe.cpp)
  file(WRITE ${probe}
    "#include <cstdint>\n#include <cstddef>\n"
    "extern \"C\" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) { return 0; }\n")
  execute_process(
    COMMAND ${DISTIR_FUZZ_CLANGXX} -fsanitize=fuzzer ${probe} -o ${CMAKE_BINARY_DIR}/fuzz-probe
    RESULT_VARIABLE probeResult OUTPUT_QUIET ERROR_QUIET)
  if(probeResult EQUAL 0)
    set(DISTIR_FUZZ_AVAILABLE ON)
  else()
    message(STATUS "${DISTIR_FUZZ_CLANGXX} cannot link -fsanitize=fuzzer (Debian: "
                   "libclang-rt-22-dev): the fuzzers and their tests are skipped")
  endif()
endif()

function(distir_add_fuzzer name)
  cmake_parse_arguments(ARG "EXCEPTIONS" "HARNESS;CORPUS"
                        "SOURCES;LIBRARIES;DEPENDS;DEFINITIONS" ${ARGN})
  if(NOT DISTIR_FUZZ_AVAILABLE)
    return()
  endif()
  set(flags -std=c++17 -O1 -g -fsanitize=address
      -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_BINARY_DIR}/include)
  if(ARG_EXCEPTIONS)
    list(APPEND flags -fexceptions)
  else()
    list(APPEND flags -fno-exceptions)
  endif()
  foreach(definition ${ARG_DEFINITIONS})
    list(APPEND flags -D${definition})
  endforeach()
  foreach(dir ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
    list(APPEND flags -isystem ${dir})
  endforeach()
  set(objectDir ${CMAKE_CURRENT_BINARY_DIR}/${name}.objects)
  set(objects)
  foreach(source ${ARG_SOURCES} ${ARG_HARNESS})
    get_filename_component(base ${source} NAME_WE)
    set(object ${objectDir}/${base}.o)
    if(source STREQUAL ARG_HARNESS)
      set(coverage -fsanitize=fuzzer)
    else()
      set(coverage -fsanitize=fuzzer-no-link)
    endif()
    add_custom_command(OUTPUT ${object}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${objectDir}
      COMMAND ${DISTIR_FUZZ_CLANGXX} ${flags} ${coverage} -MD -MF ${object}.d
              -c ${source} -o ${object}
      DEPENDS ${source} ${ARG_DEPENDS}
      DEPFILE ${object}.d
      COMMENT "Compiling ${base}.cpp for ${name} with ${DISTIR_FUZZ_CLANGXX}"
      VERBATIM)
    list(APPEND objects ${object})
  endforeach()
  set(libraries)
  set(libraryTargets)
  foreach(library ${ARG_LIBRARIES})
    if(TARGET ${library})
      list(APPEND libraries $<TARGET_FILE:${library}>)
      list(APPEND libraryTargets ${library})
    else()
      list(APPEND libraries ${library})
    endif()
  endforeach()
  set(fuzzer ${LLVM_RUNTIME_OUTPUT_INTDIR}/${name})
  add_custom_command(OUTPUT ${fuzzer}
    COMMAND ${DISTIR_FUZZ_CLANGXX} -fsanitize=fuzzer,address ${objects}
            ${libraries} -o ${fuzzer}
    DEPENDS ${objects} ${libraryTargets}
    COMMENT "Linking ${name}"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${fuzzer})
  # test/CMakeLists.txt registers the smoke runs (tests need enable_testing,
  # which comes after tools/).
  set_property(GLOBAL APPEND PROPERTY DISTIR_FUZZERS "${name}|${fuzzer}|${ARG_CORPUS}")
endfunction()
