#include "blk/Jit/DiskCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

namespace blk {

namespace {
// Version 2: the payload checksum is XXH3 (version 1 used SHA-256, which took
// most of a disk hit: about 100 us for a 20 KB entry). Entries of another
// version fail the magic check and are rebuilt.
constexpr llvm::StringLiteral kMagic = "BLKCACHE2\n";
constexpr size_t kChecksumDigits = 16;

std::string sha256Hex(llvm::StringRef data) {
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(data));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

/// Detects truncated and corrupted entries (not tampering: the cache
/// directory is the user's own).
std::string checksumHex(llvm::StringRef data) {
  return llvm::utohexstr(llvm::xxh3_64bits(llvm::arrayRefFromStringRef(data)), /*LowerCase=*/true,
                         /*Width=*/kChecksumDigits);
}
} // namespace

std::string DiskCache::defaultDirectory() {
  if (const char *dir = std::getenv("BLK_CACHE_DIR"))
    return (llvm::StringRef(dir).empty() || llvm::StringRef(dir) == "off") ? std::string() : std::string(dir);
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/blk";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/blk";
  return "";
}

std::string DiskCache::key(const std::vector<std::string> &parts) {
  std::string joined;
  for (const std::string &p : parts)
    joined += std::to_string(p.size()) + ":" + p + ";";
  return sha256Hex(joined);
}

std::string DiskCache::pathOf(const std::string &key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key.substr(0, 2), key + ".blkc");
  return std::string(path);
}

std::optional<std::string> DiskCache::lookup(const std::string &key) const {
  if (!enabled())
    return std::nullopt;
  auto buffer = llvm::MemoryBuffer::getFile(pathOf(key), /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  llvm::StringRef data = (*buffer)->getBuffer();
  // MAGIC, 16 hex digits of the payload's XXH3, newline, payload.
  if (!data.consume_front(kMagic) || data.size() < kChecksumDigits + 1 || data[kChecksumDigits] != '\n') {
    llvm::sys::fs::remove(pathOf(key));
    return std::nullopt;
  }
  llvm::StringRef checksum = data.take_front(kChecksumDigits), payload = data.drop_front(kChecksumDigits + 1);
  if (checksumHex(payload) != checksum) {
    llvm::sys::fs::remove(pathOf(key)); // corrupt or truncated: rebuilt by the caller
    return std::nullopt;
  }
  return payload.str();
}

bool DiskCache::store(const std::string &key, const std::string &payload, std::string *error) const {
  if (!enabled())
    return true;
  std::string path = pathOf(key);
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  if (std::error_code ec = llvm::sys::fs::create_directories(parent)) {
    if (error)
      *error = "cannot create " + parent.str() + ": " + ec.message();
    return false;
  }
  // A unique temporary file in the same directory, renamed over the entry:
  // readers see the old entry or the new one, never a partial write.
  llvm::SmallString<256> tmp;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd, tmp)) {
    if (error)
      *error = "cannot write the cache: " + ec.message();
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kMagic << checksumHex(payload) << '\n' << payload;
    os.flush();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      if (error)
        *error = "writing the cache entry failed";
      return false;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    if (error)
      *error = "cannot rename the cache entry: " + ec.message();
    return false;
  }
  return true;
}

} // namespace blk
