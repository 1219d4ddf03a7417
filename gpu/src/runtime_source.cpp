// Run-time compilation's plain C++ half (gemmlab/gpu/runtime_compile.hpp): the source, the command, the cache and the
// nvcc process. It needs nvcc but no GPU; loading the result is runtime_kernel.cpp's (CUDA builds only).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "gemmlab/file_io.hpp"
#include "gemmlab/gpu/runtime_compile.hpp"
#include "gemmlab/sim/rung_model.hpp"

extern char** environ;

namespace gemmlab::gpu {
namespace {

namespace fs = std::filesystem;

// The build's nvcc and the directories of the headers the build's kernels include, separated by '|'
// (gpu/CMakeLists.txt); empty in a build without CUDA.
#ifdef GEMMLAB_RUNTIME_NVCC
constexpr std::string_view kBuildNvcc = GEMMLAB_RUNTIME_NVCC;
constexpr std::string_view kBuildFlags = GEMMLAB_RUNTIME_FLAGS;  // CMAKE_CUDA_FLAGS and those of the build type
constexpr std::string_view kIncludeDirs = GEMMLAB_RUNTIME_INCLUDE_DIRS;
constexpr std::string_view kPython = GEMMLAB_RUNTIME_PYTHON;    // runs scripts/kernel_resources.py (the SASS regions)
constexpr std::string_view kScripts = GEMMLAB_RUNTIME_SCRIPTS;
#else
constexpr std::string_view kPython = {};
constexpr std::string_view kScripts = {};
constexpr std::string_view kBuildNvcc = {};
constexpr std::string_view kBuildFlags = "-O3 -DNDEBUG";
constexpr std::string_view kIncludeDirs = {};
#endif

std::vector<std::string> include_dirs() {
  // Moved since the build (an app carried to another machine): $GEMMLAB_SOURCE_DIR names the source tree instead.
  if (const char* root = std::getenv("GEMMLAB_SOURCE_DIR"); root != nullptr && *root != '\0')
    return {std::string(root) + "/gpu/src", std::string(root) + "/gpu/include", std::string(root) + "/sim/include"};
  std::vector<std::string> dirs;
  std::string_view rest = kIncludeDirs;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find('|'), rest.size());
    if (end > 0) dirs.emplace_back(rest.substr(0, end));
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  return dirs;
}

std::string scripts_dir() {
  if (const char* root = std::getenv("GEMMLAB_SOURCE_DIR"); root != nullptr && *root != '\0')
    return std::string(root) + "/scripts";
  return std::string(kScripts);
}

std::string nvcc_path() {
  if (const char* path = std::getenv("GEMMLAB_NVCC"); path != nullptr && *path != '\0') return path;
  return std::string(kBuildNvcc);
}

std::string_view rung_identifier(RungId rung) {
  switch (rung) {
#define GEMMLAB_RUNG(ident, slug, description, arch, title, precision, change) \
  case RungId::ident: return #ident;
#include "gemmlab/rungs.def"
#undef GEMMLAB_RUNG
  }
  return "?";
}

std::string_view element_type(kernel::InputType input) {
  switch (input) {
    case kernel::InputType::F32: return "float";
    case kernel::InputType::F16: return "__half";
    case kernel::InputType::BF16: return "__nv_bfloat16";
  }
  return "float";
}

// FNV-1a, 64 bits: a cache key, not a checksum anyone attacks.
struct Fnv {
  std::uint64_t h = 1469598103934665603ull;
  void add(std::string_view bytes) {
    for (const unsigned char ch : bytes) h = (h ^ ch) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;  // a separator, so "ab" + "c" differs from "a" + "bc"
  }
  std::string hex() const {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
  }
};

// Every header under the include directories, by path and contents, and nvcc's size and time: what the compiled
// kernel depends on besides its own source and flags. Computed on every look-up (a few milliseconds), so that a header
// edited while a process runs makes new keys at once.
std::string toolchain_fingerprint() {
  const std::string fingerprint = [] {
    Fnv fnv;
    for (const std::string& dir : include_dirs()) {
      std::vector<fs::path> files;
      std::error_code ec;
      for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string ext = it->path().extension().string();
        if (ext == ".hpp" || ext == ".cuh" || ext == ".def" || ext == ".h") files.push_back(it->path());
      }
      std::ranges::sort(files);
      for (const fs::path& file : files) {
        fnv.add(file.string());
        if (auto text = read_input_file(file.string(), "header")) fnv.add(*text);
      }
    }
    fnv.add(nvcc_path());
    if (std::error_code ec; fs::exists(nvcc_path(), ec)) {
      fnv.add(std::to_string(fs::file_size(nvcc_path(), ec)));
      fnv.add(std::to_string(fs::last_write_time(nvcc_path(), ec).time_since_epoch().count()));
    }
    return fnv.hex();
  }();
  return fingerprint;
}

std::string cache_key(const RuntimeKernelRequest& request) {
  Fnv fnv;
  fnv.add(runtime_kernel_source(request));
  for (const std::string& arg : runtime_compile_command(request, "SOURCE", "OUTPUT")) fnv.add(arg);
  fnv.add(toolchain_fingerprint());
  return fnv.hex();
}

struct PtxasFigures {
  int registers = -1, spill_bytes = 0;
  std::vector<std::string> warnings;
};

PtxasFigures read_ptxas_report(const std::string& log) {
  PtxasFigures figures;
  std::smatch m;
  static const std::regex used(R"(Used (\d+) registers)"), spills(R"((\d+) bytes spill stores)");
  if (std::regex_search(log, m, used)) figures.registers = std::stoi(m[1]);
  if (std::regex_search(log, m, spills)) figures.spill_bytes = std::stoi(m[1]);
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);)
    if (line.find("Potential Performance Loss") != std::string::npos || line.find("warning") != std::string::npos)
      figures.warnings.push_back(line.substr(0, line.find_last_not_of(" \r") + 1));
  return figures;
}

// The log's error lines (nvcc's "error" lines, else its last lines), for a sentence.
std::string first_errors(const std::string& log) {
  std::istringstream lines(log);
  std::string line, errors, last;
  int kept = 0;
  while (std::getline(lines, line)) {
    if (line.find("error") != std::string::npos && kept < 3) errors += (kept++ ? "\n" : "") + line;
    if (!line.empty()) last = line;
  }
  return errors.empty() ? last : errors;
}

// Runs argv with stdout and stderr into `log_path`; the exit status, or an error where it could not start.
Result<int> run_process(const std::vector<std::string>& args, const std::string& log_path) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return Error{"could not start " + args[0] + ": " + std::string(std::strerror(started))};
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return Error{"lost the compiler process " + args[0]};
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// rung_block.cuh's rung_kernel_setmaxnreg: a configuration that moves registers launches with a known count. A tracing
// build of more than 256 threads is bounded too: there ptxas's free choice (up to 255 registers) could leave a block
// that cannot launch, as the stamps' few registers did to rung 20's. Not below, where the bound only costs speed
// (docs/timeline.md, "What tracing costs").
std::string launch_bounds(const RuntimeKernelRequest& r) {
  const int threads = sim::threads_per_block(r.kernel.rung, r.kernel.config);
  const bool may_not_launch = r.traced && threads * 255 > 65536;
  if (r.kernel.config.setmaxnreg == 0 && !may_not_launch) return "";
  return "__launch_bounds__(" + std::to_string(threads) + ", 1) ";
}

}  // namespace

Result<KernelVariant> kernel_variant(const GpuInstance& kernel, kernel::InputType input, int n, int k) {
  if (auto takes = sim::validate_input(kernel.rung, kernel.config, input); !takes) return takes.error();
  const bool sixteen_bit = input != kernel::InputType::F32;
  const bool aligned = !sixteen_bit || (n % 8 == 0 && k % 8 == 0);
  if (!aligned && !sim::takes_any_size(kernel.rung)) return Error{"this tensor-core kernel takes n and k multiples of 8"};
  return KernelVariant{input, aligned};
}

bool compiled_at_run_time(const GpuInstance& kernel) {
  return compile_everything_at_run_time() || !find_gpu_instance(kernel.rung, kernel.config);
}

bool compile_everything_at_run_time() {
  const char* value = std::getenv("GEMMLAB_COMPILE_AT_RUN_TIME");
  return value != nullptr && std::string_view(value) == "1";
}

std::string runtime_arch(RungId rung, std::string_view compute_capability) {
  std::string digits;
  for (const char ch : compute_capability)
    if (ch >= '0' && ch <= '9') digits += ch;
  return "sm_" + digits + (sim::needs_sm90a(rung) ? "a" : "");
}

std::string runtime_kernel_source(const RuntimeKernelRequest& r) {
  const kernel::KernelConfig& c = r.kernel.config;
  std::ostringstream s;
  s << "// " << rung_info(r.kernel.rung).slug << " (" << instance_label(r.kernel) << "), "
    << kernel::input_name(r.input) << (r.aligned_rows ? "" : ", rows of any alignment") << (r.traced ? ", traced" : "")
    << ", for " << r.arch
    << ": compiled at run time by gemmlab (gemmlab/gpu/runtime_compile.hpp).\n"
    << "#include \"rung_block.cuh\"\n\n"
    << "extern \"C\" __global__ void " << launch_bounds(r)
    << "gemmlab_runtime_kernel(const __grid_constant__ gemmlab::gpu::KernelParams p) {\n"
    << "  using Config = gemmlab::kernel::FixedConfig<";
  // Every knob, in the knob list's order: FixedConfig's template parameters.
  const char* separator = "";
  for (const sim::Knob& knob : sim::all_knobs()) s << std::exchange(separator, ", ") << c.*knob.field;
  s << ">;\n"
    << "  gemmlab::gpu::run_block<gemmlab::kernel::KernelOf<gemmlab::RungId::" << rung_identifier(r.kernel.rung)
    << ">::type, Config, " << element_type(r.input) << ", " << (r.aligned_rows ? "true" : "false")
    << (r.traced ? ", true, " + std::to_string(r.stamped_tiles) : "") << ">(p);\n"
    << "}\n";
  return s.str();
}

std::vector<std::string> runtime_compile_command(const RuntimeKernelRequest& r, const std::string& source_path,
                                                 const std::string& output_path) {
  // The build's flags for its kernels (its CUDA flags for the build type, then what gpu/CMakeLists.txt sets on the
  // kernels' target: C++20, line info), device code only.
  std::vector<std::string> args{nvcc_path(), "-cubin", "-arch=" + r.arch};
  std::istringstream build_flags{std::string(kBuildFlags)};
  for (std::string flag; build_flags >> flag;) args.push_back(flag);
  args.insert(args.end(), {"-std=c++20", "-lineinfo", "--resource-usage", "-DGEMMLAB_HAVE_CUDA=1"});
  for (const std::string& dir : include_dirs()) args.push_back("-I" + dir);
  args.insert(args.end(), {"-o", output_path, source_path});
  return args;
}

fs::path runtime_kernel_cache_dir() {
  if (const char* dir = std::getenv("GEMMLAB_KERNEL_CACHE"); dir != nullptr && *dir != '\0') return dir;
  if (const char* dir = std::getenv("XDG_CACHE_HOME"); dir != nullptr && *dir != '\0')
    return fs::path(dir) / "gemmlab" / "kernels";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return fs::path(home) / ".cache" / "gemmlab" / "kernels";
  // No home: a folder of this user's own under the temporary directory (another user's files are never loaded).
  std::error_code ec;
  const fs::path dir = fs::temp_directory_path(ec) / ("gemmlab-kernels-" + std::to_string(getuid()));
  fs::create_directories(dir, ec);
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  return dir;
}

Status runtime_compiler_available() {
  if (kBuildNvcc.empty())
    return Error{"this build has no CUDA toolkit, so it cannot compile kernels at run time (only the configurations in "
                 "gpu/include/gemmlab/gpu/instances.def run, and only in a CUDA build)"};
  std::error_code ec;
  if (!fs::path(nvcc_path()).is_absolute())
    return Error{"GEMMLAB_NVCC must be an absolute path to nvcc, not '" + nvcc_path() + "'"};
  if (!fs::exists(nvcc_path(), ec))
    return Error{"compiling this configuration needs nvcc, which is not at " + nvcc_path() +
                 " (set GEMMLAB_NVCC to the toolkit's nvcc, or choose a compiled configuration)"};
  for (const std::string& dir : include_dirs())
    if (!fs::is_directory(dir, ec))
      return Error{"compiling this configuration needs gemmlab's headers, which are no longer at " + dir +
                   " (set GEMMLAB_SOURCE_DIR to gemmlab's source tree)"};
  return Ok{};
}

Result<RuntimeCompiled> compile_runtime_kernel(const RuntimeKernelRequest& request) {
  if (auto ok = runtime_compiler_available(); !ok) return ok.error();
  RuntimeCompiled out;
  out.key = cache_key(request);
  const fs::path dir = runtime_kernel_cache_dir();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{"cannot create the kernel cache " + dir.string() + ": " + ec.message()};
  out.cubin = dir / (out.key + ".cubin");
  const fs::path log = dir / (out.key + ".log");
  if (fs::exists(out.cubin, ec)) {
    out.from_cache = true;
    if (auto text = read_input_file(log.string(), "compile log")) {
      PtxasFigures figures = read_ptxas_report(*text);
      out.registers = figures.registers, out.spill_bytes = figures.spill_bytes;
      out.ptxas_warnings = std::move(figures.warnings);
    }
    return out;
  }
  // Each compile writes files of its own and renames the result into place: two processes (or threads) that compile
  // the same key race harmlessly.
  const std::string unique = out.key + "." + std::to_string(getpid()) + "." +
                             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  const fs::path source = dir / (unique + ".cu"), cubin = dir / (unique + ".cubin"), tmp_log = dir / (unique + ".log");
  if (auto written = write_output_file(source.string(), runtime_kernel_source(request), "kernel source"); !written)
    return written.error();
  const auto start = std::chrono::steady_clock::now();
  auto exit = run_process(runtime_compile_command(request, source.string(), cubin.string()), tmp_log.string());
  out.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto logged = read_input_file(tmp_log.string(), "compile log");
  const std::string text = logged ? *logged : std::string();
  fs::remove(source, ec);
  if (!exit || *exit != 0) {
    fs::remove(cubin, ec);
    fs::remove(tmp_log, ec);
    const std::string what = std::string(rung_info(request.kernel.rung).slug) + " (" + instance_label(request.kernel) + ")";
    if (!exit) return Error{"compiling " + what + ": " + exit.error().message};
    return Error{"nvcc could not compile " + what + " for " + request.arch + ": " + first_errors(text)};
  }
  std::error_code log_error, cubin_error;
  fs::rename(tmp_log, log, log_error);
  fs::rename(cubin, out.cubin, cubin_error);
  if (log_error || cubin_error) {
    fs::remove(tmp_log, ec);
    fs::remove(cubin, ec);
    return Error{"cannot keep the compiled kernel in " + dir.string() + ": " + (cubin_error ? cubin_error : log_error).message()};
  }
  PtxasFigures figures = read_ptxas_report(text);
  out.registers = figures.registers, out.spill_bytes = figures.spill_bytes;
  out.ptxas_warnings = std::move(figures.warnings);
  return out;
}

sim::CompiledFacts compiled_facts(const RuntimeCompiled& compiled, RungId rung, const kernel::KernelConfig& config,
                                  const sim::DeviceProfile& device) {
  sim::CompiledFacts facts = compiled_facts(rung, config, device);
  if (compiled.registers > 0) facts.registers = sim::RegisterCount{compiled.registers, sim::RegisterSource::Measured};
  if (auto code = runtime_kernel_code(compiled)) facts.code = std::move(*code);
  return facts;
}

Result<sim::CompiledCode> runtime_kernel_code(const RuntimeCompiled& compiled) {
  if (kPython.empty()) return Error{"this build has no Python to read a kernel's SASS with"};
  // Version 2 of the file gives each region its load waits; a cache an older build wrote has none, so that build's
  // cubins are disassembled again.
  const fs::path regions = fs::path(compiled.cubin.string() + ".regions-v2.json");
  std::error_code ec;
  if (!fs::exists(regions, ec)) {
    const fs::path log = fs::path(compiled.cubin.string() + ".regions." + std::to_string(getpid()) + ".log");
    const std::string script = scripts_dir() + "/kernel_resources.py";
    auto exit = run_process({std::string(kPython), script, "regions-json", compiled.cubin.string(), regions.string()},
                            log.string());
    const auto said = read_input_file(log.string(), "disassembly log");
    fs::remove(log, ec);
    if (!exit) return Error{"reading the SASS of " + compiled.cubin.string() + ": " + exit.error().message};
    if (*exit != 0) return Error{"reading the SASS of " + compiled.cubin.string() + ": " + (said ? first_errors(*said) : "")};
  }
  const auto text = read_input_file(regions.string(), "SASS regions");
  if (!text) return text.error();
  sim::CompiledCode code;
  try {
    const nlohmann::json j = nlohmann::json::parse(*text);
    for (const auto& r : j.at("regions")) {
      sim::CodeRegion region{r.at(0).get<int>(), r.at(1).get<int>(), {}, r.at(3).get<int>()};
      const auto& anchors = r.at(2);
      if (anchors.size() != region.anchors.size()) return Error{regions.string() + ": not this build's anchors"};
      for (std::size_t a = 0; a < anchors.size(); ++a) region.anchors[a] = anchors.at(a).get<int>();
      code.regions.push_back(region);
    }
  } catch (const nlohmann::json::exception& e) {
    fs::remove(regions, ec);  // damaged: the next call disassembles again
    return Error{regions.string() + " is not the regions JSON: " + e.what()};
  }
  if (code.regions.empty()) return Error{regions.string() + " holds no regions"};
  return code;
}

}  // namespace gemmlab::gpu
