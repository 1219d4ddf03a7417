// gemmlab-cli list: the rung list, as a table or as JSON.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gemmlab/rungs.hpp"
#include "table.hpp"

namespace gemmlab::cli {

Command add_list_command(CLI::App& parent) {
  auto* sub = parent.add_subcommand("list", "List the kernel variants (rungs) of the ladder");
  auto json = std::make_shared<bool>(false);
  sub->add_flag("--json", *json, "Print JSON instead of a table");
  return {sub, [json] {
            if (*json) {
              auto out = nlohmann::json::array();
              for (const auto& rung : rungs())
                out.push_back({{"number", rung.number},
                               {"slug", rung.slug},
                               {"title", rung.title},
                               {"precision", to_string(rung.precision)},
                               {"change", rung.change}});
              std::cout << out.dump(2) << "\n";
              return kExitOk;
            }
            TextTable table({{"#", TextTable::Align::Right}, {"slug"}, {"precision"}, {"title"}, {"what it changes"}});
            for (const auto& rung : rungs())
              table.add_row({std::to_string(rung.number), std::string(rung.slug), std::string(to_string(rung.precision)),
                             std::string(rung.title), std::string(rung.change)});
            table.print(std::cout);
            return kExitOk;
          }};
}

}  // namespace gemmlab::cli
