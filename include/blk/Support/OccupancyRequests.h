// Requests for several programs per SM in PTX (`.minnctapersm k`, k >= 2,
// from blk-programs-per-sm), found and dropped where ptxas or the driver
// had to spill to honour them. Shared by the runtime (no LLVM) and blkc's
// ptxas step.
#ifndef BLK_SUPPORT_OCCUPANCYREQUESTS_H
#define BLK_SUPPORT_OCCUPANCYREQUESTS_H

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

namespace blk {

/// An entry of a PTX module that asks for `programs` >= 2 programs per SM,
/// and the bytes [begin, end) of that directive's line.
struct OccupancyRequest {
  std::string entry;
  int programs = 0;
  size_t begin = 0, end = 0;
};

/// The requests of `ptx`'s entries: a `.minnctapersm` line between an
/// `.entry NAME(` and the `{` that opens its body.
inline std::vector<OccupancyRequest> occupancyRequests(const std::string &ptx) {
  std::vector<OccupancyRequest> found;
  static const std::string entryKey = ".entry ", requestKey = ".minnctapersm ";
  for (size_t at = ptx.find(entryKey); at != std::string::npos; at = ptx.find(entryKey, at + 1)) {
    size_t nameBegin = at + entryKey.size();
    size_t nameEnd = ptx.find_first_of("( \t\n", nameBegin);
    size_t params = ptx.find(')', nameBegin);
    size_t body = params == std::string::npos ? std::string::npos : ptx.find('{', params);
    if (nameEnd == std::string::npos || body == std::string::npos)
      break;
    size_t request = ptx.find(requestKey, params);
    if (request == std::string::npos || request > body || (request > 0 && ptx[request - 1] != '\n'))
      continue;
    int programs = std::atoi(ptx.c_str() + request + requestKey.size());
    if (programs < 2)
      continue;
    size_t lineEnd = ptx.find('\n', request);
    found.push_back({ptx.substr(nameBegin, nameEnd - nameBegin), programs, request,
                     lineEnd == std::string::npos ? ptx.size() : lineEnd + 1});
  }
  return found;
}

/// `ptx` without the directive lines of `dropped` (requests of `ptx`).
inline std::string withoutRequests(const std::string &ptx, const std::vector<OccupancyRequest> &dropped) {
  std::string out;
  size_t from = 0;
  for (const OccupancyRequest &r : dropped) { // in the order occupancyRequests found them
    out.append(ptx, from, r.begin - from);
    from = r.end;
  }
  out.append(ptx, from, std::string::npos);
  return out;
}

} // namespace blk

#endif
