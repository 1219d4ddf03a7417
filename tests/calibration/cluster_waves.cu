// Cluster probe: what launching blocks in clusters of two costs a kernel, wave by wave. The recorded short-K sweeps
// measured rung 19's cluster=2 about a microsecond a wave slower than cluster=1 (docs/time-model-data/
// ring-of-copies-2026-12-01.txt); this probe asks whether the launch alone does that, with no copies and no math.
//
// Each block holds enough shared memory that one fits on an SM, as the Hopper rungs' blocks do, and spins for a fixed
// time on the global timer. Three kernels of the same blocks:
//
//   plain      no cluster;
//   cluster    clusters of two (cudaLaunchKernelEx's cluster dimension), no barrier;
//   synced     clusters of two that pass the cluster's barrier on entry and before exit, as the multicast rungs do
//              (a partner's mbarriers ready before the first multicast copy; its shared memory kept until the last
//              copy into it has landed).
//
// For grids of 1 to 16 waves of SMs (or of the clusters the card can hold at once, cudaOccupancyMaxActiveClusters,
// which can be fewer than half the SMs), the median of 51 launches each by events, queued behind a busy kernel as
// gpu/src/bench.cpp times its runs. The per-wave cost is the slope of time against waves.
//
// Build: nvcc -arch=sm_90 -O3 -std=c++17 -o cluster_waves cluster_waves.cu     Run: ./cluster_waves  (one JSON object)
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "cuda_check.hpp"
#include "queued_launches.hpp"

namespace cg = cooperative_groups;

namespace {

constexpr int kLaunches = 51;
constexpr int kThreads = 384;               // a producer and two consumer warpgroups, as rungs 18 to 21
constexpr int kSharedBytes = 200 * 1024;    // one block an SM
constexpr int kWaveCounts[] = {1, 2, 4, 8, 16};
constexpr long long kSpinNs[] = {2000, 8000};  // a block's life: a short-K block's few k-steps, and more

enum class Kind { Plain, Cluster, Synced };

__device__ long long global_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <Kind kind>
__global__ void spin(long long ns, int* sink) {
  extern __shared__ int smem[];
  if constexpr (kind == Kind::Synced) cg::this_cluster().sync();
  const long long start = global_ns();
  while (global_ns() - start < ns) {
  }
  smem[threadIdx.x] = int(start);
  if constexpr (kind == Kind::Synced) cg::this_cluster().sync();
  if (threadIdx.x == 0 && smem[kThreads - 1] == 42) *sink = 1;  // keeps the store
}

// A launch of `blocks` spinning blocks, in clusters of two or not; `cluster` holds the cluster's shape the launch
// points at.
cudaLaunchConfig_t spin_config(int blocks, bool clustered, cudaLaunchAttribute& cluster) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = kSharedBytes;
  cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 2, cluster.val.clusterDim.y = 1, cluster.val.clusterDim.z = 1;
  if (clustered) config.attrs = &cluster, config.numAttrs = 1;
  return config;
}

template <Kind kind>
cudaError_t launch(int blocks, long long ns, int* sink) {
  cudaLaunchAttribute cluster;
  const cudaLaunchConfig_t config = spin_config(blocks, kind != Kind::Plain, cluster);
  return cudaLaunchKernelEx(&config, spin<kind>, ns, sink);
}

template <Kind kind>
double median_seconds(int blocks, long long ns, int* sink) {
  return queued_median_seconds(kLaunches, 100000, [&] { CHECK(launch<kind>(blocks, ns, sink)); });
}

template <Kind kind>
void allow_shared() {
  CHECK(cudaFuncSetAttribute(spin<kind>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  CHECK(cudaFuncSetAttribute(spin<kind>, cudaFuncAttributeNonPortableClusterSizeAllowed, 0));
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  allow_shared<Kind::Plain>();
  allow_shared<Kind::Cluster>();
  allow_shared<Kind::Synced>();
  int* sink = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(int)));
  // How many clusters of two the card holds at once with one block an SM.
  cudaLaunchAttribute cluster;
  const cudaLaunchConfig_t config = spin_config(2 * prop.multiProcessorCount, true, cluster);
  int clusters = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&clusters, spin<Kind::Cluster>, &config));
  CHECK(launch<Kind::Synced>(2 * prop.multiProcessorCount, 1000, sink));  // loads the module
  CHECK(cudaDeviceSynchronize());

  std::string rows;
  for (const long long ns : kSpinNs)
    for (const bool by_clusters : {false, true})
      for (const int waves : kWaveCounts) {
        // A wave: every SM once, or every cluster the card holds once.
        const int blocks = waves * (by_clusters ? 2 * clusters : prop.multiProcessorCount);
        const double plain = median_seconds<Kind::Plain>(blocks, ns, sink);
        const double clustered = median_seconds<Kind::Cluster>(blocks, ns, sink);
        const double synced = median_seconds<Kind::Synced>(blocks, ns, sink);
        char row[256];
        std::snprintf(row, sizeof row,
                      "%s    {\"spin_ns\": %lld, \"wave_of\": \"%s\", \"waves\": %d, \"blocks\": %d, \"plain_s\": %.4g, "
                      "\"cluster_s\": %.4g, \"synced_s\": %.4g}",
                      rows.empty() ? "" : ",\n", ns, by_clusters ? "clusters" : "sms", waves, blocks, plain, clustered,
                      synced);
        rows += row;
      }
  CHECK(cudaFree(sink));
  std::printf("{\n  \"device\": \"%s\",\n  \"sms\": %d,\n  \"threads\": %d,\n  \"shared_bytes\": %d,\n"
              "  \"max_active_clusters_of_two\": %d,\n  \"launches\": %d,\n  \"rows\": [\n%s\n  ]\n}\n",
              prop.name, prop.multiProcessorCount, kThreads, kSharedBytes, clusters, kLaunches, rows.c_str());
  return 0;
}
