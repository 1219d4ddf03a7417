#include "tma_map.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace gemmlab::gpu {
namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// The driver's encoder, or null where the driver has none.
EncodeTiled encoder() {
  static const EncodeTiled function = [] {
    void* found = nullptr;
    cudaDriverEntryPointQueryResult query{};
    const cudaError_t e =
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &found, 12000, cudaEnableDefault, &query);
    return e == cudaSuccess && query == cudaDriverEntryPointSuccess ? reinterpret_cast<EncodeTiled>(found) : nullptr;
  }();
  return function;
}

}  // namespace

Result<CUtensorMap> make_tensor_map(const void* base, int rows, int cols, int box_rows, int box_cols, int swizzle_bytes,
                                    kernel::InputType type, int panel_cols) {
  if (swizzle_bytes != 0 && swizzle_bytes != 32 && swizzle_bytes != 64 && swizzle_bytes != 128)
    return Error{"TMA swizzles 32, 64 or 128 bytes (or none), not " + std::to_string(swizzle_bytes)};
  const CUtensorMapSwizzle swizzle = swizzle_bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                     : swizzle_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                     : swizzle_bytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                           : CU_TENSOR_MAP_SWIZZLE_NONE;
  const int element_bytes = type == kernel::InputType::F32 ? 4 : 2;
  if (reinterpret_cast<std::uintptr_t>(base) % 16 != 0 || (std::int64_t{cols} * element_bytes) % 16 != 0)
    return Error{"TMA needs a 16-byte-aligned matrix whose rows are a multiple of 16 bytes long (" +
                 std::to_string(cols) + " columns)"};
  if (panel_cols > 0 && (cols % panel_cols != 0 || box_cols % panel_cols != 0 || panel_cols * element_bytes % 16 != 0))
    return Error{"TMA panels of " + std::to_string(panel_cols) + " columns must divide the matrix's " +
                 std::to_string(cols) + " and the box's " + std::to_string(box_cols) + ", a multiple of 16 bytes each"};
  const EncodeTiled encode = encoder();
  if (encode == nullptr)
    return Error{"the CUDA driver does not provide cuTensorMapEncodeTiled (TMA needs driver 12.0 or newer)"};
  CUtensorMap map{};
  // 2-D: {columns, rows}. With panels, 3-D: {column within the panel, row, panel}, the panels panel_cols apart.
  const auto u64 = [](std::int64_t v) { return static_cast<cuuint64_t>(v); };
  const auto u32 = [](int v) { return static_cast<cuuint32_t>(v); };
  const cuuint32_t rank = panel_cols > 0 ? 3 : 2;
  const int width = panel_cols > 0 ? panel_cols : cols, box_width = panel_cols > 0 ? panel_cols : box_cols;
  const cuuint64_t dims[3] = {u64(width), u64(rows), u64(panel_cols > 0 ? cols / panel_cols : 1)};
  // Bytes from one row to the next, and from one panel to the next.
  const cuuint64_t strides[2] = {u64(std::int64_t{cols} * element_bytes), u64(std::int64_t{width} * element_bytes)};
  const cuuint32_t box[3] = {u32(box_width), u32(box_rows), u32(panel_cols > 0 ? box_cols / panel_cols : 1)};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  const CUresult r = encode(&map,
                               type == kernel::InputType::BF16  ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                               : type == kernel::InputType::F16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                                                : CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                               rank, const_cast<void*>(base), dims, strides, box, element_strides,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                               CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return Error{"cuTensorMapEncodeTiled refused a " + std::to_string(rows) + " x " + std::to_string(cols) +
                 " matrix with " + std::to_string(box_rows) + " x " + std::to_string(box_cols) + " boxes (CUresult " +
                 std::to_string(static_cast<int>(r)) + ")"};
  return map;
}

Status require_sm90a() {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
    return Error{"cannot read the GPU's compute capability"};
  if (major != 9 || minor != 0)
    return Error{"needs a Hopper GPU (sm_90a): this one has compute capability " + std::to_string(major) + "." +
                 std::to_string(minor)};
  return Ok{};
}

}  // namespace gemmlab::gpu
