#include <spdlog/sinks/base_sink.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/metrics/log_budget.hpp"
#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;
using namespace std::chrono_literals;

namespace {

// Keeps every formatted line in memory.
class LineSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  std::vector<std::string> lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    lines_.emplace_back(msg.payload.data(), msg.payload.size());
  }
  void flush_() override {}

 private:
  std::vector<std::string> lines_;
};

// The process's default logger replaced by one writing to a LineSink, for the scope. It must
// outlive every thread that may log: spdlog::info reaches the default logger by a raw pointer,
// so restoring the previous one while a session still logs frees the logger under it.
struct CapturedLog {
  CapturedLog() : previous(spdlog::default_logger()) { spdlog::set_default_logger(logger); }
  ~CapturedLog() { spdlog::set_default_logger(previous); }
  void listen() { logger->set_level(spdlog::level::info); }

  std::size_t count(std::string_view needle) {
    std::size_t n = 0;
    for (const auto& l : sink->lines()) n += l.find(needle) != std::string::npos;
    return n;
  }

  std::shared_ptr<LineSink> sink = std::make_shared<LineSink>();
  std::shared_ptr<spdlog::logger> logger = std::make_shared<spdlog::logger>("captured", sink);
  std::shared_ptr<spdlog::logger> previous;
};

}  // namespace

TEST_CASE("a flood of bad messages from many clients writes a bounded number of log lines",
          "[net][log]") {
  CapturedLog log;  // before the server, so the server's threads are joined before it goes
  RoomsServer fx;
  log.listen();  // after the server: InProcessServer sets the level of every logger to err
  metrics::LogBudget::Settings budget{5, 10, 200ms};
  metrics::rejection_log().reset(budget);

  constexpr int kClients = 40, kEach = 25;  // 1,000 rejections; 200 lines per connection alone
  std::vector<std::unique_ptr<ProtocolClient>> clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(std::make_unique<ProtocolClient>(fx.port()));
  auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < kEach; ++k)
    for (auto& c : clients) c->send_raw("{not json");
  for (auto& c : clients)
    for (int k = 0; k < kEach; ++k) REQUIRE(c->expect("error").at("code") == "bad_json");
  std::this_thread::sleep_for(250ms);
  clients[0]->send_raw("{not json");  // past the summary period: the count of those not logged
  clients[0]->expect("error");
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  auto logged = log.count("rejected bad_json");
  CAPTURE(logged, elapsed);
  CHECK(logged >= 1);
  CHECK(double(logged) <= budget.burst + budget.per_second * elapsed + 1);
  CHECK(log.count("rejected messages not logged") >= 1);
  // A connection's own bucket passes its first lines on to the server-wide one, which refuses.
  CHECK(metrics::rejection_log().not_logged_total() >= std::uint64_t(kClients * 5) - logged);
  metrics::rejection_log().reset({});
}

TEST_CASE("the log budget refills at its rate and reports what it refused", "[net][log]") {
  metrics::LogBudget b("things", {1000, 3, 1h});
  CHECK(b.take());
  CHECK(b.take());
  CHECK(b.take());
  CHECK_FALSE(b.take());
  CHECK(b.not_logged_total() == 1);
  std::this_thread::sleep_for(20ms);  // 1,000 a second: the bucket is full again
  CHECK(b.take());
}
