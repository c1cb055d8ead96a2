// The operators' API (docs/operations.md, "Moderation") on a real server process: every call
// refused without the token or with a wrong one, and what each does to the players connected.
#include <catch2/catch.hpp>
#include <fstream>

#include "tests/server/recovery/server_process.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace {

constexpr const char* kToken = "s3cret-operator-token-0123456789";

struct Admin {
  std::uint16_t port;
  HttpReply call(std::string_view method, std::string_view target,
                 std::string_view token = kToken) const {
    return http_request(port, method, target, token.empty() ? "" : "Bearer " + std::string(token));
  }
  json ok(std::string_view method, std::string_view target) const {
    auto r = call(method, target);
    INFO(method << " " << target << ": " << r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
  }
};

void say(ProtocolClient& c, const std::string& room, const std::string& channel,
         const std::string& text) {
  c.send({{"type", "say"}, {"room", room}, {"channel", channel}, {"text", text}});
}

// True once the server logs a line holding `needle`.
bool logged(ServerProcess& server, const std::string& needle) {
  return server.process().wait_for_line(needle, std::chrono::seconds(5)).has_value();
}

struct Table {
  std::unique_ptr<ProtocolClient> ana, bo, cid;
  std::string ana_id, bo_id, bo_token, room;
};

// Ana and Bo play mancala-simple; Cid watches.
Table table(std::uint16_t port) {
  Table t;
  t.ana = std::make_unique<ProtocolClient>(port);
  t.bo = std::make_unique<ProtocolClient>(port);
  t.cid = std::make_unique<ProtocolClient>(port);
  t.ana_id = t.ana->hello("Ana").at("player").at("id");
  auto w = t.bo->hello("Bo");
  t.bo_id = w.at("player").at("id");
  t.bo_token = w.at("token");
  t.cid->hello("Cid");
  t.ana->send({{"type", "create"}, {"id", 1}, {"game", "mancala-simple"}});
  t.room = t.ana->expect("created").at("room");
  t.bo->send({{"type", "join"}, {"id", 1}, {"room", t.room}, {"as", "player"}});
  t.bo->expect("joined");
  t.cid->send({{"type", "join"}, {"id", 1}, {"room", t.room}, {"as", "spectator"}});
  t.cid->expect("joined");
  state_at(*t.ana, 1), state_at(*t.bo, 1), state_at(*t.cid, 1);
  return t;
}

}  // namespace

TEST_CASE("without --admin-token-file there is no admin API", "[server][api][admin]") {
  DataDir dir;
  ServerProcess server(dir);
  auto r = http_request(server.port(), "GET", "/api/admin/reports", std::string("Bearer x"));
  CHECK(r.status == 404);
  CHECK_THAT(r.body, Catch::Contains("--admin-token-file"));
}

TEST_CASE("every admin call needs the token, reports, a removed line, a shadow mute, a ban",
          "[server][api][admin]") {
  DataDir dir;
  std::filesystem::create_directories(dir.path);
  const auto token_file = dir.path / "admin-token";
  std::ofstream(token_file) << kToken << "\n";  // the newline is not part of the token
  std::filesystem::permissions(token_file, std::filesystem::perms(0600));
  ServerProcess server(dir, {"--admin-token-file", token_file.string()});
  Admin admin{server.port()};
  auto t = table(server.port());

  SECTION("each call: 401 without a token, with a wrong one, with one a byte short") {
    const std::vector<std::pair<std::string, std::string>> calls = {
        {"GET", "/api/admin/reports"},
        {"GET", "/api/admin/rooms/" + t.room + "/chat/spectators"},
        {"DELETE", "/api/admin/rooms/" + t.room + "/chat/players/1"},
        {"PUT", "/api/admin/identities/" + t.bo_id + "/shadow-mute?minutes=5"},
        {"DELETE", "/api/admin/identities/" + t.bo_id + "/shadow-mute"},
        {"PUT", "/api/admin/identities/" + t.bo_id + "/ban"},
        {"DELETE", "/api/admin/identities/" + t.bo_id + "/ban"}};
    const std::string short_token = std::string(kToken).substr(1);
    for (const auto& [method, target] : calls) {
      INFO(method << " " << target);
      CHECK(admin.call(method, target, "").status == 401);
      CHECK(admin.call(method, target, "wrong").status == 401);
      CHECK(admin.call(method, target, short_token).status == 401);
    }
    // Nothing was done: Bo still talks to everyone and is not banned.
    say(*t.bo, t.room, "players", "still here");
    CHECK(t.ana->next_but_states().at("text") == "still here");
    CHECK(logged(server, "refused: no valid token"));
  }

  SECTION("a report is listed for the operators, the newest first") {
    t.ana->send({{"type", "report"},
                 {"id", 2},
                 {"player", t.bo_id},
                 {"room", t.room},
                 {"reason", "insults"}});
    CHECK(t.ana->next_but_states().at("type") == "ok");
    t.cid->send({{"type", "report"}, {"id", 2}, {"player", t.bo_id}, {"reason", "spam"}});
    CHECK(t.cid->next_but_states().at("type") == "ok");
    auto reports = admin.ok("GET", "/api/admin/reports").at("reports");
    REQUIRE(reports.size() == 2);
    CHECK(reports[0].at("reason") == "spam");
    CHECK(reports[0].at("room").is_null());
    CHECK(reports[1].at("reporter") == t.ana_id);
    CHECK(reports[1].at("player") == t.bo_id);
    CHECK(reports[1].at("room") == t.room);
    CHECK(admin.ok("GET", "/api/admin/reports?limit=1").at("reports").size() == 1);
    CHECK(logged(server, "admin: GET /api/admin/reports: listed reports"));
  }

  SECTION("the spectators' channel is read by operators; a removed line is unsaid to readers") {
    say(*t.cid, t.room, "spectators", "watch this");
    CHECK(t.cid->next_but_states().at("n") == 1);
    say(*t.bo, t.room, "players", "you fool");
    CHECK(t.ana->next_but_states().at("n") == 1);
    CHECK(t.bo->next_but_states().at("n") == 1);
    auto spectators = admin.ok("GET", "/api/admin/rooms/" + t.room + "/chat/spectators");
    REQUIRE(spectators.at("lines").size() == 1);
    CHECK(spectators.at("lines")[0].at("text") == "watch this");
    auto removed = admin.ok("DELETE", "/api/admin/rooms/" + t.room + "/chat/players/1");
    CHECK(removed.at("removed").at("n") == 1);
    for (auto* c : {t.ana.get(), t.bo.get()}) {
      auto unsaid = c->next_but_states();
      CHECK(unsaid == json{{"type", "unsaid"}, {"room", t.room}, {"channel", "players"}, {"n", 1}});
    }
    CHECK(t.cid->hears_nothing());  // it never had that line
    CHECK(admin.ok("GET", "/api/admin/rooms/" + t.room + "/chat/players").at("lines").empty());
    CHECK(admin.call("DELETE", "/api/admin/rooms/" + t.room + "/chat/players/7").status == 404);
    CHECK(admin.call("DELETE", "/api/admin/rooms/" + t.room + "/chat/players/x").status == 400);
    // A newcomer's history leaves it out.
    ProtocolClient late(server.port());
    late.hello("Late");
    late.send({{"type", "join"}, {"id", 1}, {"room", t.room}, {"as", "spectator"}});
    CHECK(late.expect("joined").at("chat").at("spectators").size() == 1);
    CHECK(logged(server, "removed line 1 of the players channel of room " + t.room));
  }

  SECTION("a shadow-muted player sees its own lines; nobody else does; lifted, all do") {
    auto muted = admin.ok("PUT", "/api/admin/identities/" + t.bo_id + "/shadow-mute?minutes=30");
    CHECK(muted.at("shadow_until").get<std::int64_t>() > 0);
    say(*t.bo, t.room, "players", "buy gold at example.com");
    auto own = t.bo->next_but_states();
    CHECK(own.at("type") == "said");
    CHECK(own.at("text") == "buy gold at example.com");
    CHECK(t.ana->hears_nothing());
    // It takes no number: Ana's next line is the channel's first.
    say(*t.ana, t.room, "players", "hello?");
    CHECK(t.ana->next_but_states().at("n") == 1);
    CHECK(t.bo->next_but_states().at("n") == 1);
    CHECK(admin.call("PUT", "/api/admin/identities/" + t.bo_id + "/shadow-mute?minutes=0").status ==
          400);
    CHECK(admin.call("PUT", "/api/admin/identities/p-nobody/shadow-mute").status == 404);
    admin.ok("DELETE", "/api/admin/identities/" + t.bo_id + "/shadow-mute");
    say(*t.bo, t.room, "players", "sorry");
    CHECK(t.ana->next_but_states().at("text") == "sorry");
  }

  SECTION("a ban closes the player's connections and refuses its hello until lifted") {
    admin.ok("PUT", "/api/admin/identities/" + t.bo_id + "/ban");
    auto told = t.bo->next();
    while (told.at("type") == "state") told = t.bo->next();
    CHECK(told.at("code") == "banned");
    CHECK(t.bo->expect_close() == 1008);
    ProtocolClient again(server.port());
    again.send({{"type", "hello"}, {"id", "h"}, {"token", t.bo_token}});
    auto refused = again.next();
    CHECK(refused.at("code") == "banned");
    CHECK(refused.at("re") == "h");
    admin.ok("DELETE", "/api/admin/identities/" + t.bo_id + "/ban");
    ProtocolClient back(server.port());
    CHECK(back.hello("", t.bo_token).at("player").at("id") == t.bo_id);
    CHECK(logged(server, "admin: PUT /api/admin/identities/" + t.bo_id + "/ban: banned"));
  }

  SECTION("unknown calls are 404 and a call's other methods 405, with the token") {
    CHECK(admin.call("GET", "/api/admin/nothing").status == 404);
    auto other = admin.call("POST", "/api/admin/reports");
    CHECK(other.status == 405);
    CHECK(json::parse(other.body).at("error").at("message") == "use GET");
  }
}

TEST_CASE("failed admin calls are throttled per address and logged with it",
          "[server][api][admin]") {
  DataDir dir;
  std::filesystem::create_directories(dir.path);
  const auto token_file = dir.path / "admin-token";
  std::ofstream(token_file) << kToken << "\n";
  std::filesystem::permissions(token_file, std::filesystem::perms(0600));
  // The test stands for a proxy on this machine, naming the callers.
  ServerProcess server(
      dir, {"--admin-token-file", token_file.string(), "--trusted-proxies", "127.0.0.1"});
  auto call = [&](std::string_view token, std::string_view from) {
    return http_request(server.port(), "GET", "/api/admin/reports",
                        token.empty() ? "" : "Bearer " + std::string(token), {}, from);
  };
  for (int i = 0; i < 5; ++i) CHECK(call("wrong", "203.0.113.9").status == 401);
  CHECK(logged(server, "admin: GET /api/admin/reports from 203.0.113.9 refused: no valid token"));
  // Then refused before its token is looked at, the right one included.
  auto throttled = call(kToken, "203.0.113.9");
  CHECK(throttled.status == 429);
  CHECK(json::parse(throttled.body).at("error").at("code") == "rate_limited");
  REQUIRE_FALSE(throttled.retry_after.empty());
  CHECK(std::stoi(throttled.retry_after) > 0);
  CHECK(std::stoi(throttled.retry_after) <= 12);
  CHECK(call("", "203.0.113.9").status == 429);
  CHECK(logged(server, "from 203.0.113.9 refused: too many failed calls"));
  SECTION("another address is not held back") {
    CHECK(call(kToken, "198.51.100.3").status == 200);
    CHECK(call("wrong", "198.51.100.3").status == 401);
  }
  SECTION("nor is this machine, which is never limited by address") {
    for (int i = 0; i < 10; ++i) CHECK(call("wrong", "").status == 401);
    CHECK(call(kToken, "").status == 200);
    CHECK(logged(server, "from this machine refused: no valid token"));
  }
  SECTION("/metrics counts them") {
    auto metrics = http_get(server.port(), "/metrics").body;
    CHECK_THAT(metrics, Catch::Contains("tanbo_admin_refused_total{reason=\"unauthorized\"} 5"));
    CHECK_THAT(metrics, Catch::Contains("tanbo_admin_refused_total{reason=\"throttled\"} 2"));
  }
}
