// What both peer harnesses share (thunderkittens_bench.cu, fastcu_bench.cu): filling, timing, checking, printing.
// Everything here is prefixed bench_/BENCH_ so it cannot clash with the kernels' own code
// (ThunderKittens does `using namespace kittens;` at global scope, fast.cu defines globals).
#pragma once

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

// ---------------------------------------------------------------------------------------------
// Error handling: any CUDA / cuBLAS error prints a clear message (with the current phase) and
// exits non-zero (2 = CUDA runtime error, 3 = cuBLAS error).
// ---------------------------------------------------------------------------------------------
static const char* bench_phase = "startup";

#define BENCH_CK(call)                                                                                              \
  do {                                                                                                              \
    cudaError_t bench_e_ = (call);                                                                                  \
    if (bench_e_ != cudaSuccess) {                                                                                  \
      fflush(stdout);                                                                                               \
      fprintf(stderr, "FATAL: CUDA error %s (%s) during phase '%s' at %s:%d in `%s`\n", cudaGetErrorName(bench_e_), \
              cudaGetErrorString(bench_e_), bench_phase, __FILE__, __LINE__, #call);                                \
      printf("FATAL: CUDA error %s during phase '%s' (see stderr)\n", cudaGetErrorName(bench_e_), bench_phase);     \
      fflush(stdout);                                                                                               \
      exit(2);                                                                                                      \
    }                                                                                                               \
  } while (0)

#define BENCH_CKB(call)                                                                                                \
  do {                                                                                                                 \
    cublasStatus_t bench_s_ = (call);                                                                                  \
    if (bench_s_ != CUBLAS_STATUS_SUCCESS) {                                                                           \
      fflush(stdout);                                                                                                  \
      fprintf(stderr, "FATAL: cuBLAS error %s (%s) during phase '%s' at %s:%d in `%s`\n",                              \
              cublasGetStatusName(bench_s_), cublasGetStatusString(bench_s_), bench_phase, __FILE__, __LINE__, #call); \
      printf("FATAL: cuBLAS error %s during phase '%s' (see stderr)\n", cublasGetStatusName(bench_s_), bench_phase);   \
      fflush(stdout);                                                                                                  \
      exit(3);                                                                                                         \
    }                                                                                                                  \
  } while (0)

// Check for launch errors right after a kernel launch (async faults surface at the next sync).
#define BENCH_CK_LAUNCH(what)                                                                                   \
  do {                                                                                                          \
    cudaError_t bench_e_ = cudaGetLastError();                                                                  \
    if (bench_e_ != cudaSuccess) {                                                                              \
      fflush(stdout);                                                                                           \
      fprintf(stderr, "FATAL: CUDA error %s (%s) launching %s during phase '%s' at %s:%d\n",                    \
              cudaGetErrorName(bench_e_), cudaGetErrorString(bench_e_), what, bench_phase, __FILE__, __LINE__); \
      printf("FATAL: CUDA error %s launching %s (see stderr)\n", cudaGetErrorName(bench_e_), what);             \
      fflush(stdout);                                                                                           \
      exit(2);                                                                                                  \
    }                                                                                                           \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Environment banner
// ---------------------------------------------------------------------------------------------
// NVIDIA driver version string (e.g. "580.65.06") via NVML, loaded with dlopen so there is no
// link-time dependency; prints "n/a" if NVML is unavailable.
static std::string bench_nvidia_driver_string() {
  void* h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) return "n/a (libnvidia-ml.so.1 not loadable)";
  typedef int (*init_t)(void);
  typedef int (*ver_t)(char*, unsigned int);
  typedef int (*shut_t)(void);
  init_t init = (init_t)dlsym(h, "nvmlInit_v2");
  ver_t ver = (ver_t)dlsym(h, "nvmlSystemGetDriverVersion");
  shut_t shut = (shut_t)dlsym(h, "nvmlShutdown");
  std::string s = "n/a";
  if (init && ver && init() == 0) {
    char buf[96] = {0};
    if (ver(buf, sizeof(buf)) == 0) s = buf;
    if (shut) shut();
  }
  dlclose(h);
  return s;
}

static void bench_print_env(const char* title, cublasHandle_t handle) {
  int dev = 0;
  BENCH_CK(cudaGetDevice(&dev));
  cudaDeviceProp p;
  BENCH_CK(cudaGetDeviceProperties(&p, dev));
  int drv = 0, rt = 0;
  BENCH_CK(cudaDriverGetVersion(&drv));
  BENCH_CK(cudaRuntimeGetVersion(&rt));
  int clk_khz = 0, memclk_khz = 0, l2 = 0;
  BENCH_CK(cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, dev));
  BENCH_CK(cudaDeviceGetAttribute(&memclk_khz, cudaDevAttrMemoryClockRate, dev));
  BENCH_CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  int cb_major = 0, cb_minor = 0, cb_patch = 0, cb_ver = 0;
  BENCH_CKB(cublasGetProperty(MAJOR_VERSION, &cb_major));
  BENCH_CKB(cublasGetProperty(MINOR_VERSION, &cb_minor));
  BENCH_CKB(cublasGetProperty(PATCH_LEVEL, &cb_patch));
  BENCH_CKB(cublasGetVersion(handle, &cb_ver));

  printf("=== %s ===\n", title);
  printf("Device %d: %s (sm_%d%d, %d SMs, max SM clock %.0f MHz, mem clock %.0f MHz, L2 %.1f MiB, %.1f GiB)\n", dev,
         p.name, p.major, p.minor, p.multiProcessorCount, clk_khz / 1e3, memclk_khz / 1e3, l2 / 1048576.0,
         p.totalGlobalMem / 1073741824.0);
  printf("NVIDIA driver: %s; driver CUDA version: %d.%d (%d)\n", bench_nvidia_driver_string().c_str(), drv / 1000,
         (drv % 1000) / 10, drv);
  printf("CUDA runtime version: %d.%d (%d); compiled against CUDART_VERSION %d\n", rt / 1000, (rt % 1000) / 10, rt,
         CUDART_VERSION);
  printf("cuBLAS version: %d.%d.%d (cublasGetVersion %d); compiled against cuBLAS headers %d.%d.%d\n", cb_major,
         cb_minor, cb_patch, cb_ver, CUBLAS_VER_MAJOR, CUBLAS_VER_MINOR, CUBLAS_VER_PATCH);
  fflush(stdout);
  if (p.major != 9) {
    printf("WARNING: this harness targets sm_90a (Hopper); device is sm_%d%d, kernel launches will likely fail.\n",
           p.major, p.minor);
  }
}

// ---------------------------------------------------------------------------------------------
// Deterministic uniform [-1, 1) BF16 fill on the GPU (splitmix64 of seed + index).
// ---------------------------------------------------------------------------------------------
__global__ void bench_fill_uniform_bf16(__nv_bfloat16* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t x = seed + i * 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x = x ^ (x >> 31);
    float u = (float)(x >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    p[i] = __float2bfloat16_rn(2.0f * u - 1.0f);        // [-1, 1)
  }
}

static void bench_fill(__nv_bfloat16* p, size_t n, uint64_t seed) {
  bench_fill_uniform_bf16<<<1024, 256>>>(p, n, seed);
  BENCH_CK_LAUNCH("bench_fill_uniform_bf16");
}

// Short single-thread spin, enqueued before every timed launch so that the start event is
// recorded while the GPU is busy: host-side launch overhead (TMA descriptor encoding,
// cudaFuncSetAttribute, cuBLAS heuristics lookup) is then NOT inside the timed interval, for
// the hand-written kernels and for cuBLAS alike.
__global__ void bench_spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

// ---------------------------------------------------------------------------------------------
// Error statistics between two matrices of identical layout (whole matrix, on the GPU).
// ---------------------------------------------------------------------------------------------
struct BenchErrStats {
  unsigned int max_abs_bits;     // float bits of max |out - ref| (non-negative floats order as uints)
  unsigned int max_rel_bits;     // float bits of max |out - ref| / |ref| over |ref| >= rel_floor
  unsigned int max_ref_bits;     // float bits of max |ref|
  double sum_d2, sum_r2;         // for the normwise (Frobenius) relative error
  unsigned long long nonfinite;  // elements where out or ref is NaN/Inf
  unsigned long long n_rel;      // elements that entered the relative error
};

__device__ __forceinline__ float bench_to_f(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float bench_to_f(float x) { return x; }

template <typename TO, typename TR>
__global__ void bench_compare_kernel(const TO* out, const TR* ref, size_t n, float rel_floor, BenchErrStats* st) {
  float mabs = 0.f, mrel = 0.f, mref = 0.f;
  double d2 = 0.0, r2 = 0.0;
  unsigned long long nf = 0, nrel = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float o = bench_to_f(out[i]), r = bench_to_f(ref[i]);
    if (!isfinite(o) || !isfinite(r)) {
      ++nf;
      continue;
    }
    float d = fabsf(o - r), ar = fabsf(r);
    mabs = fmaxf(mabs, d);
    mref = fmaxf(mref, ar);
    if (ar >= rel_floor) {
      mrel = fmaxf(mrel, d / ar);
      ++nrel;
    }
    d2 += (double)d * d;
    r2 += (double)r * r;
  }
  for (int off = 16; off > 0; off >>= 1) {
    mabs = fmaxf(mabs, __shfl_xor_sync(0xffffffffu, mabs, off));
    mrel = fmaxf(mrel, __shfl_xor_sync(0xffffffffu, mrel, off));
    mref = fmaxf(mref, __shfl_xor_sync(0xffffffffu, mref, off));
    d2 += __shfl_xor_sync(0xffffffffu, d2, off);
    r2 += __shfl_xor_sync(0xffffffffu, r2, off);
    nf += __shfl_xor_sync(0xffffffffu, nf, off);
    nrel += __shfl_xor_sync(0xffffffffu, nrel, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMax(&st->max_abs_bits, __float_as_uint(mabs));
    atomicMax(&st->max_rel_bits, __float_as_uint(mrel));
    atomicMax(&st->max_ref_bits, __float_as_uint(mref));
    atomicAdd(&st->sum_d2, d2);
    atomicAdd(&st->sum_r2, r2);
    atomicAdd(&st->nonfinite, nf);
    atomicAdd(&st->n_rel, nrel);
  }
}

struct BenchErr {
  float max_abs, max_rel, max_ref;
  double rel_fro;
  unsigned long long nonfinite, n_rel, n;
};

template <typename TO, typename TR>
static BenchErr bench_compare(const TO* out, const TR* ref, size_t n, float rel_floor) {
  BenchErrStats* d_st = nullptr;
  BENCH_CK(cudaMalloc(&d_st, sizeof(BenchErrStats)));
  BENCH_CK(cudaMemset(d_st, 0, sizeof(BenchErrStats)));
  bench_compare_kernel<TO, TR><<<1056, 256>>>(out, ref, n, rel_floor, d_st);
  BENCH_CK_LAUNCH("bench_compare_kernel");
  BenchErrStats h;
  BENCH_CK(cudaMemcpy(&h, d_st, sizeof(h), cudaMemcpyDeviceToHost));
  BENCH_CK(cudaFree(d_st));
  BenchErr e;
  memcpy(&e.max_abs, &h.max_abs_bits, 4);
  memcpy(&e.max_rel, &h.max_rel_bits, 4);
  memcpy(&e.max_ref, &h.max_ref_bits, 4);
  e.rel_fro = h.sum_r2 > 0 ? std::sqrt(h.sum_d2 / h.sum_r2) : NAN;
  e.nonfinite = h.nonfinite;
  e.n_rel = h.n_rel;
  e.n = n;
  return e;
}

static void bench_print_err(const char* what, const BenchErr& e, float rel_floor) {
  printf(
      "    %-44s max abs err %.4g, max rel err %.4g (over %.1f%% of elements with |ref| >= %g), "
      "normwise rel err %.3e, max |ref| %.4g, non-finite %llu\n",
      what, e.max_abs, e.max_rel, 100.0 * e.n_rel / (double)e.n, rel_floor, e.rel_fro, e.max_ref, e.nonfinite);
}

// ---------------------------------------------------------------------------------------------
// Alternating timing: `rounds` rounds; in each round every launcher is timed once with its own
// cudaEvent pair (order rotated each round so no launcher is always first). A bench_spin kernel
// precedes each timed launch. Returns per-launcher vectors of milliseconds.
// ---------------------------------------------------------------------------------------------
static std::vector<std::vector<float>> bench_time_alternating(const std::vector<std::function<void()>>& launchers,
                                                              int rounds, long long spin_cycles) {
  const int L = (int)launchers.size();
  std::vector<cudaEvent_t> ev(2 * L * rounds);
  for (auto& e : ev) BENCH_CK(cudaEventCreate(&e));
  for (int r = 0; r < rounds; ++r) {
    for (int j = 0; j < L; ++j) {
      int l = (j + r) % L;
      bench_spin<<<1, 1>>>(spin_cycles);
      BENCH_CK_LAUNCH("bench_spin");
      BENCH_CK(cudaEventRecord(ev[2 * (r * L + l)], 0));
      launchers[l]();
      BENCH_CK(cudaEventRecord(ev[2 * (r * L + l) + 1], 0));
    }
  }
  BENCH_CK(cudaDeviceSynchronize());
  std::vector<std::vector<float>> t(L, std::vector<float>(rounds));
  for (int r = 0; r < rounds; ++r)
    for (int l = 0; l < L; ++l) BENCH_CK(cudaEventElapsedTime(&t[l][r], ev[2 * (r * L + l)], ev[2 * (r * L + l) + 1]));
  for (auto& e : ev) BENCH_CK(cudaEventDestroy(e));
  return t;
}

static double bench_median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double bench_tflops(double M, double N, double K, double ms) { return 2.0 * M * N * K / (ms * 1e-3) / 1e12; }

static int bench_env_int(const char* name, int dflt) {
  const char* s = getenv(name);
  return (s && *s) ? atoi(s) : dflt;
}

// Validation thresholds (kernel vs cuBLAS): BF16 output rounding alone gives a normwise relative
// error of roughly 1e-3; a wrong layout / broken kernel gives O(1).
static const double BENCH_FAIL_REL_FRO = 2e-2;

// ---------------------------------------------------------------------------------------------
// One problem size: validate, warm up, time (alternating), print. Returns true if validation OK.
//   kernel_launch():          launches the hand-written kernel writing dCk (BF16).
//   cublas_call(C, ctype):    cublasGemmEx computing the same product into C of type ctype
//                             (CUDA_R_16BF or CUDA_R_32F), same memory layout as dCk.
// ---------------------------------------------------------------------------------------------
static bool bench_run_size(const char* label, const char* layout, int M, int N, int K, __nv_bfloat16* dCk,
                           __nv_bfloat16* dC16, float* dC32, const std::function<void()>& kernel_launch,
                           const std::function<void(void*, cudaDataType)>& cublas_call, int warmup, int rounds,
                           long long spin_cycles) {
  const size_t MN = (size_t)M * N;
  const float rel_floor = 1.0f;

  // 1) Validation on freshly poisoned outputs (0xFF bytes = NaN), one launch of each.
  bench_phase = "validation launches";
  BENCH_CK(cudaMemset(dCk, 0xFF, MN * sizeof(__nv_bfloat16)));
  BENCH_CK(cudaMemset(dC16, 0xFF, MN * sizeof(__nv_bfloat16)));
  BENCH_CK(cudaMemset(dC32, 0xFF, MN * sizeof(float)));
  BENCH_CK(cudaDeviceSynchronize());
  kernel_launch();
  cublas_call(dC16, CUDA_R_16BF);
  cublas_call(dC32, CUDA_R_32F);
  BENCH_CK(cudaDeviceSynchronize());
  bench_phase = "validation compare";
  BenchErr e_k16 = bench_compare(dCk, dC16, MN, rel_floor);
  BenchErr e_k32 = bench_compare(dCk, dC32, MN, rel_floor);
  BenchErr e_1632 = bench_compare(dC16, dC32, MN, rel_floor);
  BENCH_CK(cudaDeviceSynchronize());

  // 2) Warm-up (same interleaving as the timed part, untimed).
  bench_phase = "warm-up";
  for (int i = 0; i < warmup; ++i) {
    kernel_launch();
    cublas_call(dC32, CUDA_R_32F);
    cublas_call(dC16, CUDA_R_16BF);
  }
  BENCH_CK(cudaDeviceSynchronize());

  // 3) Timed, alternating rounds.
  bench_phase = "timing";
  std::vector<std::function<void()>> launchers = {
      kernel_launch,
      [&] { cublas_call(dC32, CUDA_R_32F); },
      [&] { cublas_call(dC16, CUDA_R_16BF); },
  };
  auto t = bench_time_alternating(launchers, rounds, spin_cycles);
  double ms_k = bench_median(t[0]), ms_32 = bench_median(t[1]), ms_16 = bench_median(t[2]);
  double tf_k = bench_tflops(M, N, K, ms_k), tf_32 = bench_tflops(M, N, K, ms_32), tf_16 = bench_tflops(M, N, K, ms_16);

  // 4) The timed runs must not have changed the result (deterministic kernels): re-check.
  bench_phase = "post-timing compare";
  BenchErr e_post = bench_compare(dCk, dC16, MN, rel_floor);

  bool ok = e_k16.nonfinite == 0 && e_k16.rel_fro < BENCH_FAIL_REL_FRO && e_post.nonfinite == 0 &&
            e_post.rel_fro < BENCH_FAIL_REL_FRO;

  printf(
      "%s %d^3: %.1f TFLOPS (%.3f ms median of %d); cuBLAS bf16->fp32 C %.1f, bf16->bf16 C %.1f; "
      "ratio %.3f / %.3f; layout %s; max abs err %.4g, max rel err %.3g vs cuBLAS bf16 C%s\n",
      label, M, tf_k, ms_k, rounds, tf_32, tf_16, tf_k / tf_32, tf_k / tf_16, layout, e_k16.max_abs, e_k16.max_rel,
      ok ? "" : "  ** VALIDATION FAILED **");
  if (M != N || N != K) printf("    (note: M=%d N=%d K=%d)\n", M, N, K);
  auto mm = [](const std::vector<float>& v) {
    auto p = std::minmax_element(v.begin(), v.end());
    return std::make_pair(*p.first, *p.second);
  };
  auto a = mm(t[0]), b = mm(t[1]), c = mm(t[2]);
  printf(
      "    times ms  median/min/max: kernel %.4f/%.4f/%.4f | cuBLAS fp32C %.4f/%.4f/%.4f | cuBLAS bf16C "
      "%.4f/%.4f/%.4f\n",
      ms_k, a.first, a.second, ms_32, b.first, b.second, ms_16, c.first, c.second);
  printf("    TFLOPS at min time: kernel %.1f | cuBLAS fp32C %.1f | cuBLAS bf16C %.1f\n",
         bench_tflops(M, N, K, a.first), bench_tflops(M, N, K, b.first), bench_tflops(M, N, K, c.first));
  bench_print_err("kernel vs cuBLAS bf16 C:", e_k16, rel_floor);
  bench_print_err("kernel vs cuBLAS fp32 C:", e_k32, rel_floor);
  bench_print_err("cuBLAS bf16 C vs cuBLAS fp32 C (baseline):", e_1632, rel_floor);
  bench_print_err("kernel vs cuBLAS bf16 C after timing:", e_post, rel_floor);
  printf("    all times per round (ms): kernel");
  for (float x : t[0]) printf(" %.4f", x);
  printf(" | cuBLAS fp32C");
  for (float x : t[1]) printf(" %.4f", x);
  printf(" | cuBLAS bf16C");
  for (float x : t[2]) printf(" %.4f", x);
  printf("\n");
  fflush(stdout);
  return ok;
}

static std::vector<int> bench_sizes(int argc, char** argv) {
  std::vector<int> s;
  for (int i = 1; i < argc; ++i) s.push_back(atoi(argv[i]));
  if (s.empty()) s = {4096, 8192};
  return s;
}

// One square size's buffers: A and B (BF16, filled with the fixed seeds), the peer's C and cuBLAS's BF16 and FP32 C.
struct BenchBuffers {
  __nv_bfloat16 *a = nullptr, *b = nullptr, *c_kernel = nullptr, *c_bf16 = nullptr;
  float* c_fp32 = nullptr;
  explicit BenchBuffers(int size) {
    const size_t n = (size_t)size * size;
    bench_phase = "allocation";
    BENCH_CK(cudaMalloc(&a, n * sizeof(__nv_bfloat16)));
    BENCH_CK(cudaMalloc(&b, n * sizeof(__nv_bfloat16)));
    BENCH_CK(cudaMalloc(&c_kernel, n * sizeof(__nv_bfloat16)));
    BENCH_CK(cudaMalloc(&c_bf16, n * sizeof(__nv_bfloat16)));
    BENCH_CK(cudaMalloc(&c_fp32, n * sizeof(float)));
    bench_phase = "fill";
    bench_fill(a, n, 42);
    bench_fill(b, n, 4242);
    BENCH_CK(cudaDeviceSynchronize());
  }
  BenchBuffers(const BenchBuffers&) = delete;
  BenchBuffers& operator=(const BenchBuffers&) = delete;
  ~BenchBuffers() {
    bench_phase = "free";
    BENCH_CK(cudaDeviceSynchronize());
    for (void* p : {(void*)a, (void*)b, (void*)c_kernel, (void*)c_bf16, (void*)c_fp32}) BENCH_CK(cudaFree(p));
  }
};

// Both harnesses' walk: each size (a multiple of 256, else skipped and counted as a failure) with its buffers, given
// to `run(size, buffers)`, which returns bench_run_size's verdict; then the report's last line and the exit code.
template <class Run>
static int bench_all_sizes(const std::vector<int>& sizes, cublasHandle_t handle, Run run) {
  bool all_ok = true;
  for (const int size : sizes) {
    if (size % 256 != 0) {
      fprintf(stderr, "size %d is not a multiple of 256; skipped\n", size);
      all_ok = false;
      continue;
    }
    const BenchBuffers buffers(size);
    all_ok &= run(size, buffers);
  }
  BENCH_CKB(cublasDestroy(handle));
  if (!all_ok) {
    printf("RESULT: validation FAILED for at least one size (see lines marked ** VALIDATION FAILED **)\n");
    return 4;
  }
  printf("RESULT: OK\n");
  return 0;
}

// Both harnesses' main: the body, with an exception reported (exit code 5) rather than thrown out of main.
static int bench_guarded_main(int argc, char** argv, int (*body)(int, char**)) {
  try {
    return body(argc, argv);
  } catch (const std::exception& e) {
    fflush(stdout);
    fprintf(stderr, "FATAL: C++ exception during phase '%s': %s\n", bench_phase, e.what());
    printf("FATAL: C++ exception during phase '%s' (see stderr)\n", bench_phase);
    return 5;
  }
}

// Both harnesses' start: the settings (BENCH_ROUNDS, BENCH_WARMUP, BENCH_SPIN_CYCLES and the sizes given), the kernel's
// source and the environment printed, the device and cuBLAS made ready.
struct BenchStart {
  int rounds = 20, warmup = 5;
  long long spin = 200000;
  std::vector<int> sizes;
  cublasHandle_t handle = nullptr;
};
static BenchStart bench_start(int argc, char** argv, const char* source, const char* title) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  BenchStart start;
  start.rounds = bench_env_int("BENCH_ROUNDS", start.rounds);
  start.warmup = bench_env_int("BENCH_WARMUP", start.warmup);
  start.spin = bench_env_int("BENCH_SPIN_CYCLES", (int)start.spin);
  start.sizes = bench_sizes(argc, argv);
  printf("Kernel source: %s\n", source);
  BENCH_CK(cudaSetDevice(0));
  BENCH_CK(cudaFree(0));
  bench_phase = "cublasCreate";
  BENCH_CKB(cublasCreate(&start.handle));
  bench_print_env(title, start.handle);
  return start;
}
