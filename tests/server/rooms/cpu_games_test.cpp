#include <catch2/catch.hpp>

#include "engine/core/registry.hpp"
#include "tests/server/rooms/cpu_fixture.hpp"

using namespace tanbo_server;
using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

// Every action the room journaled, the CPU's included, replays through Match::act to the state
// the room broadcast last: no CPU answer ever bypassed the legal list.
void check_replays(const CpuServer& fx, const std::string& room, const json& end) {
  auto record = fx.record(room);
  auto replay = engine::replay(record);
  REQUIRE(replay.match);
  CHECK(replay.failed_at == std::string::npos);
  CHECK(replay.match->game().state_json() == end.at("state"));
  CHECK(replay.match->game().status() == engine::Status::finished);
}

}  // namespace

TEST_CASE("a person plays every game to the end against a CPU seat at each level",
          "[cpu][server][rooms][game]") {
  CpuServer fx;
  std::uint64_t seed = 11;
  for (const auto* info : engine::all_games()) {
    for (const char* level : {"random", "greedy", "mcts"}) {
      DYNAMIC_SECTION(info->id << " against " << level) {
        ProtocolClient human(fx.port());
        human.hello("Ana");
        json first;
        std::string room = create_room(
            human, {{"game", info->id}, {"players", 2}, {"cpu", {{{"seat", 1}, {"level", level}}}}},
            &first);
        // One person and a CPU: the game starts with the creator's seat.
        REQUIRE(first.at("status") == "playing");
        CHECK(first.at("version") == 1);
        const json& cpu = first.at("seats")[1];
        CHECK(cpu.at("cpu") == true);
        CHECK(cpu.at("level") == level);
        CHECK(cpu.at("player").is_null());
        CHECK(first.at("seats")[0].at("cpu") == false);
        CHECK_FALSE(first.contains("clock"));

        // A long game ends by the person resigning after 100 actions (R3); every CPU step counts.
        HumanGame g = play_human(human, room, 0, first, seed++, 100);
        REQUIRE(g.end.at("status") == "finished");
        CHECK(g.cpu_steps > 0);
        auto actors = fx.actors(room);
        CHECK(std::count(actors.begin(), actors.end(), 1) == g.cpu_steps);
        check_replays(fx, room, g.end);
      }
    }
  }
}

TEST_CASE("mancala-simple for four: one person and three CPUs of mixed levels play to the end",
          "[cpu][server][rooms][game]") {
  CpuServer fx;
  ProtocolClient human(fx.port());
  human.hello("Ana");
  json first;
  std::string room = create_room(human,
                                 {{"game", "mancala-simple"},
                                  {"players", 4},
                                  {"cpu",
                                   {{{"seat", 1}, {"level", "random"}},
                                    {{"seat", 2}, {"level", "greedy"}},
                                    {{"seat", 3}, {"level", "mcts"}}}}},
                                 &first);
  REQUIRE(first.at("status") == "playing");
  CHECK(first.at("seats")[3].at("level") == "mcts");
  HumanGame g = play_human(human, room, 0, first, 5);
  REQUIRE(g.end.at("status") == "finished");
  auto actors = fx.actors(room);
  for (int s = 1; s < 4; ++s) CHECK(std::count(actors.begin(), actors.end(), s) > 0);
  check_replays(fx, room, g.end);
}

TEST_CASE("create places CPU seats only where the creator is not, and refuses them by name",
          "[cpu][server][rooms]") {
  CpuServer fx;
  ProtocolClient c(fx.port());
  c.hello("Ana");
  auto refused = [&](json create) {
    create["type"] = "create";
    create["id"] = 7;
    c.send(create);
    json e = c.expect("error");
    CHECK(e.at("code") == "bad_option");
    REQUIRE(e.contains("problems"));
    return e.at("problems")[0].at("field");
  };
  SECTION("a CPU asked for seat 0, the creator's, is bad_option naming cpu") {
    CHECK(refused({{"game", "tanbo"}, {"cpu", {{{"seat", 0}, {"level", "greedy"}}}}}) == "cpu");
  }
  SECTION("a CPU for a seat the room does not have is bad_option naming cpu") {
    CHECK(refused({{"game", "tanbo"}, {"cpu", {{{"seat", 2}, {"level", "greedy"}}}}}) == "cpu");
  }
  SECTION("a ranked room seats people only") {
    CHECK(refused({{"game", "tanbo"},
                   {"ranked", true},
                   {"cpu", {{{"seat", 1}, {"level", "greedy"}}}}}) == "cpu");
  }
  SECTION("with seats still free for people, the room waits for them") {
    json first;
    create_room(
        c,
        {{"game", "mancala-simple"}, {"players", 3}, {"cpu", {{{"seat", 2}, {"level", "random"}}}}},
        &first);
    CHECK(first.at("status") == "waiting");
    CHECK(first.at("seats")[1].at("cpu") == false);
    CHECK(first.at("seats")[2].at("cpu") == true);
  }
}

TEST_CASE("a seated player fills the free seats with CPUs and the game starts at once",
          "[cpu][server][rooms]") {
  CpuServer fx;
  ProtocolClient ana(fx.port());
  ana.hello("Ana");
  json first;
  std::string room = create_room(ana, {{"game", "mancala-simple"}, {"players", 3}}, &first);
  REQUIRE(first.at("status") == "waiting");
  ProtocolClient watcher(fx.port());
  watcher.hello("Ben");
  watcher.send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "spectator"}});
  watcher.expect("joined");
  CHECK(watcher.expect("state").at("spectators") == 1);  // the joiner's alone

  SECTION("a spectator may not: not_seated") {
    watcher.send({{"type", "fill_cpu"}, {"id", 2}, {"room", room}, {"level", "greedy"}});
    CHECK(watcher.expect("error").at("code") == "not_seated");
  }
  SECTION("the seated player may; a second request finds no free seat: room_full") {
    ana.send({{"type", "fill_cpu"}, {"id", 3}, {"room", room}, {"level", "greedy"}});
    json s = ana.expect("state");
    CHECK(s.at("status") == "playing");
    CHECK(s.at("version") == 1);
    // The answer follows the state it caused, naming the version the room reached.
    CHECK(ana.expect("ok") == json{{"type", "ok"}, {"re", 3}, {"room", room}, {"version", 1}});
    CHECK(s.at("spectators") == 1);
    for (int seat : {1, 2}) {
      CHECK(s.at("seats")[seat].at("cpu") == true);
      CHECK(s.at("seats")[seat].at("level") == "greedy");
    }
    HumanGame g = play_human(ana, room, 0, s, 3);
    CHECK(g.end.at("status") == "finished");
    ana.send({{"type", "fill_cpu"}, {"id", 4}, {"room", room}, {"level", "greedy"}});
    CHECK(ana.expect("error").at("code") == "room_full");
  }
}

TEST_CASE("mcts with the default budget answers in the server, legally",
          "[cpu][server][rooms][budget]") {
  ServiceOptions o = cpu_options();
  o.bots.budget = std::chrono::milliseconds(300);
  CpuServer fx(o);
  ProtocolClient human(fx.port());
  human.hello("Ana");
  json first;
  std::string room = create_room(human,
                                 {{"game", "mancala-simple"},
                                  {"options", {{"first", 1}}},
                                  {"cpu", {{{"seat", 1}, {"level", "mcts"}}}}},
                                 &first);
  REQUIRE(first.at("pending").at("seat") == 1);
  json next = human.expect("state");  // within the client's read bound, or the test fails
  CHECK(next.at("version") == 2);
  auto replay = engine::replay(fx.record(room));
  REQUIRE(replay.match);
  CHECK(replay.failed_at == std::string::npos);
  CHECK(replay.match->record().actions.size() == 1);
  CHECK(replay.match->game().state_json() == next.at("state"));
}
