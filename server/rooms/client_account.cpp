// A connection's account (docs/protocol.md, "Accounts"): a login said with hello, a claim, a
// logout, a password change. The Accounts answer off the strand; the answer comes back to it.
#include <spdlog/spdlog.h>

#include "server/rooms/client.hpp"

namespace tanbo_server::server {

using protocol::ErrorCode;
using protocol::Id;

accounts::Done Client::on_answer(std::function<void(Client&, accounts::Answer)> then) {
  return [weak = weak_from_this(), then = std::move(then)](accounts::Answer a) {
    if (auto self = weak.lock())
      self->on_strand([then, a = std::move(a)](Client& c) mutable { then(c, std::move(a)); });
  };
}

void Client::refuse(const accounts::Answer& a, const Id& re) {
  refuse(accounts::error_code(a.refusal), a.message, re);
}

bool Client::may_rank(bool ranked, const Id& re) {
  if (!ranked || !services_->ranked_requires_account || !identity_->username.empty()) return true;
  refuse(ErrorCode::account_required,
         "ranked games here are for accounts: claim one (a username and a password) first", re);
  return false;
}

void Client::log_in(const protocol::Hello& m, const Id& re) {
  if (!services_->accounts)
    return refuse(ErrorCode::accounts_unavailable, "this server keeps no accounts", re);
  logging_in_ = true;
  services_->accounts->login(peer_->address(), m.login->username, m.login->password,
                             m.login->token.value_or(""), peer_->user_agent(),
                             on_answer([re, name = m.name](Client& c, accounts::Answer a) {
                               c.logging_in_ = false;
                               if (!a.ok()) return c.refuse(a, re);
                               if (name && *name != a.identity.name) {
                                 // Refused: the fresh token goes, and nothing changed.
                                 if (!c.may_choose("name", *name, a.identity.id, re))
                                   return c.services_->identities->revoke_token(a.token);
                                 c.services_->identities->rename(a.identity.id, *name);
                                 a.identity.name = *name;
                               }
                               c.welcome(std::move(a.identity), std::move(a.token), true, re);
                             }));
}

void Client::on(const protocol::Claim& m, const Id& re) {
  if (!services_->accounts || remote_)
    return refuse(ErrorCode::accounts_unavailable, "this server keeps no accounts", re);
  if (!may_claim(m.username, re)) return;
  services_->accounts->claim(*identity_, peer_->address(), m.username, m.password,
                             on_answer([re](Client& c, accounts::Answer a) {
                               if (!a.ok()) return c.refuse(a, re);
                               c.identity_->username = a.identity.username;
                               // The code is said once, here: the store keeps its hash only.
                               auto ok = protocol::ok(re);
                               ok["recovery_code"] = a.recovery_code;
                               c.reply(ok);
                             }));
}

void Client::on(const protocol::Logout& m, const Id& re) {
  if (!services_->accounts || remote_)
    return refuse(ErrorCode::accounts_unavailable, "this server keeps no accounts", re);
  if (is_access_token(token_))  // its owner revokes it (docs/bots-write.md)
    return refuse(ErrorCode::bad_message, "an access token is revoked, not logged out", re);
  services_->accounts->logout(
      *identity_, token_, m.everywhere,
      on_answer([re, everywhere = m.everywhere](Client& c, accounts::Answer a) {
        if (!a.ok()) return c.refuse(a, re);
        c.reply(protocol::ok(re));
        if (everywhere) c.close_others();
        c.peer_->close(CloseCode::normal);
      }));
}

void Client::on(const protocol::ChangePassword& m, const Id& re) {
  if (!services_->accounts || remote_)
    return refuse(ErrorCode::accounts_unavailable, "this server keeps no accounts", re);
  services_->accounts->change_password(*identity_, token_, peer_->address(), m.current, m.password,
                                       on_answer([re](Client& c, accounts::Answer a) {
                                         if (!a.ok()) return c.refuse(a, re);
                                         c.reply(protocol::ok(re));
                                         c.close_others();
                                       }));
}

// Every other connection of the identity, here and on the cluster's other nodes, whose tokens
// were revoked: a client there says hello again and is refused bad_token.
void Client::close_others() {
  if (services_->challenges)
    for (const auto& other : services_->challenges->clients(identity_->id))
      if (other.get() != this) other->revoked();
  if (services_->tell_revoked) services_->tell_revoked(identity_->id);
}

bool Client::holds(const std::string& token_hash) const {
  std::lock_guard lock(token_mutex_);
  return token_hash_ == token_hash;
}

void Client::revoked() {
  on_strand([](Client& c) {
    c.push(protocol::error(ErrorCode::bad_token, "this token was revoked: log in again", Id{}));
    c.peer_->close(CloseCode::normal);
  });
}

}  // namespace tanbo_server::server
