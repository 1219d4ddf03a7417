// gemmlab-cli: everything gemmlab does that needs no window.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "command.hpp"

int main(int argc, char** argv) {
  using namespace gemmlab::cli;
  CLI::App app{"gemmlab-cli: the GEMM ladder's simulator and GPU runner, without a window", "gemmlab-cli"};
  app.require_subcommand(1);
  app.fallthrough(false);

  const std::vector<Command> commands{
      add_list_command(app),
      add_devices_command(app),
      add_access_command(app),
      add_layout_command(app),
      add_sim_command(app),
      add_schedule_command(app),
      add_verify_command(app),
      add_bench_command(app),
      add_tune_command(app),
      add_sweep_command(app),
      add_cublas_command(app),
      add_trace_command(app),
      add_merge_command(app),
  };

  // CLI11 would call an unknown word "extra arguments"; name it for what it is.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    bool known = false;
    for (const auto& command : commands) known = known || command.app->get_name() == word;
    if (!known) {
      std::cerr << "gemmlab-cli: unknown subcommand '" << word << "'\n\n" << app.help();
      return kExitUsage;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    // Show the usage of the subcommand the user was writing, or of the tool when none was recognised.
    const CLI::App* context = &app;
    for (const auto& command : commands)
      if (command.app->parsed()) context = command.app;
    // In a subcommand: the sentence, then where its options are (its whole help would push the sentence off the
    // screen). Without one: the tool's short help, which lists the subcommands.
    if (context == &app) std::cerr << "gemmlab-cli: " << error.what() << "\n\n" << app.help();
    else
      std::cerr << "gemmlab-cli: " << error.what() << "\n(gemmlab-cli " << context->get_name()
                << " --help lists the options)\n";
    return kExitUsage;
  }

  for (const auto& command : commands)
    if (command.app->parsed()) return command.run();
  std::cerr << app.help();
  return kExitUsage;
}
