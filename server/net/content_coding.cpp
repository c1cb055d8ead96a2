#include "server/net/content_coding.hpp"

#include <brotli/encode.h>
#include <zlib.h>

#include <cctype>
#include <cstdlib>
#include <stdexcept>

namespace tanbo_server::server::content_coding {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool equal_ci(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  return true;
}

}  // namespace

std::string_view name(Coding coding) {
  switch (coding) {
    case Coding::gzip:
      return "gzip";
    case Coding::br:
      return "br";
    case Coding::identity:
      break;
  }
  return "";
}

std::string gzip(std::string_view data) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate did not finish");
  return out;
}

std::string brotli(std::string_view data) {
  std::size_t size = BrotliEncoderMaxCompressedSize(data.size());
  if (size == 0) throw std::runtime_error("brotli: input too large");
  std::string out(size, '\0');
  if (!BrotliEncoderCompress(BROTLI_MAX_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT,
                             data.size(), reinterpret_cast<const std::uint8_t*>(data.data()), &size,
                             reinterpret_cast<std::uint8_t*>(out.data())))
    throw std::runtime_error("brotli compression failed");
  out.resize(size);
  return out;
}

Accepted accepted(std::string_view header) {
  // -1: not named; otherwise whether its q-value is above zero.
  int gz = -1, br = -1, any = -1;
  while (!header.empty()) {
    auto comma = header.find(',');
    std::string_view item = header.substr(0, comma);
    header.remove_prefix(comma == std::string_view::npos ? header.size() : comma + 1);
    auto semi = item.find(';');
    std::string_view coding = trim(item.substr(0, semi));
    bool ok = true;
    if (semi != std::string_view::npos) {
      std::string_view params = item.substr(semi + 1);
      auto q = params.find("q=");
      if (q == std::string_view::npos) q = params.find("Q=");
      if (q != std::string_view::npos)
        ok = std::strtod(std::string(params.substr(q + 2)).c_str(), nullptr) > 0;
    }
    if (equal_ci(coding, "gzip") || equal_ci(coding, "x-gzip"))
      gz = ok;
    else if (equal_ci(coding, "br"))
      br = ok;
    else if (coding == "*")
      any = ok;
  }
  return {gz == -1 ? any == 1 : gz == 1, br == -1 ? any == 1 : br == 1};
}

}  // namespace tanbo_server::server::content_coding
