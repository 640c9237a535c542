# SuiteSparse:GraphBLAS from Debian's libgraphblas-dev ships GraphBLAS.h and libgraphblas.so but
# no CMake package: find them and make the imported target GraphBLAS::GraphBLAS ourselves.
find_path(GRAPHBLAS_INCLUDE_DIR NAMES GraphBLAS.h PATH_SUFFIXES suitesparse)
find_library(GRAPHBLAS_LIBRARY NAMES graphblas)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(TropicGraphBLAS
  REQUIRED_VARS GRAPHBLAS_LIBRARY GRAPHBLAS_INCLUDE_DIR
  REASON_FAILURE_MESSAGE "install libgraphblas-dev (scripts/install-deps.sh)")
if(TropicGraphBLAS_FOUND AND NOT TARGET GraphBLAS::GraphBLAS)
  add_library(GraphBLAS::GraphBLAS UNKNOWN IMPORTED)
  set_target_properties(GraphBLAS::GraphBLAS PROPERTIES
    IMPORTED_LOCATION "${GRAPHBLAS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${GRAPHBLAS_INCLUDE_DIR}")
endif()
