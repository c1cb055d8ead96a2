// A room's time control as arithmetic (server/rooms/room_clock.hpp): deadlines, a game clock's
// charges and increments, and what a state shows, with the time passed in.
#include "server/rooms/room_clock.hpp"

#include <catch2/catch.hpp>

using namespace tanbo_server;
using namespace tanbo_server::server;
using protocol::RoomStatus;
using protocol::TimeControl;

namespace {

constexpr auto kClockSecond = std::chrono::milliseconds(10);
constexpr auto kClockDefaultDay = std::chrono::milliseconds(0);

}  // namespace

TEST_CASE("room clock: no time control has no deadline and shows nothing", "[rooms][clocks]") {
  RoomClock c(TimeControl{}, kClockSecond, kClockDefaultDay);
  c.start(1'000, 2, 0);
  CHECK_FALSE(c.timed());
  CHECK_FALSE(c.loses_on_time());
  CHECK(c.deadline() == 0);
  CHECK_FALSE(c.due(1'000'000));
  protocol::Clock view;
  std::vector<std::int64_t> shown;
  CHECK_FALSE(c.view(view, shown, 2'000, RoomStatus::playing, 0));
}

TEST_CASE("room clock: a per-decision deadline counts from the last step", "[rooms][clocks]") {
  RoomClock c(TimeControl::per_decision(30), kClockSecond, kClockDefaultDay);
  c.start(1'000, 2, 0);
  CHECK(c.per_decision());
  CHECK_FALSE(c.loses_on_time());
  CHECK(c.deadline() == 1'300);
  CHECK_FALSE(c.due(1'299));
  CHECK(c.due(1'300));
  c.stepped(5'000);
  CHECK(c.deadline() == 5'300);
  c.turned(6'000, 0, 1);  // a turn is a game clock's business
  CHECK(c.deadline() == 5'300);
  CHECK(c.remaining().empty());
}

TEST_CASE("room clock: a game clock charges the running seat and credits the increment",
          "[rooms][clocks]") {
  RoomClock c(TimeControl::clock(60, 5), kClockSecond, kClockDefaultDay);
  c.start(1'000, 2, 0);
  CHECK(c.loses_on_time());
  CHECK(c.remaining() == std::vector<std::int64_t>{600, 600});
  CHECK(c.deadline() == 1'600);
  c.stepped(1'200);
  c.turned(1'200, 0, 1);  // seat 0 spent 200 ms, earns 50
  CHECK(c.remaining() == std::vector<std::int64_t>{450, 600});
  CHECK(c.deadline() == 1'800);
  c.turned(1'300, engine::kNoSeat, 0);  // a resignation or a time-out earns nothing
  CHECK(c.remaining() == std::vector<std::int64_t>{450, 500});
  CHECK(c.deadline() == 1'750);
  CHECK_FALSE(c.due(1'749));
  CHECK(c.due(1'750));
}

TEST_CASE("room clock: a seat's time never goes below zero nor back in time", "[rooms][clocks]") {
  RoomClock c(TimeControl::clock(1, 0), kClockSecond, kClockDefaultDay);
  c.start(1'000, 2, 0);
  c.turned(5'000, 0, 1);  // far past its 10 ms
  CHECK(c.remaining() == std::vector<std::int64_t>{0, 10});
  c.turned(4'000, 1, 0);  // a clock stepped back charges nothing
  CHECK(c.remaining() == std::vector<std::int64_t>{0, 10});
}

TEST_CASE("room clock: a finished game's clock stops and is still shown", "[rooms][clocks]") {
  RoomClock c(TimeControl::clock(60, 0), kClockSecond, kClockDefaultDay);
  c.start(1'000, 2, 0);
  c.turned(1'100, 0, engine::kNoSeat);
  CHECK(c.deadline() == 0);
  CHECK_FALSE(c.due(1'000'000));
  protocol::Clock view;
  std::vector<std::int64_t> shown;
  REQUIRE(c.view(view, shown, 9'000, RoomStatus::finished, engine::kNoSeat));
  CHECK(view.seat == engine::kNoSeat);
  CHECK(view.deadline_ms == 0);
  CHECK(shown == std::vector<std::int64_t>{500, 600});
  CHECK(std::vector<std::int64_t>(view.remaining.begin(), view.remaining.end()) == shown);
}

TEST_CASE("room clock: a state shows the running seat's time counted down", "[rooms][clocks]") {
  RoomClock c(TimeControl::clock(60, 2), kClockSecond, kClockDefaultDay);
  c.start(1'000, 3, 1);
  protocol::Clock view;
  std::vector<std::int64_t> shown;
  REQUIRE(c.view(view, shown, 1'250, RoomStatus::playing, 1));
  CHECK(view.control == TimeControl::Kind::clock);
  CHECK(view.at_ms == 1'250);
  CHECK(view.seat == 1);
  CHECK(view.deadline_ms == 1'600);
  CHECK(view.left_ms == 350);
  CHECK(view.increment_ms == 20);
  CHECK(shown == std::vector<std::int64_t>{600, 350, 600});
  REQUIRE(c.view(view, shown, 9'000, RoomStatus::playing, 1));
  CHECK(view.left_ms == 0);
  CHECK(shown[1] == 0);
  CHECK(c.remaining() == std::vector<std::int64_t>{600, 600, 600});  // showing charges nobody
  CHECK_FALSE(c.view(view, shown, 1'250, RoomStatus::waiting, engine::kNoSeat));
}

TEST_CASE("room clock: correspondence days, the default day 86,400 timer seconds",
          "[rooms][clocks]") {
  RoomClock by_default(TimeControl::correspondence(2), kClockSecond, kClockDefaultDay);
  by_default.start(1'000, 2, 0);
  CHECK(by_default.loses_on_time());
  CHECK(by_default.deadline() == 1'000 + 2 * 864'000);
  RoomClock short_days(TimeControl::correspondence(3), kClockSecond,
                       std::chrono::milliseconds(600));
  short_days.start(1'000, 2, 0);
  short_days.stepped(2'000);
  CHECK(short_days.deadline() == 3'800);
  protocol::Clock view;
  std::vector<std::int64_t> shown;
  CHECK_FALSE(short_days.view(view, shown, 2'000, RoomStatus::finished, engine::kNoSeat));
  REQUIRE(short_days.view(view, shown, 2'000, RoomStatus::playing, 0));
  CHECK(view.left_ms == 1'800);
  CHECK(view.remaining.empty());
}

TEST_CASE("room clock: a restored game clock keeps its times, the downtime charged to nobody",
          "[rooms][clocks]") {
  RoomClock c(TimeControl::clock(60, 0), kClockSecond, kClockDefaultDay);
  c.start(50'000, 2, 1);  // the server is back at 50 s
  c.restore(2'000, {420, 310});
  CHECK(c.last_step() == 2'000);
  CHECK(c.remaining() == std::vector<std::int64_t>{420, 310});
  CHECK(c.deadline() == 50'310);
  c.restore(2'000, {1, 2, 3});  // not one per seat: the base times stay
  CHECK(c.remaining() == std::vector<std::int64_t>{420, 310});

  RoomClock waiting(TimeControl::clock(60, 0), kClockSecond, kClockDefaultDay);
  waiting.start(50'000, 0, engine::kNoSeat);  // no game started
  waiting.restore(2'000, {});
  CHECK(waiting.remaining().empty());
  CHECK(waiting.deadline() == 0);
}

TEST_CASE("room clock: the timer settings a room journals and the control they hold",
          "[rooms][clocks]") {
  for (const auto& tc : {TimeControl{}, TimeControl::per_decision(30), TimeControl::clock(300, 2),
                         TimeControl::correspondence(3)})
    CHECK(time_control_of(timer_settings(tc)) == tc);
  CHECK(timer_settings(TimeControl::per_decision(60)) ==
        engine::Json{{"seconds", 60}, {"takeover", "greedy"}});
  CHECK(time_control_of(engine::Json{{"seconds", 30}, {"takeover", "mcts"}}) ==
        TimeControl::per_decision(30));
  CHECK(time_control_of(nullptr) == TimeControl{});
  CHECK(time_control_of(engine::Json{{"spectator_chat", false}}) == TimeControl{});
}
