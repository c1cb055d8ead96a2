// The lobby's cluster side in-process: the other nodes' listings merged into what it serves, and
// only what changed pushed to its watchers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <mutex>
#include <nlohmann/json.hpp>

#include "server/rooms/lobby.hpp"

using namespace tanbo_server::server;
using nlohmann::json;

namespace {

struct RecordingPeer final : WsPeer {
  std::uint64_t id() const override { return 1; }
  void send(std::shared_ptr<const std::string> text) override {
    std::lock_guard lock(mutex);
    frames.push_back(json::parse(*text));
  }
  void close(CloseCode) override {}
  std::vector<json> take() {
    std::lock_guard lock(mutex);
    return std::exchange(frames, {});
  }
  std::mutex mutex;
  std::vector<json> frames;
};

json entry(const std::string& room, const std::string& game, const std::string& node,
           int spectators = 0) {
  return {{"room", room}, {"game", game}, {"node", node}, {"spectators", spectators}};
}

std::vector<std::string> ids(const json& list) {
  std::vector<std::string> out;
  for (const auto& r : list) out.push_back((r.is_string() ? r : r.at("room")).get<std::string>());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("the lobby merges the other nodes' listings and pushes what changed",
          "[cluster][lobby]") {
  boost::asio::io_context ioc;
  auto lobby = std::make_shared<Lobby>(ioc.get_executor(), std::chrono::milliseconds(1));
  lobby->set_node("here");
  auto peer = std::make_shared<RecordingPeer>();
  lobby->watch(peer);
  auto settle = [&] {  // runs the push the lobby scheduled, if any
    ioc.restart();
    ioc.run();
    return peer->take();
  };

  lobby->set_remote({{"there", {entry("r-1", "tanbo", "there"), entry("r-2", "tsoro", "there")}},
                     {"elsewhere", {entry("r-3", "tanbo", "elsewhere")}}});
  auto first = settle();
  REQUIRE(first.size() == 1);
  CHECK(ids(first[0].at("changed")) == std::vector<std::string>{"r-1", "r-2", "r-3"});
  CHECK(first[0].at("removed").empty());

  SECTION("rooms and GET /api/rooms list them all, filtered by game") {
    CHECK(ids(lobby->listing(std::nullopt)) == std::vector<std::string>{"r-1", "r-2", "r-3"});
    CHECK(ids(lobby->listing("tanbo")) == std::vector<std::string>{"r-1", "r-3"});
    CHECK(lobby->local_listing().empty());  // what this node writes holds only its own rooms
  }
  SECTION("the same listings again push nothing") {
    lobby->set_remote({{"there", {entry("r-1", "tanbo", "there"), entry("r-2", "tsoro", "there")}},
                       {"elsewhere", {entry("r-3", "tanbo", "elsewhere")}}});
    CHECK(settle().empty());
  }
  SECTION("a changed entry is pushed alone") {
    lobby->set_remote(
        {{"there", {entry("r-1", "tanbo", "there", 2), entry("r-2", "tsoro", "there")}},
         {"elsewhere", {entry("r-3", "tanbo", "elsewhere")}}});
    auto pushed = settle();
    REQUIRE(pushed.size() == 1);
    REQUIRE(pushed[0].at("changed").size() == 1);
    CHECK(pushed[0].at("changed")[0].at("spectators") == 2);
  }
  SECTION("a node whose listing expired takes its rooms along, pushed as removed") {
    lobby->set_remote({{"elsewhere", {entry("r-3", "tanbo", "elsewhere")}}});
    auto pushed = settle();
    REQUIRE(pushed.size() == 1);
    CHECK(pushed[0].at("changed").empty());
    CHECK(ids(pushed[0].at("removed")) == std::vector<std::string>{"r-1", "r-2"});
    CHECK(ids(lobby->listing(std::nullopt)) == std::vector<std::string>{"r-3"});
  }
  SECTION("entries that are not rooms are ignored") {
    lobby->set_remote({{"odd", {json(1), json::object(), json{{"room", 5}}}}});
    CHECK(lobby->listing(std::nullopt).empty());
  }
}
