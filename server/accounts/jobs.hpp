#pragma once
// What the Accounts' requests share (accounts.cpp, mail_accounts.cpp): the state their jobs reach
// weakly, and the steps they are made of: a job on the store's queue, a job on the hashing thread,
// an answer once the writes are committed, a password check through the login gate. Internal to
// server/accounts.
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "server/accounts/accounts.hpp"
#include "server/accounts/hashing_queue.hpp"
#include "server/accounts/login_gate.hpp"
#include "server/limits/keyed_buckets.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server {
namespace mail {
class Mailer;
}

namespace accounts {

struct Accounts::Shared {
  Shared(std::shared_ptr<store::StoreWorker> w, std::shared_ptr<Identities> i, const Rules& r)
      : worker(std::move(w)),
        identities(std::move(i)),
        rules(r),
        gate({r.checks_per_account, r.checks_per_address, r.failures_per_address, r.lockout}),
        hashing(r.hashing_queue) {}
  std::shared_ptr<store::StoreWorker> worker;
  std::shared_ptr<Identities> identities;
  Rules rules;
  LoginGate gate;
  HashingQueue hashing;
  // Mail, where the operator configured it (Accounts::use_mail): null, no mail.
  std::shared_ptr<mail::Mailer> mailer;
  std::string public_url;
  std::mutex asked_mutex;
  KeyedBuckets asked{5, 5.0 / 3600};  // new passwords asked by mail, per address
};

namespace jobs {

using Shared = Accounts::Shared;
using Weak = std::weak_ptr<Shared>;
using Clock = std::chrono::steady_clock;

Answer refused(Refusal r, std::string message);
Answer unavailable();
Answer bad_login();
Answer waiting(Refusal r, std::string message, std::chrono::milliseconds left);
// The key a username is found by: its NFC, case-folded; nullopt for a name the rule refuses.
std::optional<std::string> username_key(std::string_view username);
// Runs `job` on the store's queue. A store that fails or is stopping answers `unavailable`.
void in_store(const Weak& weak, const Done& done, std::function<void(Shared&, store::Store&)> job);
// Runs `job` on the hashing thread, in `address`'s turn; a full queue answers at once.
void hashing(const Weak& weak, const std::string& address, const Done& done,
             std::function<void(Shared&)> job);
// `answer` once every write queued so far is committed; `then` runs first when it is.
void once_committed(store::Store& s, Answer answer, Done done, std::function<void()> then = {});
// A write refused is the store failing here: thrown, answered `unavailable`.
void require(const store::WriteResult& r);
// Lets a password check through the node's gate. On a refusal it answers and returns nullopt;
// else the `done` to answer with, which gives the places back as it answers.
std::optional<Done> admitted(Shared& sh, const std::string& address, const std::string& account,
                             Done done);

// Who a password check is for, and from where.
struct Attempt {
  std::string address;  // a limit key; empty for the machine itself
  std::string device;   // the hash of a token of the account that the device holds, if any
};

// Checks `password` against `account`, from a job on the store's queue: the attempt is counted
// first (the account's count, or the device's own wait), then, once that is committed, the hash
// runs; `then` runs on the hashing thread if it matched. No account, or an attempt that comes
// too soon, costs the time of a wrong password and gets its answer.
void verified(const Weak& weak, store::Store& s, Shared& sh, const Attempt& attempt,
              const std::optional<store::Account>& account, std::string password, Done done,
              std::function<void(Shared&)> then, bool by_code = false);

// A request of the account holder's own that its password confirms (a new password, a new
// recovery code, a mail address, erasing the account): through the gate as a login of that
// account, the password checked against the stored account with this device's turn, then `then`
// on the hashing thread with the `done` that gives the gate's places back.
void with_password(Shared& shared, const Weak& weak, const Identity& who, const std::string& token,
                   const std::string& address, std::string password, Done done,
                   std::function<void(Shared&, const Done&)> then);

}  // namespace jobs
}  // namespace accounts
}  // namespace tanbo_server::server
