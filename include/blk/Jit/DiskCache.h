// A content-addressed on-disk cache of compiled kernels. Entries carry a
// checksum: a truncated or corrupt entry reads as a miss and is rebuilt.
// Writes go to a temporary file renamed into place, so processes compiling
// the same kernel at once leave one valid entry.
#ifndef BLK_JIT_DISKCACHE_H
#define BLK_JIT_DISKCACHE_H

#include <optional>
#include <string>
#include <vector>

namespace blk {

class DiskCache {
public:
  /// BLK_CACHE_DIR, else $XDG_CACHE_HOME/blk, else $HOME/.cache/blk.
  /// BLK_CACHE_DIR=off (or an empty value) disables the cache: "" is returned.
  static std::string defaultDirectory();
  /// The key of a set of inputs (hex SHA-256 of the parts, each length-prefixed).
  static std::string key(const std::vector<std::string> &parts);

  /// An empty directory disables the cache.
  explicit DiskCache(std::string directory) : dir(std::move(directory)) {}
  bool enabled() const { return !dir.empty(); }
  const std::string &directory() const { return dir; }

  /// The payload stored under `key`, if present and intact.
  std::optional<std::string> lookup(const std::string &key) const;
  /// Stores `payload` under `key` atomically; false (with `error`) on failure.
  bool store(const std::string &key, const std::string &payload, std::string *error = nullptr) const;
  std::string pathOf(const std::string &key) const;

private:
  std::string dir;
};

} // namespace blk

#endif
