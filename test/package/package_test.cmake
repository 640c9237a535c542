cmake_minimum_required(VERSION 3.25)  # IN_LIST, and the policies of the project
# Installs BUILD_DIR into WORK_DIR/prefix and uses it as an outsider would (test/package/).
# Fails with a message naming the step; prints each step's command first.
function(step what)
  message(STATUS "package test: ${what}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
  message(STATUS "${out}")
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# What the install holds: the package files, and public headers only.
foreach(file ${LIBDIR}/cmake/tropic/tropicConfig.cmake
    ${LIBDIR}/cmake/tropic/tropicConfigVersion.cmake ${LIBDIR}/cmake/tropic/tropicTargets.cmake
    ${LIBDIR}/cmake/tropic/FindTropicGraphBLAS.cmake ${LIBDIR}/pkgconfig/tropic.pc
    ${INCLUDEDIR}/tropic/tropic.h ${INCLUDEDIR}/tropic/version.h ${INCLUDEDIR}/tropic/sssp.hpp)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "the install lacks ${file}")
  endif()
endforeach()
file(GLOB_RECURSE headers RELATIVE ${prefix}/${INCLUDEDIR} ${prefix}/${INCLUDEDIR}/*)
message(STATUS "installed headers: ${headers}")
foreach(header IN LISTS headers)
  if(header MATCHES "/detail/|\\.cuh$|/(policy|operators\\.cuh|grid\\.cuh)")
    message(FATAL_ERROR "an internal header is installed: ${header}")
  endif()
endforeach()
if(NOT CUDA AND "tropic/device_memory.hpp" IN_LIST headers)
  message(FATAL_ERROR "a CPU-only build installs tropic/device_memory.hpp, which needs CUDA")
endif()
# A shared build installs one library, libtropic.so.<major>, whose SONAME names the major version,
# and no per-layer library beside it.
if(SHARED)
  file(GLOB sonames ${prefix}/${LIBDIR}/libtropic.so.*)
  if(NOT sonames)
    message(FATAL_ERROR "a shared build installs no libtropic.so.<major>")
  endif()
  file(GLOB layer_libraries ${prefix}/${LIBDIR}/libtropic_*)
  if(layer_libraries)
    message(FATAL_ERROR "a shared build installs per-layer libraries: ${layer_libraries}")
  endif()
  find_program(OBJDUMP NAMES objdump)
  if(OBJDUMP)
    step("read the SONAME" ${OBJDUMP} -p ${prefix}/${LIBDIR}/libtropic.so)
    if(NOT step_output MATCHES "SONAME +libtropic\\.so\\.[0-9]+\n")
      message(FATAL_ERROR "libtropic.so has no SONAME libtropic.so.<major>")
    endif()
  endif()
endif()

set(cuda_hint "")
if(CUDA)
  set(cuda_hint -DCUDAToolkit_ROOT=${CUDA_ROOT})
endif()

# 1. find_package(tropic): examples/CMakeLists.txt.
step("configure examples with find_package(tropic)" ${CMAKE_COMMAND}
  -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/cmake -DCMAKE_PREFIX_PATH=${prefix}
  -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
  -DCMAKE_BUILD_TYPE=Release ${cuda_hint})
step("build examples with find_package(tropic)" ${CMAKE_COMMAND} --build ${WORK_DIR}/cmake)
step("run swap_in (find_package)" ${WORK_DIR}/cmake/swap_in ${GRAPH})
if(NOT step_output MATCHES "tropic_sssp agrees")
  message(FATAL_ERROR "swap_in (find_package) printed no agreement")
endif()
step("run shortest_paths (find_package)" ${WORK_DIR}/cmake/shortest_paths ${GRAPH})
if(NOT step_output MATCHES "verified")
  message(FATAL_ERROR "shortest_paths (find_package) did not verify")
endif()

# 2. pkg-config on a plain command line.
find_program(PKG_CONFIG NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config not found (scripts/install-deps.sh installs it)")
endif()
set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
step("pkg-config" ${PKG_CONFIG} --cflags --libs tropic)
string(STRIP "${step_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
step("pkg-config libdir" ${PKG_CONFIG} --variable=libdir tropic)
string(STRIP "${step_output}" libdir)
file(MAKE_DIRECTORY ${WORK_DIR}/pkg-config)
# Every installed header stands alone with only these flags (tropic.h in C too).
foreach(header IN LISTS headers)
  file(WRITE ${WORK_DIR}/pkg-config/header.cpp "#include <${header}>\n")
  step("compile ${header} alone" ${CXX_COMPILER} -std=c++17 -fsyntax-only ${flags}
    ${WORK_DIR}/pkg-config/header.cpp)
endforeach()
file(WRITE ${WORK_DIR}/pkg-config/header.c "#include <tropic/tropic.h>\n")
step("compile tropic/tropic.h alone as C99" ${C_COMPILER} -std=c99 -fsyntax-only ${flags}
  ${WORK_DIR}/pkg-config/header.c)
step("cc swap_in.c" ${C_COMPILER} -std=c99 ${SOURCE_DIR}/examples/swap_in.c -o
  ${WORK_DIR}/pkg-config/swap_in ${flags} -Wl,-rpath,${libdir})
step("run swap_in (pkg-config)" ${WORK_DIR}/pkg-config/swap_in ${GRAPH})
if(NOT step_output MATCHES "tropic_sssp agrees")
  message(FATAL_ERROR "swap_in (pkg-config) printed no agreement")
endif()
step("c++ shortest_paths.cpp" ${CXX_COMPILER} -std=c++17 -O1
  ${SOURCE_DIR}/examples/shortest_paths.cpp -o ${WORK_DIR}/pkg-config/shortest_paths ${flags}
  -Wl,-rpath,${libdir})
step("run shortest_paths (pkg-config)" ${WORK_DIR}/pkg-config/shortest_paths ${GRAPH})
if(NOT step_output MATCHES "verified")
  message(FATAL_ERROR "shortest_paths (pkg-config) did not verify")
endif()
