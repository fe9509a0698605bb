//===- ToolSupport.h - Command lines and outputs of the tools ---*- C++ -*-===//
//
// LLVM's cl accepts a cl::opt given twice and keeps the last value, so
// "--rtol 1e-3 ... --rtol 0" silently drops the first. The tools refuse a
// repeated scalar option instead; lists (cl::list, ZeroOrMore) still take
// every occurrence. An output stream that failed (a full disk, /dev/full)
// must end the tool with an error naming the file, not exit 0, and a failed
// allocation with one line, not a stack dump.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SUPPORT_COMMANDLINE_H
#define DISTIR_SUPPORT_COMMANDLINE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unistd.h>

namespace distir {

/// cl::ParseCommandLineOptions, with its complaints on one line and exit
/// code 1: LLVM prints "Unknown command line argument" and "Did you mean",
/// or "requires a value!" and "must be specified", on lines of their own,
/// some to the stream it is given and some straight to stderr (fd 2, which is
/// captured in a temporary file while parsing).
inline void parseCommandLine(int argc, const char *const *argv,
                             llvm::StringRef overview) {
  std::string complaints;
  llvm::raw_string_ostream errs(complaints);
  std::FILE *capture = std::tmpfile();
  int savedStderr = capture ? ::dup(2) : -1;
  if (savedStderr >= 0)
    ::dup2(::fileno(capture), 2);
  bool parsed = llvm::cl::ParseCommandLineOptions(argc, argv, overview, &errs);
  llvm::errs().flush();
  if (savedStderr >= 0) {
    ::dup2(savedStderr, 2);
    ::close(savedStderr);
    std::rewind(capture);
    char buffer[4096];
    size_t size;
    while ((size = std::fread(buffer, 1, sizeof(buffer), capture)) > 0)
      complaints.append(buffer, size);
  }
  if (capture)
    std::fclose(capture);
  if (parsed) {
    llvm::errs() << complaints;
    return;
  }
  llvm::StringRef program = llvm::sys::path::filename(argv[0]);
  std::string line;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(complaints).split(parts, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part.consume_front(program))
      part = part.drop_while([](char c) { return c == ':' || c == ' '; });
    line += (line.empty() ? "" : " ") + part.str();
  }
  llvm::WithColor::error(llvm::errs(), program) << line << "\n";
  std::exit(1);
}

/// Exits with one line when an option that takes one value (cl::Optional or
/// cl::Required: every cl::opt) occurs more than once.
inline void rejectRepeatedOptions(llvm::StringRef tool) {
  for (const auto &entry : llvm::cl::getRegisteredOptions()) {
    const llvm::cl::Option *option = entry.second;
    llvm::cl::NumOccurrencesFlag flag = option->getNumOccurrencesFlag();
    if ((flag != llvm::cl::Optional && flag != llvm::cl::Required) ||
        option->getNumOccurrences() <= 1 || option->isPositional())
      continue;
    llvm::WithColor::error(llvm::errs(), tool)
        << "option '" << (entry.first.size() == 1 ? "-" : "--") << entry.first
        << "' given " << option->getNumOccurrences()
        << " times (it takes one value)\n";
    std::exit(1);
  }
}

/// Ends the tool with "<tool>: error: out of memory" and exit code 1 when an
/// allocation fails, instead of LLVM's "LLVM ERROR: out of memory", a stack
/// dump and an abort. `tool` must outlive the process (a string literal).
inline void installOutOfMemoryHandler(const char *tool) {
  llvm::install_bad_alloc_error_handler(
      [](void *userData, const char *, bool) {
        // Nothing may allocate here: write(2) the fixed parts.
        const char *name = static_cast<const char *>(userData);
        auto put = [](const char *text) {
          (void)!::write(2, text, std::strlen(text));
        };
        put(name);
        put(": error: out of memory (an allocation failed)\n");
        ::_exit(1);
      },
      const_cast<char *>(tool));
}

/// "<path>: not a regular file" when `path` names a device, a FIFO or a
/// directory: a file read whole must end (/dev/zero does not). Paths that do
/// not exist pass: opening them reports the error.
inline std::optional<std::string> checkRegularFile(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  if (path == "-" || llvm::sys::fs::status(path, status) ||
      llvm::sys::fs::is_regular_file(status))
    return std::nullopt;
  return (path + ": not a regular file").str();
}

/// Flushes and keeps `file`; on a write error returns "<path>: cannot write:
/// <reason>" (and clears it: raw_fd_ostream aborts on an unchecked error).
inline std::optional<std::string> keepOutputFile(llvm::ToolOutputFile &file,
                                                 llvm::StringRef path) {
  file.keep();
  file.os().flush();
  if (!file.os().has_error())
    return std::nullopt;
  std::string message =
      (path + ": cannot write: " + file.os().error().message()).str();
  file.os().clear_error();
  return message;
}

/// --progress of the tools whose phases run for long on large programs
/// (dist-sim parsing a GPT-3 step, dist-opt's passes): a line on stderr as
/// each phase starts; silent when disabled, so logs stay clean. Lines, not
/// a line redrawn in place: an error printed meanwhile stays readable.
/// (dist-search counts its jobs with search::ProgressBar instead.)
class PhaseProgress {
public:
  PhaseProgress(std::string tool, bool enabled)
      : tool(std::move(tool)), enabled(enabled),
        begin(std::chrono::steady_clock::now()) {}

  /// "dist-sim: lowering (at 30.1 s)": the seconds since the tool started.
  void start(const std::string &phase) {
    if (!enabled)
      return;
    std::fprintf(
        stderr, "%s: %s (at %.1f s)\n", tool.c_str(), phase.c_str(),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
            .count());
    std::fflush(stderr);
  }

private:
  std::string tool;
  bool enabled;
  std::chrono::steady_clock::time_point begin;
};

/// Whether a --progress option (cl::boolOrDefault) is on: given, or on a
/// terminal when not given.
inline bool isProgressOn(llvm::cl::boolOrDefault option) {
  if (option == llvm::cl::BOU_UNSET)
    return isatty(STDERR_FILENO) != 0;
  return option == llvm::cl::BOU_TRUE;
}

} // namespace distir

#endif // DISTIR_SUPPORT_COMMANDLINE_H
