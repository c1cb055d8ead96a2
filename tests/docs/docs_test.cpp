// The repository's documents stand alone and say what the code does: every ruling the code
// cites is stated in the rulebook, nothing points outside the repository, and the README's two
// commands build what they say.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = TANBO_SOURCE_DIR;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> rule_pages() {
  std::vector<fs::path> out{kRoot / "docs/rules.md"};
  for (const auto& e : fs::directory_iterator(kRoot / "docs/rules"))
    if (e.path().extension() == ".md") out.push_back(e.path());
  return out;
}

// Ruling ids (T4, M5, R1, ...) the sources under `dir` cite in their comments or test names.
std::set<std::string> cited(const fs::path& dir) {
  static const std::regex id(R"(\b([TSMZR])([1-9])\b)");
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    auto ext = e.path().extension();
    if (ext != ".cpp" && ext != ".hpp") continue;
    const std::string text = read(e.path());
    for (std::sregex_iterator it(text.begin(), text.end(), id), end; it != end; ++it) {
      const char game = (*it)[1].str()[0];
      const int n = (*it)[2].str()[0] - '0';
      const int most = game == 'T' ? 9 : game == 'S' ? 5 : game == 'M' ? 7 : game == 'Z' ? 8 : 6;
      if (n <= most) out.insert((*it)[0].str());
    }
  }
  return out;
}

}  // namespace

TEST_CASE("every ruling the code cites is stated in full in the rulebook", "[docs][rules]") {
  std::string rules;
  for (const auto& p : rule_pages()) rules += read(p) + "\n";
  auto ids = cited(kRoot / "engine");
  for (const auto& id : cited(kRoot / "server")) ids.insert(id);
  REQUIRE(ids.size() > 20);
  for (const auto& id : ids) {
    CAPTURE(id);
    // A definition: "**T4 Action.** ..." at the start of a line, or a heading "### T4 Action".
    const std::regex definition("(^|\\n)(\\*\\*" + id + "[ .]|#+ " + id + " )");
    CHECK(std::regex_search(rules, definition));
  }
}

TEST_CASE("the rulebook and the code point at nothing outside the repository", "[docs][rules]") {
  const std::regex outside(R"(RULINGS\.md|seeds/|\.\./shared)");
  std::vector<fs::path> files = rule_pages();
  for (auto dir : {"docs", "engine", "protocol", "server", "web"})
    for (const auto& e : fs::recursive_directory_iterator(kRoot / dir))
      if (e.is_regular_file()) files.push_back(e.path());
  for (const auto& f : files) {
    auto ext = f.extension();
    if (ext != ".md" && ext != ".cpp" && ext != ".hpp" && ext != ".js" && ext != ".html") continue;
    CAPTURE(f.string());
    CHECK_FALSE(std::regex_search(read(f), outside));
  }
}

TEST_CASE("the README's run command builds the server alone, its test command everything",
          "[docs][readme]") {
  const std::string readme = read(kRoot / "README.md");
  CHECK_THAT(readme, Catch::Contains("cmake --build --preset server && "
                                     "build/release/server/tanbo-server"));
  CHECK_THAT(readme, Catch::Contains("cmake --build --preset asan && ctest --preset asan"));
  auto presets = nlohmann::json::parse(read(kRoot / "CMakePresets.json"));
  bool found = false;
  for (const auto& p : presets.at("buildPresets")) {
    if (p.at("name") == "server") {
      found = true;
      CHECK(p.at("configurePreset") == "release");
      CHECK(p.at("targets") == nlohmann::json{"tanbo-server"});
    }
    if (p.at("name") == "asan") CHECK_FALSE(p.contains("targets"));  // every target
  }
  CHECK(found);
}
