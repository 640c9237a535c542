/* Swapping tropic in for LAGraph: the same SSSP, first "the LAGraph way" (delta-stepping on
 * SuiteSparse:GraphBLAS, tropic's graphblas_cpu) and then through tropic_sssp, which runs on the
 * GPU when there is one. Usage: swap_in graph.mtx [source]. Exit status 0 when both agree. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <tropic/tropic.h>

int main(int argc, char **argv) {
  char msg[TROPIC_MSG_LEN];
  GrB_Matrix A = NULL;
  GrB_Vector cpu = NULL, fast = NULL;
  GrB_Index source = argc > 2 ? (GrB_Index)strtoull(argv[2], NULL, 10) : 0, n = 0, i;
  tropic_options lagraph_way = {0};
  tropic_stats st = {0};
  int ok = 1;
  st.struct_size = sizeof st; /* so that a newer libtropic writes only the fields we know */
  if (argc < 2) return fprintf(stderr, "usage: %s graph.mtx [source]\n", argv[0]), 1;
  GrB_init(GrB_NONBLOCKING);
  if (tropic_read_matrix(&A, argv[1], GrB_FP64, msg) != 0) return fprintf(stderr, "%s\n", msg), 1;
  lagraph_way.algorithm = TROPIC_GRAPHBLAS_CPU; /* was: LAGr_SingleSourceShortestPath (&cpu, G, ...) */
  if (tropic_sssp_ext(&cpu, NULL, &st, A, source, NULL, &lagraph_way, msg) != 0 ||
      tropic_sssp(&fast, A, source, NULL, msg) != 0)
    return fprintf(stderr, "%s\n", msg), 1;
  GrB_Matrix_nrows(&n, A);
  for (i = 0; i < n; i++) {
    double a = 0, b = 0;
    GrB_Vector_extractElement_FP64(&a, cpu, i);
    GrB_Vector_extractElement_FP64(&b, fast, i);
    if (a != b && !(fabs(a - b) <= 1e-9 * fabs(a)) && ok) ok = 0, fprintf(stderr, "vertex %lu: %g vs %g\n", (unsigned long)i, a, b);
  }
  printf("%lu vertices, graphblas_cpu %.2f ms, tropic_sssp %s\n", (unsigned long)n,
         st.milliseconds, ok ? "agrees" : "DISAGREES");
  GrB_Vector_free(&cpu), GrB_Vector_free(&fast), GrB_Matrix_free(&A);
  GrB_finalize();
  return ok ? 0 : 1;
}
