/* The command line, timing and output shared by our drivers of the outside SSSP programs that
 * `tropic bench --peers` measures (issue 37). Each driver (gap_sssp_driver.cc,
 * lagraph_sssp_driver.c) supplies a peer_ops; scripts/fetch-peers.sh compiles it against the
 * peer's own sources outside this repository. C and C++.
 *
 * usage: DRIVER GRAPH --sources S1,S2,... [--deltas D1,D2,...] [--warmup W] [--runs N]
 *               [--sweep-runs K] [--sweep-stop F] [--sweep-budget-ms B] [--slow-ms X]
 *               [--slow-sources K] [--distances PREFIX]
 *   GRAPH      tropic's binary graph (.tgr: tropic::write_binary_cache, uint32 weights), or a
 *              file the peer reads itself (GAP's builder: .mtx .el .wel .gr ...; LAGraph: .mtx)
 *   --deltas   one delta, or a sweep: every delta in the order given on the first source (W
 *              warm-up runs before the first; a run under 100 ms is repeated to K, the median
 *              kept); the sweep stops at the first delta whose time exceeds F x the best so far
 *              (default 2: past the minimum of a U-shaped curve), or once it has taken B ms;
 *              then every source runs with the best delta: W warm-up runs and N timed runs.
 *   --slow-ms  the bench's rule: a first run (warm-up or timed) slower than X ms is the only
 *              timed run; after K sources with such a run the others are skipped (@skip).
 *   --distances PREFIX   after each source's last run, its distances go to PREFIX.SOURCE as
 *              "vertex distance" lines ("inf" where unreachable), as `tropic sssp --output`.
 * Output on stdout, one line each; the bench reads only the lines starting with '@':
 *   @peer threads=T n=N arcs=M load_ms=X     @sweep delta=D ms=X       @delta D
 *   @run source=S ms=X [slow=1]              @distances source=S file=PATH
 *   @skip source=S REASON                    @sweep-stop REASON
 * Exit code 0; 1 with "@error MESSAGE" on a failure. */
#ifndef TROPIC_PEER_DRIVER_H
#define TROPIC_PEER_DRIVER_H

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PEER_MAX_LIST 64

typedef struct peer_ops {
  /* Reads GRAPH; sets *n and *arcs. Returns 0, or nonzero with err filled. */
  int (*load)(const char* path, uint64_t* n, uint64_t* arcs, char* err);
  /* Untimed: the delta of the next solves. */
  int (*set_delta)(uint64_t delta, char* err);
  /* Untimed: frees the last solve's result, so that no solve times its predecessor's free. */
  void (*release)(void);
  /* Timed: one solve from source; the result stays for write(). */
  int (*solve)(uint64_t source, char* err);
  /* Writes the last solve's distances, n "vertex distance" lines. */
  int (*write)(FILE* f, char* err);
  int (*threads)(void);
} peer_ops;

typedef struct peer_graph {
  uint64_t n, arcs;
  uint64_t* offsets; /* n + 1 */
  uint32_t* columns; /* arcs */
  uint32_t* weights; /* arcs */
} peer_graph;

static int peer_ends_with(const char* s, const char* tail) {
  size_t a = strlen(s), b = strlen(tail);
  return a >= b && strcmp(s + a - b, tail) == 0;
}

/* tropic's binary cache (lib/io.cpp write_binary_cache): "TROPICG1", u32 type tag (0: uint32),
 * u32 0, u64 n, u64 arcs, u64 offsets[n+1], u32 columns[arcs] (padded to 8 bytes),
 * W weights[arcs]. Only uint32 weights: both peers' integer weight types hold them. */
static int peer_read_tgr(const char* path, peer_graph* g, char* err) {
  FILE* f = fopen(path, "rb");
  char magic[8];
  uint32_t tag[2];
  int ok = 0;
  memset(g, 0, sizeof *g);
  if (!f) {
    snprintf(err, 256, "cannot open %s: %s", path, strerror(errno));
    return 1;
  }
  if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "TROPICG1", 8) != 0 || fread(tag, 4, 2, f) != 2 ||
      fread(&g->n, 8, 1, f) != 1 || fread(&g->arcs, 8, 1, f) != 1) {
    snprintf(err, 256, "%s: not a tropic binary graph (TROPICG1)", path);
  } else if (tag[0] != 0) {
    snprintf(err, 256, "%s: weight type tag %u, the drivers read uint32 (0) only", path,
             (unsigned)tag[0]);
  } else {
    g->offsets = (uint64_t*)malloc((g->n + 1) * 8);
    g->columns = (uint32_t*)malloc(g->arcs * 4 + 4);
    g->weights = (uint32_t*)malloc(g->arcs * 4 + 4);
    if (!g->offsets || !g->columns || !g->weights)
      snprintf(err, 256, "%s: out of memory for %" PRIu64 " arcs", path, g->arcs);
    else if (fread(g->offsets, 8, g->n + 1, f) != g->n + 1 ||
             fread(g->columns, 4, g->arcs + (g->arcs % 2), f) != g->arcs + (g->arcs % 2) ||
             fread(g->weights, 4, g->arcs, f) != g->arcs || g->offsets[g->n] != g->arcs)
      snprintf(err, 256, "%s: truncated or inconsistent", path);
    else
      ok = 1;
  }
  fclose(f);
  if (!ok) {
    free(g->offsets);
    free(g->columns);
    free(g->weights);
    memset(g, 0, sizeof *g);
  }
  return !ok;
}

static void peer_free_graph(peer_graph* g) {
  free(g->offsets);
  free(g->columns);
  free(g->weights);
  memset(g, 0, sizeof *g);
}

static double peer_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int peer_parse_list(const char* text, uint64_t* out, int* count, const char* flag) {
  const char* p = text;
  *count = 0;
  while (*p) {
    char* end = NULL;
    if (*p < '0' || *p > '9' || *count == PEER_MAX_LIST) break;
    errno = 0;
    out[(*count)++] = strtoull(p, &end, 10);
    if (errno) break;
    p = end;
    if (*p == ',')
      ++p;
    else if (*p)
      break;
  }
  if (*p || *count == 0) {
    printf("@error %s expects up to %d comma-separated non-negative integers, got '%s'\n", flag,
           PEER_MAX_LIST, text);
    return 1;
  }
  return 0;
}

static int peer_cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static double peer_median(double* v, int k) {
  qsort(v, (size_t)k, sizeof *v, peer_cmp_double);
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

static int peer_fail(const char* what, const char* err) {
  printf("@error %s: %s\n", what, err);
  fflush(stdout);
  return 1;
}

/* One timed solve; its time in *ms. */
static int peer_timed_solve(const peer_ops* ops, uint64_t source, double* ms, char* err) {
  double t0;
  ops->release();
  t0 = peer_now_ms();
  if (ops->solve(source, err)) return 1;
  *ms = peer_now_ms() - t0;
  return 0;
}

/* Up to `runs` timed solves after `warmup` untimed ones, the bench's rule for slow runs: a first
 * solve (warm-up or timed) slower than slow_ms (> 0) is the only timed one. Returns the count
 * timed (in ms[]), 0 on failure; *slow says whether the rule cut it short. */
static int peer_time_solves(const peer_ops* ops, uint64_t source, int warmup, int runs,
                            double slow_ms, double* ms, int* slow, char* err) {
  int k, timed = 0;
  double t;
  *slow = 0;
  for (k = 0; k < warmup + runs; ++k) {
    if (peer_timed_solve(ops, source, &t, err)) return 0;
    if (k == 0 && slow_ms > 0 && t > slow_ms) {
      ms[0] = t;
      *slow = 1;
      return 1;
    }
    if (k >= warmup) ms[timed++] = t;
  }
  return timed;
}

static int peer_driver_main(int argc, char** argv, const peer_ops* ops) {
  uint64_t sources[PEER_MAX_LIST], deltas[PEER_MAX_LIST] = {1}, n = 0, arcs = 0;
  int nsources = 0, ndeltas = 1, warmup = 1, runs = 3, sweep_runs = 1, i, d, best = 0;
  int slow_sources = 1, slow_seen = 0;
  double stop = 2, ms[1000], best_ms = -1, t0, slow_ms = 0, budget_ms = 0, swept_ms = 0;
  const char* graph = NULL;
  const char* prefix = NULL;
  char err[4400] = "";
  for (i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (a[0] != '-') {
      graph = a;
      continue;
    }
    if (!v) {
      printf("@error %s needs a value\n", a);
      return 2;
    }
    ++i;
    if (!strcmp(a, "--sources")) {
      if (peer_parse_list(v, sources, &nsources, a)) return 2;
    } else if (!strcmp(a, "--deltas")) {
      if (peer_parse_list(v, deltas, &ndeltas, a)) return 2;
    } else if (!strcmp(a, "--warmup")) {
      warmup = atoi(v);
    } else if (!strcmp(a, "--runs")) {
      runs = atoi(v);
    } else if (!strcmp(a, "--sweep-runs")) {
      sweep_runs = atoi(v);
    } else if (!strcmp(a, "--sweep-stop")) {
      stop = atof(v);
    } else if (!strcmp(a, "--sweep-budget-ms")) {
      budget_ms = atof(v);
    } else if (!strcmp(a, "--slow-ms")) {
      slow_ms = atof(v);
    } else if (!strcmp(a, "--slow-sources")) {
      slow_sources = atoi(v);
    } else if (!strcmp(a, "--distances")) {
      prefix = v;
    } else {
      printf("@error unknown option %s\n", a);
      return 2;
    }
  }
  if (!graph || nsources == 0 || warmup < 0 || runs < 1 || runs > 1000 || sweep_runs < 1 ||
      sweep_runs > 1000 || slow_sources < 1) {
    printf(
        "@error usage: %s GRAPH --sources S1,... [--deltas D1,...] [--warmup W] [--runs N] "
        "[--sweep-runs K] [--sweep-stop F] [--sweep-budget-ms B] [--slow-ms X] "
        "[--slow-sources K] [--distances PREFIX]\n",
        argv[0]);
    return 2;
  }
  for (d = 0; d < ndeltas; ++d)
    if (deltas[d] == 0) {
      printf("@error --deltas: a delta must be positive\n");
      return 2;
    }
  t0 = peer_now_ms();
  if (ops->load(graph, &n, &arcs, err)) return peer_fail("load", err);
  printf("@peer threads=%d n=%" PRIu64 " arcs=%" PRIu64 " load_ms=%.3f\n", ops->threads(), n, arcs,
         peer_now_ms() - t0);
  for (i = 0; i < nsources; ++i)
    if (sources[i] >= n) {
      snprintf(err, sizeof err, "source %" PRIu64 " is not a vertex (n = %" PRIu64 ")", sources[i],
               n);
      return peer_fail("--sources", err);
    }
  if (ndeltas > 1) {
    /* Each delta once; a run under 100 ms (where noise can decide) K times, the median kept. */
    for (d = 0; d < ndeltas; ++d) {
      double m;
      int k, slow = 0, timed;
      if (ops->set_delta(deltas[d], err)) return peer_fail("sweep", err);
      if (d == 0 && warmup > 0) {
        timed = peer_time_solves(ops, sources[0], warmup, 1, slow_ms, ms, &slow, err);
        if (timed == 0) return peer_fail("sweep", err);
      } else if (peer_timed_solve(ops, sources[0], &ms[0], err)) {
        return peer_fail("sweep", err);
      }
      swept_ms += ms[0];
      for (k = 1; k < sweep_runs && ms[0] < 100; ++k) {
        if (peer_timed_solve(ops, sources[0], &ms[k], err)) return peer_fail("sweep", err);
        swept_ms += ms[k];
      }
      m = peer_median(ms, k);
      printf("@sweep delta=%" PRIu64 " ms=%.4f\n", deltas[d], m);
      fflush(stdout);
      if (best_ms < 0 || m < best_ms) {
        best_ms = m;
        best = d;
      } else if (m > stop * best_ms) {
        break;
      }
      if (budget_ms > 0 && swept_ms > budget_ms && d + 1 < ndeltas) {
        printf("@sweep-stop the sweep took %.0f ms, over --sweep-budget-ms %.0f\n", swept_ms,
               budget_ms);
        break;
      }
    }
  }
  printf("@delta %" PRIu64 "\n", deltas[best]);
  if (ops->set_delta(deltas[best], err)) return peer_fail("delta", err);
  for (i = 0; i < nsources; ++i) {
    int k, slow = 0, timed;
    if (slow_seen >= slow_sources) {
      printf("@skip source=%" PRIu64
             " slow: the first run took over --slow-ms %.0f on %d "
             "source(s) (--slow-sources)\n",
             sources[i], slow_ms, slow_seen);
      continue;
    }
    timed = peer_time_solves(ops, sources[i], warmup, runs, slow_ms, ms, &slow, err);
    if (timed == 0) return peer_fail("solve", err);
    slow_seen += slow;
    for (k = 0; k < timed; ++k)
      printf("@run source=%" PRIu64 " ms=%.4f%s\n", sources[i], ms[k], slow ? " slow=1" : "");
    if (prefix) {
      char path[4096];
      FILE* f;
      snprintf(path, sizeof path, "%s.%" PRIu64, prefix, sources[i]);
      f = fopen(path, "w");
      if (!f) {
        snprintf(err, sizeof err, "cannot write %s: %s", path, strerror(errno));
        return peer_fail("distances", err);
      }
      if (ops->write(f, err)) {
        fclose(f);
        return peer_fail("distances", err);
      }
      if (fclose(f)) {
        snprintf(err, sizeof err, "cannot write %s", path);
        return peer_fail("distances", err);
      }
      printf("@distances source=%" PRIu64 " file=%s\n", sources[i], path);
    }
    fflush(stdout);
  }
  return 0;
}

#endif
