// Accounts and mail (docs/protocol.md, "Mail"): an account's address, confirmed by a link sent
// to it, and a new password by a link sent there. Every link is a random token the store keeps
// as its SHA-256, good once and for a while, found by whichever node the link reaches.
#include <spdlog/spdlog.h>

#include "server/accounts/jobs.hpp"
#include "server/accounts/passwords.hpp"
#include "server/identity/identities.hpp"
#include "server/mail/address.hpp"
#include "server/mail/mailer.hpp"
#include "server/metrics/metrics.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server::accounts {

using namespace jobs;

namespace {

Answer no_mail() { return refused(Refusal::mail_unavailable, "this server sends no mail"); }

Answer expired_link() {
  return refused(Refusal::expired_link, "this link is unknown, used or expired: ask for another");
}

Answer guest_no_mail() {
  return refused(Refusal::no_account, "a guest has no mail address: claim an account first");
}

// 160 random bits, the part of a link that opens it.
std::string new_link_token() { return random_hex(20); }

std::string link_to(const Shared& sh, std::string_view view, const std::string& token) {
  return sh.public_url + "/#/" + std::string(view) + "/" + token;
}

std::string from_where(const std::string& address) {
  return address.empty() ? "this machine" : address;
}

}  // namespace

void Accounts::use_mail(std::shared_ptr<mail::Mailer> mailer, std::string public_url) {
  shared_->mailer = std::move(mailer);
  shared_->public_url = std::move(public_url);
}

bool Accounts::has_mail() const { return shared_->mailer != nullptr; }

void Accounts::mail_of(const Identity& who, Done done) {
  if (!has_mail()) return done(no_mail());
  if (who.username.empty()) return done(guest_no_mail());
  in_store(shared_, done, [id = who.id, done](Shared&, store::Store& s) {
    auto account = s.account_of(id);
    if (!account) return done(guest_no_mail());
    Answer a;
    a.mail = account->mail;
    a.pending = s.pending_mail(id, wall_ms()).value_or("");
    if (a.pending == a.mail) a.pending.clear();
    once_committed(s, std::move(a), done);
  });
}

void Accounts::ask_mail(const Identity& who, std::string token, std::string address,
                        std::string password, std::string mail_text, std::string lang, Done done) {
  if (!has_mail()) return done(no_mail());
  if (who.username.empty()) return done(guest_no_mail());
  auto mail = mail::normalize_address(mail_text);
  if (!mail)
    return done(
        refused(Refusal::bad_mail, "field \"mail\": expected an address like name@example.org"));
  const Weak weak = shared_;
  const std::string id = who.id, username = who.username;
  auto ask = [=, mail = *mail](Shared&, const Done& done) {
    in_store(weak, done, [=](Shared& sh, store::Store& s) {
      auto account = s.account_of(id);
      if (!account) return done(guest_no_mail());
      Answer a;
      a.mail = account->mail;
      if (account->mail == mail) {  // its own already: nothing left to confirm
        require(s.end_mail_tokens(id, "confirm"));
        return once_committed(s, std::move(a), done);
      }
      const std::int64_t now = wall_ms();
      const std::string link = new_link_token();
      auto added = s.add_mail_token(
          {token_hash(link), id, "confirm", mail, now, now + kConfirmMinutes * 60 * 1000LL},
          kMailsPerHour);
      if (added.code == store::WriteResult::Code::invalid)
        return done(waiting(Refusal::mail_limited,
                            "this account was sent too many mails lately: try again in an hour",
                            std::chrono::hours(1)));
      require(added);
      // Another account's address is answered alike, so that nobody learns whose it is; it is
      // sent nothing, and could not be confirmed.
      auto holder = s.account_by_mail(mail);
      const bool send = !holder;
      auto m = mail::written(mail::Kind::confirm, lang, mail, username,
                             link_to(sh, "confirm-mail", link), kConfirmMinutes);
      a.pending = mail;
      once_committed(s, std::move(a), done, [weak, m = std::move(m), id, send] {
        metrics::account("mail_asked");
        if (!send) {
          spdlog::info("accounts: {} asked for an address another account has: nothing sent", id);
          return;
        }
        if (auto sh = weak.lock()) sh->mailer->send(m, "address confirmation for " + id);
      });
    });
  };
  with_password(*shared_, weak, who, token, address, std::move(password), std::move(done), ask);
}

void Accounts::remove_mail(const Identity& who, std::string token, std::string address,
                           std::string password, Done done) {
  if (!has_mail()) return done(no_mail());
  if (who.username.empty()) return done(guest_no_mail());
  const Weak weak = shared_;
  const std::string id = who.id;
  with_password(*shared_, weak, who, token, address, std::move(password), std::move(done),
                [=](Shared&, const Done& done) {
                  in_store(weak, done, [=](Shared&, store::Store& s) {
                    require(s.set_mail(id, ""));
                    require(s.end_mail_tokens(id, ""));
                    once_committed(s, {}, done, [id] {
                      metrics::account("mail_removed");
                      spdlog::info("accounts: {} removed its mail address", id);
                    });
                  });
                });
}

void Accounts::confirm_mail(std::string link_token, Done done) {
  if (!has_mail()) return done(no_mail());
  in_store(shared_, done, [done, hash = token_hash(link_token)](Shared&, store::Store& s) {
    std::optional<store::MailToken> t;
    require(s.take_mail_token(hash, "confirm", wall_ms(), t));
    if (!t) return done(expired_link());
    auto r = s.set_mail(t->identity, t->mail);
    if (r.code == store::WriteResult::Code::not_found) return done(expired_link());
    if (r.code == store::WriteResult::Code::duplicate)
      return done(refused(Refusal::mail_taken, "another account confirmed this address first"));
    require(r);
    // The links sent before go: to this address, to another, or for a new password.
    require(s.end_mail_tokens(t->identity, ""));
    Answer a;
    a.identity.id = t->identity;
    a.mail = t->mail;
    once_committed(s, std::move(a), done, [id = t->identity] {
      metrics::account("mail_confirmed");
      spdlog::info("accounts: {} confirmed its mail address", id);
    });
  });
}

void Accounts::forgot_password(std::string address, std::string login, std::string lang,
                               Done done) {
  if (!has_mail()) return done(no_mail());
  if (!address.empty()) {
    std::lock_guard lock(shared_->asked_mutex);
    const auto now = Clock::now();
    if (!shared_->asked.has(address, now))
      return done(waiting(
          Refusal::mail_limited, "too many new passwords asked from this address: try again later",
          std::chrono::ceil<std::chrono::milliseconds>(shared_->asked.wait(address, now))));
    shared_->asked.spend(address, now);
  }
  // The same answer, at once, whatever the store finds: nothing tells the asker whether the
  // account exists, has an address, or was sent a mail.
  done({});
  metrics::account("reset_asked");
  const Weak weak = shared_;
  in_store(
      weak, [](Answer) {},
      [=](Shared& sh, store::Store& s) {
        std::optional<store::Account> account;
        if (login.find('@') != std::string::npos) {
          if (auto mail = mail::normalize_address(login)) account = s.account_by_mail(*mail);
        } else if (auto key = username_key(login)) {
          account = s.account_by_key(*key);
        }
        if (!account || account->mail.empty()) {
          spdlog::info("accounts: a new password asked from {} for no account with an address",
                       from_where(address));
          return;
        }
        const std::string id = account->identity;
        const std::int64_t now = wall_ms();
        const std::string link = new_link_token();
        auto added = s.add_mail_token(
            {token_hash(link), id, "reset", account->mail, now, now + kResetMinutes * 60 * 1000LL},
            kMailsPerHour);
        if (added.code == store::WriteResult::Code::invalid) {
          metrics::account("reset_limited");
          spdlog::info("accounts: a new password asked for {} from {}: sent too many lately", id,
                       from_where(address));
          return;
        }
        require(added);
        auto m = mail::written(mail::Kind::reset, lang, account->mail, account->username,
                               link_to(sh, "reset", link), kResetMinutes);
        s.after_commit([weak, m = std::move(m), id](bool committed) {
          if (!committed) return;
          metrics::account("reset_mailed");
          if (auto sh = weak.lock()) sh->mailer->send(m, "new password link for " + id);
        });
      });
}

void Accounts::reset_password(std::string address, std::string link_token, std::string password,
                              std::string agent, Done done) {
  if (!has_mail()) return done(no_mail());
  const Weak weak = shared_;
  const std::string hash = token_hash(link_token);
  // The link is checked, and the password's rule, before the link is spent: a weak password
  // leaves it good for a better one.
  in_store(weak, done, [=](Shared&, store::Store& s) {
    auto t = s.mail_token(hash, "reset", wall_ms());
    auto account = t ? s.account_of(t->identity) : std::nullopt;
    if (!t || !account || account->mail != t->mail) return done(expired_link());
    if (auto problem = password_problem(password, account->username))
      return done(refused(Refusal::weak_password, "field \"password\": " + *problem));
    const std::string id = account->identity;
    hashing(weak, address, done, [=](Shared&) {
      std::string next = hash_password(password);
      in_store(weak, done, [=](Shared& sh, store::Store& s) {
        std::optional<store::MailToken> taken;
        require(s.take_mail_token(hash, "reset", wall_ms(), taken));
        auto who = s.identity_by_id(id);
        if (!taken || !who || !s.account_of(id)) return done(expired_link());
        require(s.set_password(id, next));
        require(s.end_mail_tokens(id, "reset"));
        sh.identities->revoke_tokens_in(s, id, {});  // every session ends, as with a recovery code
        Answer a;
        a.identity = Identity{who->id, who->name, who->username};
        a.token = sh.identities->issue_token_in(s, id, agent);  // stored with this job
        once_committed(s, std::move(a), done, [id, address] {
          metrics::account("password_reset");
          spdlog::info(
              "accounts: {} set a new password with a link sent by mail, from {}; its sessions "
              "are ended",
              id, from_where(address));
        });
      });
    });
  });
}

}  // namespace tanbo_server::server::accounts
