#include "server/accounts/jobs.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/text.hpp"
#include "server/accounts/passwords.hpp"
#include "server/metrics/metrics.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server::accounts::jobs {
namespace {

Answer address_locked(std::chrono::milliseconds left) {
  auto s = std::chrono::ceil<std::chrono::seconds>(left);
  return jobs::waiting(Refusal::login_locked,
                       "too many failed logins from this address; try again in " +
                           (s.count() > 90 ? std::to_string((s.count() + 59) / 60) + " minutes"
                                           : std::to_string(s.count()) + " seconds"),
                       left);
}

}  // namespace

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

Answer waiting(Refusal r, std::string message, std::chrono::milliseconds left) {
  auto a = refused(r, std::move(message));
  a.retry_after = std::max(std::chrono::seconds(1), std::chrono::ceil<std::chrono::seconds>(left));
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

// Runs `job` on the hashing thread, in `address`'s turn; a full queue answers at once.
void hashing(const Weak& weak, const std::string& address, const Done& done,
             std::function<void(Shared&)> job) {
  auto sh = weak.lock();
  if (!sh) return done(unavailable());
  bool posted = sh->hashing.post(address, [weak, done, job = std::move(job)] {
    auto sh = weak.lock();
    if (!sh) return done(unavailable());
    try {
      job(*sh);
    } catch (const std::exception& e) {
      spdlog::error("accounts: hashing failed: {}", e.what());
      done(unavailable());
    }
  });
  if (!posted) {
    metrics::login("busy");
    done(waiting(Refusal::unavailable, "the server is busy checking passwords; try again shortly",
                 std::chrono::seconds(1)));
  }
}

// `answer` once every write queued so far is committed; `then` runs first when it is.
void once_committed(store::Store& s, Answer answer, Done done, std::function<void()> then) {
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

// Lets a password check through the node's gate. On a refusal it answers and returns nullopt;
// else the `done` to answer with, which gives the places back as it answers.
std::optional<Done> admitted(Shared& sh, const std::string& address, const std::string& account,
                             Done done) {
  auto verdict = sh.gate.admit(address, account, Clock::now());
  if (auto* no = std::get_if<LoginGate::Refused>(&verdict)) {
    if (no->why == LoginGate::Refusal::address_locked) {
      metrics::login("locked");
      done(address_locked(no->retry_after));
    } else {
      metrics::login("busy");
      done(waiting(Refusal::busy,
                   "a login for this account or from this address is being checked; try again "
                   "in a moment",
                   no->retry_after));
    }
    return std::nullopt;
  }
  auto pass = std::make_shared<LoginGate::Pass>(std::get<LoginGate::Pass>(std::move(verdict)));
  return [pass, done = std::move(done)](Answer a) {
    pass->release();
    done(std::move(a));
  };
}

// Checks `password` against `account`, from a job on the store's queue: the attempt is counted
// first (the account's count, or the device's own wait), then, once that is committed, the hash
// runs; `then` runs on the hashing thread if it matched. No account, or an attempt that comes
// too soon, costs the time of a wrong password and gets its answer.
void verified(const Weak& weak, store::Store& s, Shared& sh, const Attempt& attempt,
              const std::optional<store::Account>& account, std::string password, Done done,
              std::function<void(Shared&)> then, bool by_code) {
  bool admitted = false;
  if (account && attempt.device.empty()) {
    store::LoginTurn turn;
    require(s.count_login_attempt(
        account->identity, wall_ms(),
        [rules = sh.rules](int attempts) {
          return std::int64_t(wait_after(attempts, rules).count());
        },
        turn));
    admitted = turn.admitted;
  } else if (account) {
    admitted = sh.gate.device_turn(attempt.device, Clock::now(),
                                   [rules = sh.rules](int n) { return wait_after(n, rules); });
  }
  auto check = [=, then = std::move(then)](Shared& sh) {
    if (!admitted) {
      verify_nothing(password);
      metrics::login(account ? "delayed" : "bad_login");
      return done(bad_login());
    }
    // A recovery code is as secret as a password, and compared in constant time too; a wrong
    // one costs the time of a wrong password, so that neither tells which was tried.
    const bool right = by_code ? recovery_code_matches(account->recovery_hash, password)
                               : verify_password(account->password_hash, password);
    if (!right) {
      metrics::login(by_code ? "bad_recovery" : "bad_login");
      spdlog::info("accounts: failed {} for {} from {}", by_code ? "recovery" : "login",
                   account->identity, attempt.address.empty() ? "this machine" : attempt.address);
      return done(bad_login());
    }
    sh.gate.succeeded(attempt.address, attempt.device);
    then(sh);
  };
  s.after_commit([weak, address = attempt.address, done, check = std::move(check)](bool stored) {
    if (!stored) return done(unavailable());
    hashing(weak, address, done, check);
  });
}

// A request of the account holder's own that its password confirms (a new password, a new
// recovery code, erasing the account): through the gate as a login of that account, the
// password checked against the stored account with this device's turn, then `then` on the
// hashing thread with the `done` that gives the gate's places back.
void with_password(Shared& shared, const Weak& weak, const Identity& who, const std::string& token,
                   const std::string& address, std::string password, Done done,
                   std::function<void(Shared&, const Done&)> then) {
  auto pass =
      admitted(shared, address, protocol::fold_case(who.username).value_or(who.username), done);
  if (!pass) return;
  in_store(weak, *pass,
           [=, done = *pass, id = who.id, then = std::move(then)](Shared& sh, store::Store& s) {
             auto account = s.account_of(id);
             if (!account)
               return done(refused(Refusal::no_account, "this identity has no account"));
             verified(weak, s, sh, {address, token_hash(token)}, account, password, done,
                      [done, then](Shared& sh) { then(sh, done); });
           });
}

}  // namespace tanbo_server::server::accounts::jobs
