// device_print and device_assert (test/kernels/debug.blk) on any Launch. What
// `printing` prints is captured from the process's standard output (file
// descriptor 1: the interpreter writes there, and so does the CUDA driver when
// a synchronization flushes the kernel's printf buffer) and compared with the
// lines computed here from the inputs, in the format of
// lib/Conversion/BlkToLLVM/DebugOpToLLVM.cpp and the interpreter:
// `pid (x, y, z) [idx (i, ...) ]<prefix><value>`, floats as "%f", integers
// sign-extended (booleans 0 or 1).
#ifndef BLK_TEST_COMMON_DEBUGCASES_H
#define BLK_TEST_COMMON_DEBUGCASES_H

#include "RowCases.h"

#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <optional>
#include <set>

namespace blk::ref {

/// What one launch of `printing` printed, and the lines it should print, each once.
struct PrintRun {
  std::string error; // the launch's message, empty on success
  std::string printed;
  std::vector<std::string> expected;
};

// The 2-D grid and the scalars `printing` runs with.
inline constexpr unsigned kPrintGridX = 2, kPrintGridY = 2;
inline constexpr int64_t kPrintBig = 5000000000; // needs 64 bits: printed with %lld
inline constexpr double kPrintScale = 0.75;
inline const char *const kPrintPrefixes[] = {"ids = ", "big = ", "scale = ", "done", "x = ",
                                             "h = ",   "c = ",   "neg = ",   "m = ", "uc = ", "um = ", "ubig = "};

inline std::string printfText(const char *format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

inline PrintRun devicePrintRun(const Launch &L) {
  const unsigned programs = kPrintGridX * kPrintGridY;
  Buffer x(DType::F32, programs * 128), h(DType::F16, programs * 16), c(DType::I8, programs * 8),
      m(DType::I32, programs * 32);
  for (size_t i = 0; i < x.size(); ++i)
    x.set(i, double(i) * 0.25 - 50); // exact in f32: "%f" prints them alike everywhere
  for (size_t i = 0; i < h.size(); ++i)
    h.set(i, (double(i) - 32) * 0.5); // exact in f16
  for (size_t i = 0; i < c.size(); ++i)
    c.set(i, double(int(i * 37 % 256) - 128));
  for (size_t i = 0; i < m.size(); ++i)
    m.set(i, double(int64_t(i) * 1000003 % 20011 - 10000));

  PrintRun run;
  testing::internal::CaptureStdout(); // flushes stdio first, so only the launch's lines land here
  run.error = L("debug", {}, "printing", LaunchGrid(kPrintGridX, kPrintGridY),
                {KArg::buf_(x), KArg::buf_(h), KArg::buf_(c), KArg::buf_(m), KArg::int_(kPrintBig),
                 KArg::real(kPrintScale)});
  run.printed = testing::internal::GetCapturedStdout();

  for (unsigned py = 0; py < kPrintGridY; ++py)
    for (unsigned px = 0; px < kPrintGridX; ++px) {
      const unsigned p = py * kPrintGridX + px;
      const std::string head = "pid (" + std::to_string(px) + ", " + std::to_string(py) + ", 0) ";
      auto line = [&](const std::string &idx, const std::string &rest) {
        run.expected.push_back(head + (idx.empty() ? "" : "idx (" + idx + ") ") + rest);
      };
      line("", "ids = " + std::to_string(px));
      line("", "ids = " + std::to_string(py));
      line("", "big = " + std::to_string(kPrintBig + p));
      line("", "scale = " + printfText("%f", double(float(kPrintScale) * float(p))));
      line("", "done");
      for (unsigned i = 0; i < 128; ++i)
        line(std::to_string(i), "x = " + printfText("%f", x.get(p * 128 + i)));
      for (unsigned i = 0; i < 16; ++i)
        line(std::to_string(i), "h = " + printfText("%f", h.get(p * 16 + i)));
      for (unsigned i = 0; i < 8; ++i) {
        int v = int(c.get(p * 8 + i));
        line(std::to_string(i), "c = " + std::to_string(v));
        line(std::to_string(i), "neg = " + std::to_string(v < 0 ? 1 : 0));
      }
      for (unsigned r = 0; r < 4; ++r)
        for (unsigned col = 0; col < 8; ++col)
          line(std::to_string(r) + ", " + std::to_string(col),
               "m = " + std::to_string(int64_t(m.get(p * 32 + r * 8 + col))));
      for (unsigned i = 0; i < 8; ++i)
        line(std::to_string(i), "uc = " + std::to_string(uint8_t(int8_t(c.get(p * 8 + i)))));
      for (unsigned r = 0; r < 4; ++r)
        for (unsigned col = 0; col < 8; ++col)
          line(std::to_string(r) + ", " + std::to_string(col),
               "um = " + std::to_string(uint32_t(int32_t(m.get(p * 32 + r * 8 + col)))));
      line("", "ubig = " + std::to_string(uint64_t(kPrintBig + p) * 4000000000u));
    }
  return run;
}

inline std::vector<std::string> printedLines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

/// At most `limit` lines of `lines`, for a failure's message.
inline std::string someLines(const std::vector<std::string> &lines, size_t limit = 8) {
  std::string s;
  for (size_t i = 0; i < lines.size() && i < limit; ++i)
    s += "\n  " + lines[i];
  if (lines.size() > limit)
    s += "\n  ... (" + std::to_string(lines.size() - limit) + " more)";
  return s;
}

/// The interpreter prints every value once: the printed lines are the
/// expected ones, in any order of programs.
inline std::vector<Check> printedOnce(const PrintRun &run) {
  if (!run.error.empty())
    return {{"printing: " + run.error, INFINITY, 0}};
  std::vector<std::string> got = printedLines(run.printed), want = run.expected;
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  std::vector<std::string> missing, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
  return {exact("device_print: " + std::to_string(got.size()) + " lines, expected " + std::to_string(want.size()) +
                    "; missing:" + someLines(missing) + "\nunexpected:" + someLines(extra),
                got == want)};
}

/// The prefix of `printing` that `line` prints after its program and index,
/// with the program: the print (and the program) a line comes from.
inline std::string printGroup(const std::string &line) {
  size_t at = line.find(") ");
  if (line.rfind("pid (", 0) != 0 || at == std::string::npos)
    return "";
  std::string head = line.substr(0, at + 2), rest = line.substr(at + 2);
  if (rest.rfind("idx (", 0) == 0) {
    size_t idxEnd = rest.find(") ");
    if (idxEnd == std::string::npos)
      return "";
    rest = rest.substr(idxEnd + 2);
  }
  for (const char *prefix : kPrintPrefixes)
    if (rest.rfind(prefix, 0) == 0)
      return head + prefix;
  return "";
}

/// The GPU prints a value from every thread that holds it: a scalar from
/// each thread, a block element from each thread of its copies. So the
/// distinct lines are the expected ones, and within one print of one
/// program every line comes the same number of times (a layout holds each
/// element of a block equally often).
inline std::vector<Check> printedByEveryHolder(const PrintRun &run) {
  if (!run.error.empty())
    return {{"printing: " + run.error, INFINITY, 0}};
  std::map<std::string, size_t> count;
  for (const std::string &l : printedLines(run.printed))
    ++count[l];
  std::vector<std::string> missing, extra, uneven;
  for (const std::string &l : run.expected)
    if (!count.count(l))
      missing.push_back(l);
  std::set<std::string> expected(run.expected.begin(), run.expected.end());
  std::map<std::string, std::pair<size_t, std::string>> copies; // group -> (count, first line)
  for (const auto &[l, n] : count) {
    if (!expected.count(l)) {
      extra.push_back(l + " (" + std::to_string(n) + " times)");
      continue;
    }
    auto [it, fresh] = copies.try_emplace(printGroup(l), n, l);
    if (!fresh && it->second.first != n)
      uneven.push_back(l + ": " + std::to_string(n) + " times, " + it->second.second + ": " +
                       std::to_string(it->second.first));
  }
  return {exact("device_print: every expected line printed; missing (" + std::to_string(missing.size()) +
                    "):" + someLines(missing),
                missing.empty()),
          exact("device_print: no other line; unexpected (" + std::to_string(extra.size()) + "):" + someLines(extra),
                extra.empty()),
          exact("device_print: each line of one print and program equally often:" + someLines(uneven),
                uneven.empty())};
}

/// `asserting` over 3 programs of 128 elements: X[i] = i, limit 384, so the
/// assert holds everywhere; with `failAt`, X[failAt] = 999 and it fails
/// there. Returns the launch's message, and checks Out = 2 X where it holds.
struct AssertRun {
  std::string error;
  std::vector<Check> checks;
};

inline AssertRun deviceAssertRun(const Launch &L, std::optional<size_t> failAt = std::nullopt) {
  const size_t n = 3 * 128;
  Buffer x(DType::I32, n), out(DType::I32, n);
  for (size_t i = 0; i < n; ++i)
    x.set(i, double(i));
  if (failAt)
    x.set(*failAt, 999);
  out.poison();
  AssertRun run;
  run.error = L("debug", {}, "asserting", 3, {KArg::buf_(x), KArg::buf_(out), KArg::int_(int64_t(n))});
  if (run.error.empty()) {
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
      wrong += out.get(i) != 2.0 * double(i);
    run.checks.push_back(exact("asserting: Out = 2 X (" + std::to_string(wrong) + " wrong)", wrong == 0));
  }
  return run;
}

} // namespace blk::ref

#endif
