#pragma once
// Accounts (docs/protocol.md, "Accounts"): a guest claims a username and a password and keeps its
// identity; a login on any device brings the identity back with a fresh token; logout revokes
// tokens; a password change revokes the other devices'; an identity may be erased.
//
// Every request runs off the caller's thread: the store's reads and writes on the StoreWorker's
// queue, the Argon2id hashing on a thread of its own (one at a time: a hash takes about 64 MiB
// and a tenth of a second, and a burst of logins must not starve the network threads or the
// store). `done` is called once, on one of those threads, after every write it depends on is
// committed. A password is never logged, never returned, and kept no longer than its request.
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "server/accounts/login_guard.hpp"
#include "server/identity/identities.hpp"

namespace boost::asio {
class thread_pool;
}

namespace tanbo::server {
namespace store {
class StoreWorker;
}

namespace accounts {

struct Rules {
  int failures_per_account = 5;   // in a row: the account is locked for `lockout`
  int failures_per_address = 20;  // within `lockout`: the address is locked until it ends
  std::chrono::milliseconds lockout{15 * 60 * 1000};
};

enum class Refusal {
  none,
  bad_login,          // no such username, or not its password (one answer for both)
  login_locked,       // too many failed logins (`retry_after`)
  bad_name,           // the username breaks the name rule
  username_taken,     // compared case-folded in NFC
  weak_password,      // passwords.hpp's rule
  already_account,    // the identity has an account already
  no_account,         // a guest where an account is needed
  games_in_progress,  // erasing an identity seated in unfinished games
  unavailable,        // the store failed or is stopping
};

struct Answer {
  Refusal refusal = Refusal::none;
  std::string message;                  // for people, when refused
  std::chrono::seconds retry_after{0};  // login_locked
  Identity identity;                    // login: who came back
  std::string token;                    // login: the fresh token
  bool ok() const { return refusal == Refusal::none; }
};
using Done = std::function<void(Answer)>;

class Accounts {
 public:
  Accounts(std::shared_ptr<store::StoreWorker> worker, std::shared_ptr<Identities> identities,
           Rules rules);
  ~Accounts();  // waits for the hash under way
  Accounts(const Accounts&) = delete;
  Accounts& operator=(const Accounts&) = delete;

  void claim(const Identity& who, std::string username, std::string password, Done done);
  // `address`: where the attempt comes from (its failures are counted there too).
  void login(std::string address, std::string username, std::string password, Done done);
  // `keep`: the token of the connection asking, which stays valid.
  void change_password(const Identity& who, std::string keep, std::string address,
                       std::string current, std::string next, Done done);
  // This token only, or (everywhere) every token of the identity.
  void logout(const Identity& who, std::string token, bool everywhere, Done done);
  // Erases the identity (an account's password is asked again; a guest's token is enough).
  // The caller checked it holds no seat in an unfinished game.
  void erase(const Identity& who, std::string address, std::string password, Done done);

  const Rules& rules() const { return rules_; }

  struct Shared;  // what the jobs reach, weakly: none outlives the Accounts

 private:
  std::shared_ptr<Shared> shared_;
  Rules rules_;
};

// The protocol's error code for a refusal ("bad_login", ...).
std::string_view code_of(Refusal r);

}  // namespace accounts
}  // namespace tanbo::server
