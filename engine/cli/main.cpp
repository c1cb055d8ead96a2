// tanbo-engine: the engine on the command line. games, selfplay, replay, verify, arena.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "engine/cli/arena.hpp"
#include "engine/cli/args.hpp"
#include "engine/cli/selfplay.hpp"
#include "engine/cli/verify.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

namespace {

using namespace tanbo_server::engine;

constexpr const char* kUsage = R"(usage: tanbo-engine COMMAND [ARGS]

commands:
  games                          the registry of games and their options, as JSON
  selfplay --game G [--options JSON] [--players K] [--games N] [--seed S] [--record DIR]
                                 N uniformly random legal games; prints one JSON summary
  replay FILE                    replays a record; one JSON line per action with the state after it
  verify FILE                    checks a finished game's record: seed against commitment, every
                                 recorded event and draw, the result; prints "verified" or the
                                 first mismatch (exit 1)
  arena --game G --a LEVEL --b LEVEL [--games N] [--options JSON] [--players K] [--seed S]
        [--budget-ms MS] [--playouts P] [--playout-depth D]
                                 bots (random, greedy, mcts) against each other, swapping seats
                                 every game; prints one JSON: wins, draws, decision times
)";

int usage_error(const std::string& what) {
  std::cerr << "tanbo-engine: " << what << "\n" << kUsage;
  return 2;
}

// --flag value pairs after the command; every flag must be in `known`.
bool parse_flags(int argc, char** argv, int from, const std::vector<std::string>& known,
                 std::map<std::string, std::string>& out, std::string& error) {
  for (int i = from; i < argc; ++i) {
    std::string flag = argv[i];
    if (std::find(known.begin(), known.end(), flag) == known.end())
      return error = "unknown argument " + flag, false;
    if (i + 1 >= argc) return error = flag + " needs a value", false;
    out[flag] = argv[++i];
  }
  return true;
}

int cmd_games() {
  Json out = Json::array();
  for (const GameInfo* g : all_games()) out.push_back(g->to_json());
  std::cout << out.dump(2) << "\n";
  return 0;
}

int cmd_selfplay(int argc, char** argv) {
  std::map<std::string, std::string> f;
  std::string error;
  if (!parse_flags(argc, argv, 2,
                   {"--game", "--options", "--players", "--games", "--seed", "--record"}, f, error))
    return usage_error(error);
  if (!f.count("--game")) return usage_error("selfplay needs --game");
  SelfplayConfig config;
  config.game = f["--game"];
  if (f.count("--options")) {
    config.options = Json::parse(f["--options"], nullptr, false);
    if (config.options.is_discarded()) return usage_error("--options is not valid JSON");
  }
  std::uint64_t n = 0;
  if (f.count("--players")) {
    if (!parse_count(f["--players"], n) || n > 16) return usage_error("bad --players");
    config.players = int(n);
  }
  if (f.count("--games") && !parse_count(f["--games"], config.games))
    return usage_error("bad --games");
  if (f.count("--seed") && !parse_count(f["--seed"], config.seed)) return usage_error("bad --seed");
  std::function<void(std::uint64_t, const Record&)> on_record;
  if (f.count("--record")) {
    std::filesystem::path dir = f["--record"];
    std::filesystem::create_directories(dir);
    on_record = [dir](std::uint64_t i, const Record& r) {
      Json j = r.to_json();
      j["commit"] = seed_commitment(r.seed);
      std::ofstream(dir / (std::to_string(i) + ".json")) << j.dump() << "\n";
    };
  }
  try {
    std::cout << selfplay(config, on_record).dump() << "\n";
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  return 0;
}

bool read_json_file(const std::string& path, Json& out, std::string& error) {
  std::ifstream in(path);
  if (!in) return error = "cannot read " + path, false;
  out = Json::parse(in, nullptr, false);
  if (out.is_discarded()) return error = path + " is not valid JSON", false;
  return true;
}

int cmd_replay(int argc, char** argv) {
  if (argc != 3) return usage_error("replay takes one FILE");
  Json j;
  std::string error;
  if (!read_json_file(argv[2], j, error)) return std::cerr << "tanbo-engine: " << error << "\n", 1;
  auto record = Record::from_json(j, error);
  if (!record) return std::cerr << "tanbo-engine: bad record: " << error << "\n", 1;
  Replay r = replay(*record, [&](std::size_t i, const Match& m) {
    std::cout << replay_line(*record, i, m).dump() << "\n";
  });
  if (!r.match) {
    for (auto& p : r.problems)
      std::cerr << "tanbo-engine: " << p.field << ": " << p.message << "\n";
    return 1;
  }
  if (r.refusal) {
    std::cout << Json{{"error", to_string(r.refusal->code)},
                      {"index", r.failed_at},
                      {"message", r.refusal->message}}
                     .dump()
              << "\n";
    return 1;
  }
  return 0;
}

int cmd_verify(int argc, char** argv) {
  if (argc != 3) return usage_error("verify takes one FILE");
  Json j;
  std::string error;
  if (!read_json_file(argv[2], j, error)) return std::cerr << "tanbo-engine: " << error << "\n", 1;
  Verdict v = verify_record(j);
  std::cout << (v.verified ? "verified" : "mismatch: " + v.mismatch) << "\n";
  return v.verified ? 0 : 1;
}

int cmd_arena(int argc, char** argv) {
  ArenaConfig config;
  std::string error;
  if (!parse_arena_args({argv + 2, argv + argc}, config, error)) return usage_error(error);
  try {
    std::cout << arena(config).dump() << "\n";
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage_error("missing command");
  std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") return std::cout << kUsage, 0;
  if (cmd == "games") return cmd_games();
  if (cmd == "selfplay") return cmd_selfplay(argc, argv);
  if (cmd == "replay") return cmd_replay(argc, argv);
  if (cmd == "verify") return cmd_verify(argc, argv);
  if (cmd == "arena") return cmd_arena(argc, argv);
  return usage_error("unknown command " + cmd);
}
