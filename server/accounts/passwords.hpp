#pragma once
// Passwords: the rule a new one must meet, and its Argon2id hash (libsodium's crypto_pwhash_str,
// whose string names the algorithm, its parameters and the salt). A password is compared in NFC,
// so that one typed on two keyboards is the same password.
#include <optional>
#include <string>
#include <string_view>

namespace tanbo::server::accounts {

inline constexpr std::size_t kMinPasswordChars = 10;
inline constexpr std::size_t kMaxPasswordChars = 128;

// What is wrong with `password` as a new password for `username`, for people; nullopt when it
// will do: 10 to 128 characters, not one of the most common passwords, not the username.
std::optional<std::string> password_problem(std::string_view password, std::string_view username);

// The hash to keep. Argon2id at libsodium's "interactive" limits (docs/operations.md, "Accounts");
// raising them later rehashes each password at its next login (needs_rehash). Throws
// std::runtime_error when the memory cannot be had.
std::string hash_password(std::string_view password);
// Constant time in the password: crypto_pwhash_str_verify.
bool verify_password(std::string_view hash, std::string_view password);
// Whether `hash` was made with other parameters than hash_password uses now.
bool needs_rehash(std::string_view hash);
// Spends the time of one verify_password, for an answer that must not be faster than a wrong
// password's (no such account, a lock).
void verify_nothing(std::string_view password);

}  // namespace tanbo::server::accounts
