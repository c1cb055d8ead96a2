#include "server/accounts/accounts.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <optional>

#include "protocol/text.hpp"
#include "server/accounts/passwords.hpp"
#include "server/metrics/metrics.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo::server::accounts {

struct Accounts::Shared {
  Shared(std::shared_ptr<store::StoreWorker> w, std::shared_ptr<Identities> i, const Rules& r)
      : worker(std::move(w)),
        identities(std::move(i)),
        rules(r),
        guard(r.failures_per_address, r.lockout) {}
  std::shared_ptr<store::StoreWorker> worker;
  std::shared_ptr<Identities> identities;
  Rules rules;
  LoginGuard guard;
  boost::asio::thread_pool hasher{1};
};

namespace {

using Shared = Accounts::Shared;
using Weak = std::weak_ptr<Shared>;
using Clock = std::chrono::steady_clock;

Answer refused(Refusal r, std::string message) {
  Answer a;
  a.refusal = r;
  a.message = std::move(message);
  return a;
}

Answer unavailable() {
  return refused(Refusal::unavailable, "the store is unavailable; try again in a moment");
}

Answer bad_login() { return refused(Refusal::bad_login, "wrong username or password"); }

Answer locked(std::chrono::milliseconds left) {
  auto s = std::chrono::ceil<std::chrono::seconds>(left);
  auto a = refused(Refusal::login_locked,
                   "too many failed logins; try again in " +
                       (s.count() > 90 ? std::to_string((s.count() + 59) / 60) + " minutes"
                                       : std::to_string(s.count()) + " seconds"));
  a.retry_after = s;
  return a;
}

// The key a username is found by: its NFC, case-folded; nullopt for a name the rule refuses.
std::optional<std::string> username_key(std::string_view username) {
  auto checked = protocol::check_name(username);
  if (!checked.ok()) return std::nullopt;
  return protocol::fold_case(checked.name);
}

// Runs `job` on the store's queue. A store that fails or is stopping answers `unavailable`.
void in_store(const Weak& weak, const Done& done, std::function<void(Shared&, store::Store&)> job) {
  auto sh = weak.lock();
  if (!sh) return done(unavailable());
  bool posted = sh->worker->post([weak, done, job = std::move(job)](store::Store& s) {
    auto sh = weak.lock();
    if (!sh) return done(unavailable());
    try {
      job(*sh, s);
    } catch (...) {
      done(unavailable());
      throw;  // the worker logs it and /healthz turns degraded
    }
  });
  if (!posted) done(unavailable());
}

// Runs `job` on the hashing thread.
void hashing(const Weak& weak, const Done& done, std::function<void(Shared&)> job) {
  auto sh = weak.lock();
  if (!sh) return done(unavailable());
  boost::asio::post(sh->hasher, [weak, done, job = std::move(job)] {
    auto sh = weak.lock();
    if (!sh) return done(unavailable());
    try {
      job(*sh);
    } catch (const std::exception& e) {
      spdlog::error("accounts: hashing failed: {}", e.what());
      done(unavailable());
    }
  });
}

// `answer` once every write queued so far is committed; `then` runs first when it is.
void once_committed(store::Store& s, Answer answer, Done done, std::function<void()> then = {}) {
  s.after_commit(
      [answer = std::move(answer), done = std::move(done), then = std::move(then)](bool committed) {
        if (!committed) return done(unavailable());
        if (then) then();
        done(answer);
      });
}

void require(const store::WriteResult& r) {
  if (!r.ok()) throw store::StoreError(r.message);
}

// Checks `password` against `account` on the hashing thread, counting a failure against the
// account and the address; `then` runs there once it matched. A lock, or no account, costs the
// time of a wrong password and says nothing sooner.
void verified(const Weak& weak, std::string address, std::optional<store::Account> account,
              std::string password, Done done, std::function<void(Shared&)> then) {
  hashing(weak, done, [=, then = std::move(then)](Shared& sh) {
    const auto at = wall_ms();
    if (!account) {
      verify_nothing(password);
      sh.guard.failed(address, Clock::now());
      metrics::login("bad_login");
      return done(bad_login());
    }
    if (account->locked_until > at) {
      verify_nothing(password);
      metrics::login("locked");
      return done(locked(std::chrono::milliseconds(account->locked_until - at)));
    }
    if (!verify_password(account->password_hash, password)) {
      sh.guard.failed(address, Clock::now());
      metrics::login("bad_login");
      spdlog::info("accounts: failed login for {} from {}", account->identity,
                   address.empty() ? "an unknown address" : address);
      const auto& rules = sh.rules;
      return in_store(weak, done, [=](Shared&, store::Store& s) {
        require(s.note_login_failure(account->identity, at, rules.failures_per_account,
                                     rules.lockout.count()));
        once_committed(s, bad_login(), done);
      });
    }
    then(sh);
  });
}

// The address's lock, if any, answered after the time a wrong password takes.
bool address_locked(const Weak& weak, Shared& sh, const std::string& address,
                    const std::string& password, const Done& done) {
  auto left = sh.guard.locked_for(address, Clock::now());
  if (left <= std::chrono::milliseconds::zero()) return false;
  hashing(weak, done, [password, left, done](Shared&) {
    verify_nothing(password);
    metrics::login("locked");
    done(locked(left));
  });
  return true;
}

}  // namespace

Accounts::Accounts(std::shared_ptr<store::StoreWorker> worker,
                   std::shared_ptr<Identities> identities, Rules rules)
    : shared_(std::make_shared<Shared>(std::move(worker), std::move(identities), rules)),
      rules_(rules) {}

Accounts::~Accounts() {
  // Jobs hold the state weakly: once the hashing thread is joined, none is left to run.
  shared_->hasher.stop();
  shared_->hasher.join();
}

void Accounts::claim(const Identity& who, std::string username, std::string password, Done done) {
  if (!who.username.empty())
    return done(
        refused(Refusal::already_account, "this identity has an account already: " + who.username));
  auto name = protocol::check_name(username);
  if (!name.ok()) return done(refused(Refusal::bad_name, "field \"username\": " + name.problem));
  if (auto problem = password_problem(password, name.name))
    return done(refused(Refusal::weak_password, "field \"password\": " + *problem));
  const std::string key = protocol::fold_case(name.name).value_or(name.name);
  const Weak weak = shared_;
  const std::string id = who.id;
  auto taken = [] {
    return refused(Refusal::username_taken, "this username is taken: choose another");
  };
  // Asked first, so that a taken name costs no hash; the insert's unique key settles a race.
  in_store(weak, done, [=](Shared&, store::Store& s) {
    if (s.account_by_key(key)) return done(taken());
    hashing(weak, done, [=](Shared&) {
      std::string hash = hash_password(password);
      in_store(weak, done, [=](Shared& sh, store::Store& s) {
        store::Account account{id, name.name, hash, wall_ms()};
        auto r = s.create_account(account, key);
        if (r.code == store::WriteResult::Code::duplicate)
          return done(s.account_of(id) ? refused(Refusal::already_account,
                                                 "this identity has an account already")
                                       : taken());
        require(r);
        Answer claimed;
        claimed.identity = Identity{id, {}, name.name};
        once_committed(s, std::move(claimed), done,
                       [identities = sh.identities, id, username = name.name] {
                         identities->set_username(id, username);
                         metrics::account("claimed");
                         spdlog::info("accounts: {} claimed the username {}", id, username);
                       });
      });
    });
  });
}

void Accounts::login(std::string address, std::string username, std::string password, Done done) {
  const Weak weak = shared_;
  if (address_locked(weak, *shared_, address, password, done)) return;
  auto key = username_key(username);
  in_store(weak, done, [=](Shared&, store::Store& s) {
    std::optional<store::Account> account = key ? s.account_by_key(*key) : std::nullopt;
    verified(weak, address, account, password, done, [=](Shared& sh) {
      const std::string id = account->identity;
      std::string rehash = needs_rehash(account->password_hash) ? hash_password(password) : "";
      std::string token = sh.identities->issue_token(id);  // queued before the job below
      in_store(weak, done, [=](Shared&, store::Store& s) {
        auto who = s.identity_by_id(id);
        if (!who) return done(bad_login());
        require(s.note_login_success(id));
        if (!rehash.empty()) require(s.set_password(id, rehash));
        Answer a;
        a.identity = Identity{who->id, who->name, who->username};
        a.token = token;
        once_committed(s, std::move(a), done, [id, address] {
          metrics::login("ok");
          spdlog::info("accounts: {} logged in from {}", id,
                       address.empty() ? "an unknown address" : address);
        });
      });
    });
  });
}

void Accounts::change_password(const Identity& who, std::string keep, std::string address,
                               std::string current, std::string next, Done done) {
  if (who.username.empty())
    return done(refused(Refusal::no_account, "a guest has no password: claim an account first"));
  if (auto problem = password_problem(next, who.username))
    return done(refused(Refusal::weak_password, "field \"password\": " + *problem));
  const Weak weak = shared_;
  if (address_locked(weak, *shared_, address, current, done)) return;
  const std::string id = who.id;
  in_store(weak, done, [=](Shared&, store::Store& s) {
    auto account = s.account_of(id);
    if (!account) return done(refused(Refusal::no_account, "this identity has no account"));
    verified(weak, address, account, current, done, [=](Shared& sh) {
      std::string hash = hash_password(next);
      sh.identities->revoke_tokens(id, keep);  // every device but this one logs in again
      in_store(weak, done, [=](Shared&, store::Store& s) {
        require(s.set_password(id, hash));
        once_committed(s, {}, done, [id] {
          metrics::account("password_changed");
          spdlog::info("accounts: {} changed its password; its other tokens are revoked", id);
        });
      });
    });
  });
}

void Accounts::logout(const Identity& who, std::string token, bool everywhere, Done done) {
  if (who.username.empty())
    return done(refused(Refusal::no_account,
                        "a guest cannot log out: it would lose its identity; claim an account "
                        "first"));
  auto& ids = *shared_->identities;
  if (everywhere)
    ids.revoke_tokens(who.id, {});
  else
    ids.revoke_token(token);
  ids.after_stored([done, id = who.id, everywhere](bool stored) {
    if (!stored) return done(unavailable());
    metrics::account(everywhere ? "logout_everywhere" : "logout");
    spdlog::info("accounts: {} logged out{}", id, everywhere ? " everywhere" : "");
    done({});
  });
}

void Accounts::erase(const Identity& who, std::string address, std::string password, Done done) {
  const Weak weak = shared_;
  const std::string id = who.id;
  auto remove = [weak, id, done](Shared&) {
    in_store(weak, done, [=](Shared& sh, store::Store& s) {
      require(s.delete_identity(id, wall_ms()));
      once_committed(s, {}, done, [identities = sh.identities, id] {
        identities->erase(id);
        metrics::account("deleted");
        spdlog::info("accounts: {} deleted its identity", id);
      });
    });
  };
  if (who.username.empty()) return remove(*shared_);
  if (address_locked(weak, *shared_, address, password, done)) return;
  in_store(weak, done, [=](Shared&, store::Store& s) {
    auto account = s.account_of(id);
    if (!account) return done(refused(Refusal::no_account, "this identity has no account"));
    verified(weak, address, account, password, done, remove);
  });
}

std::string_view code_of(Refusal r) {
  switch (r) {
    case Refusal::none:
      return "ok";
    case Refusal::bad_login:
      return "bad_login";
    case Refusal::login_locked:
      return "login_locked";
    case Refusal::bad_name:
      return "bad_name";
    case Refusal::username_taken:
      return "username_taken";
    case Refusal::weak_password:
      return "weak_password";
    case Refusal::already_account:
      return "bad_message";
    case Refusal::no_account:
      return "no_account";
    case Refusal::games_in_progress:
      return "games_in_progress";
    case Refusal::unavailable:
      return "accounts_unavailable";
  }
  return "internal";
}

}  // namespace tanbo::server::accounts
