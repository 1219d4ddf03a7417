// The checker itself (label "gpu"): a result equal to the reference passes, and one NaN or one element just outside
// its tolerance fails and is located. Without this, "every rung passes" would prove nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "device_buffer.hpp"
#include "reference.hpp"

namespace gemmlab::gpu {
namespace {

struct Problem {
  int m = 37, n = 53, k = 29;
  DeviceBuffer<float> a, b, c0, out;
  DeviceBuffer<double> ref, tol;
  std::vector<double> host_ref, host_tol;

  void prepare(float alpha, float beta) {
    a = DeviceBuffer<float>::allocate(std::size_t(m) * k, "A").value();
    b = DeviceBuffer<float>::allocate(std::size_t(k) * n, "B").value();
    c0 = DeviceBuffer<float>::allocate(std::size_t(m) * n, "C0").value();
    out = DeviceBuffer<float>::allocate(std::size_t(m) * n, "out").value();
    ref = DeviceBuffer<double>::allocate(std::size_t(m) * n, "ref").value();
    tol = DeviceBuffer<double>::allocate(std::size_t(m) * n, "tol").value();
    ASSERT_TRUE(fill_random(a.data(), a.size(), 1, nullptr));
    ASSERT_TRUE(fill_random(b.data(), b.size(), 2, nullptr));
    ASSERT_TRUE(fill_random(c0.data(), c0.size(), 3, nullptr));
    ASSERT_TRUE(reference_gemm(a.data(), b.data(), c0.data(), ref.data(), tol.data(), m, n, k, alpha, beta, kUnitRoundoffFp32, nullptr));
    host_ref.resize(ref.size());
    host_tol.resize(tol.size());
    ASSERT_EQ(cudaMemcpy(host_ref.data(), ref.data(), ref.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(host_tol.data(), tol.data(), tol.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  }

  Comparison compare_with(const std::vector<float>& host_out) {
    EXPECT_EQ(cudaMemcpy(out.data(), host_out.data(), host_out.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
    auto c = compare_to_reference(out.data(), ref.data(), tol.data(), out.size(), nullptr);
    EXPECT_TRUE(c) << c.error().message;
    return c ? *c : Comparison{};
  }

  std::vector<float> rounded_reference() const {
    std::vector<float> v(host_ref.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(host_ref[i]);
    return v;
  }
};

TEST(Checker, TheReferenceRoundedToFloatPasses) {
  Problem p;
  p.prepare(1.25f, -0.5f);
  const Comparison c = p.compare_with(p.rounded_reference());
  EXPECT_EQ(c.bad, 0);
  EXPECT_EQ(c.checked, std::int64_t(p.m) * p.n);
  EXPECT_LT(c.worst_ratio, 0.05);  // rounding once is far inside a bound made for k + 2 roundings
}

TEST(Checker, ANaNIsCaughtAndLocated) {
  Problem p;
  p.prepare(0.75f, 0.0f);
  std::vector<float> out = p.rounded_reference();
  out[5 * p.n + 7] = std::nanf("");
  const Comparison c = p.compare_with(out);
  EXPECT_EQ(c.bad, 1);
  EXPECT_EQ(c.first_bad, 5 * p.n + 7);
  EXPECT_TRUE(std::isnan(c.first_bad_value));
}

TEST(Checker, AnErrorJustOutsideTheToleranceFails) {
  Problem p;
  p.prepare(1.0f, 0.0f);
  std::vector<float> out = p.rounded_reference();
  const std::size_t i = 11 * p.n + 3;
  out[i] = static_cast<float>(p.host_ref[i] + 1.5 * p.host_tol[i]);
  const Comparison c = p.compare_with(out);
  EXPECT_EQ(c.bad, 1);
  EXPECT_EQ(c.first_bad, static_cast<std::int64_t>(i));
  EXPECT_GT(c.worst_ratio, 1.0);
}

TEST(Checker, TheToleranceScalesWithKAndTheMagnitudes) {
  Problem p;
  p.prepare(1.0f, 0.0f);
  // tol = (k + 2) 2^-24 sum |a b|, and every |a|, |b| is in [1/64, 1]: the bound lies between these.
  const double u = std::ldexp(1.0, -24);
  for (const double t : p.host_tol) {
    EXPECT_GE(t, (p.k + 2) * u * p.k / (64.0 * 64.0));
    EXPECT_LE(t, (p.k + 2) * u * p.k);
  }
}

}  // namespace
}  // namespace gemmlab::gpu
