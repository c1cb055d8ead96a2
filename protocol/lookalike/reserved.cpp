// The names the server gives, and its operators' titles, that nobody may choose
// (docs/protocol.md, "Names"). Each is compared by its lookalike key, with spaces and the
// punctuation of names set aside, so that "Guest_1a2b", "ＡＤＭＩＮ" and "Deleted-Player" are
// caught with the plain forms.
#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <set>
#include <vector>

#include "protocol/client.hpp"
#include "protocol/lookalike/lookalike.hpp"

namespace tanbo_server::protocol {
namespace {

std::u32string decoded(std::string_view utf8) {
  std::u32string out;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(utf8.data());
  for (std::size_t i = 0; i < utf8.size();) {
    utf8proc_int32_t cp = 0;
    auto len = utf8proc_iterate(p + i, utf8proc_ssize_t(utf8.size() - i), &cp);
    if (len <= 0) return {};
    out.push_back(char32_t(cp));
    i += std::size_t(len);
  }
  return out;
}

std::u32string key32(std::string_view name) { return decoded(lookalike_key(name).value_or("")); }

// Every code point the keys of `chars` hold (a key may be longer than its character: "d" is "cl").
std::set<char32_t> key_points(std::string_view chars) {
  std::set<char32_t> out;
  for (char32_t c : decoded(chars)) {
    utf8proc_uint8_t buf[4];
    const auto n = utf8proc_encode_char(utf8proc_int32_t(c), buf);
    for (char32_t k : key32({reinterpret_cast<const char*>(buf), std::size_t(n)})) out.insert(k);
  }
  return out;
}

bool made_of(std::u32string_view s, const std::set<char32_t>& points) {
  return std::all_of(s.begin(), s.end(), [&](char32_t c) { return points.contains(c); });
}

bool starts(std::u32string_view s, const std::u32string& prefix) {
  return !prefix.empty() && s.starts_with(prefix);
}

struct Reserved {
  std::set<char32_t> separators = key_points(" '\u2019-\u2010._\u00B7\u30FB");
  std::set<char32_t> digits = key_points("0123456789");
  std::set<char32_t> hex = key_points("0123456789abcdef");
  // The words below, each as the compact key a name is compared by.
  std::u32string deleted, guest, cpu, tanbo;
  std::vector<std::u32string> levels, computer, whole, staff;

  std::u32string compact(std::string_view name) const {
    std::u32string out;
    for (char32_t c : key32(name))
      if (!separators.contains(c)) out.push_back(c);
    return out;
  }
  std::vector<std::u32string> words(std::string_view name) const {
    std::vector<std::u32string> out(1);
    for (char32_t c : key32(name)) {
      if (!separators.contains(c))
        out.back().push_back(c);
      else if (!out.back().empty())
        out.emplace_back();
    }
    return out;
  }
  std::vector<std::u32string> compacts(std::initializer_list<std::string_view> names) const {
    std::vector<std::u32string> out;
    for (auto n : names) out.push_back(compact(n));
    return out;
  }

  Reserved() {
    deleted = compact("deleted player");  // store::kDeletedPlayer
    guest = compact("Guest");             // a new guest's: "Guest " and 4 hex digits
    cpu = compact("CPU");                 // a computer seat's: "CPU (random)"
    tanbo = compact("Tanbo");
    for (auto l : {CpuLevel::random, CpuLevel::greedy, CpuLevel::mcts})
      levels.push_back(compact(to_string(l)));
    // The page's name of a computer seat (seat.computer in web/i18n) and the word alone.
    computer = compacts({"Computer", "Ordinateur", "\u30B3\u30F3\u30D4\u30E5\u30FC\u30BF\u30FC",
                         "\u30B3\u30F3\u30D4\u30E5\u30FC\u30BF"});
    whole = compacts({"system", "server", "Tanbo", "Tanbo Server", "support", "root", "operator",
                      "mod", "sysop", "webmaster"});
    // Titles refused anywhere in a name, as a word of it: "Ana Moderator", "Tanbo-Admin".
    staff = compacts({"admin", "administrator", "moderator", "staff", "official"});
  }

  bool computer_seat(std::string_view name) const {
    const auto c = compact(name);
    const auto w = words(name);
    if (w.front() == cpu) return true;  // "CPU random", "cpu-2"
    if (starts(c, cpu)) {
      auto rest = std::u32string_view(c).substr(cpu.size());
      if (made_of(rest, digits) || std::find(levels.begin(), levels.end(), rest) != levels.end())
        return true;
    }
    return std::any_of(computer.begin(), computer.end(), [&](const std::u32string& word) {
      return starts(c, word) && made_of(std::u32string_view(c).substr(word.size()), digits);
    });
  }

  bool staff_title(std::string_view name) const {
    auto is_staff = [&](std::u32string_view w) {
      return std::find(staff.begin(), staff.end(), w) != staff.end();
    };
    const auto c = compact(name);
    if (std::find(whole.begin(), whole.end(), c) != whole.end() || is_staff(c)) return true;
    if (starts(c, tanbo) && is_staff(std::u32string_view(c).substr(tanbo.size()))) return true;
    const auto w = words(name);
    return std::any_of(w.begin(), w.end(), is_staff);
  }
};

const Reserved& reserved() {
  static const Reserved r;
  return r;
}

}  // namespace

std::optional<std::string> reserved_name(std::string_view name) {
  const Reserved& r = reserved();
  const auto c = r.compact(name);
  if (c == r.deleted)
    return "this name looks like \"deleted player\", the name an erased identity's games show";
  if (starts(c, r.guest) && made_of(std::u32string_view(c).substr(r.guest.size()), r.hex))
    return "this name looks like a new guest's (\"Guest 1a2b\"), which the server gives";
  if (r.computer_seat(name))
    return "this name looks like a computer seat's (\"CPU (mcts)\", \"Computer 2\")";
  if (r.staff_title(name))
    return "this name looks like the server's or its operators' (\"admin\", \"moderator\", "
           "\"system\", \"Tanbo staff\")";
  return std::nullopt;
}

}  // namespace tanbo_server::protocol
