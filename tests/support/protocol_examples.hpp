#pragma once
// docs/protocol.md's examples as the tests read them, and the arithmetic its clocks obey.
//
// ```json client NAME [repeat N]   sent on connection NAME (default: ana), N times
// ```text client NAME              the block sent as it stands (not JSON: the bad_json example)
// ```json server NAME              a message connection NAME (default: the last sender) got
// ```json server NAME earlier      one it got before those the examples above show it, shown
//                                  later for its section (the text beside it says when it came)
// ```http admin                    an operator's call, "METHOD /path", with the operator's token
// ```http NAME                     an HTTP call of connection NAME's player: "METHOD /path",
//                                  then header lines (a token in them the real one), then a
//                                  blank line and the body, if any
// ```json answer NAME              the JSON body of NAME's last HTTP answer (status 200)
// ```text mail                     the next mail the server gave its --mail-command (the stand-in
//                                  tests/server/support/mailbox.sh delivers it to a file): its To
//                                  and Subject, and its text, the link's token in it learned
// ```json                          an illustration, played by nobody
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace tanbo_server::test {

struct Example {
  bool client = false;
  bool server = false;
  bool raw = false;     // a text block, sent verbatim
  bool admin = false;   // an operator's HTTP call
  bool http = false;    // a player's HTTP call
  bool answer = false;  // the answer to the last call
  bool mail = false;    // the next mail sent
  bool illustration = false;
  bool earlier = false;    // a server example that came before those shown above it
  std::string connection;  // for client and server examples: always named once read
  int repeat = 1;
  std::string text;
  int line = 0;
};

namespace detail {

// The example a fence line opens, if any.
inline std::optional<Example> opened(const std::string& line, int n) {
  std::istringstream words(line);
  std::string fence, direction;
  words >> fence >> direction;
  Example e;
  e.line = n;
  if (fence == "```json" && direction.empty() && line == "```json") {
    e.illustration = true;
    return e;
  }
  if (fence == "```http" && !direction.empty()) {  // a bare one only illustrates
    e.admin = direction == "admin";
    e.http = !e.admin;
    e.connection = direction;
    return e;
  }
  if (fence == "```json" && direction == "answer") {
    e.answer = true;
    words >> e.connection;
    return e;
  }
  if (fence == "```text" && direction == "mail") {
    e.mail = true;
    return e;
  }
  if ((fence != "```json" && fence != "```text") ||
      (direction != "client" && direction != "server"))
    return std::nullopt;
  e.client = direction == "client";
  e.server = !e.client;
  e.raw = fence == "```text";
  for (std::string word; words >> word;) {
    if (word == "repeat")
      words >> e.repeat;
    else if (word == "earlier")
      e.earlier = true;
    else
      e.connection = word;
  }
  return e;
}

}  // namespace detail

// The examples in the order of the page; a client example without a name is ana's, a server
// one without a name went to the connection that sent last.
inline std::vector<Example> protocol_examples(const std::string& path) {
  std::ifstream in(path);
  std::vector<Example> out;
  std::optional<Example> open;
  std::string last = "ana";
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!open) {
      open = detail::opened(line, n);
    } else if (line == "```") {
      if (open->client || open->server) {
        if (open->connection.empty()) open->connection = open->client ? "ana" : last;
        if (open->client) last = open->connection;
      }
      out.push_back(*open);
      open.reset();
    } else {
      open->text += line + "\n";
    }
  }
  return out;
}

// "" when a clock's figures agree with one another (docs/protocol.md, "state"): a running seat's
// deadline is `at` + `left`, and on a game clock `left` is that seat's `remaining`; a stopped
// clock has neither a deadline nor `left`.
inline std::string clock_figures_error(const nlohmann::json& clock) {
  const bool running = !clock.at("seat").is_null();
  if (!running)
    return clock.contains("deadline") || clock.contains("left") ? "a stopped clock shows a deadline"
                                                                : "";
  const auto at = clock.at("at").get<std::int64_t>();
  const auto deadline = clock.at("deadline").get<std::int64_t>();
  const auto left = clock.at("left").get<std::int64_t>();
  if (deadline != at + left)
    return "deadline " + std::to_string(deadline) +
           " is not at + left = " + std::to_string(at + left);
  if (clock.at("control") != "clock") return "";
  const auto mine = clock.at("remaining").at(clock.at("seat").get<std::size_t>());
  if (mine.get<std::int64_t>() != left)
    return "left " + std::to_string(left) + " is not the running seat's remaining " + mine.dump();
  return "";
}

// What a game clock credited each seat between two states of one room: its `remaining` after,
// less before, plus the time between the two states for the seat whose time ran before. From
// one step to the next that is the increment for the seat that decided and 0 for every other
// (0 too for a seat that resigned or ran out of time); over several steps, their sum is the
// increment times the decisions made, since one seat's time runs at a time.
inline std::vector<std::int64_t> clock_credited(const nlohmann::json& before,
                                                const nlohmann::json& after) {
  const auto& b = before.at("remaining");
  const auto& a = after.at("remaining");
  std::vector<std::int64_t> out;
  for (std::size_t s = 0; s < a.size() && s < b.size(); ++s)
    out.push_back(a[s].get<std::int64_t>() - b[s].get<std::int64_t>());
  const auto& ran = before.at("seat");
  if (!ran.is_null() && ran.get<std::size_t>() < out.size())
    out[ran.get<std::size_t>()] +=
        after.at("at").get<std::int64_t>() - before.at("at").get<std::int64_t>();
  return out;
}

}  // namespace tanbo_server::test
