# The layers of ../shared/DESIGN.md ("Layers") as targets: each layer folder is one library whose
# own sources see the whole folder (its internal headers), while everything else sees only the
# headers it publishes, so the build refuses an upward include or one into another layer's
# internals.

# tropic_public_headers(<target> <folder>)
# The headers under <folder>/tropic/ (*.hpp, *.h, *.cuh) are <target>'s public ones, but for
# those in tropic/detail/, which stay internal like everything else in <folder>. In the build
# tree they are seen through a view, ${PROJECT_BINARY_DIR}/include/<target>/tropic/, of links to
# the sources (copies where links fail): that view, not <folder>, is the public include folder,
# so the build tree sees what an install sees. They install into include/tropic/, but for those a
# CPU-only build cannot compile (a GPU_ONLY layer's, device memory and matrix): an installed
# header always compiles in the build it came from.
function(tropic_public_headers target folder)
  cmake_parse_arguments(arg "GPU_ONLY" "" "" ${ARGN})
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${folder}/tropic
    ${folder}/tropic/*.hpp ${folder}/tropic/*.h ${folder}/tropic/*.cuh)
  list(FILTER headers EXCLUDE REGEX "^detail/")
  set(view ${PROJECT_BINARY_DIR}/include/${target})
  file(REMOVE_RECURSE ${view})  # a header removed from the folder leaves the view too
  file(MAKE_DIRECTORY ${view}/tropic)
  foreach(header IN LISTS headers)
    get_filename_component(subfolder ${header} DIRECTORY)
    file(MAKE_DIRECTORY ${view}/tropic/${subfolder})
    file(CREATE_LINK ${folder}/tropic/${header} ${view}/tropic/${header} SYMBOLIC COPY_ON_ERROR)
    set(needs_cuda ${arg_GPU_ONLY})
    if(NOT needs_cuda)
      file(READ ${folder}/tropic/${header} text)
      string(REGEX MATCH "needs a CUDA build|#include [<\"](cuda_runtime|tropic/device_m)" needs_cuda
        "${text}")
    endif()
    if(TROPIC_HAVE_CUDA OR NOT needs_cuda)
      install(FILES ${folder}/tropic/${header}
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tropic/${subfolder})
    endif()
  endforeach()
  get_target_property(type ${target} TYPE)
  set(scope PUBLIC)
  if(type STREQUAL "INTERFACE_LIBRARY")
    set(scope INTERFACE)
  endif()
  target_include_directories(${target} ${scope}
    $<BUILD_INTERFACE:${view}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endfunction()

# tropic_layer(<target> <folder> EXPORT_NAME <name> [GPU_ONLY] [DEPENDS <target>...])
# One layer: every *.cpp under <folder> (subfolders included), and every *.cu in CUDA builds,
# found again at each build (CONFIGURE_DEPENDS), so new files need no edit here. A GPU_ONLY layer
# is headers only (an INTERFACE target) in CPU builds. DEPENDS: the layers below, linked PUBLIC.
# Exported, and aliased in the build tree, as tropic::<name>.
function(tropic_layer target folder)
  cmake_parse_arguments(arg "GPU_ONLY" "EXPORT_NAME" "DEPENDS" ${ARGN})
  get_filename_component(folder ${folder} ABSOLUTE)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${folder}/*.cpp)
  if(TROPIC_HAVE_CUDA)
    file(GLOB_RECURSE cuda_sources CONFIGURE_DEPENDS ${folder}/*.cu)
    list(APPEND sources ${cuda_sources})
  endif()
  if(arg_GPU_ONLY AND NOT TROPIC_HAVE_CUDA)
    add_library(${target} INTERFACE)
    target_link_libraries(${target} INTERFACE ${arg_DEPENDS})
  else()
    # Static by default (position-independent, so they link into the Python module too); with
    # BUILD_SHARED_LIBS=ON an OBJECT library, whose objects the umbrella target links into the
    # one libtropic.so.<major> (CMakeLists.txt): the layers stay apart at compile time only.
    if(BUILD_SHARED_LIBS)
      add_library(${target} OBJECT ${sources})
    else()
      add_library(${target} STATIC ${sources})
    endif()
    target_include_directories(${target} PRIVATE ${folder})
    target_link_libraries(${target} PUBLIC ${arg_DEPENDS}
      PRIVATE $<BUILD_INTERFACE:tropic_warnings>)
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    if(TROPIC_HAVE_CUDA)
      set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
    endif()
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${arg_EXPORT_NAME})
  add_library(tropic::${arg_EXPORT_NAME} ALIAS ${target})
  if(arg_GPU_ONLY)
    tropic_public_headers(${target} ${folder} GPU_ONLY)
  else()
    tropic_public_headers(${target} ${folder})
  endif()
endfunction()

# tropic_forward_headers(<target> <folder> <header>...)
# An INTERFACE target (build tree only) through which named internal headers of <folder> are
# visible, one forwarding header each: a layer above may include those, and nothing else of
# <folder>. The forwarded header's own includes resolve from <folder>, as before.
function(tropic_forward_headers target folder)
  set(view ${PROJECT_BINARY_DIR}/include/${target})
  file(MAKE_DIRECTORY ${view})
  file(GLOB_RECURSE stale RELATIVE ${view} ${view}/*)
  list(REMOVE_ITEM stale ${ARGN})
  foreach(header IN LISTS stale)
    file(REMOVE ${view}/${header})
  endforeach()
  foreach(header IN LISTS ARGN)
    if(EXISTS ${folder}/${header})
      # file(CONFIGURE) writes only on a change: no rebuild at every configure.
      file(CONFIGURE OUTPUT ${view}/${header} CONTENT "#include \"${folder}/${header}\"\n")
    else()
      file(REMOVE ${view}/${header})
    endif()
  endforeach()
  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE ${view})
endfunction()
