// cuBLAS decoded (see cublas_choice.hpp): cuBLASLt's heuristic, its configuration read back and named from the
// header's own enums (generated/cublaslt_names.cpp), and the kernels launched, named by CUPTI's activity records.
#include "gemmlab/gpu/cublas_choice.hpp"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#if GEMMLAB_HAVE_CUPTI
#include <cupti.h>
#endif

#include <charconv>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <tuple>

#include "cuda_error.hpp"
#include "device_buffer.hpp"
#include "session.hpp"

namespace gemmlab::gpu {
namespace cublaslt {
struct EnumName {
  int value;
  std::string_view name;
};
extern const EnumName kTileNames[];
extern const EnumName kStagesNames[];
extern const EnumName kClusterNames[];
extern const EnumName kReductionNames[];
}  // namespace cublaslt

namespace {

std::string name_of(const cublaslt::EnumName* table, int value) {
  for (; table->value >= 0; ++table)
    if (table->value == value) return std::string(table->name);
  std::string unknown = "#";  // a value this toolkit's header does not name
  unknown += std::to_string(value);
  return unknown;
}

// "128x16" -> {128, 16}; "64xAUTO" -> {64, 0}; "AUTO" or "UNDEFINED" -> {0, 0}.
std::pair<int, int> two_numbers(std::string_view text) {
  int a = 0, b = 0;
  const auto x = text.find('x');
  if (x == std::string_view::npos) return {0, 0};
  std::from_chars(text.data(), text.data() + x, a);
  std::from_chars(text.data() + x + 1, text.data() + text.size(), b);
  return {a, b};
}

Error lt_error(const std::string& what, cublasStatus_t code) {
  return Error{what + " failed: " + cublasLtGetStatusString(code)};
}

#if GEMMLAB_HAVE_CUPTI
// CUPTI's kernel records: the names of the kernels launched while a capture is open. One capture at a time.
std::mutex g_capture_mutex;
std::vector<std::string>* g_names = nullptr;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  constexpr std::size_t bytes = 1 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, bytes));
  *size = bytes;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && g_names != nullptr)
      if (const char* name = reinterpret_cast<CUpti_ActivityKernel10*>(record)->name; name != nullptr)
        g_names->emplace_back(name);  // copied out of the packed record first
  std::free(buffer);
}

// The kernels `launch` runs, in order; an error where CUPTI cannot record them (another profiler holds it, say).
template <class Launch>
Result<std::vector<std::string>> kernels_launched_by(Launch&& launch, cudaStream_t stream) {
  std::lock_guard lock(g_capture_mutex);
  std::vector<std::string> names;
  g_names = &names;
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
    g_names = nullptr;
    return Error{"CUPTI cannot record kernels in this process (is a profiler attached?)"};
  }
  Status launched = launch();
  if (launched) launched = finish(stream, "the cuBLAS launch");
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityFlushAll(1);
  g_names = nullptr;
  if (!launched) return launched.error();
  return names;
}
#else
template <class Launch>
Result<std::vector<std::string>> kernels_launched_by(Launch&&, cudaStream_t) {
  return Error{"this build has no CUPTI, which names the kernels cuBLAS launches"};
}
#endif

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : " + ") + n;
  return text;
}

}  // namespace

Result<CublasChoice> cublas_choice(const Shape& s, kernel::InputType input, int device) {
  if (input == kernel::InputType::F32) return Error{"cuBLAS decoded takes fp16 or bf16 inputs (the tensor-core GEMMs)"};
  auto session = Session::open(device);
  if (!session) return session.error();
  auto handle = session->cublas();
  if (!handle) return handle.error();
  const cudaDataType_t in = input == kernel::InputType::F16 ? CUDA_R_16F : CUDA_R_16BF;

  cublasLtHandle_t lt = nullptr;
  if (const auto code = cublasLtCreate(&lt); code != CUBLAS_STATUS_SUCCESS) return lt_error("cublasLtCreate", code);
  struct LtObjects {
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulPreference_t pref = nullptr;
    ~LtObjects() {
      if (pref) cublasLtMatmulPreferenceDestroy(pref);
      if (c) cublasLtMatrixLayoutDestroy(c);
      if (b) cublasLtMatrixLayoutDestroy(b);
      if (a) cublasLtMatrixLayoutDestroy(a);
      if (desc) cublasLtMatmulDescDestroy(desc);
      cublasLtDestroy(lt);
    }
  } o{lt};
  // The problem launch_cublas gives cublasGemmEx: column-major C^T (n x m) = B^T (n x k) A^T (k x m), FP32 compute
  // and scale, FP32 C.
  const cublasOperation_t none = CUBLAS_OP_N;
  cublasStatus_t code = cublasLtMatmulDescCreate(&o.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  if (code == CUBLAS_STATUS_SUCCESS)
    code = cublasLtMatmulDescSetAttribute(o.desc, CUBLASLT_MATMUL_DESC_TRANSA, &none, sizeof none);
  if (code == CUBLAS_STATUS_SUCCESS)
    code = cublasLtMatmulDescSetAttribute(o.desc, CUBLASLT_MATMUL_DESC_TRANSB, &none, sizeof none);
  if (code == CUBLAS_STATUS_SUCCESS) code = cublasLtMatrixLayoutCreate(&o.a, in, s.n, s.k, s.n);
  if (code == CUBLAS_STATUS_SUCCESS) code = cublasLtMatrixLayoutCreate(&o.b, in, s.k, s.m, s.k);
  if (code == CUBLAS_STATUS_SUCCESS) code = cublasLtMatrixLayoutCreate(&o.c, CUDA_R_32F, s.n, s.m, s.n);
  if (code == CUBLAS_STATUS_SUCCESS) code = cublasLtMatmulPreferenceCreate(&o.pref);
  // cuBLAS's own default workspace on Hopper (32 MiB), so the heuristic sees what cublasGemmEx has.
  const std::size_t workspace_limit = std::size_t{32} << 20;
  if (code == CUBLAS_STATUS_SUCCESS)
    code = cublasLtMatmulPreferenceSetAttribute(o.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_limit,
                                                sizeof workspace_limit);
  if (code != CUBLAS_STATUS_SUCCESS) return lt_error("describing the problem to cuBLASLt", code);
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  code = cublasLtMatmulAlgoGetHeuristic(lt, o.desc, o.a, o.b, o.c, o.c, o.pref, 1, &result, &found);
  if (code != CUBLAS_STATUS_SUCCESS) return lt_error("cublasLtMatmulAlgoGetHeuristic", code);
  if (found == 0) return Error{"cuBLASLt's heuristic found no algorithm for " + to_string(s)};

  CublasChoice choice;
  choice.device = session->device().name;
  const auto attribute = [&](cublasLtMatmulAlgoConfigAttributes_t which) {
    int value = 0;
    std::size_t written = 0;
    cublasLtMatmulAlgoConfigGetAttribute(&result.algo, which, &value, sizeof value, &written);
    return value;
  };
  choice.algorithm = attribute(CUBLASLT_ALGO_CONFIG_ID);
  choice.tile_name = name_of(cublaslt::kTileNames, attribute(CUBLASLT_ALGO_CONFIG_TILE_ID));
  choice.stages_name = name_of(cublaslt::kStagesNames, attribute(CUBLASLT_ALGO_CONFIG_STAGES_ID));
  choice.cluster_name = name_of(cublaslt::kClusterNames, attribute(CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID));
  choice.reduction = name_of(cublaslt::kReductionNames, attribute(CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME));
  choice.split_k = std::max(1, attribute(CUBLASLT_ALGO_CONFIG_SPLITK_NUM));
  choice.cta_swizzle = attribute(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING);
  choice.waves = result.wavesCount;
  choice.workspace_bytes = result.workspaceSize;
  const auto [tile_n, tile_m] = two_numbers(choice.tile_name);  // C^T's rows are C's columns
  choice.tile_rows = tile_m, choice.tile_cols = tile_n;
  std::tie(choice.bk, choice.stages) = two_numbers(choice.stages_name);  // "64xAUTO": stages 0, cuBLAS's choice

  // Operands of the problem's size (zeros: only the kernels' names are wanted), and each launch once.
  const auto count = [](int rows, int cols) { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); };
  auto a = DeviceBuffer<std::uint16_t>::allocate(count(s.m, s.k), "A of " + to_string(s));
  if (!a) return a.error();
  auto b = DeviceBuffer<std::uint16_t>::allocate(count(s.k, s.n), "B of " + to_string(s));
  if (!b) return b.error();
  auto c = DeviceBuffer<float>::allocate(count(s.m, s.n), "C of " + to_string(s));
  if (!c) return c.error();
  auto workspace =
      DeviceBuffer<std::uint8_t>::allocate(std::max<std::size_t>(result.workspaceSize, 1), "cuBLASLt's workspace");
  if (!workspace) return workspace.error();
  GEMMLAB_CUDA_TRY(cudaMemset(a->data(), 0, a->size() * 2));
  GEMMLAB_CUDA_TRY(cudaMemset(b->data(), 0, b->size() * 2));
  GemmArgs g;
  g.a = a->data(), g.b = b->data(), g.c = c->data(), g.m = s.m, g.n = s.n, g.k = s.k, g.alpha = 1, g.beta = 0;
  g.input = input;
  const cudaStream_t stream = session->stream();
  const auto gemm_ex = kernels_launched_by([&] { return launch_cublas(*handle, g); }, stream);
  const float one = 1.0f, zero = 0.0f;
  const auto lt_launch = kernels_launched_by(
      [&]() -> Status {
        const auto status =
            cublasLtMatmul(lt, o.desc, &one, b->data(), o.a, a->data(), o.b, &zero, c->data(), o.c, c->data(), o.c,
                           &result.algo, workspace->data(), result.workspaceSize, stream);
        if (status != CUBLAS_STATUS_SUCCESS) return lt_error("cublasLtMatmul", status);
        return Ok{};
      },
      stream);
  if (gemm_ex) choice.gemm_ex_kernel = joined(*gemm_ex);
  else choice.kernel_note = gemm_ex.error().message;
  if (lt_launch) choice.lt_kernel = joined(*lt_launch);
  else if (choice.kernel_note.empty()) choice.kernel_note = lt_launch.error().message;
  return choice;
}

}  // namespace gemmlab::gpu
