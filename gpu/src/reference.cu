// Inputs, poison, the FP64 reference and the comparison (see reference.hpp).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <limits>

#include "cuda_error.hpp"
#include "device_buffer.hpp"
#include "reference.hpp"

namespace gemmlab::gpu {
namespace {

constexpr int kThreads = 256;

int blocks_for(std::size_t count) {
  const std::size_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 65536 ? blocks : 65536);  // grid-stride loops cover the rest
}

// splitmix64's finalizer: a well-mixed 64-bit hash of (seed, index), so element i's value does not depend on how
// the fill is split into threads.
__device__ std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

__global__ void fill_random_kernel(float* data, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint64_t h = mix(seed * 0x100000001B3ull + i);
    const float u = static_cast<float>(h >> 40) * (1.0f / 16777216.0f);  // 24 bits: [0, 1)
    const float magnitude = 1.0f / 64.0f + u * (63.0f / 64.0f);
    data[i] = (h & 1) ? -magnitude : magnitude;
  }
}

// The FP64 reference: 64 x 64 tiles of C per block, 16 x 16 threads each computing 4 x 4 elements (strided by 16
// so the loads and stores of a warp are contiguous), k in steps of 16 through shared memory. Simple and exact
// enough: its rounding error (2^-53 relative) is negligible beside the FP32 tolerance.
constexpr int kRefTile = 64, kRefK = 16, kRefSide = 16;

__global__ void __launch_bounds__(kRefSide * kRefSide)
    reference_kernel(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c0,
                     double* __restrict__ ref, double* __restrict__ tol, double* __restrict__ tol_half_acc, int m,
                     int n, int k, double alpha, double beta, double tol_scale) {
  __shared__ double as[kRefK][kRefTile + 1];
  __shared__ double bs[kRefK][kRefTile];
  const int tx = static_cast<int>(threadIdx.x) % kRefSide, ty = static_cast<int>(threadIdx.x) / kRefSide;
  const int row0 = static_cast<int>(blockIdx.y) * kRefTile, col0 = static_cast<int>(blockIdx.x) * kRefTile;
  double sum[4][4] = {}, abs_sum[4][4] = {};
  double step_sum[4][4] = {};  // sum over the k16 steps of |the exact sum so far| (FP16 accumulators' bound)
  for (int k0 = 0; k0 < k; k0 += kRefK) {
    for (int e = static_cast<int>(threadIdx.x); e < kRefTile * kRefK; e += kRefSide * kRefSide) {
      const int ar = e / kRefK, ak = e % kRefK;  // A: 64 rows x 16 k, consecutive threads along k
      const int row = row0 + ar, kk = k0 + ak;
      as[ak][ar] = (row < m && kk < k) ? static_cast<double>(a[static_cast<std::int64_t>(row) * k + kk]) : 0.0;
      const int bk = e / kRefTile, bc = e % kRefTile;  // B: 16 k x 64 columns, consecutive threads along n
      const int kb = k0 + bk, col = col0 + bc;
      bs[bk][bc] = (kb < k && col < n) ? static_cast<double>(b[static_cast<std::int64_t>(kb) * n + col]) : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kRefK; ++kk) {
      double av[4], bv[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) av[i] = as[kk][ty + kRefSide * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) bv[j] = bs[kk][tx + kRefSide * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          sum[i][j] = fma(av[i], bv[j], sum[i][j]);
          abs_sum[i][j] = fma(fabs(av[i]), fabs(bv[j]), abs_sum[i][j]);
        }
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) step_sum[i][j] += fabs(sum[i][j]);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int row = row0 + ty + kRefSide * i, col = col0 + tx + kRefSide * j;
      if (row >= m || col >= n) continue;
      const std::int64_t idx = static_cast<std::int64_t>(row) * n + col;
      const double c = beta != 0.0 ? static_cast<double>(c0[idx]) : 0.0;
      ref[idx] = alpha * sum[i][j] + beta * c;
      tol[idx] = tol_scale * (fabs(alpha) * abs_sum[i][j] + fabs(beta * c));
      if (tol_half_acc != nullptr)
        tol_half_acc[idx] = tol[idx] + fabs(alpha) * kHalfAccumulatorUlp * step_sum[i][j];
    }
}

// x rounded to nearest even in T, as its bits; `x` becomes the rounded value.
__device__ std::uint16_t round_in_place(float& x, __half) {
  const __half h = __float2half_rn(x);
  x = __half2float(h);
  return __half_as_ushort(h);
}
__device__ std::uint16_t round_in_place(float& x, __nv_bfloat16) {
  const __nv_bfloat16 h = __float2bfloat16_rn(x);
  x = __bfloat162float(h);
  return __bfloat16_as_ushort(h);
}

template <class T>
__global__ void round_kernel(float* data, std::uint16_t* bits, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x)
    bits[i] = round_in_place(data[i], T{});
}

struct DeviceComparison {
  unsigned long long bad;
  unsigned long long first_bad;
  unsigned int worst_ratio_bits;  // non-negative floats order like their bit patterns
  unsigned int max_abs_bits;
};

__global__ void compare_kernel(const float* __restrict__ out, const double* __restrict__ ref,
                               const double* __restrict__ tol, std::size_t count, DeviceComparison* result) {
  unsigned long long bad = 0, first = ~0ull;
  float worst = 0.0f, max_abs = 0.0f;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const double err = fabs(static_cast<double>(out[i]) - ref[i]);
    const bool ok = err <= tol[i];  // false for NaN
    if (!ok) {
      ++bad;
      if (i < first) first = i;
    }
    const float ratio = isnan(err) ? INFINITY : static_cast<float>(tol[i] > 0.0 ? err / tol[i] : (err > 0 ? INFINITY : 0.0));
    worst = fmaxf(worst, ratio);
    if (!isnan(err)) max_abs = fmaxf(max_abs, static_cast<float>(err));
  }
  if (bad) {
    atomicAdd(&result->bad, bad);
    atomicMin(&result->first_bad, first);
  }
  atomicMax(&result->worst_ratio_bits, __float_as_uint(worst));
  atomicMax(&result->max_abs_bits, __float_as_uint(max_abs));
}

}  // namespace

Status fill_random(float* data, std::size_t count, std::uint64_t seed, cudaStream_t stream) {
  fill_random_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, count, seed);
  GEMMLAB_CUDA_TRY(cudaGetLastError());
  return Ok{};
}

Status fill_nan(float* data, std::size_t count, cudaStream_t stream) {
  GEMMLAB_CUDA_TRY(cudaMemsetAsync(data, 0xFF, count * sizeof(float), stream));
  return Ok{};
}

Status round_to_input(float* data, std::uint16_t* bits, std::size_t count, kernel::InputType type, cudaStream_t stream) {
  if (type == kernel::InputType::BF16) round_kernel<__nv_bfloat16><<<blocks_for(count), kThreads, 0, stream>>>(data, bits, count);
  else if (type == kernel::InputType::F16) round_kernel<__half><<<blocks_for(count), kThreads, 0, stream>>>(data, bits, count);
  else return Error{"round_to_input: fp32 inputs need no rounding"};
  GEMMLAB_CUDA_TRY(cudaGetLastError());
  return Ok{};
}

Status reference_gemm(const float* a, const float* b, const float* c0, double* ref, double* tol, int m, int n, int k,
                      double alpha, double beta, double unit_roundoff, cudaStream_t stream, double* tol_half_acc) {
  const dim3 grid((n + kRefTile - 1) / kRefTile, (m + kRefTile - 1) / kRefTile);
  reference_kernel<<<grid, kRefSide * kRefSide, 0, stream>>>(a, b, c0, ref, tol, tol_half_acc, m, n, k, alpha, beta,
                                                             (k + 2) * unit_roundoff);
  GEMMLAB_CUDA_TRY(cudaGetLastError());
  return Ok{};
}

Result<Comparison> compare_to_reference(const float* out, const double* ref, const double* tol, std::size_t count,
                                        cudaStream_t stream) {
  auto device_result = DeviceBuffer<DeviceComparison>::allocate(1, "the comparison's result");
  if (!device_result) return device_result.error();
  DeviceComparison init{0, ~0ull, 0, 0};
  GEMMLAB_CUDA_TRY(cudaMemcpyAsync(device_result->data(), &init, sizeof init, cudaMemcpyHostToDevice, stream));
  compare_kernel<<<blocks_for(count), kThreads, 0, stream>>>(out, ref, tol, count, device_result->data());
  GEMMLAB_CUDA_TRY(cudaGetLastError());
  DeviceComparison host{};
  GEMMLAB_CUDA_TRY(cudaMemcpyAsync(&host, device_result->data(), sizeof host, cudaMemcpyDeviceToHost, stream));
  GEMMLAB_CUDA_TRY(cudaStreamSynchronize(stream));
  Comparison c;
  c.checked = static_cast<std::int64_t>(count);
  c.bad = static_cast<std::int64_t>(host.bad);
  c.worst_ratio = __builtin_bit_cast(float, host.worst_ratio_bits);
  c.max_abs_error = __builtin_bit_cast(float, host.max_abs_bits);
  if (host.bad) {
    c.first_bad = static_cast<std::int64_t>(host.first_bad);
    GEMMLAB_CUDA_TRY(cudaMemcpy(&c.first_bad_value, out + host.first_bad, sizeof(float), cudaMemcpyDeviceToHost));
    GEMMLAB_CUDA_TRY(cudaMemcpy(&c.first_bad_expected, ref + host.first_bad, sizeof(double), cudaMemcpyDeviceToHost));
    GEMMLAB_CUDA_TRY(cudaMemcpy(&c.first_bad_tolerance, tol + host.first_bad, sizeof(double), cudaMemcpyDeviceToHost));
  }
  return c;
}

}  // namespace gemmlab::gpu
