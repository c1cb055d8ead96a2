// The node's gate in front of the password checks, and the hashing thread's queue
// (server/accounts/login_gate.hpp, hashing_queue.hpp): checks under way per account and per
// address, attempts counted per address as they arrive, a device's own wait, and addresses served
// in turn by a queue of bounded size.
#include <catch2/catch.hpp>

#include <future>
#include <mutex>
#include <thread>

#include "server/accounts/accounts.hpp"
#include "server/accounts/hashing_queue.hpp"
#include "server/accounts/login_gate.hpp"

using namespace tanbo_server::server::accounts;
using namespace std::chrono_literals;
using Clock = LoginGate::Clock;

namespace {

bool passed_gate(const std::variant<LoginGate::Pass, LoginGate::Refused>& v) {
  return std::holds_alternative<LoginGate::Pass>(v);
}

LoginGate::Refusal refusal_of(const std::variant<LoginGate::Pass, LoginGate::Refused>& v) {
  return std::get<LoginGate::Refused>(v).why;
}

}  // namespace

TEST_CASE("one check at a time per account and two per address, given back with the pass",
          "[accounts][gate]") {
  LoginGate gate({1, 2, 20, 900s});
  const auto now = Clock::now();
  auto first = gate.admit("a", "ana", now);
  REQUIRE(passed_gate(first));
  CHECK(refusal_of(gate.admit("b", "ana", now)) == LoginGate::Refusal::busy);  // the account's
  auto second = gate.admit("a", "bo", now);
  REQUIRE(passed_gate(second));
  CHECK(refusal_of(gate.admit("a", "cy", now)) == LoginGate::Refusal::busy);  // the address's
  std::get<LoginGate::Pass>(first).release();
  CHECK(passed_gate(gate.admit("b", "ana", now)));  // a pass dropped at once gives its place back
  CHECK(passed_gate(gate.admit("a", "ana", now)));
  SECTION("the machine itself is never held back by address") {
    std::vector<std::variant<LoginGate::Pass, LoginGate::Refused>> held;
    for (int i = 0; i < 10; ++i) held.push_back(gate.admit("", "user" + std::to_string(i), now));
    for (const auto& h : held) CHECK(passed_gate(h));
  }
}

TEST_CASE("an address's attempts count as they arrive, and too many make it wait out the period",
          "[accounts][gate]") {
  LoginGate gate({1, 2, 3, 60s});
  const auto t0 = Clock::now();
  for (int i = 0; i < 3; ++i) REQUIRE(passed_gate(gate.admit("a", "u" + std::to_string(i), t0)));
  auto locked = gate.admit("a", "u9", t0 + 10s);
  REQUIRE_FALSE(passed_gate(locked));
  CHECK(refusal_of(locked) == LoginGate::Refusal::address_locked);
  CHECK(std::get<LoginGate::Refused>(locked).retry_after == 50s);
  CHECK(passed_gate(gate.admit("b", "u9", t0 + 10s)));  // another address
  SECTION("a right password gives its attempt back") {
    gate.succeeded("a", {});
    CHECK(passed_gate(gate.admit("a", "u9", t0 + 10s)));
  }
  SECTION("the period that began with the first attempt ends") {
    CHECK(passed_gate(gate.admit("a", "u9", t0 + 61s)));
  }
}

TEST_CASE("a device waits by its own failures, on the account's schedule", "[accounts][gate]") {
  LoginGate gate({1, 2, 20, 900s});
  Rules rules;
  auto wait = [&](int n) { return wait_after(n, rules); };
  const auto t0 = Clock::now();
  for (int i = 0; i < 5; ++i) CHECK(gate.device_turn("phone", t0, wait));
  CHECK_FALSE(gate.device_turn("phone", t0 + 999ms, wait));
  CHECK(gate.device_turn("tablet", t0, wait));  // each device its own
  CHECK(gate.device_turn("phone", t0 + 1s, wait));
  CHECK_FALSE(gate.device_turn("phone", t0 + 2s, wait));
  gate.succeeded({}, "phone");
  CHECK(gate.device_turn("phone", t0 + 2s, wait));
}

TEST_CASE("an account's waits: free attempts, then 1 s doubling up to the lockout",
          "[accounts][gate]") {
  Rules rules;
  rules.lockout = 900s;
  CHECK(wait_after(1, rules) == 0ms);
  CHECK(wait_after(4, rules) == 0ms);
  CHECK(wait_after(5, rules) == 1s);
  CHECK(wait_after(6, rules) == 2s);
  CHECK(wait_after(14, rules) == 512s);
  CHECK(wait_after(15, rules) == 900s);
  CHECK(wait_after(1000, rules) == 900s);
}

TEST_CASE("the hashing queue serves addresses in turn and refuses beyond its capacity",
          "[accounts][gate]") {
  HashingQueue queue(4);
  std::promise<void> started, release;
  auto go = release.get_future().share();
  REQUIRE(queue.post("a", [&] {
    started.set_value();
    go.wait();
  }));
  started.get_future().wait();  // under way: the four below wait
  std::mutex mutex;
  std::vector<std::string> order;
  auto job = [&](std::string tag) {
    return [&, tag] {
      std::lock_guard lock(mutex);
      order.push_back(tag);
    };
  };
  REQUIRE(queue.post("a", job("a1")));
  REQUIRE(queue.post("a", job("a2")));
  REQUIRE(queue.post("a", job("a3")));
  REQUIRE(queue.post("b", job("b1")));
  CHECK_FALSE(queue.post("c", job("c1")));  // full
  release.set_value();
  for (int i = 0; i < 500; ++i) {
    {
      std::lock_guard lock(mutex);
      if (order.size() == 4) break;
    }
    std::this_thread::sleep_for(10ms);
  }
  std::lock_guard lock(mutex);
  CHECK(order == std::vector<std::string>{"a1", "b1", "a2", "a3"});
}
