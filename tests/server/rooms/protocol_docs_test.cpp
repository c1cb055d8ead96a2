// docs/protocol.md is real: its examples are played in order against a running server (their
// fences: tests/support/protocol_examples.hpp).
//
// A server example must match a message the server sent that connection: the same members,
// the same values, arrays of the same length, except where the value cannot be known before
// (room ids, identity ids, tokens, seeds, commitments, clock times, the server's version), which
// must only have the same JSON type; `games` and `rooms` lists may show some of their entries.
// A room id, identity id or token met there is learned, and the client examples that follow
// use the real one. An example with `re` is checked against the reply to the request with that
// id; one without, against the pushes that connection got. What one connection got comes in
// the order the page shows it (a state before the ok of the request that caused it), and a
// game clock credits each seat what the page's clock does, given the page's timing.
#include <catch2/catch.hpp>

#include <deque>
#include <fstream>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "tests/server/recovery/server_process.hpp"
#include "tests/support/protocol_examples.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

// Values a reader cannot know before the server sends them.
const std::set<std::string> kUnknowable = {
    "room",         "token", "commit",    "seed",          "server",  "deadline",  "left",
    "id",           "node",  "challenge", "seek",          "at",      "remaining", "created_at",
    "last_used_at", "agent", "ended",     "recovery_code", "revoked", "retry_ms"};
// Of those, the ones that name something: the same example value is the same real value.
const std::set<std::string> kNames = {"room",  "token",         "id",     "seek", "challenge",
                                      "ended", "recovery_code", "revoked"};
// Drawn by the server: the seat a pairing gives (R6).
const std::map<std::string, std::set<std::string>> kDrawn = {{"paired", {"seat"}}};
// Lists an example may show in part, each entry matching one of the real ones.
const std::set<std::string> kPartial = {"games", "rooms"};

using Learned = std::map<std::string, std::string>;

bool matches(const json& doc, const json& real, const std::string& key, Learned& learned,
             std::string& why, const std::string& where);

bool matches_unknowable(const json& doc, const json& real, const std::string& key, Learned& learned,
                        std::string& why, const std::string& where) {
  if (doc.type() != real.type()) return why = where + ": not the same type", false;
  if (!doc.is_string() || !kNames.contains(key)) return true;
  auto [it, fresh] = learned.try_emplace(doc.get<std::string>(), real.get<std::string>());
  if (!fresh && it->second != real.get<std::string>())
    return why = where + ": " + doc.dump() + " stood for " + it->second + " before", false;
  return true;
}

bool matches(const json& doc, const json& real, const std::string& key, Learned& learned,
             std::string& why, const std::string& where) {
  if (kUnknowable.contains(key)) return matches_unknowable(doc, real, key, learned, why, where);
  if (where.empty() && doc.is_object() && doc.contains("type"))
    if (auto drawn = kDrawn.find(doc.at("type").get<std::string>()); drawn != kDrawn.end()) {
      json d = doc, r = real;
      for (const auto& k : drawn->second)
        if (d.contains(k) && r.contains(k) && d[k].type() == r[k].type()) d.erase(k), r.erase(k);
      if (d.size() != doc.size()) return matches(d, r, "", learned, why, "/");
    }
  if (doc.is_object()) {
    if (!real.is_object()) return why = where + ": not an object", false;
    for (const auto& [k, v] : real.items())
      if (!doc.contains(k)) return why = where + "/" + k + ": missing from the example", false;
    for (const auto& [k, v] : doc.items()) {
      if (!real.contains(k)) return why = where + "/" + k + ": not sent", false;
      if (!matches(v, real.at(k), k, learned, why, where + "/" + k)) return false;
    }
    return true;
  }
  if (doc.is_array()) {
    if (!real.is_array()) return why = where + ": not an array", false;
    if (kPartial.contains(key)) {  // each shown entry is one of the real ones, in any order
      std::set<std::size_t> used;
      for (std::size_t i = 0; i < doc.size(); ++i) {
        bool found = false;
        for (std::size_t j = 0; j < real.size() && !found; ++j) {
          Learned trial = learned;
          std::string ignored;
          if (!used.contains(j) && matches(doc[i], real[j], "", trial, ignored, where)) {
            used.insert(j);
            learned = std::move(trial);
            found = true;
          }
        }
        if (!found) return why = where + "/" + std::to_string(i) + ": no such entry", false;
      }
      return true;
    }
    if (doc.size() != real.size())
      return why = where + ": " + std::to_string(doc.size()) + " entries, the server sent " +
                   std::to_string(real.size()),
             false;
    for (std::size_t i = 0; i < doc.size(); ++i)
      if (!matches(doc[i], real[i], "", learned, why, where + "/" + std::to_string(i)))
        return false;
    return true;
  }
  if (doc != real)
    return why = where + ": " + doc.dump() + ", the server sent " + real.dump(), false;
  return true;
}

// Example values the server has named replaced by the real ones, in a client example.
json substituted(json j, const Learned& learned) {
  if (j.is_string()) {
    auto it = learned.find(j.get<std::string>());
    if (it != learned.end()) return it->second;
    return j;
  }
  if (j.is_structured())
    for (auto& v : j) v = substituted(v, learned);
  return j;
}

struct Peer {
  std::unique_ptr<ProtocolClient> client;
  std::deque<std::pair<long, json>> unread;  // each numbered in the order it came
  long received = 0;
  long last_shown = -1;  // the number of the message the last example of this connection showed
  HttpReply answer;      // to its player's last HTTP call
};

// An example's "/path", the names in it the real ones.
std::string real_path(const std::string& path, const Learned& learned) {
  std::string target;
  for (std::size_t at = 0; at < path.size();) {
    const auto slash = path.find('/', at + 1);
    const std::string part = path.substr(at + 1, slash - at - 1);
    target += "/" + substituted(json(part), learned).get<std::string>();
    at = slash;
  }
  return target;
}

// A player's HTTP call as an example writes it, with the real names in its path and headers.
HttpReply call(std::uint16_t port, const std::string& text, const Learned& learned) {
  std::istringstream lines(text);
  std::string line, method, path, authorization, body;
  std::getline(lines, line);
  std::istringstream(line) >> method >> path;
  const std::string target = real_path(path, learned);
  while (std::getline(lines, line) && !line.empty())
    if (line.starts_with("Authorization: Bearer "))
      authorization = "Bearer " + substituted(json(line.substr(22)), learned).get<std::string>();
  for (std::string rest; std::getline(lines, rest);) body += rest;
  if (!body.empty()) body = substituted(json::parse(body), learned).dump();
  return http_request(port, method, target, authorization, body);
}

// The message a server example shows: the first that matches among what the connection got and
// no example showed yet, and came after the message the connection's example before showed.
// Matching one that came before that is the page showing the two out of the server's order,
// unless the example says it came earlier: then it must have.
std::optional<json> take_shown(Peer& conn, const json& doc, bool earlier_said, Learned& learned,
                               std::string& why) {
  const bool reply = doc.contains("re") && !doc.at("re").is_null();
  why = "nothing of type " + doc.at("type").dump() + " came";
  bool earlier = false;
  for (std::size_t i = 0;; ++i) {
    if (i == conn.unread.size()) {
      try {
        conn.unread.emplace_back(conn.received++, conn.client->next());  // 5 s at most
      } catch (const std::exception& x) {
        why += std::string("\n(") + x.what() + ")";
        break;
      }
    }
    const auto& [n, m] = conn.unread[i];
    if (m.at("type") != doc.at("type")) continue;
    if (reply && m.value("re", json()) != doc.at("re")) continue;
    Learned trial = learned;
    std::string mismatch;
    if (!matches(doc, m, "", trial, mismatch, "")) {
      why = mismatch + "\nin " + m.dump();
      continue;
    }
    if ((n < conn.last_shown) != earlier_said) {
      earlier = true;
      continue;
    }
    learned = std::move(trial);
    if (!earlier_said) conn.last_shown = n;
    json shown = m;
    conn.unread.erase(conn.unread.begin() + std::ptrdiff_t(i));
    return shown;
  }
  if (earlier)
    why = std::string(earlier_said ? "the server sent this after" : "the server sent this before") +
          " the message the connection's example above shows: the page shows them out of the "
          "order they come in\n" +
          why;
  return std::nullopt;
}

// The states of one room with a game clock the page showed last, and what the server sent then.
struct ClockPair {
  json doc, real;
};

// A game clock as the page shows it against the server's: each consistent in itself, the seats
// whose time does not run at the same figures, and from the room's state shown before to this
// one the same credit in all, the time between the two states counted on each side. (Seat by
// seat the server's may differ by the milliseconds between a step and its state's `at`: the
// next seat's clock runs from the step, and both count them, since one clock runs at a time.)
std::string clock_mismatch(const json& doc, const json& real, const ClockPair* before) {
  const json& d = doc.at("clock");
  const json& r = real.at("clock");
  for (const auto* c : {&d, &r})
    if (auto why = tanbo_server::test::clock_figures_error(*c); !why.empty()) return why;
  if (d.at("control") != "clock") return "";
  if (!before) {  // the first shown: only the running seat's time has moved since
    for (std::size_t s = 0; s < d.at("remaining").size(); ++s) {
      const bool running = d.at("seat") == json(s);
      const auto shown = d["remaining"][s].get<std::int64_t>();
      const auto sent = r.at("remaining").at(s).get<std::int64_t>();
      if (running ? sent > shown : sent != shown)
        return "seat " + std::to_string(s) + "'s remaining: the page shows " +
               std::to_string(shown) + ", the server sent " + std::to_string(sent);
    }
    return "";
  }
  const auto shown = tanbo_server::test::clock_credited(before->doc.at("clock"), d);
  const auto sent = tanbo_server::test::clock_credited(before->real.at("clock"), r);
  const auto total = [](const std::vector<std::int64_t>& v) {
    return std::accumulate(v.begin(), v.end(), std::int64_t(0));
  };
  bool same = shown.size() == sent.size() && total(shown) == total(sent);
  for (std::size_t s = 0; same && s < shown.size(); ++s)
    if (before->doc.at("clock").at("seat") != json(s) && d.at("seat") != json(s))
      same = shown[s] == sent[s];  // a seat whose time ran in neither
  if (!same)
    return "credited from version " + before->doc.at("version").dump() + ": the page's " +
           json(shown).dump() + ", the server's " + json(sent).dump();
  return "";
}

// A state's clock against the server's, and against the room's state shown before.
void check_clock(std::map<std::string, ClockPair>& shown_before, const json& doc,
                 const json& real) {
  const std::string room = doc.at("room");
  const auto before = shown_before.find(room);
  const std::string mismatch =
      clock_mismatch(doc, real, before == shown_before.end() ? nullptr : &before->second);
  INFO("the clock the server sent: " << real.at("clock").dump() << "\n" << mismatch);
  CHECK(mismatch.empty());
  shown_before[room] = {doc, real};
}

// What a connection holds that no example showed, and what the server said meanwhile.
std::string what_came_instead(const Peer& conn, ServerProcess& fx) {
  std::string out;
  for (const auto& m : conn.unread) out += "\nunread: " + m.second.dump().substr(0, 300);
  fx.process().wait_for_line("\x01", std::chrono::milliseconds(200));  // reads what came
  const std::string& log = fx.log();
  return out + "\nserver log, last lines:\n" +
         log.substr(log.size() - std::min<std::size_t>(log.size(), 3000));
}

// A mail as an example shows it: its To and Subject are the real mail's, its text (past the
// headers) is the real one once the token of its link stands for the real token, learned.
bool mail_matches(const std::string& doc, const std::string& real, Learned& learned,
                  std::string& why) {
  auto split = [](const std::string& mail) {
    const auto blank = mail.find("\n\n");
    return std::pair(mail.substr(0, blank + 1), mail.substr(blank + 2));
  };
  auto [doc_head, doc_text] = split(doc);
  auto [real_head, real_text] = split(real);
  std::istringstream lines(doc_head);
  for (std::string line; std::getline(lines, line);)
    if ((line.starts_with("To: ") || line.starts_with("Subject: ")) &&
        real_head.find("\n" + line + "\n") == std::string::npos)
      return why = "not in the real mail's headers: " + line, false;
  const std::regex link("/#/[a-z-]+/([0-9a-zA-Z]+)");
  std::smatch d, r;
  if (std::regex_search(doc_text, d, link) && std::regex_search(real_text, r, link)) {
    learned[d[1]] = r[1];
    doc_text.replace(std::size_t(d.position(1)), std::size_t(d.length(1)), r[1].str());
  }
  if (doc_text != real_text) return why = "the real mail's text:\n" + real_text, false;
  return true;
}

// The next mail, once the stand-in delivered it.
std::string next_mail(const std::filesystem::path& box, int& read) {
  const auto file = box / (std::to_string(read + 1) + ".eml");
  for (int i = 0; i < 400 && !std::filesystem::exists(file); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  if (!std::filesystem::exists(file)) return {};
  ++read;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The next mail the server sent, against the example that shows it.
void check_mail(const std::string& doc, const std::string& real, Learned& learned) {
  INFO("the mail: " << real);
  REQUIRE_FALSE(real.empty());
  std::string why;
  const bool same = mail_matches(doc, real, learned, why);
  INFO(why);
  REQUIRE(same);
}

}  // namespace

TEST_CASE("every example in docs/protocol.md is what a running server sends, in order",
          "[server][rooms][protocol][docs]") {
  DataDir files;
  std::filesystem::create_directories(files.path);
  const std::string operator_token = "docs-operator-token-0123456789";
  std::ofstream(files.path / "admin-token") << operator_token;
  std::filesystem::permissions(files.path / "admin-token", std::filesystem::perms(0600));
  // The server as it ships, over its own store; the rate limits at their defaults (the
  // rate_limited example meets them).
  // Mail goes to the mailbox stand-in, the way operations.md's msmtp would take it.
  const auto box = files.path / "mailbox";
  std::filesystem::create_directories(box);
  ServerProcess fx(
      files,
      {"--rate-burst", "20", "--rate", "10", "--rate-strikes", "50", "--admin-token-file",
       (files.path / "admin-token").string(), "--mail-command",
       std::string(TANBO_SOURCE_DIR) + "/tests/server/support/mailbox.sh " + box.string() +
           " -t -i",
       "--mail-from", "Tanbo <tanbo@example.org>", "--public-url", "https://play.example.org"});
  int mails_read = 0;
  std::map<std::string, Peer> connections;
  Learned learned;
  std::map<std::string, ClockPair> clocks;  // by the page's room id
  const auto all =
      tanbo_server::test::protocol_examples(std::string(TANBO_SOURCE_DIR) + "/docs/protocol.md");
  REQUIRE(all.size() > 30);
  int checked = 0;
  for (const auto& e : all) {
    if (e.illustration) continue;
    INFO("docs/protocol.md line " << e.line << ":\n" << e.text);
    const std::string& name = e.connection;
    if (e.admin) {  // "METHOD /path", the names in the path the real ones
      std::istringstream words(e.text);
      std::string method, path;
      words >> method >> path;
      const std::string target = real_path(path, learned);
      auto r = http_request(fx.port(), method, target, "Bearer " + operator_token);
      INFO(target << ": " << r.body);
      REQUIRE(r.status == 200);
      ++checked;
      continue;
    }
    if (e.mail) {
      check_mail(e.text, next_mail(box, mails_read), learned);
      ++checked;
      continue;
    }
    auto& conn = connections[name];
    if (e.http) {
      conn.answer = call(fx.port(), e.text, learned);
      continue;
    }
    if (e.answer) {
      INFO("the answer: " << conn.answer.status << " " << conn.answer.body);
      REQUIRE(conn.answer.status == 200);
      std::string mismatch;
      const bool same =
          matches(json::parse(e.text), json::parse(conn.answer.body), "", learned, mismatch, "");
      INFO(mismatch);
      REQUIRE(same);  // what follows builds on it
      ++checked;
      continue;
    }
    if (!conn.client) conn.client = std::make_unique<ProtocolClient>(fx.port());
    if (e.client) {
      std::string text = e.raw ? e.text : substituted(json::parse(e.text), learned).dump();
      for (int i = 0; i < e.repeat; ++i) conn.client->send_raw(text);
      continue;
    }
    const json doc = json::parse(e.text);
    std::string why;
    const auto shown = take_shown(conn, doc, e.earlier, learned, why);
    if (!shown) why += what_came_instead(conn, fx);
    INFO(why);
    REQUIRE(shown);  // what follows builds on it
    if (doc.at("type") == "state" && doc.contains("clock")) check_clock(clocks, doc, *shown);
    ++checked;
  }
  CHECK(checked > 20);
}
