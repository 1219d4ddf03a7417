// cuBLAS decoded as text and JSON (gpu/src/cublas_choice_io.cpp), on a made-up choice: no GPU needed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gemmlab/gpu/cublas_choice.hpp"

namespace gemmlab::gpu {
namespace {

CublasChoice split_k_choice() {
  CublasChoice c;
  c.tile_rows = 16, c.tile_cols = 128, c.tile_name = "128x16", c.bk = 64, c.stages = 0, c.stages_name = "64xAUTO";
  c.split_k = 4, c.reduction = "COMPUTE_TYPE", c.cluster_name = "AUTO";
  c.gemm_ex_kernel = c.lt_kernel = "nvjet_x + splitKreduce";
  return c;
}

TEST(CublasChoiceText, SaysTheSplitTheTileAndTheStages) {
  EXPECT_EQ(summary(split_k_choice()), "split-K 4 (COMPUTE_TYPE), tile 16x128, k 64, stages chosen by cuBLAS");
  CublasChoice plain = split_k_choice();
  plain.split_k = 1, plain.reduction = "NONE", plain.stages = 4, plain.cluster_name = "2x1x1";
  EXPECT_EQ(summary(plain), "no split-K, tile 16x128, k 64, 4 stages, cluster 2x1x1");
}

TEST(CublasChoiceText, JsonHasEveryField) {
  const auto j = nlohmann::json::parse(cublas_choice_json(split_k_choice()));
  EXPECT_EQ(j["split_k"], 4);
  EXPECT_EQ(j["tile"]["rows"], 16);
  EXPECT_EQ(j["tile"]["cublaslt_name"], "128x16");
  EXPECT_EQ(j["gemm_ex_kernel"], j["lt_kernel"]);
  EXPECT_EQ(j["summary"], summary(split_k_choice()));
}

}  // namespace
}  // namespace gemmlab::gpu
