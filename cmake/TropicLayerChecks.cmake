# ctest checks that the layers keep apart (../shared/DESIGN.md "Layers"). Each probe is one
# translation unit of a single #include, compiled as a layer's own sources are (its folder, its
# include folders and link libraries): a forbidden header must not be found, an allowed one must
# compile. Probes build only when their test runs, never with `all`; they skip where the build
# system is absent (binaries built elsewhere, scripts/device-carry.sh).

# tropic_layer_probe(<name> <layer target> <header> ALLOWED|FORBIDDEN)
# <layer target> may also be the umbrella `tropic`, an INTERFACE target or, in shared builds, the
# one libtropic.so (then: what its users see).
function(tropic_layer_probe name layer header expect)
  set(source ${PROJECT_BINARY_DIR}/layer_probes/${name}.cpp)
  file(CONFIGURE OUTPUT ${source} CONTENT "#include \"${header}\"\n")
  add_library(layer_probe_${name} OBJECT EXCLUDE_FROM_ALL ${source})
  get_target_property(type ${layer} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "SHARED_LIBRARY")
    target_link_libraries(layer_probe_${name} PRIVATE ${layer})
  else()
    get_target_property(dirs ${layer} INCLUDE_DIRECTORIES)
    get_target_property(libs ${layer} LINK_LIBRARIES)
    get_target_property(defs ${layer} COMPILE_DEFINITIONS)
    target_include_directories(layer_probe_${name} PRIVATE ${dirs})
    target_link_libraries(layer_probe_${name} PRIVATE ${libs})
    if(defs)
      target_compile_definitions(layer_probe_${name} PRIVATE ${defs})
    endif()
  endif()
  add_test(NAME layers.${name}
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DTARGET=layer_probe_${name}
            -DHEADER=${header} -DEXPECT=${expect}
            -P ${PROJECT_SOURCE_DIR}/cmake/layer_probe.cmake)
  # One build at a time in the build tree.
  set_tests_properties(layers.${name} PROPERTIES RESOURCE_LOCK tropic_build_tree
    SKIP_REGULAR_EXPRESSION "layer probe skipped")
endfunction()

# Upward includes: lib/ sees neither semiring/, algorithms/ nor capi/; semiring/ not algorithms/;
# algorithms/ not capi/.
tropic_layer_probe(core_sees_no_semiring tropic_core tropic/operators.hpp FORBIDDEN)
tropic_layer_probe(core_sees_no_algorithms tropic_core tropic/sssp.hpp FORBIDDEN)
tropic_layer_probe(core_sees_no_capi tropic_core tropic/tropic.h FORBIDDEN)
if(TROPIC_HAVE_CUDA)
  tropic_layer_probe(semiring_sees_no_algorithms tropic_semiring tropic/sssp.hpp FORBIDDEN)
  tropic_layer_probe(semiring_sees_no_algorithm_policy tropic_semiring policy.hpp FORBIDDEN)
endif()
tropic_layer_probe(algorithms_see_no_capi tropic_algorithms tropic/tropic.h FORBIDDEN)
# Another layer's internals: semiring's beyond the named exception (tropic_semiring_device), and
# every internal header from a user's side (the command, the examples, an installed tropic).
tropic_layer_probe(algorithms_see_no_semiring_internals tropic_algorithms push_edge_wise.cuh
  FORBIDDEN)
tropic_layer_probe(users_see_no_semiring_internals tropic operators.cuh FORBIDDEN)
tropic_layer_probe(users_see_no_algorithm_internals tropic tropic/detail/backends.hpp FORBIDDEN)
tropic_layer_probe(users_see_no_core_internals tropic tropic/detail/graphblas_session.hpp
  FORBIDDEN)
# And the probes themselves work: what a layer may include compiles.
tropic_layer_probe(core_sees_itself tropic_core tropic/detail/openmp.hpp ALLOWED)
tropic_layer_probe(algorithms_see_core_internals tropic_algorithms
  tropic/detail/graphblas_session.hpp ALLOWED)
tropic_layer_probe(users_see_the_api tropic tropic/sssp.hpp ALLOWED)
