// The SM clock under sustained GEMM load: cuBLAS at 8192^3, back to back for about 10 s, once in FP32 (SIMT) and once
// with BF16 inputs (tensor cores), the SM clock read from NVML every half second. The H100 lowers its clock to stay
// within its power limit; how far depends on the kind of math. The time model's docs (docs/time-model.md) quote it.
//
// Build: nvcc -O3 -std=c++17 -o gemm_clock gemm_clock.cu -lcublas -ldl    Run: ./gemm_clock (prints JSON)
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    if (!(x)) {                                                                           \
      std::fprintf(stderr, "gemm_clock: %s failed\n", #x);                                \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

namespace {

// NVML from the driver's library (as gpu/src/device.cpp loads it): no header or link step needed.
using NvmlDevice = void*;
constexpr int kNvmlSuccess = 0, kNvmlClockSm = 1;
int (*nvmlInit_v2)() = nullptr;
int (*nvmlShutdown)() = nullptr;
int (*nvmlDeviceGetHandleByIndex_v2)(unsigned, NvmlDevice*) = nullptr;
int (*nvmlDeviceGetClockInfo)(NvmlDevice, int, unsigned*) = nullptr;

void load_nvml() {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  CHECK(lib != nullptr);
  nvmlInit_v2 = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
  nvmlShutdown = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlShutdown"));
  nvmlDeviceGetHandleByIndex_v2 =
      reinterpret_cast<int (*)(unsigned, NvmlDevice*)>(dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
  nvmlDeviceGetClockInfo = reinterpret_cast<int (*)(NvmlDevice, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
  CHECK(nvmlInit_v2 && nvmlShutdown && nvmlDeviceGetHandleByIndex_v2 && nvmlDeviceGetClockInfo);
}

struct Trace {
  std::vector<unsigned> mhz;
  double tflops = 0;
};

// Runs `gemm` (one 8192^3 multiply) back to back for `seconds`, sampling the clock every half second.
template <class Gemm>
Trace sustained(NvmlDevice device, double seconds, Gemm gemm) {
  Trace trace;
  const auto start = std::chrono::steady_clock::now();
  auto next = start;
  long long gemms = 0;
  for (;;) {
    for (int i = 0; i < 4; ++i, ++gemms) gemm();
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    const auto now = std::chrono::steady_clock::now();
    if (now >= next) {
      unsigned mhz = 0;
      CHECK(nvmlDeviceGetClockInfo(device, kNvmlClockSm, &mhz) == kNvmlSuccess);
      trace.mhz.push_back(mhz);
      next += std::chrono::milliseconds(500);
    }
    const double elapsed = std::chrono::duration<double>(now - start).count();
    if (elapsed >= seconds) {
      trace.tflops = 2.0 * 8192.0 * 8192.0 * 8192.0 * double(gemms) / elapsed / 1e12;
      return trace;
    }
  }
}

void print(const char* name, const Trace& t, bool last) {
  std::printf("  \"%s\": {\"tflops\": %.1f, \"sm_clock_mhz_every_half_second\": [", name, t.tflops);
  for (std::size_t i = 0; i < t.mhz.size(); ++i) std::printf("%s%u", i ? ", " : "", t.mhz[i]);
  std::printf("], \"sm_clock_mhz_last\": %u}%s\n", t.mhz.empty() ? 0u : t.mhz.back(), last ? "" : ",");
}

}  // namespace

int main() {
  load_nvml();
  CHECK(nvmlInit_v2() == kNvmlSuccess);
  NvmlDevice device = nullptr;
  CHECK(nvmlDeviceGetHandleByIndex_v2(0, &device) == kNvmlSuccess);
  const int n = 8192;
  const std::size_t elements = std::size_t(n) * n;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  __nv_bfloat16 *a16 = nullptr, *b16 = nullptr;
  CHECK(cudaMalloc(&a, elements * 4) == cudaSuccess);
  CHECK(cudaMalloc(&b, elements * 4) == cudaSuccess);
  CHECK(cudaMalloc(&c, elements * 4) == cudaSuccess);
  CHECK(cudaMalloc(&a16, elements * 2) == cudaSuccess);
  CHECK(cudaMalloc(&b16, elements * 2) == cudaSuccess);
  CHECK(cudaMemset(a, 0, elements * 4) == cudaSuccess);  // zeros: the clock under load does not depend on the values
  CHECK(cudaMemset(b, 0, elements * 4) == cudaSuccess);  // much, and the probe reads nothing back
  CHECK(cudaMemset(a16, 0, elements * 2) == cudaSuccess);
  CHECK(cudaMemset(b16, 0, elements * 2) == cudaSuccess);
  cublasHandle_t handle;
  CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
  const float one = 1.0f, zero = 0.0f;
  std::printf("{\n");
  print("cublas_fp32_8192", sustained(device, 10.0, [&] {
          CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_32F, n, b, CUDA_R_32F, n, &zero,
                             c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
        }),
        false);
  print("cublas_bf16_8192", sustained(device, 10.0, [&] {
          CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a16, CUDA_R_16BF, n, b16, CUDA_R_16BF, n,
                             &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
        }),
        true);
  std::printf("}\n");
  cublasDestroy(handle);
  nvmlShutdown();
  return 0;
}
