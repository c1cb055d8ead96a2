// docs/protocol.md's examples agree with themselves before any server plays them: a request's
// `ok` comes after the state it caused, and every clock figure follows the page's arithmetic.
// (tests/server/rooms/protocol_docs_test.cpp plays them against a running server.)
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <numeric>
#include <set>

#include "tests/support/protocol_examples.hpp"

using nlohmann::json;
using tanbo_server::test::Example;

namespace {

const std::filesystem::path kTree = TANBO_SOURCE_DIR;

std::vector<Example> page() {
  auto all = tanbo_server::test::protocol_examples((kTree / "docs/protocol.md").string());
  REQUIRE(all.size() > 30);
  return all;
}

bool has_event(const json& state, const std::string& type) {
  for (const auto& e : state.value("events", json::array()))
    if (e.value("type", "") == type) return true;
  return false;
}

int count_events(const json& state, std::initializer_list<const char*> types) {
  int n = 0;
  for (const auto& e : state.value("events", json::array()))
    for (const char* t : types) n += e.value("type", "") == t;
  return n;
}

// The game clocks the page's rooms were created with, by room: a `create` with a clock timer,
// then the `created` that answers it on the same connection.
struct Clocks {
  std::map<std::string, std::map<json, json>> asked;  // connection -> request id -> timer
  std::map<std::string, json> rooms;                  // room -> timer

  void read(const Example& e, const json& m) {
    if (e.client && m.value("type", "") == "create" && m.contains("timer") &&
        m["timer"].is_object() && m["timer"].value("type", "") == "clock")
      asked[e.connection][m.at("id")] = m["timer"];
    if (e.server && m.value("type", "") == "created")
      if (auto it = asked[e.connection].find(m.at("re")); it != asked[e.connection].end())
        rooms[m.at("room").get<std::string>()] = it->second;
  }
};

// The credits between two states of one room shown `steps` versions apart, as the page's
// arithmetic has them: one step, the increment to the seat that decided; several, only the
// total, the increment times the steps that were decisions.
void check_credited(const json& before, const json& after, std::int64_t increment) {
  const int steps = after.at("version").get<int>() - before.at("version").get<int>();
  const auto credited = tanbo_server::test::clock_credited(before.at("clock"), after.at("clock"));
  CAPTURE(before.at("version"), after.at("version"), json(credited).dump());
  const int decisions = steps - count_events(after, {"time", "resign"});
  if (steps == 1) {
    std::vector<std::int64_t> expected(credited.size(), 0);
    for (const auto& e : after.at("events"))
      if (e.value("type", "") == "action") expected.at(e.at("seat").get<std::size_t>()) = increment;
    CHECK(credited == expected);
  } else {
    CHECK(std::accumulate(credited.begin(), credited.end(), std::int64_t(0)) ==
          increment * decisions);
  }
  for (const auto& e : after.at("events"))
    if (e.value("type", "") == "time")
      CHECK(after.at("clock").at("remaining").at(e.at("seat").get<std::size_t>()) == 0);
}

}  // namespace

TEST_CASE("docs/protocol.md shows a request's ok after the state that request caused",
          "[docs][protocol]") {
  // Per connection, the (room, version) of each ok shown so far, with its line.
  std::map<std::string, std::map<std::pair<std::string, int>, int>> oks;
  int checked = 0;
  for (const auto& e : page()) {
    if (!e.server) continue;
    const json m = json::parse(e.text);
    if (!m.contains("room") || !m.contains("version")) continue;
    const std::pair key{m.at("room").get<std::string>(), m.at("version").get<int>()};
    if (m.at("type") == "ok") {
      oks[e.connection][key] = e.line;
      continue;
    }
    if (m.at("type") != "state") continue;
    ++checked;
    auto it = oks[e.connection].find(key);
    INFO("line " << e.line << ": the state of " << key.first << " v" << key.second << " to "
                 << e.connection);
    if (it != oks[e.connection].end()) FAIL("comes after its ok, line " << it->second);
  }
  CHECK(checked >= 5);
}

TEST_CASE("docs/protocol.md's clock figures follow its arithmetic", "[docs][protocol]") {
  Clocks clocks;
  std::map<std::string, json> last_state;  // room -> the last state shown with a clock
  int checked = 0;
  for (const auto& e : page()) {
    if (!(e.client || e.server || e.illustration) || e.raw) continue;
    const json m = json::parse(e.text);
    clocks.read(e, m);
    if (e.server &&
        m.value("type", "") == "my_games")  // a deadline there is the room's last one shown
      for (const auto& g : m.at("games"))
        if (g.contains("deadline")) {
          INFO("line " << e.line);
          REQUIRE(last_state.contains(g.at("room").get<std::string>()));
          CHECK(g.at("deadline") == last_state[g.at("room")].at("clock").at("deadline"));
        }
    if (m.value("type", "") != "state" || !m.contains("clock")) continue;
    INFO("line " << e.line << ": " << m.at("clock").dump());
    const json& clock = m.at("clock");
    CHECK(tanbo_server::test::clock_figures_error(clock).empty());
    ++checked;
    if (clock.at("control") != "clock") continue;
    const std::string room = m.at("room");
    REQUIRE(clocks.rooms.contains(room));  // the page shows the room's create
    const json& timer = clocks.rooms[room];
    const std::int64_t increment = timer.at("increment_s").get<std::int64_t>() * 1000;
    CHECK(clock.at("increment") == increment);
    if (has_event(m, "start"))
      for (const auto& r : clock.at("remaining"))
        CHECK(r == timer.at("base_s").get<std::int64_t>() * 1000);
    if (auto it = last_state.find(room);
        it != last_state.end() && it->second.at("version") != m.at("version"))
      check_credited(it->second, m, increment);
    if (!e.illustration) last_state[room] = m;  // an illustration is not the session's
  }
  CHECK(checked >= 3);
}

TEST_CASE("docs/README.md lists every document, and the README points to it", "[docs][readme]") {
  const std::string hub = [] {
    std::ifstream in(kTree / "docs/README.md");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }();
  int listed = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kTree / "docs")) {
    if (e.path().extension() != ".md" || e.path().filename() == "README.md") continue;
    const auto relative = std::filesystem::relative(e.path(), kTree / "docs").generic_string();
    CAPTURE(relative);
    CHECK(hub.find("](" + relative + ")") != std::string::npos);
    ++listed;
  }
  CHECK(listed >= 15);
  std::ifstream readme(kTree / "README.md");
  std::ostringstream text;
  text << readme.rdbuf();
  CHECK(text.str().find("](docs/README.md)") != std::string::npos);
}
