#include "server/accounts/passwords.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_set>

#include "protocol/text.hpp"
#include "server/identity/identities.hpp"

namespace tanbo_server::server::accounts {
namespace {

constexpr auto kOps = crypto_pwhash_OPSLIMIT_INTERACTIVE;
constexpr auto kMem = crypto_pwhash_MEMLIMIT_INTERACTIVE;

// The most common passwords of 10 characters or more in the public breach lists; the shorter
// ones are refused by their length already, or as the stem of a longer one (common_stem). Compared
// case-folded. The operator's list (load_common_passwords) adds to these.
constexpr std::string_view kCommon[] = {
    "0000000000",   "0123456789",    "0987654321",   "1111111111",    "1122334455",
    "1234512345",   "1234554321",    "1234567890",   "12345678910",   "1234567891",
    "123456789a",   "123456789q",    "123456789012", "1234567890a",   "abc123456789",
    "1234qwerasdf", "123qweasdzxc",  "1q2w3e4r5t",   "1q2w3e4r5t6y",  "1qaz2wsx3edc",
    "1qazxsw23edc", "2222222222",    "5555555555",   "6666666666",    "7777777777",
    "8888888888",   "9876543210",    "9999999999",   "a123456789",    "aaaaaaaaaa",
    "abc1234567",   "abcd123456",    "abcdefghij",   "abcdefg123",    "administrator",
    "admin12345",   "asdfghjkl1",    "asdfghjkl123", "baseball123",   "changeme123",
    "charlie123",   "computer123",   "dragon1234",   "football123",   "football1234",
    "freedom123",   "hello12345",    "hello123456",  "iloveyou12",    "iloveyou123",
    "iloveyou1234", "jennifer123",   "letmein123",   "letmein1234",   "liverpool1",
    "master1234",   "michael123",    "monkey1234",   "mustang123",    "myspace123",
    "p@ssw0rd123",  "passw0rd123",   "password01",   "password10",    "password11",
    "password12",   "password123",   "password1234", "password12345", "passwordpassword",
    "princess123",  "q1w2e3r4t5",    "q1w2e3r4t5y6", "qazwsx123456",  "qazwsxedc123",
    "qazwsxedcrfv", "qwe1234567",    "qwerty1234",   "qwerty12345",   "qwerty123456",
    "qwertyuiop",   "qwertyuiop123", "shadow1234",   "starwars123",   "sunshine123",
    "superman123",  "trustno1234",   "welcome123",   "welcome1234",   "whatever123",
    "zaq12wsxcde",  "zaq1zaq1zaq1",  "zxcvbnm123",   "zxcvbnm1234",   "zxcvbnmasdf",
    "zzzzzzzzzz"};

// The operator's list, case-folded; set once at start, read by every request after.
std::mutex loaded_mutex;
std::shared_ptr<const std::unordered_set<std::string>> loaded;

std::shared_ptr<const std::unordered_set<std::string>> operators_list() {
  std::lock_guard lock(loaded_mutex);
  return loaded;
}

bool is_common(const std::string& folded) {
  if (std::find(std::begin(kCommon), std::end(kCommon), folded) != std::end(kCommon)) return true;
  auto list = operators_list();
  return list && list->contains(folded);
}

// A common password with digits or marks before or after it ("dragon2026!", "123monkey"), or one
// said twice ("letmeinletmein"): what a guesser tries right after the list itself.
bool common_stem(const std::string& folded) {
  auto word = [](unsigned char c) { return c >= 0x80 || std::isalpha(c); };
  auto first = std::find_if(folded.begin(), folded.end(), word);
  auto last = std::find_if(folded.rbegin(), folded.rend(), word).base();
  if (first < last && (first != folded.begin() || last != folded.end()) &&
      is_common(std::string(first, last)))
    return true;
  const std::size_t half = folded.size() / 2;
  return folded.size() % 2 == 0 && folded.compare(0, half, folded, half, half) == 0 &&
         is_common(folded.substr(0, half));
}

constexpr std::string_view kCrockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr int kCodeChars = 20;  // 100 bits

void start_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium failed to start");
}

std::string nfc(std::string_view password) {
  return protocol::to_nfc(password).value_or(std::string(password));
}

}  // namespace

std::optional<std::string> password_problem(std::string_view password, std::string_view username) {
  auto normal = protocol::to_nfc(password);
  if (!normal) return "a password must be valid UTF-8";
  const std::size_t n = protocol::code_points(*normal);
  if (n < kMinPasswordChars)
    return "a password has at least " + std::to_string(kMinPasswordChars) + " characters, not " +
           std::to_string(n);
  if (n > kMaxPasswordChars)
    return "a password has at most " + std::to_string(kMaxPasswordChars) + " characters, not " +
           std::to_string(n);
  auto folded = protocol::fold_case(*normal).value_or(*normal);
  if (is_common(folded)) return "this password is one of the most common ones: choose another";
  if (common_stem(folded))
    return "this password is a common one with a few characters added: choose another";
  if (folded == protocol::fold_case(username).value_or(std::string(username)))
    return "a password must not be the username";
  if (std::all_of(folded.begin(), folded.end(), [&](char c) { return c == folded[0]; }))
    return "a password must not be one character repeated";
  return std::nullopt;
}

std::optional<std::size_t> load_common_passwords(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  auto list = std::make_shared<std::unordered_set<std::string>>();
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.starts_with("#!comment:")) continue;
    auto normal = protocol::to_nfc(line);
    if (!normal) continue;
    list->insert(protocol::fold_case(*normal).value_or(*normal));
  }
  if (in.bad()) return std::nullopt;
  const std::size_t n = list->size();
  std::lock_guard lock(loaded_mutex);
  loaded = std::move(list);
  return n;
}

std::string new_recovery_code() {
  start_sodium();
  std::string code;
  for (int i = 0; i < kCodeChars; ++i) {
    if (i > 0 && i % 4 == 0) code += '-';
    code += kCrockford[randombytes_uniform(std::uint32_t(kCrockford.size()))];
  }
  return code;
}

std::string recovery_hash(std::string_view code) {
  std::string canonical;
  for (unsigned char c : code) {
    if (c == '-' || c == ' ') continue;
    c = static_cast<unsigned char>(std::toupper(c));
    if (c == 'O') c = '0';
    if (c == 'I' || c == 'L') c = '1';
    canonical += char(c);
  }
  return token_hash(canonical);
}

bool recovery_code_matches(std::string_view kept, std::string_view code) {
  const std::string given = recovery_hash(code);
  verify_nothing(code);
  return !kept.empty() && kept.size() == given.size() &&
         sodium_memcmp(kept.data(), given.data(), kept.size()) == 0;
}

std::string hash_password(std::string_view password) {
  start_sodium();
  const std::string p = nfc(password);
  std::array<char, crypto_pwhash_STRBYTES> out{};
  if (crypto_pwhash_str(out.data(), p.data(), p.size(), kOps, kMem) != 0)
    throw std::runtime_error("crypto_pwhash_str: out of memory");
  return std::string(out.data());
}

bool verify_password(std::string_view hash, std::string_view password) {
  start_sodium();
  const std::string h(hash), p = nfc(password);
  return crypto_pwhash_str_verify(h.c_str(), p.data(), p.size()) == 0;
}

bool needs_rehash(std::string_view hash) {
  start_sodium();
  const std::string h(hash);
  return crypto_pwhash_str_needs_rehash(h.c_str(), kOps, kMem) != 0;
}

void verify_nothing(std::string_view password) {
  // A hash of a password nobody knows, made once with the parameters of today's hashes.
  static const std::string decoy = hash_password("decoy " + std::to_string(randombytes_random()));
  verify_password(decoy, password);
}

}  // namespace tanbo_server::server::accounts
