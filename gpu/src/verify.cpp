// verify(): every selected configuration on every shape and case, against the FP64 reference (see verify.hpp).
#include "gemmlab/gpu/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cuda_error.hpp"
#include "device_buffer.hpp"
#include "gemmlab/gpu/instances.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/simulate.hpp"
#include "reference.hpp"
#include "session.hpp"
#include "verify_detail.hpp"

namespace gemmlab::gpu {
namespace {

std::string describe_failure(const Comparison& c, int n) {
  const std::int64_t row = c.first_bad / n, col = c.first_bad % n;
  char text[320];
  if (std::isnan(c.first_bad_value))
    std::snprintf(text, sizeof text, "C[%lld][%lld] is NaN (never written?), expected %.9g; ", static_cast<long long>(row),
                  static_cast<long long>(col), c.first_bad_expected);
  else
    std::snprintf(text, sizeof text, "C[%lld][%lld] = %.9g, expected %.9g +- %.3g; ", static_cast<long long>(row),
                  static_cast<long long>(col), static_cast<double>(c.first_bad_value), c.first_bad_expected,
                  c.first_bad_tolerance);
  return text + std::to_string(c.bad) + " of " + std::to_string(c.checked) + " elements outside the tolerance";
}

CheckResult to_check_result(const Comparison& c, int n) {
  CheckResult r;
  r.bad_elements = c.bad;
  r.worst_ratio = c.worst_ratio;
  r.max_abs_error = c.max_abs_error;
  if (c.bad > 0) {
    r.status = CheckStatus::Failed;
    r.message = describe_failure(c, n);
  }
  return r;
}

}  // namespace

std::uint64_t case_seed(std::uint64_t seed, std::size_t shape, std::size_t scalar_case) {
  return seed * 1000003ull + shape * 1009ull + scalar_case * 17ull;
}

Result<GemmBuffers> GemmBuffers::allocate(const Shape& s) {
  const auto count = [](int rows, int cols) { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); };
  const std::string dims = to_string(s);
  GemmBuffers out;
  auto a = DeviceBuffer<float>::allocate(count(s.m, s.k), "A of the " + dims + " problem");
  if (!a) return a.error();
  auto b = DeviceBuffer<float>::allocate(count(s.k, s.n), "B of the " + dims + " problem");
  if (!b) return b.error();
  auto c0 = DeviceBuffer<float>::allocate(count(s.m, s.n), "the initial C of the " + dims + " problem");
  if (!c0) return c0.error();
  auto c = DeviceBuffer<float>::allocate(count(s.m, s.n), "C of the " + dims + " problem");
  if (!c) return c.error();
  auto a16 = DeviceBuffer<std::uint16_t>::allocate(count(s.m, s.k), "16-bit A of the " + dims + " problem");
  if (!a16) return a16.error();
  auto b16 = DeviceBuffer<std::uint16_t>::allocate(count(s.k, s.n), "16-bit B of the " + dims + " problem");
  if (!b16) return b16.error();
  auto ref = DeviceBuffer<double>::allocate(count(s.m, s.n), "the FP64 reference of the " + dims + " problem");
  if (!ref) return ref.error();
  auto tol = DeviceBuffer<double>::allocate(count(s.m, s.n), "the tolerances of the " + dims + " problem");
  if (!tol) return tol.error();
  out.a = std::move(*a), out.b = std::move(*b), out.c0 = std::move(*c0), out.c = std::move(*c);
  out.a16 = std::move(*a16), out.b16 = std::move(*b16);
  out.ref = std::move(*ref), out.tol = std::move(*tol);
  return out;
}

Status GemmBuffers::prepare(const Shape& s, float alpha, float beta, std::uint64_t seed, kernel::InputType type,
                            cudaStream_t stream) {
  input = type;
  if (auto ok = fill_random(a.data(), a.size(), seed * 3 + 0, stream); !ok) return ok;
  if (auto ok = fill_random(b.data(), b.size(), seed * 3 + 1, stream); !ok) return ok;
  if (auto ok = fill_random(c0.data(), c0.size(), seed * 3 + 2, stream); !ok) return ok;
  const bool sixteen_bit = type != kernel::InputType::F32;
  if (sixteen_bit) {
    if (auto ok = round_to_input(a.data(), a16.data(), a.size(), type, stream); !ok) return ok;
    if (auto ok = round_to_input(b.data(), b16.data(), b.size(), type, stream); !ok) return ok;
  }
  if (type == kernel::InputType::F16 && tol_half_acc.size() != tol.size()) {
    auto half = DeviceBuffer<double>::allocate(tol.size(), "the FP16 accumulators' tolerances of the " + to_string(s) +
                                                               " problem");
    if (!half) return half.error();
    tol_half_acc = std::move(*half);
  }
  return reference_gemm(a.data(), b.data(), c0.data(), ref.data(), tol.data(), s.m, s.n, s.k, alpha, beta,
                        sixteen_bit ? kUnitRoundoffTensor : kUnitRoundoffFp32, stream,
                        type == kernel::InputType::F16 ? tol_half_acc.data() : nullptr);
}

GemmArgs GemmBuffers::args(const Shape& s, float alpha, float beta, kernel::BlockOrder order) const {
  GemmArgs g;
  const bool sixteen_bit = input != kernel::InputType::F32;
  g.a = sixteen_bit ? static_cast<const void*>(a16.data()) : a.data();
  g.b = sixteen_bit ? static_cast<const void*>(b16.data()) : b.data();
  g.c = const_cast<float*>(c.data());
  g.m = s.m, g.n = s.n, g.k = s.k, g.alpha = alpha, g.beta = beta, g.order = order, g.input = input;
  return g;
}

Status GemmBuffers::reset_c(float beta, cudaStream_t stream) {
  if (beta == 0.0f) return fill_nan(c.data(), c.size(), stream);
  GEMMLAB_CUDA_TRY(cudaMemcpyAsync(c.data(), c0.data(), c.size() * sizeof(float), cudaMemcpyDeviceToDevice, stream));
  return Ok{};
}

Result<CheckResult> GemmBuffers::check(const Shape& s, const kernel::KernelConfig& config, cudaStream_t stream) const {
  const bool half_accumulators = config.acc == 16 && input == kernel::InputType::F16;
  const DeviceBuffer<double>& bound = half_accumulators ? tol_half_acc : tol;
  auto comparison = compare_to_reference(c.data(), ref.data(), bound.data(), c.size(), stream);
  if (!comparison) return comparison.error();
  return to_check_result(*comparison, s.n);
}

Result<CheckResult> run_and_check(Session& session, GemmBuffers& buffers, const GpuInstance& inst, const Shape& s,
                                  float alpha, float beta, kernel::BlockOrder order) {
  const sim::Problem problem{s.m, s.n, s.k, alpha, beta};
  if (auto valid = sim::validate(inst.rung, inst.config, problem, session.limits()); !valid)
    return CheckResult{CheckStatus::Refused, valid.error().message, 0, 0.0, 0.0};
  // A kernel that cannot be had (no nvcc, nvcc's error, a block its registers do not fit) cannot run: refused, with
  // the sentence, not a check that failed.
  const auto variant = kernel_variant(inst, buffers.input, s.n, s.k);
  if (!variant) return CheckResult{CheckStatus::Refused, variant.error().message, 0, 0.0, 0.0};
  if (auto ready = kernel_function(inst, *variant); !ready)
    return CheckResult{CheckStatus::Refused, "cannot run: " + ready.error().message, 0, 0.0, 0.0};
  if (auto ok = buffers.reset_c(beta, session.stream()); !ok) return ok.error();
  const GemmArgs args = buffers.args(s, alpha, beta, order);
  if (auto launched = launch_gemm(inst, args, session.stream()); !launched)
    return CheckResult{CheckStatus::Failed, launched.error().message, 0, 0.0, 0.0};
  const std::string name = std::string(rung_info(inst.rung).slug) + " (" + instance_label(inst) + ", " +
                           std::string(kernel::input_name(buffers.input)) + ") at " + to_string(s);
  if (auto done = finish(session.stream(), name); !done) return done.error();
  return buffers.check(s, inst.config, session.stream());
}

Result<VerifyReport> verify(const VerifyOptions& options, const VerifyProgress& progress,
                            const std::atomic<bool>* cancel) {
  auto selected = select_instances(options.rungs, options.all_instances, options.kernels);
  if (!selected) return selected.error();
  auto types = input_types_to_run(*selected, options.inputs);
  if (!types) return types.error();
  auto session = Session::open(options.device);
  if (!session) return session.error();
  const std::span<const Shape> shapes =
      options.shapes.empty() ? default_verify_shapes() : std::span<const Shape>(options.shapes);
  struct ScalarCase {
    float alpha, beta;
  };
  constexpr ScalarCase kCases[] = {{0.75f, 0.0f}, {1.25f, -0.5f}};

  VerifyReport report;
  report.device = session->device();
  // Each instance runs once per input type it takes (FP32; or FP16 and BF16), grouped by type so that one set of
  // rounded inputs serves every instance of that type.
  std::size_t runs_per_case = 0;
  for (const GpuInstance& inst : *selected) runs_per_case += inputs_for(inst, options.inputs).size();
  const std::size_t total = shapes.size() * std::size(kCases) * runs_per_case;
  for (std::size_t si = 0; si < shapes.size(); ++si) {
    const Shape& s = shapes[si];
    std::optional<GemmBuffers> buffers;  // allocated once a check needs them (a refused shape allocates nothing)
    for (std::size_t ci = 0; ci < std::size(kCases); ++ci)
    for (const kernel::InputType type : *types) {
      const auto [alpha, beta] = kCases[ci];
      bool prepared = false;
      for (const GpuInstance& inst : *selected) {
        const auto takes = inputs_for(inst, options.inputs);
        if (std::find(takes.begin(), takes.end(), type) == takes.end()) continue;
        if (cancel && cancel->load()) {
          report.cancelled = true;
          return report;
        }
        VerifyRow row{inst, s, alpha, beta, type, {}};
        const sim::Problem problem{s.m, s.n, s.k, alpha, beta};
        if (auto valid = sim::validate(inst.rung, inst.config, problem, session->limits()); !valid) {
          row.result = {CheckStatus::Refused, valid.error().message, 0, 0.0, 0.0};
        } else {
          if (!buffers) {
            auto allocated = GemmBuffers::allocate(s);
            if (!allocated) return allocated.error();
            buffers.emplace(std::move(*allocated));
          }
          if (!prepared) {
            if (auto ok = buffers->prepare(s, alpha, beta, case_seed(options.seed, si, ci), type, session->stream()); !ok)
              return ok.error();
            prepared = true;
          }
          auto checked = run_and_check(*session, *buffers, inst, s, alpha, beta, options.order);
          if (!checked) return checked.error();
          row.result = std::move(*checked);
        }
        switch (row.result.status) {
          case CheckStatus::Passed: ++report.passed; break;
          case CheckStatus::Failed: ++report.failed; break;
          case CheckStatus::Refused: ++report.refused; break;
        }
        report.rows.push_back(row);
        if (progress) progress(report.rows.back(), report.rows.size(), total);
      }
    }
  }
  return report;
}

}  // namespace gemmlab::gpu
