# Builds one layer probe (cmake/TropicLayerChecks.cmake) and checks its outcome:
#   cmake -DBUILD_DIR=... -DTARGET=... -DHEADER=... -DEXPECT=ALLOWED|FORBIDDEN -P layer_probe.cmake
if(NOT EXISTS ${BUILD_DIR}/Makefile AND NOT EXISTS ${BUILD_DIR}/build.ninja)
  message("layer probe skipped: no build system in ${BUILD_DIR} (binaries built elsewhere)")
  return()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
# gcc: "tropic/sssp.hpp: No such file or directory"; clang: "'tropic/sssp.hpp' file not found".
string(REPLACE "." "\\." header_regex "${HEADER}")
if(EXPECT STREQUAL "ALLOWED")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${HEADER} should compile in ${TARGET}:\n${out}")
  endif()
  message("${HEADER} compiles, as it should")
elseif(rc EQUAL 0)
  message(FATAL_ERROR "${HEADER} compiled in ${TARGET}, across the layers")
elseif(out MATCHES "${header_regex}('|:)? (No such file|file not found)")
  message("${HEADER} not found, as it should be")
else()
  message(FATAL_ERROR "${TARGET} failed, but not for want of ${HEADER}:\n${out}")
endif()
