#include <catch2/catch.hpp>

#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

// Reads until the state of `version`; returns how many frames came before it.
int frames_before(ProtocolClient& c, std::uint64_t version, json& state) {
  for (int n = 0;; ++n) {
    json m = c.next();
    if (m.at("type") == "state" && m.at("version") == version) {
      state = std::move(m);
      return n;
    }
    if (n > 10'000) throw std::runtime_error("no state of version " + std::to_string(version));
  }
}

}  // namespace

TEST_CASE("a crowd of spectators joining a room costs frames linear in its size",
          "[server][rooms][spectate-scale]") {
  constexpr int kCrowd = 50;
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "mancala-simple", 2, 1, {{"first", 0}});
  const std::uint64_t v = t.state.at("version");
  REQUIRE(t.state.at("spectators") == 1);

  std::vector<std::unique_ptr<ProtocolClient>> crowd;
  int joiner_frames = 0;
  for (int i = 0; i < kCrowd; ++i) {
    crowd.push_back(std::make_unique<ProtocolClient>(fx.port()));
    auto& c = *crowd.back();
    c.hello("Crowd " + std::to_string(i));
    c.send({{"type", "join"}, {"id", 1}, {"room", t.room}, {"as", "spectator"}});
    // Every frame up to its state is counted: `joined` and the state, nothing else.
    CHECK(c.next().at("type") == "joined");
    json s;
    joiner_frames += 1 + frames_before(c, v, s) + 1;
    // The joiner's state is the room's version, with the count it made.
    CHECK(s.at("version") == v);
    CHECK(s.at("spectators") == 2 + i);
    CHECK(without_legal(s).at("state") == t.state.at("state"));
  }

  // One step: every member's next state carries the whole crowd. Whatever a member received
  // before it was caused by the joins.
  int seat = t.deciding();
  REQUIRE(seat >= 0);
  t.at(seat).send({{"type", "act"},
                   {"room", t.room},
                   {"version", v},
                   {"action", t.seen[std::size_t(seat)].at("legal")[0]}});
  int join_frames = 0;
  std::vector<json> seen;
  for (auto& p : t.players) join_frames += frames_before(*p, v + 1, seen.emplace_back());
  for (auto& s : t.spectators) join_frames += frames_before(*s, v + 1, seen.emplace_back());
  for (auto& c : crowd) join_frames += frames_before(*c, v + 1, seen.emplace_back());

  SECTION("the members already there get no frame for an arrival") {
    // Every frame a join causes is the joiner's own (joined, state): 2 per arrival, not S^2/2.
    CHECK(join_frames == 0);
    CHECK(joiner_frames == 2 * kCrowd);
  }
  SECTION("the next state tells everyone the count, at one version for all") {
    for (const auto& s : seen) {
      CHECK(s.at("spectators") == kCrowd + 1);
      CHECK(without_legal(s) == without_legal(seen.front()));
    }
  }
  SECTION("spectators leaving or dropping out cost the others no frame either") {
    constexpr int kLeave = kCrowd / 2, kDrop = 10;
    for (int i = 0; i < kLeave; ++i) {
      crowd[std::size_t(i)]->send({{"type", "leave"}, {"id", 2}, {"room", t.room}});
      crowd[std::size_t(i)]->expect("left");
    }
    crowd.resize(kCrowd - kDrop);  // their connections close
    crowd.erase(crowd.begin(), crowd.begin() + kLeave);
    const int mover = seen[0].at("pending").at("seat");
    t.at(mover).send({{"type", "act"},
                      {"room", t.room},
                      {"version", v + 1},
                      {"action", seen[std::size_t(mover)].at("legal")[0]}});
    json s;
    for (auto& p : t.players) CHECK(frames_before(*p, v + 2, s) == 0);
    for (auto& c : crowd) CHECK(frames_before(*c, v + 2, s) == 0);
    CHECK(frames_before(*t.spectators[0], v + 2, s) == 0);
    // The leaves were answered before the act; the drops may reach the room after it.
    const int after_leaves = 1 + kCrowd - kLeave;
    CHECK(s.at("spectators") <= after_leaves);
    CHECK(s.at("spectators") >= after_leaves - kDrop);
  }
}
