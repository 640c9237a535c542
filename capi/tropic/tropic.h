/* tropic's C API: single-source shortest paths on SuiteSparse:GraphBLAS objects, shaped like
 * LAGraph's LAGr_SingleSourceShortestPath so that swapping tropic in changes one call.
 *
 *   GrB_Vector d = NULL;
 *   char msg[TROPIC_MSG_LEN];
 *   int info = tropic_sssp(&d, A, source, NULL, msg);   // A(i,j) is the arc i -> j
 *
 * C99; usable from C++ (declarations are extern "C"). Call GrB_init (or GxB_init) first, as for
 * any GraphBLAS program; tropic starts GraphBLAS itself only if nobody has.
 *
 * Return values: 0 (GrB_SUCCESS) on success, a negative GrB_Info on failure, and then `msg`
 * (TROPIC_MSG_LEN bytes, may be NULL) says what went wrong; it is "" on success. No C++
 * exception ever leaves these functions. The input matrix A is unchanged for the caller after
 * every call, successful or not (its content, type, size, format and sparsity).
 */
#ifndef TROPIC_TROPIC_H
#define TROPIC_TROPIC_H

#include "tropic/version.h"

#ifdef __cplusplus
/* GraphBLAS 7.4's header has no extern "C" of its own: C++ adds it, after the C++ headers the
 * header pulls in (templates cannot have C linkage). */
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
extern "C" {
#include <GraphBLAS.h>
}
extern "C" {
#else
#include <GraphBLAS.h>
#endif

#include <stddef.h>
#include <stdint.h>

#define TROPIC_MSG_LEN 256

/* A file that cannot be opened or parsed (tropic_read_matrix); LAGraph's LAGRAPH_IO_ERROR. */
#define TROPIC_IO_ERROR (-1002)

/* Mirrors tropic::algorithm (algorithms/tropic/sssp.hpp). Zero is the automatic choice: the
 * GPU's delta-stepping when a CUDA device is usable, else TROPIC_GRAPHBLAS_CPU. */
typedef enum {
  TROPIC_AUTO = 0,
  TROPIC_DIJKSTRA = 1,
  TROPIC_DELTA_STEPPING = 2,
  TROPIC_BELLMAN_FORD = 3,
  TROPIC_GRAPHBLAS_CPU = 4,
  TROPIC_ADDS = 5,
  TROPIC_NEAR_FAR = 6,
  TROPIC_WORKFRONT = 7,
  TROPIC_RDBS = 8,
  TROPIC_DA2CF = 9
} tropic_algorithm;

/* Zero-initialise (`tropic_options o = {0};`) for the defaults. Like tropic_stats, the struct
 * may grow at its end: set `o.struct_size = sizeof o;` to have the library read the fields
 * after `device` (cutoff, and any later ones it knows). struct_size 0, what a zero-initialised
 * struct holds, reads algorithm, delta and device only: a program that never sets struct_size
 * (written before the field existed) keeps the defaults for every later field, and its zero
 * never reads as "cutoff 0". A non-zero struct_size below sizeof this first sized layout is
 * GrB_INVALID_VALUE. (struct_size was added in front of the fields of the first layout: a
 * program compiled against a header without it must be recompiled.) */
typedef struct {
  size_t struct_size;         /* 0, or sizeof(tropic_options) as the caller knows it */
  tropic_algorithm algorithm; /* which algorithm runs */
  double delta;  /* > 0: the bucket width, overriding the `delta` scalar; 0: use the scalar */
  int device;    /* CUDA device ordinal for GPU algorithms */
  double cutoff; /* read only when struct_size covers it: distances above it are reported
                    unreachable and not searched past (scipy's `limit`); +INFINITY for none;
                    negative or NaN is GrB_INVALID_VALUE. Ignored when struct_size is 0. */
} tropic_options;

/* Statistics of one call. The struct may grow at its end in later versions: zero-initialise it
 * and set struct_size, `tropic_stats st = {0}; st.struct_size = sizeof st;`, so that a program
 * built against this header keeps working with a newer library (which writes only the fields
 * that fit in struct_size) and a newer program with this library (which leaves the fields it
 * does not know at zero). tropic_sssp_ext fails with GrB_INVALID_VALUE when struct_size is
 * smaller than this first layout. */
typedef struct {
  size_t struct_size;        /* set by the caller: sizeof(tropic_stats) as the caller knows it */
  char algorithm[32];        /* the algorithm that ran ("graphblas_cpu", "delta_stepping", ...) */
  double delta;              /* the bucket width used */
  uint64_t buckets;          /* non-empty buckets processed */
  uint64_t iterations;       /* light relaxation rounds */
  uint64_t vertices_relaxed; /* frontier vertices whose out-arcs were scanned */
  uint64_t arcs_relaxed;     /* arcs scanned */
  double milliseconds;       /* the solve alone */
  double setup_milliseconds; /* the algorithm's own setup (GrB_Matrix build, GPU upload) */
  double interop_milliseconds; /* this API's overhead: taking A's arrays out and back, building
                                  the output vectors */
  /* Where one call's time went (steady clock), for measuring this API against calling the
   * algorithm directly. Appended after the fields above; interop_milliseconds is the sum of
   * unpack, copy, pack and output. */
  double unpack_milliseconds; /* GxB_Matrix_unpack_CSR of A; when A is not sparse CSR by row,
                                 also the GrB_Matrix_dup converted to it */
  double copy_milliseconds;   /* A's arrays copied into tropic's CSR (32-bit column ids) */
  double pack_milliseconds;   /* GxB_Matrix_pack_CSR: A's arrays handed back */
  double sssp_milliseconds;   /* the whole algorithm call: setup_milliseconds, milliseconds, and
                                 what follows the solve (GPU: parents/overflow pass, download) */
  double output_milliseconds; /* building the result GrB_Vectors */
} tropic_stats;

/* Shortest-path lengths from `source` in the graph of the square matrix A (A(i,j): the arc
 * i -> j of weight A(i,j); self-loops are ignored). Negative arcs (INT32, INT64, FP32, FP64) give
 * exact distances when no negative cycle is reachable from `source` (auto runs Bellman-Ford);
 * a reachable one returns GrB_NO_VALUE naming a vertex on it, after at most n rounds.
 * *path_length becomes a new dense vector of A's type; unreachable vertices hold INFINITY (FP32, FP64) or the type's maximum (INT32,
 * INT64, UINT32, UINT64). `delta`: the bucket width (any numeric type; NULL, empty or 0 for
 * automatic; infinity for a single bucket, i.e. Bellman-Ford; read as a double, never cast to
 * A's type; ignored with negative arcs, which take Bellman-Ford's single bucket). On failure
 * *path_length is NULL.
 *   GrB_NULL_POINTER        path_length or A is NULL
 *   GrB_NOT_IMPLEMENTED     A's type is not one of the six above, or the algorithm is missing
 *   GrB_DIMENSION_MISMATCH  A is not square
 *   GrB_INVALID_INDEX       source >= nrows(A)
 *   GrB_INVALID_VALUE       a negative or NaN delta, an empty graph, a negative weight for an
 *                           algorithm other than auto, bellman_ford and graphblas_cpu, or a
 *                           distance that does not fit A's type (use a wider type)
 *   GrB_NO_VALUE            a negative-weight cycle is reachable from source
 *   GrB_OUT_OF_MEMORY       memory ran out (A is intact)
 */
int tropic_sssp(GrB_Vector *path_length, GrB_Matrix A, GrB_Index source, GrB_Scalar delta,
                char *msg);

/* tropic_sssp with an algorithm choice (opts may be NULL), a shortest-path tree (parents may be
 * NULL; else *parents becomes a dense GrB_INT64 vector, -1 for the source and unreachable
 * vertices) and statistics (stats may be NULL; else its struct_size must be set, see above). */
int tropic_sssp_ext(GrB_Vector *path_length, GrB_Vector *parents, tropic_stats *stats,
                    GrB_Matrix A, GrB_Index source, GrB_Scalar delta,
                    const tropic_options *opts, char *msg);

/* Shortest-path lengths from many sources at once: row i of *D (k x n, A's type) holds the
 * distances from the source in entry i of `sources` (a vector of length k, every entry present,
 * any numeric type holding integral vertex ids; duplicates allowed). *D is SPARSE: entry (i, v)
 * is present exactly when v is reachable from source i within the cutoff, and absent for
 * unreachable vertices and those beyond the cutoff (so a small cutoff gives a small D).
 * `delta` as for tropic_sssp. `cutoff`: NULL or empty for none, else read as a double, >= 0.
 * GraphBLAS on the CPU solves the sources together (batched delta-stepping, GrB_mxm); the GPU
 * algorithms run them on one upload of A. On failure *D is NULL; A is intact either way.
 *   GrB_NULL_POINTER    D, A or sources is NULL
 *   GrB_INVALID_INDEX   a source >= nrows(A) (the message names it and its entry)
 *   GrB_INVALID_VALUE   a source entry absent, negative or not integral; a negative or NaN
 *                       delta or cutoff; the rest as for tropic_sssp
 *   GrB_OUT_OF_MEMORY   k x n distances do not fit (the message names k, n and the bytes)
 *   others as for tropic_sssp */
int tropic_sssp_multi(GrB_Matrix *D, GrB_Matrix A, GrB_Vector sources, GrB_Scalar delta,
                      GrB_Scalar cutoff, char *msg);

/* tropic_sssp_multi with options (opts may be NULL; its cutoff, when struct_size covers it, is
 * used only when the `cutoff` scalar is NULL or empty) and statistics summed over the sources
 * (stats may be NULL; else its struct_size must be set). */
int tropic_sssp_multi_ext(GrB_Matrix *D, tropic_stats *stats, GrB_Matrix A, GrB_Vector sources,
                          GrB_Scalar delta, GrB_Scalar cutoff, const tropic_options *opts,
                          char *msg);

/* The library's version, as built (TROPIC_VERSION_* in tropic/version.h are the header's): any
 * of the pointers may be NULL. */
void tropic_version(int *major_version, int *minor_version, int *patch_version);

/* Reads a graph file (Matrix Market, DIMACS .gr, SNAP edge list, Galois .gr; gzip too) into a
 * new n-by-n matrix of `type` (one of the six above): A(u,v) = weight of u -> v, parallel arcs
 * keep the lightest, self-loops dropped, unweighted files get tropic's hashed weights 1..255.
 * Errors: GrB_NULL_POINTER, GrB_NOT_IMPLEMENTED (type), TROPIC_IO_ERROR (open, parse),
 * GrB_INVALID_VALUE / GrB_INVALID_INDEX (bad content), GrB_OUT_OF_MEMORY. */
int tropic_read_matrix(GrB_Matrix *A, const char *path, GrB_Type type, char *msg);

#ifdef __cplusplus
}
#endif

#endif /* TROPIC_TROPIC_H */
