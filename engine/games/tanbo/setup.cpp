// T1 set-up: the standard one, or data per paddy validated against the component counts.
#include <string>

#include "engine/games/tanbo/game.hpp"

namespace tanbo_server::engine::games::tanbo {
namespace {

[[noreturn]] void bad(std::string field, std::string message) {
  throw BadSetup{std::move(field), std::move(message)};
}

int count_at(const Json& paddy, const char* key, const std::string& where, int most) {
  if (!paddy.contains(key)) return 0;
  const Json& v = paddy.at(key);
  if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > most)
    bad(where + "." + key, "expected an integer from 0 to " + std::to_string(most));
  return v.get<int>();
}

}  // namespace

State setup_from(const Json& setup) {
  State s;
  if (setup.is_null()) {  // T1: 2 snakes a paddy, 30 rice in the bag, no Farmer placed yet
    for (Ring& ring : s.ring)
      for (Tokens& p : ring) p.n[Snake] = 2;
    for (int c = 0; c < kColours; ++c) s.bag.n[c] = std::uint8_t(kRice[c]);
    return s;
  }
  if (!setup.is_object()) bad("setup", "expected null or an object {\"rings\": [...]}");
  for (const auto& [key, value] : setup.items())
    if (key != "rings") bad("setup." + key, "unknown set-up field");
  if (!setup.contains("rings")) bad("setup.rings", "missing");
  const Json& rings = setup.at("rings");
  if (!rings.is_array() || rings.size() != kSeats)
    bad("setup.rings", "expected 2 rings (one per seat)");
  int snakes = 0;
  std::array<int, kColours> rice{};
  for (int r = 0; r < kSeats; ++r) {
    const std::string ring_at = "setup.rings[" + std::to_string(r) + "]";
    const Json& ring = rings.at(r);
    if (!ring.is_array() || ring.size() != kPaddies) bad(ring_at, "expected 5 paddies");
    int farmers = 0;
    for (int p = 0; p < kPaddies; ++p) {
      const std::string at = ring_at + "[" + std::to_string(p) + "]";
      const Json& paddy = ring.at(p);
      if (!paddy.is_object()) bad(at, "expected an object {snakes, yellow, black, red, farmer}");
      for (const auto& [key, value] : paddy.items())
        if (key != "snakes" && key != "yellow" && key != "black" && key != "red" && key != "farmer")
          bad(at + "." + key, "unknown paddy field");
      Tokens& t = s.ring[r][p];
      t.n[Snake] = std::uint8_t(count_at(paddy, "snakes", at, kSnakes));
      t.n[Yellow] = std::uint8_t(count_at(paddy, "yellow", at, kRice[0]));
      t.n[Black] = std::uint8_t(count_at(paddy, "black", at, kRice[1]));
      t.n[Red] = std::uint8_t(count_at(paddy, "red", at, kRice[2]));
      if (paddy.contains("farmer")) {
        if (!paddy.at("farmer").is_boolean()) bad(at + ".farmer", "expected true or false");
        t.n[Farmer] = paddy.at("farmer").get<bool>();
        farmers += t.n[Farmer];
      }
      snakes += t.n[Snake];
      for (int c = 0; c < kColours; ++c) rice[c] += t.n[colour_token(c)];
    }
    if (farmers > 1) bad(ring_at, "a ring holds at most one Farmer");
  }
  if (snakes > kSnakes)
    bad("setup.snakes", "the set-up places " + std::to_string(snakes) + " snakes; there are 20");
  for (int c = 0; c < kColours; ++c)
    if (rice[c] > kRice[c])
      bad(std::string("setup.") + token_name(colour_token(c)),
          "the set-up places " + std::to_string(rice[c]) + " " + token_name(colour_token(c)) +
              " rice; there are " + std::to_string(kRice[c]));
  // T1: the pool and the bag hold whatever the set-up does not place.
  s.pool = std::uint8_t(kSnakes - snakes);
  for (int c = 0; c < kColours; ++c) s.bag.n[c] = std::uint8_t(kRice[c] - rice[c]);
  return s;
}

Options options_from(const Json& options) {
  Options o;
  o.replay_cascade = options.value("replay_cascade", o.replay_cascade);
  o.forbid_noop_swap = options.value("forbid_noop_swap", o.forbid_noop_swap);
  o.farmer_counts_toward_limit =
      options.value("farmer_counts_toward_limit", o.farmer_counts_toward_limit);
  o.stall_rounds = options.value("stall_rounds", o.stall_rounds);
  return o;
}

std::unique_ptr<Game> create(const CreateArgs& args) {
  State s = setup_from(args.setup);
  s.first = args.first;
  return TanboGame::from_setup(s, options_from(args.options));
}

}  // namespace tanbo_server::engine::games::tanbo
