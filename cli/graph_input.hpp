// How the `tropic` command turns its GRAPH argument into a csr<W>: a file (format detected by
// content) or a generator spec, and the weight type chosen by --weights (default `auto`).
#pragma once

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "args.hpp"
#include "tropic/csr.hpp"
#include "tropic/error.hpp"
#include "tropic/generate.hpp"
#include "tropic/io.hpp"

namespace tropic::cli {

enum class weight_choice { automatic, u32, i32, u64, i64, f32, f64 };

inline weight_choice parse_weight_choice(const std::string& s) {
  if (s == "auto") return weight_choice::automatic;
  if (s == "uint32") return weight_choice::u32;
  if (s == "int32") return weight_choice::i32;
  if (s == "uint64") return weight_choice::u64;
  if (s == "int64") return weight_choice::i64;
  if (s == "float") return weight_choice::f32;
  if (s == "double") return weight_choice::f64;
  throw usage_error(
      "--weights must be one of auto, uint32, int32, uint64, int64, float, double; got '" + s +
      "'");
}

inline bool file_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// A generator spec is "kron:...", "uniform:..." or "grid:..."; an existing file of that name wins.
inline bool is_generator_spec(const std::string& s) {
  for (const char* prefix : {"kron:", "uniform:", "grid:"})
    if (s.rfind(prefix, 0) == 0) return !file_exists(s);
  return false;
}

// Prints "tropic: <what> ..." to stderr once a task has run for a second, and how long it took
// when it ends; quick tasks print nothing, so scripted use stays quiet.
class slow_task_note {
 public:
  slow_task_note(std::string what, bool enabled) : what_(std::move(what)) {
    if (!enabled) return;
    start_ = std::chrono::steady_clock::now();
    watcher_ = std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!done_cv_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; })) {
        std::fprintf(stderr, "tropic: %s ...\n", what_.c_str());
        printed_ = true;
      }
    });
  }
  ~slow_task_note() {
    if (!watcher_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_all();
    watcher_.join();
    if (printed_) {
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      std::fprintf(stderr, "tropic: %s done in %.1f s\n", what_.c_str(), s);
    }
  }
  slow_task_note(const slow_task_note&) = delete;
  slow_task_note& operator=(const slow_task_note&) = delete;

 private:
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  bool printed_ = false;
  std::thread watcher_;
};

struct graph_request {
  std::string graph;  // file path or generator spec
  weight_choice weights = weight_choice::automatic;
  std::uint64_t seed = 1;  // generator seed, and the seed of hashed weights for unweighted files
  bool unit_weights = false;
  bool symmetrize = false;
  bool compact_ids = false;  // SNAP: renumber sparse ids
  bool progress = true;
  std::uint64_t memory_limit = 0;  // read_options.memory_limit; 0: the memory available
};

inline read_options read_options_of(const graph_request& r) {
  read_options ro;
  ro.unit_weights = r.unit_weights;
  ro.weight_seed = r.seed;
  ro.progress = r.progress;
  ro.build.symmetrize = r.symmetrize;
  ro.compact_ids = r.compact_ids;
  ro.memory_limit = r.memory_limit;
  return ro;
}

// What is known about where a graph came from, for `tropic info` and the summaries.
struct graph_origin {
  bool generated = false;
  graph_file_info file;  // meaningful when !generated
  double load_ms = 0;
};

template <class W>
csr<W> load_as(const graph_request& r, graph_origin& origin) {
  auto t0 = std::chrono::steady_clock::now();
  csr<W> g;
  if (is_generator_spec(r.graph)) {
    origin.generated = true;
    slow_task_note note("generating " + r.graph, r.progress);
    try {
      g = generate<W>(r.graph, r.seed);
    } catch (const error& e) {
      // A malformed spec is something the user typed: a usage error, like a bad option.
      if (e.code() == error_code::invalid_value) throw usage_error(e.what());
      throw;
    }
    if (r.unit_weights)
      for (auto& w : g.weights) w = W(1);
  } else {
    g = read_graph<W>(r.graph, read_options_of(r), &origin.file);
  }
  origin.load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return g;
}

// `auto` reads the file's bytes once (a pipe can be read only once) and parses them as uint64
// first: every non-negative integer weight up to 2^64 - 1 is then exact, and the graph narrows to
// uint32 when every weight fits. A weight that is not such an integer (real, negative, too big)
// fails that parse; the bytes are then parsed as double, with integers double cannot hold
// exactly refused (exact_integers), so no weight is ever rounded.
template <class F>
int with_auto_graph(const graph_request& r, graph_origin& origin, F&& f) {
  auto t0 = std::chrono::steady_clock::now();
  read_options ro = read_options_of(r);
  graph_input input = load_graph_input(r.graph, ro);
  ro.progress = false;  // parsing a buffer already in memory
  auto done = [&] {
    origin.load_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  csr<std::uint64_t> wide;
  bool integral = true;
  try {
    // The rvalue overload frees the bytes before building: peak memory as read_graph(path).
    wide = read_graph<std::uint64_t>(std::move(input), ro, &origin.file);
  } catch (const error& e) {
    const bool parse = e.code() == error_code::invalid_value || e.code() == error_code::parse;
    if (!parse || input.data() == nullptr) throw;  // not a parse error, or nothing left to retry
    integral = false;
  }
  if (integral) {
    const bool narrow = std::all_of(wide.weights.begin(), wide.weights.end(), [](std::uint64_t w) {
      return w < std::numeric_limits<std::uint32_t>::max();  // max() is uint32's infinity
    });
    done();
    if (!narrow) return f(wide, origin);
    csr<std::uint32_t> g = convert_weights<std::uint32_t>(wide);
    wide = csr<std::uint64_t>();  // release the wide copy before the algorithm runs
    return f(g, origin);
  }
  ro.exact_integers = true;
  csr<double> g = read_graph<double>(std::move(input), ro, &origin.file);
  done();
  return f(g, origin);
}

// Loads the graph in the requested weight type and calls f(const csr<W>&, const graph_origin&).
// `auto`: uint32 for generators; for files see with_auto_graph (uint32, uint64 or double, each
// exact).
template <class F>
int with_graph(const graph_request& r, F&& f) {
  graph_origin origin;
  switch (r.weights) {
    case weight_choice::automatic: {
      if (is_generator_spec(r.graph)) return f(load_as<std::uint32_t>(r, origin), origin);
      return with_auto_graph(r, origin, f);
    }
    case weight_choice::u32:
      return f(load_as<std::uint32_t>(r, origin), origin);
    case weight_choice::i32:
      return f(load_as<std::int32_t>(r, origin), origin);
    case weight_choice::u64:
      return f(load_as<std::uint64_t>(r, origin), origin);
    case weight_choice::i64:
      return f(load_as<std::int64_t>(r, origin), origin);
    case weight_choice::f32:
      return f(load_as<float>(r, origin), origin);
    case weight_choice::f64:
      return f(load_as<double>(r, origin), origin);
  }
  return 1;
}

}  // namespace tropic::cli
