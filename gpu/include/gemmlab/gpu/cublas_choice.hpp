#pragma once
// cuBLAS decoded: which algorithm cuBLAS runs for a problem, in gemmlab's terms. cuBLASLt's heuristic is asked for
// its first choice on the problem gemmlab times cuBLAS on (row-major A, B and FP32 C, FP32 accumulation: launch_cublas
// in gpu/src/session.cpp), and its configuration is read back: the tile, the k-depth and stages, the split of K and
// how the splits are reduced, the CTA swizzle and the cluster shape. The kernels cublasGemmEx and cublasLtMatmul with
// that choice launch are named by CUPTI, so one can see whether they are the same. The CLI's `cublas` and the sweep
// call it.
#include <cstddef>
#include <string>

#include "gemmlab/gpu/shapes.hpp"
#include "gemmlab/kernel/element.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::gpu {

struct CublasChoice {
  std::string device;
  int algorithm = 0;  // CUBLASLT_ALGO_CONFIG_ID
  // The block tile in gemmlab's orientation (rows of C x columns of C). cuBLAS computes C^T column-major, so its tile
  // "128x16" is 16 rows of C by 128 columns. 0 where the heuristic leaves it undefined.
  int tile_rows = 0, tile_cols = 0;
  std::string tile_name, stages_name, cluster_name;  // cuBLASLt's enumerators' names ("128x16", "64xAUTO", "AUTO")
  int bk = 0, stages = 0;                            // from stages_name: k-depth, stages (0: chosen by cuBLAS, "AUTO")
  int split_k = 1;                                   // CUBLASLT_ALGO_CONFIG_SPLITK_NUM: K cut into this many slices
  std::string reduction;  // how the slices are summed ("NONE", "INPLACE", "COMPUTE_TYPE", ...)
  int cta_swizzle = 0;
  double waves = 0;  // the heuristic's own count of waves
  std::size_t workspace_bytes = 0;
  std::string gemm_ex_kernel;  // what cublasGemmEx launched (the kernel gemmlab's benchmark times)
  std::string lt_kernel;       // what cublasLtMatmul launched with the heuristic's first choice
  std::string kernel_note;     // why a kernel name is missing, if one is
};

// Errors: no CUDA in this build, no device, a cuBLAS or CUDA failure (named), out of memory for the operands.
Result<CublasChoice> cublas_choice(const Shape& shape, kernel::InputType input, int device = 0);

// "split-K 4 (COMPUTE_TYPE), tile 16x128, k 64, stages chosen by cuBLAS": one line for a table; and every field as
// JSON (an object's text).
std::string summary(const CublasChoice& choice);
std::string cublas_choice_json(const CublasChoice& choice);

}  // namespace gemmlab::gpu
