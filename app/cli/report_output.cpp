#include "report_output.hpp"

#include <iostream>

#include "gemmlab/file_io.hpp"

namespace gemmlab::cli {

bool write_report(const std::string& path, std::string_view text, std::string_view what) {
  if (path == "-") {
    std::cout << text;
    return true;
  }
  if (auto written = write_output_file(path, text, what); !written) {
    std::cerr << "gemmlab-cli: " << written.error().message << "\n";
    return false;
  }
  return true;
}

}  // namespace gemmlab::cli
