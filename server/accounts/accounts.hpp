#pragma once
// Accounts (docs/protocol.md, "Accounts"): a guest claims a username and a password and keeps its
// identity; a login on any device brings the identity back with a fresh token; logout revokes
// tokens; a password change revokes the other devices'; an identity may be erased.
//
// Every request runs off the caller's thread: the store's reads and writes on the StoreWorker's
// queue, the Argon2id hashing on a thread of its own (hashing_queue.hpp). `done` is called once,
// on one of those threads, after every write it depends on is committed. A password is never
// logged, never returned, and kept no longer than its request.
//
// A password check is let through by the node's LoginGate (login_gate.hpp: checks under way per
// account and per address, attempts per address, a device's own wait) and then counted in the
// account's row before the hash runs (Store::count_login_attempt), so that attempts sent together,
// to any node, are counted one after the other: the account's next attempt waits wait_after().
// An attempt that comes too soon, like one for a username nobody holds, costs the time of a
// wrong password and gets the same answer.
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "server/accounts/login_gate.hpp"
#include "server/identity/identities.hpp"

namespace tanbo::server {
namespace store {
class StoreWorker;
}

namespace accounts {

struct Rules {
  int free_attempts = 5;          // an account's attempts before the next ones must wait
  int failures_per_address = 20;  // within `lockout`: the address waits until it ends
  std::chrono::milliseconds lockout{15 * 60 * 1000};  // also the longest wait of an account
  int checks_per_account = 1;                         // password checks under way at once, per node
  int checks_per_address = 2;                         // the same for one address
  std::size_t hashing_queue = 64;  // password checks waiting for the hashing thread, in all
};

// The wait before an account's next login attempt, `attempts` attempts after its last success:
// none before the free ones are spent, then 1 s, doubling up to `lockout`.
std::chrono::milliseconds wait_after(int attempts, const Rules& rules);

enum class Refusal {
  none,
  bad_login,          // no such username, not its password, or too soon: one answer for all
  login_locked,       // too many attempts from the address (`retry_after`)
  busy,               // a check for the account or the address is under way (`retry_after`)
  bad_name,           // the username breaks the name rule
  username_taken,     // compared case-folded in NFKC
  name_reserved,      // the username looks like another account's (lookalikes.hpp)
  weak_password,      // passwords.hpp's rule
  already_account,    // the identity has an account already
  no_account,         // a guest where an account is needed
  games_in_progress,  // erasing an identity seated in unfinished games
  unavailable,        // the store failed or is stopping
};

struct Answer {
  Refusal refusal = Refusal::none;
  std::string message;                  // for people, when refused
  std::chrono::seconds retry_after{0};  // login_locked, busy, unavailable
  Identity identity;                    // login: who came back
  std::string token;                    // login, recover: the fresh token
  std::string recovery_code;            // claim, recover, renew_recovery_code: shown once
  bool ok() const { return refusal == Refusal::none; }
};
using Done = std::function<void(Answer)>;

class Accounts {
 public:
  Accounts(std::shared_ptr<store::StoreWorker> worker, std::shared_ptr<Identities> identities,
           Rules rules);
  ~Accounts();  // waits for the hash under way; the waiting ones are dropped
  Accounts(const Accounts&) = delete;
  Accounts& operator=(const Accounts&) = delete;

  // `address` everywhere: the limit key the request comes from (server/net/address.hpp).
  void claim(const Identity& who, std::string address, std::string username, std::string password,
             Done done);
  // `device`: a token the device already holds, if any; a token of this account spares the
  // login the account's wait. `agent`: the client that logs in, kept with the new token.
  void login(std::string address, std::string username, std::string password, std::string device,
             std::string agent, Done done);
  // `keep`: the token of the connection asking, which stays valid.
  void change_password(const Identity& who, std::string keep, std::string address,
                       std::string current, std::string next, Done done);
  // A forgotten password (docs/protocol.md, "Recovery"): the account's one-time recovery code
  // sets `password`, ends every session, and answers a fresh token for this device and a new
  // code. A wrong code counts as a failed login of the account, and is answered like one.
  void recover(std::string address, std::string username, std::string code, std::string password,
               std::string agent, Done done);
  // A new recovery code for the account, which replaces the last; the password is asked again
  // and counted like a login (`token`: the device's).
  void renew_recovery_code(const Identity& who, std::string token, std::string address,
                           std::string password, Done done);
  // This token only, or (everywhere) every token of the identity.
  void logout(const Identity& who, std::string token, bool everywhere, Done done);
  // Erases the identity (an account's password is asked again; a guest's token is enough).
  // `token`: the one the request came with. The caller checked it holds no seat in an
  // unfinished game.
  void erase(const Identity& who, std::string token, std::string address, std::string password,
             Done done);

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
