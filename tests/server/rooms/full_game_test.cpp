#include <catch2/catch.hpp>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "engine/core/rng.hpp"
#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server;
using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

constexpr int kMaxActs = 1500;  // then seat 0 resigns: every game ends, replay included

struct Played {
  engine::Record record;
  json final_state;
  int acts = 0;
};

// Plays random legal actions until the game ends, checking at each version that only the deciding
// seat got `legal`, that every member saw the same state, and that versions rise one by one.
Played play_out(Table& t, const std::string& game, std::uint64_t seed) {
  engine::FastRng pick(seed);
  Played out;
  out.record.game = game;
  out.record.players = int(t.players.size());
  std::uint64_t version = t.state.at("version");
  while (t.state.at("status") == "playing") {
    int seat = t.deciding();
    REQUIRE(seat >= 0);
    for (std::size_t i = 0; i < t.players.size(); ++i) {
      CHECK(t.seen[i].contains("legal") == (int(i) == seat));
      CHECK(without_legal(t.seen[i]) == t.state);
    }
    CHECK_FALSE(t.state.contains("legal"));
    if (out.acts >= kMaxActs) {
      t.at(0).send({{"type", "resign"}, {"room", t.room}});
      out.record.actions.push_back({0, json(engine::kResign)});
    } else {
      const json& legal = t.seen[std::size_t(seat)].at("legal");
      REQUIRE(!legal.empty());
      json action = legal[pick.below(std::uint32_t(legal.size()))];
      t.at(seat).send(
          {{"type", "act"}, {"room", t.room}, {"version", version}, {"action", action}});
      out.record.actions.push_back({seat, action});
    }
    ++out.acts;
    t.read_states(++version);
  }
  out.final_state = t.state;
  return out;
}

}  // namespace

TEST_CASE("every registered game plays to the end through the protocol as the engine replays it",
          "[server][rooms][game]") {
  RoomsServer fx;
  std::uint64_t seed = 1;
  for (const auto* info : engine::all_games()) {
    DYNAMIC_SECTION(info->id << " with " << info->default_players << " players and a spectator") {
      Table t = Table::seat(fx.port(), info->id, info->default_players);
      REQUIRE(t.state.at("status") == "playing");
      CHECK(t.state.at("version") == 1);  // the start is the first step
      CHECK_FALSE(t.state.contains("seed"));
      std::string commit = t.state.at("commit");

      // The room's normalized options, as the lobby lists them.
      auto& p0 = t.at(0);
      p0.send({{"type", "rooms"}, {"id", 9}, {"game", info->id}});
      json options;
      json listed = p0.expect("rooms");
      INFO(listed.dump());
      for (const auto& r : listed.at("rooms"))
        if (r.at("room") == t.room) options = r.at("options");
      REQUIRE(options.is_object());

      Played played = play_out(t, info->id, seed++);
      const json& end = played.final_state;
      REQUIRE(end.at("status") == "finished");
      REQUIRE(end.contains("seed"));
      REQUIRE(end.contains("result"));
      CHECK(end.at("commit") == commit);
      auto s = engine::seed_from_hex(end.at("seed").get<std::string>());
      REQUIRE(s);
      CHECK(engine::seed_commitment(*s) == commit);  // R1: the seed revealed is the one committed

      played.record.options = options;
      played.record.seed = *s;
      auto replay = engine::replay(played.record);
      REQUIRE(replay.match);
      CHECK(replay.failed_at == std::string::npos);
      CHECK(replay.match->game().status() == engine::Status::finished);
      CHECK(json(replay.match->game().result().places) == end.at("result").at("places"));
      CHECK(replay.match->game().result().reason == end.at("result").at("reason"));
      CHECK(replay.match->game().state_json() == end.at("state"));
    }
  }
}

TEST_CASE("a rematch starts a new game in the same room with the next first seat and a new seed",
          "[server][rooms][rematch]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "mancala-simple", 2, 1, {{"first", 0}});
  REQUIRE(t.state.at("status") == "playing");
  CHECK(t.deciding() == 0);
  std::string commit = t.state.at("commit");
  std::uint64_t v = t.state.at("version");

  SECTION("rematch before the end is refused not_finished, the room unchanged") {
    t.at(1).send({{"type", "rematch"}, {"id", 1}, {"room", t.room}});
    CHECK(t.at(1).expect("error").at("code") == "not_finished");
  }
  SECTION("after a resignation both ask and the new game starts at the next version") {
    t.at(1).send({{"type", "resign"}, {"room", t.room}});
    t.read_states(++v);
    REQUIRE(t.state.at("status") == "finished");
    CHECK(t.state.at("result").at("places") == json({1, 2}));
    t.at(0).send({{"type", "rematch"}, {"room", t.room}});
    t.read_states(v);  // the request is visible, the version unmoved
    CHECK(t.state.at("rematch") == json::array({0}));
    t.at(1).send({{"type", "rematch"}, {"room", t.room}});
    t.read_states(++v);
    CHECK(t.state.at("status") == "playing");
    CHECK(t.deciding() == 1);  // R6: alternate_first moves the first seat one on
    CHECK(t.state.at("commit") != commit);
    CHECK_FALSE(t.state.contains("rematch"));
  }
}
