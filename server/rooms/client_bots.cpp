// Bots on a connection (docs/bots-write.md): an account becomes one, where a bot may seek and
// whom it may challenge, and a bot's own rate limit.
#include <spdlog/spdlog.h>

#include "protocol/server.hpp"
#include "server/metrics/metrics.hpp"
#include "server/rooms/client.hpp"

namespace tanbo_server::server {

using protocol::ErrorCode;
using protocol::Id;

void Client::on(const protocol::BecomeBot&, const Id& re) {
  if (!services_->accounts || remote_)
    return refuse(ErrorCode::accounts_unavailable, "this server keeps no accounts", re);
  services_->accounts->make_bot(*identity_, on_answer([re](Client& c, accounts::Answer a) {
    if (!a.ok()) return c.refuse(a, re);
    c.became_bot();
    c.reply(protocol::ok(re));
  }));
}

void Client::became_bot() {
  if (identity_->bot) return;
  identity_->bot = true;
  bucket_->reset(services_->limits.bot_rate_burst, services_->limits.bot_rate_per_second);
  counted_bot_ = true;
  metrics::bot_connection(true);
}

bool Client::is_bot() {
  // Made a bot by another connection of its account since this one said hello.
  if (!identity_->bot && !remote_)
    if (auto now = services_->identities->by_id(identity_->id); now && now->bot) became_bot();
  return identity_->bot;
}

bool Client::may_seek_pool(const protocol::GameTerms& terms, const Id& re) {
  if (is_bot() && !terms.bots) {
    refuse(ErrorCode::bot_pools_only, "a bot seeks only in the pools for bots: say \"bots\": true",
           re);
    return false;
  }
  if (!identity_->bot && terms.bots) {
    refuse(ErrorCode::bots_only, "the pools with \"bots\": true are for bots", re);
    return false;
  }
  return true;
}

bool Client::may_meet(const std::optional<Identity>& other, const Id& re) {
  if (!other) return true;  // unknown here: refused no_such_player later
  const bool bot = is_bot();
  if (bot == other->bot) return true;
  // The person's consent as this node last read it (an HTTP call may have changed it since this
  // connection's hello).
  std::optional<Identity> me = remote_ ? std::nullopt : services_->identities->by_id(identity_->id);
  const bool plays = bot ? other->play_bots : (me ? me->play_bots : identity_->play_bots);
  if (plays) return true;
  refuse(ErrorCode::bots_refused,
         bot ? "that person does not play bots"
             : "you do not play bots: turn on \"play bots\" in your account first",
         re);
  return false;
}

}  // namespace tanbo_server::server
