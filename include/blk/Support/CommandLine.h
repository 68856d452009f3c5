// Command-line parsing for the tools: CLI11's parse errors worded as every
// other command-line mistake is (`TOOL: error: ...`, exit 1).
#ifndef BLK_SUPPORT_COMMANDLINE_H
#define BLK_SUPPORT_COMMANDLINE_H

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <optional>

namespace blk {

/// Parses `argv` into `app`. Returns the exit code when the tool should stop
/// (0 after --help, 1 after a parse error, reported on stderr), or nothing.
inline std::optional<int> parseCommandLine(CLI::App &app, int argc, char **argv, const char *tool) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
      return app.exit(e); // --help
    fmt::print(stderr, "{}: error: {}\nRun with --help for more information.\n", tool, e.what());
    return 1;
  }
  return std::nullopt;
}

} // namespace blk

#endif
