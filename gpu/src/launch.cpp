// The one launch path of every rung kernel: the grid, the block, shared memory, the tensor maps and the cluster from
// the configuration at run time (the rung's description, through sim), the kernel from the build or from the run-time
// compiler.
#include "launch.hpp"

#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "cuda_error.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/kernel/block_order.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "runtime_kernel.hpp"
#include "tma_map.hpp"

namespace gemmlab::gpu {
namespace {

constexpr bool has_instances(RungId rung) {
  for (const auto& instance : kGpuInstances)
    if (instance.rung == rung) return true;
  return false;
}

// Only rungs with instances refer to launcher_for<Rung>, so a rung without a GPU file links as long as the instance
// list has no line for it; a line without a file is a link error naming the rung.
template <RungId Rung>
CompiledKernelFn kernels_of_rung(std::size_t index) {
  if constexpr (has_instances(Rung)) return launcher_for<Rung>(index);
  else return nullptr;
}

// TMA rungs: a Hopper GPU, and the tensor maps of A and B (and of C where it is stored by TMA) with the boxes the
// description copies.
Status prepare_tma(const GpuInstance& kernel, const GemmArgs& g, KernelParams& params) {
  if (auto hopper = require_sm90a(); !hopper) return hopper;
  const auto boxes = sim::tma_box_shapes(kernel.rung, kernel.config, {g.m, g.n, g.k});
  if (!boxes) return Error{"rung " + std::string(rung_info(kernel.rung).slug) + " describes no TMA boxes"};
  auto a_map = make_tensor_map(g.a, g.m, g.k, boxes->a_rows, boxes->a_cols, boxes->swizzle_bytes, g.input);
  if (!a_map) return a_map.error();
  auto b_map = make_tensor_map(g.b, g.k, g.n, boxes->b_rows, boxes->b_cols, boxes->swizzle_bytes, g.input);
  if (!b_map) return b_map.error();
  params.a_map = *a_map, params.b_map = *b_map;
  if (boxes->c_rows > 0) {
    auto c_map = make_tensor_map(g.c, g.m, g.n, boxes->c_rows, boxes->c_cols, boxes->c_swizzle_bytes,
                                 kernel::InputType::F32 /* C is FP32 */, boxes->c_panel_cols);
    if (!c_map) return c_map.error();
    params.c_map = *c_map;
  }
  return Ok{};
}

// Split-K's flags (rung 22): an int per tile, zero between launches (each launch's last range sets its tile's back to
// 0). One buffer per device for the process, grown as a launch needs more tiles (the old one freed once the device is
// idle) and zeroed when made. Split-K launches of one device must not run at once on two streams: they would share
// the flags. None do: the app times one job at a time, and a sweep has one worker per device.
//
// Split-K's workspace (workspace = 1) is kept the same way: `splits` FP32 slices of M x N, whose contents need no
// zeroing (every element a later range reads, an earlier one wrote in the same launch).
template <class T>
Result<T*> launch_buffer(const char* what, std::size_t count, bool zeroed) {
  struct Buffer {
    void* data = nullptr;
    std::size_t count = 0;
  };
  static std::mutex mutex;
  static std::map<std::pair<int, std::string>, Buffer> by_device;  // by device and by what it holds
  int device = 0;
  GEMMLAB_CUDA_TRY(cudaGetDevice(&device));
  const std::lock_guard lock(mutex);
  Buffer& b = by_device[{device, what}];
  if (b.count >= count) return static_cast<T*>(b.data);
  void* grown = nullptr;
  if (const cudaError_t made = cudaMalloc(&grown, sizeof(T) * count); made != cudaSuccess) {
    cudaGetLastError();  // an out-of-memory error is not sticky: clear it, and say what did not fit
    return Error{std::string("no GPU memory for ") + what + " (" + std::to_string(sizeof(T) * count / (1 << 20)) +
                 " MiB): " + cudaGetErrorString(made)};
  }
  if (zeroed)
    if (const cudaError_t set = cudaMemset(grown, 0, sizeof(T) * count); set != cudaSuccess) {
      cudaFree(grown);
      return cuda_error("cudaMemset(" + std::string(what) + ")", set);
    }
  if (b.data != nullptr) {
    // The old buffer may still be in use by a launch in flight on any stream of this device.
    GEMMLAB_CUDA_TRY(cudaDeviceSynchronize());
    cudaFree(b.data);
  }
  b = {grown, count};
  return static_cast<T*>(grown);
}

Result<int*> split_flags(int tiles) { return launch_buffer<int>("split flags", static_cast<std::size_t>(tiles), true); }

}  // namespace

int launched_blocks(const GpuInstance& kernel, const GemmArgs& g) {
  const kernel::KernelConfig& c = kernel.config;
  const int tiles_m = kernel::cluster_tile_rows(kernel::ceil_div(g.m, c.bm), c.cluster);
  const int slots = kernel::launch_slots(tiles_m, kernel::ceil_div(g.n, c.bn), g.order, c.cluster);
  const int splits = kernel::split_count(kernel::ceil_div(g.k, c.bk), c.splits);
  return sim::launched_blocks(kernel.rung, c, slots, splits);
}

Result<const void*> kernel_function(const GpuInstance& kernel, KernelVariant variant) {
  if (!variant.traced && !compiled_at_run_time(kernel)) {
    if (const void* fn = compiled_kernel(*find_gpu_instance(kernel.rung, kernel.config), variant)) return fn;
    return Error{"the compiled " + std::string(rung_info(kernel.rung).slug) + " kernel has no " +
                 std::string(kernel::input_name(variant.input)) + " variant"};
  }
  return runtime_kernel(kernel, variant);
}

const void* compiled_kernel(std::size_t index, KernelVariant variant) {
  if (index >= std::size(kGpuInstances)) return nullptr;
  CompiledKernelFn kernels = nullptr;
  switch (kGpuInstances[index].rung) {
#define GEMMLAB_RUNG(ident, slug, description, arch, title, precision, change) \
  case RungId::ident: kernels = kernels_of_rung<RungId::ident>(index); break;
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG
  }
  return kernels ? kernels(variant) : nullptr;
}

Status launch_gemm(const GpuInstance& kernel, const GemmArgs& g, cudaStream_t stream, const TraceRequest* trace) {
  const kernel::KernelConfig& c = kernel.config;
  auto variant = kernel_variant(kernel, g.input, g.n, g.k);
  if (!variant) return variant.error();
  KernelParams params{g, kernel::cluster_tile_rows(kernel::ceil_div(g.m, c.bm), c.cluster),
                      kernel::ceil_div(g.n, c.bn), 0, {}, {}, {}, nullptr, nullptr, {}};
  if (trace != nullptr) variant->traced = true, variant->stamped_tiles = trace->stamped_tiles, params.trace = trace->sink;
  // Split-K: a tile's ranges are consecutive blocks, and the tiles have a flag each; Stream-K's segments of a tile
  // take their turns on the same flags.
  if (c.splits > 1 || sim::walks_stream_k(kernel.rung)) {
    auto flags = split_flags(params.tiles_m * params.tiles_n);
    if (!flags) return flags.error();
    params.split_flags = *flags;
  }
  if (c.workspace) {
    const auto slices = static_cast<std::size_t>(kernel::split_count(kernel::ceil_div(g.k, c.bk), c.splits));
    auto workspace = launch_buffer<float>("split-K's workspace", slices * static_cast<std::size_t>(g.m) *
                                                                     static_cast<std::size_t>(g.n), false);
    if (!workspace) return workspace.error();
    params.workspace = *workspace;
  }
  params.slots = kernel::launch_slots(params.tiles_m, params.tiles_n, g.order, c.cluster);
  if (sim::needs_sm90a(kernel.rung))
    if (auto ready = prepare_tma(kernel, g, params); !ready) return ready;
  auto fn = kernel_function(kernel, *variant);
  if (!fn) return fn.error();
  const int slots = launched_blocks(kernel, g);
  const int smem_bytes = sim::smem_bytes(kernel.rung, c);
  if (smem_bytes > 48 * 1024)  // beyond the default per-block limit only after opting in
    GEMMLAB_CUDA_TRY(cudaFuncSetAttribute(*fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  cudaLaunchConfig_t launch{};
  launch.gridDim = dim3(static_cast<unsigned>(slots));
  launch.blockDim = dim3(static_cast<unsigned>(sim::threads_per_block(kernel.rung, c)));
  launch.dynamicSmemBytes = static_cast<std::size_t>(smem_bytes);
  launch.stream = stream;
  cudaLaunchAttribute cluster{};
  if (c.cluster > 1) {  // consecutive blocks form a cluster (kernel::tile_of_launch)
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = static_cast<unsigned>(c.cluster), cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    launch.attrs = &cluster, launch.numAttrs = 1;
  }
  void* args[] = {&params};
  GEMMLAB_CUDA_TRY(cudaLaunchKernelExC(&launch, *fn, args));
  GEMMLAB_CUDA_TRY(cudaGetLastError());
  return Ok{};
}

}  // namespace gemmlab::gpu
