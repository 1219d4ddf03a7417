#pragma once
// Runs a program with arguments, capturing what it prints: the CLI tests use the tool exactly as a user does.
#include <string>
#include <vector>

namespace gemmlab::test {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args);

#ifdef GEMMLAB_CLI_PATH
// The gemmlab-cli of this build, run with `args`.
inline ProcessResult run_cli(const std::vector<std::string>& args) { return run_process(GEMMLAB_CLI_PATH, args); }
#endif

}  // namespace gemmlab::test
