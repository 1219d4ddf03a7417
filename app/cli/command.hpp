#pragma once
// Each subcommand lives in its own file and registers itself on the CLI11 app; main runs the one the user named.
#include <functional>

namespace CLI {
class App;
}

namespace gemmlab::cli {

// Exit codes of gemmlab-cli.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;  // the command ran and reports a failure (no device, invalid configuration...)
inline constexpr int kExitUsage = 2;   // the command line itself is wrong

struct Command {
  CLI::App* app;             // the subcommand, owned by the parent app
  std::function<int()> run;  // runs it after parsing; returns the exit code
};

Command add_list_command(CLI::App& parent);
Command add_devices_command(CLI::App& parent);
Command add_access_command(CLI::App& parent);
Command add_layout_command(CLI::App& parent);
Command add_sim_command(CLI::App& parent);
Command add_schedule_command(CLI::App& parent);
Command add_verify_command(CLI::App& parent);
Command add_bench_command(CLI::App& parent);
Command add_tune_command(CLI::App& parent);
Command add_sweep_command(CLI::App& parent);
Command add_cublas_command(CLI::App& parent);
Command add_merge_command(CLI::App& parent);
Command add_trace_command(CLI::App& parent);

}  // namespace gemmlab::cli
