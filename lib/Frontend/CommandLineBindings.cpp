// The tools' -D and --spec arguments as generator options (blkc and blk-run
// take them alike).
#include "blk/Frontend/MLIRGen.h"

namespace blk {

std::string addCommandLineBindings(GenOptions &gen, const std::vector<std::string> &defines,
                                   const std::vector<std::string> &specs) {
  for (const std::string &d : defines) {
    size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0)
      return "-D expects NAME=VALUE, got '" + d + "'";
    gen.defines[d.substr(0, eq)] = d.substr(eq + 1);
  }
  for (const std::string &s : specs) {
    size_t eq = s.find('=');
    std::string value = eq == std::string::npos ? "" : s.substr(eq + 1);
    if (eq == std::string::npos || (value != "16" && value != "1"))
      return "--spec expects NAME=16 or NAME=1, got '" + s + "'";
    if (value == "1")
      gen.equalsOne.push_back(s.substr(0, eq));
    else
      gen.divisibility[s.substr(0, eq)] = 16;
  }
  return {};
}

} // namespace blk
