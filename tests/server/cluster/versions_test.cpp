// Protocol versions across nodes (docs/protocol-changelog.md): a room's frames are written once
// per version and cross to another node once per version; each member there gets its own.
#include <catch2/catch.hpp>

#include "tests/server/cluster/three_nodes.hpp"
#include "tests/server/support/versions.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace {

// A spectator of `room` on the node at `port`, speaking `protocol` (nullopt: names none, 1).
std::unique_ptr<ProtocolClient> spectator(std::uint16_t port, const std::string& room,
                                          const std::string& name, std::optional<int> protocol,
                                          std::uint64_t version) {
  auto c = std::make_unique<ProtocolClient>(port);
  c->hello(name, "", protocol);
  c->send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", "spectator"}});
  c->expect("joined");
  const json s = c->expect("state");
  if (s.at("version") != version) throw std::runtime_error("joined at " + s.dump());
  return c;
}

}  // namespace

TEST_CASE("members of versions 1 and 2 on other nodes each get their own names",
          "[cluster][versions]") {
  auto c = start_cluster();
  if (!c) return;
  ProtocolClient ana(c->ports[0]);
  ana.hello("Ana");
  ana.send({{"type", "create"},
            {"id", "c"},
            {"game", "tanbo"},
            {"options", {{"first", 0}}},
            {"cpu", {{{"seat", 1}, {"level", "random"}}}}});
  const std::string room = ana.expect("created").at("room");
  json first = ana.expect("state");
  const std::uint64_t joined = first.at("version");
  // Two versions on one other node, and version 1 on a third.
  auto olga = spectator(c->ports[1], room, "Olga", std::nullopt, joined);
  auto pia = spectator(c->ports[1], room, "Pia", 2, joined);
  auto quin = spectator(c->ports[2], room, "Quin", std::nullopt, joined);

  auto nows = play_tanbo(ana, room, first, 2);
  const std::uint64_t last = nows.rbegin()->first;
  auto olds = states_until(*olga, last), pias = states_until(*pia, last),
       quins = states_until(*quin, last);
  int paddy_actions = 0;
  for (const auto& [version, s] : nows) {
    if (version <= joined) continue;
    CAPTURE(version);
    REQUIRE(olds.contains(version));
    json shown = s;
    shown.erase("legal");
    CHECK(pias.at(version) == shown);
    CHECK(olds.at(version) == as_v1(s));
    CHECK(quins.at(version) == olds.at(version));
    CHECK_FALSE(has_event(olds.at(version), "paddy_action"));
    paddy_actions += has_event(s, "paddy_action");
  }
  CHECK(paddy_actions >= 2);
}
