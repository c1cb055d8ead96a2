// The chat's limits across connections (docs/protocol.md, "Chat"): one bucket per identity,
// whichever of its connections speaks, one per address for the identities there, the repeat rule
// per identity in a room, and a line the room refuses costs nothing.
#include <catch2/catch.hpp>
#include <chrono>

#include "protocol/limits.hpp"
#include "server/limits/keyed_buckets.hpp"
#include "server/rooms/chat_limits.hpp"
#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server;
using namespace tanbo_server::server::test;

namespace {

using Clock = std::chrono::steady_clock;

void say(ProtocolClient& c, const std::string& room, const std::string& channel,
         const std::string& text, int id) {
  c.send({{"type", "say"}, {"id", id}, {"room", room}, {"channel", channel}, {"text", text}});
}

// What the answers to `count` requests of `c` were: `ok`, or an error's code (with its message
// when it names an address); the `said` pushes and states between are skipped.
std::vector<std::string> answers(ProtocolClient& c, int count) {
  std::vector<std::string> out;
  while (int(out.size()) < count) {
    json m = c.next_but_states();
    if (m.at("type") == "said") continue;
    if (m.at("type") == "ok") {
      out.push_back("ok");
      continue;
    }
    REQUIRE(m.at("type") == "error");
    std::string code = m.at("code");
    if (m.at("message").get<std::string>().find("address") != std::string::npos)
      code += " (address)";
    out.push_back(code);
  }
  return out;
}

// A connection of `who` (a new guest when its token is empty) watching `room`; its token.
std::string spectate(ProtocolClient& c, const std::string& room, const std::string& name,
                     const std::string& token = "") {
  json w = c.hello(name, token);
  c.send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", "spectator"}});
  c.expect("joined");
  return w.at("token");
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

TEST_CASE("one identity on ten connections has one chat bucket between them",
          "[server][rooms][chat][limits]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "tsoro", 2, 0);
  std::vector<std::unique_ptr<ProtocolClient>> cid;
  std::string token;
  for (int i = 0; i < 10; ++i) {
    cid.push_back(std::make_unique<ProtocolClient>(fx.port()));
    token = spectate(*cid.back(), t.room, "Cid", token);
  }
  const auto start = Clock::now();
  for (int i = 0; i < 10; ++i)
    for (int k = 0; k < 5; ++k)
      say(*cid[std::size_t(i)], t.room, "spectators", "line " + std::to_string(i * 5 + k), k);
  int said = 0, limited = 0;
  for (auto& c : cid)
    for (const auto& a : answers(*c, 5)) {
      said += a == "ok";
      limited += a == "chat_rate_limited";
    }
  // The burst, and a line more per second the test took (the bucket refills meanwhile).
  const int allowed = tanbo_server::protocol::kChatBurst +
                      int(seconds_since(start) * tanbo_server::protocol::kChatPerSecond);
  INFO(said << " said, " << allowed << " allowed");
  CHECK(said <= allowed);
  CHECK(said >= tanbo_server::protocol::kChatBurst);
  CHECK(said + limited == 50);
}

TEST_CASE("the same line from another connection of the identity is chat_repeated",
          "[server][rooms][chat][limits]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "tsoro", 2, 0);
  ProtocolClient phone(fx.port());
  phone.hello("", t.tokens[0]);
  phone.send({{"type", "join"}, {"id", 1}, {"room", t.room}, {"as", "player"}});
  CHECK(phone.expect("joined").at("seat") == 0);
  say(t.at(0), t.room, "players", "gg", 2);
  CHECK(answers(t.at(0), 1) == std::vector<std::string>{"ok"});
  say(phone, t.room, "players", "gg", 3);
  CHECK(answers(phone, 1) == std::vector<std::string>{"chat_repeated"});
  SECTION("another identity may say it") {
    say(t.at(1), t.room, "players", "gg", 4);
    CHECK(answers(t.at(1), 1) == std::vector<std::string>{"ok"});
  }
}

TEST_CASE("a line the room refuses takes nothing from the chat's buckets",
          "[server][rooms][chat][limits]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "tsoro", 2, 0);
  auto& ana = t.at(0);
  say(ana, t.room, "players", "gg", 1);
  CHECK(answers(ana, 1) == std::vector<std::string>{"ok"});
  // One at a time: a refused line's tokens are back before its refusal is sent.
  for (int i = 0; i < 2 * tanbo_server::protocol::kChatBurst; ++i) {
    say(ana, t.room, "spectators", "wrong channel " + std::to_string(i), 10 + i);
    CHECK(answers(ana, 1) == std::vector<std::string>{"not_your_channel"});
    say(ana, t.room, "players", "gg", 30 + i);
    CHECK(answers(ana, 1) == std::vector<std::string>{"chat_repeated"});
  }
  // The one line said took one token: the rest of the burst is there.
  for (int i = 0; i < tanbo_server::protocol::kChatBurst - 1; ++i)
    say(ana, t.room, "players", "new line " + std::to_string(i), 50 + i);
  CHECK(answers(ana, tanbo_server::protocol::kChatBurst - 1) ==
        std::vector<std::string>(std::size_t(tanbo_server::protocol::kChatBurst - 1), "ok"));
}

TEST_CASE("the identities of one address share the address's chat bucket",
          "[server][rooms][chat][limits]") {
  Config c = rooms_config();
  c.trusted_proxies = {"127.0.0.1"};  // the test clients stand for a proxy on this machine
  c.guests_per_minute = 100;
  RoomsServer fx(c);
  Table t = Table::seat(fx.port(), "tsoro", 2, 0);
  // Twelve identities of one address, each within its own bucket (5 lines), 60 in all.
  std::vector<std::unique_ptr<ProtocolClient>> school;
  for (int i = 0; i < 12; ++i) {
    school.push_back(std::make_unique<ProtocolClient>(fx.port(), "203.0.113.7"));
    spectate(*school.back(), t.room, "Pupil " + std::to_string(i));
  }
  const auto start = Clock::now();
  for (std::size_t i = 0; i < school.size(); ++i)
    for (int k = 0; k < tanbo_server::protocol::kChatBurst; ++k)
      say(*school[i], t.room, "spectators",
          "pupil " + std::to_string(i) + " line " + std::to_string(k), k);
  int said = 0, address_limited = 0, identity_limited = 0;
  for (auto& p : school)
    for (const auto& a : answers(*p, tanbo_server::protocol::kChatBurst)) {
      said += a == "ok";
      address_limited += a == "chat_rate_limited (address)";
      identity_limited += a == "chat_rate_limited";
    }
  const int allowed = tanbo_server::protocol::kChatAddressBurst +
                      int(seconds_since(start) * tanbo_server::protocol::kChatAddressPerSecond);
  INFO(said << " said, " << allowed << " allowed");
  CHECK(said <= allowed);
  CHECK(said >= tanbo_server::protocol::kChatAddressBurst);
  CHECK(identity_limited == 0);
  CHECK(address_limited == 12 * tanbo_server::protocol::kChatBurst - said);
  SECTION("another address is not held back") {
    ProtocolClient home(fx.port(), "198.51.100.2");
    spectate(home, t.room, "Home");
    say(home, t.room, "spectators", "hello from home", 1);
    CHECK(answers(home, 1) == std::vector<std::string>{"ok"});
  }
}

TEST_CASE("keyed buckets forget the keys that have not spent lately", "[server][limits]") {
  KeyedBuckets buckets(5, 1);
  const auto t0 = Clock::now();
  for (int i = 0; i < 1000; ++i) buckets.spend("key " + std::to_string(i), t0);
  CHECK(buckets.size() == 1000);
  // Five seconds fill a bucket: the next spend after that sweeps the full ones away.
  buckets.spend("late", t0 + std::chrono::seconds(6));
  CHECK(buckets.size() == 1);
  SECTION("a spend undone gives one token back, never beyond the burst") {
    for (int i = 0; i < 4; ++i) buckets.spend("late", t0 + std::chrono::seconds(6));
    CHECK_FALSE(buckets.has("late", t0 + std::chrono::seconds(6)));
    CHECK(buckets.wait("late", t0 + std::chrono::seconds(6)) == std::chrono::seconds(1));
    buckets.give_back("late", t0 + std::chrono::seconds(6));
    CHECK(buckets.has("late", t0 + std::chrono::seconds(6)));
    CHECK(buckets.wait("late", t0 + std::chrono::seconds(6)) == Clock::duration::zero());
  }
}

TEST_CASE("the chat's tables hold only who chatted lately", "[server][limits]") {
  ChatLimits chat;
  const auto t0 = Clock::now();
  for (int i = 0; i < 500; ++i)
    CHECK(chat.take("identity " + std::to_string(i), "198.51.100." + std::to_string(i % 250),
                    t0 + std::chrono::milliseconds(i)) == ChatLimits::Verdict::taken);
  CHECK(chat.held() == 750);
  CHECK(chat.take("someone", "", t0 + std::chrono::minutes(1)) == ChatLimits::Verdict::taken);
  CHECK(chat.held() == 1);  // the one who just spoke; the machine itself is not counted
}
