#include "engine/core/json_text.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "engine/core/json_sink.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "engine/core/rng.hpp"
#include "protocol/server.hpp"

using Json = nlohmann::json;
namespace engine = tanbo_server::engine;
using tanbo_server::protocol::serialize;

namespace {

// What the server wrote before: nlohmann's own text, invalid UTF-8 replaced.
std::string reference(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// A tree of every kind of value, strings of arbitrary bytes (escapes, UTF-8, broken UTF-8).
Json random_value(std::mt19937_64& gen, int depth) {
  auto pick = [&](std::uint64_t n) { return gen() % n; };
  auto bytes = [&] {
    std::string s(pick(12), '\0');
    for (auto& c : s) c = char(pick(4) == 0 ? pick(256) : 0x20 + pick(0x60));
    return s;
  };
  switch (pick(depth > 0 ? 9 : 7)) {
    case 0:
      return nullptr;
    case 1:
      return pick(2) == 0;
    case 2:
      return std::int64_t(gen());
    case 3:
      return std::uint64_t(gen());
    case 4:
      return double(std::int64_t(gen())) / double(1 + pick(1000));
    case 5:
    case 6:
      return bytes();
    case 7: {
      Json a = Json::array();
      for (auto n = pick(5); n > 0; --n) a.push_back(random_value(gen, depth - 1));
      return a;
    }
    default: {
      Json o = Json::object();
      for (auto n = pick(5); n > 0; --n) o[bytes()] = random_value(gen, depth - 1);
      return o;
    }
  }
}

}  // namespace

TEST_CASE("serialize writes what nlohmann's dump writes, for every kind of value",
          "[protocol][json_text]") {
  const double inf = std::numeric_limits<double>::infinity();
  std::string every_ascii;
  for (int c = 0; c < 0x80; ++c) every_ascii += char(c);
  const Json cases[] = {
      nullptr,
      true,
      false,
      0,
      -1,
      std::numeric_limits<std::int64_t>::min(),
      std::numeric_limits<std::int64_t>::max(),
      std::numeric_limits<std::uint64_t>::max(),
      1.0,
      -0.0,
      0.1,
      1e300,
      inf,
      std::nan(""),
      "",
      "plain",
      every_ascii,
      "tab\there \"quoted\" back\\slash",
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8C\xBE",  // café € and a four-byte rice plant
      "cut \xC3",                                   // a sequence broken at the end
      "bad \xFF byte",
      "escape \n then \xE9 alone",
      Json::array(),
      Json::object(),
      Json::binary({1, 2, 3}),
      {{"z", 1}, {"a", {1, 2.5, "x"}}, {"m\"k", {{"n", nullptr}}}, {"\xC3\xA9", false}},
  };
  for (const Json& j : cases) {
    CAPTURE(reference(j));
    CHECK(serialize(j) == reference(j));
  }
}

// The writer reads eight bytes at a time: a byte to escape must be seen at every place of a block,
// in the first block, a later one and the tail shorter than a block.
TEST_CASE("serialize escapes a byte at every place of a long string", "[protocol][json_text]") {
  const std::string specials[] = {"\x01", "\x1f", "\n",       "\"",  "\\",
                                  "\x7f", " ",    "\xC3\xA9", "\xFF"};
  for (std::size_t length = 1; length <= 40; ++length)
    for (std::size_t at = 0; at < length; ++at)
      for (const std::string& special : specials) {
        std::string s(length, 'a');
        s.replace(at, 1, special);
        CAPTURE(length, at, reference(Json(s)));
        REQUIRE(serialize(Json(s)) == reference(Json(s)));
      }
}

TEST_CASE("serialize equals nlohmann's dump on random trees", "[protocol][json_text]") {
  std::mt19937_64 gen(20261204);
  for (int i = 0; i < 3000; ++i) {
    Json j = random_value(gen, 4);
    CAPTURE(i, reference(j));
    REQUIRE(serialize(j) == reference(j));
  }
}

TEST_CASE("serialize equals nlohmann's dump on every game's states, events and legal lists",
          "[protocol][json_text]") {
  for (const engine::GameInfo* g : engine::all_games()) {
    engine::Record head;
    head.game = g->id;
    head.players = g->default_players;
    head.options = Json::object();
    head.seed = engine::seed_from_text("json-text " + g->id);
    engine::Problems problems;
    auto m = engine::Match::start(head, problems);
    REQUIRE(m);
    engine::FastRng pick(7);
    for (int step = 0; step < 400 && m->game().status() != engine::Status::finished; ++step) {
      const Json legal = m->legal_json();
      for (const Json& j : {m->game().state_json(), m->events().json(), legal}) {
        CAPTURE(g->id, step);
        REQUIRE(serialize(j) == reference(j));
      }
      REQUIRE(legal.is_array());
      REQUIRE_FALSE(legal.empty());
      const Json& action = legal[pick.below(std::uint32_t(legal.size()))];
      REQUIRE_FALSE(m->act(m->game().pending().seat, action));
    }
  }
}

// A game that writes its state and actions value by value (Game::write_state, write_action)
// gives the frame the text of the trees state_json() and legal_json() build, keys in the trees'
// order: checked on every state and legal list of played games, every number of players, to
// their end.
TEST_CASE(
    "engine::state_text and legal_text are the text of the trees on every step of played games",
    "[protocol][json_text]") {
  for (const engine::GameInfo* g : engine::all_games())
    for (int players = g->min_players; players <= g->max_players; ++players)
      for (std::uint64_t seed = 1; seed <= 2; ++seed) {
        engine::Record head;
        head.game = g->id;
        head.players = players;
        head.options = Json::object();
        head.seed = engine::seed_from_text("game-state-text " + std::to_string(seed));
        engine::Problems problems;
        auto m = engine::Match::start(head, problems);
        REQUIRE(m);
        engine::FastRng pick(seed);
        for (int step = 0; step < 2000; ++step) {
          CAPTURE(g->id, players, seed, step);
          REQUIRE(engine::state_text(m->game()) == reference(m->game().state_json()));
          if (m->game().status() == engine::Status::finished) break;
          const Json legal = m->legal_json();
          REQUIRE(tanbo_server::protocol::legal_text(*m) == reference(legal));
          REQUIRE_FALSE(
              m->act(m->game().pending().seat, legal[pick.below(std::uint32_t(legal.size()))]));
        }
        CHECK(m->game().status() == engine::Status::finished);
      }
}

// The text sink's own two values: what the frames need and a tree sink has no use for.
TEST_CASE("a JsonText sink writes a number past int64 and a value already serialized as they are",
          "[protocol][json_text]") {
  const Json part = {{"b", {1, "x\n"}}, {"a", nullptr}};
  std::string text;
  {
    engine::JsonText out(text);
    out.begin_object();
    out.key("big");
    out.unsigned_number(std::numeric_limits<std::uint64_t>::max());
    out.key("part");
    out.serialized(serialize(part));
    out.key("parts");
    out.begin_array();
    out.serialized("[]");
    out.serialized(serialize(part));
    out.number(-1);
    out.end_array();
    out.end_object();
  }
  const Json tree = {{"big", std::numeric_limits<std::uint64_t>::max()},
                     {"part", part},
                     {"parts", {Json::array(), part, -1}}};
  CHECK(text == reference(tree));
}
