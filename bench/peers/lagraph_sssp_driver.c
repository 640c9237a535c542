/* Our driver of LAGraph's LAGr_SingleSourceShortestPath (GraphBLAS/LAGraph, BSD-2), the
 * reference GraphBLAS delta-stepping (Sridhar et al. 2019), for `tropic bench --peers`
 * (issue 37; protocol: peer_driver.h). scripts/fetch-peers.sh compiles it against the pinned
 * LAGraph release built in the peers folder; none of LAGraph's code is in this repository.
 * Setup as LAGraph's own sssp_demo: a directed LAGraph_Graph with G->emin cached, outside the
 * timed region; GraphBLAS uses all cores (its default). */
#include <LAGraph.h>
#include <omp.h>

#include "peer_driver.h"

static LAGraph_Graph graph = NULL;
static GrB_Type type = NULL;
static GrB_Scalar delta = NULL;
static GrB_Vector result = NULL;
static uint64_t vertices = 0;
static char msg[LAGRAPH_MSG_LEN];

static int grb_failed(int info, const char* what, char* err) {
  if (info >= 0) return 0; /* GrB_SUCCESS, GrB_NO_VALUE */
  snprintf(err, 256, "%.60s returned %d: %.180s", what, info, msg);
  return 1;
}

/* tropic's CSR as a UINT32 GrB_Matrix (tropic's weight type in the bench), duplicate arcs
 * combined by min, as SSSP reads them. */
static int load_tgr(const char* path, GrB_Matrix* A, char* err) {
  peer_graph g;
  GrB_Index *rows, *cols;
  uint64_t v, a;
  int info;
  if (peer_read_tgr(path, &g, err)) return 1;
  rows = (GrB_Index*)malloc(g.arcs * sizeof(GrB_Index) + 8);
  cols = (GrB_Index*)malloc(g.arcs * sizeof(GrB_Index) + 8);
  if (!rows || !cols) {
    snprintf(err, 256, "%s: out of memory", path);
    free(rows);
    free(cols);
    peer_free_graph(&g);
    return 1;
  }
  for (v = 0; v < g.n; ++v)
    for (a = g.offsets[v]; a < g.offsets[v + 1]; ++a) {
      rows[a] = v;
      cols[a] = g.columns[a];
    }
  info = GrB_Matrix_new(A, GrB_UINT32, g.n, g.n);
  if (info == GrB_SUCCESS)
    info = GrB_Matrix_build_UINT32(*A, rows, cols, g.weights, g.arcs, GrB_MIN_UINT32);
  free(rows);
  free(cols);
  peer_free_graph(&g);
  snprintf(msg, sizeof msg, "%s", "");
  return grb_failed(info, "GrB_Matrix_build", err);
}

static int lag_load(const char* path, uint64_t* n, uint64_t* arcs, char* err) {
  GrB_Matrix A = NULL;
  GrB_Index nrows = 0, nvals = 0;
  char name[LAGRAPH_MAX_NAME_LEN];
  if (peer_ends_with(path, ".tgr")) {
    if (load_tgr(path, &A, err)) return 1;
  } else {
    FILE* f = fopen(path, "r");
    if (!f) {
      snprintf(err, 256, "cannot open %s: %s", path, strerror(errno));
      return 1;
    }
    int info = LAGraph_MMRead(&A, f, msg);
    fclose(f);
    if (grb_failed(info, "LAGraph_MMRead", err)) return 1;
  }
  if (grb_failed(GrB_Matrix_nrows(&nrows, A), "GrB_Matrix_nrows", err) ||
      grb_failed(GrB_Matrix_nvals(&nvals, A), "GrB_Matrix_nvals", err) ||
      grb_failed(LAGraph_Matrix_TypeName(name, A, msg), "LAGraph_Matrix_TypeName", err) ||
      grb_failed(LAGraph_TypeFromName(&type, name, msg), "LAGraph_TypeFromName", err) ||
      grb_failed(LAGraph_New(&graph, &A, LAGraph_ADJACENCY_DIRECTED, msg), "LAGraph_New", err) ||
      grb_failed(LAGraph_Cached_EMin(graph, msg), "LAGraph_Cached_EMin", err) ||
      grb_failed(GrB_Scalar_new(&delta, type), "GrB_Scalar_new", err))
    return 1;
  vertices = nrows;
  *n = nrows;
  *arcs = nvals;
  return 0;
}

static int lag_set_delta(uint64_t d, char* err) {
  return grb_failed(GrB_Scalar_setElement_UINT64(delta, d), "GrB_Scalar_setElement", err);
}

static void lag_release(void) {
  GrB_free(&result);
}

static int lag_solve(uint64_t source, char* err) {
  return grb_failed(LAGr_SingleSourceShortestPath(&result, graph, source, delta, msg),
                    "LAGr_SingleSourceShortestPath", err);
}

/* LAGraph marks unreachable vertices with the type's largest value (INT32_MAX, UINT32_MAX, ...
 * or +inf), or leaves them out of the vector. */
static double type_infinity(void) {
  if (type == GrB_INT32) return INT32_MAX;
  if (type == GrB_INT64) return (double)INT64_MAX;
  if (type == GrB_UINT32) return UINT32_MAX;
  if (type == GrB_UINT64) return (double)UINT64_MAX;
  return 1.0 / 0.0;
}

static int lag_write(FILE* f, char* err) {
  GrB_Index k = vertices, i;
  GrB_Index* index = (GrB_Index*)malloc((vertices + 1) * sizeof(GrB_Index));
  double* value = (double*)malloc((vertices + 1) * sizeof(double));
  unsigned char* present = (unsigned char*)calloc(vertices + 1, 1);
  double* dist = (double*)malloc((vertices + 1) * sizeof(double));
  const double inf = type_infinity();
  int status = 0;
  if (!index || !value || !present || !dist) {
    snprintf(err, 256, "out of memory writing %" PRIu64 " distances", vertices);
    status = 1;
  } else if (grb_failed(GrB_Vector_extractTuples_FP64(index, value, &k, result),
                        "GrB_Vector_extractTuples", err)) {
    status = 1;
  } else {
    for (i = 0; i < k; ++i) {
      present[index[i]] = 1;
      dist[index[i]] = value[i];
    }
    for (i = 0; i < vertices && status == 0; ++i) {
      int w = (!present[i] || dist[i] >= inf)
                  ? fprintf(f, "%" PRIu64 " inf\n", (uint64_t)i)
                  : fprintf(f, "%" PRIu64 " %.17g\n", (uint64_t)i, dist[i]);
      if (w < 0) {
        snprintf(err, 256, "write failed: %s", strerror(errno));
        status = 1;
      }
    }
  }
  free(index);
  free(value);
  free(present);
  free(dist);
  return status;
}

static int lag_threads(void) {
  int t = 0;
  GxB_Global_Option_get(GxB_NTHREADS, &t);
  return t;
}

int main(int argc, char** argv) {
  const peer_ops ops = {lag_load, lag_set_delta, lag_release, lag_solve, lag_write, lag_threads};
  int status;
  if (LAGraph_Init(msg) != GrB_SUCCESS) {
    printf("@error LAGraph_Init: %s\n", msg);
    return 1;
  }
  status = peer_driver_main(argc, argv, &ops);
  GrB_free(&result);
  GrB_free(&delta);
  LAGraph_Delete(&graph, msg);
  LAGraph_Finalize(msg);
  return status;
}
