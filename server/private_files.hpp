#pragma once
// What only the server's own user should read or write (docs/operations.md, "Data directory and
// backups", "Moderation"): the data directory, the database, the admin token file. Each check
// answers in words an operator can act on, the chmod to run included.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tanbo_server::server {

struct FileCheck {
  std::optional<std::string> refusal;  // the server must not start
  std::vector<std::string> warnings;   // it starts, and says so once
};

// --admin-token-file: refused when it is not a regular file or its group or others may write it
// (anyone who can write it can become an operator); a warning when they may read it.
FileCheck check_admin_token_file(const std::filesystem::path& path);

// The data directory: created (with its parents) when missing, itself 0700 whatever the umask;
// an existing one is left as it is, with a warning when its group or others may read or enter
// it. A refusal when it cannot be created.
FileCheck make_data_dir(const std::filesystem::path& dir);

// The database's file once the store has opened it: a warning when its group or others may read
// it (it holds password hashes, token hashes, chat and reports). SQLite gives its -wal and -shm
// files the database file's mode, and the store creates a new database 0600.
FileCheck check_database_file(const std::filesystem::path& db);

}  // namespace tanbo_server::server
