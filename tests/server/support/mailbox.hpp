#pragma once
// The mail tests' mailbox: the directory tests/server/support/mailbox.sh delivers to, a file per
// mail (N.eml), as the server's --mail-command; the server's flags that use it; the mails read
// back once delivered, and their headers and links.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/recovery/server_process.hpp"

namespace tanbo_server::server::test {

struct Mailbox {
  DataDir dir;
  Mailbox() { std::filesystem::create_directories(dir.path); }
  // --mail-command through the stand-in, --mail-from, --public-url https://play.example.org.
  std::vector<std::string> flags(std::vector<std::string> more = {}) const {
    std::vector<std::string> f{"--mail-command",
                               std::string(TANBO_SOURCE_DIR) + "/tests/server/support/mailbox.sh " +
                                   dir.path.string() + " -t -i",
                               "--mail-from",
                               "Tanbo <tanbo@example.org>",
                               "--public-url",
                               "https://play.example.org/"};
    f.insert(f.end(), more.begin(), more.end());
    return f;
  }
  std::filesystem::path file(int n) const { return dir.path / (std::to_string(n) + ".eml"); }
  // Mail number `n` once delivered: the server sends in the background, 10 s at most.
  std::string wait(int n) const {
    for (int i = 0; i < 400 && !std::filesystem::exists(file(n)); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    REQUIRE(std::filesystem::exists(file(n)));
    std::ifstream in(file(n));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  int count() const {
    int n = 0;
    while (std::filesystem::exists(file(n + 1))) ++n;
    return n;
  }
};

// The token of the link to `view` ("reset", "confirm-mail") in a mail.
inline std::string mail_link_token(const std::string& mail, const std::string& view) {
  std::smatch m;
  const std::regex link("https://play\\.example\\.org/#/" + view + "/([0-9a-f]{40})\n");
  REQUIRE(std::regex_search(mail, m, link));
  return m[1];
}

// The value of the header `name` in a mail.
inline std::string mail_header(const std::string& mail, const std::string& name) {
  std::istringstream lines(mail.substr(0, mail.find("\n\n")));
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(name + ": ")) return line.substr(name.size() + 2);
  return "";
}

}  // namespace tanbo_server::server::test
