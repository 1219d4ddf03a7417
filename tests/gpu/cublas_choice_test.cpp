// cuBLAS decoded on the GPU (label "gpu"): the heuristic's choice is read back and named, and the kernels cuBLAS
// launches are named by CUPTI. Which algorithm cuBLAS picks is its own business: the test asserts what any choice has.
#include <gtest/gtest.h>

#include "gemmlab/gpu/cublas_choice.hpp"

namespace gemmlab::gpu {
namespace {

TEST(CublasChoice, ReadsTheHeuristicsChoiceAndNamesTheKernels) {
  const auto choice = cublas_choice({16, 4096, 14336}, kernel::InputType::BF16);
  ASSERT_TRUE(choice) << choice.error().message;
  EXPECT_FALSE(choice->device.empty());
  EXPECT_GT(choice->tile_rows, 0) << choice->tile_name;  // a tile the header names, turned to gemmlab's orientation
  EXPECT_GT(choice->tile_cols, 0) << choice->tile_name;
  EXPECT_GE(choice->split_k, 1);
  EXPECT_EQ(choice->split_k > 1, choice->reduction != "NONE") << choice->reduction;
  EXPECT_EQ(summary(*choice).find("tile " + std::to_string(choice->tile_rows) + "x"), summary(*choice).find("tile "));
  EXPECT_FALSE(choice->gemm_ex_kernel.empty()) << choice->kernel_note;
  EXPECT_FALSE(choice->lt_kernel.empty()) << choice->kernel_note;
}

TEST(CublasChoice, Fp32IsASentence) {
  const auto choice = cublas_choice({64, 64, 64}, kernel::InputType::F32);
  ASSERT_FALSE(choice);
  EXPECT_NE(choice.error().message.find("fp16 or bf16"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::gpu
