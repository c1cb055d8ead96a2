#include "server/private_files.hpp"

#include <fmt/format.h>

namespace tanbo_server::server {

namespace fs = std::filesystem;

namespace {

constexpr auto kGroupOrOthersWrite = fs::perms::group_write | fs::perms::others_write;
constexpr auto kGroupOrOthersRead = fs::perms::group_read | fs::perms::others_read;
constexpr auto kGroupOrOthersAny = fs::perms::group_all | fs::perms::others_all;

bool any(fs::perms p, fs::perms mask) { return (p & mask) != fs::perms::none; }

std::string mode(fs::perms p) { return fmt::format("{:04o}", unsigned(p & fs::perms::mask)); }

}  // namespace

FileCheck check_admin_token_file(const fs::path& path) {
  FileCheck out;
  std::error_code ec;
  const auto st = fs::status(path, ec);  // a symbolic link is judged by what it points to
  if (ec || st.type() == fs::file_type::not_found) {
    out.refusal = fmt::format("--admin-token-file {}: cannot read it ({})", path.string(),
                              ec ? ec.message() : "no such file");
    return out;
  }
  if (st.type() != fs::file_type::regular) {
    out.refusal = fmt::format("--admin-token-file {}: not a regular file", path.string());
    return out;
  }
  if (any(st.permissions(), kGroupOrOthersWrite)) {
    out.refusal = fmt::format(
        "--admin-token-file {}: its group or others may write it (mode {}), and so choose the "
        "operators' token; run `chmod 600 {}` and start again",
        path.string(), mode(st.permissions()), path.string());
    return out;
  }
  if (any(st.permissions(), kGroupOrOthersRead))
    out.warnings.push_back(
        fmt::format("--admin-token-file {}: its group or others may read the operators' token "
                    "(mode {}); run `chmod 600 {}`",
                    path.string(), mode(st.permissions()), path.string()));
  return out;
}

FileCheck make_data_dir(const fs::path& dir) {
  FileCheck out;
  std::error_code ec;
  const bool existed = fs::exists(dir, ec);
  if (!existed) {
    fs::create_directories(dir, ec);
    // Whatever the umask: the directory holds the database and its write-ahead log.
    if (!ec) fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    if (ec) out.refusal = fmt::format("data dir {}: {}", dir.string(), ec.message());
    return out;
  }
  const auto st = fs::status(dir, ec);
  if (ec || st.type() != fs::file_type::directory) {
    out.refusal = fmt::format("data dir {}: {}", dir.string(),
                              ec ? ec.message() : std::string("not a directory"));
    return out;
  }
  if (any(st.permissions(), kGroupOrOthersAny))
    out.warnings.push_back(
        fmt::format("data dir {}: its group or others may read or enter it (mode {}); run "
                    "`chmod 700 {}`",
                    dir.string(), mode(st.permissions()), dir.string()));
  return out;
}

FileCheck check_database_file(const fs::path& db) {
  FileCheck out;
  std::error_code ec;
  const auto st = fs::status(db, ec);
  if (ec || st.type() != fs::file_type::regular) return out;
  if (any(st.permissions(), kGroupOrOthersRead | kGroupOrOthersWrite))
    out.warnings.push_back(fmt::format(
        "database {}: its group or others may read it (mode {}): password and token hashes, "
        "chat, reports; run `chmod 600 {}*` (the -wal and -shm files too)",
        db.string(), mode(st.permissions()), db.string()));
  return out;
}

}  // namespace tanbo_server::server
