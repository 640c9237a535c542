// Device-driven loops: CUDA graphs with conditional WHILE nodes, built by stream capture of the
// operators (tropic/device_loop.hpp).
//
// Nesting without nested captures: a loop ends the capture of the graph it sits in, adds its
// conditional node there, captures its body into the node's body graph on the same stream, and
// then resumes capturing the outer graph after the node (cudaStreamBeginCaptureToGraph with the
// node as dependency). So operators never need to know which stream or graph they are in.
#include "tropic/device_loop.hpp"

namespace tropic {

device_worklist::device_worklist(vertex capacity, cudaStream_t stream)
    : indices_(capacity, stream), count_(1, stream) {
  TROPIC_CUDA_CHECK(cudaMemsetAsync(count_.data(), 0, sizeof(unsigned long long), stream));
}

namespace {
constexpr cudaStreamCaptureMode capture_mode = cudaStreamCaptureModeRelaxed;
}  // namespace

device_graph::device_graph(gpu_context& ctx) : ctx_(ctx) {
  TROPIC_CUDA_CHECK(cudaGraphCreate(&graph_, 0));
  TROPIC_CUDA_CHECK(
      cudaStreamBeginCaptureToGraph(ctx_.stream(), graph_, nullptr, nullptr, 0, capture_mode));
  capturing_ = true;
}

device_graph::~device_graph() {
  if (capturing_) {
    // An operator threw during capture: end it so the stream is usable again.
    cudaGraph_t g = nullptr;
    cudaStreamEndCapture(ctx_.stream(), &g);
    cudaGetLastError();
  }
  if (exec_) cudaGraphExecDestroy(exec_);
  if (graph_) cudaGraphDestroy(graph_);
}

loop_condition device_graph::condition(unsigned initial) {
  cudaStreamCaptureStatus status{};
  cudaGraph_t current = nullptr;
  TROPIC_CUDA_CHECK(cudaStreamGetCaptureInfo(ctx_.stream(), &status, nullptr, &current));
  if (status != cudaStreamCaptureStatusActive)
    throw error(error_code::invalid_value, "device_graph::condition outside a capture");
  loop_condition c;
  TROPIC_CUDA_CHECK(
      cudaGraphConditionalHandleCreate(&c.handle, current, initial, cudaGraphCondAssignDefault));
  return c;
}

void device_graph::begin_loop(loop_condition c) {
  cudaStreamCaptureStatus status{};
  cudaGraph_t outer = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  const cudaGraphEdgeData* edges = nullptr;
  std::size_t count = 0;
  TROPIC_CUDA_CHECK(
      cudaStreamGetCaptureInfo(ctx_.stream(), &status, nullptr, &outer, &deps, &edges, &count));
  std::vector<cudaGraphNode_t> dependencies(deps, deps + count);
  cudaGraph_t ended = nullptr;
  TROPIC_CUDA_CHECK(cudaStreamEndCapture(ctx_.stream(), &ended));

  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = c.handle;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
  TROPIC_CUDA_CHECK(cudaGraphAddNode(&node, outer, dependencies.data(), nullptr,
                                     dependencies.size(), &params));
  open_.push_back({outer, node});
  TROPIC_CUDA_CHECK(cudaStreamBeginCaptureToGraph(ctx_.stream(), params.conditional.phGraph_out[0],
                                                  nullptr, nullptr, 0, capture_mode));
}

void device_graph::end_loop() {
  cudaGraph_t body = nullptr;
  TROPIC_CUDA_CHECK(cudaStreamEndCapture(ctx_.stream(), &body));
  const open_loop l = open_.back();
  open_.pop_back();
  TROPIC_CUDA_CHECK(
      cudaStreamBeginCaptureToGraph(ctx_.stream(), l.outer, &l.node, nullptr, 1, capture_mode));
}

void device_graph::launch() {
  if (capturing_) {
    if (!open_.empty())
      throw error(error_code::invalid_value, "device_graph::launch inside an open loop");
    cudaGraph_t g = nullptr;
    capturing_ = false;
    TROPIC_CUDA_CHECK(cudaStreamEndCapture(ctx_.stream(), &g));
    TROPIC_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  TROPIC_CUDA_CHECK(cudaGraphLaunch(exec_, ctx_.stream()));
}

}  // namespace tropic
