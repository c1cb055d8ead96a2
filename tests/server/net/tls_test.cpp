#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "server/config.hpp"
#include "server/net/probe.hpp"
#include "tests/server/net/tls_support.hpp"
#include "tests/server/recovery/server_process.hpp"
#include "tests/server/rooms/fixture.hpp"
#include "tests/server/support/child_process.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;
using namespace std::chrono_literals;

namespace {

Config tls_config(const SelfSigned& files) {
  Config c = rooms_config();
  c.tls_cert = files.cert.string();
  c.tls_key = files.key.string();
  return c;
}

ParseOutcome parse_tls(std::vector<std::string_view> args) {
  return parse_config(args, [](const std::string&) { return std::nullopt; });
}

// A seat of a game played over wss://: its connection, its token, the last state it read.
struct TlsSeat {
  std::unique_ptr<WssClient> ws;
  std::string token;
  nlohmann::json last;
};

// Reads until a state of `version` or later; an error throws.
nlohmann::json tls_state(WssClient& c, std::uint64_t version) {
  for (;;) {
    auto m = c.next();
    if (m.at("type") == "error") throw std::runtime_error("error: " + m.dump());
    if (m.at("type") == "state" && m.at("version").get<std::uint64_t>() >= version) return m;
  }
}

// One move: the seat holding the legal list at the current version plays its first action, and
// both seats read the next version.
void tls_move(std::vector<TlsSeat>& seats, const std::string& room) {
  const std::uint64_t v = seats[0].last.at("version");
  TlsSeat* mover = nullptr;
  for (auto& s : seats)
    if (s.last.at("version") == v && s.last.contains("legal")) mover = &s;
  REQUIRE(mover);
  mover->ws->send(
      {{"type", "act"}, {"room", room}, {"version", v}, {"action", mover->last.at("legal")[0]}});
  for (auto& s : seats) s.last = tls_state(*s.ws, v + 1);
}

}  // namespace

TEST_CASE(
    "TLS: with a certificate the same server speaks wss:// and https:// and refuses plain TCP",
    "[net][tls]") {
  SelfSigned files;
  RoomsServer fx(tls_config(files));

  SECTION("a wss client says hello and gets its welcome") {
    auto replies = wss_exchange(fx.port(), {R"({"type":"hello","id":1,"name":"Ada"})"}, 1);
    REQUIRE(replies.size() == 1);
    auto welcome = nlohmann::json::parse(replies[0]);
    CHECK(welcome.at("type") == "welcome");
    CHECK(welcome.at("re") == 1);
    CHECK(welcome.at("player").at("name") == "Ada");
    CHECK(schema_problems(welcome).empty());
  }
  SECTION("GET /healthz over https answers 200 ok") {
    auto r = https_get(fx.port(), "/healthz");
    CHECK(r.status == 200);
    CHECK(nlohmann::json::parse(r.body).at("status") == "ok");
  }
  SECTION("every answer over TLS carries Strict-Transport-Security, with the other headers") {
    for (const char* target : {"/healthz", "/api/rooms", "/no-such-file.js", "/ws"}) {
      INFO(target);
      auto r = https_get(fx.port(), target);
      CHECK(r.headers["strict-transport-security"] == "max-age=31536000");
      CHECK(r.headers["x-frame-options"] == "DENY");
      CHECK(r.headers["x-content-type-options"] == "nosniff");
      CHECK_THAT(r.headers["content-security-policy"], Catch::Contains("frame-ancestors 'none'"));
    }
  }
  SECTION("a plain HTTP or WebSocket client gets no answer, and the failure is counted") {
    CHECK_THROWS(http_get(fx.port(), "/healthz"));
    CHECK_THROWS(WsClient(fx.port()));
    CHECK(fx.server.server.context().counters.tls_failed.load() >= 2);
    // The server still serves TLS clients afterwards.
    CHECK(https_get(fx.port(), "/healthz").status == 200);
  }
  SECTION("the healthcheck probe speaks TLS when told to, without verifying the certificate") {
    std::string detail;
    CHECK(probe_healthz("127.0.0.1", fx.port(), 3s, detail, /*tls=*/true));
    CHECK_THAT(detail, Catch::StartsWith("200"));
    CHECK_FALSE(probe_healthz("127.0.0.1", fx.port(), 3s, detail, /*tls=*/false));
  }
}

TEST_CASE("TLS: a game played to its end over wss://, one player resuming its seat midway",
          "[net][tls]") {
  SelfSigned files;
  DataDir dir;
  ServerProcess fx(dir, {"--tls-cert", files.cert.string(), "--tls-key", files.key.string()});
  std::vector<TlsSeat> seats(2);
  for (std::size_t i = 0; i < seats.size(); ++i) {
    seats[i].ws = std::make_unique<WssClient>(fx.port());
    seats[i].ws->send({{"type", "hello"}, {"id", 1}, {"name", i == 0 ? "Ana" : "Bo"}});
    seats[i].token = seats[i].ws->expect("welcome").at("token");
  }
  seats[0].ws->send({{"type", "create"},
                     {"id", 2},
                     {"game", "mancala-simple"},
                     {"seats", 2},
                     {"options", {{"first", 0}}}});
  const std::string room = seats[0].ws->expect("created").at("room");
  tls_state(*seats[0].ws, 0);
  seats[1].ws->send({{"type", "join"}, {"room", room}, {"as", "player"}});
  for (auto& s : seats) s.last = tls_state(*s.ws, 1);
  REQUIRE(seats[0].last.at("status") == "playing");
  for (int k = 0; k < 4; ++k) tls_move(seats, room);

  // Bo's connection goes; his token brings him back to his seat at the version he left.
  const std::uint64_t left_at = seats[1].last.at("version");
  seats[1].ws->close();
  seats[1].ws = std::make_unique<WssClient>(fx.port());
  seats[1].ws->send({{"type", "hello"}, {"id", 3}, {"token", seats[1].token}});
  const auto welcome = seats[1].ws->expect("welcome");
  CHECK(welcome.at("player").at("name") == "Bo");
  CHECK(welcome.at("seats") == nlohmann::json{{{"room", room}, {"seat", 1}}});
  seats[1].ws->send({{"type", "join"}, {"room", room}, {"as", "player"}});
  seats[1].last = tls_state(*seats[1].ws, left_at);
  CHECK(seats[1].last.at("version") == left_at);
  CHECK(seats[1].last.at("state") == seats[0].last.at("state"));
  // And what happened since two versions back, as a client that saw only those asks for it.
  seats[1].ws->send({{"type", "resume"}, {"id", 4}, {"room", room}, {"version", left_at - 2}});
  nlohmann::json resumed;
  do resumed = seats[1].ws->next();
  while (resumed.at("type") == "state");
  REQUIRE(resumed.at("type") == "resumed");
  CHECK(resumed.at("version") == left_at);
  CHECK(resumed.at("gap") == false);
  REQUIRE(resumed.at("steps").size() == 2);
  CHECK(resumed.at("steps")[1].at("version") == left_at);

  int moves = 4;
  while (seats[0].last.at("status") == "playing" && moves < 500) {
    tls_move(seats, room);
    ++moves;
  }
  CHECK(seats[0].last.at("status") == "finished");
  CHECK(seats[1].last.at("result") == seats[0].last.at("result"));
  const auto record = https_get(fx.port(), "/api/games/" + room + "-1");
  REQUIRE(record.status == 200);
  CHECK(nlohmann::json::parse(record.body).at("status") == "finished");
  for (auto& s : seats) s.ws->close();
  CHECK(fx.terminate() == std::optional<int>(0));
}

TEST_CASE("TLS: --tls-cert and --tls-key go together and bad files are named", "[net][tls]") {
  SelfSigned files, other;
  const std::string cert = files.cert.string(), key = files.key.string();

  SECTION("both load: the configuration keeps them") {
    auto c = parse_tls({"--tls-cert", cert, "--tls-key", key});
    REQUIRE(std::holds_alternative<Config>(c));
    CHECK(std::get<Config>(c).tls_cert == cert);
  }
  SECTION("one without the other is an error") {
    auto c = parse_tls({"--tls-cert", cert});
    REQUIRE(std::holds_alternative<ConfigError>(c));
    CHECK_THAT(std::get<ConfigError>(c).message, Catch::Contains("give both or neither"));
  }
  SECTION("a missing file is named") {
    auto missing = (files.dir / "nope.pem").string();
    auto c = parse_tls({"--tls-cert", missing, "--tls-key", key});
    REQUIRE(std::holds_alternative<ConfigError>(c));
    CHECK_THAT(std::get<ConfigError>(c).message, Catch::Contains(missing));
  }
  SECTION("a file that is no certificate is named") {
    auto junk = (files.dir / "junk.pem").string();
    std::ofstream(junk) << "not a certificate\n";
    auto c = parse_tls({"--tls-cert", junk, "--tls-key", key});
    REQUIRE(std::holds_alternative<ConfigError>(c));
    CHECK_THAT(std::get<ConfigError>(c).message, Catch::Contains("--tls-cert " + junk));
  }
  SECTION("the key of another certificate is named") {
    auto c = parse_tls({"--tls-cert", cert, "--tls-key", other.key.string()});
    REQUIRE(std::holds_alternative<ConfigError>(c));
    CHECK_THAT(std::get<ConfigError>(c).message, Catch::Contains(other.key.string()));
  }
  SECTION("tanbo-server exits 2 at start, naming the file") {
    auto junk = (files.dir / "junk.pem").string();
    std::ofstream(junk) << "not a key\n";
    ChildProcess p(TANBO_SERVER_BINARY,
                   {"--port", "0", "--data-dir", (files.dir / "data").string()},
                   {"TANBO_TLS_CERT=" + cert, "TANBO_TLS_KEY=" + junk});
    auto status = p.wait(10s);
    REQUIRE(status);
    CHECK(*status == 2);
    CHECK_THAT(p.stderr_text(), Catch::Contains(junk));
  }
}

TEST_CASE("TLS: tanbo-server --healthcheck probes a TLS server over TLS", "[net][tls]") {
  SelfSigned files;
  const std::string cert = files.cert.string(), key = files.key.string();
  ChildProcess server(TANBO_SERVER_BINARY,
                      {"--bind", "127.0.0.1", "--port", "0", "--threads", "1", "--data-dir",
                       (files.dir / "data").string(), "--tls-cert", cert, "--tls-key", key});
  auto line = server.wait_for_line("listening on 127.0.0.1:", 10s);
  REQUIRE(line);
  auto port = line->substr(line->rfind(':') + 1);
  port = port.substr(0, port.find(' '));

  ChildProcess tls_probe(TANBO_SERVER_BINARY, {"--healthcheck", "--bind", "127.0.0.1", "--port",
                                               port, "--tls-cert", cert, "--tls-key", key});
  auto ok = tls_probe.wait(10s);
  REQUIRE(ok);
  CHECK(*ok == 0);

  ChildProcess plain_probe(TANBO_SERVER_BINARY,
                           {"--healthcheck", "--bind", "127.0.0.1", "--port", port});
  auto refused = plain_probe.wait(10s);
  REQUIRE(refused);
  CHECK(*refused == 1);
}
