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
#include <vector>

#include "protocol/errors.hpp"
#include "server/accounts/login_gate.hpp"
#include "server/identity/identities.hpp"

namespace tanbo_server::server {
namespace store {
class StoreWorker;
}
namespace mail {
class Mailer;
}

namespace accounts {

inline constexpr int kResetMinutes = 30;         // a link for a new password works this long
inline constexpr int kConfirmMinutes = 24 * 60;  // a link that confirms an address
inline constexpr int kMailsPerHour = 3;          // of each kind, per account

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
  bad_mail,           // not a mail address the server sends to
  mail_taken,         // another account confirmed this address first
  expired_link,       // a token sent by mail that is unknown, used or expired
  mail_unavailable,   // the operator configured no mail
  mail_limited,       // too many mails asked for the account lately (`retry_after`)
  already_rated,      // become a bot after a rated game
  no_such_token,      // no access token of the account has this id
  bad_token_name,     // an access token's name: 1 to 40 characters, printable
};

// A personal access token as its owner lists it (the token itself is never kept).
struct AccessToken {
  std::string id;  // the first 16 hex digits of its hash
  std::string name;
  std::int64_t created_at = 0, last_used_at = 0;  // ms since the Unix epoch; 0: never used
};

struct Answer {
  Refusal refusal = Refusal::none;
  std::string message;                     // for people, when refused
  std::chrono::seconds retry_after{0};     // login_locked, busy, unavailable
  Identity identity;                       // login: who came back
  std::string token;                       // login, recover: the fresh token
  std::string recovery_code;               // claim, recover, renew_recovery_code: shown once
  std::string mail;                        // the mail calls: the account's confirmed address
  std::string pending;                     // ...and the one waiting for its confirmation
  std::vector<AccessToken> access_tokens;  // the bot calls: the account's access tokens
  std::string revoked_hash;                // revoke_access_token: the hash of the one revoked
  bool bot = false, play_bots = false;     // the bot calls: the identity's flags
  bool ok() const { return refusal == Refusal::none; }
};
using Done = std::function<void(Answer)>;

class Accounts {
 public:
  Accounts(std::shared_ptr<store::StoreWorker> worker, std::shared_ptr<Identities> identities,
           Rules rules);
  ~Accounts();  // stop()
  Accounts(const Accounts&) = delete;
  Accounts& operator=(const Accounts&) = delete;

  // Waits for the hash under way; the waiting ones are dropped unanswered. Idempotent. The server
  // calls it as it stops: a job's answer can hold the last reference to this object, and must
  // not let it go on the hashing thread, which cannot join itself.
  void stop();

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

  // --- Mail (mail_accounts.cpp; docs/protocol.md, "Mail"), where the operator configured it.
  // Each mail links to `public_url` and goes through `mailer`; before any request.
  void use_mail(std::shared_ptr<mail::Mailer> mailer, std::string public_url);
  bool has_mail() const;
  // The account's confirmed address and the one waiting for its confirmation.
  void mail_of(const Identity& who, Done done);
  // Sends a link that makes `mail` the account's once opened (the current one stays until
  // then); the password is asked again, as for a new password. An address another account
  // confirmed is answered alike, and sent nothing.
  void ask_mail(const Identity& who, std::string token, std::string address, std::string password,
                std::string mail, std::string lang, Done done);
  // Removes the account's address and ends every link sent.
  void remove_mail(const Identity& who, std::string token, std::string address,
                   std::string password, Done done);
  // The link of ask_mail, from any device: its address becomes the account's.
  void confirm_mail(std::string link_token, Done done);
  // A new password asked by the username or the confirmed address `login`: a link valid
  // kResetMinutes goes to the account's address, if it has one and was not sent too many lately.
  // Nothing tells the asker what was found: `done` answers the same at once (rate_limited when
  // `address` asked too often).
  void forgot_password(std::string address, std::string login, std::string lang, Done done);
  // The link of forgot_password sets `password`, ends every session and every link, and answers
  // a fresh token for this device, like a recovery.
  void reset_password(std::string address, std::string link_token, std::string password,
                      std::string agent, Done done);

  // --- Bots (bot_accounts.cpp; docs/bots-write.md). Answered with the flags as they stand.
  // The account becomes a bot, for good: no_account for a guest, already_rated once it has played
  // a rated game.
  void make_bot(const Identity& who, Done done);
  // Whether a person plays bots in direct challenges (a bot always does).
  void set_play_bots(const Identity& who, bool on, Done done);
  // A new access token named `name`, in `token` (shown this once), with every one in the list.
  void create_access_token(const Identity& who, std::string name, Done done);
  void access_tokens(const Identity& who, Done done);
  // Revokes the access token of the account with this id: its hash in `revoked_hash`.
  void revoke_access_token(const Identity& who, std::string id, Done done);

  const Rules& rules() const { return rules_; }

  struct Shared;  // what the jobs reach, weakly: none outlives the Accounts

 private:
  std::shared_ptr<Shared> shared_;
  Rules rules_;
};

// The protocol's error for a refusal on a connection. The API's own refusals (mail, erasure) come
// from calls no WebSocket message makes; there they would be the server failing.
protocol::ErrorCode error_code(Refusal r);
// The code the API's JSON says: the protocol's name, or one of the API's own (docs/api.md).
std::string_view code_of(Refusal r);

}  // namespace accounts
}  // namespace tanbo_server::server
