// cuBLAS decoded as text and JSON (see cublas_choice.hpp): plain C++, in builds with or without CUDA.
#include <nlohmann/json.hpp>

#include "gemmlab/gpu/cublas_choice.hpp"

namespace gemmlab::gpu {

std::string summary(const CublasChoice& c) {
  std::string text =
      c.split_k > 1 ? "split-K " + std::to_string(c.split_k) + " (" + c.reduction + "), " : "no split-K, ";
  text += c.tile_rows > 0 ? "tile " + std::to_string(c.tile_rows) + "x" + std::to_string(c.tile_cols)
                          : "tile " + c.tile_name;
  if (c.bk > 0) text += ", k " + std::to_string(c.bk);
  text += c.stages > 0 ? ", " + std::to_string(c.stages) + " stages" : ", stages chosen by cuBLAS";
  if (c.cluster_name != "AUTO" && c.cluster_name != "1x1x1") text += ", cluster " + c.cluster_name;
  return text;
}

std::string cublas_choice_json(const CublasChoice& c) {
  const nlohmann::json j = {{"device", c.device},
                            {"algorithm", c.algorithm},
                            {"summary", summary(c)},
                            {"tile", {{"rows", c.tile_rows}, {"cols", c.tile_cols}, {"cublaslt_name", c.tile_name}}},
                            {"bk", c.bk},
                            {"stages", c.stages},
                            {"stages_name", c.stages_name},
                            {"split_k", c.split_k},
                            {"reduction", c.reduction},
                            {"cta_swizzle", c.cta_swizzle},
                            {"cluster", c.cluster_name},
                            {"waves", c.waves},
                            {"workspace_bytes", c.workspace_bytes},
                            {"gemm_ex_kernel", c.gemm_ex_kernel},
                            {"lt_kernel", c.lt_kernel},
                            {"kernel_note", c.kernel_note}};
  return j.dump(2);
}

}  // namespace gemmlab::gpu
