#pragma once
// Passwords: the rule a new one must meet, and its Argon2id hash (libsodium's crypto_pwhash_str,
// whose string names the algorithm, its parameters and the salt). A password is compared in NFC,
// so that one typed on two keyboards is the same password.
#include <optional>
#include <string>
#include <string_view>

namespace tanbo_server::server::accounts {

inline constexpr std::size_t kMinPasswordChars = 10;
inline constexpr std::size_t kMaxPasswordChars = 128;

// The operator's list of common passwords (--common-passwords; by default John the Ripper's
// password.lst, which Debian's john-data installs): one a line, its "#!comment:" lines aside. Read
// once at start, before any request; refused from then on besides the built-in list. Returns how
// many it read; nullopt when the file cannot be read (the built-in list alone is refused then).
std::optional<std::size_t> load_common_passwords(const std::string& path);

// What is wrong with `password` as a new password for `username`, for people; nullopt when it
// will do: 10 to 128 characters, not one of the most common passwords (nor one with digits or
// marks around it, nor one said twice), not the username, not one character repeated.
std::optional<std::string> password_problem(std::string_view password, std::string_view username);

// A one-time recovery code: 100 random bits as 20 letters and digits of Crockford's base 32 in
// groups of four ("7QKM-2XHD-..."), easy to copy by hand. recovery_hash is what the store keeps:
// the SHA-256 of the code's canonical form, so that a code typed in lower case, with spaces or
// without its dashes, or with O for 0 and I or L for 1, is the same code.
std::string new_recovery_code();
std::string recovery_hash(std::string_view code);
// Whether `code` is the one whose hash the account keeps (none kept: no code is), in constant time
// and, so that a wrong code tells nothing a wrong password would not, in the time of a password
// check.
bool recovery_code_matches(std::string_view kept, std::string_view code);

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

}  // namespace tanbo_server::server::accounts
