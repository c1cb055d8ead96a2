#pragma once
// Games played by test clients across the nodes of a cluster, each room's members on different
// nodes, and the checks held against what they read: every member saw the same versions, no
// acknowledged action was lost, no refused one was applied, and the stored record replays to the
// end they saw. The cluster tests that strike mid-game (play_test.cpp, chaos_test.cpp) share it.
#include <catch2/catch.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/cluster/three_nodes.hpp"
#include "tests/server/support/replay_check.hpp"

namespace tanbo_server::server::test::cluster_games {

using namespace std::chrono_literals;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

// One member of a room: a player (seat >= 0) or a spectator, on some node.
struct Member {
  std::string name, token, id;
  int seat = -1;
  std::size_t node = 0;  // the node it is connected to (an index)
  std::unique_ptr<ProtocolClient> client;
  std::vector<std::uint64_t> versions;  // the versions of the states it read, each once
  json last;
};

// An error the server sent, as a member read it.
struct Refused : std::runtime_error {
  Refused(const std::string& what, json error)
      : std::runtime_error(what), error(std::move(error)) {}
  json error;
};

// One game, played by its own thread: seat 0 creates on node `home`, seat 1 joins on the next,
// the spectator watches on the one after.
struct Game {
  std::string game = "mancala-simple";
  std::string room;
  std::size_t home = 0;
  std::vector<Member> members;  // seat 0, seat 1, the spectator
  std::string commit;           // the seed's commitment, as the first state gave it
  std::uint64_t acked = 0;      // the highest version any member read
  bool in_flight = false;       // an act sent, its state not yet read by every member
  // Each time its connections were lost: what had been read, and where the room came back; and
  // the version of an act the server refused (an error other than unknown_outcome answered it).
  struct Loss {
    std::uint64_t acked = 0;
    bool in_flight = false;
    std::optional<std::uint64_t> refused;
    std::uint64_t after = 0;
  };
  std::vector<Loss> losses;
  std::size_t max_losses = 3;
  // How long a way back may take once nothing strikes any more: while `calm` (when given) is
  // false, faults keep coming, and a rejoin waits as long as they do.
  std::chrono::seconds rejoin_limit{30};
  const std::atomic<bool>* calm = nullptr;
  // How long a member waits for a message before it counts the server silent; and the losses
  // that were such silences, rather than a close or an error the server sent.
  std::chrono::milliseconds patience = kClientTimeout;
  int silences = 0;
  std::map<std::string, int> errors;               // the codes of the errors its members read
  std::map<std::string, std::string> first_error;  // the first of each code, whole
  std::string why;                                 // what ended each lost connection, one line each
  json final_state;
  std::string failure;  // set by the thread: Catch2 is not thread-safe
};

inline json read_state(Game& g, Member& m, std::uint64_t at_least) {
  for (;;) {
    json msg;
    try {
      msg = m.client->next();
    } catch (const std::exception& e) {
      throw std::runtime_error(m.name + " on node " + std::to_string(m.node % 3) +
                               ", waiting for " + std::to_string(at_least) + ": " + e.what());
    }
    if (msg.at("type") == "error") {
      ++g.errors[msg.at("code").get<std::string>()];
      g.first_error.try_emplace(msg.at("code").get<std::string>(), m.name + ": " + msg.dump());
      throw Refused(m.name + ": " + msg.dump(), msg);
    }
    if (msg.at("type") != "state") continue;
    if (g.commit.empty()) g.commit = msg.at("commit");
    if (msg.at("commit") != g.commit)
      throw std::logic_error("the seed's commitment changed: " + msg.dump());
    std::uint64_t v = msg.at("version");
    if (m.versions.empty() || m.versions.back() != v) m.versions.push_back(v);
    m.last = msg;
    if (v >= at_least) return msg;
  }
}

inline void connect(Member& m, std::uint16_t port, std::chrono::milliseconds patience) {
  m.client = std::make_unique<ProtocolClient>(port);
  m.client->ws().set_timeout(patience);
  auto w = m.client->hello(m.token.empty() ? m.name : "", m.token);
  if (m.token.empty()) {
    m.token = w.at("token");
    m.id = w.at("player").at("id");
  } else if (w.at("player").at("id") != m.id) {
    throw std::logic_error("the token brought another identity: " + w.dump());
  }
}

inline json join_message(const Game& g, const Member& m) {
  return {{"type", "join"}, {"room", g.room}, {"as", m.seat >= 0 ? "player" : "spectator"}};
}

inline void set_up(Game& g, const Cluster& c) {
  for (int i = 0; i < 3; ++i) {
    Member m;
    m.seat = i < 2 ? i : -1;
    m.name = i < 2 ? "Seat " + std::to_string(i) : "Watcher";
    m.node = g.home + std::size_t(i);
    connect(m, c.port_of(m.node), g.patience);
    g.members.push_back(std::move(m));
  }
  auto& creator = g.members[0];
  creator.client->send({{"type", "create"}, {"id", "c"}, {"game", g.game}});
  g.room = creator.client->expect("created").at("room");
  read_state(g, creator, 0);
  for (std::size_t i = 1; i < 3; ++i) g.members[i].client->send(join_message(g, g.members[i]));
  for (auto& m : g.members)
    g.acked = std::max<std::uint64_t>(g.acked, read_state(g, m, 1).at("version"));
}

// Each member connects again (to a live node, the next one round) and joins: as after any loss
// of its connection. A room between owners, or whose store is out, refuses meanwhile: retried.
inline void rejoin(Game& g, const Cluster& c) {
  auto deadline = Clock::now() + g.rejoin_limit;
  for (auto& m : g.members) {
    for (int attempt = 0;; ++attempt) {
      if (g.calm && !*g.calm) deadline = Clock::now() + g.rejoin_limit;
      try {
        m.node = m.node + 1;
        connect(m, c.live_port(m.node), g.patience);
        m.client->send(join_message(g, m));
        read_state(g, m, 0);
        break;
      } catch (const std::logic_error&) {
        throw;
      } catch (const std::exception& e) {
        if (Clock::now() > deadline)
          throw std::runtime_error("no way back into " + g.room + ": " + e.what());
        std::this_thread::sleep_for(200ms);
      }
    }
  }
  // Each join refreshed the seats (connected): read on until every member holds the newest.
  std::uint64_t v = 0;
  for (auto& m : g.members) v = std::max<std::uint64_t>(v, m.last.at("version"));
  for (auto& m : g.members)
    if (m.last.at("version") != v) read_state(g, m, v);
}

inline std::string act_id(std::uint64_t version) { return "a" + std::to_string(version); }

// Random legal actions until the end; throws when a connection is lost or an act refused.
inline void play(Game& g, std::mt19937& rng, const std::function<void()>& after_act) {
  for (;;) {
    const json& now = g.members[0].last;
    if (now.at("status") == "finished") return void(g.final_state = now);
    std::uint64_t v = now.at("version");
    Member* mover = nullptr;
    for (auto& m : g.members)
      if (m.seat >= 0 && m.last.contains("legal") && m.last.at("version") == v) mover = &m;
    if (!mover)
      throw std::runtime_error("nobody holds a legal list at version " + std::to_string(v));
    const json& legal = mover->last.at("legal");
    json action = legal.at(std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng));
    g.in_flight = true;
    mover->client->send(
        {{"type", "act"}, {"id", act_id(v)}, {"room", g.room}, {"version", v}, {"action", action}});
    // The mover first: the one who asked is the one owed an answer (a state, or an error that
    // says the act may not have landed); the others wait only for a state that was sent.
    g.acked = std::max<std::uint64_t>(g.acked, read_state(g, *mover, v + 1).at("version"));
    for (auto& m : g.members)
      if (&m != mover)
        g.acked = std::max<std::uint64_t>(g.acked, read_state(g, m, v + 1).at("version"));
    g.in_flight = false;
    if (after_act) after_act();
  }
}

// The version of the act `e` refuses for certain, if it is the answer to one: any error but
// unknown_outcome, which says the act may have landed.
inline std::optional<std::uint64_t> refused_act(const std::exception& e) {
  const auto* r = dynamic_cast<const Refused*>(&e);
  if (!r || r->error.at("code") == "unknown_outcome") return std::nullopt;
  const json re = r->error.value("re", json());
  if (!re.is_string() || re.get<std::string>().rfind('a', 0) != 0) return std::nullopt;
  return std::stoull(re.get<std::string>().substr(1));
}

// Plays `g` to its end; after a lost connection (when `losses_expected`) everyone rejoins. A
// client may lose its way more than once while its room moves (a join that reached the old node
// as it stopped): `max_losses` times at most.
inline void run_game(Game& g, const Cluster& c, unsigned seed, bool losses_expected,
                     const std::function<void()>& after_act = {}) {
  std::mt19937 rng(seed);
  try {
    // Under faults, even a new room may be refused or lose its way: then another is set up.
    for (auto deadline = Clock::now() + g.rejoin_limit;;) {
      if (g.calm && !*g.calm) deadline = Clock::now() + g.rejoin_limit;
      try {
        set_up(g, c);
        break;
      } catch (const std::logic_error&) {
        throw;
      } catch (const std::exception& e) {
        if (!losses_expected || Clock::now() > deadline) throw;
        g.why += std::string("set-up: ") + e.what() + "\n";
        g.members.clear();
        g.room.clear();
        g.commit.clear();
        g.acked = 0;
        std::this_thread::sleep_for(200ms);
      }
    }
    for (;;) {
      try {
        play(g, rng, after_act);
        return;
      } catch (const std::logic_error&) {
        throw;
      } catch (const std::exception& e) {
        if (!losses_expected || g.losses.size() == g.max_losses) throw;
        if (std::string_view(e.what()).find("timeout") != std::string_view::npos) ++g.silences;
        g.why += std::string(e.what()) + "\n";
        g.losses.push_back({g.acked, g.in_flight, refused_act(e)});
        g.in_flight = false;
        rejoin(g, c);
        g.losses.back().after = g.members[0].last.at("version");
      }
    }
  } catch (const std::exception& e) {
    g.failure = e.what();
  }
}

// The game's record, from any node (the store is shared), replays to what the players saw.
inline void check_record(const Game& g, std::uint16_t port) {
  CAPTURE(g.room);
  json record = get_json(port, "/api/games/" + g.room + "-1");
  REQUIRE(record.at("status") == "finished");
  CHECK(record.at("commit") == g.commit);
  check_replays_to(record, g.final_state);
}

// No acknowledged action lost: the room came back at the version its members last read (or
// one on, when an act was in flight and landed without its broadcast). No refused act applied:
// the room came back at the version the act was refused at.
inline void check_nothing_lost(const Game& g) {
  for (const auto& loss : g.losses) {
    CAPTURE(g.room, loss.acked, loss.in_flight, loss.after, g.why);
    if (loss.refused)
      CHECK(loss.after == *loss.refused);
    else if (loss.in_flight)
      CHECK((loss.after == loss.acked || loss.after == loss.acked + 1));
    else
      CHECK(loss.after == loss.acked);
  }
}

inline void check_games(const Cluster& c, const std::vector<Game>& games, std::size_t record_node) {
  for (const auto& g : games) {
    CAPTURE(g.room, g.losses.size());
    REQUIRE(g.failure == "");
    REQUIRE(g.final_state.at("status") == "finished");
    check_nothing_lost(g);
    check_record(g, c.port_of(record_node));
  }
}

inline void run_all(std::vector<Game>& games, const std::function<void(Game&, unsigned)>& body) {
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < games.size(); ++i)
    threads.emplace_back([&, i] { body(games[i], unsigned(i + 1)); });
  for (auto& t : threads) t.join();
}

}  // namespace tanbo_server::server::test::cluster_games
