// protocol/lookalike/: names that could pass for others. Each impersonation of a name the server
// gives is refused, and the names people have are not.
#include <catch2/catch.hpp>

#include "protocol/lookalike/lookalike.hpp"
#include "protocol/text.hpp"

using namespace tanbo_server::protocol;

namespace {

bool alike(const std::string& a, const std::string& b) {
  for (const auto& k : lookalike_keys(a))
    for (const auto& l : lookalike_keys(b))
      if (k == l) return true;
  return false;
}

}  // namespace

TEST_CASE("names that look alike share a key", "[protocol][names][lookalike]") {
  auto [a, b] = GENERATE(table<std::string, std::string>({
      {"Ana", "Ana"},
      {"Ana", "ana"},
      {"Ana", "ANA"},
      {"Ana", "\u0410na"},            // a Cyrillic А
      {"Ana", "\u0430n\u0430"},       // two Cyrillic а
      {"Ana", "\uFF21\uFF4E\uFF41"},  // fullwidth
      {"Alice", "AIice"},             // a capital I for the l
      {"Alice", "A1ice"},             // a one
      {"Bob", "B0b"},                 // a zero
      {"Emma", "Ernrna"},             // rn for m
      {"Zo\u00EB", "Zoe\u0308"},      // composed or not
      {"Ana", "\u0391na"},            // a Greek Alpha
  }));
  CAPTURE(a, b);
  CHECK(alike(a, b));
}

TEST_CASE("names that do not look alike keep apart", "[protocol][names][lookalike]") {
  auto [a, b] = GENERATE(table<std::string, std::string>({
      {"Ana", "Anna"},
      {"Ana", "Ava"},
      {"Eve", "Eva"},
      {"Zo\u00EB", "Zoe"},
      {"Ana", "Ana B"},
      {"\u674E", "\u5B50"},  // 李, 子
  }));
  CAPTURE(a, b);
  CHECK_FALSE(alike(a, b));
}

TEST_CASE("names that look like the server's own are refused", "[protocol][names][lookalike]") {
  auto name = GENERATE(as<std::string>{}, "deleted player", "Deleted Player", "DELETED-PLAYER",
                       "deleted_player",
                       "d\u0435l\u0435ted player",  // Cyrillic е for the e
                       "Guest 1a2b", "Guest 1A2B", "guest_1a2b", "Guest1a2b", "Guest",
                       "\uFF27uest 1a2b",  // a fullwidth G (NFKC first)
                       "Gu\u0435st 1a2b",  // a Cyrillic е
                       "Guest 0000", "CPU", "CPU mcts", "cpu random", "CPU 2", "CPU-greedy",
                       "Computer", "Computer 2", "Ordinateur 1",
                       "\u30B3\u30F3\u30D4\u30E5\u30FC\u30BF\u30FC2",  // コンピューター2
                       "admin", "Admin", "ADMIN", "\u0410dmin", "Administrator", "Moderator", "mod",
                       "System", "server", "Tanbo", "Tanbo Staff", "tanbo-staff", "TanboAdmin",
                       "Ana Moderator", "Official Tanbo", "root", "Support");
  CAPTURE(name);
  REQUIRE(check_name(name).ok());  // well formed: refused for what it looks like
  auto why = reserved_name(check_name(name).name);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("looks like"));
}

TEST_CASE("names people have are not the server's", "[protocol][names][lookalike]") {
  auto name = GENERATE(as<std::string>{}, "Ana", "Guest Star", "Gustave", "Computer Science",
                       "Badminton", "Admiral", "Modesty", "Servane", "Systema", "Tanbo Fan",
                       "O'Brien", "N\u2019Diaye", "Nguy\u1EC5n", "Deleted", "Player One", "Cupcake",
                       "Cpt Ana", "\u30BF\u30CA\u30AB", "Ana Staffs");
  CAPTURE(name);
  REQUIRE(check_name(name).ok());
  CHECK_FALSE(reserved_name(check_name(name).name));
}
