// Logins as an attacker tries them, on a real server process (docs/operations.md, "Security"):
// a burst for one account from many addresses is checked no faster than one attempt after
// another would be; one address's flood does not hold back a login from elsewhere; anyone can
// make an account wait, but not its owner's device, and the wait answers as a wrong password
// does, so that it tells nobody which usernames exist.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <thread>

#include "tests/server/accounts/support.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// The value of one series of /metrics (0 when absent).
double metric_value(std::uint16_t port, const std::string& series) {
  const std::string body = http_get(port, "/metrics").body;
  auto at = body.find("\n" + series + " ");
  if (at == std::string::npos) return 0;
  return std::stod(body.substr(at + series.size() + 2));
}

double checked_logins(std::uint16_t port) {
  return metric_value(port, "tanbo_logins_total{result=\"ok\"}") +
         metric_value(port, "tanbo_logins_total{result=\"bad_login\"}");
}

// `n` requests sent at once, each on a thread of its own: their answers, in order. One that gets
// no answer in time has status 0 and says why in its body.
template <class Request>
std::vector<HttpReply> at_once(int n, Request request) {
  std::vector<HttpReply> replies(static_cast<std::size_t>(n));
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      ++ready;
      while (ready.load() < n) std::this_thread::yield();
      try {
        replies[std::size_t(i)] = request(i);
      } catch (const std::exception& e) {
        replies[std::size_t(i)].body = e.what();
      }
    });
  for (auto& t : threads) t.join();
  return replies;
}

std::string address_of(int i) {
  return "198.51." + std::to_string(100 + i / 250) + "." + std::to_string(1 + i % 250);
}

// Wrong passwords until the account's next attempt must wait 4 s (5 free, then 1 s, 2 s, 4 s).
void make_ana_wait(std::uint16_t port) {
  for (int i = 0; i < 5; ++i)
    REQUIRE(http_login(port, "ana", "wrong " + std::to_string(i), address_of(i)).status == 401);
  std::this_thread::sleep_for(1100ms);
  REQUIRE(http_login(port, "ana", "wrong 5", address_of(5)).status == 401);
  std::this_thread::sleep_for(2100ms);
  REQUIRE(http_login(port, "ana", "wrong 6", address_of(6)).status == 401);
}

}  // namespace

TEST_CASE("a burst of 150 logins for one account is checked no faster than one after another",
          "[server][accounts][security]") {
  DataDir dir;
  ServerProcess server(dir, {"--trusted-proxies", "127.0.0.1"});
  ana_account(server.port());
  const double before = checked_logins(server.port());
  // 149 wrong passwords and the right one last, each from an address of its own.
  constexpr int kBurst = 150;
  const auto start = std::chrono::steady_clock::now();
  auto replies = at_once(kBurst, [&](int i) {
    return http_login(server.port(), "ana",
                      i == kBurst - 1 ? kPassword : "guess " + std::to_string(i), address_of(i));
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int busy = 0, refused = 0, ok = 0;
  for (const auto& r : replies) {
    busy += r.status == 429;
    refused += r.status == 401;
    ok += r.status == 200;
    CHECK((r.status == 429 || r.status == 401 || r.status == 200));
  }
  CAPTURE(busy, refused, ok, seconds);
  // The account's schedule: 5 attempts, then one after 1 s, 2 s, 4 s...: within the burst's
  // duration at most 5 + 1 + log2(1 + seconds) passwords can have been checked.
  const double checked = checked_logins(server.port()) - before;
  CHECK(checked <= 6 + std::log2(1 + seconds));
  CHECK(busy > kBurst / 2);  // answered at once, not checked
  CHECK(ok <= 1);
}

TEST_CASE(
    "one address's flood of logins is turned away at once, and a login from elsewhere "
    "is checked",
    "[server][accounts][security]") {
  DataDir dir;
  ServerProcess server(dir, {"--trusted-proxies", "127.0.0.1"});
  ana_account(server.port());
  const double before = checked_logins(server.port());
  const std::string flooder = "203.0.113.9";
  std::vector<HttpReply> flood;
  std::thread flooding([&] {
    flood = at_once(200, [&](int i) {
      return http_login(server.port(), "junk" + std::to_string(i), "junk junk junk", flooder);
    });
  });
  std::this_thread::sleep_for(100ms);
  HttpReply real;
  try {
    real = http_login(server.port(), "ana", kPassword, "192.0.2.44");
  } catch (const std::exception& e) {
    real.body = e.what();  // no answer in time: status 0
  }
  flooding.join();
  CAPTURE(real.body);
  CHECK(real.status == 200);
  int turned_away = 0;
  for (const auto& r : flood)
    if (r.status == 429) {
      ++turned_away;
      CHECK_THAT(r.body, Catch::Contains("rate_limited"));
      CHECK(r.retry_after == "1");
    }
  // Two at a time from one address: nearly all of the 200 are answered without a hash.
  CHECK(turned_away >= 180);
  CHECK(checked_logins(server.port()) - before <= 21);
  CHECK(metric_value(server.port(), "tanbo_logins_total{result=\"busy\"}") >= 180);
}

TEST_CASE("anyone can make an account wait, never its owner's device, and the wait tells nothing",
          "[server][accounts][security]") {
  DataDir dir;
  ServerProcess server(dir, {"--trusted-proxies", "127.0.0.1"});
  const std::string phone = ana_account(server.port()).token;
  make_ana_wait(server.port());

  // The right password from a new device is refused while the account waits, exactly as a wrong
  // one is, and as a username nobody holds is: no lock to tell a real name by.
  auto right = http_login(server.port(), "ana", kPassword, address_of(7));
  auto unknown = http_login(server.port(), "nobody here", kPassword, address_of(8));
  for (const auto* r : {&right, &unknown}) {
    CHECK(r->status == 401);
    CHECK(r->retry_after.empty());
    CHECK(json::parse(r->body).at("error") ==
          json{{"code", "bad_login"}, {"message", "wrong username or password"}});
  }
  ProtocolClient ws(server.port(), address_of(9));
  CHECK(login(ws, "ana").at("code") == "bad_login");
  // A token of another identity spares nothing.
  auto bo = guest(server.port(), "Bo");
  CHECK(http_login(server.port(), "ana", kPassword, address_of(13), bo.token).status == 401);
  CHECK(metric_value(server.port(), "tanbo_logins_total{result=\"delayed\"}") == 3);

  // The device that holds a token of the account gets in, over HTTP and over WebSocket.
  auto owner = http_login(server.port(), "ana", kPassword, address_of(10), phone);
  CHECK(owner.status == 200);
  ProtocolClient tablet(server.port(), address_of(11));
  CHECK(login(tablet, "ana", kPassword, phone).at("type") == "welcome");
  // ...and may change its password, which needs the current one.
  ProtocolClient own(server.port(), address_of(12));
  own.hello("", phone);
  own.send({{"type", "change_password"},
            {"id", "p"},
            {"current", kPassword},
            {"password", "a brand new passphrase"}});
  CHECK(own.next_but_states().at("type") == "ok");

  // The owner's new password starts the account's count again: a new device gets in at once.
  CHECK(http_login(server.port(), "ana", "a brand new passphrase", address_of(14)).status == 200);
}
