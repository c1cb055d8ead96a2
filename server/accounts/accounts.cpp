#include "server/accounts/accounts.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "protocol/text.hpp"
#include "server/accounts/jobs.hpp"
#include "server/accounts/passwords.hpp"
#include "server/identity/lookalikes.hpp"
#include "server/metrics/metrics.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server::accounts {

using namespace jobs;

std::chrono::milliseconds wait_after(int attempts, const Rules& rules) {
  const int over = attempts - rules.free_attempts;
  if (over < 0) return std::chrono::milliseconds::zero();
  const std::chrono::milliseconds doubled = std::chrono::seconds(1) * (1LL << std::min(over, 30));
  return std::min(doubled, rules.lockout);
}

Accounts::Accounts(std::shared_ptr<store::StoreWorker> worker,
                   std::shared_ptr<Identities> identities, Rules rules)
    : shared_(std::make_shared<Shared>(std::move(worker), std::move(identities), rules)),
      rules_(rules) {}

Accounts::~Accounts() { stop(); }

// Jobs hold the state weakly: once the hashing thread is joined, none is left to run.
void Accounts::stop() { shared_->hashing.stop(); }

void Accounts::claim(const Identity& who, std::string address, std::string username,
                     std::string password, Done done) {
  if (!who.username.empty())
    return done(
        refused(Refusal::already_account, "this identity has an account already: " + who.username));
  auto name = protocol::check_name(username);
  if (!name.ok()) return done(refused(Refusal::bad_name, "field \"username\": " + name.problem));
  if (auto problem = password_problem(password, name.name))
    return done(refused(Refusal::weak_password, "field \"password\": " + *problem));
  const std::string key = protocol::fold_case(name.name).value_or(name.name);
  const Weak weak = shared_;
  auto pass = admitted(*shared_, address, key, std::move(done));
  if (!pass) return;
  done = std::move(*pass);
  const std::string id = who.id, display = who.name;
  auto taken = [] {
    return refused(Refusal::username_taken, "this username is taken: choose another");
  };
  // Asked first, so that a taken name costs no hash; the insert's unique key settles a race. A
  // claim is no failed login: the address gets its attempt back.
  in_store(weak, done, [=](Shared& sh, store::Store& s) {
    sh.gate.succeeded(address, {});
    if (s.account_by_key(key)) return done(taken());
    hashing(weak, address, done, [=](Shared&) {
      std::string hash = hash_password(password);
      in_store(weak, done, [=](Shared& sh, store::Store& s) {
        // Asked again where claims come one after another, and the names protected in the same
        // step: of two lookalike usernames claimed at once, the second finds the first's keys.
        const ProtectedKeys keys = protected_keys(name.name, display);
        if (!s.account_by_key(key) && s.lookalike_holder(keys.username, id))
          return done(refused(Refusal::name_reserved,
                              "field \"username\": this name is an account's, or looks like one: "
                              "choose another"));
        const std::string code = new_recovery_code();
        const store::Account account{id, name.name, hash, wall_ms(), 0, 0, recovery_hash(code)};
        auto r = s.create_account(account, key);
        if (r.code == store::WriteResult::Code::duplicate)
          return done(s.account_of(id) ? refused(Refusal::already_account,
                                                 "this identity has an account already")
                                       : taken());
        require(r);
        require(s.protect_names(id, keys.username, keys.name));
        Answer claimed;
        claimed.identity = Identity{id, {}, name.name};
        claimed.recovery_code = code;
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

void Accounts::login(std::string address, std::string username, std::string password,
                     std::string device, std::string agent, Done done) {
  const Weak weak = shared_;
  auto key = username_key(username);
  // An unreadable username has no account, but its attempts still count and queue like any.
  auto pass = admitted(*shared_, address, key.value_or("?" + username), std::move(done));
  if (!pass) return;
  done = std::move(*pass);
  // A token the device holds, looked up here: in a cluster that asks the store, and a job on
  // the store's queue must not wait for another.
  std::optional<Identity> holder;
  try {
    if (!device.empty()) holder = shared_->identities->find(device);
  } catch (const IdentitiesUnavailable&) {  // counted as an attempt without a known device
  }
  in_store(weak, done, [=](Shared& sh, store::Store& s) {
    std::optional<store::Account> account = key ? s.account_by_key(*key) : std::nullopt;
    Attempt attempt{address, holder && account && holder->id == account->identity
                                 ? token_hash(device)
                                 : std::string()};
    verified(weak, s, sh, attempt, account, password, done, [=](Shared&) {
      const std::string id = account->identity;
      const std::string checked = account->password_hash;
      std::string rehash = needs_rehash(checked) ? hash_password(password) : "";
      in_store(weak, done, [=](Shared& sh, store::Store& s) {
        auto who = s.identity_by_id(id);
        auto now = s.account_of(id);
        // The password checked must still be the account's: a change since refuses it.
        if (!who || !now || now->password_hash != checked) return done(bad_login());
        require(s.note_login_success(id));
        if (!rehash.empty()) require(s.set_password(id, rehash));
        Answer a;
        a.identity = Identity{who->id, who->name, who->username};
        a.token = sh.identities->issue_token_in(s, id, agent);  // stored with this job
        once_committed(s, std::move(a), done, [id, address] {
          metrics::login("ok");
          spdlog::info("accounts: {} logged in from {}", id,
                       address.empty() ? "this machine" : address);
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
  const std::string id = who.id;
  with_password(
      *shared_, weak, who, keep, address, current, std::move(done), [=](Shared&, const Done& done) {
        std::string hash = hash_password(next);
        in_store(weak, done, [=](Shared& sh, store::Store& s) {
          require(s.set_password(id, hash));
          sh.identities->revoke_tokens_in(s, id, keep);  // every device but this one logs in again
          once_committed(s, {}, done, [id] {
            metrics::account("password_changed");
            spdlog::info("accounts: {} changed its password; its other tokens are revoked", id);
          });
        });
      });
}

void Accounts::recover(std::string address, std::string username, std::string code,
                       std::string password, std::string agent, Done done) {
  const Weak weak = shared_;
  auto key = username_key(username);
  // Refused before any attempt is counted: a weak password says nothing about the code.
  if (key) {
    if (auto problem = password_problem(password, username))
      return done(refused(Refusal::weak_password, "field \"password\": " + *problem));
  }
  auto pass = admitted(*shared_, address, key.value_or("?" + username), std::move(done));
  if (!pass) return;
  done = std::move(*pass);
  in_store(weak, done, [=](Shared& sh, store::Store& s) {
    std::optional<store::Account> account = key ? s.account_by_key(*key) : std::nullopt;
    verified(
        weak, s, sh, {address, {}}, account, code, done,
        [=](Shared&) {
          const std::string id = account->identity;
          const std::string used = account->recovery_hash;
          std::string hash = hash_password(password);
          const std::string next = new_recovery_code();
          in_store(weak, done, [=](Shared& sh, store::Store& s) {
            auto who = s.identity_by_id(id);
            auto now = s.account_of(id);
            // The code checked must still be the account's: used or replaced since, it is not.
            if (!who || !now || now->recovery_hash != used) return done(bad_login());
            require(s.set_password(id, hash));
            require(s.set_recovery(id, recovery_hash(next)));
            sh.identities->revoke_tokens_in(s, id, {});  // every session ends: whoever held one
            Answer a;
            a.identity = Identity{who->id, who->name, who->username};
            a.token = sh.identities->issue_token_in(s, id, agent);  // stored with this job
            a.recovery_code = next;
            once_committed(s, std::move(a), done, [id, address] {
              metrics::account("recovered");
              spdlog::info(
                  "accounts: {} set a new password with its recovery code from {}; "
                  "its sessions are ended",
                  id, address.empty() ? "this machine" : address);
            });
          });
        },
        true);
  });
}

void Accounts::renew_recovery_code(const Identity& who, std::string token, std::string address,
                                   std::string password, Done done) {
  if (who.username.empty())
    return done(refused(Refusal::no_account, "a guest has no account to recover: claim one"));
  const Weak weak = shared_;
  const std::string id = who.id;
  with_password(*shared_, weak, who, token, address, password, std::move(done),
                [=](Shared&, const Done& done) {
                  const std::string code = new_recovery_code();
                  in_store(weak, done, [=](Shared&, store::Store& s) {
                    require(s.set_recovery(id, recovery_hash(code)));
                    Answer a;
                    a.recovery_code = code;
                    once_committed(s, std::move(a), done, [id] {
                      metrics::account("recovery_code");
                      spdlog::info("accounts: {} made a new recovery code", id);
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

void Accounts::erase(const Identity& who, std::string token, std::string address,
                     std::string password, Done done) {
  const Weak weak = shared_;
  const std::string id = who.id;
  auto remove = [weak, id](const Done& done) {
    in_store(weak, done, [=](Shared& sh, store::Store& s) {
      require(s.delete_identity(id, wall_ms()));
      once_committed(s, {}, done, [identities = sh.identities, id] {
        identities->erase(id);
        metrics::account("deleted");
        spdlog::info("accounts: {} deleted its identity", id);
      });
    });
  };
  if (who.username.empty()) return remove(done);
  with_password(*shared_, weak, who, token, address, password, std::move(done),
                [remove](Shared&, const Done& done) { remove(done); });
}

protocol::ErrorCode error_code(Refusal r) {
  using protocol::ErrorCode;
  switch (r) {
    case Refusal::bad_login:
      return ErrorCode::bad_login;
    case Refusal::login_locked:
      return ErrorCode::login_locked;
    case Refusal::busy:
    case Refusal::mail_limited:
      return ErrorCode::rate_limited;
    case Refusal::bad_name:
      return ErrorCode::bad_name;
    case Refusal::username_taken:
      return ErrorCode::username_taken;
    case Refusal::name_reserved:
      return ErrorCode::name_reserved;
    case Refusal::weak_password:
      return ErrorCode::weak_password;
    case Refusal::already_account:
      return ErrorCode::bad_message;
    case Refusal::no_account:
      return ErrorCode::no_account;
    case Refusal::unavailable:
      return ErrorCode::accounts_unavailable;
    case Refusal::already_rated:
      return ErrorCode::already_rated;
    case Refusal::no_such_token:
    case Refusal::bad_token_name:
    case Refusal::none:
    case Refusal::games_in_progress:
    case Refusal::bad_mail:
    case Refusal::mail_taken:
    case Refusal::expired_link:
    case Refusal::mail_unavailable:
      return ErrorCode::internal;
  }
  return ErrorCode::internal;  // not reached: every refusal has its case
}

std::string_view code_of(Refusal r) {
  switch (r) {
    case Refusal::none:
      return "ok";
    case Refusal::games_in_progress:
      return "games_in_progress";
    case Refusal::bad_mail:
      return "bad_mail";
    case Refusal::mail_taken:
      return "mail_taken";
    case Refusal::expired_link:
      return "expired_link";
    case Refusal::mail_unavailable:
      return "mail_unavailable";
    case Refusal::no_such_token:
      return "not_found";
    case Refusal::bad_token_name:
      return "bad_token_name";
    case Refusal::already_rated:
    case Refusal::bad_login:
    case Refusal::login_locked:
    case Refusal::busy:
    case Refusal::mail_limited:
    case Refusal::bad_name:
    case Refusal::username_taken:
    case Refusal::name_reserved:
    case Refusal::weak_password:
    case Refusal::already_account:
    case Refusal::no_account:
    case Refusal::unavailable:
      return protocol::to_string(error_code(r));
  }
  return "internal";  // not reached: every refusal has its case
}

}  // namespace tanbo_server::server::accounts
